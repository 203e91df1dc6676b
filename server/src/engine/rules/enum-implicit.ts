import { isObject, type Origin, type Schema, type Tool } from '../model';
import { childOrigin, keywordInSource, schemaTypes, walkSchema } from '../schema';
import { mentions, splitWords, QUANTITY_WORDS } from '../vocab';
import { defineRule, type Fix } from './api';
import { StringMemo } from '../util/memo';
import { paramLoc } from './util';

interface Options {
  codeWords: string[];
  listedValues: boolean;
}

/**
 * Name words of parameters whose integers stand for a level on a closed scale or a category
 * (`priority: 2`), not for an amount.
 */
const CODE_WORDS = new Set([
  'priority', 'severity', 'level', 'tier', 'rank', 'grade', 'rating', 'stage', 'urgency', 'importance', 'criticality', 'impact', 'risk',
  'type', 'kind', 'mode', 'status', 'state', 'category', 'class', 'classification', 'role', 'visibility', 'permission', 'sentiment', 'difficulty', 'phase',
]);

/** Words whose parameter is an identifier or a count of something, whatever else its name says. */
const NOT_CODE_LAST = new Set(['id', 'ids', 'uuid', 'key', 'idx', 'code']);

const BOUND_KEYWORDS = ['enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'];

export default defineRule<Options>({
  meta: {
    id: 'enum-implicit',
    description: 'Require an `enum` or bounds when a parameter only accepts a closed set of values',
    severity: 'warning',
    recommended: true,
    fixable: 'never',
    hasSuggestions: true,
    scope: 'tool',
    messages: {
      listed: 'The description of `{{param}}` lists its valid values ({{values}}), but the schema has no `enum`',
      code: '`{{param}}` is an integer code with no `enum`, bounds or stated range; the agent has to guess which numbers are valid',
    },
    options: {
      schema: {
        type: 'object',
        properties: {
          codeWords: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
          listedValues: { type: 'boolean' },
        },
        additionalProperties: false,
      },
      defaults: { codeWords: [], listedValues: true },
    },
    docs: {
      what:
        'Reports a parameter whose valid values form a closed set that the schema does not state. Two cases: an integer code — a parameter named like a level or category (`priority`, `severity`, `level`, `tier`, `rank`, `grade`, `rating`, `stage`, `type`, `mode`, …, but not an amount such as `limit`, `page`, `count`, `hours`) typed `integer` with no `enum`, no `minimum`/`maximum` and no range stated in its description (`1-5`, `1 to 5`, `between 1 and 5`, `1 (low) … 5 (high)`, `0 = off, 1 = on`); and a description that lists the allowed values (`one of a, b, c`, `valid values: …`, `either "x" or "y"`, `must be "a", "b" or "c"`, `(low, medium, high)`) while the schema has no `enum`. Examples (`e.g. a, b`), negations (`not "High" or "Low"`) and open lists (`a, b, etc.`) are not lists of valid values. Formats whose parameters carry no schema keywords (REST parameter maps) are left alone.',
      why:
        'An agent fills an integer code from what it would say in words: `"High"`, `"medium"`, `""`. Each is rejected, and with no range to go by the agent retries blindly or drops the field. A list in prose helps a reader but not the schema: clients that constrain or validate arguments, and the server\'s own validation messages, cannot use it, and the prose drifts from the code.',
      fix:
        'For listed values, suggests adding the `enum` with those values, typed like the schema (numbers for an integer parameter). An integer code gets no suggestion: only the author knows its range; add `minimum`/`maximum` (or an `enum`) and say in the description what the numbers mean.',
      options:
        '- `codeWords` (default `[]`): more name words that mark an integer parameter as a code (added to the built-in list).\n- `listedValues` (default `true`): also report descriptions that list the valid values of a parameter without an `enum`.',
    },
  },
  checkTool(tool, ctx) {
    if (tool.schemaStyle === 'param-map' || tool.schemaStyle === 'none') return;
    const extra = new Set((Array.isArray(ctx.options.codeWords) ? ctx.options.codeWords : []).map((w) => String(w).toLowerCase()));
    const checkListed = ctx.options.listedValues !== false;
    // Prose lists parameter and tool names too ("use either a or b, not both"): never values.
    // The catalogue's names are looked up in place: copying them per tool is quadratic in tools.
    const byName = ctx.catalog.byName;
    const paramNames = new Set<string>();
    walkSchema(tool, (v) => {
      if (v.name) paramNames.add(v.name);
    });
    const exclude = { has: (w: string): boolean => byName.has(w) || paramNames.has(w) };
    walkSchema(tool, (v) => {
      if (v.via === 'defs') return false;
      if (v.via !== 'properties' || !v.name) return;
      const s = v.schema;
      if ('$ref' in s || s.deprecated === true) return;
      const found = scalarBranches(tool, s, v.origin);
      if (!found) return;
      const { branches, items } = found;
      if (branches.some((b) => hasAny(b.schema, BOUND_KEYWORDS)) || hasAny(s, BOUND_KEYWORDS)) return;
      const types = new Set(branches.flatMap((b) => schemaTypes(b.schema).filter((t) => t !== 'null')));
      if (types.size !== 1) return;
      const type = [...types][0];
      if (type !== 'string' && type !== 'integer' && type !== 'number') return;
      const target = branches.find((b) => schemaTypes(b.schema).includes(type))!;
      const own = [s.description, ...branches.map((b) => (b.schema !== s ? b.schema.description : undefined))].filter((d): d is string => typeof d === 'string');

      if (checkListed && !hasAny(s, ['pattern', 'format']) && !branches.some((b) => hasAny(b.schema, ['pattern', 'format']))) {
        for (const d of own) {
          const list = listedValues(d, exclude);
          if (!list) continue;
          const values = typed(list, type);
          if (!values) continue;
          const suggestions: Fix[] = [];
          if (keywordInSource(target.origin, 'enum')) {
            suggestions.push({ title: `Add \`enum: ${shortJson(values)}\``, ops: [{ op: 'set', path: [...target.origin.path, 'enum'], value: values }] });
          }
          ctx.report({ messageId: 'listed', data: { param: v.param ?? v.name, values: values.slice(0, 6).map((x) => '`' + String(x) + '`').join(', ') + (values.length > 6 ? ', …' : '') }, tool, parameter: v.param, loc: paramLoc(v), suggestions });
          return;
        }
      }

      if (type !== 'integer' || items) return;
      const words = splitWords(v.name);
      if (words.length === 0 || NOT_CODE_LAST.has(words[words.length - 1])) return;
      if (words.some((w) => QUANTITY_WORDS.has(w))) return;
      if (!words.some((w) => CODE_WORDS.has(w) || extra.has(w))) return;
      const texts = [...own];
      if (tool.description) texts.push(...sentencesAbout(tool.description, v.name));
      if (texts.some(statesRange)) return;
      ctx.report({ messageId: 'code', data: { param: v.param ?? v.name }, tool, parameter: v.param, loc: paramLoc(v) });
    });
  },
});

