import { ruleTester } from '../helpers/rule-tester';

ruleTester('schema-default-invalid', {
  valid: [
    'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    limit: {type: integer, default: 20}\n    mode: {type: string, enum: [a, b], default: a}\n    maybe: {type: [string, "null"], default: null}\n',
  ],
  invalid: [
    {
      code: 'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    limit:\n      type: integer\n      default: "20"\n',
      errors: [{ messageId: 'invalid', line: 8, column: 16, endColumn: 20, parameter: 'limit', messageIncludes: 'must be integer', severity: 'warning' }],
    },
    {
      name: 'outside the enum',
      code: 'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    mode: {type: string, enum: [fast, slow], default: medium}\n',
      errors: [{ messageId: 'invalid', messageIncludes: 'is not one of "fast", "slow"' }],
    },
    {
      name: 'null default on a non-nullable parameter is weaker',
      code: 'name: a\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    q: {type: string, default: null}\n',
      errors: [{ messageId: 'nullDefault', severity: 'info' }],
    },
  ],
});
