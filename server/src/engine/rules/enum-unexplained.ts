import { keywordInSource, keywordLoc, walkSchema, type SchemaVisit } from '../schema';
import type { JsonPath } from '../types';
import { splitWords, QUANTITY_WORDS } from '../vocab';
import { defineRule, type EditOp, type Fix } from './api';
import { paramLoc } from './util';

interface Options {
  maxValues: number;
  opaque: boolean;
}

/** Enum values a description can name: strings and numbers (booleans, null and `""` explain themselves). */
type Value = string | number;

const DEFAULT_MAX_VALUES = 20;

export default defineRule<Options>({
  meta: {
    id: 'enum-unexplained',
    description: 'Require the valid values of an enum, and the meaning of opaque ones, in a description the agent reads',
    severity: 'warning',
    recommended: true,
    fixable: 'never',
    hasSuggestions: true,
    scope: 'tool',
    messages: {
      undescribed: '`{{param}}` accepts only {{values}}, but no description the agent reads lists {{which}}',
      undescribedOpaque: '`{{param}}` accepts only the codes {{values}}, but no description the agent reads lists them or says what they mean',
      opaque: 'The descriptions of `{{param}}` list {{values}} but never say what {{pronoun}}',
    },
    options: {
      schema: {
        type: 'object',
        properties: { maxValues: { type: 'integer', minimum: 2 }, opaque: { type: 'boolean' } },
        additionalProperties: false,
      },
      defaults: { maxValues: DEFAULT_MAX_VALUES, opaque: true },
    },
    docs: {
      what:
        'Reports an `enum` whose values appear in no description the agent reads: the parameter\'s own description, the description of the property that holds it (for an enum inside `anyOf`/`oneOf`/`allOf` or array `items`, the enclosing property), and the tool\'s description. A value counts as listed when it appears there quoted or as a whole word (case-insensitive; a very common word such as `all` or `none` must be quoted or stand next to another value). It also reports opaque values — symbols (`>=`), numeric codes (`0`, `1`), letter-digit codes (`P1`) and operator abbreviations (`gte`) — that are listed but never explained: each must stand next to its meaning (`">=" at least`, `1 = low`, `1 (low)`, `low (1)`, `0-no`). A single-value enum (a constant), booleans and `null` are not checked. When the only value missing from the prose is the parameter\'s `default`, nothing is reported: the agent gets the default by leaving the parameter out.',
      why:
        'Many clients show the agent only tool and parameter names and descriptions, never the schema\'s `enum`. The agent then invents a plausible value (`"binary"` for a score type, `"gte"` for an operator) and loops on validation errors. Even when the values are shown, a symbol or code says nothing about which one fits the task.',
      fix:
        'When values are missing from the descriptions, suggests appending them to the description of the property that holds the enum (creating the description when there is none), e.g. ` One of: "numeric", "categorical".`. Explaining what opaque values mean needs a human: no suggestion is offered for that.',
      options:
        `- \`maxValues\` (default \`${DEFAULT_MAX_VALUES}\`): enums with more values are skipped. Past about twenty values a list in prose stops being read as a choice (country or language codes, product catalogues); such a description should name the kind of value instead (\`ISO 3166 country code\`), and the schema's \`enum\` remains the authority.\n- \`opaque\` (default \`true\`): also report opaque values (symbols, codes) that are listed without their meaning.`,
    },
  },
  checkTool(tool, ctx) {
    const maxValues = typeof ctx.options.maxValues === 'number' ? ctx.options.maxValues : DEFAULT_MAX_VALUES;
    const checkOpaque = ctx.options.opaque !== false;
    // An enum inside anyOf/oneOf/allOf/items belongs to the property that holds it; one finding per property.
    const groups = new Map<object, { holder: SchemaVisit; chain: Set<SchemaVisit>; values: Value[] }>();
    walkSchema(tool, (v) => {
      if (v.via === 'defs') return false;
      if (!Array.isArray(v.schema.enum) || openAlongside(v)) return;
      const holder = holderOf(v);
      if (!holder) return;
      let g = groups.get(holder.schema);
      if (!g) groups.set(holder.schema, (g = { holder, chain: new Set(), values: [] }));
      for (let c: SchemaVisit | null = v; c && c !== holder.parent; c = c.parent) g.chain.add(c);
      for (const x of v.schema.enum) if (explainable(x) && !g.values.includes(x)) g.values.push(x);
    });
    for (const { holder, chain, values } of groups.values()) {
      if (values.length < 2 || values.length > maxValues || isBooleanLike(values)) continue;
      if (holder.schema.deprecated === true) continue;
      const texts = [...chain].map((c) => c.schema.description).filter((d): d is string => typeof d === 'string');
      if (tool.description) texts.push(tool.description);
      const param = holder.param ?? '';
      // A value standing next to its meaning is listed, however short (`1 = low`).
      let missing = values.filter((x) => !listed(x, values, texts) && !explained(x, values, texts));
      // The default needs no listing when every other value is listed: the agent gets it by leaving
      // the parameter out (`Change encoding to base64` for `[text, base64]`, default `text`).
      const dflt = defaultOf(chain);
      const byOmission = missing.length === 1 && values.length > 1 && missing[0] === dflt ? dflt : undefined;
      if (byOmission !== undefined) missing = [];
      const opaqueVals = checkOpaque ? values.filter((x) => x !== byOmission && isOpaque(x, holder.name)) : [];
      const loc = paramLoc(holder);
      if (missing.length > 0) {
        const fix = appendList(holder, values, isItems(holder, chain));
        const allOpaque = opaqueVals.length === values.length && missing.length === values.length;
        ctx.report({
          messageId: allOpaque ? 'undescribedOpaque' : 'undescribed',
          data: {
            param,
            values: label(values),
            which: missing.length === values.length ? 'them' : label(missing),
          },
          tool,
          parameter: holder.param,
          loc,
          suggestions: fix ? [fix] : [],
        });
        continue;
      }
      const unexplained = opaqueVals.filter((x) => !explained(x, values, texts));
      if (unexplained.length === 0) continue;
      ctx.report({
        messageId: 'opaque',
        data: { param, values: label(unexplained), pronoun: unexplained.length === 1 ? 'it means' : 'they mean' },
        tool,
        parameter: holder.param,
        loc,
      });
    }
  },
});

