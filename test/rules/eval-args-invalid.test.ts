import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester, runRule } from '../helpers/rule-tester';

const FIX = join(__dirname, '..', 'fixtures');
const read = (p: string): string => readFileSync(join(FIX, p), 'utf8');

const TOOLS = {
  filename: 'tools.yaml',
  code: `tools:
  - name: search_records
    description: Search records.
    inputSchema:
      type: object
      properties:
        query: {type: string}
        limit: {type: integer, minimum: 1, maximum: 100}
        order: {type: string, enum: [asc, desc]}
        since: {type: string, format: date}
        tags: {type: array, items: {type: string}}
        filter:
          type: object
          properties:
            status: {type: string, enum: [open, closed]}
        cursor: {type: string, default: null}
        kind: {$ref: "#/$defs/kind"}
      required: [query]
      $defs:
        kind: {type: string, enum: [a, b]}
  - name: open_ended
    description: Takes anything.
    inputSchema: {type: object, properties: {known: {type: integer}}, additionalProperties: true}
  - name: no_params
    description: Takes nothing.
    inputSchema: {type: object, properties: {}}
  - name: undeclared
    description: Declares no schema details.
    inputSchema: {type: object}
`,
};
const MXCP_TOOL = {
  filename: 'tools/archive_record.yml',
  code: 'mxcp: 1\ntool:\n  name: archive_record\n  description: Archive a record.\n  parameters:\n    - name: record_id\n      type: integer\n      description: The record.\n    - name: reason\n      type: string\n      enum: [expired, duplicate]\n      description: Why.\n      default: null\n',
};
const suite = (call: string): string => `mxcp: 1\nsuite: s\ndescription: d\ntests:\n  - name: t\n    description: d\n    prompt: p\n    assertions:\n      must_call:\n${call}`;

