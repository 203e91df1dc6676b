/**
 * The texts a model reads from a tool (names, descriptions, titles, enum values…), each with its
 * source location; exact spans inside them (through JSON escapes and YAML quoting, folding and
 * block scalars); and the characters and look-alike letters that hide text from a reader.
 * Shared by the poisoning rules.
 */
import { isObject, type SourceFile, type Tool } from './model';
import { findNode, type SNode } from './parse/tree';
import { LazyJsonDoc } from './parse/json';
import { keywordInSource, keywordLoc, type Loc, type SchemaVisit, walkSchema } from './schema';
import type { JsonPath } from './types';
import type { EditOp } from './rules/api';
// ---------------------------------------------------------------------------------------------
// The text a model reads, and where each piece of it is written. Shared with the other rules of
// the poisoning family (description-injection, tool-shadowing), which quote spans of the same texts.

export type TextKind = 'toolName' | 'description' | 'title' | 'paramName' | 'paramDescription' | 'paramTitle' | 'enum' | 'value';

export interface ModelText {
  kind: TextKind;
  text: string;
  /** Where the string is written (its key for names written as keys). */
  loc: Loc;
  /** The string node in the source, when the text is written there as a string. */
  node: SNode | undefined;
  param: string | null;
  /** The visit the text belongs to (parameter texts). */
  visit: SchemaVisit | null;
}

/**
 * Every string of a tool that reaches the model: its name, title and description, and in the
 * input schema each property name, description, title, enum value, `const`, `default` and
 * `examples` string. Texts written nowhere in the source (synthesised) are left out.
 */
export function modelTexts(tool: Tool): readonly ModelText[] {
  // Several rules read the same texts of every tool: they are computed once per tool. A tool is
  // not changed after loading; the entry still records the objects the texts were read from (the
  // schema, its origins and the file's tree), so a tool given a new schema or tree is read again.
  const source = treeOrDoc(tool);
  const hit = textsOf.get(tool);
  if (hit && hit.schema === tool.inputSchema && hit.origins === tool.origins && hit.source === source && hit.raw === tool.raw) return hit.texts;
  const texts = source instanceof LazyJsonDoc ? textsFromData(tool, source) : computeModelTexts(tool);
  textsOf.set(tool, { schema: tool.inputSchema, origins: tool.origins, source, raw: tool.raw, texts });
  return texts;
}

/** What a tool's texts are read from: its tree, or a document whose tree is built on first use (it never changes). */
function treeOrDoc(tool: Tool): SNode | LazyJsonDoc | undefined {
  const doc = tool.file.parsed.docs[tool.doc];
  return doc instanceof LazyJsonDoc ? doc : doc?.root;
}

const textsOf = new WeakMap<Tool, { schema: Tool['inputSchema']; origins: Tool['origins']; source: SNode | LazyJsonDoc | undefined; raw: Tool['raw']; texts: readonly ModelText[] }>();

/**
 * A text whose string node is looked up when first asked for: rules read a text's node only to
 * point into it when they report, and looking it up would build a JSON file's tree.
 */
class LazyText implements ModelText {
  private found: SNode | undefined | null = null;

  constructor(
    readonly kind: TextKind,
    readonly text: string,
    readonly loc: Loc,
    private readonly tool: Tool,
    readonly param: string | null,
    readonly visit: SchemaVisit | null,
  ) {}

  get node(): SNode | undefined {
    if (this.found === null) this.found = stringNode(this.tool, this.loc);
    return this.found;
  }
}

/**
 * The texts of a tool in a JSON document whose tree is not built: the same texts as
 * `computeModelTexts`, decided from the data. Valid JSON without repeated keys (the only kind
 * such a document holds) has a tree of the same shape as its data, so a string is at a path of
 * the tree exactly when it is at that path of the data (`stringInData` follows `findNode`).
 * `test/lazy-tree.test.ts` compares both on the corpus.
 */
function textsFromData(tool: Tool, doc: LazyJsonDoc): readonly ModelText[] {
  const out: ModelText[] = [];
  each(tool, (kind, text, loc, param, visit) => {
    if (stringInData(doc.data, loc)) out.push(new LazyText(kind, text, loc, tool, param, visit));
  });
  return out;
}

