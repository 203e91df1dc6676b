import { buildIndex, queryUnits, rankTools, type QueryUnit } from '../discover';
import { isObject, type Tool } from '../model';
import type { JsonPath } from '../types';
import { backtick } from './util';
import { defineRule } from './api';

interface Options {
  k: number;
}

const MAX_NAMED = 3;
const MAX_WORDS = 4;

export default defineRule<Options>({
  meta: {
    id: 'tool-undiscoverable',
    description: "Require each eval test's expected tools to rank in the top k for its prompt",
    severity: 'warning',
    recommended: true,
    fixable: 'never',
    hasSuggestions: false,
    scope: 'eval',
    messages: {
      outranked: 'Tool `{{tool}}` ranks {{rank}} for this prompt, outside the top {{k}}, behind {{others}}; it never mentions {{words}}',
      unmatched: 'Tool `{{tool}}` matches no word of this prompt but its verbs, unlike {{others}}; it never mentions {{words}}',
      unmatchedAlone: "Tool `{{tool}}` matches none of this prompt's words ({{words}}), and no other tool does either",
    },
    options: {
      schema: { type: 'object', properties: { k: { type: 'integer', minimum: 1 } }, additionalProperties: false },
      defaults: { k: 5 },
    },
    docs: {
      what: "For each test of an MXCP eval suite, ranks the catalogue's tools for the test's `prompt` with the same lexical intent ranker as `mcp-tool-lint search` (weighted name > category > description > parameter names, with stemming and a small synonym map), and reports each tool of `assertions.must_call` that does not rank in the top `k` (default 5), naming the tools that outrank it and the prompt's words it never mentions; or that matches no word of the prompt at all (sharing only a verb of action such as `get` or `create` does not count when the prompt also names a thing). Only a tool that matches a word of the prompt the expected tool lacks counts as outranking it: tools that win on the same words (a shorter description, the word in their name) are a matter of weighting, not of missing words. Tied tools count at their best place. Tests without a prompt, and `must_call` tools the catalogue does not define, are left alone.",
      why: 'An agent facing a large catalogue finds tools by what it wants to do, through a tool search or by scanning names and descriptions for the words of the request. When the tool a test expects is outranked for the very prompt the test uses, its name and description lack the words users use, and the agent picks one of the tools that outrank it (or none): the eval fails, and so does every real request phrased the same way.',
      fix: "Reword the expected tool's description (and, if it is misleading, its name) in the words users use: say what it does for the user (\"Refund a customer…\") before how it does it (\"…by posting a credit note\"); name the things it acts on as users name them. Check with `mcp-tool-lint search \"<the prompt>\"`. If another tool rightly outranks it, the test's `must_call` may be what needs changing.",
      options: '- `k` (default `5`): the expected tool must rank among the first `k` tools for the prompt.',
    },
  },
  checkEval(suite, ctx) {
    const k = typeof ctx.options.k === 'number' && ctx.options.k >= 1 ? Math.floor(ctx.options.k) : 5;
    const tests = suite.data.tests;
    if (!Array.isArray(tests)) return;
    const index = buildIndex(ctx.catalog);
    tests.forEach((test, ti) => {
      if (!isObject(test) || typeof test.prompt !== 'string' || test.prompt.trim() === '') return;
      const prompt = test.prompt;
      const assertions = test.assertions;
      if (!isObject(assertions) || !Array.isArray(assertions.must_call)) return;
      const testName = typeof test.name === 'string' ? test.name : null;
      let ranked: Map<string, Hit> | null = null;
      assertions.must_call.forEach((entry, ci) => {
        const at: JsonPath = [...suite.path, 'tests', ti, 'assertions', 'must_call', ci];
        let name: string | null = null;
        let path: JsonPath = at;
        if (typeof entry === 'string') name = entry;
        else if (isObject(entry) && typeof entry.tool === 'string') {
          name = entry.tool;
          path = [...at, 'tool'];
        }
        if (name === null) return;
        const defined = ctx.catalog.byName.get(name);
        if (!defined || defined.length === 0) return;
        ranked ??= bestByName(rankTools(index, prompt));
        const own = ranked.get(name);
        // Only tools that match a word of the prompt this one lacks outrank it for want of
        // words; a tool that wins on the same words (shorter text, a name match) says nothing
        // about the description's vocabulary.
        const above = [...ranked.entries()].filter(([n, h]) => n !== name && (own === undefined || h.score > own.score) && h.matched.some((t) => !own?.matched.includes(t)));
        const rank = above.length + 1;
        if (own !== undefined && rank <= k) return;
        const others = above.slice(0, MAX_NAMED).map(([n]) => backtick(n)).join(', ') + (above.length > MAX_NAMED ? ` and ${above.length - MAX_NAMED} more` : '');
        const base = { file: suite.file, doc: suite.doc, tool: defined[0], loc: { path, target: 'value' as const }, test: testName, parameter: null };
        const units = queryUnits(prompt);
        if (above.length === 0) {
          ctx.report({ ...base, messageId: 'unmatchedAlone', data: { tool: name, words: wordList(units.filter((u) => !u.action && !u.compound)) } });
          return;
        }
        const lacking = new Set(above.flatMap(([, h]) => h.matched).filter((t) => !own?.matched.includes(t)));
        const words = wordList(units.filter((u) => lacking.has(u.term)));
        if (own !== undefined) ctx.report({ ...base, messageId: 'outranked', data: { tool: name, rank, k, others, words } });
        else ctx.report({ ...base, messageId: 'unmatched', data: { tool: name, others, words } });
      });
    });
  },
});

interface Hit {
  score: number;
  matched: string[];
}

/** Names in rank order, each with its best score and the prompt terms that entry matched. */
function bestByName(ranked: { tool: Tool; score: number; matched: string[] }[]): Map<string, Hit> {
  const out = new Map<string, Hit>();
  for (const r of ranked) if (r.tool.name !== null && !out.has(r.tool.name)) out.set(r.tool.name, { score: r.score, matched: r.matched });
  return out;
}

/** The prompt's words as written, backticked (`a`, `b` or `c`): single words; joined pairs only when no single word is left. */
function wordList(units: QueryUnit[]): string {
  const single = units.filter((u) => !u.compound);
  const list = (single.length > 0 ? single : units).map((u) => backtick(u.word));
  if (list.length > MAX_WORDS) return `${list.slice(0, MAX_WORDS).join(', ')}, …`;
  return list.length > 1 ? `${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}` : (list[0] ?? '');
}