ruleTester('eval-args-invalid', {
  valid: [
    {
      name: 'valid values; required ones may be left out (partial matching)',
      filename: 'evals.yml',
      others: [TOOLS],
      code: suite('        - tool: search_records\n          args:\n            limit: 10\n            order: desc\n            since: "2024-03-01"\n            tags: [x]\n            filter: {status: open}\n            cursor: null\n            kind: a\n'),
    },
    { name: 'empty args, a name alone, a tool alone', filename: 'evals.yml', others: [TOOLS], code: suite('        - tool: search_records\n          args: {}\n        - search_records\n        - tool: no_params\n') },
    { name: 'a tool that takes more than it names, one that declares nothing', filename: 'evals.yml', others: [TOOLS], code: suite('        - tool: open_ended\n          args: {whatever: 1, known: 2}\n        - tool: undeclared\n          args: {x: 1}\n') },
    { name: 'a tool the catalogue lacks is eval-tool-unknown\'s', filename: 'evals.yml', others: [TOOLS], code: suite('        - tool: missing_tool\n          args: {limit: "x"}\n') },
    { name: 'MXCP tool: null for a parameter whose default is null', filename: 'evals.yml', others: [MXCP_TOOL], code: suite('        - tool: archive_record\n          args: {record_id: 7, reason: null}\n') },
    { name: 'JSON suite', filename: 'evals.json', others: [TOOLS], code: '{"mxcp": 1, "suite": "s", "tests": [{"name": "t", "prompt": "p", "assertions": {"must_call": [{"tool": "search_records", "args": {"query": "x", "limit": 5}}]}}]}' },
  ],
  invalid: [
    {
      name: 'wrong type, with the number suggested',
      filename: 'evals.yml',
      others: [TOOLS],
      code: suite('        - tool: search_records\n          args:\n            limit: "10"\n'),
      errors: [
        {
          messageId: 'invalid',
          line: 12,
          column: 20,
          endColumn: 24,
          parameter: 'limit',
          severity: 'error',
          messageIncludes: 'Argument `limit` of `search_records`: "10" must be integer',
          suggestionOutputs: [suite('        - tool: search_records\n          args:\n            limit: 10\n')],
        },
      ],
    },
    {
      name: 'enum in the wrong case, a date that is not one, out of range, nested values, a $ref',
      filename: 'evals.yml',
      others: [TOOLS],
      code: suite('        - tool: search_records\n          args:\n            order: DESC\n            since: last week\n            limit: 500\n            tags: [1]\n            filter: {status: pending}\n            kind: c\n'),
      errors: [
        { messageId: 'invalid', line: 12, column: 20, parameter: 'order', messageIncludes: 'is not one of "asc", "desc"', suggestionOutputs: [suite('        - tool: search_records\n          args:\n            order: desc\n            since: last week\n            limit: 500\n            tags: [1]\n            filter: {status: pending}\n            kind: c\n')] },
        { messageId: 'invalid', line: 13, parameter: 'since', messageIncludes: 'must match format "date"', suggestionOutputs: [] },
        { messageId: 'invalid', line: 14, parameter: 'limit', messageIncludes: 'must be <= 100' },
        { messageId: 'invalid', line: 15, parameter: 'tags', messageIncludes: 'at `/0` must be string' },
        { messageId: 'invalid', line: 16, parameter: 'filter', messageIncludes: 'at `/status` is not one of "open", "closed"' },
        { messageId: 'invalid', line: 17, parameter: 'kind', messageIncludes: 'is not one of "a", "b"' },
      ],
    },
    {
      name: 'argument names the tool does not have',
      filename: 'evals.yml',
      others: [TOOLS],
      code: suite('        - tool: search_records\n          args:\n            querry: x\n            page_size: 5\n        - tool: no_params\n          args: {x: 1}\n'),
      errors: [
        { messageId: 'unknown', line: 12, column: 13, endColumn: 19, parameter: 'querry', messageIncludes: '(did you mean `query`?)', suggestionOutputs: [suite('        - tool: search_records\n          args:\n            query: x\n            page_size: 5\n        - tool: no_params\n          args: {x: 1}\n')] },
        { messageId: 'unknown', line: 13, parameter: 'page_size', messageIncludes: 'it takes `query`, `limit`, `order`', suggestionOutputs: [] },
        { messageId: 'unknown', line: 15, column: 18, parameter: 'x', messageIncludes: 'it takes no parameters' },
      ],
    },
    {
      name: 'an MXCP parameter list is checked as JSON Schema',
      filename: 'evals.yml',
      others: [MXCP_TOOL],
      code: suite('        - tool: archive_record\n          args:\n            record_id: "7"\n            reason: Expired\n'),
      errors: [
        { messageId: 'invalid', line: 12, parameter: 'record_id', suggestionOutputs: [suite('        - tool: archive_record\n          args:\n            record_id: 7\n            reason: Expired\n')] },
        { messageId: 'invalid', line: 13, parameter: 'reason', suggestionOutputs: [suite('        - tool: archive_record\n          args:\n            record_id: "7"\n            reason: expired\n')] },
      ],
    },
    {
      name: 'JSON suite: a number where a string is due',
      filename: 'evals.json',
      others: [TOOLS],
      code: '{"mxcp": 1, "suite": "s", "tests": [{"name": "t", "prompt": "p", "assertions": {"must_call": [{"tool": "search_records", "args": {"query": 42}}]}}]}',
      errors: [
        {
          messageId: 'invalid',
          pointer: '/tests/0/assertions/must_call/0/args/query',
          suggestionOutputs: ['{"mxcp": 1, "suite": "s", "tests": [{"name": "t", "prompt": "p", "assertions": {"must_call": [{"tool": "search_records", "args": {"query": "42"}}]}}]}'],
        },
      ],
    },
  ],
});

