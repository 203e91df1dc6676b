import { ruleTester } from '../helpers/rule-tester';

ruleTester('schema-example-invalid', {
  valid: ['name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    p: {type: integer, minimum: 1, examples: [1, 3]}\n'],
  invalid: [
    {
      code: 'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    p:\n      type: integer\n      examples: [1, "High"]\n',
      errors: [{ messageId: 'invalid', line: 8, column: 21, endColumn: 27, parameter: 'p', pointer: '/inputSchema/properties/p/examples/1' }],
    },
    {
      name: 'OpenAPI-style example',
      filename: 't.json',
      code: '{"name": "a", "description": "d", "inputSchema": {"type": "object", "properties": {"d": {"type": "string", "format": "date", "example": "yesterday"}}}}',
      errors: [{ messageId: 'invalid', pointer: '/inputSchema/properties/d/example', messageIncludes: 'must match format' }],
    },
  ],
});