/** Whether `findNode` and `asString` would find a string node at the location, read off the data. */
export function stringInData(data: unknown, loc: Loc): boolean {
  const path = loc.path;
  if (path.length === 0) return loc.target === 'value' && typeof data === 'string';
  let v: unknown = data;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    const last = i === path.length - 1;
    if (Array.isArray(v)) {
      const idx = typeof seg === 'number' ? seg : Number(seg);
      if (!Number.isInteger(idx) || idx < 0 || idx >= v.length) return false;
      // An element has no key.
      if (last) return loc.target === 'value' && typeof v[idx] === 'string';
      v = v[idx];
    } else if (typeof v === 'object' && v !== null) {
      const key = String(seg);
      if (!Object.prototype.hasOwnProperty.call(v, key)) return false;
      const next = (v as Record<string, unknown>)[key];
      // A member's key is always a string; its value must be one.
      if (last) return loc.target === 'key' || typeof next === 'string';
      v = next;
    } else return false;
  }
  return false;
}

type Emit = (kind: TextKind, text: string, loc: Loc, param: string | null, visit: SchemaVisit | null) => void;

/** Every candidate text of a tool with where it would be written, in order; those written in the source are its model texts. */
function each(tool: Tool, emit: Emit): void {
  const add = (kind: TextKind, text: unknown, loc: Loc, param: string | null, visit: SchemaVisit | null): void => {
    if (typeof text === 'string' && text !== '') emit(kind, text, loc, param, visit);
  };
  if (tool.name !== null) add('toolName', tool.name, { path: tool.namePath, target: tool.nameTarget }, null, null);
  if (tool.descriptionPath) add('description', tool.description, { path: tool.descriptionPath, target: 'value' }, null, null);
  const base = tool.descriptionPath ? tool.descriptionPath.slice(0, -1) : tool.path;
  add('title', tool.raw.title, { path: [...base, 'title'], target: 'value' }, null, null);
  if (isObject(tool.raw.annotations)) add('title', tool.raw.annotations.title, { path: [...base, 'annotations', 'title'], target: 'value' }, null, null);
  const isText = (x: unknown): x is string => typeof x === 'string' && x !== '';
  walkSchema(tool, (v) => {
    const s = v.schema;
    const o = v.origin;
    if (v.via === 'properties' && v.name !== null) add('paramName', v.name, { path: o.self, target: o.selfTarget }, v.param, v);
    const one = (kind: TextKind, k: string, text: unknown): void => {
      if (!isText(text) || !keywordInSource(o, k)) return;
      emit(kind, text, keywordLoc(o, k, 'value'), v.param, v);
    };
    const list = (kind: TextKind, k: string, items: unknown): void => {
      if (!Array.isArray(items) || !keywordInSource(o, k)) return;
      const at = keywordLoc(o, k, 'value').path;
      items.forEach((x, i) => {
        if (isText(x)) emit(kind, x, { path: [...at, i], target: 'value' }, v.param, v);
      });
    };
    one('paramDescription', 'description', s.description);
    one('paramTitle', 'title', s.title);
    list('enum', 'enum', s.enum);
    one('value', 'const', s.const);
    one('value', 'default', s.default);
    list('value', 'examples', s.examples);
  });
}

function computeModelTexts(tool: Tool): readonly ModelText[] {
  const out: ModelText[] = [];
  const root = tool.file.root(tool.doc);
  // A keyword of a schema sits under the schema's own node: that node is looked up once per
  // schema, and each keyword from there (the same node a walk from the root reaches).
  let schemaOf: SchemaVisit | null = null;
  let schemaNode: SNode | undefined;
  each(tool, (kind, text, loc, param, visit) => {
    let node: SNode | undefined;
    const at = visit?.origin.path;
    if (at && loc.path.length > at.length && at.every((seg, i) => loc.path[i] === seg)) {
      if (schemaOf !== visit) {
        schemaOf = visit;
        schemaNode = root ? findNode(root, at) : undefined;
      }
      node = asString(findNode(schemaNode, loc.path.slice(at.length), true), loc.target);
    } else node = stringNode(tool, loc);
    if (node) out.push({ kind, text, loc, node, param, visit });
  });
  return out;
}

/** The string node at a location (the key node for key targets), if the source has one there. */
export function stringNode(tool: Tool, loc: Loc): SNode | undefined {
  return asString(tool.file.find(tool.doc, loc.path, true), loc.target);
}

/** The string node a found node (a property, for object members) gives for a key or value target. */
function asString(n: SNode | undefined, target: Loc['target']): SNode | undefined {
  if (!n) return undefined;
  const node = n.type === 'property' ? n.children?.[target === 'key' ? 0 : 1] : target === 'value' ? n : undefined;
  return node && node.type === 'string' ? node : undefined;
}