test('eval-args-invalid: findings carry the test name and the argument', () => {
  const { diagnostics } = runRule('eval-args-invalid', { filename: 'evals.yml', others: [TOOLS], code: suite('        - tool: search_records\n          args: {limit: 0}\n') });
  assert.deepEqual(diagnostics.map((d) => [d.test, d.parameter, d.tool]), [['t', 'limit', 'search_records']]);
});

test('eval-args-invalid: seed 003 fixtures', () => {
  const tools = { filename: 'seed003-tools.yaml', code: read('evals/seed003-tools.yaml') };
  assert.deepEqual(runRule('eval-args-invalid', { filename: 'g.evals.yml', code: read('evals/seed003-governance.evals.yml'), others: [tools] }).diagnostics, []);
  const { diagnostics } = runRule('eval-args-invalid', { filename: 'm.evals.yml', code: read('evals/seed003-mistakes.evals.yml'), others: [tools] });
  assert.deepEqual(diagnostics.map((d) => `${d.range.start.line} ${d.test} ${d.parameter} ${d.messageId}`), [
    '23 purchases status invalid',
    '24 purchases date_from invalid',
    '25 purchases customer unknown',
    '33 read_only customer_id invalid',
    '34 read_only include_pii invalid',
  ]);
});

const TEMPLATES = join(__dirname, '..', '..', '..', 'shared', 'corpus', 'raw-labs__raw-labs-claude-marketplace', '.claude-plugin', 'plugins', 'mxcp-expert', 'skills', 'mxcp-expert', 'assets', 'project-templates');
const skip = existsSync(TEMPLATES) ? false : `the corpus is not at ${TEMPLATES}; these tests need ../shared/corpus beside the repository`;
const template = (name: string) => readdirSync(join(TEMPLATES, name, 'tools')).filter((f) => f.endsWith('.yml')).map((f) => ({ filename: `${name}/tools/${f}`, code: readFileSync(join(TEMPLATES, name, 'tools', f), 'utf8') }));

test('eval-args-invalid on the corpus Jira tools: a clean suite passes', { skip }, () => {
  assert.deepEqual(runRule('eval-args-invalid', { filename: 'jira.evals.yml', code: read('evals/jira.evals.yml'), others: template('jira') }).diagnostics, []);
});

test('eval-args-invalid on the corpus Jira tools: a string for an integer, an unknown argument', { skip }, () => {
  const ds = runRule('eval-args-invalid', { filename: 'jira-broken.evals.yml', code: read('evals/jira-broken.evals.yml'), others: template('jira') }).diagnostics;
  assert.deepEqual(ds.map((d) => `${d.range.start.line}:${d.range.start.column} ${d.parameter} ${d.message}`), [
    '14:20 limit Argument `limit` of `jql_query`: "10" must be integer',
    '15:13 max_results `jql_query` has no parameter `max_results`; it takes `query`, `start`, `limit`',
  ]);
});

test('eval-args-invalid on the corpus Google Calendar tools: enum, format and range', { skip }, () => {
  const ds = runRule('eval-args-invalid', { filename: 'calendar-broken.evals.yml', code: read('evals/calendar-broken.evals.yml'), others: template('google-calendar') }).diagnostics;
  assert.deepEqual(ds.map((d) => `${d.range.start.line} ${d.parameter} ${d.message} | ${d.suggestions.map((s) => s.title).join()}`), [
    '14 order_by Argument `order_by` of `list_events`: "StartTime" is not one of "startTime", "updated" | Write "startTime"',
    '15 time_min Argument `time_min` of `list_events`: "monday" must match format "date-time" | ',
    '16 max_results Argument `max_results` of `list_events`: 5000 must be <= 2500 | ',
  ]);
});

test('eval-args-invalid: no eval suite, so no finding, in the seed-000 catalogues', () => {
  for (const f of ['before.yaml', 'after.yaml']) assert.deepEqual(runRule('eval-args-invalid', { code: read(join('seed000', f)), filename: f }).diagnostics, []);
});
