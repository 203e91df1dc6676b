import { ruleTester } from '../helpers/rule-tester';

ruleTester('tool-name-invalid', {
  valid: ['name: get_order-2\ndescription: d\ninputSchema: {type: object}\n', { name: 'custom pattern', options: { pattern: '^[a-z.]+$' }, code: 'name: orders.get\ndescription: d\ninputSchema: {type: object}\n' }],
  invalid: [
    {
      code: 'name: search orders\ndescription: d\ninputSchema: {type: object}\n',
      errors: [
        {
          messageId: 'chars',
          line: 1,
          column: 7,
          endColumn: 20,
          messageIncludes: 'a space',
          suggestionOutputs: ['name: search_orders\ndescription: d\ninputSchema: {type: object}\n'],
        },
      ],
    },
    {
      name: 'too long (JSON)',
      filename: 't.json',
      code: `{"name": "${'x'.repeat(70)}", "description": "d", "inputSchema": {"type": "object"}}`,
      errors: [{ messageId: 'tooLong', line: 1, column: 10, endColumn: 82, messageIncludes: '70 characters' }],
    },
    { name: 'custom pattern', options: { pattern: '^[a-z_]+$' }, code: 'name: GetOrder\ndescription: d\ninputSchema: {type: object}\n', errors: [{ messageId: 'pattern' }] },
  ],
});
