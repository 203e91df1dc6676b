import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester, runRule } from '../helpers/rule-tester';

const FIX = join(__dirname, '..', 'fixtures');
const read = (p: string): string => readFileSync(join(FIX, p), 'utf8');

const CLEAN = `mxcp: 1
suite: lookups
description: "Lookups"
model: claude-4-sonnet
tests:
  - name: by_id
    description: "An ID goes to the lookup"
    prompt: "Show me record 7"
    user_context:
      role: analyst
      anything_goes: here
    assertions:
      must_call:
        - find_record
        - tool: fetch_record
          args:
            record_id: 7
            any_argument_name: is not this rule's business
      must_not_call: [remove_record]
      answer_contains: ["7"]
      answer_not_contains: ["error"]
`;

ruleTester('eval-unknown-field', {
  valid: [
    { name: 'every allowed field at every level', code: CLEAN, filename: 'evals.yml' },
    { name: 'JSON suite', filename: 'evals.json', code: '{"mxcp": 1, "suite": "s", "description": "d", "tests": [{"name": "t", "prompt": "p", "assertions": {"must_call": [{"tool": "x", "args": {}}]}}]}' },
    { name: 'empty values are eval-missing-field\'s', filename: 'evals.yml', code: 'mxcp: 1\nsuite: s\ndescription:\ntests:\n  - name: t\n    prompt:\n    assertions:\n      must_call:\n      answer_contains:\n' },
    { name: 'a tool file with `tools`/`project` keys is not an eval suite', code: 'mxcp: 1\ntool:\n  name: find_record\n  description: Find a record.\n  parameters: []\n' },
    { name: 'seed 003 complete example', filename: 'evals.yml', code: read('evals/seed003-governance.evals.yml') },
  ],
  invalid: [
    {
      name: 'expected_tool on a test without assertions: moved to a new assertions.must_call',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    expected_tool: find_record\n',
      errors: [{ messageId: 'expectedTool', line: 6, column: 5, endColumn: 18, parameter: 'expected_tool' }],
      output: 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      must_call: [{tool: find_record, args: {}}]\n',
    },
    {
      name: 'expected_tool beside assertions: appended to must_call',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    expected_tool: find_record\n    assertions:\n      must_call:\n        - tool: other_one\n          args: {}\n      # keep me\n      answer_contains: [x]\n',
      errors: [{ messageId: 'expectedTool', line: 6, column: 5 }],
      output: 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      must_call:\n        - tool: other_one\n          args: {}\n        - tool: find_record\n          args: {}\n      # keep me\n      answer_contains: [x]\n',
    },
    {
      name: 'expected_tool beside assertions without must_call: must_call added',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    expected_tool: find_record\n    assertions:\n      answer_contains: [x]\n',
      errors: [{ messageId: 'expectedTool', line: 6 }],
      output: 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      answer_contains: [x]\n      must_call: [{tool: find_record, args: {}}]\n',
    },
    {
      name: 'expected_tool already required: only removed',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    expected_tool: find_record\n    assertions:\n      must_call: [find_record]\n',
      errors: [{ messageId: 'expectedTool', line: 6 }],
      output: 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      must_call: [find_record]\n',
    },
    {
      name: 'expected_tool inside assertions: the key becomes must_call',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      expected_tool: find_record\n      answer_contains: [x]\n',
      errors: [{ messageId: 'expectedTool', line: 7, column: 7 }],
      output: 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      must_call: [{tool: find_record, args: {}}]\n      answer_contains: [x]\n',
    },
    {
      name: 'expected_tool in JSON, with args given as a mapping',
      filename: 'evals.json',
      code: '{\n  "mxcp": 1,\n  "suite": "s",\n  "tests": [\n    {\n      "name": "t",\n      "prompt": "p",\n      "expected_tool": {"tool": "find_record", "args": {"id": 7}},\n      "assertions": {"must_call": []}\n    }\n  ]\n}\n',
      errors: [{ messageId: 'expectedTool', line: 8, column: 7, pointer: '/tests/0/expected_tool' }],
      output: '{\n  "mxcp": 1,\n  "suite": "s",\n  "tests": [\n    {\n      "name": "t",\n      "prompt": "p",\n      "assertions": {"must_call": [\n        {"tool":"find_record","args":{"id":7}}\n      ]}\n    }\n  ]\n}\n',
    },
    {
      name: 'expected_tools listing several tools',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    expected_tools: [find_record, fetch_record]\n    assertions:\n      must_call:\n        - find_record\n',
      errors: [{ messageId: 'expectedTool', line: 6, parameter: 'expected_tools' }],
      output: 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      must_call:\n        - find_record\n        - tool: fetch_record\n          args: {}\n',
    },
    {
      name: 'expected_tool whose value is unclear: reported, no fix',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    expected_tool: {tool: find_record, times: 2}\n    assertions: {answer_contains: [x]}\n',
      errors: [{ messageId: 'expectedTool', line: 6 }],
    },
    {
      name: 'project and profile removed; tools and resources only suggested',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\nproject: my-project\nprofile: dev\ntools:\n  - name: x\nresources: []\ntests: []\n',
      errors: [
        { messageId: 'config', line: 3, column: 1, endColumn: 8, parameter: 'project', messageIncludes: 'config.yml' },
        { messageId: 'config', line: 4, column: 1, parameter: 'profile', messageIncludes: '--profile' },
        { messageId: 'definition', line: 5, column: 1, parameter: 'tools', suggestionOutputs: ['mxcp: 1\nsuite: s\nproject: my-project\nprofile: dev\nresources: []\ntests: []\n'] },
        { messageId: 'definition', line: 7, column: 1, parameter: 'resources', suggestionOutputs: ['mxcp: 1\nsuite: s\nproject: my-project\nprofile: dev\ntools:\n  - name: x\ntests: []\n'] },
      ],
      output: 'mxcp: 1\nsuite: s\ntools:\n  - name: x\nresources: []\ntests: []\n',
    },
    {
      name: 'misspelt fields at each level get the closest name',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\ndescripton: d\ntests:\n  - name: t\n    promt: p\n    assertions:\n      must_not_cal: [x]\n      must_call:\n        - tool: y\n          arg: {}\n',
      errors: [
        { messageId: 'unknown', line: 3, column: 1, messageIncludes: '`description`', suggestionOutputs: ['mxcp: 1\nsuite: s\ndescription: d\ntests:\n  - name: t\n    promt: p\n    assertions:\n      must_not_cal: [x]\n      must_call:\n        - tool: y\n          arg: {}\n'] },
        { messageId: 'unknown', line: 6, column: 5, parameter: 'promt', suggestionOutputs: ['mxcp: 1\nsuite: s\ndescripton: d\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      must_not_cal: [x]\n      must_call:\n        - tool: y\n          arg: {}\n'] },
        { messageId: 'unknown', line: 8, column: 7, parameter: 'must_not_cal', suggestionOutputs: ['mxcp: 1\nsuite: s\ndescripton: d\ntests:\n  - name: t\n    promt: p\n    assertions:\n      must_not_call: [x]\n      must_call:\n        - tool: y\n          arg: {}\n'] },
        { messageId: 'unknown', line: 11, column: 11, parameter: 'arg', suggestionOutputs: ['mxcp: 1\nsuite: s\ndescripton: d\ntests:\n  - name: t\n    promt: p\n    assertions:\n      must_not_cal: [x]\n      must_call:\n        - tool: y\n          args: {}\n'] },
      ],
    },
    {
      name: 'names other formats use',
      filename: 'evals.yml',
      code: 'mxcp: 1\nname: s\ntests:\n  - name: t\n    question: p\n    assertions: {}\n',
      errors: [
        { messageId: 'unknown', line: 2, messageIncludes: '(did you mean `suite`?)', suggestionOutputs: ['mxcp: 1\nsuite: s\ntests:\n  - name: t\n    question: p\n    assertions: {}\n'] },
        { messageId: 'unknown', line: 5, messageIncludes: '(did you mean `prompt`?)', suggestionOutputs: ['mxcp: 1\nname: s\ntests:\n  - name: t\n    prompt: p\n    assertions: {}\n'] },
      ],
    },
    {
      name: 'an unknown field with no close name lists the allowed ones',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    retries: 3\n    assertions: {}\n',
      errors: [{ messageId: 'unknown', line: 6, messageIncludes: 'it allows `name`, `description`, `prompt`, `user_context`, `assertions`', suggestionOutputs: [] }],
    },
    {
      name: 'fields at the wrong level say where they belong',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\nprompt: p\ntests:\n  - name: t\n    prompt: p\n    must_call:\n      - tool: a\n    assertions:\n      answer_contains: [x]\n',
      errors: [
        { messageId: 'misplaced', line: 3, messageIncludes: 'belongs to each test', suggestionOutputs: [] },
        {
          messageId: 'misplaced',
          line: 7,
          column: 5,
          messageIncludes: "belongs to each test's `assertions`",
          suggestionOutputs: ['mxcp: 1\nsuite: s\nprompt: p\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      answer_contains: [x]\n      must_call: [{tool: a}]\n'],
        },
      ],
    },
    {
      name: 'values of the wrong kind',
      filename: 'evals.yml',
      code: 'mxcp: "1"\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      must_not_call:\n        - tool: drop_all\n      answer_contains:\n        - 2024\n      must_call:\n        - tool: a\n          args:\n        - 42\n',
      errors: [
        { messageId: 'shape', line: 1, column: 7, parameter: 'mxcp' },
        { messageId: 'shape', line: 8, column: 11, parameter: 'must_not_call', messageIncludes: 'must be a tool name' },
        { messageId: 'shape', line: 10, column: 11, parameter: 'answer_contains' },
        { messageId: 'shape', line: 13, column: 16, parameter: 'args' },
        { messageId: 'shape', line: 14, column: 11, parameter: 'must_call', messageIncludes: 'a tool name or `{tool, args}`' },
      ],
      output: 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      must_not_call:\n        - drop_all\n      answer_contains:\n        - "2024"\n      must_call:\n        - tool: a\n          args: {}\n        - 42\n',
    },
    {
      name: 'lists and mappings where the other is due (JSON)',
      filename: 'evals.json',
      code: '{"mxcp": 1, "suite": "s", "tests": [{"name": "t", "prompt": "p", "user_context": "admin", "assertions": {"must_not_call": "drop_all", "must_call": {"tool": "a"}}}]}',
      errors: [
        { messageId: 'shape', parameter: 'user_context', pointer: '/tests/0/user_context' },
        { messageId: 'shape', parameter: 'must_not_call', pointer: '/tests/0/assertions/must_not_call' },
        { messageId: 'shape', parameter: 'must_call', pointer: '/tests/0/assertions/must_call' },
      ],
      output: '{"mxcp": 1, "suite": "s", "tests": [{"name": "t", "prompt": "p", "user_context": "admin", "assertions": {"must_not_call": ["drop_all"], "must_call": {"tool": "a"}}}]}',
    },
    {
      name: 'tests that are not a list',
      filename: 'evals.yml',
      code: 'mxcp: 1\nsuite: s\ntests:\n  t:\n    prompt: p\n',
      errors: [{ messageId: 'shape', line: 4, parameter: 'tests' }],
    },
  ],
});

