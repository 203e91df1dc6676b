/**
 * A one-pass reader for strict JSON (RFC 8259) that builds the same tree as `jsonc-parser`'s
 * `parseTree`, node for node: same types, offsets, lengths, values, `colonOffset`s and parents.
 * It is several times faster because it does one thing: anything that is not plain valid JSON
 * (a syntax error, a comment, a trailing comma, an unusual space, a control character in a
 * string, nesting deeper than {@link MAX_DEPTH}) makes it give up and return `null`, and the
 * caller parses the text with `jsonc-parser`, which reports the problem. `test/fast-json.test.ts`
 * compares both on the corpus, the fixtures and random mutations.
 */
import { endProperty, findNode, NO_CHILDREN, type SNode } from './tree';

/** Deeper nesting goes to the full parser, which decides whether it is too deep to lint. */
const MAX_DEPTH = 500;
export const STRICT_MAX_DEPTH = MAX_DEPTH;

/** Why the reader gave up; never shown, it only stops the fast path. */
class GiveUp {}
const GIVE_UP = new GiveUp();

let src = '';
let pos = 0;
let end = 0;

/** The tree of `text`, or `null` when the text is not strict JSON (or is empty). */
export function readStrictJson(text: string): SNode | null {
  src = text;
  pos = 0;
  end = text.length;
  try {
    skipSpace();
    if (pos >= end) return null;
    const root = value(undefined, 0);
    skipSpace();
    if (pos < end) return null;
    // jsonc-parser's root has no `parent` property at all.
    delete root.parent;
    return root;
  } catch (e) {
    if (e === GIVE_UP) return null;
    throw e;
  } finally {
    src = '';
  }
}

function skipSpace(): void {
  while (pos < end) {
    const c = src.charCodeAt(pos);
    // space, \n, \r, \t: the only whitespace JSON allows.
    if (c === 32 || c === 10 || c === 13 || c === 9) pos++;
    else return;
  }
}

function value(parent: SNode | undefined, depth: number): SNode {
  const c = src.charCodeAt(pos);
  switch (c) {
    case 123: // {
      return object(parent, depth);
    case 91: // [
      return array(parent, depth);
    case 34: {
      // "
      const start = pos;
      const v = string();
      return { type: 'string', offset: start, length: pos - start, parent, value: v };
    }
    case 116: // true
      return literal(parent, 'true', 'boolean', true);
    case 102: // false
      return literal(parent, 'false', 'boolean', false);
    case 110: // null
      return literal(parent, 'null', 'null', null);
    default:
      if (c === 45 || (c >= 48 && c <= 57)) return number(parent);
      throw GIVE_UP;
  }
}

function literal(parent: SNode | undefined, word: string, type: 'boolean' | 'null', v: boolean | null): SNode {
  if (!src.startsWith(word, pos)) throw GIVE_UP;
  const start = pos;
  pos += word.length;
  // `truex` is one unknown word to the full parser.
  if (pos < end && isWordChar(src.charCodeAt(pos))) throw GIVE_UP;
  return { type, offset: start, length: word.length, parent, value: v };
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c === 45 || c === 43 || c === 46 || c > 127;
}

function digits(): number {
  const from = pos;
  while (pos < end) {
    const c = src.charCodeAt(pos);
    if (c >= 48 && c <= 57) pos++;
    else break;
  }
  return pos - from;
}

function number(parent: SNode | undefined): SNode {
  const start = pos;
  if (src.charCodeAt(pos) === 45) pos++;
  const first = src.charCodeAt(pos);
  if (first === 48) pos++;
  else if (first >= 49 && first <= 57) digits();
  else throw GIVE_UP;
  if (src.charCodeAt(pos) === 46) {
    pos++;
    if (digits() === 0) throw GIVE_UP;
  }
  const e = src.charCodeAt(pos);
  if (e === 101 || e === 69) {
    pos++;
    const sign = src.charCodeAt(pos);
    if (sign === 43 || sign === 45) pos++;
    if (digits() === 0) throw GIVE_UP;
  }
  // `01`, `1.2.3`, `12abc`: the full parser reports them.
  if (pos < end && isWordChar(src.charCodeAt(pos))) throw GIVE_UP;
  return { type: 'number', offset: start, length: pos - start, parent, value: Number(src.slice(start, pos)) };
}

