import { ruleTester } from '../helpers/rule-tester';

ruleTester('schema-array-items-missing', {
  valid: [
    'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    tags: {type: array, items: {type: string}}\n',
    'name: a\ndescription: d\ninputSchema:\n  $schema: https://json-schema.org/draft/2020-12/schema\n  type: object\n  properties:\n    pair: {type: array, prefixItems: [{type: string}, {type: integer}]}\n',
  ],
  invalid: [
    {
      code: 'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    tags:\n      type: array\n      description: Tags.\n      default: [red]\n',
      errors: [
        {
          messageId: 'missing',
          line: 7,
          column: 7,
          parameter: 'tags',
          suggestionOutputs: ['name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    tags:\n      type: array\n      description: Tags.\n      default: [red]\n      items:\n        type: string\n'],
        },
      ],
    },
    {
      name: 'nullable array (type list)',
      filename: 't.json',
      code: '{"name": "a", "description": "d", "inputSchema": {"type": "object", "properties": {"ids": {"type": ["array", "null"]}}}}',
      errors: [{ messageId: 'missing', parameter: 'ids', pointer: '/inputSchema/properties/ids/type', suggestionOutputs: [] }],
    },
  ],
});
