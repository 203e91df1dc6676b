import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester, runRule } from '../helpers/rule-tester';

const FIX = join(__dirname, '..', 'fixtures');
const read = (p: string): string => readFileSync(join(FIX, p), 'utf8');

const TOOLS = {
  filename: 'tools.yaml',
  code: 'tools:\n  - name: fetch_record\n    description: Fetch one record.\n    inputSchema: {type: object, properties: {record_id: {type: string}}}\n  - name: remove_record\n    description: Remove a record.\n    inputSchema: {type: object, properties: {record_id: {type: string}}}\n  - name: list_record_versions\n    description: List versions.\n    inputSchema: {type: object, properties: {}}\n',
};
const MXCP_TOOL = { filename: 'tools/archive_record.yml', code: 'mxcp: 1\ntool:\n  name: archive_record\n  description: Archive a record.\n  parameters:\n    - name: record_id\n      type: string\n      description: The record.\n' };
const suite = (assertions: string): string => `mxcp: 1\nsuite: s\ndescription: d\ntests:\n  - name: t\n    description: d\n    prompt: p\n    assertions:\n${assertions}`;

ruleTester('eval-tool-unknown', {
  valid: [
    { name: 'known tools in every position', filename: 'evals.yml', others: [TOOLS, MXCP_TOOL], code: suite('      must_call:\n        - fetch_record\n        - tool: archive_record\n          args: {}\n      must_not_call: [remove_record]\n') },
    { name: 'no tools in the run: nothing to check against', filename: 'evals.yml', code: suite('      must_call: [anything_at_all]\n') },
    { name: 'a name in `ignore` (a tool the server adds itself)', filename: 'evals.yml', others: [TOOLS], options: { ignore: ['run_sql'] }, code: suite('      must_call: [run_sql]\n') },
    { name: 'JSON suite', filename: 'evals.json', others: [TOOLS], code: '{"mxcp": 1, "suite": "s", "tests": [{"name": "t", "prompt": "p", "assertions": {"must_call": [{"tool": "fetch_record", "args": {}}]}}]}' },
  ],
  invalid: [
    {
      name: 'a typo in must_call',
      filename: 'evals.yml',
      others: [TOOLS],
      code: suite('      must_call:\n        - tool: fetch_recrod\n          args: {}\n'),
      errors: [
        {
          messageId: 'required',
          line: 10,
          column: 17,
          endColumn: 29,
          parameter: 'must_call',
          severity: 'error',
          messageIncludes: '(did you mean `fetch_record`?)',
          suggestionOutputs: [suite('      must_call:\n        - tool: fetch_record\n          args: {}\n')],
        },
      ],
    },
    {
      name: 'another naming style, a plural, a missing word (shorthand entries)',
      filename: 'evals.yml',
      others: [TOOLS, MXCP_TOOL],
      code: suite('      must_call:\n        - fetchRecord\n        - archive_records\n        - list_versions\n'),
      errors: [
        { messageId: 'required', line: 10, column: 11, suggestionOutputs: [suite('      must_call:\n        - fetch_record\n        - archive_records\n        - list_versions\n')] },
        { messageId: 'required', line: 11, messageIncludes: '`archive_record`' },
        { messageId: 'required', line: 12, messageIncludes: '`list_record_versions`' },
      ],
    },
    {
      name: 'must_not_call: a near miss is an error, a guard with no near name a warning',
      filename: 'evals.yml',
      others: [TOOLS],
      code: suite('      must_not_call:\n        - remove_recrd\n        - drop_database\n'),
      errors: [
        { messageId: 'forbidden', line: 10, severity: 'error', parameter: 'must_not_call', suggestionOutputs: [suite('      must_not_call:\n        - remove_record\n        - drop_database\n')] },
        { messageId: 'forbidden', line: 11, severity: 'warning', suggestionOutputs: [] },
      ],
    },
    {
      name: 'JSON, against an MXCP tool file',
      filename: 'evals.json',
      others: [MXCP_TOOL],
      code: '{"mxcp": 1, "suite": "s", "tests": [{"name": "t", "prompt": "p", "assertions": {"must_call": [{"tool": "archive", "args": {}}]}}]}',
      errors: [{ messageId: 'required', pointer: '/tests/0/assertions/must_call/0/tool', line: 1, column: 104 }],
    },
    {
      name: 'no close name: no suggestion',
      filename: 'evals.yml',
      others: [TOOLS],
      code: suite('      must_call: [send_invoice]\n'),
      errors: [{ messageId: 'required', line: 9, column: 19, suggestionOutputs: [] }],
    },
  ],
});

