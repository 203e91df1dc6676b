import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester, runRule } from '../helpers/rule-tester';

const ID = 'annotation-destructive-missing';
const FIXTURES = join(__dirname, '..', 'fixtures');

/** A one-tool MCP YAML file; `extra` is appended at the tool's level (e.g. an annotations block). */
function tool(name: string, description: string, extra = ''): string {
  return `name: ${name}\ndescription: ${description}\ninputSchema:\n  type: object\n  properties:\n    id: {type: string, description: The record.}\n${extra}`;
}

ruleTester(ID, {
  valid: [
    { name: 'marked destructive', code: tool('delete_gizmo', 'Delete a gizmo.', 'annotations:\n  readOnlyHint: false\n  destructiveHint: true\n') },
    { name: 'a tool that only reads', code: tool('list_gizmos', 'List gizmos; deleted gizmos are left out.') },
    { name: 'a tool that creates', code: tool('create_gizmo', 'Create a gizmo.') },
    { name: 'a reversing verb leads the name (its description says "Removes")', code: tool('untrash_email', 'Removes the email from the trash and puts it back in the inbox.') },
    { name: 'undo of a deletion', code: tool('undo_soft_delete_gizmo', 'Undo the soft deletion of a gizmo.') },
    { name: 'restore leads the name', code: tool('restore_deleted_file', 'Restore a deleted file from the recycle bin.') },
    { name: 'removal from content being transformed', code: tool('remove_image_background', 'Remove the background from an image and return the cut-out.') },
    { name: 'a figure of speech ("removes the need")', code: tool('session_bridge', 'Removes the need to sign in again when switching apps.') },
    { name: 'description negates overwriting', code: tool('append_log_line', 'Append a line to a log file. Never overwrites existing lines.') },
    { name: 'replacing occurrences in text is an edit, not a wipe', code: tool('search_and_replace', 'Search for text and replace all occurrences in the given string.') },
    { name: 'a query tool that rejects destructive statements', code: tool('run_sql_query', 'Run a read-only SELECT query. Rejects INSERT, DELETE, DROP and other destructive statements.') },
    { name: 'cancelling an order is a reversible state change, not data loss', code: tool('cancel_order', 'Cancel a pending order.') },
    { name: 'clearing a cache, resetting a password or ending a process is not data loss', code: tool('clear_local_cache', 'Clear the local cache.') + '---\n' + tool('reset_user_password', 'Reset a password and email a link.') + '---\n' + tool('kill_shell_process', 'Terminate a running process.') },
    { name: 'dry runs and questions lead the name', code: tool('preview_delete_plan', 'Show what a delete would remove, without deleting.') + '---\n' + tool('can_delete_file', 'Whether the caller may delete a file.') },
    { name: 'truncating text passed in is a transformation', code: tool('truncate_text_value', 'Truncate a string to a maximum length.') },
    { name: 'dropping a pin adds something', code: tool('drop_map_pin', 'Drop a pin at the given coordinates.') },
    { name: 'a leading destroying word used as a noun', code: tool('records_gateway', 'Delete operations are not supported; use archive instead.') },
    { name: 'a figure of speech ("drops you into")', code: tool('interactive_shell', 'Drops you into an interactive shell.') },
    { name: '"overwrite" as a noun, and negated', code: tool('docs_store', 'Overwrite protection is on by default; files are never overwritten.') },
    { name: 'read-only tools are left to annotation-contradiction', code: tool('delete_cache_entry', 'Delete a cache entry.', 'annotations:\n  readOnlyHint: true\n') },
    {
      name: 'explicit false on a tool that lists removal among several operations is the author\'s call',
      code: tool('update_task_due_date', 'Set or remove the due date of a task.', 'annotations:\n  readOnlyHint: false\n  destructiveHint: false\n'),
    },
    {
      name: 'seed 001 format: `dangerous` or `requires_approval` marks it',
      code: 'name: labkit-mcp_tool_run_wipe\ndescription: Wipe the scratch folder of a run.\nparameters:\n  type: object\n  properties:\n    run: {type: string, description: Run name.}\ncategory: pipeline\nrequires_approval: true\nimplementation_example: wipe()\n',
    },
    {
      name: 'seed 001 format: YAML 1.1 `yes`',
      code: 'name: labkit-mcp_tool_run_wipe\ndescription: Wipe the scratch folder of a run.\nparameters:\n  type: object\n  properties:\n    run: {type: string, description: Run name.}\ncategory: pipeline\ndangerous: yes\nimplementation_example: wipe()\n',
    },
    {
      name: 'a REST catalogue\'s own confirmation flag',
      code: 'tools:\n  - name: unlink_label\n    method: DELETE\n    path: /labels/{label_id}/links/{item_id}\n    requires_confirmation: true\n    description: Unlink a label from an item.\n',
    },
    {
      name: '`{value}` metadata marked destructive',
      filename: 'tools.json',
      code: '{"consolidated_tools": [{"name": "delete_disks", "description": "Delete disks.", "toolMetadata": {"destructive": {"value": true}, "readOnly": {"value": false}}}]}',
    },
    {
      name: 'function-calling definitions have no place for annotations',
      filename: 'functions.json',
      code: '[{"type": "function", "function": {"name": "delete_row", "description": "Delete a row.", "parameters": {"type": "object", "properties": {"row_id": {"type": "string"}}}}}]',
    },
    {
      name: 'MXCP: marked under tool',
      filename: 'delete_page.yml',
      code: 'mxcp: 1\ntool:\n  name: delete_page\n  description: Delete a page.\n  annotations:\n    destructiveHint: true\n  parameters:\n    - name: page_id\n      type: string\n      description: Page.\n  source:\n    code: select 1\n',
    },
  ],
  invalid: [
    {
      name: 'YAML: annotations without destructiveHint',
      code: tool('delete_gizmo', 'Delete a gizmo.', 'annotations:\n  readOnlyHint: false\n'),
      errors: [{ messageId: 'missing', line: 1, column: 7, endColumn: 19, tool: 'delete_gizmo', parameter: null, pointer: '/name', messageIncludes: 'its name says `delete`' }],
      output: tool('delete_gizmo', 'Delete a gizmo.', 'annotations:\n  readOnlyHint: false\n  destructiveHint: true\n'),
    },
    {
      name: 'YAML: no annotations at all',
      code: tool('delete_gizmo', 'Delete a gizmo.'),
      errors: [{ messageId: 'missing', line: 1, column: 7, tool: 'delete_gizmo', messageIncludes: 'not marked `destructiveHint: true`' }],
      output: tool('delete_gizmo', 'Delete a gizmo.', 'annotations:\n  destructiveHint: true\n'),
    },
    {
      name: 'YAML: `destructiveHint: null` is no hint',
      code: tool('delete_gizmo', 'Delete a gizmo.', 'annotations:\n  destructiveHint: null\n'),
      errors: [{ messageId: 'missing', line: 1, column: 7 }],
      output: tool('delete_gizmo', 'Delete a gizmo.', 'annotations:\n  destructiveHint: true\n'),
    },
    {
      name: 'YAML list, camelCase name, flow-style annotations',
      code: 'tools:\n  - name: list_gizmos\n    description: List gizmos.\n    inputSchema: {type: object, properties: {}}\n  - name: removeGizmoMember\n    description: Remove a member from a gizmo.\n    inputSchema: {type: object, properties: {}}\n    annotations: {readOnlyHint: false}\n',
      errors: [{ messageId: 'missing', line: 5, column: 11, endColumn: 28, tool: 'removeGizmoMember', pointer: '/tools/1/name', messageIncludes: '`remove`' }],
      output: 'tools:\n  - name: list_gizmos\n    description: List gizmos.\n    inputSchema: {type: object, properties: {}}\n  - name: removeGizmoMember\n    description: Remove a member from a gizmo.\n    inputSchema: {type: object, properties: {}}\n    annotations: {readOnlyHint: false, destructiveHint: true}\n',
    },
    {
      name: 'JSON: no annotations',
      filename: 'tools.json',
      code: '{\n  "tools": [\n    {\n      "name": "purge_queue",\n      "description": "Purge all messages from a queue.",\n      "inputSchema": {"type": "object", "properties": {}}\n    }\n  ]\n}\n',
      errors: [{ messageId: 'missing', line: 4, column: 15, endColumn: 28, tool: 'purge_queue', parameter: null, pointer: '/tools/0/name' }],
      output: '{\n  "tools": [\n    {\n      "name": "purge_queue",\n      "description": "Purge all messages from a queue.",\n      "inputSchema": {"type": "object", "properties": {}},\n      "annotations": {"destructiveHint":true}\n    }\n  ]\n}\n',
    },
    {
      name: 'JSON: `destructiveHint: false` on a deleting tool (a suggestion: someone chose false)',
      filename: 'tools.json',
      code: '[\n  {\n    "name": "revoke_token",\n    "description": "Revoke an access token.",\n    "inputSchema": {"type": "object", "properties": {}},\n    "annotations": {"readOnlyHint": false, "destructiveHint": false}\n  }\n]\n',
      errors: [
        {
          messageId: 'markedFalse',
          line: 6,
          column: 63,
          endColumn: 68,
          tool: 'revoke_token',
          pointer: '/0/annotations/destructiveHint',
          suggestionOutputs: ['[\n  {\n    "name": "revoke_token",\n    "description": "Revoke an access token.",\n    "inputSchema": {"type": "object", "properties": {}},\n    "annotations": {"readOnlyHint": false, "destructiveHint": true}\n  }\n]\n'],
        },
      ],
    },
    {
      name: 'MXCP: annotations go under `tool:`',
      filename: 'drop_table.yml',
      code: 'mxcp: 1\ntool:\n  name: drop_table\n  description: Drop a table from the warehouse.\n  parameters:\n    - name: table\n      type: string\n      description: Table name.\n  source:\n    code: select 1\n',
      errors: [{ messageId: 'missing', line: 3, column: 9, tool: 'drop_table', pointer: '/tool/name' }],
      output: 'mxcp: 1\ntool:\n  name: drop_table\n  description: Drop a table from the warehouse.\n  parameters:\n    - name: table\n      type: string\n      description: Table name.\n  source:\n    code: select 1\n  annotations:\n    destructiveHint: true\n',
    },
    {
      name: 'seed 001 format: the fix sets the format\'s own `dangerous` flag',
      code: '# Generated from roxygen comments.\nname: labkit-mcp_tool_cache_purge\ndescription: Purge cached results of a pipeline.\nparameters:\n  type: object\n  properties:\n    pipeline: {type: string, description: Pipeline name.}\ncategory: pipeline\nimplementation_example: purge()\n',
      errors: [{ messageId: 'missing', line: 2, column: 7, messageIncludes: 'not marked `dangerous: true`' }],
      output: '# Generated from roxygen comments.\nname: labkit-mcp_tool_cache_purge\ndescription: Purge cached results of a pipeline.\nparameters:\n  type: object\n  properties:\n    pipeline: {type: string, description: Pipeline name.}\ncategory: pipeline\nimplementation_example: purge()\ndangerous: true\n',
    },
    {
      name: 'seed 001 format: `dangerous: false`',
      code: 'name: labkit-mcp_tool_cache_purge\ndescription: Purge cached results of a pipeline.\nparameters:\n  type: object\n  properties:\n    pipeline: {type: string, description: Pipeline name.}\ncategory: pipeline\ndangerous: false\nimplementation_example: purge()\n',
      errors: [
        {
          messageId: 'markedFalse',
          line: 8,
          column: 12,
          pointer: '/dangerous',
          suggestionOutputs: ['name: labkit-mcp_tool_cache_purge\ndescription: Purge cached results of a pipeline.\nparameters:\n  type: object\n  properties:\n    pipeline: {type: string, description: Pipeline name.}\ncategory: pipeline\ndangerous: true\nimplementation_example: purge()\n'],
        },
      ],
    },
    {
      name: '`{value}` metadata: a multi-operation tool without the key, and a deleting tool marked false',
      filename: 'tools.json',
      code: '{"consolidated_tools": [\n  {"name": "manage_disks", "description": "Create, resize or delete managed disks.", "toolMetadata": {"readOnly": {"value": false, "description": "Writes."}}},\n  {"name": "delete_snapshots", "description": "Delete disk snapshots.", "toolMetadata": {"destructive": {"value": false, "description": "Additive only."}}}\n]}\n',
      errors: [
        { messageId: 'missing', line: 2, column: 12, tool: 'manage_disks', messageIncludes: 'its description says `delete`' },
        {
          messageId: 'markedFalse',
          line: 3,
          column: 115,
          tool: 'delete_snapshots',
          pointer: '/consolidated_tools/1/toolMetadata/destructive/value',
          suggestionOutputs: ['{"consolidated_tools": [\n  {"name": "manage_disks", "description": "Create, resize or delete managed disks.", "toolMetadata": {"readOnly": {"value": false, "description": "Writes."}}},\n  {"name": "delete_snapshots", "description": "Delete disk snapshots.", "toolMetadata": {"destructive": {"value": true, "description": "Additive only."}}}\n]}\n'],
        },
      ],
      output: '{"consolidated_tools": [\n  {"name": "manage_disks", "description": "Create, resize or delete managed disks.", "toolMetadata": {"readOnly": {"value": false, "description": "Writes."},"destructive": {"value":true}}},\n  {"name": "delete_snapshots", "description": "Delete disk snapshots.", "toolMetadata": {"destructive": {"value": false, "description": "Additive only."}}}\n]}\n',
    },
    {
      name: 'description lists removal among its operations',
      code: tool('issue_links', 'Add or remove links between two issues.', 'annotations:\n  title: Issue links\n'),
      errors: [{ messageId: 'missing', line: 1, column: 7, messageIncludes: 'its description says `remove`' }],
      output: tool('issue_links', 'Add or remove links between two issues.', 'annotations:\n  title: Issue links\n  destructiveHint: true\n'),
    },
    {
      name: 'description says it overwrites',
      code: tool('put_object', 'Store an object under a key. An existing object with the same key is overwritten.'),
      errors: [{ messageId: 'missing', line: 1, column: 7, messageIncludes: '`overwritten`' }],
      output: tool('put_object', 'Store an object under a key. An existing object with the same key is overwritten.', 'annotations:\n  destructiveHint: true\n'),
    },
    {
      name: 'truncating a table',
      code: tool('truncate_table', 'Truncate a table, removing all rows.'),
      errors: [{ messageId: 'missing', line: 1, column: 7, messageIncludes: '`truncate`' }],
      output: tool('truncate_table', 'Truncate a table, removing all rows.', 'annotations:\n  destructiveHint: true\n'),
    },
    {
      name: 'description calls it permanent',
      code: tool('empty_trash', 'Permanently deletes every message in the trash.'),
      errors: [{ messageId: 'missing', line: 1, column: 7, messageIncludes: '`Permanently deletes`' }],
      output: tool('empty_trash', 'Permanently deletes every message in the trash.', 'annotations:\n  destructiveHint: true\n'),
    },
    {
      name: 'description calls it destructive',
      code: tool('zone_reset', 'Reset a zone to its defaults (destructive operation).'),
      errors: [{ messageId: 'missing', line: 1, column: 7, messageIncludes: '`destructive`' }],
      output: tool('zone_reset', 'Reset a zone to its defaults (destructive operation).', 'annotations:\n  destructiveHint: true\n'),
    },
    {
      name: 'REST catalogue: HTTP DELETE, and the fix uses the file\'s own confirmation flag',
      code: 'tools:\n  - name: list_labels\n    method: GET\n    path: /labels\n    requires_confirmation: false\n    description: List labels.\n  - name: label_association\n    method: DELETE\n    path: /labels/{label_id}/items/{item_id}\n    description: Detach a label from an item.\n',
      errors: [{ messageId: 'missing', line: 7, column: 11, tool: 'label_association', messageIncludes: 'its HTTP method is `DELETE`) but is not marked `requires_confirmation: true`' }],
      output: 'tools:\n  - name: list_labels\n    method: GET\n    path: /labels\n    requires_confirmation: false\n    description: List labels.\n  - name: label_association\n    method: DELETE\n    path: /labels/{label_id}/items/{item_id}\n    description: Detach a label from an item.\n    requires_confirmation: true\n',
    },
    {
      name: 'a map keyed by kebab-case tool name',
      filename: 'tools.json',
      code: '{\n  "gizmo-delete": {"description": "Delete a gizmo by ID.", "annotations": {"title": "Delete gizmo"}},\n  "gizmo-get": {"description": "Get a gizmo.", "annotations": {"readOnlyHint": true}}\n}\n',
      errors: [{ messageId: 'missing', line: 2, column: 3, endColumn: 17, tool: 'gizmo-delete', pointer: '/gizmo-delete' }],
      output: '{\n  "gizmo-delete": {"description": "Delete a gizmo by ID.", "annotations": {"title": "Delete gizmo","destructiveHint": true}},\n  "gizmo-get": {"description": "Get a gizmo.", "annotations": {"readOnlyHint": true}}\n}\n',
    },
  ],
});

