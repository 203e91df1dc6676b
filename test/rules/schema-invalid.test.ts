import { ruleTester } from '../helpers/rule-tester';

ruleTester('schema-invalid', {
  valid: [
    'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    x: {type: string, description: x}\n',
    { name: 'JSON', filename: 't.json', code: '{"name": "a", "description": "d", "inputSchema": {"type": "object", "properties": {"x": {"type": ["string", "null"]}}}}' },
    { name: '2020-12 keywords under $schema 2020-12', code: 'name: a\ndescription: d\ninputSchema:\n  $schema: https://json-schema.org/draft/2020-12/schema\n  type: object\n  properties:\n    p: {type: array, prefixItems: [{type: string}]}\n' },
    { name: 'a `$ref` to a fragment of the same document', code: 'name: a\ndescription: d\ninputSchema:\n  type: object\n  definitions:\n    id: {type: string}\n  properties:\n    id: {$ref: "#/definitions/id", description: x}\n    $ref: {type: string, description: a property named $ref}\n    e: {type: string, description: x, enum: [a], default: {$ref: "https://not.a.ref"}}\n' },
    { name: 'MXCP parameters are checked one by one', filename: 't.yml', code: 'mxcp: 1\ntool:\n  name: a\n  description: d\n  parameters:\n    - name: x\n      type: string\n      description: x\n' },
  ],
  invalid: [
    {
      name: 'misspelt type (YAML)',
      code: 'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    note:\n      type: str\n',
      errors: [{ messageId: 'invalid', line: 7, column: 13, endColumn: 16, pointer: '/inputSchema/properties/note/type', messageIncludes: '`type` must be one of' }],
    },
    {
      name: 'misspelt type (JSON)',
      filename: 't.json',
      code: '{\n  "name": "a",\n  "description": "d",\n  "inputSchema": {\n    "type": "object",\n    "properties": {\n      "note": {"type": "str"}\n    }\n  }\n}\n',
      errors: [{ messageId: 'invalid', line: 7, column: 24, endColumn: 29, pointer: '/inputSchema/properties/note/type', parameter: 'note' }],
    },
    {
      name: 'root must be an object',
      code: 'name: a\ndescription: d\ninputSchema:\n  type: array\n',
      errors: [{ messageId: 'rootType', line: 4, column: 9 }],
    },
    {
      name: 'root without type',
      code: 'name: a\ndescription: d\ninputSchema:\n  properties: {}\n',
      errors: [{ messageId: 'rootTypeMissing', line: 3, column: 1 }],
    },
    {
      name: 'draft-3 style required flag',
      filename: 't.json',
      code: '[{"name": "a", "description": "d", "parameter": {"type": "object", "properties": {"x": {"type": "string", "description": "x", "required": true}}}}]',
      errors: [{ messageId: 'invalid', messageIncludes: 'draft-3', pointer: '/0/parameter/properties/x/required' }],
    },
    {
      name: 'enum must be a list',
      code: 'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    mode:\n      type: string\n      enum: fast\n',
      errors: [{ messageId: 'invalid', line: 8, column: 13, messageIncludes: 'must be an array' }],
    },
    {
      name: 'MXCP parameter with an invalid type',
      filename: 't.yml',
      code: 'mxcp: 1\ntool:\n  name: a\n  description: d\n  parameters:\n    - name: x\n      type: text\n      description: x\n',
      errors: [{ messageId: 'invalid', line: 7, column: 13, pointer: '/tool/parameters/0/type' }],
    },
    {
      name: 'remote `$ref` (never fetched)',
      code: 'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    id: {$ref: "https://schemas.invalid/id.json", description: The id.}\n',
      errors: [{ messageId: 'remoteRef', line: 6, column: 16, pointer: '/inputSchema/properties/id/$ref', parameter: 'id', messageIncludes: 'never fetched' }],
    },
    {
      name: '`$ref` to another file',
      filename: 't.json',
      code: '{"name": "a", "description": "d", "inputSchema": {"type": "object", "properties": {"id": {"$ref": "common.json#/definitions/id"}}}}',
      errors: [{ messageId: 'remoteRef', pointer: '/inputSchema/properties/id/$ref', messageIncludes: '`common.json#/definitions/id`' }],
    },
  ],
});