interface Branch {
  schema: Schema;
  origin: Origin;
}


function isScalarSchema(s: Schema): boolean {
  return !('properties' in s) && !('items' in s) && !('anyOf' in s) && !('oneOf' in s) && !('allOf' in s) && !('$ref' in s);
}

/**
 * The scalar alternatives of a property: itself, the non-null branches of its `anyOf`/`oneOf`
 * (`integer | null`), or the items of its array (then `items` is true). Null when it is anything
 * more involved.
 */
function scalarBranches(tool: Tool, s: Schema, origin: Origin, depth = 0): { branches: Branch[]; items: boolean } | null {
  if (isScalarSchema(s) && schemaTypes(s).length > 0) return { branches: [{ schema: s, origin }], items: false };
  if (depth === 0 && schemaTypes(s).includes('array') && isObject(s.items) && !hasAny(s, ['anyOf', 'oneOf'])) {
    const inner = scalarBranches(tool, s.items, childOrigin(tool, s.items, origin, ['items']), 1);
    return inner && !inner.items ? { branches: inner.branches, items: true } : null;
  }
  for (const comb of ['anyOf', 'oneOf'] as const) {
    const list = s[comb];
    if (!Array.isArray(list) || 'type' in s || 'allOf' in s) continue;
    const out: Branch[] = [];
    let items = false;
    for (let i = 0; i < list.length; i++) {
      const b = list[i];
      if (!isObject(b)) return null;
      const t = schemaTypes(b);
      if (t.length === 1 && t[0] === 'null') continue;
      const inner = scalarBranches(tool, b, childOrigin(tool, b, origin, [comb, i]), depth + 1);
      if (!inner) return null;
      items ||= inner.items;
      out.push(...inner.branches);
    }
    return out.length > 0 ? { branches: out, items } : null;
  }
  return null;
}