/** How a text is named in messages: "Description", "Description of `limit`", "Tool name". */
export function whereLabel(t: ModelText): string {
  const p = t.param ? ` of \`${t.param}\`` : '';
  switch (t.kind) {
    case 'toolName':
      return 'Tool name';
    case 'description':
      return 'Description';
    case 'title':
      return 'Title';
    case 'paramName':
      return `Parameter name \`${t.param ?? ''}\``;
    case 'paramDescription':
      return `Description${p}`;
    case 'paramTitle':
      return `Title${p}`;
    case 'enum':
      return `Enum value${p}`;
    default:
      return `Value${p}`;
  }
}

/** A span of text for a message: whitespace collapsed, cut at `max` characters. */
export function quote(s: string, max = 72): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? one.slice(0, max - 1).trimEnd() + '…' : one;
}

/** One UTF-16 unit of a string's value, and the source range that writes it. */
interface Unit {
  u: string;
  s: number;
  e: number;
}

/** Units of a value in source order, with the non-whitespace ones indexed for matching. */
interface Mapping {
  units: Unit[];
  /** For each index of the value, the unit that writes it (non-whitespace units only), else -1. */
  at: Int32Array;
  style: 'json' | 'double' | 'single' | 'plain' | 'block';
}

export const WS = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';
export const JSON_ESC: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
export const YAML_ESC: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b', ' ': ' ', '"': '"', '/': '/', '\\': '\\',
  N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
};
export const HEX_LEN: Record<string, number> = { x: 2, u: 4, U: 8 };

export const mappings = new WeakMap<SNode, Mapping | null>();

/**
 * Maps a string node's value to its source, unit by unit. Whitespace is left out of the match:
 * YAML folding changes only whitespace, so the non-whitespace units of the value and of the decoded
 * source must agree one to one (else the node is not mapped: an alias, a layout not understood).
 */
export function mapping(file: SourceFile, node: SNode): Mapping | null {
  if (mappings.has(node)) return mappings.get(node)!;
  const m = buildMapping(file, node);
  mappings.set(node, m);
  return m;
}

export function buildMapping(file: SourceFile, node: SNode): Mapping | null {
  const value = node.value;
  if (typeof value !== 'string') return null;
  const text = file.text;
  const start = node.offset;
  const end = node.offset + node.length;
  const units: Unit[] = [];
  const push = (str: string, s: number, e: number): void => {
    for (let k = 0; k < str.length; k++) units.push({ u: str[k], s, e });
  };
  const first = text[start];
  let style: Mapping['style'];
  if (file.lang === 'json') {
    style = 'json';
    if (first !== '"' || text[end - 1] !== '"' || end - start < 2) return null;
    for (let i = start + 1; i < end - 1; ) {
      const c = text[i];
      if (c !== '\\') {
        push(c, i, i + 1);
        i++;
        continue;
      }
      const n = text[i + 1];
      if (n === 'u') {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) return null;
        push(String.fromCharCode(parseInt(hex, 16)), i, i + 6);
        i += 6;
      } else if (n in JSON_ESC) {
        push(JSON_ESC[n], i, i + 2);
        i += 2;
      } else return null;
    }
  } else if (first === '"') {
    style = 'double';
    if (text[end - 1] !== '"' || end - start < 2) return null;
    for (let i = start + 1; i < end - 1; ) {
      const c = text[i];
      if (c !== '\\') {
        push(c, i, i + 1);
        i++;
        continue;
      }
      const n = text[i + 1];
      if (n === '\n' || n === '\r') {
        // An escaped line break joins the lines: nothing is written, nor the next line's indent.
        i += n === '\r' && text[i + 2] === '\n' ? 3 : 2;
        while (i < end - 1 && (text[i] === ' ' || text[i] === '\t')) i++;
      } else if (n in HEX_LEN) {
        const len = HEX_LEN[n];
        const hex = text.slice(i + 2, i + 2 + len);
        if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) return null;
        const cp = parseInt(hex, 16);
        if (cp > 0x10ffff) return null;
        push(String.fromCodePoint(cp), i, i + 2 + len);
        i += 2 + len;
      } else if (n in YAML_ESC) {
        push(YAML_ESC[n], i, i + 2);
        i += 2;
      } else return null;
    }
  } else if (first === "'") {
    style = 'single';
    if (text[end - 1] !== "'" || end - start < 2) return null;
    for (let i = start + 1; i < end - 1; ) {
      if (text[i] === "'" && text[i + 1] === "'") {
        push("'", i, i + 2);
        i += 2;
      } else {
        push(text[i], i, i + 1);
        i++;
      }
    }
  } else if (first === '|' || first === '>') {
    style = 'block';
    const nl = text.indexOf('\n', start);
    if (nl < 0 || nl >= end) return units.length === 0 && value === '' ? { units, at: new Int32Array(0), style } : null;
    for (let i = nl + 1; i < end; i++) push(text[i], i, i + 1);
  } else {
    style = 'plain';
    if (/[*&!]/.test(first)) return null;
    for (let i = start; i < end; i++) push(text[i], i, i + 1);
  }
  const solid: number[] = [];
  units.forEach((u, i) => {
    if (!WS(u.u)) solid.push(i);
  });
  const at = new Int32Array(value.length).fill(-1);
  let k = 0;
  for (let i = 0; i < value.length; i++) {
    if (WS(value[i])) continue;
    if (k >= solid.length || units[solid[k]].u !== value[i]) return null;
    at[i] = solid[k++];
  }
  if (k !== solid.length) return null;
  return { units, at, style };
}