test('eval findings name the test (or the suite, for suite-level ones)', () => {
  const { diagnostics } = runRule('eval-unknown-field', { filename: 'evals.yml', code: 'mxcp: 1\nsuite: nightly\nprofile: x\ntests:\n  - name: by_id\n    prompt: p\n    expected_tool: a\n' });
  assert.deepEqual(
    diagnostics.map((d) => [d.test, d.parameter, d.tool]),
    [
      ['nightly', 'profile', null],
      ['by_id', 'expected_tool', null],
    ],
  );
});

test('seed 003 mistakes fixture: each field seed 003 names as a mistake is reported', () => {
  const { diagnostics } = runRule('eval-unknown-field', { filename: 'seed003-mistakes.evals.yml', code: read('evals/seed003-mistakes.evals.yml') });
  assert.deepEqual(
    diagnostics.map((d) => `${d.range.start.line} ${d.messageId} ${d.parameter}`),
    ['5 config project', '6 config profile', '7 definition tools', '9 definition resources', '14 expectedTool expected_tool'],
  );
});

test('eval rules see no eval suite in the seed-000 catalogues', () => {
  for (const f of ['before.yaml', 'after.yaml']) {
    assert.deepEqual(runRule('eval-unknown-field', { code: read(join('seed000', f)), filename: f }).diagnostics, []);
  }
});