function hasAny(s: Schema, keys: string[]): boolean {
  return keys.some((k) => k in s);
}

function shortJson(values: (string | number)[]): string {
  const j = JSON.stringify(values).replace(/,/g, ', ');
  return j.length > 50 ? j.slice(0, 47) + '…]' : j;
}

function typed(list: string[], type: string): (string | number)[] | null {
  if (type === 'string') return list;
  const nums = list.map((x) => (/^-?\d+(\.\d+)?$/.test(x) ? Number(x) : NaN));
  if (nums.some((n) => Number.isNaN(n))) return null;
  if (type === 'integer' && nums.some((n) => !Number.isInteger(n))) return null;
  return nums;
}

function sentencesAbout(text: string, name: string): string[] {
  return text.split(/(?<=[.!?;])\s+|\n+/).filter((s) => mentions(s, name));
}

// ---------------------------------------------------------------------------------------------
// Ranges stated in prose

const NUM = String.raw`-?\d+(?:\.\d+)?`;
const RANGE_PATTERNS = [
  new RegExp(String.raw`(?:^|[^\w.-])${NUM}\s*(?:-|–|—|\.\.\.?|…|to|through|thru)\s*${NUM}(?![\w.-]*\d{2}-)`, 'i'),
  new RegExp(String.raw`\bbetween\s+${NUM}\s+and\s+${NUM}`, 'i'),
  new RegExp(String.raw`\bfrom\s+${NUM}\b[^.;]{0,60}?\bto\s+${NUM}`, 'i'),
  new RegExp(String.raw`(?:\bup\s+to|\bat\s+most|\bat\s+least|\bno\s+more\s+than|\bno\s+less\s+than|\bmaximum(?:\s+(?:of|is))?|\bminimum(?:\s+(?:of|is))?|\bmax\.?|\bmin\.?|\bhighest(?:\s+is)?|\blowest(?:\s+is)?|<=?|>=?|≤|≥)\s*:?\s*${NUM}`, 'i'),
];
/** `0 = off, 1 = on`, `0-no, 1-yes`, `1 (low) … 5 (high)`: numbers with their meanings. */
const CODE_MEANING = new RegExp(String.raw`(?:^|[^\w.])${NUM}\s*(?:=|:|->|→|=>|–|—|-|\()\s*["'\x60]?\p{L}`, 'gu');

export function statesRange(text: string): boolean {
  if (RANGE_PATTERNS.some((re) => re.test(text))) return true;
  return (text.match(CODE_MEANING) ?? []).length >= 2;
}

// ---------------------------------------------------------------------------------------------
// Lists of valid values in prose

