import { isObject, type EvalSuite, type JsonObject } from '../model';
import type { JsonPath } from '../types';
import { closestName } from '../util/text';
import { defineRule, type EditOp, type Fix, type Report } from './api';

/** The fields seed 003 allows at each level of an eval suite (the official schema agrees). */
type Level = 'suite' | 'test' | 'assertions' | 'call';

const FIELDS: Record<Level, readonly string[]> = {
  suite: ['mxcp', 'suite', 'description', 'model', 'tests'],
  test: ['name', 'description', 'prompt', 'user_context', 'assertions'],
  assertions: ['must_call', 'must_not_call', 'answer_contains', 'answer_not_contains'],
  call: ['tool', 'args'],
};

const WHERE: Record<Level, string> = {
  suite: 'an eval suite',
  test: 'an eval test',
  assertions: '`assertions`',
  call: 'a `must_call` entry',
};

/** Where a field that is misplaced belongs, for the message. */
const HOME: Record<Level, string> = {
  suite: 'the top level of the suite',
  test: 'each test',
  assertions: "each test's `assertions`",
  call: 'a `must_call` entry',
};

/** Fields seed 003 names as common mistakes, each with where its intent really goes. */
const CONFIG_FIELDS: Record<string, string> = {
  project: 'projects are configured in `config.yml`, not in eval files',
  profile: 'the profile is chosen with `mxcp evals --profile`, not in eval files',
};
const DEFINITION_FIELDS: Record<string, string> = {
  tools: 'evals test the tools the project already defines; they do not define new ones',
  resources: 'evals test tools only',
};
const EXPECTED_TOOL = new Set(['expected_tool', 'expected_tools']);

/** Names other eval formats use for an allowed field (offered as "did you mean"). */
const ALIASES: Record<Level, Record<string, string>> = {
  suite: { name: 'suite', title: 'suite', suite_name: 'suite', version: 'mxcp', cases: 'tests' },
  test: { id: 'name', title: 'name', question: 'prompt', input: 'prompt', query: 'prompt', context: 'user_context', expect: 'assertions', expected: 'assertions', asserts: 'assertions' },
  assertions: { contains: 'answer_contains', not_contains: 'answer_not_contains', must_contain: 'answer_contains', must_not_contain: 'answer_not_contains', should_call: 'must_call', should_not_call: 'must_not_call' },
  call: { name: 'tool', arguments: 'args', params: 'args', parameters: 'args', input: 'args' },
};

export default defineRule({
  meta: {
    id: 'eval-unknown-field',
    description: 'Disallow fields an MXCP eval suite does not have, and values of the wrong kind',
    severity: 'error',
    recommended: true,
    fixable: 'sometimes',
    hasSuggestions: true,
    scope: 'eval',
    messages: {
      unknown: '`{{field}}` is not a field of {{where}}{{hint}}',
      misplaced: '`{{field}}` belongs to {{home}}, not to {{where}}',
      expectedTool: '`{{field}}` is not an eval field: the tool a test expects goes in `assertions.must_call`',
      config: '`{{field}}` does not belong in an eval suite: {{why}}',
      definition: '`{{field}}` does not belong in an eval suite: {{why}}',
      shape: '`{{field}}` must be {{expected}}, not {{actual}}',
    },
    docs: {
      what:
        'Reports fields that the MXCP eval format (seed 003 and the official `eval-schema-1.json`) does not have, at every level: the suite (`mxcp`, `suite`, `description`, `model`, `tests`), each test (`name`, `description`, `prompt`, `user_context`, `assertions`), `assertions` (`must_call`, `must_not_call`, `answer_contains`, `answer_not_contains`) and each `must_call` entry (`tool`, `args`, or the tool name alone). The mistakes seed 003 names get a targeted message: `expected_tool` (the call belongs in `assertions.must_call`), `project` and `profile` (set in `config.yml` and with `--profile`), `tools` and `resources` (evals test existing tools; they define none). A field that belongs at another level (`prompt` on the suite, `must_call` directly on a test) says where it goes; a misspelt field gets the closest allowed name. It also reports values of the wrong kind: `mxcp` other than `1`, a `tests` or assertion list that is not a list, a `must_not_call` entry written as `{tool: …}`, an unquoted number in `answer_contains`, `args` that is not a mapping. `user_context` and `args` are open mappings and are not checked here (`eval-args-invalid` checks `args`).',
      why:
        'The official eval schema closes every level (`additionalProperties: false`), so `mxcp evals` rejects the whole suite for one stray field; a runner that does not validate silently ignores it instead, and the test then checks less than its author believes: an `expected_tool` asserts nothing, a misspelt `must_not_cal` lets the agent call the forbidden tool and still pass.',
      fix:
        '`--fix` moves `expected_tool: X` into `assertions.must_call` as `{tool: X, args: {}}` (creating `assertions` when absent; `args: {}` checks only that the tool is called), removes `project` and `profile`, rewrites a `must_not_call` entry `{tool: X}` as `X`, quotes a number in an answer list and turns an empty `args:` into `args: {}`. Suggestions rename a misspelt field to the closest allowed one, move an assertion written directly on a test into its `assertions`, and remove `tools` or `resources`.',
    },
  },
  checkEval(suite, ctx) {
    const report = (r: Omit<Report, 'file' | 'doc'>): void => ctx.report({ ...r, file: suite.file, doc: suite.doc });
    checkSuite(suite, report);
  },
});

