import { isObject, type Catalog, type Tool } from '../model';
import { keywordLoc, walkSchema } from '../schema';
import type { JsonPath } from '../types';
import { neighbourhood } from '../servers';
import { escapeRegExp, levenshtein } from '../util/text';
import { singular, splitWords, verbAction } from '../vocab';
import { defineRule, perView, type EditOp, type Fix } from './api';

type Style = 'snake' | 'kebab' | 'camel' | 'pascal' | 'upper' | 'app';

const STYLE_RE: Record<Style, RegExp> = {
  app: /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*__[A-Z0-9]+(?:_[A-Z0-9]+)*$/,
  upper: /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/,
  snake: /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/,
  kebab: /^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/,
  camel: /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+$/,
  pascal: /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+$/,
};
const STYLES = Object.keys(STYLE_RE) as Style[];

/** Candidate tokens in prose, per style (checked against the style's exact shape afterwards). */
const TOKEN_RE: Record<Style, RegExp> = {
  app: /[A-Z][A-Z0-9_]*__[A-Z0-9_]*[A-Z0-9]/g,
  upper: /[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+/g,
  snake: /[a-z][a-z0-9]*(?:_[a-z0-9]+)+/g,
  kebab: /[a-z][a-z0-9]*(?:-[a-z0-9]+)+/g,
  camel: /[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+/g,
  pascal: /[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+/g,
};

/** The same, as whole tokens (matchAll works on a copy, so one pattern per style serves every text). */
const BOUNDED_TOKEN_RE = Object.fromEntries(
  STYLES.map((style) => [style, new RegExp(`(?<![A-Za-z0-9_-])(?:${TOKEN_RE[style].source})(?![A-Za-z0-9_])`, 'g')]),
) as Record<Style, RegExp>;

/** Action words tool names start (or end) with, beyond the record verbs of the vocabulary. */
const ACTION_WORDS = new Set([
  'run', 'execute', 'exec', 'invoke', 'call', 'trigger', 'start', 'launch', 'stop', 'restart', 'pause', 'resume', 'send', 'reply', 'forward', 'post', 'fetch',
  'validate', 'verify', 'analyze', 'analyse', 'summarize', 'summarise', 'generate', 'compare', 'convert', 'translate', 'render',
  'preview', 'deploy', 'build', 'install', 'uninstall', 'upgrade', 'rollback', 'revert', 'approve', 'poll', 'wait', 'watch', 'monitor', 'track',
  'sync', 'refresh', 'reset', 'login', 'logout', 'authenticate', 'authorize', 'connect', 'disconnect', 'navigate', 'click', 'type', 'scroll',
  'select', 'upload', 'download', 'explore', 'improve', 'evaluate', 'calculate', 'compute', 'parse', 'extract', 'crawl',
  'scrape', 'screenshot', 'submit', 'complete', 'finish', 'finalize', 'apply', 'switch', 'add', 'remove',
]);

/** Vocabulary "verbs" that are mostly nouns in names (`status_code`, `info_url`). */
const NOUNISH = new Set(['status', 'info', 'details', 'detail', 'new', 'count', 'label', 'tag', 'data']);

/** Words right before or after a token that make it a field, option or value, not a tool. */
const NOT_TOOL_NEIGHBOURS = new Set([
  'field', 'fields', 'parameter', 'parameters', 'param', 'params', 'argument', 'arguments', 'arg', 'args', 'property', 'properties', 'column',
  'columns', 'attribute', 'attributes', 'key', 'keys', 'flag', 'flags', 'option', 'options', 'variable', 'variables', 'setting', 'settings',
  'header', 'headers', 'scope', 'scopes', 'permission', 'permissions', 'role', 'roles', 'value', 'values', 'enum', 'env', 'environment',
  'placeholder', 'placeholders', 'template', 'variable', 'label', 'labels', 'tag', 'tags', 'event', 'events', 'status', 'state', 'type', 'types',
  'mode', 'format', 'table', 'tables', 'index', 'package', 'module', 'library', 'file', 'files', 'folder', 'directory', 'command', 'script',
  'function', 'method', 'class', 'query', 'queries', 'metric', 'metrics', 'entity', 'entities', 'object', 'objects', 'model', 'models',
  'permission', 'grant', 'operation', 'action', 'step', 'strategy', 'level', 'category', 'categories', 'topic', 'section', 'page', 'view',
]);

interface Hood {
  names: string[];
  style: Style;
  /** Leading word shared by most names (`github_…`, `ASANA__…`), or null. */
  prefix: string | null;
  /** Where the action word sits in the names. */
  verbAt: 'first' | 'last' | 'any';
  /** First words that start two or more names. */
  leads: Set<string>;
  /** Non-action words of the names, singular. */
  vocab: Set<string>;
  /** Names by their non-action words (singular), for suggestions. */
  byWord: Map<string, string[]>;
  closest: Map<string, string | null>;
}

interface Options {
  minTools: number;
}

export default defineRule<Options>({
  meta: {
    id: 'tool-reference-unknown',
    description: 'Disallow descriptions that name a tool the catalogue does not have',
    severity: 'warning',
    recommended: true,
    fixable: 'never',
    hasSuggestions: true,
    scope: 'catalog',
    messages: {
      unknown: '`{{name}}` is not a tool of this catalogue{{hint}}',
    },
    options: {
      schema: { type: 'object', properties: { minTools: { type: 'integer', minimum: 2 } }, additionalProperties: false },
      defaults: { minTools: 3 },
    },
    docs: {
      what:
        'Reports a word in a tool or parameter description that is shaped like the catalogue\'s own tool names but is not one of them: `send_shipment` in a catalogue of snake_case names that start with a verb, where only `dispatch_shipment` exists. The rule learns the naming shape of each server (snake_case, kebab-case, camelCase, PascalCase, UPPER_CASE or `APP__ACTION`; a verb first or last; a shared prefix) and only considers words of that shape whose action word sits where the names have theirs and whose other words come from the names\' vocabulary. Words that are known elsewhere are never reported: tool names in any style and runs of whole words inside them (`FooBar` of `FooBarSearch`), parameter and property names, enum values, defaults, titles and `$defs` names anywhere in the run; nor is code such as URLs, paths, file names, `key=value` pairs, options and template placeholders, a word introduced as a field, option or value, or one of a list of quoted values or of identifiers that are not tools. A word the text itself calls a tool ("the `x` tool", "call `x`") only needs the names\' style and vocabulary. Names are learnt per server: the same server entry of a multi-server dump, otherwise the tools of one folder; a tool of any server of the run still counts as known.',
      why: 'An agent that is told to call a tool that does not exist either fails with "Unknown tool", or guesses which real tool was meant. Renamed tools leave such references behind, and the agent has no way to tell that the description is stale.',
      fix: 'Suggests replacing the word with the closest existing tool name (most shared words, then the same action, then the smallest edit distance).',
      options:
        '- `minTools` (default `3`): a server needs at least this many tools for its naming shape to be learnt; smaller ones are not checked.',
    },
  },
  contribution: (tool) => contribution(tool),
  checkCatalog(catalog, ctx) {
    const minTools = typeof ctx.options.minTools === 'number' ? ctx.options.minTools : 3;
    const { known, hoods } = perView(ctx, knownWords, () => {
      const known = knownWords(catalog);
      const hoods = new Map<string, Hood | null>();
      const members = new Map<string, string[]>();
      for (const t of catalog.tools) {
        const { name, hood: k } = contribution(t);
        if (name === null) continue;
        const list = members.get(k);
        if (list) list.push(name);
        else members.set(k, [name]);
      }
      for (const [k, names] of members) hoods.set(k, learn([...new Set(names)], minTools));
      return { known, hoods };
    });
    for (const tool of catalog.tools) {
      if (ctx.only && !ctx.only.has(tool)) continue;
      const hood = hoods.get(neighbourhood(tool));
      if (!hood) continue;
      const texts: { text: string; path: JsonPath; param: string | null }[] = [];
      if (tool.description && tool.descriptionPath) texts.push({ text: tool.description, path: tool.descriptionPath, param: null });
      walkSchema(tool, (v) => {
        if (v.via === 'defs') return false;
        const d = v.schema.description;
        if (typeof d === 'string' && (v.via === 'properties' || v.via === 'root' || v.via === 'items')) texts.push({ text: d, path: keywordLoc(v.origin, 'description', 'value').path, param: v.param });
      });
      for (const { text, path, param } of texts) {
        const seen = new Set<string>();
        for (const token of references(text, hood, known)) {
          if (seen.has(token)) continue;
          seen.add(token);
          let best = hood.closest.get(token);
          if (best === undefined) hood.closest.set(token, (best = closest(token, hood)));
          const suggestions: Fix[] = [];
          if (best) {
            const ops = replaceOps(tool, path, text, token, best);
            if (ops) suggestions.push({ title: `Change it to \`${best}\``, ops });
          }
          ctx.report({
            messageId: 'unknown',
            data: { name: token, hint: best ? ` (did you mean \`${best}\`?)` : '' },
            tool,
            parameter: param,
            loc: { path, target: 'value' },
            suggestions,
          });
        }
      }
    }
  },
});

function isAction(w: string): boolean {
  return (verbAction(w) !== 'other' && !NOUNISH.has(w)) || ACTION_WORDS.has(w);
}

/** The last words, where an action sits in entity-first names (`flag-create`, `flag-get-all`). */
function nearEnd(words: string[]): string[] {
  return words.slice(Math.max(1, words.length - 2));
}

function styleOf(name: string): Style | null {
  for (const s of STYLES) if (STYLE_RE[s].test(name)) return s;
  return null;
}

/** The naming shape of a server's tools, or null when it has no clear one. */
function learn(names: string[], minTools: number): Hood | null {
  if (names.length < minTools) return null;
  const counts = new Map<Style, number>();
  for (const n of names) {
    const s = styleOf(n);
    if (s) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  let style: Style | null = null;
  let best = 0;
  for (const [s, c] of counts) if (c > best) [style, best] = [s, c];
  if (!style || best < minTools || best / names.length < 0.6) return null;
  const shaped = names.filter((n) => STYLE_RE[style!].test(n));
  const words = shaped.map((n) => splitWords(n));
  const firsts = new Map<string, number>();
  for (const w of words) firsts.set(w[0], (firsts.get(w[0]) ?? 0) + 1);
  let prefix: string | null = null;
  for (const [w, c] of firsts) if (c / shaped.length >= 0.6 && !isAction(w)) prefix = w;
  const body = (w: string[]): string[] => (prefix && w[0] === prefix ? w.slice(1) : w);
  let first = 0;
  let last = 0;
  for (const w of words) {
    const b = body(w);
    if (b.length === 0) continue;
    if (isAction(b[0])) first++;
    if (b.length > 1 && nearEnd(b).some(isAction)) last++;
  }
  const verbAt = first / shaped.length >= 0.5 ? 'first' : last / shaped.length >= 0.5 ? 'last' : 'any';
  const leads = new Set<string>();
  const bodyFirsts = new Map<string, number>();
  for (const w of words) {
    const b = body(w);
    if (b.length) bodyFirsts.set(b[0], (bodyFirsts.get(b[0]) ?? 0) + 1);
  }
  for (const [w, c] of bodyFirsts) if (c >= 2) leads.add(w);
  const vocab = new Set<string>();
  for (const w of words) for (const x of body(w)) if (!isAction(x)) vocab.add(singular(x));
  const byWord = new Map<string, string[]>();
  for (const n of names) {
    for (const x of new Set(splitWords(n).filter((w) => !isAction(w)).map(singular))) {
      const list = byWord.get(x);
      if (list) list.push(n);
      else byWord.set(x, [n]);
    }
  }
  return { names, style, prefix, verbAt, leads, vocab, byWord, closest: new Map() };
}

/** Every name the catalogue knows that is not a tool: parameters, properties, enum values, definitions. */
interface Known {
  exact: Set<string>;
  /** Tool names without case and separators. */
  tools: Set<string>;
  /** Runs of whole words inside tool names, as written (`FooBar` of `FooBarSearch`). */
  parts: Set<string>;
}

/** What a tool adds to the catalogue's view: its name, its server, and the non-tool words of its schema. */
interface Contribution {
  name: string | null;
  hood: string;
  words: string[];
}

const contributions = new WeakMap<Tool, Contribution>();

/** Tools do not change once loaded, so a tool's contribution is computed once. */
function contribution(t: Tool): Contribution {
  let c = contributions.get(t);
  if (c) return c;
  const words: string[] = [];
  walkSchema(t, (v) => {
    if (v.name) words.push(v.name);
    const s = v.schema;
    if (Array.isArray(s.enum)) for (const e of s.enum) if (typeof e === 'string') words.push(e);
    if (typeof s.const === 'string') words.push(s.const);
    if (typeof s.default === 'string') words.push(s.default);
    if (typeof s.title === 'string') words.push(s.title);
    for (const k of ['$defs', 'definitions'] as const) if (isObject(s[k])) for (const n of Object.keys(s[k] as object)) words.push(n);
    if (Array.isArray(s.required)) for (const r of s.required) if (typeof r === 'string') words.push(r);
  });
  c = { name: t.name, hood: neighbourhood(t), words };
  contributions.set(t, c);
  return c;
}

/** Built from the tools' contributions only. */
function knownWords(catalog: Catalog): Known {
  const exact = new Set<string>();
  const tools = new Set<string>();
  for (const t of catalog.tools) {
    const c = contribution(t);
    if (c.name) {
      exact.add(c.name);
      tools.add(norm(c.name));
    }
    for (const w of c.words) exact.add(w);
  }
  const parts = new Set<string>();
  for (const n of new Set(catalog.tools.map((t) => contribution(t).name).filter((x): x is string => x !== null))) {
    // Word spans: `get_x_detail` → `x_detail`, `FooBarSearch` → `FooBar`.
    const spans = [...n.matchAll(/[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])/g)].map((m) => [m.index, m.index + m[0].length]);
    if (spans.length > 12) continue;
    for (let i = 0; i < spans.length; i++) for (let j = i + 1; j < spans.length; j++) if (i > 0 || j < spans.length - 1) parts.add(n.slice(spans[i][0], spans[j][1]));
  }
  return { exact, tools, parts };
}

/** A comma- or bar-separated run of identifiers that are not tools: values or fields (`count, a_count, b_rate`). */
function identifierList(text: string, start: number, end: number, known: Known): boolean {
  const prev = /([A-Za-z][\w-]*)[`'"]?\s*[,|]\s*[`'"]?$/.exec(text.slice(Math.max(0, start - 60), start))?.[1];
  const next = /^[`'"]?\s*[,|]\s*[`'"]?([A-Za-z][\w-]*)/.exec(text.slice(end, end + 60))?.[1];
  const other = (w: string | undefined): boolean => !!w && /[_-]|[a-z][A-Z]/.test(w) && !known.tools.has(norm(w));
  return other(prev) || other(next);
}

function norm(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Tokens of `text` that look like tool names of the server but name none. */
function references(text: string, hood: Hood, known: Known): string[] {
  const out: string[] = [];
  const urls = [...text.matchAll(/\b(?:https?|ftp|file|wss?):\/\/\S+|\bwww\.\S+/gi)].map((m) => [m.index, m.index + m[0].length]);
  for (const m of text.matchAll(BOUNDED_TOKEN_RE[hood.style])) {
    const token = m[0];
    const start = m.index;
    const end = start + token.length;
    if (!STYLE_RE[hood.style].test(token)) continue;
    if (known.exact.has(token) || known.tools.has(norm(token)) || known.parts.has(token)) continue;
    if (urls.some(([a, b]) => start >= a && end <= b)) continue;
    const named = namedAsTool(text, start, end);
    if (!(named ? speaksVocab(token, hood) : shapedLikeTool(token, hood))) continue;
    if (codeContext(text, start, end)) continue;
    if (!named && (fieldContext(text, start, end) || valueList(text, start, end) || identifierList(text, start, end, known))) continue;
    out.push(token);
  }
  return out;
}

function shapedLikeTool(token: string, hood: Hood): boolean {
  let words = splitWords(token);
  if (hood.prefix) {
    if (words[0] !== hood.prefix) return false;
    words = words.slice(1);
  }
  if (words.length < 2) return false;
  const first = words[0];
  const verbFirst = isAction(first) || hood.leads.has(first);
  const verbLast = nearEnd(words).some(isAction);
  if (hood.verbAt === 'first' ? !verbFirst : hood.verbAt === 'last' ? !verbLast : !(verbFirst || verbLast)) return false;
  const rest = words.filter((w) => !isAction(w) || hood.vocab.has(singular(w)));
  if (rest.length === 0) return false;
  // Most of the other words come from the names' vocabulary: the token speaks the catalogue's language.
  const shared = rest.filter((w) => hood.vocab.has(singular(w))).length;
  return shared >= 1 && shared * 2 >= rest.length;
}

/** "the X tool", "call X", "invoke X": the text itself says the word is a tool. */
function namedAsTool(text: string, start: number, end: number): boolean {
  const next = /^[`'"]?\s+(\w+)/.exec(text.slice(end, end + 20))?.[1]?.toLowerCase();
  const prev = /(\w+)\s+[`'"]?$/.exec(text.slice(Math.max(0, start - 20), start))?.[1]?.toLowerCase();
  return next === 'tool' || next === 'tools' || prev === 'call' || prev === 'calling' || prev === 'invoke' || prev === 'invoking' || prev === 'tool';
}

/** Some words of the token come from the names' vocabulary. */
function speaksVocab(token: string, hood: Hood): boolean {
  let words = splitWords(token);
  if (hood.prefix && words[0] === hood.prefix) words = words.slice(1);
  return words.length >= 2 && words.some((w) => !isAction(w) && hood.vocab.has(singular(w)));
}

/** A quoted word in a list of quoted alternatives: `("list", "get_a", "get_b")` lists values. */
function valueList(text: string, start: number, end: number): boolean {
  const q = text[start - 1];
  if (q !== '"' && q !== "'" && q !== '`') return false;
  if (text[end] !== q) return false;
  const after = text.slice(end + 1, end + 12);
  const before = text.slice(Math.max(0, start - 12), start - 1);
  const sep = String.raw`\s*(?:,|\bor\b|\band\b|\||/)\s*`;
  return new RegExp(`^${sep}["'\`]`).test(after) || new RegExp(`["'\`]${sep}$`).test(before);
}

/** Paths, file names, `key=value`, options, placeholders, member access, JSON keys. */
function codeContext(text: string, start: number, end: number): boolean {
  const before = text[start - 1] ?? '';
  const before2 = text.slice(Math.max(0, start - 2), start);
  const after = text[end] ?? '';
  const after2 = text.slice(end, end + 2);
  if (/[\w$@#%&\\/.:<>[-]/.test(before) || before2 === '--') return true;
  if (/[\w\\/=[<>-]/.test(after) || /^\.\w/.test(after2) || /^:\w/.test(after2)) return true;
  if (before === '{' || after === '}') return true;
  // `"key": value` in inline JSON.
  if (/["']/.test(before) && /^["']\s*:/.test(text.slice(end, end + 3))) return true;
  return false;
}

/** The same neighbours in scripts without spaces (Chinese, Japanese): parameter, field, property, function, method, variable, option, value. */
const CJK_NEIGHBOURS = /^[`'"」』)）\s]*(?:参数|參數|字段|欄位|属性|屬性|函数|函數|方法|变量|變數|选项|選項|值|パラメータ|フィールド|プロパティ|関数|メソッド|変数|オプション)/;

function fieldContext(text: string, start: number, end: number): boolean {
  if (CJK_NEIGHBOURS.test(text.slice(end, end + 12))) return true;
  const prev = /([A-Za-z]+)[\s`'"(]*$/.exec(text.slice(Math.max(0, start - 30), start))?.[1]?.toLowerCase();
  const next = /^[\s`'")]*([A-Za-z]+)/.exec(text.slice(end, end + 30))?.[1]?.toLowerCase();
  if (prev && NOT_TOOL_NEIGHBOURS.has(prev)) return true;
  if (next && NOT_TOOL_NEIGHBOURS.has(next)) return true;
  // "set X to …", "X = …", "X is true".
  if (prev === 'set' && next === 'to') return true;
  if (/^[`'"]?\s*(?:=|is\s+(?:true|false|set|enabled|disabled|null))/.test(text.slice(end, end + 20))) return true;
  return false;
}

const RUN_WORDS = new Set(['run', 'execute', 'exec', 'invoke', 'call', 'trigger', 'start', 'launch']);

/** Synonymous actions compare equal: `run` ~ `execute`, `get` ~ `fetch`, `add` ~ `create`. */
function actionClass(w: string): string {
  if (RUN_WORDS.has(w)) return 'run';
  const a = verbAction(w);
  // Reading one and listing many hand out the same records.
  return a === 'other' ? w : a === 'list' ? 'read' : a;
}

/** The existing name sharing the most words, then the action, then the smallest edit distance. */
function closest(token: string, hood: Hood): string | null {
  const tw = splitWords(token).map(singular);
  const tset = new Set(tw.filter((w) => !isAction(w)));
  const names = new Set<string>();
  for (const w of tset) for (const n of hood.byWord.get(w) ?? []) names.add(n);
  const tAct = new Set(tw.filter(isAction).map(actionClass));
  let best: string | null = null;
  let bestScore = -Infinity;
  for (const n of names) {
    const nw = splitWords(n).map(singular);
    const shared = nw.filter((w) => !isAction(w) && tset.has(w)).length;
    if (shared === 0) continue;
    const extra = nw.filter((w) => !isAction(w) && !tset.has(w)).length;
    const sameAct = nw.some((w) => isAction(w) && tAct.has(actionClass(w))) ? 1 : 0;
    // One shared word and another action (`copy_x` → `delete_x`) is no match.
    if (shared === 1 && tAct.size > 0 && !sameAct && nw.some(isAction)) continue;
    const score = shared * 4 - extra * 2 + sameAct - levenshtein(token.toLowerCase(), n.toLowerCase()) / 100;
    if (score > bestScore) [best, bestScore] = [n, score];
  }
  return best;
}

/**
 * Replace each occurrence of the token in the description's source text. Raw edits keep block
 * scalars and quoting as written; when the source does not hold the token verbatim (escapes), the
 * whole string is rewritten instead.
 */
function replaceOps(tool: Tool, path: JsonPath, text: string, token: string, name: string): EditOp[] | null {
  const wordRe = new RegExp(`(?<![A-Za-z0-9_-])${escapeRegExp(token)}(?![A-Za-z0-9_-])`, 'g');
  const inValue = [...text.matchAll(wordRe)].length;
  const replaced = text.replace(wordRe, name);
  const node = tool.file.find(tool.doc, path);
  if (node && node.type === 'string') {
    const src = tool.file.text.slice(node.offset, node.offset + node.length);
    const hits = [...src.matchAll(wordRe)];
    if (hits.length === inValue && inValue > 0) return hits.map((h) => ({ op: 'text', start: node.offset + h.index, end: node.offset + h.index + token.length, text: name }));
  }
  return [{ op: 'replaceString', path, value: replaced }];
}
