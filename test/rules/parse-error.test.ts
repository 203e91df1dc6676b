import { ruleTester } from '../helpers/rule-tester';

ruleTester('parse-error', {
  valid: ['name: a\ndescription: d\n', { filename: 't.json', code: '{"name": "a", "description": "d"}' }],
  invalid: [
    { code: 'name: a\ndescription: "unterminated\ninputSchema:\n  type: object\n', errors: [{ messageId: 'syntax' }] },
    { name: 'JSON trailing comma', filename: 't.json', code: '{\n  "name": "a",\n  "description": "d",\n}\n', errors: [{ messageId: 'syntax', line: 4, column: 1, messageIncludes: 'property name' }] },
    { name: 'JSON comment', filename: 't.json', code: '{\n  // no comments in JSON\n  "name": "a"\n}\n', errors: [{ messageId: 'syntax', line: 2, column: 3 }] },
  ],
});
