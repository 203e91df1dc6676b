import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester, runRule } from '../helpers/rule-tester';

const ID = 'system-field-exposed';

/** A one-tool YAML file with the given name, description and properties block (indented 4). */
function tool(name: string, props: string, extra = '', description = 'Do the thing.'): string {
  return `name: ${name}\ndescription: ${description}\ninputSchema:\n  type: object\n  properties:\n${props}${extra}`;
}

ruleTester(ID, {
  valid: [
    { name: 'the tool\'s own entity id on an update tool is its target', code: tool('update_user', '    user_id: {type: string, format: uuid, description: User.}\n    name: {type: string, description: New name.}\n') },
    { name: 'an id on a read tool is its target', code: tool('get_widget', '    widget_id: {type: string, description: Widget.}\n    id: {type: string, format: uuid, description: Widget ID.}\n') },
    { name: 'the field the tool is about (assign → assignee)', code: tool('assign_task', '    task_id: {type: string, description: The task.}\n    assignee_id: {type: string, description: Assignee.}\n') },
    { name: 'a tool acting on a person (member ~ user)', code: tool('invite_member', '    user_id: {type: string, description: User.}\n') },
    { name: 'ownership explained for the model', code: tool('create_issue', '    title: {type: string, description: Title.}\n    assignee_id: {type: string, description: ID of the user to assign the issue to; from list_users.}\n') },
    {
      name: 'the catalogue has a tool to look the value up',
      code: 'tools:\n  - name: list_users\n    description: List users.\n    inputSchema: {type: object, properties: {}}\n  - name: create_task\n    description: Create a task.\n    inputSchema:\n      type: object\n      properties:\n        title: {type: string, description: Title.}\n        assigneeId: {type: string, description: Assignee.}\n',
    },
    { name: 'required ownership is an input by contract', code: tool('create_service', '    owner_id: {type: string, description: Owner.}\n    name: {type: string, description: Name.}\n', '  required: [owner_id, name]\n') },
    { name: 'list tools filter by owner', code: tool('list_projects', '    owner_id: {type: string, format: uuid, description: Owner.}\n    created_at: {type: string, description: Created after.}\n') },
    { name: 'fields inside filter criteria', code: tool('create_report', '    title: {type: string, description: Title.}\n    filters:\n      type: object\n      description: Which records to include.\n      properties:\n        user_id: {type: string, description: User.}\n        status_id: {type: string, description: Status.}\n') },
    { name: 'nested items that pick people', code: tool('create_team', '    name: {type: string, description: Name.}\n    members:\n      type: array\n      description: Team members.\n      items:\n        type: object\n        properties:\n          user_id: {type: string, description: User.}\n') },
    { name: 'an id with nothing saying it is the new record\'s', code: tool('create_presentation', '    id:\n      type: string\n') },
    { name: 'an id of another entity on a create tool', code: tool('create_file', '    id: {type: string, format: uuid, description: ID of the parent folder to create the file in.}\n') },
    { name: 'upserts take the record\'s id to find it', code: tool('sync_contact', '    id: {type: string, format: uuid, description: Contact ID.}\n') },
    { name: 'timestamps on an update tool are not in the default list', code: tool('update_event', '    event_id: {type: string, description: Event.}\n    start_at: {type: string, description: Start.}\n') },
    {
      name: 'conditional "omit" wording',
      code: tool(
        'list_tests',
        '    limit: {type: integer, description: "If omitted, defaults to 10."}\n    name: {type: string, description: Omit to keep unchanged.}\n    priority: {type: integer, description: Omit if unsure.}\n    score: {type: integer, description: An integer or omit.}\n    categories: {type: array, items: {type: string}, description: Do not send an empty list.}\n    icon: {type: string, description: Omit unless the user asked for a specific icon.}\n    size: {type: integer, description: "Optional: set by the server when omitted."}\n',
      ),
    },
    { name: 'ignored names', options: { ignore: ['id', 'nanoId'] }, code: tool('create_widget', '    name: {type: string, description: Name.}\n    id: {type: string, format: uuid, description: Widget ID.}\n    nano_id: {type: string, description: Short ID.}\n') },
    { name: 'hidden by a non-standard `visible` list', code: tool('create_widget', '    name: {type: string, description: Name.}\n    id: {type: string, format: uuid, description: Widget ID.}\n', '  visible: [name]\n') },
    { name: 'configured fields apply only to tools that write', options: { fields: ['workspace_id'] }, code: tool('get_report', '    workspace_id: {type: string, description: Workspace.}\n') },
    { name: 'a read-only mode is not a read-only field', code: tool('open_database', '    read_only: {type: boolean, description: Open the database read-only.}\n') },
    {
      name: 'JSON: a required owner is an input by contract',
      filename: 'tools.json',
      code: '{\n  "name": "create_note",\n  "description": "Create a note.",\n  "inputSchema": {\n    "type": "object",\n    "properties": {\n      "text": {"type": "string", "description": "Note text."},\n      "owner_id": {"type": "string", "description": "Owner."}\n    },\n    "required": ["text", "owner_id"]\n  }\n}\n',
    },
    {
      name: 'nested: a required owner is an input by contract',
      code: tool(
        'create_test_set_bulk',
        '    name: {type: string, description: Name.}\n    tests:\n      type: array\n      description: Tests.\n      items:\n        type: object\n        properties:\n          topic: {type: string, description: Topic.}\n          owner_id: {anyOf: [{type: string, format: uuid}, {type: "null"}], description: Owner.}\n        required: [topic, owner_id]\n',
        '  required: [name, tests]\n',
      ),
    },
  ],
  invalid: [
    {
      name: 'create tool exposing id, timestamps and ownership (YAML)',
      code: tool(
        'create_project',
        '    name: {type: string, description: Project name.}\n    id: {type: string, format: uuid, description: Project ID.}\n    nanoId: {type: string, description: Short ID.}\n    created_at: {type: string, description: Creation time.}\n    organizationId: {type: string, format: uuid, description: Organization.}\n    status_id: {type: string, description: Status.}\n',
        '  required: [name]\n',
      ),
      errors: [
        { messageId: 'ownId', line: 7, column: 5, endColumn: 7, parameter: 'id', tool: 'create_project' },
        { messageId: 'ownId', line: 8, column: 5, parameter: 'nanoId' },
        { messageId: 'audit', line: 9, column: 5, parameter: 'created_at' },
        { messageId: 'ownership', line: 10, column: 5, parameter: 'organizationId' },
        { messageId: 'ownership', line: 11, column: 5, parameter: 'status_id' },
      ],
      output: tool('create_project', '    name: {type: string, description: Project name.}\n', '  required: [name]\n'),
    },
    {
      name: 'JSON: optional owner, the fix removes the member',
      filename: 'tools.json',
      code: '{\n  "name": "create_note",\n  "description": "Create a note.",\n  "inputSchema": {\n    "type": "object",\n    "properties": {\n      "text": {"type": "string", "description": "Note text."},\n      "ownerId": {"type": "string", "description": "Owner."}\n    },\n    "required": ["text"]\n  }\n}\n',
      errors: [{ messageId: 'ownership', line: 8, column: 7, endColumn: 16, parameter: 'ownerId', pointer: '/inputSchema/properties/ownerId' }],
      output: '{\n  "name": "create_note",\n  "description": "Create a note.",\n  "inputSchema": {\n    "type": "object",\n    "properties": {\n      "text": {"type": "string", "description": "Note text."}\n    },\n    "required": ["text"]\n  }\n}\n',
    },
    {
      name: 'JSON: a description that says to omit it, required too',
      filename: 'tools.json',
      code: '{\n  "name": "update_doc",\n  "description": "Update a document.",\n  "inputSchema": {\n    "type": "object",\n    "properties": {\n      "doc_id": {"type": "string", "description": "The document."},\n      "revision": {"type": "integer", "description": "Server-managed. Do not send."}\n    },\n    "required": ["doc_id", "revision"]\n  }\n}\n',
      errors: [{ messageId: 'described', line: 8, column: 7, parameter: 'revision', messageIncludes: '("Server-managed.")' }],
      output: '{\n  "name": "update_doc",\n  "description": "Update a document.",\n  "inputSchema": {\n    "type": "object",\n    "properties": {\n      "doc_id": {"type": "string", "description": "The document."}\n    },\n    "required": ["doc_id"]\n  }\n}\n',
    },
    {
      name: 'nested records being created (optional owner)',
      code: tool(
        'create_test_set_bulk',
        '    name: {type: string, description: Name.}\n    tests:\n      type: array\n      description: Tests.\n      items:\n        type: object\n        properties:\n          topic: {type: string, description: Topic.}\n          owner_id: {anyOf: [{type: string, format: uuid}, {type: "null"}], description: Owner.}\n          updatedBy: {type: string, description: Last editor.}\n        required: [topic]\n',
      ),
      errors: [
        { messageId: 'ownership', line: 14, column: 11, parameter: 'tests[].owner_id' },
        { messageId: 'audit', line: 15, column: 11, parameter: 'tests[].updatedBy' },
      ],
      output: tool(
        'create_test_set_bulk',
        '    name: {type: string, description: Name.}\n    tests:\n      type: array\n      description: Tests.\n      items:\n        type: object\n        properties:\n          topic: {type: string, description: Topic.}\n        required: [topic]\n',
      ),
    },
    {
      name: 'readOnly and hidden `.` parameters on any tool',
      code: tool('get_job', '    job_id: {type: string, description: The job.}\n    state: {type: string, readOnly: true, description: Job state.}\n    .state_env: {type: object, description: Session state.}\n', '  required: [job_id, .state_env]\n'),
      errors: [
        { messageId: 'readOnly', line: 7, column: 5, parameter: 'state' },
        { messageId: 'hidden', line: 8, column: 5, parameter: '.state_env' },
      ],
      output: tool('get_job', '    job_id: {type: string, description: The job.}\n', '  required: [job_id]\n'),
    },
    {
      name: 'MXCP parameter list: removing the entry is the whole fix',
      filename: 'note.yml',
      code: 'mxcp: 1\ntool:\n  name: create_note\n  description: Create a note.\n  parameters:\n    - name: text\n      type: string\n      description: Note text.\n    - name: .state_env\n      type: object\n      description: Session state.\n    - name: created_at\n      type: string\n      description: When it was created.\n      default: null\n',
      errors: [
        { messageId: 'hidden', line: 9, column: 13, parameter: '.state_env' },
        { messageId: 'audit', line: 12, column: 13, parameter: 'created_at' },
      ],
      output: 'mxcp: 1\ntool:\n  name: create_note\n  description: Create a note.\n  parameters:\n    - name: text\n      type: string\n      description: Note text.\n',
    },
    {
      name: 'description wordings that tell the model to leave the field out',
      code: tool(
        'list_items',
        '    project_id: {type: string, description: Omit. The project scope is taken from the request.}\n    a: {type: string, description: Set by the server.}\n    b: {type: string, description: Do not set this field.}\n    c: {type: string, description: Omit this field — the backend fills it.}\n    d: {type: string, description: For internal use only.}\n    e: {type: string, description: (read-only) Last sync time.}\n',
      ),
      errors: [
        { messageId: 'described', line: 6, column: 5, parameter: 'project_id', messageIncludes: '("Omit.")' },
        { messageId: 'described', line: 7, parameter: 'a' },
        { messageId: 'described', line: 8, parameter: 'b' },
        { messageId: 'described', line: 9, parameter: 'c' },
        { messageId: 'described', line: 10, parameter: 'd' },
        { messageId: 'described', line: 11, parameter: 'e' },
      ],
      output: 'name: list_items\ndescription: Do the thing.\ninputSchema:\n  type: object\n  properties: {}\n',
    },
    {
      name: 'a tool description naming its server-managed fields',
      code: tool('create_doc', '    title: {type: string, description: Title.}\n    revision: {type: integer, description: Revision number.}\n', '', 'Create a document. Server-managed fields (revision, checksum) are ignored.'),
      errors: [{ messageId: 'toolDescribed', line: 7, column: 5, parameter: 'revision' }],
      output: tool('create_doc', '    title: {type: string, description: Title.}\n', '', 'Create a document. Server-managed fields (revision, checksum) are ignored.'),
    },
    {
      name: 'configured fields, in any naming style, even when required',
      options: { fields: ['workspace_id'] },
      code: tool('update_page', '    page_id: {type: string, description: The page.}\n    workspaceId: {type: string, description: Workspace to move the page to.}\n', '  required: [page_id, workspaceId]\n'),
      errors: [{ messageId: 'configured', line: 7, column: 5, parameter: 'workspaceId' }],
      output: tool('update_page', '    page_id: {type: string, description: The page.}\n', '  required: [page_id]\n'),
    },
    {
      name: 'REST parameter map: reported at the key, no fix',
      code: 'tools:\n  - name: create_project\n    method: POST\n    path: /projects/\n    description: Create a project.\n    parameters:\n      name:\n        description: "REQUIRED. Project name."\n      is_active:\n        description: "Omit. New projects are active by default."\n',
      errors: [{ messageId: 'described', line: 9, column: 7, endColumn: 16, parameter: 'is_active' }],
    },
  ],
});

