import { ruleTester } from '../helpers/rule-tester';

ruleTester('duplicate-key', {
  valid: ['name: a\ndescription: d\n'],
  invalid: [
    { code: 'name: a\ndescription: d\ndescription: e\n', errors: [{ messageId: 'duplicate', line: 3, column: 1, endColumn: 12 }] },
    { name: 'JSON', filename: 't.json', code: '{"name": "a",\n "name": "b"}', errors: [{ messageId: 'duplicate', line: 2, column: 2, endColumn: 8 }] },
    { name: 'flow mapping', code: 'name: a\ninputSchema: {type: object, type: string}\n', errors: [{ messageId: 'duplicate', line: 2, column: 29 }] },
  ],
});