/**
 * The source span that writes `value[start, end)` of a string node (from its first to its last
 * non-whitespace character), or null when the node cannot be mapped reliably.
 */
export function textSpan(file: SourceFile, node: SNode | undefined, start: number, end: number): { offset: number; length: number } | null {
  if (!node) return null;
  const m = mapping(file, node);
  if (!m) return null;
  let a = -1;
  let b = -1;
  for (let i = start; i < end && i < m.at.length; i++) {
    if (m.at[i] < 0) continue;
    if (a < 0) a = m.at[i];
    b = m.at[i];
  }
  if (a < 0) return null;
  const offset = m.units[a].s;
  return { offset, length: m.units[b].e - offset };
}

// ---------------------------------------------------------------------------------------------
// Invisible characters.

/** Arabic and similar number signs are format characters that are drawn: not hidden. */
export const VISIBLE_FORMAT = new Set([0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6dd, 0x70f, 0x890, 0x891, 0x8e2, 0x110bd, 0x110cd]);
/** Default-ignorable characters that are not format characters (fillers, joiners, selectors). */
export const OTHER_INVISIBLE = new Set([0x34f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x3164, 0xffa0]);

export type HiddenKind = 'tag' | 'bidi' | 'invisible';

/** What kind of hidden character the code point is, or null for an ordinary one. */
export function hiddenKind(cp: number): HiddenKind | null {
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'tag';
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0x200e || cp === 0x200f || cp === 0x61c) return 'bidi';
  if (OTHER_INVISIBLE.has(cp) || (cp >= 0xe0100 && cp <= 0xe01ef)) return 'invisible';
  if (VISIBLE_FORMAT.has(cp)) return null;
  return /\p{Cf}/u.test(String.fromCodePoint(cp)) ? 'invisible' : null;
}

export const NAMES: Record<number, string> = {
  0xad: 'soft hyphen', 0x34f: 'combining grapheme joiner', 0x61c: 'Arabic letter mark', 0x115f: 'Hangul choseong filler', 0x1160: 'Hangul jungseong filler',
  0x180e: 'Mongolian vowel separator', 0x200b: 'zero width space', 0x200c: 'zero width non-joiner', 0x200d: 'zero width joiner', 0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark', 0x202a: 'left-to-right embedding', 0x202b: 'right-to-left embedding', 0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override', 0x202e: 'right-to-left override', 0x2060: 'word joiner', 0x2061: 'function application', 0x2062: 'invisible times',
  0x2063: 'invisible separator', 0x2064: 'invisible plus', 0x2066: 'left-to-right isolate', 0x2067: 'right-to-left isolate', 0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate', 0x3164: 'Hangul filler', 0xfeff: 'zero width no-break space', 0xffa0: 'halfwidth Hangul filler', 0xe0001: 'language tag',
};

export function charName(cp: number): string {
  const hex = 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
  if (cp >= 0xe0020 && cp <= 0xe007f) return `${hex} tag character`;
  if (cp >= 0xe0100 && cp <= 0xe01ef) return `${hex} variation selector`;
  return NAMES[cp] ? `${hex} ${NAMES[cp]}` : hex;
}

export const JOINERS = new Set([0x200c, 0x200d]);
/** Scripts that write joiners between letters (Persian, Indic, …): a joiner there is spelling. */
export const JOINING_LETTER = /[\p{L}\p{M}]/u;

