import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester, runRule } from '../helpers/rule-tester';

const FIX = join(__dirname, '..', 'fixtures');
const read = (p: string): string => readFileSync(join(FIX, p), 'utf8');

const suite = (assertions: string): string => `mxcp: 1\nsuite: s\ndescription: d\ntests:\n  - name: t\n    description: d\n    prompt: p\n    assertions:\n${assertions}`;

ruleTester('eval-assertion-conflict', {
  valid: [
    { name: 'different tools required and forbidden', filename: 'evals.yml', code: suite('      must_call: [fetch_record]\n      must_not_call: [remove_record]\n') },
    { name: 'the forbidden text contains the required one (an answer can have the short one only)', filename: 'evals.yml', code: suite('      answer_contains: ["error"]\n      answer_not_contains: ["fatal error"]\n') },
    { name: 'unrelated strings', filename: 'evals.yml', code: suite('      answer_contains: ["status"]\n      answer_not_contains: ["password", "SSN"]\n') },
    {
      name: 'the same tool required in one test and forbidden in another',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\ntests:\n  - name: admin\n    prompt: p\n    assertions: {must_call: [remove_record]}\n  - name: user\n    prompt: p\n    assertions: {must_not_call: [remove_record]}\n',
    },
    { name: 'JSON suite', filename: 'evals.json', code: '{"mxcp": 1, "suite": "s", "tests": [{"name": "t", "prompt": "p", "assertions": {"must_call": [{"tool": "a", "args": {}}], "must_not_call": ["b"]}}]}' },
    { name: 'seed 003 complete example', filename: 'evals.yml', code: read('evals/seed003-governance.evals.yml') },
  ],
  invalid: [
    {
      name: 'a tool both required (as an entry) and forbidden',
      filename: 'evals.yml',
      code: suite('      must_call:\n        - tool: fetch_record\n          args: {}\n      must_not_call:\n        - remove_record\n        - fetch_record\n'),
      errors: [
        {
          messageId: 'tool',
          line: 14,
          column: 11,
          endColumn: 23,
          parameter: 'must_not_call',
          severity: 'error',
          suggestionOutputs: [
            suite('      must_call:\n        - tool: fetch_record\n          args: {}\n      must_not_call:\n        - remove_record\n'),
            suite('      must_call: []\n      must_not_call:\n        - remove_record\n        - fetch_record\n'),
          ],
        },
      ],
    },
    {
      name: 'a tool required by name and forbidden (flow lists)',
      filename: 'evals.yml',
      code: suite('      must_call: [fetch_record, list_records]\n      must_not_call: [fetch_record]\n'),
      errors: [{ messageId: 'tool', line: 10, column: 23, suggestionOutputs: [suite('      must_call: [fetch_record, list_records]\n      must_not_call: []\n'), suite('      must_call: [list_records]\n      must_not_call: [fetch_record]\n')] }],
    },
    {
      name: 'the same text required and forbidden, in another case',
      filename: 'evals.yml',
      code: suite('      answer_contains: ["Total"]\n      answer_not_contains: ["total", "error"]\n'),
      errors: [{ messageId: 'same', line: 10, column: 29, parameter: 'answer_not_contains', suggestionOutputs: [suite('      answer_contains: ["Total"]\n      answer_not_contains: ["error"]\n')] }],
    },
    {
      name: 'a required text that contains a forbidden one',
      filename: 'evals.yml',
      code: suite('      answer_contains:\n        - "No errors were found"\n      answer_not_contains:\n        - "error"\n'),
      errors: [{ messageId: 'inside', line: 12, column: 11, messageIncludes: 'Required text `No errors were found` contains forbidden `error`' }],
    },
    {
      name: 'an empty forbidden string',
      filename: 'evals.yml',
      code: suite('      answer_not_contains: ["", "x"]\n'),
      errors: [{ messageId: 'empty', line: 9, column: 29, suggestionOutputs: [suite('      answer_not_contains: ["x"]\n')] }],
    },
    {
      name: 'JSON suite',
      filename: 'evals.json',
      code: '{"mxcp": 1, "suite": "s", "tests": [{"name": "t", "prompt": "p", "assertions": {"must_call": ["a"], "must_not_call": ["a"], "answer_contains": ["2024"], "answer_not_contains": ["2024"]}}]}',
      errors: [
        { messageId: 'tool', pointer: '/tests/0/assertions/must_not_call/0' },
        { messageId: 'same', pointer: '/tests/0/assertions/answer_not_contains/0' },
      ],
    },
  ],
});

test('eval-assertion-conflict: findings carry the test name', () => {
  const { diagnostics } = runRule('eval-assertion-conflict', { filename: 'evals.yml', code: suite('      must_call: [a]\n      must_not_call: [a]\n') });
  assert.deepEqual(diagnostics.map((d) => [d.test, d.parameter, d.tool]), [['t', 'must_not_call', null]]);
});

test('eval-assertion-conflict: seed 003 mistakes fixture', () => {
  const { diagnostics } = runRule('eval-assertion-conflict', { filename: 'm.evals.yml', code: read('evals/seed003-mistakes.evals.yml') });
  assert.deepEqual(diagnostics.map((d) => `${d.range.start.line} ${d.test} ${d.messageId}`), ['37 read_only tool', '39 read_only inside']);
});

const CORPUS = join(__dirname, '..', '..', '..', 'shared', 'corpus');
const skip = existsSync(CORPUS) ? false : `the corpus is not at ${CORPUS}; these tests need ../shared/corpus beside the repository`;

test('eval-assertion-conflict on suites for the corpus Jira tools', { skip }, () => {
  assert.deepEqual(runRule('eval-assertion-conflict', { filename: 'jira.evals.yml', code: read('evals/jira.evals.yml') }).diagnostics, []);
  const ds = runRule('eval-assertion-conflict', { filename: 'jira-broken.evals.yml', code: read('evals/jira-broken.evals.yml') }).diagnostics;
  assert.deepEqual(ds.map((d) => `${d.range.start.line} ${d.test} ${d.message}`), ['34 no_search_for_a_key `get_issue` is both required (`must_call`) and forbidden (`must_not_call`), so this test can never pass']);
});

test('eval-assertion-conflict: no eval suite, so no finding, in the seed-000 catalogues', () => {
  for (const f of ['before.yaml', 'after.yaml']) assert.deepEqual(runRule('eval-assertion-conflict', { code: read(join('seed000', f)), filename: f }).diagnostics, []);
});
