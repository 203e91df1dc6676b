import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester, runRule } from '../helpers/rule-tester';

const FIX = join(__dirname, '..', 'fixtures');
const read = (p: string): string => readFileSync(join(FIX, p), 'utf8');

ruleTester('eval-missing-field', {
  valid: [
    {
      name: 'every required field, must_call as name, as tool alone and as tool with args',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\ndescription: d\ntests:\n  - name: t\n    description: d\n    prompt: p\n    assertions:\n      must_call:\n        - find_record\n        - tool: fetch_record\n        - tool: list_records\n          args: {}\n',
    },
    { name: 'a test with only answer assertions', filename: 'evals.json', code: '{"mxcp": 1, "suite": "s", "description": "d", "tests": [{"name": "t", "description": "d", "prompt": "p", "assertions": {"answer_not_contains": ["password"]}}]}' },
    { name: 'seed 003 complete example', filename: 'evals.yml', code: read('evals/seed003-governance.evals.yml') },
    { name: 'corpus suite on the Jira tools', filename: 'evals.yml', code: read('evals/jira.evals.yml') },
    { name: 'an assertions mapping with another field is eval-unknown-field\'s', filename: 'evals.yml', code: 'mxcp: 1\nsuite: s\ndescription: d\ntests:\n  - name: t\n    description: d\n    prompt: p\n    assertions:\n      expected_tool: x\n' },
  ],
  invalid: [
    {
      name: 'a test without prompt and assertions',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\ndescription: d\ntests:\n  - name: by_id\n    description: d\n',
      errors: [
        { messageId: 'test', line: 5, column: 11, endColumn: 16, parameter: 'prompt', severity: 'error', messageIncludes: 'Eval test `by_id` has no `prompt`' },
        { messageId: 'test', line: 5, column: 11, parameter: 'assertions', severity: 'error' },
      ],
    },
    {
      name: 'an unnamed test is named by its position; empty values count as missing',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\ndescription: d\ntests:\n  - name: a\n    description: d\n    prompt: p\n    assertions: {answer_contains: [x]}\n  - description: d\n    prompt: ""\n    assertions:\n',
      errors: [
        { messageId: 'test', line: 9, column: 5, parameter: 'name', messageIncludes: 'Eval test #2 has no `name`' },
        { messageId: 'test', line: 10, column: 5, parameter: 'prompt' },
        { messageId: 'test', line: 11, column: 5, parameter: 'assertions' },
      ],
    },
    {
      name: 'descriptions seed 003 requires are one level lower',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: nightly\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      must_call: [find_record]\n',
      errors: [
        { messageId: 'suite', line: 2, column: 1, parameter: 'description', severity: 'warning' },
        { messageId: 'test', line: 4, column: 11, parameter: 'description', severity: 'warning' },
      ],
    },
    {
      name: 'suite without suite name and tests (JSON)',
      filename: 'evals.json',
      code: '{"mxcp": 1, "description": "d", "tests": null}',
      errors: [
        { messageId: 'suite', parameter: 'suite', pointer: '/mxcp', line: 1, column: 2 },
        { messageId: 'suite', parameter: 'tests', pointer: '/tests' },
      ],
    },
    {
      name: 'a must_call mapping without tool',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\ndescription: d\ntests:\n  - name: t\n    description: d\n    prompt: p\n    assertions:\n      must_call:\n        - args: {id: 1}\n        - tool: ""\n',
      errors: [
        { messageId: 'call', line: 10, column: 11, parameter: 'tool' },
        { messageId: 'call', line: 11, column: 11, parameter: 'tool' },
      ],
    },
    {
      name: 'empty assertions and an empty suite are warnings',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\ndescription: d\ntests:\n  - name: t\n    description: d\n    prompt: p\n    assertions:\n      must_call: []\n      answer_contains:\n',
      errors: [{ messageId: 'noAssertion', line: 8, column: 5, severity: 'warning', parameter: 'assertions' }],
    },
    {
      name: 'no tests',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\ndescription: d\ntests: []\n',
      errors: [{ messageId: 'noTests', line: 4, column: 1, severity: 'warning' }],
    },
  ],
});

test('eval-missing-field: the test field names the test, or the suite for suite-level findings', () => {
  const { diagnostics } = runRule('eval-missing-field', { filename: 'evals.yml', code: 'mxcp: 1\nsuite: nightly\ntests:\n  - name: by_id\n    description: d\n    assertions: {must_call: [a]}\n' });
  assert.deepEqual(
    diagnostics.map((d) => [d.test, d.parameter]),
    [
      ['nightly', 'description'],
      ['by_id', 'prompt'],
    ],
  );
});

test('eval-missing-field: seed 003 mistakes fixture', () => {
  const { diagnostics } = runRule('eval-missing-field', { filename: 'm.evals.yml', code: read('evals/seed003-mistakes.evals.yml') });
  assert.deepEqual(
    diagnostics.map((d) => `${d.range.start.line} ${d.severity} ${d.test} ${d.parameter}`),
    ['4 warning customer_checks description', '11 error lookup_by_id assertions', '15 warning purchases description', '40 error no_prompt prompt'],
  );
});

test('eval-missing-field: no eval suite, so no finding, in the seed-000 catalogues', () => {
  for (const f of ['before.yaml', 'after.yaml']) assert.deepEqual(runRule('eval-missing-field', { code: read(join('seed000', f)), filename: f }).diagnostics, []);
});