/**
 * A zero width (non-)joiner is part of the text between two letters of a script that uses it
 * (not Latin, Greek or Cyrillic), and a joiner inside an emoji sequence draws one emoji.
 */
export function joinerInContext(text: string, i: number, cp: number): boolean {
  if (!JOINERS.has(cp)) return false;
  const prev = codePointBefore(text, i);
  const next = text.codePointAt(i + 1);
  if (prev === undefined || next === undefined) return false;
  const p = String.fromCodePoint(prev);
  const n = String.fromCodePoint(next);
  const plain = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]/u;
  if (JOINING_LETTER.test(p) && JOINING_LETTER.test(n) && !plain.test(p) && !plain.test(n)) return true;
  const emoji = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\u{fe0f}]/u;
  return cp === 0x200d && emoji.test(p) && /\p{Extended_Pictographic}/u.test(n);
}

export function codePointBefore(text: string, i: number): number | undefined {
  if (i === 0) return undefined;
  const c = text.charCodeAt(i - 1);
  if (c >= 0xdc00 && c <= 0xdfff && i >= 2) return text.codePointAt(i - 2);
  return c;
}

export interface Hidden {
  /** Index and length (UTF-16 units) of each hidden character in the text. */
  at: { i: number; n: number; cp: number; kind: HiddenKind }[];
}

/** Any character `hiddenKind` may report (a quick test before the scan). */
export const MAYBE_HIDDEN = /[\p{Cf}\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0\u{e0100}-\u{e01ef}]/u;

