import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester, runRule } from '../helpers/rule-tester';
import { listedValues, statesRange } from '../../server/src/engine/rules/enum-implicit';

const tool = (props: string, description = 'Create a ticket.'): string =>
  `name: create_ticket\ndescription: ${description}\ninputSchema:\n  type: object\n  properties:\n${props}`;
const prop = (name: string, schema: string): string => tool(`    ${name}: ${schema}\n`);

ruleTester('enum-implicit', {
  valid: [
    { name: 'integer code with bounds', code: prop('priority', '{anyOf: [{type: integer, minimum: 1, maximum: 5}, {type: "null"}], description: Priority.}') },
    { name: 'integer code with an enum', code: prop('severity', '{type: integer, enum: [1, 2, 3], description: Severity.}') },
    { name: 'range `1-5` in the description', code: prop('priority', '{type: integer, description: Priority 1-5.}') },
    { name: 'range `from 1 (low) to 5 (high)`', code: prop('priority', '{type: integer, description: Priority from 1 (low) to 5 (high).}') },
    { name: 'range `between 1 and 5`', code: prop('level', '{type: integer, description: A level between 1 and 5.}') },
    { name: 'codes with meanings `0 = off, 1 = on`', code: prop('mode', '{type: integer, description: "0 = off, 1 = on"}') },
    { name: 'range stated in the tool description', code: prop('priority', '{type: integer, description: Priority.}').replace('Create a ticket.', "Create a ticket. The 'priority' field must be an integer (1-5).") },
    { name: 'quantities are not codes', code: tool('    limit: {type: integer, description: How many.}\n    page: {type: integer}\n    level_count: {type: integer}\n    max_priority_hours: {type: integer}\n') },
    { name: 'identifiers are not codes', code: prop('priority_id', '{type: integer, description: The priority record.}') },
    { name: 'a string priority with no list is not an integer code', code: prop('priority', '{type: string, description: Priority.}') },
    { name: 'examples, not the valid values', code: prop('order', '{type: string, description: "Sort order, e.g. \'asc\' or \'desc\'."}') },
    { name: 'a negation, not the valid values', code: prop('label', '{type: string, description: \'Must be a label id, NOT a string like "High" or "Low".\'}') },
    { name: '"one of" followed by prose', code: prop('repo', "{type: string, description: \"One of the user's repositories.\"}") },
    { name: 'an open list', code: prop('color', '{type: string, description: "One of red, green, blue, etc."}') },
    { name: 'a list that goes on in prose', code: prop('fresh', "{type: string, description: \"Supported values: 'pd', 'pw', or a date range.\"}") },
    { name: '"either" with words, not values', code: prop('source', '{type: string, description: Either a URL or a file path.}') },
    { name: 'type names are not values', code: prop('value', '{type: string, description: The value (string or number).}') },
    { name: 'names of other parameters are not values', code: tool('    network_id: {type: string, description: Network id.}\n    network_slug: {type: string, description: "Network slug. Choose either network_id or network_slug, not both."}\n') },
    { name: 'several values in one string cannot have an enum', code: prop('aux', "{type: string, description: \"Comma-separated list of fields. Valid values: 'urls', 'logo'.\"}") },
    { name: 'booleans', code: prop('flag', '{type: boolean, description: Either true or false.}') },
    { name: 'units in brackets', code: prop('speed', '{type: string, description: Speed (meters/second).}') },
    { name: 'a format is not a list of values', code: prop('time', "{type: string, description: \"Format: 'hh:mm-hh:mm' or 'hh:mm'.\"}") },
    { name: 'a schema with a pattern constrains the value already', code: prop('order', '{type: string, pattern: "^(asc|desc)$", description: "One of asc, desc."}') },
    { name: 'listed values with an enum', code: prop('order', '{type: string, enum: [asc, desc], description: "One of asc, desc."}') },
    { name: 'the listed-values check can be turned off', options: { listedValues: false }, code: prop('order', '{type: string, description: "One of asc, desc."}') },
    { name: 'REST parameter maps carry no schema keywords', code: 'tools:\n  - name: a\n    method: GET\n    path: /a\n    description: d\n    parameters:\n      order:\n        description: "One of asc, desc."\n' },
    { name: 'a call with arguments in brackets', code: prop('query', "{type: string, description: 'SOSL query, RETURNING Contact(FirstName, LastName, Email).'}") },
    { name: 'deprecated parameters are skipped', code: prop('level', '{type: integer, deprecated: true, description: Old level.}') },
  ],
  invalid: [
    {
      name: 'integer code that may be null, no bounds (YAML)',
      code: prop('priority', '{anyOf: [{type: integer}, {type: "null"}], description: Test set priority.}'),
      errors: [{ messageId: 'code', line: 6, column: 5, endColumn: 13, parameter: 'priority', tool: 'create_ticket', suggestionOutputs: [] }],
    },
    {
      name: 'integer code in array items; "e.g." numbers are not a range',
      code: tool('    tests:\n      type: array\n      items:\n        type: object\n        properties:\n          priority: {type: integer, description: "Priority, e.g. 1, 2, 3."}\n'),
      errors: [{ messageId: 'code', line: 11, column: 11, parameter: 'tests[].priority' }],
    },
    {
      name: 'codeWords option',
      options: { codeWords: ['tone'] },
      code: prop('tone', '{type: integer, description: Voice tone.}'),
      errors: [{ messageId: 'code', parameter: 'tone' }],
    },
    {
      name: 'quoted list after "one of": suggestion adds the enum',
      code: tool('    channel:\n      type: string\n      description: \'Where it came from: one of "email", "chat" or "phone".\'\n'),
      errors: [
        {
          messageId: 'listed',
          line: 6,
          column: 5,
          parameter: 'channel',
          messageIncludes: '`email`, `chat`, `phone`',
          suggestionOutputs: [tool('    channel:\n      type: string\n      description: \'Where it came from: one of "email", "chat" or "phone".\'\n      enum: [email, chat, phone]\n')],
        },
      ],
    },
    {
      name: '"Valid values:" (JSON)',
      filename: 'tools.json',
      code: '{"name": "a", "description": "d", "inputSchema": {"type": "object", "properties": {"order": {"type": "string", "description": "Valid values: asc, desc."}}}}',
      errors: [
        {
          messageId: 'listed',
          parameter: 'order',
          pointer: '/inputSchema/properties/order',
          suggestionOutputs: ['{"name": "a", "description": "d", "inputSchema": {"type": "object", "properties": {"order": {"type": "string", "description": "Valid values: asc, desc.", "enum": ["asc","desc"]}}}}'],
        },
      ],
    },
    {
      name: 'integer with listed values: the enum is typed',
      code: prop('filter', '{type: integer, description: Filter duplicates (0 or 1).}'),
      errors: [{ messageId: 'listed', parameter: 'filter', suggestionOutputs: [prop('filter', '{type: integer, description: Filter duplicates (0 or 1)., enum: [0, 1]}')] }],
    },
    {
      name: 'string or null: the enum goes on the string branch',
      code: prop('hint', '{anyOf: [{type: string}, {type: "null"}], description: "Either \'fast\' or \'slow\'."}'),
      errors: [{ messageId: 'listed', parameter: 'hint', suggestionOutputs: [prop('hint', '{anyOf: [{type: string, enum: [fast, slow]}, {type: "null"}], description: "Either \'fast\' or \'slow\'."}')] }],
    },
    {
      name: 'array of strings: the enum goes on the items',
      code: prop('targets', '{type: array, items: {type: string}, description: "Possible values are production, preview, development."}'),
      errors: [{ messageId: 'listed', parameter: 'targets', suggestionOutputs: [prop('targets', '{type: array, items: {type: string, enum: [production, preview, development]}, description: "Possible values are production, preview, development."}')] }],
    },
    {
      name: 'bracketed set of short tokens',
      code: prop('priority', '{type: string, description: "Task priority (low, medium, high)."}'),
      errors: [{ messageId: 'listed', parameter: 'priority' }],
    },
    {
      name: '"must be" with quoted values',
      code: prop('kind', '{type: string, description: "Must be \'a1\', \'b2\' or \'c3\'."}'),
      errors: [{ messageId: 'listed', parameter: 'kind', messageIncludes: '`a1`, `b2`, `c3`' }],
    },
    {
      name: 'MXCP parameter list',
      filename: 'tool.yml',
      code: 'mxcp: 1\ntool:\n  name: list_logs\n  description: List logs.\n  parameters:\n    - name: source\n      type: string\n      description: "Possible values: access, app, web. Default: app"\n  source: {code: "SELECT 1"}\n',
      errors: [
        {
          messageId: 'listed',
          line: 6,
          column: 13,
          parameter: 'source',
          suggestionOutputs: ['mxcp: 1\ntool:\n  name: list_logs\n  description: List logs.\n  parameters:\n    - name: source\n      type: string\n      description: "Possible values: access, app, web. Default: app"\n      enum: [access, app, web]\n  source: {code: "SELECT 1"}\n'],
        },
      ],
    },
  ],
});

