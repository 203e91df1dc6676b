import { ruleTester } from '../helpers/rule-tester';

ruleTester('schema-type-missing', {
  valid: [
    'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    x: {type: string}\n    y: {enum: [a, b]}\n    z: {$ref: "#/$defs/z"}\n    w: {anyOf: [{type: string}, {type: "null"}]}\n',
    { name: 'REST parameter maps carry no types by design', code: 'tools:\n  - name: a\n    method: GET\n    path: /a\n    description: d\n    parameters:\n      x:\n        description: the x\n' },
  ],
  invalid: [
    {
      code: 'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    limit:\n      description: How many.\n      default: 20\n',
      errors: [
        {
          messageId: 'missing',
          line: 6,
          column: 5,
          endColumn: 10,
          parameter: 'limit',
          suggestionOutputs: ['name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    limit:\n      description: How many.\n      default: 20\n      type: integer\n'],
        },
      ],
    },
    {
      name: 'array items without type',
      filename: 't.json',
      code: '{"name": "a", "description": "d", "inputSchema": {"type": "object", "properties": {"ids": {"type": "array", "items": {"description": "an id"}}}}}',
      errors: [{ messageId: 'missing', parameter: 'ids[]', pointer: '/inputSchema/properties/ids/items', suggestionOutputs: [] }],
    },
    {
      name: 'argument list entry without type',
      filename: 'tools.json',
      code: '[{"name": "a", "description": "d", "arguments": [{"name": "q", "desc": "query"}]}]',
      errors: [{ messageId: 'missing', parameter: 'q', pointer: '/0/arguments/0/name', suggestionOutputs: [] }],
    },
  ],
});
