import { ruleTester } from '../helpers/rule-tester';

ruleTester('schema-required-undefined', {
  valid: [
    'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    x: {type: string}\n  required: [x]\n',
    { name: 'properties come from a combinator', code: 'name: a\ndescription: d\ninputSchema:\n  type: object\n  allOf: [{properties: {x: {type: string}}}]\n  required: [x]\n' },
  ],
  invalid: [
    {
      code: 'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    customer_id: {type: string}\n  required: [customerId, extra]\n',
      errors: [
        {
          messageId: 'undefined',
          line: 7,
          column: 14,
          endColumn: 24,
          parameter: 'customerId',
          messageIncludes: 'did you mean `customer_id`',
          suggestionOutputs: [
            'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    customer_id: {type: string}\n  required: [customer_id, extra]\n',
            'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    customer_id: {type: string}\n  required: [extra]\n',
          ],
        },
        { messageId: 'undefined', line: 7, column: 26, parameter: 'extra' },
      ],
    },
    {
      name: 'JSON',
      filename: 't.json',
      code: '{\n  "name": "a",\n  "description": "d",\n  "inputSchema": {\n    "type": "object",\n    "properties": {"order_id": {"type": "string"}},\n    "required": ["order_id", "reason"]\n  }\n}\n',
      errors: [{ messageId: 'undefined', line: 7, column: 30, endColumn: 38, pointer: '/inputSchema/required/1' }],
    },
  ],
});

ruleTester('schema-required-undefined', {
  valid: [{ name: 'names that Object.prototype also has are ordinary names', code: 'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    constructor: {type: string}\n  required: [constructor]\n' }],
  invalid: [
    {
      name: 'an inherited name is not a defined property',
      code: 'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    x: {type: string}\n  required: [toString]\n',
      errors: [{ messageId: 'undefined', parameter: 'toString' }],
    },
  ],
});