/** The property (or map value) an enum belongs to: up through combinators and array items. */
function holderOf(v: SchemaVisit): SchemaVisit | null {
  let h: SchemaVisit = v;
  while (h.via === 'anyOf' || h.via === 'oneOf' || h.via === 'allOf' || h.via === 'items') {
    if (!h.parent) return null;
    h = h.parent;
  }
  return h.via === 'properties' || h.via === 'additionalProperties' ? h : null;
}

/** The `default` of the property (or of the branch that holds the enum), when it is a value to explain. */
function defaultOf(chain: Set<SchemaVisit>): Value | undefined {
  for (const c of chain) {
    const d = c.schema.default;
    if (explainable(d)) return d;
  }
  return undefined;
}

/**
 * Whether a sibling branch of the enum accepts any value of its kind (`anyOf: [{enum: [a, b]},
 * {type: string}]`): the enum then names common values, not the valid ones.
 */
function openAlongside(v: SchemaVisit): boolean {
  if ((v.via !== 'anyOf' && v.via !== 'oneOf') || !v.parent) return false;
  const list = v.parent.schema[v.via];
  if (!Array.isArray(list)) return false;
  return list.some((b) => {
    if (b === v.schema || typeof b !== 'object' || b === null || Array.isArray(b)) return false;
    const o = b as Record<string, unknown>;
    if (o.type === 'null' || 'enum' in o || 'const' in o || 'pattern' in o || 'format' in o || '$ref' in o) return false;
    if (o.type === undefined) return Object.keys(o).every((k) => k === 'description' || k === 'title' || k === 'default' || k === 'examples');
    return typeof o.type === 'string' && (o.type === v.schema.type || v.schema.type === undefined) && o.type !== 'object' && o.type !== 'array';
  });
}

/** `["true", "false"]`, `["yes", "no"]`: a boolean spelled as strings; the words explain themselves. */
function isBooleanLike(values: Value[]): boolean {
  const set = new Set(values.map((x) => String(x).toLowerCase()));
  return [...set].every((x) => x === 'true' || x === 'false') || [...set].every((x) => x === 'yes' || x === 'no');
}

function isItems(holder: SchemaVisit, chain: Set<SchemaVisit>): boolean {
  return [...chain].some((c) => c !== holder && c.via === 'items');
}

function explainable(x: unknown): x is Value {
  return (typeof x === 'string' && x.trim() !== '') || (typeof x === 'number' && Number.isFinite(x));
}

function quoteValue(x: Value): string {
  return typeof x === 'string' ? JSON.stringify(x) : String(x);
}

function label(values: Value[]): string {
  const shown = values.slice(0, 6).map((x) => '`' + String(x) + '`');
  return shown.join(', ') + (values.length > 6 ? `, … (${values.length} in all)` : '');
}