test(`${ID}: seed 000 — no deleting tool in the catalogue, and the improved catalogue stays quiet`, () => {
  for (const f of ['before.yaml', 'after.yaml']) {
    const code = readFileSync(join(FIXTURES, 'seed000', f), 'utf8');
    assert.deepEqual(runRule(ID, { code, filename: 'before.yaml' }).diagnostics.map((d) => d.message), [], f);
  }
});

test(`${ID}: fixtures — a catalogue annotated right stays quiet`, () => {
  const code = readFileSync(join(FIXTURES, 'annotations', 'clean.yaml'), 'utf8');
  assert.deepEqual(runRule(ID, { code, filename: 'clean.yaml' }).diagnostics.map((d) => d.message), []);
});

test(`${ID}: fixtures — seed 001 tool file and \`{value}\` metadata`, () => {
  const rox = runRule(ID, { code: readFileSync(join(FIXTURES, 'annotations', 'roxygen-tool.yaml'), 'utf8'), filename: 'roxygen-tool.yaml' }).diagnostics;
  assert.deepEqual(rox.map((d) => [d.messageId, d.range.start.line, d.fix?.title]), [['missing', 2, 'Add `dangerous: true`']]);
  const meta = runRule(ID, { code: readFileSync(join(FIXTURES, 'annotations', 'consolidated.json'), 'utf8'), filename: 'consolidated.json' }).diagnostics;
  assert.deepEqual(
    meta.map((d) => [d.messageId, d.tool, d.pointer]),
    [
      ['markedFalse', 'delete_vault_items', '/consolidated_tools/1/toolMetadata/destructive/value'],
      ['missing', 'remove_vault_network_rules', '/consolidated_tools/3/name'],
    ],
  );
});