/** A string token at `pos` (a `"`): its value; `pos` ends after the closing quote. */
function string(): string {
  const open = pos + 1;
  let i = open;
  // The common case: no escapes, so the value is a slice of the text.
  while (i < end) {
    const c = src.charCodeAt(i);
    if (c === 34) {
      pos = i + 1;
      return src.slice(open, i);
    }
    if (c === 92) break;
    if (c < 32) throw GIVE_UP;
    i++;
  }
  if (i >= end) throw GIVE_UP;
  let out = src.slice(open, i);
  while (i < end) {
    const c = src.charCodeAt(i);
    if (c === 34) {
      pos = i + 1;
      return out;
    }
    if (c < 32) throw GIVE_UP;
    if (c !== 92) {
      const from = i;
      while (i < end) {
        const d = src.charCodeAt(i);
        if (d === 34 || d === 92 || d < 32) break;
        i++;
      }
      out += src.slice(from, i);
      continue;
    }
    const esc = src.charCodeAt(i + 1);
    switch (esc) {
      case 34:
        out += '"';
        break;
      case 92:
        out += '\\';
        break;
      case 47:
        out += '/';
        break;
      case 98:
        out += '\b';
        break;
      case 102:
        out += '\f';
        break;
      case 110:
        out += '\n';
        break;
      case 114:
        out += '\r';
        break;
      case 116:
        out += '\t';
        break;
      case 117: {
        let code = 0;
        for (let k = 2; k < 6; k++) {
          const h = src.charCodeAt(i + k);
          const d = h >= 48 && h <= 57 ? h - 48 : h >= 65 && h <= 70 ? h - 55 : h >= 97 && h <= 102 ? h - 87 : -1;
          if (d < 0) throw GIVE_UP;
          code = code * 16 + d;
        }
        out += String.fromCharCode(code);
        i += 6;
        continue;
      }
      default:
        throw GIVE_UP;
    }
    i += 2;
  }
  throw GIVE_UP;
}

function object(parent: SNode | undefined, depth: number): SNode {
  return collection('object', 125, parent, depth, member);
}

function array(parent: SNode | undefined, depth: number): SNode {
  return collection('array', 93, parent, depth, element);
}

/**
 * Entries of the collections being read, innermost last: each collection's children are copied
 * out at its closing bracket into an array of exactly their number. Arrays grown by `push` keep
 * room for more (17 slots for a property's two children), which on a large catalogue is a fifth
 * of the tree's memory, and every byte of it is copied by the garbage collector.
 */
const pending: SNode[] = [];

/**
 * An object or array at `pos` (its opening bracket): entries read by `entry` until the closing
 * bracket `close`, separated by commas (none trailing).
 */
function collection(type: 'object' | 'array', close: number, parent: SNode | undefined, depth: number, entry: (node: SNode, depth: number) => SNode): SNode {
  if (depth > MAX_DEPTH) throw GIVE_UP;
  const node: SNode = { type, offset: pos, length: -1, parent, children: NO_CHILDREN };
  const from = pending.length;
  pos++;
  skipSpace();
  try {
    if (src.charCodeAt(pos) !== close) {
      for (;;) {
        pending.push(entry(node, depth));
        skipSpace();
        const c = src.charCodeAt(pos);
        if (c === close) break;
        if (c !== 44) throw GIVE_UP;
        pos++;
        skipSpace();
      }
    }
    node.children = pending.length === from ? [] : pending.slice(from);
  } finally {
    pending.length = from;
  }
  pos++;
  node.length = pos - node.offset;
  return node;
}