/** Words that cannot be a listed value: the list has ended, or it was prose all along. */
const PROSE = new Set([
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'which', 'who', 'whose', 'where', 'when', 'if', 'then', 'than', 'but', 'so', 'as', 'is', 'are', 'was', 'be', 'been', 'being', 'it', 'its', 'their', 'your', 'my', 'our', 'his', 'her',
  'of', 'to', 'in', 'on', 'at', 'by', 'for', 'with', 'from', 'into', 'about', 'per', 'via', 'and', 'or', 'nor', 'not', 'etc', 'more', 'others', 'other', 'another', 'such', 'same', 'similar', 'following', 'above', 'below',
  'must', 'should', 'can', 'may', 'will', 'would', 'could', 'use', 'used', 'using', 'set', 'see', 'e.g', 'eg', 'i.e', 'ie', 'example', 'examples', 'default', 'defaults', 'value', 'values', 'any', 'some', 'each', 'every', 'also',
]);
/** Type names: "(string or number)" describes a type, not values. */
const TYPE_NAMES = new Set(['string', 'strings', 'number', 'numbers', 'integer', 'integers', 'int', 'float', 'boolean', 'bool', 'object', 'objects', 'array', 'arrays', 'list', 'null']);
const BOOLEANS = new Set(['true', 'false', 'yes', 'no']);

