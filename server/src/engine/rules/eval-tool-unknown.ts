import { isObject } from '../model';
import type { JsonPath } from '../types';
import { closestName, levenshtein } from '../util/text';
import { singular, splitWords } from '../vocab';
import { defineRule, type Fix } from './api';

interface Options {
  ignore: string[];
}

export default defineRule<Options>({
  meta: {
    id: 'eval-tool-unknown',
    description: 'Disallow eval assertions that name a tool the catalogue does not have',
    severity: 'error',
    recommended: true,
    fixable: 'never',
    hasSuggestions: true,
    scope: 'eval',
    messages: {
      required: '`{{name}}` is not a tool of this catalogue, so this test can never pass{{hint}}',
      forbidden: '`{{name}}` is not a tool of this catalogue, so this `must_not_call` check can never fail{{hint}}',
    },
    options: {
      schema: {
        type: 'object',
        properties: { ignore: { type: 'array', items: { type: 'string' }, uniqueItems: true } },
        additionalProperties: false,
      },
      defaults: { ignore: [] },
    },
    docs: {
      what:
        'Reports a tool named in `assertions.must_call` (a name, or the `tool` of an entry) or `assertions.must_not_call` that no tool file of the run defines, with the closest existing name. All files of one run form one catalogue, so lint the eval files together with the tool files (`mcp-tool-lint tools/ evals/`); when the run holds no tool at all the rule says nothing, since there is nothing to check against. An unknown name in `must_not_call` with no close match is reported one level lower (a warning by default): a suite may forbid a tool the server does not offer on purpose, as a guard; one with a close match is most likely a typo and stays at the rule\'s severity.',
      why:
        'The model is offered only the tools the server defines. A `must_call` of a tool that does not exist (a typo, a renamed tool) fails on every run whatever the model does, and the failure reads like a tool-description problem; a misspelt `must_not_call` passes on every run, so the safety check it stands for does nothing.',
      fix: 'Suggests replacing the name with the closest tool name of the catalogue (small edit distance, or the same words in another order or style, or one more or fewer word).',
      options:
        "- `ignore` (default `[]`): tool names that exist although no linted file defines them, such as tools a server adds itself (MXCP's built-in SQL tools when `sql_tools` is enabled) or tools defined in files outside the run.",
    },
  },
  checkEval(suite, ctx) {
    const catalog = ctx.catalog;
    if (catalog.tools.length === 0) return;
    const ignore = new Set(Array.isArray(ctx.options.ignore) ? ctx.options.ignore : []);
    const names = [...catalog.byName.keys()];
    const known = (n: string): boolean => catalog.byName.has(n) || ignore.has(n);
    const tests = suite.data.tests;
    if (!Array.isArray(tests)) return;
    tests.forEach((t, i) => {
      if (!isObject(t) || !isObject(t.assertions)) return;
      const test = typeof t.name === 'string' ? t.name : null;
      const ap: JsonPath = [...suite.path, 'tests', i, 'assertions'];
      const check = (name: string, path: JsonPath, field: 'must_call' | 'must_not_call'): void => {
        if (name.trim() === '' || known(name)) return;
        const near = closest(name, names);
        const suggestions: Fix[] = near ? [{ title: `Replace with \`${near}\``, ops: [{ op: 'replaceString', path, value: near }] }] : [];
        ctx.report({
          file: suite.file,
          doc: suite.doc,
          messageId: field === 'must_call' ? 'required' : 'forbidden',
          data: { name, hint: near ? ` (did you mean \`${near}\`?)` : '' },
          loc: { path, target: 'value' },
          test,
          parameter: field,
          weak: field === 'must_not_call' && !near,
          suggestions,
        });
      };
      const calls = t.assertions.must_call;
      if (Array.isArray(calls)) {
        calls.forEach((c, j) => {
          if (typeof c === 'string') check(c, [...ap, 'must_call', j], 'must_call');
          else if (isObject(c) && typeof c.tool === 'string') check(c.tool, [...ap, 'must_call', j, 'tool'], 'must_call');
        });
      }
      const banned = t.assertions.must_not_call;
      if (Array.isArray(banned)) banned.forEach((n, j) => typeof n === 'string' && check(n, [...ap, 'must_not_call', j], 'must_not_call'));
    });
  },
});

/**
 * The tool most likely meant: a small edit away (a typo, a different case or separator), or
 * the same words in another style or order, or the same words with one more or fewer. Null
 * when nothing is close or two candidates tie on words.
 */
function closest(name: string, names: string[]): string | null {
  const squash = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const sq = squash(name);
  const same = names.filter((n) => squash(n) === sq);
  if (same.length === 1) return same[0];
  const typo = closestName(name, names);
  if (typo) return typo;
  const words = splitWords(name).map(singular);
  if (words.length === 0) return null;
  const mine = new Set(words);
  let best: string | null = null;
  let bestScore = Infinity;
  let tie = false;
  for (const n of names) {
    const theirs = new Set(splitWords(n).map(singular));
    const shared = [...mine].filter((w) => theirs.has(w)).length;
    const extra = theirs.size - shared;
    const missing = mine.size - shared;
    // Same words, or all of one name's words plus one more; at least two words in common.
    if (shared < 2 || extra + missing > 1) continue;
    const score = (extra + missing) * 100 + levenshtein(name.toLowerCase(), n.toLowerCase());
    if (score < bestScore) [best, bestScore, tie] = [n, score, false];
    else if (score === bestScore) tie = true;
  }
  return tie ? null : best;
}
