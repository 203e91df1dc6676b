import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester, runRule } from '../helpers/rule-tester';

const ID = 'annotation-contradiction';
const FIXTURES = join(__dirname, '..', 'fixtures');

/** A one-tool MCP YAML file with the given annotations block (indented 2). */
function tool(name: string, ann: string, description = 'Do the thing.'): string {
  return `name: ${name}\ndescription: ${description}\ninputSchema:\n  type: object\n  properties: {}\nannotations:\n${ann}`;
}

ruleTester(ID, {
  valid: [
    { name: 'a read-only reader', code: tool('get_gizmo', '  readOnlyHint: true\n  destructiveHint: false\n') },
    { name: 'a destructive writer', code: tool('delete_gizmo', '  readOnlyHint: false\n  destructiveHint: true\n') },
    { name: 'destructive without a read-only claim', code: tool('purge_gizmos', '  destructiveHint: true\n') },
    { name: 'read-only listing', code: tool('list_gizmos', '  readOnlyHint: true\n') },
    { name: 'verbs that often only compute: generate', code: tool('generate_report_summary', '  readOnlyHint: true\n') },
    { name: 'verbs that often only compute: run / execute', code: tool('run_select_query', '  readOnlyHint: true\n') },
    { name: 'a dry run of a deletion reads', code: tool('preview_delete_plan', '  readOnlyHint: true\n') },
    { name: 'export reads', code: tool('export_gizmos_csv', '  readOnlyHint: true\n') },
    { name: 'a noun that is also a verb, followed by the real verb', code: tool('label_list', '  readOnlyHint: true\n') },
    { name: 'a noun that is also a verb, not leading', code: tool('gizmo_status', '  readOnlyHint: true\n') },
    { name: 'read-only false on a writer', code: tool('update_gizmo', '  readOnlyHint: false\n') },
    { name: 'no annotations', code: 'name: update_gizmo\ndescription: Update a gizmo.\ninputSchema: {type: object, properties: {}}\n' },
    {
      name: '`{value}` metadata: read-only and not destructive',
      filename: 'tools.json',
      code: '{"consolidated_tools": [{"name": "get_disks", "description": "Get disks.", "toolMetadata": {"destructive": {"value": false}, "readOnly": {"value": true}}}]}',
    },
    {
      name: 'MXCP: a read-only query tool',
      filename: 'find_pages.yml',
      code: 'mxcp: 1\ntool:\n  name: find_pages\n  description: Find pages by title.\n  annotations:\n    readOnlyHint: true\n    destructiveHint: false\n  source:\n    code: select 1\n',
    },
  ],
  invalid: [
    {
      name: 'YAML: read-only and destructive',
      code: tool('purge_cache', '  readOnlyHint: true\n  destructiveHint: true\n  idempotentHint: true\n'),
      errors: [
        {
          messageId: 'destructive',
          line: 7,
          column: 17,
          endColumn: 21,
          tool: 'purge_cache',
          parameter: null,
          pointer: '/annotations/readOnlyHint',
          severity: 'error',
          suggestionOutputs: [tool('purge_cache', '  readOnlyHint: false\n  destructiveHint: true\n  idempotentHint: true\n'), tool('purge_cache', '  readOnlyHint: true\n  idempotentHint: true\n')],
        },
      ],
    },
    {
      name: 'YAML: a name that says it updates',
      code: tool('update_gizmo', '  title: Update gizmo\n  readOnlyHint: true\n'),
      errors: [{ messageId: 'writes', line: 8, column: 17, tool: 'update_gizmo', messageIncludes: 'verb `update`', suggestionOutputs: [tool('update_gizmo', '  title: Update gizmo\n  readOnlyHint: false\n')] }],
    },
    {
      name: 'JSON: camelCase name that says it creates',
      filename: 'tools.json',
      code: '[\n  {\n    "name": "createGizmo",\n    "description": "Create a gizmo.",\n    "inputSchema": {"type": "object", "properties": {}},\n    "annotations": {"readOnlyHint": true, "openWorldHint": false}\n  }\n]\n',
      errors: [
        {
          messageId: 'writes',
          line: 6,
          column: 37,
          endColumn: 41,
          tool: 'createGizmo',
          pointer: '/0/annotations/readOnlyHint',
          suggestionOutputs: ['[\n  {\n    "name": "createGizmo",\n    "description": "Create a gizmo.",\n    "inputSchema": {"type": "object", "properties": {}},\n    "annotations": {"readOnlyHint": false, "openWorldHint": false}\n  }\n]\n'],
        },
      ],
    },
    {
      name: 'JSON map keyed by kebab-case name',
      filename: 'tools.json',
      code: '{\n  "issue-write": {"description": "Create or update an issue.", "annotations": {"readOnlyHint": true}}\n}\n',
      errors: [{ messageId: 'writes', line: 2, column: 96, tool: 'issue-write', messageIncludes: 'verb `write`', suggestionOutputs: ['{\n  "issue-write": {"description": "Create or update an issue.", "annotations": {"readOnlyHint": false}}\n}\n'] }],
    },
    {
      name: '`{value}` metadata: both true',
      filename: 'tools.json',
      code: '{"consolidated_tools": [\n  {"name": "rotate_keys", "description": "Rotate keys.", "toolMetadata": {"destructive": {"value": true, "description": "Destroys old keys."}, "readOnly": {"value": true, "description": "Reads."}}}\n]}\n',
      errors: [
        {
          messageId: 'destructive',
          line: 2,
          column: 166,
          pointer: '/consolidated_tools/0/toolMetadata/readOnly/value',
          messageIncludes: '`readOnly: true` contradicts `destructive: true`',
          suggestionOutputs: [
            '{"consolidated_tools": [\n  {"name": "rotate_keys", "description": "Rotate keys.", "toolMetadata": {"destructive": {"value": true, "description": "Destroys old keys."}, "readOnly": {"value": false, "description": "Reads."}}}\n]}\n',
            '{"consolidated_tools": [\n  {"name": "rotate_keys", "description": "Rotate keys.", "toolMetadata": {"destructive": {"value": false, "description": "Destroys old keys."}, "readOnly": {"value": true, "description": "Reads."}}}\n]}\n',
          ],
        },
      ],
    },
    {
      name: 'MXCP: a tool that sends',
      filename: 'send_digest.yml',
      code: 'mxcp: 1\ntool:\n  name: send_digest\n  description: Email the weekly digest to subscribers.\n  annotations:\n    readOnlyHint: true\n  source:\n    code: select 1\n',
      errors: [
        {
          messageId: 'writes',
          line: 6,
          column: 19,
          tool: 'send_digest',
          pointer: '/tool/annotations/readOnlyHint',
          suggestionOutputs: ['mxcp: 1\ntool:\n  name: send_digest\n  description: Email the weekly digest to subscribers.\n  annotations:\n    readOnlyHint: false\n  source:\n    code: select 1\n'],
        },
      ],
    },
  ],
});

