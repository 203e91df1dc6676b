import { ruleTester } from '../helpers/rule-tester';

ruleTester('tool-name-duplicate', {
  valid: [
    'tools:\n  - {name: a, description: d}\n  - {name: b, description: d}\n',
    { name: 'same name on two servers of a dump', filename: 'dump.json', code: '[{"name": "s1", "tools": [{"name": "search", "description": "d"}]}, {"name": "s2", "tools": [{"name": "search", "description": "d"}]}]' },
  ],
  invalid: [
    {
      code: 'tools:\n  - name: a\n    description: d\n  - name: a\n    description: e\n',
      errors: [{ messageId: 'duplicate', line: 4, column: 11, messageIncludes: 'line 2' }],
    },
  ],
});