type Sink = (r: Omit<Report, 'file' | 'doc'>) => void;

function checkSuite(suite: EvalSuite, report: Sink): void {
  const root = suite.data;
  const base = suite.path;
  const suiteName = suite.name;
  checkFields('suite', root, base, suiteName, report, null);
  if ('mxcp' in root && root.mxcp !== 1) {
    const fix: Fix | null = String(root.mxcp).trim() === '1' ? { title: 'Write `mxcp: 1`', ops: [{ op: 'set', path: [...base, 'mxcp'], value: 1 }] } : null;
    report({ messageId: 'shape', data: { field: 'mxcp', expected: '`1`', actual: describe(root.mxcp) }, loc: { path: [...base, 'mxcp'], target: 'value' }, test: suiteName, parameter: 'mxcp', fix });
  }
  for (const k of ['suite', 'description', 'model'] as const) if (k in root) expectString(root[k], [...base, k], k, suiteName, report);
  if (!('tests' in root)) return;
  const tests = root.tests;
  if (!Array.isArray(tests)) {
    report({ messageId: 'shape', data: { field: 'tests', expected: 'a list of tests', actual: describe(tests) }, loc: { path: [...base, 'tests'], target: 'value' }, test: suiteName, parameter: 'tests' });
    return;
  }
  tests.forEach((t, i) => {
    const tp: JsonPath = [...base, 'tests', i];
    if (!isObject(t)) {
      report({ messageId: 'shape', data: { field: 'tests[]', expected: 'a mapping with `name`, `prompt` and `assertions`', actual: describe(t) }, loc: { path: tp, target: 'value' }, test: suiteName, parameter: 'tests' });
      return;
    }
    checkTest(t, tp, report);
  });
}

function checkTest(t: JsonObject, tp: JsonPath, report: Sink): void {
  const name = typeof t.name === 'string' ? t.name : null;
  checkFields('test', t, tp, name, report, t);
  for (const k of ['name', 'description', 'prompt'] as const) if (k in t) expectString(t[k], [...tp, k], k, name, report);
  if ('user_context' in t && !isObject(t.user_context) && t.user_context !== null) {
    report({ messageId: 'shape', data: { field: 'user_context', expected: 'a mapping (`role`, `permissions`, …)', actual: describe(t.user_context) }, loc: { path: [...tp, 'user_context'], target: 'value' }, test: name, parameter: 'user_context' });
  }
  if (!('assertions' in t)) return;
  const a = t.assertions;
  const ap: JsonPath = [...tp, 'assertions'];
  if (!isObject(a)) {
    if (a !== null) report({ messageId: 'shape', data: { field: 'assertions', expected: 'a mapping of assertions', actual: describe(a) }, loc: { path: ap, target: 'value' }, test: name, parameter: 'assertions' });
    return;
  }
  checkFields('assertions', a, ap, name, report, t);
  for (const k of ['must_call', 'must_not_call', 'answer_contains', 'answer_not_contains'] as const) {
    if (!(k in a) || a[k] === null) continue;
    const list = a[k];
    const lp: JsonPath = [...ap, k];
    if (!Array.isArray(list)) {
      const fix: Fix | null = typeof list === 'string' ? { title: `Make \`${k}\` a list`, ops: [{ op: 'set', path: lp, value: [list] }] } : null;
      report({ messageId: 'shape', data: { field: k, expected: k === 'must_call' ? 'a list of tool calls' : 'a list of strings', actual: describe(list) }, loc: { path: lp, target: 'value' }, test: name, parameter: k, fix });
      continue;
    }
    list.forEach((item, j) => {
      const ip: JsonPath = [...lp, j];
      if (k === 'must_call') return checkCall(item, ip, name, report);
      if (typeof item === 'string') return;
      let fix: Fix | null = null;
      if (k === 'must_not_call' && isObject(item) && typeof item.tool === 'string' && Object.keys(item).every((x) => x === 'tool' || (x === 'args' && isEmpty(item.args)))) {
        fix = { title: `Write the tool name \`${item.tool}\` alone`, ops: [{ op: 'set', path: ip, value: item.tool }] };
      } else if (k !== 'must_not_call' && (typeof item === 'number' || typeof item === 'boolean')) {
        fix = { title: `Quote \`${String(item)}\``, ops: [{ op: 'set', path: ip, value: String(item) }] };
      }
      report({ messageId: 'shape', data: { field: `${k}[]`, expected: k === 'must_not_call' ? 'a tool name' : 'a string', actual: describe(item) }, loc: { path: ip, target: 'value' }, test: name, parameter: k, fix });
    });
  }
}