test('seed 000: fires on the documented server-managed fields, and not after the fix', () => {
  const dir = join(__dirname, '..', 'fixtures', 'seed000');
  const before = runRule(ID, { code: readFileSync(join(dir, 'before.yaml'), 'utf8'), filename: 'before.yaml' }).diagnostics;
  const found = new Set(before.map((d) => `${d.tool}.${d.parameter}`));
  const expected = [
    'create_project.id', 'create_project.nano_id', 'create_project.user_id', 'create_project.owner_id', 'create_project.organization_id', 'create_project.status_id',
    'create_test_set_bulk.owner_id', 'create_test_set_bulk.assignee_id', 'create_test_set_bulk.tests[].assignee_id', 'create_test_set_bulk.tests[].owner_id',
    'create_test_configuration.id', 'create_test_configuration.nano_id', 'create_test_configuration.user_id', 'create_test_configuration.organization_id', 'create_test_configuration.status_id',
    'create_metric.id', 'create_metric.nano_id', 'create_metric.status_id', 'create_metric.owner_id', 'create_metric.organization_id', 'create_metric.user_id',
  ];
  for (const e of expected) assert.ok(found.has(e), `expected a finding on ${e}`);
  for (const d of before) {
    assert.ok(!/^list_/.test(d.tool ?? ''), `no finding on list tools: ${d.tool}.${d.parameter}`);
    assert.ok(!['execute_tests.endpoint_id', 'get_test_run.test_run_id', 'create_test_run.test_configuration_id'].includes(`${d.tool}.${d.parameter}`), `unexpected ${d.tool}.${d.parameter}`);
    assert.ok(d.fix, `a fix for ${d.tool}.${d.parameter}`);
  }
  const after = runRule(ID, { code: readFileSync(join(dir, 'after.yaml'), 'utf8'), filename: 'after.yaml' }).diagnostics;
  assert.deepEqual(after.map((d) => `${d.tool}.${d.parameter}`), []);
});

test('system-field-exposed: one-tool files find their neighbours alike, linted from their own folder or from above', () => {
  const create = 'name: create_widget\ndescription: Create a widget.\ninputSchema:\n  type: object\n  properties:\n    title:\n      type: string\n      description: Title of the widget.\n    organization_id:\n      type: string\n  required: [title]\n';
  const lister = 'name: list_organizations\ndescription: List the organizations you belong to.\ninputSchema:\n  type: object\n  properties: {}\n';
  const found = (dir: string) =>
    runRule('system-field-exposed', { code: create, filename: `${dir}create_widget.yaml`, others: [{ filename: `${dir}list_organizations.yaml`, code: lister }] }).diagnostics.length;
  const alone = runRule('system-field-exposed', { code: create, filename: 'create_widget.yaml' }).diagnostics.length;
  // With no tool that lists organisations, the id is reported; with one beside it, it is not.
  assert.equal(alone, 1);
  assert.equal(found('tools/'), 0);
  assert.equal(found(''), 0, 'paths without a folder (the current one) are neighbours too');
});