/** An object member at `pos`: `"key": value`, as a property node. */
function member(node: SNode, depth: number): SNode {
  if (src.charCodeAt(pos) !== 34) throw GIVE_UP;
  const keyStart = pos;
  const key = string();
  const keyEnd = pos;
  skipSpace();
  if (src.charCodeAt(pos) !== 58) throw GIVE_UP;
  const prop = startMember(node, keyStart, keyEnd, key, pos);
  pos++;
  skipSpace();
  if (pos >= end) throw GIVE_UP;
  return endProperty(prop, value(prop, depth + 1));
}

/**
 * A member's property node with its key node (`keyStart` to `keyEnd`) and its colon at `colon`,
 * in `jsonc-parser`'s shape (its nodes' fields in its order); `endProperty` adds the value.
 */
function startMember(parent: SNode | undefined, keyStart: number, keyEnd: number, key: string, colon: number): SNode {
  const prop: SNode = { type: 'property', offset: keyStart, length: -1, parent, children: NO_CHILDREN };
  prop.children = [{ type: 'string', value: key, offset: keyStart, length: keyEnd - keyStart, parent: prop }];
  prop.colonOffset = colon;
  return prop;
}

/** An array element at `pos`. */
function element(node: SNode, depth: number): SNode {
  if (pos >= end) throw GIVE_UP;
  return value(node, depth + 1);
}

/**
 * Of a text already known to be valid JSON: how many object members it writes (a `:` outside
 * strings is one member) and how deep its collections nest.
 */
export function jsonShape(text: string): { members: number; depth: number } {
  let members = 0;
  let depth = 0;
  let max = 0;
  const n = text.length;
  let i = 0;
  // Most of a catalogue's bytes are inside strings: jump from string to string, and read only
  // what lies between them.
  while (i < n) {
    const q = text.indexOf('"', i);
    const stop = q < 0 ? n : q;
    for (; i < stop; i++) {
      const c = text.charCodeAt(i);
      if (c === 58) members++;
      else if (c === 123 || c === 91) {
        if (++depth > max) max = depth;
      } else if (c === 125 || c === 93) depth--;
    }
    if (q < 0) break;
    i = stringEnd(text, q);
  }
  return { members, depth: max };
}

/** Just past the closing quote of the string whose opening quote is at `q` (valid JSON). */
function stringEnd(text: string, q: number): number {
  let from = q + 1;
  for (;;) {
    const k = text.indexOf('"', from);
    if (k < 0) return text.length;
    // A quote preceded by an odd number of backslashes is escaped.
    let b = k - 1;
    while (text.charCodeAt(b) === 92) b--;
    if ((k - 1 - b) % 2 === 0) return k + 1;
    from = k + 1;
  }
}

// --- Finding one node without the tree ---------------------------------------------------------

/**
 * What is known of a collection met on the way to a node: where each child starts (an object's
 * member at its key, with the keys) and ends, or, for a collection small enough, its whole tree.
 */
export interface ChildIndex {
  at: number[];
  ends: number[];
  keys: string[] | null;
  tree: SNode | null;
}

/**
 * Collections up to this many characters are read whole on first use, larger ones skimmed.
 * Skimming allocates almost nothing; reading whole builds nodes a look-up may never need. On the
 * corpus, findings' look-ups took about 60 % of the time at 1 KB that they took at 32 KB.
 */
const READ_WHOLE = 1024;

/**
 * `findNode(tree, path, wantProperty)` for a text known to be valid JSON without repeated keys,
 * without building the whole tree: large collections on the way are skimmed for where their
 * children start and end, and the first collection small enough (a property's schema,
 * typically) is read whole, exactly as `readStrictJson` reads it, and searched like the tree.
 * What is learnt is kept in `index`, by offset, for the next look-up. The node found has no
 * `parent` when it is the top of what was read.
 */