function checkCall(item: unknown, ip: JsonPath, test: string | null, report: Sink): void {
  if (typeof item === 'string') return;
  if (!isObject(item)) {
    report({ messageId: 'shape', data: { field: 'must_call[]', expected: 'a tool name or `{tool, args}`', actual: describe(item) }, loc: { path: ip, target: 'value' }, test, parameter: 'must_call' });
    return;
  }
  checkFields('call', item, ip, test, report, null);
  if ('tool' in item) expectString(item.tool, [...ip, 'tool'], 'tool', test, report);
  if ('args' in item && !isObject(item.args)) {
    const fix: Fix | null = item.args === null ? { title: 'Write `args: {}`', ops: [{ op: 'set', path: [...ip, 'args'], value: {} }] } : null;
    report({ messageId: 'shape', data: { field: 'args', expected: 'a mapping of argument names to values', actual: describe(item.args) }, loc: { path: [...ip, 'args'], target: 'value' }, test, parameter: 'args', fix });
  }
}

/** Reports every key of `obj` that `level` does not allow. `test` is the test object (for moves). */
function checkFields(level: Level, obj: JsonObject, path: JsonPath, test: string | null, report: Sink, testObj: JsonObject | null): void {
  const allowed = FIELDS[level];
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key)) continue;
    const loc = { path: [...path, key], target: 'key' as const };
    const base = { loc, test, parameter: key };
    if (EXPECTED_TOOL.has(key) && (level === 'test' || level === 'assertions')) {
      const t = level === 'test' ? obj : testObj;
      const fix = t ? moveExpectedTool(t, level === 'test' ? path : path.slice(0, -1), loc.path, obj[key]) : null;
      report({ ...base, messageId: 'expectedTool', data: { field: key }, fix });
      continue;
    }
    if (key in CONFIG_FIELDS && (level === 'suite' || level === 'test')) {
      report({ ...base, messageId: 'config', data: { field: key, why: CONFIG_FIELDS[key] }, fix: { title: `Remove \`${key}\``, ops: [{ op: 'remove', path: loc.path }] } });
      continue;
    }
    if (key in DEFINITION_FIELDS && level === 'suite') {
      report({ ...base, messageId: 'definition', data: { field: key, why: DEFINITION_FIELDS[key] }, suggestions: [{ title: `Remove \`${key}\``, ops: [{ op: 'remove', path: loc.path }] }] });
      continue;
    }
    const alias = ALIASES[level][key];
    const home = alias ? undefined : (Object.keys(FIELDS) as Level[]).find((l) => l !== level && FIELDS[l].includes(key));
    if (home && key !== 'description') {
      const suggestions: Fix[] = [];
      if (level === 'test' && home === 'assertions') {
        const move = moveIntoAssertions(obj, path, key);
        if (move) suggestions.push(move);
      }
      report({ ...base, messageId: 'misplaced', data: { field: key, home: HOME[home], where: WHERE[level] }, suggestions });
      continue;
    }
    const free = allowed.filter((k) => !(k in obj));
    const near = alias && free.includes(alias) ? alias : closestName(key, free, Math.max(1, Math.min(3, Math.floor(key.length / 3))));
    report({
      ...base,
      messageId: 'unknown',
      data: { field: key, where: WHERE[level], hint: near ? ` (did you mean \`${near}\`?)` : `; it allows ${allowed.map((k) => '`' + k + '`').join(', ')}` },
      suggestions: near ? [{ title: `Rename to \`${near}\``, ops: [{ op: 'renameKey', path: loc.path, key: near }] }] : [],
    });
  }
}