/** The hidden characters of a text, in order. */
export function hiddenChars(text: string): Hidden['at'] {
  const out: Hidden['at'] = [];
  if (!MAYBE_HIDDEN.test(text)) return out;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const n = cp > 0xffff ? 2 : 1;
    const kind = hiddenKind(cp);
    if (kind && !joinerInContext(text, i, cp)) out.push({ i, n, cp, kind });
    i += n;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Letters that look alike in Latin and in Cyrillic or Greek.

/** Cyrillic and Greek letters drawn like a Latin letter, and that letter. */
export const CONFUSABLE_LATIN: Record<string, string> = {
  // Cyrillic
  а: 'a', е: 'e', һ: 'h', і: 'i', ј: 'j', ӏ: 'l', о: 'o', р: 'p', с: 'c', ѕ: 's', у: 'y', х: 'x', ԁ: 'd', ԛ: 'q', ԝ: 'w', ү: 'y',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', І: 'I', Ј: 'J', Ѕ: 'S', Ү: 'Y', Ԛ: 'Q', Ԝ: 'W', Ӏ: 'I',
  // Greek
  ο: 'o', α: 'a', ν: 'v', ι: 'i', κ: 'k', ρ: 'p', υ: 'u', χ: 'x', ϲ: 'c', ϳ: 'j',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X', Ϲ: 'C',
};

type Script = 'Latin' | 'Cyrillic' | 'Greek';
export const SCRIPT_RE: Record<Script, RegExp> = { Latin: /\p{Script=Latin}/u, Cyrillic: /\p{Script=Cyrillic}/u, Greek: /\p{Script=Greek}/u };

/** Latin letters with a look-alike in each script. */
export const LATIN_LIKE: Record<'Cyrillic' | 'Greek', Set<string>> = { Cyrillic: new Set(), Greek: new Set() };
for (const [k, v] of Object.entries(CONFUSABLE_LATIN)) LATIN_LIKE[SCRIPT_RE.Cyrillic.test(k) ? 'Cyrillic' : 'Greek'].add(v);

export interface MixedWord {
  index: number;
  word: string;
  /** The script the word is written in, and the one its look-alike letters come from. */
  base: Script;
  intruder: Script;
  /** The intruding letters. */
  letters: string[];
  /** The word in plain Latin, when every intruding letter has a Latin twin. */
  latin: string | null;
}

/**
 * Words that mix Latin with Cyrillic or Greek where the letters of one script are all look-alikes
 * of the other's: `pаypal` with a Cyrillic `а`. A word of real mixed notation (`Δt`) is not one.
 */
export const OTHER_SCRIPT = /[\p{Script=Cyrillic}\p{Script=Greek}]/u;

export function mixedScriptWords(text: string): MixedWord[] {
  const out: MixedWord[] = [];
  if (!OTHER_SCRIPT.test(text)) return out;
  for (const m of text.matchAll(/[\p{L}\p{M}\p{N}_]+/gu)) {
    const w = m[0];
    const chars = [...w];
    const latin = chars.filter((c) => SCRIPT_RE.Latin.test(c));
    if (latin.length === 0) continue;
    for (const other of ['Cyrillic', 'Greek'] as const) {
      const foreign = chars.filter((c) => SCRIPT_RE[other].test(c));
      if (foreign.length === 0) continue;
      if (foreign.every((c) => c in CONFUSABLE_LATIN)) {
        out.push({ index: m.index, word: w, base: 'Latin', intruder: other, letters: [...new Set(foreign)], latin: chars.map((c) => CONFUSABLE_LATIN[c] ?? c).join('') });
      } else if (latin.every((c) => LATIN_LIKE[other].has(c))) {
        out.push({ index: m.index, word: w, base: other, intruder: 'Latin', letters: [...new Set(latin)], latin: null });
      }
      break;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The rule.

/** Text the model reads as prose; the rest are identifiers and values a server relies on. */
export const PROSE: ReadonlySet<TextKind> = new Set(['description', 'title', 'paramDescription', 'paramTitle']);


export function removeAt(text: string, hidden: Hidden['at']): string {
  let out = '';
  let pos = 0;
  for (const h of hidden) {
    out += text.slice(pos, h.i);
    pos = h.i + h.n;
  }
  return out + text.slice(pos);
}

/** Index in the original text of index `k` of the text with the hidden characters removed. */
export function originalIndex(text: string, hidden: Hidden['at'], k: number): number {
  let shift = 0;
  for (const h of hidden) {
    if (h.i - shift > k) break;
    shift += h.n;
  }
  return k + shift;
}

export function decodeTags(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xe0020 && cp <= 0xe007e) out += String.fromCharCode(cp - 0xe0000);
  }
  return out;
}

/**
 * Edits removing the hidden characters of a prose text. Each character's own source is removed
 * (a raw character or its escape) where that cannot change anything else: always in JSON strings
 * and YAML quoted scalars, and in plain and block YAML when the character sits between two visible
 * characters; otherwise the whole string is rewritten (`replaceString`, checked against the data).
 */
export function removalOps(tool: Tool, t: ModelText, hidden: Hidden['at'], cleaned: string): EditOp[] | null {
  const whole: EditOp[] = [{ op: 'replaceString', path: t.loc.path, value: cleaned }];
  const node = t.node;
  if (!node) return whole;
  const m = mapping(tool.file, node);
  if (!m) return whole;
  const ranges: [number, number][] = [];
  for (const h of hidden) {
    for (let k = h.i; k < h.i + h.n; k++) {
      const u = m.at[k];
      if (u < 0) return whole;
      const { s, e } = m.units[u];
      const last = ranges[ranges.length - 1];
      if (last && s <= last[1]) last[1] = Math.max(last[1], e);
      else ranges.push([s, e]);
    }
  }
  if (m.style !== 'json') {
    const text = tool.file.text;
    const lo = m.style === 'block' ? text.indexOf('\n', node.offset) + 1 : node.offset;
    for (const [s, e] of ranges) {
      const prev = text[s - 1] ?? '\n';
      const next = text[e] ?? '\n';
      // The line keeps a visible character, so neither indentation nor line folding changes.
      if (WS(prev) && WS(next)) return whole;
      if (m.style === 'plain') {
        // Nothing may come to stand first in the scalar, nor form `: ` or ` #`.
        if (s <= lo || (prev === ':' && WS(next)) || (WS(prev) && next === '#')) return whole;
      } else if (s < lo) return whole;
    }
  }
  return ranges.map(([s, e]) => ({ op: 'text', start: s, end: e, text: '' }));
}

/** Edits that change an identifier or value (name, enum value, default) to `value`. */
export function identifierOps(tool: Tool, t: ModelText, value: string): EditOp[] | null {
  if (t.kind === 'toolName' || t.kind === 'paramName') {
    if (t.loc.target === 'value') return [{ op: 'replaceString', path: t.loc.path, value }];
    const ops: EditOp[] = [{ op: 'renameKey', path: t.loc.path, key: value }];
    // A renamed property keeps its place in the parent's `required` list.
    const parent = t.visit?.parent;
    if (t.kind === 'paramName' && parent && Array.isArray(parent.schema.required) && keywordInSource(parent.origin, 'required')) {
      const req = keywordLoc(parent.origin, 'required', 'value').path;
      parent.schema.required.forEach((r, i) => {
        if (r === t.text) ops.push({ op: 'set', path: [...req, i] as JsonPath, value });
      });
    }
    return ops;
  }
  return [{ op: 'replaceString', path: t.loc.path, value }];
}