/** A suggestion that appends `One of: …` to the holder's description (or creates one). */
function appendList(holder: SchemaVisit, values: Value[], items: boolean): Fix | null {
  const list = values.map(quoteValue).join(', ');
  const sentence = `${items ? 'One or more of' : 'One of'}: ${list}.`;
  const d = holder.schema.description;
  let op: EditOp;
  if (typeof d === 'string') {
    const at = keywordLoc(holder.origin, 'description');
    if (!keywordInSource(holder.origin, 'description') || at.path.length === 0) return null;
    const trimmed = d.trimEnd();
    // A block scalar (ends with a line break) gets the sentence on a line of its own.
    const sep = trimmed === '' ? '' : /[.!?:]$/.test(trimmed) || d !== trimmed ? ' ' : '. ';
    op = { op: 'appendText', path: at.path as JsonPath, text: sep + sentence };
  } else if (d === undefined) {
    if (!keywordInSource(holder.origin, 'description')) return null;
    op = { op: 'set', path: [...holder.origin.path, 'description'], value: sentence };
  } else {
    return null;
  }
  return { title: `Append \`${sentence.length > 60 ? sentence.slice(0, 57) + '…' : sentence}\` to the description`, ops: [op] };
}

// ---------------------------------------------------------------------------------------------
// Finding values in prose

const WORD = /[\p{L}\p{N}_]/u;
const LETTER = /\p{L}/u;
const OPERATOR = /[<>=!~^*+\-/%&|]/;
const QUOTES = `"'\`“”‘’`;

/**
 * Words of ordinary prose: seeing one bare in a description says nothing (`all` in "returns all
 * rows"); it counts as listed only quoted or next to another value of the enum.
 */
const COMMON = new Set(['a', 'an', 'the', 'on', 'off', 'in', 'out', 'to', 'of', 'or', 'and', 'is', 'it', 'at', 'by', 'as', 'be', 'no', 'yes', 'not', 'all', 'any', 'none', 'both', 'default', 'auto', 'other', 'custom', 'full', 'new', 'one', 'each', 'some', 'more', 'less', 'up', 'down', 'only', 'set', 'get', 'use', 'can', 'will', 'may', 'for', 'with', 'from', 'this', 'that', 'true', 'false', 'null', 'none', 'name', 'type', 'time', 'date', 'value', 'text', 'id']);

interface Hit {
  start: number;
  end: number;
  quoted: boolean;
}

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && WORD.test(c);
}

function isLetter(c: string | undefined): boolean {
  return c !== undefined && LETTER.test(c);
}

/** Where `value` occurs in `text` as a whole token (case-insensitive). */
export function occurrences(text: string, value: string): Hit[] {
  const out: Hit[] = [];
  if (!value) return out;
  const hay = text.toLowerCase();
  const needle = value.toLowerCase();
  const first = value[0];
  const last = value[value.length - 1];
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) {
    const j = i + needle.length;
    const b = text[i - 1];
    const a = text[j];
    const okBefore = b === undefined || (isWordChar(first) ? !isWordChar(b) && !(b === '-' && isLetter(first) && isLetter(text[i - 2])) : !OPERATOR.test(b));
    const okAfter = a === undefined || (isWordChar(last) ? !isWordChar(a) && !(a === '-' && isLetter(last) && isLetter(text[j + 1])) : !OPERATOR.test(a));
    if (!okBefore || !okAfter) continue;
    const quoted = b !== undefined && a !== undefined && QUOTES.includes(b) && QUOTES.includes(a);
    out.push({ start: i, end: j, quoted });
  }
  return out;
}