/**
 * `expected_tool: X` → `{tool: X, args: {}}` in `assertions.must_call` (seed 003 states the
 * mapping). Only for values whose meaning is plain: a tool name, a list of names, or one
 * `{tool|name, args}` mapping. Names already required are not added twice.
 */
function moveExpectedTool(test: JsonObject, testPath: JsonPath, keyPath: JsonPath, value: unknown): Fix | null {
  const calls: JsonObject[] = [];
  const one = (v: unknown): boolean => {
    if (typeof v === 'string' && v.trim() !== '') {
      calls.push({ tool: v, args: {} });
      return true;
    }
    if (isObject(v)) {
      const tool = typeof v.tool === 'string' ? v.tool : typeof v.name === 'string' ? v.name : null;
      const rest = Object.keys(v).filter((k) => k !== 'tool' && k !== 'name' && k !== 'args');
      if (!tool || rest.length > 0 || ('args' in v && !isObject(v.args) && v.args !== null)) return false;
      calls.push({ tool, args: isObject(v.args) ? v.args : {} });
      return true;
    }
    return false;
  };
  if (!(Array.isArray(value) ? value.length > 0 && value.every(one) : one(value))) return null;
  const title = calls.length === 1 ? `Move \`${String(calls[0].tool)}\` to \`assertions.must_call\`` : 'Move the tools to `assertions.must_call`';
  const ap: JsonPath = [...testPath, 'assertions'];
  const a = test.assertions;
  if (a === undefined || a === null) return { title, ops: [{ op: 'remove', path: keyPath }, { op: 'set', path: ap, value: { must_call: calls } }] };
  if (!isObject(a)) return null;
  const existing = a.must_call;
  if (existing !== undefined && existing !== null && !Array.isArray(existing)) return null;
  const have = new Set((Array.isArray(existing) ? existing : []).map((e) => (typeof e === 'string' ? e : isObject(e) && typeof e.tool === 'string' ? e.tool : null)));
  const fresh = calls.filter((c) => !have.has(c.tool as string));
  if (keyPath.length === ap.length + 1 && (existing === undefined || existing === null) && !('must_call' in a)) {
    // Inside `assertions` already: the key itself becomes `must_call`.
    return { title, ops: [{ op: 'set', path: keyPath, value: fresh }, { op: 'renameKey', path: keyPath, key: 'must_call' }] };
  }
  const ops: EditOp[] = [{ op: 'remove', path: keyPath }];
  if (existing === undefined || existing === null) {
    if (fresh.length > 0) ops.push({ op: 'set', path: [...ap, 'must_call'], value: fresh });
  } else {
    for (const c of fresh) ops.push({ op: 'addItem', path: [...ap, 'must_call'], value: c });
  }
  return { title, ops };
}

/** `must_call: […]` written on the test itself → under its `assertions`. */
function moveIntoAssertions(test: JsonObject, testPath: JsonPath, key: string): Fix | null {
  const a = test.assertions;
  const value = test[key];
  const ops: EditOp[] = [{ op: 'remove', path: [...testPath, key] }];
  if (a === undefined || a === null) ops.push({ op: 'set', path: [...testPath, 'assertions'], value: { [key]: value } });
  else if (isObject(a) && !(key in a)) ops.push({ op: 'set', path: [...testPath, 'assertions', key], value });
  else return null;
  return { title: `Move \`${key}\` under \`assertions\``, ops };
}

/** A string field; an empty one is left to `eval-missing-field`. */
function expectString(v: unknown, path: JsonPath, field: string, test: string | null, report: Sink): void {
  if (typeof v === 'string' || v === null) return;
  const fix: Fix | null = typeof v === 'number' && field !== 'tool' ? { title: `Quote \`${String(v)}\``, ops: [{ op: 'set', path, value: String(v) }] } : null;
  report({ messageId: 'shape', data: { field, expected: 'a string', actual: describe(v) }, loc: { path, target: 'value' }, test, parameter: field, fix });
}

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || (isObject(v) && Object.keys(v).length === 0);
}

function describe(v: unknown): string {
  if (v === null) return 'empty';
  if (Array.isArray(v)) return 'a list';
  if (isObject(v)) return 'a mapping';
  if (typeof v === 'string') return `the string \`${v.length > 40 ? v.slice(0, 37) + '…' : v}\``;
  return `\`${String(v)}\``;
}