test('listedValues: precision on phrasing', () => {
  assert.deepEqual(listedValues('one of a1, b2, c3'), ['a1', 'b2', 'c3']);
  assert.deepEqual(listedValues("Direction of sorting, either 'asc' or 'desc'."), ['asc', 'desc']);
  assert.deepEqual(listedValues('"Single-Turn" or "Multi-Turn". Must match the tests.'), ['Single-Turn', 'Multi-Turn']);
  assert.deepEqual(listedValues("Options: 'credential' (Azure CLI), 'key' (access key), or 'connectionString'."), ['credential', 'key', 'connectionString']);
  assert.equal(listedValues('The text to search for (e.g. \'restaurants in Sydney\' or \'shops\').'), null);
  assert.equal(listedValues("Property to sort by, optionally with 'asc' or 'desc'."), null);
  assert.equal(listedValues('Returned by `list_items` or `add_item`.'), null);
  assert.equal(listedValues('HGVS notation, either genomic or coding.'), null);
  assert.equal(listedValues('Include fields (contacts,products,team)'), null);
});

test('statesRange: ranges and code meanings, not examples', () => {
  for (const t of ['1-5', '1 to 5', 'between 1 and 5', 'from 1 (low) to 5 (high)', '0 = off, 1 = on', '1 (low) ... 5 (high)', 'at most 10', '0-no, 1-yes']) assert.ok(statesRange(t), t);
  for (const t of ['e.g. 1, 2, 3', 'Priority.', 'Version 2 of the API']) assert.ok(!statesRange(t), t);
});

test('enum-implicit: seed 000 failures in before.yaml, nothing in after.yaml', () => {
  const dir = join(__dirname, '..', 'fixtures', 'seed000');
  const before = runRule('enum-implicit', { code: readFileSync(join(dir, 'before.yaml'), 'utf8'), filename: 'before.yaml' });
  const found = before.diagnostics.map((d) => `${d.tool} ${d.parameter} ${d.messageId}`).sort();
  assert.deepEqual(found, ['create_test_set_bulk priority code', 'create_test_set_bulk tests[].priority code']);
  const after = runRule('enum-implicit', { code: readFileSync(join(dir, 'after.yaml'), 'utf8'), filename: 'after.yaml' });
  assert.deepEqual(after.diagnostics.map((d) => d.message), []);
});
