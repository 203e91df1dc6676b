import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester, runRule } from '../helpers/rule-tester';

/** Accepted by all three APIs. */
const portable = `name: convert_units
description: Convert a quantity between units.
inputSchema:
  type: object
  properties:
    value: {type: number, description: The quantity., minimum: 0}
    from: {type: string, enum: [m, ft, in]}
    to:
      type: string
      nullable: true
      description: Target unit; null for the SI unit.
    precision:
      anyOf:
        - {type: integer}
        - {type: string, enum: [auto]}
    tags: {type: array, items: {type: string}, maxItems: 5}
  required: [value, from]
  propertyOrdering: [value, from, to]
`;

/** JSON-Schema-isms that Gemini's `parameters` does not take but OpenAI and Anthropic do. */
const jsonSchemaOnly = `name: convert_units
description: d
inputSchema:
  $schema: http://json-schema.org/draft-07/schema#
  type: object
  properties:
    value: {type: [number, "null"], exclusiveMinimum: 0}
    unit: {$ref: "#/$defs/unit"}
    factor: {type: integer, enum: [1, 10, 100]}
    mode: {const: exact}
  additionalProperties: false
  $defs:
    unit: {type: string, enum: [m, ft]}
`;

ruleTester('schema-provider-unsupported', {
  valid: [
    { name: 'a schema every API accepts (YAML)', code: portable },
    {
      name: 'a schema every API accepts (JSON)',
      filename: 'tool.json',
      code: '{"name": "convert_units", "description": "d", "inputSchema": {"type": "object", "properties": {"value": {"type": "number"}}, "required": ["value"]}}',
    },
    { name: 'OpenAI and Anthropic take full JSON Schema below the root', code: jsonSchemaOnly, options: { providers: ['openai', 'anthropic'] } },
    {
      name: 'Anthropic: combinators below the root are fine',
      code: 'name: set_value\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    v: {oneOf: [{type: string}, {type: integer}]}\n',
      options: { providers: ['anthropic'] },
    },
    {
      name: 'OpenAI: a root combinator is strict mode\'s concern, not function calling\'s',
      code: 'name: set_value\ndescription: d\ninputSchema:\n  type: object\n  properties: {a: {type: string}, b: {type: string}}\n  anyOf: [{required: [a]}, {required: [b]}]\n',
      options: { providers: ['openai'] },
    },
    {
      name: 'a catalogue\'s own `visible` keyword is stripped before any API sees it',
      filename: 'functions.json',
      code: '[{"name": "NOTES__LIST", "description": "d", "parameters": {"type": "object", "properties": {"query": {"type": "object", "properties": {"q": {"type": "string"}}, "visible": ["q"]}}, "visible": ["query"]}}]',
    },
    {
      name: 'parameter lists get their schema from the server at run time',
      filename: 'tool.yml',
      code: 'mxcp: 1\ntool:\n  name: archive_note\n  description: d\n  parameters:\n    - name: note\n      type: string\n      description: The note.\n      examples: [hello]\n',
    },
  ],
  invalid: [
    {
      name: 'no root type (YAML): every API rejects it; fixed',
      code: 'name: convert_units\ndescription: d\ninputSchema:\n  properties:\n    value: {type: number}\n',
      errors: [{ messageId: 'rootType', line: 3, column: 1, parameter: null, messageIncludes: 'Input schema is not `type: object`, which OpenAI, Anthropic and Gemini require' }],
      output: 'name: convert_units\ndescription: d\ninputSchema:\n  properties:\n    value: {type: number}\n  type: object\n',
    },
    {
      name: 'an empty schema (JSON), one provider; fixed',
      filename: 'tool.json',
      code: '{"name": "ping_host", "description": "d", "input_schema": {}}',
      options: { providers: ['anthropic'] },
      errors: [{ messageId: 'rootType', line: 1, column: 43, messageIncludes: 'which Anthropic requires' }],
      output: '{"name": "ping_host", "description": "d", "input_schema": {"type": "object"}}',
    },
    {
      name: 'a root that is not an object is left to you',
      filename: 'functions.json',
      code: '[{"type": "function", "function": {"name": "echo_text", "description": "d", "parameters": {"type": "string"}}}]',
      options: { providers: ['openai'] },
      errors: [{ messageId: 'rootType', line: 1, column: 100, messageIncludes: 'which OpenAI requires' }],
    },
    {
      name: 'Anthropic: anyOf, oneOf or allOf at the root',
      code: 'name: set_value\ndescription: d\ninputSchema:\n  type: object\n  properties: {a: {type: string}, b: {type: string}}\n  anyOf: [{required: [a]}, {required: [b]}]\n  allOf: [{required: [a]}]\n',
      options: { providers: ['anthropic'] },
      errors: [
        { messageId: 'rootCombinator', line: 6, column: 3, parameter: null, messageIncludes: '`anyOf` at the root of the input schema is rejected by Anthropic' },
        { messageId: 'rootCombinator', line: 7, column: 3, messageIncludes: '`allOf`' },
      ],
    },
    {
      name: 'Gemini: fields outside its schema subset, a type list, number enums',
      code: jsonSchemaOnly,
      options: { providers: ['gemini'] },
      errors: [
        { messageId: 'keyword', line: 4, column: 3, parameter: null, messageIncludes: "`$schema` is not a field of Gemini's function schema" },
        { messageId: 'typeList', line: 7, column: 19, parameter: 'value' },
        { messageId: 'keyword', line: 7, column: 37, parameter: 'value', messageIncludes: '`exclusiveMinimum`' },
        { messageId: 'keyword', line: 8, column: 12, parameter: 'unit', messageIncludes: '`$ref`' },
        { messageId: 'enumType', line: 9, column: 36, parameter: 'factor', messageIncludes: 'Enum value `1` of `factor` is not a string' },
        { messageId: 'keyword', line: 10, column: 12, parameter: 'mode', messageIncludes: '`const`' },
        { messageId: 'keyword', line: 11, column: 3, parameter: null, messageIncludes: '`additionalProperties`' },
        { messageId: 'keyword', line: 12, column: 3, parameter: null, messageIncludes: '`$defs`' },
      ],
    },
    {
      name: 'Gemini: untyped anyOf branches, an enum-only parameter, tuple items (JSON)',
      filename: 'tool.json',
      code: `{
  "name": "lookup_host",
  "description": "d",
  "inputSchema": {
    "type": "object",
    "properties": {
      "ip": {"type": "string", "anyOf": [{"format": "ipv4"}, {"type": "string", "format": "ipv6"}]},
      "level": {"enum": ["low", "high"]},
      "point": {"type": "array", "items": [{"type": "number"}, {"type": "number"}]}
    }
  }
}
`,
      options: { providers: ['gemini'] },
      errors: [
        { messageId: 'branchType', line: 7, column: 42, parameter: 'ip', messageIncludes: 'A branch of `anyOf` in `ip` has no `type`' },
        { messageId: 'typeMissing', line: 8, column: 7, parameter: 'level', messageIncludes: '`level` has no `type`, which Gemini requires' },
        { messageId: 'tuple', line: 9, column: 34, parameter: 'point' },
      ],
    },
    {
      name: 'all providers: each finding names the APIs it concerns',
      code: 'name: set_value\ndescription: d\ninputSchema:\n  oneOf: [{type: object}, {type: object}]\n',
      errors: [
        { messageId: 'rootType', line: 3, column: 1, messageIncludes: 'which OpenAI, Anthropic and Gemini require' },
        { messageId: 'rootCombinator', line: 4, column: 3, messageIncludes: 'rejected by Anthropic' },
        { messageId: 'keyword', line: 4, column: 3, messageIncludes: "`oneOf` is not a field of Gemini's" },
      ],
      output: 'name: set_value\ndescription: d\ninputSchema:\n  oneOf: [{type: object}, {type: object}]\n  type: object\n',
    },
  ],
});

test('schema-provider-unsupported: seed 000 (before and after) stays quiet: its catalogue is within every provider\'s limits', () => {
  for (const f of ['before.yaml', 'after.yaml']) {
    const code = readFileSync(join(__dirname, '..', 'fixtures', 'seed000', f), 'utf8');
    assert.deepEqual(runRule('schema-provider-unsupported', { code, filename: f }).diagnostics.map((d) => d.message), [], f);
  }
});
