import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester, runRule } from '../helpers/rule-tester';

/** A tool with properties `name` (required) and `scope`, and the given descriptions. */
const tool = (toolDesc: string, scopeDesc: string, required = '[name]'): string =>
  `name: create_metric\ndescription: ${toolDesc}\ninputSchema:\n  type: object\n  properties:\n    name: {type: string, description: Metric name.}\n    scope: {type: array, items: {type: string}, description: ${scopeDesc}}\n  required: ${required}\n`;

const mxcp = (params: string): string => `mxcp: 1\ntool:\n  name: search_orders\n  description: Search orders.\n  parameters:\n${params}`;

ruleTester('required-mismatch', {
  valid: [
    { name: 'prose and schema agree', code: tool('Create a metric. Required fields: name, scope.', 'REQUIRED. Scope of the metric.', '[name, scope]') },
    { name: 'a conditional requirement', code: tool('Create a metric.', 'Required when the metric is multi-turn.') },
    { name: 'a negated requirement', code: tool('Create a metric.', 'Not required; defaults to all scopes.') },
    { name: 'a value constraint, not presence', code: tool('Create a metric.', 'Each item must be a scope name.') },
    { name: 'one of several is required', code: tool('Create a metric. At least one of name or scope is required.', 'Scope.') },
    { name: 'a list of alternatives', code: tool('"Create a metric. Required: name or scope."', 'Scope.') },
    { name: 'the tool, not a parameter, is required', code: tool('Create a metric. This is required before you can run tests.', 'Scope.') },
    { name: 'optional in prose, required but nullable in a strict schema', code: 'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    scope: {type: [string, "null"], description: Optional scope.}\n  required: [scope]\n  additionalProperties: false\n' },
    {
      name: 'claims about nested fields belong to them',
      code: 'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    prompt:\n      type: object\n      description: "The prompt: content (required) and language (optional)."\n      properties:\n        content: {type: string, description: Text.}\n        language: {type: string, description: Language.}\n      required: [content]\n',
    },
    { name: 'REST parameter maps have no `required` list by design', code: 'tools:\n  - name: get_project\n    method: GET\n    path: /projects/{project_id}\n    description: Get a project.\n    parameters:\n      project_id:\n        description: REQUIRED. UUID of the project.\n' },
    { name: 'an MXCP parameter without a default is required', filename: 'tools/search_orders.yml', code: mxcp('    - name: status\n      type: string\n      description: REQUIRED. Order status.\n    - name: limit\n      type: integer\n      description: Optional. How many.\n      default: 10\n') },
  ],
  invalid: [
    {
      name: '"Always include this." on an optional parameter (YAML)',
      code: tool('Create a metric.', 'Scope of the metric. Always include this.'),
      errors: [
        {
          messageId: 'proseRequired',
          line: 7,
          column: 5,
          endColumn: 10,
          parameter: 'scope',
          messageIncludes: '("Always include this.") but the schema leaves it optional',
          suggestionOutputs: [tool('Create a metric.', 'Scope of the metric. Always include this.', '[name, scope]')],
        },
      ],
    },
    {
      name: 'a "Required fields" list in the tool description; no `required` yet (JSON)',
      filename: 'tool.json',
      code: '{"name": "a", "description": "Create it. Required fields: name, scope.", "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}, "scope": {"type": "string"}}}}',
      errors: [
        { messageId: 'proseRequired', parameter: 'name', pointer: '/inputSchema/properties/name', suggestionOutputs: ['{"name": "a", "description": "Create it. Required fields: name, scope.", "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}, "scope": {"type": "string"}}, "required": ["name"]}}'] },
        { messageId: 'proseRequired', parameter: 'scope', pointer: '/inputSchema/properties/scope', suggestionOutputs: ['{"name": "a", "description": "Create it. Required fields: name, scope.", "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}, "scope": {"type": "string"}}, "required": ["scope"]}}'] },
      ],
    },
    {
      name: 'the tool description calls an array REQUIRED; a bullet marks another (required)',
      code: 'name: create_test_set\ndescription: |\n  Create a test set. The \'tests\' array is REQUIRED and must not be empty.\n  - endpoint_id (required): UUID of the endpoint.\ninputSchema:\n  type: object\n  properties:\n    tests: {type: array, items: {type: string}, description: The tests.}\n    endpoint_id: {type: string, description: The endpoint.}\n    name: {type: string, description: Name.}\n  required: [name]\n',
      errors: [
        { messageId: 'proseRequired', line: 8, parameter: 'tests', messageIncludes: '("tests array is REQUIRED")' },
        { messageId: 'proseRequired', line: 9, parameter: 'endpoint_id', messageIncludes: '("endpoint_id (required)")' },
      ],
    },
    {
      name: 'optional in prose but required in the schema',
      code: tool('Create a metric.', '(optional) Scope of the metric.', '[name, scope]'),
      errors: [
        {
          messageId: 'proseOptional',
          line: 7,
          parameter: 'scope',
          messageIncludes: 'but the schema requires it',
          suggestionOutputs: [tool('Create a metric.', '(optional) Scope of the metric.', '[name]')],
        },
      ],
    },
    {
      name: 'a nested property inside array items',
      code: 'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    tests:\n      type: array\n      items:\n        type: object\n        properties:\n          topic: {type: string, description: "Topic name (required)."}\n',
      errors: [
        {
          messageId: 'proseRequired',
          line: 11,
          parameter: 'tests[].topic',
          suggestionOutputs: ['name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    tests:\n      type: array\n      items:\n        type: object\n        properties:\n          topic: {type: string, description: "Topic name (required)."}\n        required: [topic]\n'],
        },
      ],
    },
    {
      name: 'MXCP: REQUIRED with a default, optional without one',
      filename: 'tools/search_orders.yml',
      code: mxcp('    - name: status\n      type: string\n      description: REQUIRED. Order status.\n      default: open\n    - name: limit\n      type: integer\n      description: Optional. How many.\n'),
      errors: [
        {
          messageId: 'proseRequired',
          line: 6,
          column: 13,
          parameter: 'status',
          messageIncludes: 'it has a `default`, which makes it optional',
          suggestionOutputs: [mxcp('    - name: status\n      type: string\n      description: REQUIRED. Order status.\n    - name: limit\n      type: integer\n      description: Optional. How many.\n')],
        },
        { messageId: 'proseOptional', line: 10, parameter: 'limit', messageIncludes: 'it has no `default`, which makes it required', suggestionOutputs: [] },
      ],
    },
    {
      name: 'an argument list with flags',
      filename: 'tools.json',
      code: '[{"name": "search", "description": "Search.", "arguments": [{"name": "q", "type": "string", "description": "Required. The query.", "required": false}, {"name": "n", "type": "integer", "description": "How many."}]}]',
      errors: [
        {
          messageId: 'proseRequired',
          parameter: 'q',
          messageIncludes: 'the parameter list leaves it optional',
          suggestionOutputs: ['[{"name": "search", "description": "Search.", "arguments": [{"name": "q", "type": "string", "description": "Required. The query.", "required": true}, {"name": "n", "type": "integer", "description": "How many."}]}]'],
        },
      ],
    },
    {
      name: 'per-property `required: true` flags',
      filename: 'tool.json',
      code: '{"name": "search", "description": "Search.", "parameters": {"type": "object", "properties": {"q": {"type": "string", "required": true, "description": "Optional. The query."}}}}',
      errors: [
        {
          messageId: 'proseOptional',
          parameter: 'q',
          suggestionOutputs: ['{"name": "search", "description": "Search.", "parameters": {"type": "object", "properties": {"q": {"type": "string", "description": "Optional. The query."}}}}'],
        },
      ],
    },
  ],
});

const fixtures = join(__dirname, '..', 'fixtures', 'seed000');

test('required-mismatch: seed 000 before.yaml reports metric_scope', () => {
  const { diagnostics } = runRule('required-mismatch', { code: readFileSync(join(fixtures, 'before.yaml'), 'utf8'), filename: 'before.yaml' });
  assert.deepEqual(diagnostics.map((d) => `${d.tool}.${d.parameter} ${d.messageId}`), ['create_metric.metric_scope proseRequired']);
});

test('required-mismatch: seed 000 after.yaml is clean', () => {
  const { diagnostics } = runRule('required-mismatch', { code: readFileSync(join(fixtures, 'after.yaml'), 'utf8'), filename: 'after.yaml' });
  assert.deepEqual(diagnostics.map((d) => d.message), []);
});
