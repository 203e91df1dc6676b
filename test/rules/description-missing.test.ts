import { ruleTester } from '../helpers/rule-tester';

ruleTester('description-missing', {
  valid: [
    'name: a\ndescription: Does a.\ninputSchema:\n  type: object\n  properties:\n    x: {type: string, description: The x.}\n',
    { name: 'parameters off', options: { parameters: false }, code: 'name: a\ndescription: Does a.\ninputSchema:\n  type: object\n  properties:\n    x: {type: string}\n' },
    { name: '$ref carries the description', code: 'name: a\ndescription: Does a.\ninputSchema:\n  type: object\n  properties:\n    x: {$ref: "#/$defs/x"}\n  $defs:\n    x: {type: string, description: an x}\n' },
  ],
  invalid: [
    {
      code: 'name: search\ninputSchema:\n  type: object\n  properties:\n    status:\n      type: string\n',
      errors: [
        { messageId: 'tool', line: 1, column: 7, endColumn: 13, tool: 'search', parameter: null },
        { messageId: 'parameter', line: 5, column: 5, parameter: 'status' },
      ],
    },
    {
      name: 'empty description, JSON',
      filename: 't.json',
      code: '{"name": "a", "description": "  ", "inputSchema": {"type": "object"}}',
      errors: [{ messageId: 'toolEmpty', line: 1, column: 30, endColumn: 34 }],
    },
    {
      name: 'nested properties and keyed catalogues',
      filename: 'defs.json',
      code: '{"do-thing": {"description": "Does a thing.", "category": "x", "inputSchema": {"type": "object", "properties": {"opts": {"type": "object", "description": "o", "properties": {"deep": {"type": "string"}}}}}}}',
      errors: [{ messageId: 'parameter', parameter: 'opts.deep', tool: 'do-thing' }],
    },
  ],
});
