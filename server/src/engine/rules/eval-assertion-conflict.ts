import { isObject, type JsonObject } from '../model';
import type { JsonPath } from '../types';
import { defineRule, type Fix } from './api';

export default defineRule({
  meta: {
    id: 'eval-assertion-conflict',
    description: 'Disallow eval assertions that contradict each other',
    severity: 'error',
    recommended: true,
    fixable: 'never',
    hasSuggestions: true,
    scope: 'eval',
    messages: {
      tool: '`{{tool}}` is both required (`must_call`) and forbidden (`must_not_call`), so this test can never pass',
      same: '`{{text}}` is both required (`answer_contains`) and forbidden (`answer_not_contains`), so this test can never pass',
      inside: 'Required text `{{required}}` contains forbidden `{{text}}`, so this test can never pass',
      empty: 'An empty string in `answer_not_contains` is in every answer, so this test can never pass',
    },
    docs: {
      what:
        "Reports assertions of one test that no answer can satisfy together: a tool listed in `must_call` (by name or as an entry's `tool`) and in `must_not_call`; a string in both `answer_contains` and `answer_not_contains`, compared without regard to case as seed 003 recommends for answer matching; a required string that contains a forbidden one (`answer_contains: [\"no errors\"]` with `answer_not_contains: [\"error\"]`: any answer with the first has the second); and an empty string in `answer_not_contains`, which every answer contains. The finding points at the `must_not_call` or `answer_not_contains` entry.",
      why:
        'A test whose assertions contradict each other fails on every run, whatever the model does. It reads as a model or tool-description failure, so the time goes into rewording descriptions that were never the problem, while the intent the author had (usually a forbidden tool or word that was meant for another test, or copied along with a prompt) is not checked at all.',
      fix: 'Suggests removing one side: the `must_not_call` entry or the `must_call` entry; the forbidden string; the empty string.',
    },
  },
  checkEval(suite, ctx) {
    const tests = suite.data.tests;
    if (!Array.isArray(tests)) return;
    tests.forEach((t, i) => {
      if (!isObject(t) || !isObject(t.assertions)) return;
      const test = typeof t.name === 'string' ? t.name : null;
      const ap: JsonPath = [...suite.path, 'tests', i, 'assertions'];
      const base = { file: suite.file, doc: suite.doc, test };
      const a = t.assertions;

      const required = new Map<string, JsonPath>();
      if (Array.isArray(a.must_call)) {
        a.must_call.forEach((c, j) => {
          const name = typeof c === 'string' ? c : isObject(c) && typeof c.tool === 'string' ? c.tool : null;
          if (name !== null && !required.has(name)) required.set(name, [...ap, 'must_call', j]);
        });
      }
      strings(a, 'must_not_call').forEach(([name, j]) => {
        const call = required.get(name);
        if (!call) return;
        const suggestions: Fix[] = [
          { title: `Remove \`${name}\` from \`must_not_call\``, ops: [{ op: 'remove', path: [...ap, 'must_not_call', j] }] },
          { title: `Remove \`${name}\` from \`must_call\``, ops: [{ op: 'remove', path: call }] },
        ];
        ctx.report({ ...base, messageId: 'tool', data: { tool: name }, loc: { path: [...ap, 'must_not_call', j], target: 'value' }, parameter: 'must_not_call', suggestions });
      });

      const wanted = strings(a, 'answer_contains');
      strings(a, 'answer_not_contains').forEach(([text, j]) => {
        const path = [...ap, 'answer_not_contains', j];
        const remove: Fix = { title: text === '' ? 'Remove the empty string' : `Remove \`${text}\` from \`answer_not_contains\``, ops: [{ op: 'remove', path }] };
        const loc = { path, target: 'value' as const };
        if (text === '') {
          ctx.report({ ...base, messageId: 'empty', loc, parameter: 'answer_not_contains', suggestions: [remove] });
          return;
        }
        const low = text.toLowerCase();
        const same = wanted.find(([w]) => w.toLowerCase() === low);
        if (same) {
          ctx.report({ ...base, messageId: 'same', data: { text }, loc, parameter: 'answer_not_contains', suggestions: [remove] });
          return;
        }
        const outer = wanted.find(([w]) => w.toLowerCase().includes(low));
        if (outer) ctx.report({ ...base, messageId: 'inside', data: { required: outer[0], text }, loc, parameter: 'answer_not_contains', suggestions: [remove] });
      });
    });
  },
});

/** The string entries of an assertion list, with their indexes. */
function strings(a: JsonObject, key: string): [string, number][] {
  const v = a[key];
  if (!Array.isArray(v)) return [];
  const out: [string, number][] = [];
  v.forEach((x, i) => {
    if (typeof x === 'string') out.push([x, i]);
    else if (typeof x === 'number') out.push([String(x), i]);
  });
  return out;
}