export function locateJson(text: string, path: readonly (string | number)[], wantProperty: boolean, index: Map<number, ChildIndex>): SNode | undefined {
  src = text;
  end = text.length;
  try {
    pos = 0;
    skipSpace();
    let at = pos;
    let size = end - at;
    for (let i = 0; i <= path.length; i++) {
      const c = text.charCodeAt(at);
      const isCollection = c === 123 || c === 91;
      if (i === path.length || !isCollection) {
        if (i < path.length) return undefined;
        return valueAt(at, index);
      }
      let kids = index.get(at);
      if (!kids) index.set(at, (kids = size <= READ_WHOLE ? readWhole(at) : childIndex(at)));
      if (kids.tree) return findNode(kids.tree, path.slice(i), wantProperty);
      const seg = path[i];
      let k = -1;
      if (c === 123) {
        const key = String(seg);
        const keys = kids.keys!;
        for (let j = keys.length - 1; j >= 0; j--) {
          if (keys[j] === key) {
            k = j;
            break;
          }
        }
        if (k < 0) return undefined;
        const keyAt = kids.at[k];
        pos = keyAt;
        // Past the key and the colon to the value.
        const keyValue = string();
        const keyEnd = pos;
        skipSpace();
        const colon = pos;
        pos++;
        skipSpace();
        at = pos;
        if (wantProperty && i === path.length - 1) {
          // The member, as `member` reads it, around its value.
          return endProperty(startMember(undefined, keyAt, keyEnd, keyValue, colon), valueAt(at, index));
        }
      } else {
        const idx = typeof seg === 'number' ? seg : Number(seg);
        if (!Number.isInteger(idx) || idx < 0 || idx >= kids.at.length) return undefined;
        k = idx;
        at = kids.at[idx];
      }
      size = kids.ends[k] - at;
    }
    return undefined;
  } finally {
    src = '';
  }
}

/**
 * The value at `at`, the end of a path. A collection is read whole once and kept in `index` (a
 * tool object, say, that several findings point at); later paths through it search that tree.
 */
function valueAt(at: number, index: Map<number, ChildIndex>): SNode {
  const c = src.charCodeAt(at);
  pos = at;
  if (c !== 123 && c !== 91) return value(undefined, 0);
  let kids = index.get(at);
  if (!kids) index.set(at, (kids = { at: [], ends: [], keys: null, tree: null }));
  kids.tree ??= value(undefined, 0);
  return kids.tree;
}

/** The collection at `at`, read whole. */
function readWhole(at: number): ChildIndex {
  pos = at;
  return { at: [], ends: [], keys: null, tree: value(undefined, 0) };
}

/** The children of the collection at `at`, skimmed: no node is built. */
function childIndex(at: number): ChildIndex {
  const isObject = src.charCodeAt(at) === 123;
  const close = isObject ? 125 : 93;
  const out: ChildIndex = { at: [], ends: [], keys: isObject ? [] : null, tree: null };
  pos = at + 1;
  skipSpace();
  if (src.charCodeAt(pos) === close) return out;
  for (;;) {
    out.at.push(pos);
    if (isObject) {
      out.keys!.push(string());
      skipSpace();
      pos++; // the colon
      skipSpace();
    }
    skipValue();
    out.ends.push(pos);
    skipSpace();
    if (src.charCodeAt(pos) === close) return out;
    pos++; // the comma
    skipSpace();
  }
}

/** Moves `pos` past the value at `pos` (valid JSON) without reading it. */
function skipValue(): void {
  const c = src.charCodeAt(pos);
  if (c === 34) {
    pos = stringEnd(src, pos);
    return;
  }
  if (c === 123 || c === 91) {
    // Brackets are counted between strings; strings are jumped over.
    let depth = 0;
    while (pos < end) {
      const q = src.indexOf('"', pos);
      const stop = q < 0 ? end : q;
      for (; pos < stop; pos++) {
        const d = src.charCodeAt(pos);
        if (d === 123 || d === 91) depth++;
        else if (d === 125 || d === 93) {
          if (--depth === 0) {
            pos++;
            return;
          }
        }
      }
      if (q < 0) return;
      pos = stringEnd(src, q);
    }
    return;
  }
  // A number or a literal: up to the next delimiter.
  while (pos < end) {
    const d = src.charCodeAt(pos);
    if (d === 44 || d === 125 || d === 93 || d === 32 || d === 10 || d === 13 || d === 9) return;
    pos++;
  }
}