/** Words in the sentence of a list that make it examples, not the valid values. */
const EXAMPLES = /\be\.?\s?g\b|\bfor\s+(?:example|instance)\b|\bsuch\s+as\b|\bexamples?\b|\bi\.e\b|\betc\b|\.\.\.|…/i;
/** Text just before a list that makes it a negation, a comparison or a format rather than the valid values. */
const NOT_VALID_BEFORE = /(?:\blike\b|\bincluding\b|\bnot\b|\bnever\b|\bno\b|n't\b|\binstead\s+of\b|\brather\s+than\b|\bexcept\b|\bother\s+than\b|\bunlike\b|\bavoid\b|\bdeprecated\b|\bsimilar\s+to\b|\bin\s+the\s+(?:format|form)\b|\bformatted\s+as\b|\bof\s+the\s+form\b|\bsyntax\b|\bpattern\b)[^.;:]{0,25}$/i;
/** A list that goes on after its last value is open (`a, b, or a date range`, `a, b, etc.`). */
const OPEN_AFTER = /^\s*(?:,\s*)?(?:etc\b|\.\.\.|…|and\b|or\b|plus\b|among\s+others)/i;
/** A parameter that takes several values in one string cannot have an `enum`. */
const MANY_IN_ONE = /\b(?:comma|space|semicolon|pipe)[\s-]*(?:separated|delimited)\b|\b(?:list|array|set)\s+of\b|\bmultiple\b|\bone\s+or\s+more\b/i;
/** Items that describe a shape (`YYYY-MM-DD`, `hh:mm`, `{id}`), not a literal value. */
const PLACEHOLDER = /YYYY|\bhh\b|\bmm\b|[{}<>*]|\.\.|\bX{2,}\b/;

type Strength = 'strong' | 'either' | 'paren' | 'quoted' | 'must';

const TRIGGERS: { re: RegExp; strength: Strength }[] = [
  { re: /\b(?:one|any)\s+of\s*(?:the\s+following(?:\s+\w+)?\s*)?[:-]?\s*/gi, strength: 'strong' },
  { re: /\b(?:valid|allowed|accepted|acceptable|possible|permitted|permissible|supported|available|legal|known)\s+(?:values?|options?|choices?|types?|modes?|formats?|inputs?|states?|statuses|levels?|kinds?|settings?|strings?)\s*(?:are|is|include|includes|:|=)?\s*:?\s*(?:the\s+following\s*:?\s*)?/gi, strength: 'strong' },
  { re: /(?:^|[.;]\s*|\n\s*)(?:options?|values?|choices?|enum)\s*(?::|=|\bare\b\s*:?)\s*/gi, strength: 'strong' },
  { re: /\b(?:must|should|can|may|has\s+to|have\s+to|needs?\s+to)\s+be\s+(?:set\s+to\s+)?(?:either\s+)?/gi, strength: 'must' },
  { re: /\beither\s+/gi, strength: 'either' },
  { re: /\(\s*/g, strength: 'paren' },
  { re: /(?=["'`“‘][^"'`“”‘’\n]{1,40}["'`”’]\s*(?:,|\bor\b|\|))/g, strength: 'quoted' },
];

interface Item {
  text: string;
  quoted: boolean;
}

const QUOTED_ITEM = /^(["'`“‘])([^"'`“”‘’\n]{1,40})(["'`”’])/;
const BARE_ITEM = /^[\p{L}\p{N}][\p{L}\p{N}_.:+-]*/u;
const SEPARATOR = /^(?:\s*,\s*(?:(?:or|and)\s+)?|\s+or\s+|\s+and\s+|\s*\|\s*|\s*\/\s*)/i;

function parseList(text: string, from: number): { items: Item[]; end: number; seps: string[] } | null {
  const items: Item[] = [];
  const seps: string[] = [];
  let p = from;
  for (;;) {
    const rest = text.slice(p);
    const q = QUOTED_ITEM.exec(rest);
    let item: Item | null = null;
    let len = 0;
    if (q && q[2].trim() === q[2]) {
      item = { text: q[2], quoted: true };
      len = q[0].length;
    } else {
      const b = BARE_ITEM.exec(rest);
      if (b) {
        const word = b[0].replace(/[.:]+$/, '');
        if (word && !PROSE.has(word.toLowerCase())) {
          item = { text: word, quoted: false };
          len = word.length;
        }
      }
    }
    if (!item) break;
    items.push(item);
    p += len;
    // An explanation in brackets after a value: `low (rarely used), high`.
    const expl = /^\s*\([^()\n]{1,80}\)/.exec(text.slice(p));
    if (expl && items.length > 0 && text[from - 1] !== '(') p += expl[0].length;
    const sep = SEPARATOR.exec(text.slice(p));
    if (!sep) break;
    // A separator not followed by another value ends the list before it.
    const next = text.slice(p + sep[0].length);
    const nq = QUOTED_ITEM.exec(next);
    const nb = BARE_ITEM.exec(next);
    const nbWord = nb ? nb[0].replace(/[.:]+$/, '') : '';
    if (!(nq && nq[2].trim() === nq[2]) && !(nbWord && !PROSE.has(nbWord.toLowerCase()))) break;
    // `a,b,c` with no spaces is the syntax of one value holding several (`include=a,b`).
    if (sep[0] === ',') return null;
    seps.push(sep[0].trim().toLowerCase());
    p += sep[0].length;
  }
  if (items.length < 2) return null;
  return { items, end: p, seps };
}

/** Whether a bare token looks like a literal value rather than a word of prose. */
function valueLike(t: string): boolean {
  return /[_\d]/.test(t) || /^[A-Z][A-Z0-9_-]+$/.test(t) || /[a-z][A-Z]/.test(t) || /^[a-z]+-[a-z]+/.test(t);
}

/**
 * Whether the code point just before `i` is a letter, digit or `_`: what `/[\p{L}\p{N}_]$/u`
 * says of `text.slice(0, i)`, without scanning the slice.
 */
function wordCharBefore(text: string, i: number): boolean {
  if (i <= 0) return false;
  const last = text.charCodeAt(i - 1);
  const pair = last >= 0xdc00 && last <= 0xdfff && i >= 2 && text.charCodeAt(i - 2) >= 0xd800 && text.charCodeAt(i - 2) <= 0xdbff;
  return /^[\p{L}\p{N}_]$/u.test(text.slice(pair ? i - 2 : i - 1, i));
}

/** Where the sentences of `text` end: each break's offset and the offset just past it. */
function sentenceBreaks(text: string): [number, number][] {
  // Full stops of abbreviations (`e.g.`, `i.e.`, `etc.`, `vs.`) do not end a sentence.
  const re = /(?<!\b(?:e\.g|i\.e|etc|vs|approx|incl|[A-Za-z]))[.!?;](?=\s)|\n\s*\n/g;
  const out: [number, number][] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) out.push([m.index, m.index + m[0].length]);
  return out;
}

/** The sentence around `at`, given the text's sentence breaks: its start and end offsets. */
function sentenceAt(breaks: [number, number][], length: number, at: number): { start: number; end: number } {
  let start = 0;
  for (const [index, past] of breaks) {
    if (index >= at) return { start, end: index };
    start = past;
  }
  return { start, end: length };
}

/**
 * The values a description lists as the valid ones, or null. Precision first: a list must be
 * introduced as the valid values (or be quoted, or be a bracketed set of short tokens), be
 * closed (no `etc.`, nothing after its last value), hold at least two short tokens, and not be
 * examples, a negation or a format. `exclude` holds words that cannot be values here (names of
 * parameters and tools, which prose mentions in lists too).
 */
export function listedValues(text: string, exclude: { has(word: string): boolean } = new Set<string>()): string[] | null {
  // The lists a text holds depend on the text alone (catalogues repeat parameter descriptions);
  // which one counts depends on the names to leave out: the first not made only of them.
  // A copy: the cached lists are shared by every parameter with this description.
  for (const values of listsCache.get(text)) if (!values.every((v) => exclude.has(v))) return values.slice();
  return null;
}

const listsCache = new StringMemo<readonly string[][]>((text) => valueLists(text), 20_000);

/** Every list of values the text states, in the order `listedValues` considers them. */
function valueLists(text: string): string[][] {
  const found: string[][] = [];
  if (MANY_IN_ONE.test(text)) return found;
  // Found once per text (lazily), not once per trigger match.
  let breaks: [number, number][] | null = null;
  for (const { re, strength } of TRIGGERS) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) {
      if (m[0].length === 0) re.lastIndex++;
      const start = m.index + m[0].length;
      const sentence = sentenceAt((breaks ??= sentenceBreaks(text)), text.length, m.index);
      const prefix = text.slice(sentence.start, strength === 'quoted' ? m.index : start);
      if (NOT_VALID_BEFORE.test(prefix)) continue;
      if (EXAMPLES.test(text.slice(sentence.start, sentence.end))) continue;
      // A bracket right after a word is a call or a unit (`Account(Name, Phone)`), not a set.
      if (strength === 'paren' && wordCharBefore(text, m.index)) continue;
      // Bare quoted values must be what the sentence is about: at its start, or after `:`/`is`/`to`.
      if (strength === 'quoted' && !/(?:^|[:=—–-]|\b(?:is|are|to|accepts?|takes?)|\bbe)\s*$/i.test(prefix.trim() === '' ? '' : prefix)) continue;
      const list = parseList(text, start);
      if (!list) continue;
      const { items, end, seps } = list;
      let after = text.slice(end);
      if (strength === 'paren') {
        if (!/^\s*\)/.test(after)) continue;
        after = after.replace(/^\s*\)/, '');
      } else if (!/^\s*(?:$|[.;:,)\n(]|—|–|-\s)/.test(after)) {
        continue;
      }
      if (OPEN_AFTER.test(after.replace(/^\s*\([^()]*\)/, ''))) continue;
      const values = items.map((i) => i.text);
      const lower = values.map((v) => v.toLowerCase());
      if (new Set(lower).size !== lower.length) continue;
      if (lower.every((v) => BOOLEANS.has(v)) || lower.some((v) => TYPE_NAMES.has(v))) continue;
      if (values.some((v) => PLACEHOLDER.test(v))) continue;
      const allQuoted = items.every((i) => i.quoted);
      const bareValueLike = items.every((i) => i.quoted || valueLike(i.text));
      const closedBy = seps.length > 0 && /^(?:or|\||,\s*or)$/.test(seps[seps.length - 1]);
      let ok: boolean;
      switch (strength) {
        case 'strong':
          ok = seps.every((s) => s !== '/');
          break;
        case 'must':
        case 'either':
          ok = (allQuoted || bareValueLike) && closedBy;
          break;
        case 'paren':
          ok = (allQuoted || bareValueLike || items.length >= 3 || seps.every((s) => s === '|')) && seps.every((s) => s !== 'and' && s !== '/');
          break;
        case 'quoted':
          ok = allQuoted && closedBy;
          break;
      }
      if (!ok) continue;
      if (items.some((i) => !i.quoted && i.text.length > 30)) continue;
      found.push(values);
    }
  }
  return found;
}