test('eval-tool-unknown: findings carry the test name', () => {
  const { diagnostics } = runRule('eval-tool-unknown', { filename: 'evals.yml', others: [TOOLS], code: suite('      must_call: [fetch_recrod]\n') });
  assert.deepEqual(diagnostics.map((d) => [d.test, d.parameter, d.tool]), [['t', 'must_call', null]]);
});

test('eval-tool-unknown: the eval suite and its tools in one multi-document file', () => {
  const code = suite('      must_call: [fetch_recrod]\n') + '---\n' + TOOLS.code;
  assert.equal(runRule('eval-tool-unknown', { filename: 'evals.yml', code }).diagnostics.length, 1);
});

test('eval-tool-unknown: seed 003 fixtures', () => {
  const tools = { filename: 'seed003-tools.yaml', code: read('evals/seed003-tools.yaml') };
  assert.deepEqual(runRule('eval-tool-unknown', { filename: 'g.evals.yml', code: read('evals/seed003-governance.evals.yml'), others: [tools] }).diagnostics, []);
  const { diagnostics } = runRule('eval-tool-unknown', { filename: 'm.evals.yml', code: read('evals/seed003-mistakes.evals.yml'), others: [tools] });
  assert.deepEqual(
    diagnostics.map((d) => `${d.range.start.line} ${d.test} ${d.message}`),
    ['19 purchases `get_customer_purchase_histroy` is not a tool of this catalogue, so this test can never pass (did you mean `get_customer_purchase_history`?)'],
  );
});

// The corpus' MXCP project templates, linted with suites written for these tests.
const TEMPLATES = join(__dirname, '..', '..', '..', 'shared', 'corpus', 'raw-labs__raw-labs-claude-marketplace', '.claude-plugin', 'plugins', 'mxcp-expert', 'skills', 'mxcp-expert', 'assets', 'project-templates');
const skip = existsSync(TEMPLATES) ? false : `the corpus is not at ${TEMPLATES}; these tests need ../shared/corpus beside the repository`;
const template = (name: string) => readdirSync(join(TEMPLATES, name, 'tools')).filter((f) => f.endsWith('.yml')).map((f) => ({ filename: `${name}/tools/${f}`, code: readFileSync(join(TEMPLATES, name, 'tools', f), 'utf8') }));

test('eval-tool-unknown on the corpus Jira tools: a clean suite', { skip }, () => {
  assert.deepEqual(runRule('eval-tool-unknown', { filename: 'jira.evals.yml', code: read('evals/jira.evals.yml'), others: template('jira') }).diagnostics, []);
});

test('eval-tool-unknown on the corpus Jira and Calendar tools: close names suggested', { skip }, () => {
  const jira = runRule('eval-tool-unknown', { filename: 'jira-broken.evals.yml', code: read('evals/jira-broken.evals.yml'), others: template('jira') }).diagnostics;
  assert.deepEqual(jira.map((d) => `${d.range.start.line}:${d.range.start.column} ${d.test} ${d.suggestions.map((s) => s.title).join()}`), ['21:17 issue_by_key Replace with `get_issue`']);
  const cal = runRule('eval-tool-unknown', { filename: 'calendar-broken.evals.yml', code: read('evals/calendar-broken.evals.yml'), others: template('google-calendar') }).diagnostics;
  assert.deepEqual(cal.map((d) => `${d.range.start.line} ${d.test} ${d.suggestions.map((s) => s.title).join()}`), ['23 calendars Replace with `list_calendars`']);
});

test('eval-tool-unknown: no eval suite, so no finding, in the seed-000 catalogues', () => {
  for (const f of ['before.yaml', 'after.yaml']) assert.deepEqual(runRule('eval-tool-unknown', { code: read(join('seed000', f)), filename: f }).diagnostics, []);
});