/** Text that only separates the items of a list: `, `, ` or `, ` | `, quotes. */
const LIST_GAP = /^[\s,;|/"'`“”‘’]*(?:(?:or|and|and\/or|nor)\b[\s"'`“”‘’]*)?$/i;

/** Whether `x` is listed in one of the texts. */
function listed(x: Value, all: Value[], texts: string[]): boolean {
  const s = String(x);
  const weak = s.length === 1 || COMMON.has(s.toLowerCase());
  for (const t of texts) {
    for (const h of occurrences(t, s)) {
      if (h.quoted || !weak) return true;
      // A code followed by what it stands for (`0-default`, `1 = on`, `2 (slow)`).
      if (/^\s*(?:=>|->|→|=|:|–|—|-|\()\s*["'`]?\p{L}/u.test(t.slice(h.end))) return true;
      // A common word counts as an item of a list with another value ("open, closed or all").
      for (const y of all) {
        if (y === x) continue;
        for (const o of occurrences(t, String(y))) {
          const gap = o.start >= h.end ? t.slice(h.end, o.start) : o.end <= h.start ? t.slice(o.end, h.start) : null;
          if (gap !== null && gap.length <= 12 && LIST_GAP.test(gap)) return true;
        }
      }
    }
  }
  return false;
}

const OPERATOR_CODES = new Set(['eq', 'ne', 'neq', 'gt', 'gte', 'ge', 'lt', 'lte', 'le', 'nin', 'nlike', 'ilike', 'regex', 'exists']);


/** Whether a value says nothing by itself: a symbol, a number standing for something, a short code. */
function isOpaque(x: Value, name: string | null): boolean {
  const s = String(x);
  if (!/[\p{L}\p{N}]/u.test(s)) return true;
  if (typeof x === 'number' || /^-?\d+(\.\d+)?$/.test(s)) {
    const words = name ? splitWords(name) : [];
    return !words.some((w) => QUANTITY_WORDS.has(w));
  }
  if (OPERATOR_CODES.has(s.toLowerCase())) return true;
  // Letter-digit codes (`P1`, `S2`, `L3`), but not durations or sizes (`5m`, `1d`, `4k`) nor versions (`v2`).
  if (/^(?=.*\p{L})(?=.*\p{N})[\p{L}\p{N}]{2,3}$/u.test(s) && /^\p{L}+\p{N}+$/u.test(s) && !/^v\d+$/i.test(s) && !/^(mp|h|md|sha|utf|s|ec)\d+$/i.test(s)) return true;
  return false;
}

/** Words after a value that say something about it other than its meaning. */
const NOT_MEANING = /^(?:(?:is\s+)?(?:the|a|by)\s+)?(?:recommended|optional|required|deprecated|supported|allowed|accepted|valid|e\.g|i\.e|etc|or|and|and\/or|nor|to)\b/i;

/** Whether some occurrence of an opaque value stands next to an explanation of it. */
function explained(x: Value, all: Value[], texts: string[]): boolean {
  const s = String(x);
  const others = all.filter((y) => y !== x).map((y) => String(y).toLowerCase());
  const isOtherValue = (w: string): boolean => others.includes(w.toLowerCase());
  for (const t of texts) {
    for (const h of occurrences(t, s)) {
      let a = h.end;
      if (h.quoted) a++;
      const after = t.slice(a, a + 80);
      let k = 0;
      while (after[k] === ' ' || after[k] === '\t') k++;
      const rest = after.slice(k);
      // `1 = low`, `1: low`, `0-no`, `1 -> low`, `"x" means …`, `P1 for urgent`
      const sep = /^(?:=>|->|→|=|:|–|—|-|\||\bmeans\b|\bstands for\b|\bis\b|\bfor\b)\s*["'`]?/i.exec(rest);
      if (sep) {
        const word = /^[\p{L}][\p{L}\p{N}_'-]*/u.exec(rest.slice(sep[0].length));
        if (word && !isOtherValue(word[0]) && !NOT_MEANING.test(rest.slice(sep[0].length))) return true;
      }
      // `1 (low)`
      const paren = /^\(\s*([\p{L}][^)]*)\)/u.exec(rest);
      if (paren && !NOT_MEANING.test(paren[1]) && !isOtherValue(paren[1].trim())) return true;
      // `">=" at least`, `> greater than`: a quoted value or a symbol followed by words.
      if ((h.quoted || !/[\p{L}\p{N}]/u.test(s)) && k > 0) {
        const word = /^[\p{L}][\p{L}\p{N}_'-]*/u.exec(rest);
        if (word && !isOtherValue(word[0]) && !NOT_MEANING.test(rest)) return true;
      }
      // `greater than (>)`, `low = 1`
      let b = h.start;
      if (h.quoted) b--;
      const before = t.slice(Math.max(0, b - 60), b);
      const close = t.slice(a).trimStart()[0];
      if (/[\p{L}][\p{L}\s-]*\(\s*$/u.test(before) && close === ')') {
        const head = /([\p{L}][\p{L}\s-]*)\(\s*$/u.exec(before)![1].trim().replace(/^(?:or|and|and\/or|nor)\s+/i, '');
        if (!NOT_MEANING.test(head) && !/^(?:e\.?g|values?|options?|one of|either)$/i.test(head)) return true;
      }
      const eq = /([\p{L}][\p{L}\p{N}_-]*)\s*(?:=|→|->)\s*$/u.exec(before);
      if (eq && !isOtherValue(eq[1]) && !/^(?:default|value|values|is)$/i.test(eq[1])) return true;
    }
  }
  return false;
}