test(`${ID}: seed 000 catalogues carry no annotations to contradict`, () => {
  for (const f of ['before.yaml', 'after.yaml']) {
    const code = readFileSync(join(FIXTURES, 'seed000', f), 'utf8');
    assert.deepEqual(runRule(ID, { code, filename: 'before.yaml' }).diagnostics.map((d) => d.message), [], f);
  }
});

test(`${ID}: fixtures — a catalogue annotated right stays quiet; \`{value}\` metadata contradictions are found`, () => {
  const clean = runRule(ID, { code: readFileSync(join(FIXTURES, 'annotations', 'clean.yaml'), 'utf8'), filename: 'clean.yaml' }).diagnostics;
  assert.deepEqual(clean.map((d) => d.message), []);
  const meta = runRule(ID, { code: readFileSync(join(FIXTURES, 'annotations', 'consolidated.json'), 'utf8'), filename: 'consolidated.json' }).diagnostics;
  assert.deepEqual(
    meta.map((d) => [d.messageId, d.tool, d.pointer]),
    [
      ['destructive', 'rotate_vault_keys', '/consolidated_tools/4/toolMetadata/readOnly/value'],
      ['writes', 'send_vault_report', '/consolidated_tools/5/toolMetadata/readOnly/value'],
    ],
  );
});
