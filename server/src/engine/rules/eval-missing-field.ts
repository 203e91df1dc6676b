import { isObject, type JsonObject } from '../model';
import type { Loc } from '../schema';
import type { JsonPath } from '../types';
import { defineRule, type Report } from './api';

interface Required {
  field: string;
  /** What the field is for, in the message. */
  role: string;
  /** Required by seed 003 only (the official schema makes it optional): reported one level lower. */
  seedOnly?: boolean;
}

const SUITE: Required[] = [
  { field: 'mxcp', role: 'the format version, `1`' },
  { field: 'suite', role: 'the name `mxcp evals NAME` runs it by' },
  { field: 'tests', role: 'the list of tests' },
  { field: 'description', role: 'what the suite tests', seedOnly: true },
];

const TEST: Required[] = [
  { field: 'name', role: 'the unique name results are reported under' },
  { field: 'prompt', role: 'the request sent to the model' },
  { field: 'assertions', role: 'what to verify' },
  { field: 'description', role: 'what the test validates', seedOnly: true },
];

const ASSERTIONS = ['must_call', 'must_not_call', 'answer_contains', 'answer_not_contains'];

export default defineRule({
  meta: {
    id: 'eval-missing-field',
    description: 'Require the fields every MXCP eval suite, test and `must_call` entry needs',
    severity: 'error',
    recommended: true,
    fixable: 'never',
    hasSuggestions: false,
    scope: 'eval',
    messages: {
      suite: 'The eval suite has no `{{field}}` ({{role}})',
      test: 'Eval test {{test}} has no `{{field}}` ({{role}})',
      call: 'This `must_call` entry has no `tool` (the tool the model must call)',
      noTests: 'The eval suite has no tests',
      noAssertion: 'Eval test {{test}} asserts nothing, so it always passes',
    },
    docs: {
      what:
        'Reports a missing required field. The suite needs `mxcp`, `suite` and `tests`; each test needs `name`, `prompt` and `assertions`; a `must_call` entry written as a mapping needs `tool` (its `args` may be left out, as seed 003 does; `args: {}` says the same). Seed 003 also marks the suite\'s and each test\'s `description` as required while the official schema makes them optional: a missing `description` is reported one level lower (a warning by default). An empty value counts as missing. The rule also reports a suite whose `tests` list is empty and a test whose `assertions` hold no assertion at all (both a warning by default): such a test passes whatever the model does.',
      why:
        '`mxcp evals` rejects a suite without its required fields, so none of its tests run. A test without `assertions` (or with empty ones) passes whatever the model does: it looks like coverage and checks nothing. Without a `description`, a failing test says nothing about what it was meant to show, and whoever reads the report cannot tell a tool problem from a bad test.',
    },
  },
  checkEval(suite, ctx) {
    const report = (r: Omit<Report, 'file' | 'doc'>): void => ctx.report({ ...r, file: suite.file, doc: suite.doc });
    const root = suite.data;
    const base = suite.path;
    const where: Loc = { path: 'suite' in root ? [...base, 'suite'] : 'mxcp' in root ? [...base, 'mxcp'] : base, target: 'key' };
    for (const r of SUITE) {
      if (present(root[r.field])) continue;
      report({ messageId: 'suite', data: { field: r.field, role: r.role }, loc: r.field in root ? { path: [...base, r.field], target: 'key' } : where, test: suite.name, parameter: r.field, weak: r.seedOnly });
    }
    const tests = root.tests;
    if (!Array.isArray(tests)) return;
    if (tests.length === 0) {
      report({ messageId: 'noTests', loc: { path: [...base, 'tests'], target: 'key' }, test: suite.name, parameter: 'tests', weak: true });
      return;
    }
    tests.forEach((t, i) => {
      if (isObject(t)) checkTest(t, [...base, 'tests', i], i, report);
    });
  },
});

function checkTest(t: JsonObject, tp: JsonPath, index: number, report: (r: Omit<Report, 'file' | 'doc'>) => void): void {
  const name = typeof t.name === 'string' && t.name.trim() !== '' ? t.name : null;
  const label = name !== null ? '`' + name + '`' : `#${index + 1}`;
  const at: Loc = name !== null ? { path: [...tp, 'name'], target: 'value' } : { path: tp, target: 'value' };
  for (const r of TEST) {
    if (present(t[r.field])) continue;
    report({ messageId: 'test', data: { test: label, field: r.field, role: r.role }, loc: r.field in t ? { path: [...tp, r.field], target: 'key' } : at, test: name, parameter: r.field, weak: r.seedOnly });
  }
  const a = t.assertions;
  if (isObject(a)) {
    const any = ASSERTIONS.some((k) => Array.isArray(a[k]) && a[k].length > 0);
    // A field of another name is `eval-unknown-field`'s to report; here only the empty case.
    const onlyKnown = Object.keys(a).every((k) => ASSERTIONS.includes(k));
    if (!any && onlyKnown) report({ messageId: 'noAssertion', data: { test: label }, loc: { path: [...tp, 'assertions'], target: 'key' }, test: name, parameter: 'assertions', weak: true });
    const calls = a.must_call;
    if (Array.isArray(calls)) {
      calls.forEach((c, j) => {
        if (isObject(c) && !present(c.tool)) {
          const p: JsonPath = [...tp, 'assertions', 'must_call', j];
          report({ messageId: 'call', loc: 'tool' in c ? { path: [...p, 'tool'], target: 'key' } : { path: p, target: 'value' }, test: name, parameter: 'tool' });
        }
      });
    }
  }
}

/** Given and not empty (`key:` with no value, or `""`, counts as missing). */
function present(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'string') return v.trim() !== '';
  return true;
}
