/**
 * A fast reader for the plain block YAML that tool catalogues are written in: block mappings and
 * sequences, plain scalars (also over several lines), quoted scalars, literal and folded block
 * scalars, flow collections of scalars (also over several lines, as `required: [\n  a,\n  b\n]`)
 * and comments. It builds the same tree, data and duplicate-key problems as the full
 * parser (`yaml.ts`) — the same offsets to the character, as `test/fast-yaml.test.ts` checks over
 * the corpus, the examples, the fixtures and generated catalogues — several times faster, because
 * it reads each line once and builds no intermediate documents.
 *
 * Anything else (anchors, aliases, tags, directives, several documents, double-quoted scalars over
 * several lines, comments inside flow collections, explicit keys, tabs, CR line breaks, syntax
 * errors, …) makes it give up (`null`), and
 * the full parser reads the file. It never guesses.
 */
import type { ParseProblem, ParseResult, SNode } from './tree';
import { duplicateKey, endProperty, nodeToValue, startProperty } from './tree';

const SPECIAL = /[\x00-\x09\x0b-\x1f\x7f\x85\u2028\u2029\ufeff]/;

class GiveUp extends Error {}
const GIVE_UP = new GiveUp();

const MAX_DEPTH = 200;

/** The file as parsed by the fast reader, or `null` when it is not plain block YAML. */
export function readPlainYaml(text: string): ParseResult | null {
  // Tabs, CRs, control characters, byte-order marks and the Unicode line breaks all get special
  // treatment from the full parser.
  if (SPECIAL.test(text)) return null;
  try {
    return new Reader(text).document();
  } catch (e) {
    if (e === GIVE_UP || e instanceof RangeError) return null;
    throw e;
  }
}

/** A value and where it ends: `end` is yaml's value end, `nodeEnd` also takes in what follows on its line (and, for collections, the comment lines after it). */
interface Read {
  node: SNode;
  nodeEnd: number;
}

const NL = 10;
const SP = 32;
const HASH = 35;

class Reader {
  private readonly problems: ParseProblem[] = [];
  private readonly n: number;

  constructor(private readonly t: string) {
    this.n = t.length;
  }

  document(): ParseResult {
    const start = this.nextContent(0, true);
    if (start >= this.n) throw GIVE_UP;
    const line = this.t.lastIndexOf('\n', start - 1) + 1;
    const col = start - line;
    if (this.startsDirective(start)) throw GIVE_UP;
    const r = this.block(start, col, undefined, 0);
    // Nothing but blank and comment lines may follow.
    if (this.nextContent(r.nodeEnd) < this.n) throw GIVE_UP;
    const root = r.node;
    return { lang: 'yaml', docs: [{ root, data: nodeToValue(root) }], problems: this.problems, anchors: false };
  }

  // --- lines -------------------------------------------------------------------------------

  private lineEnd(p: number): number {
    const e = this.t.indexOf('\n', p);
    return e < 0 ? this.n : e;
  }

  /** Offset just past the line break of the line holding `p` (or the end). */
  private nextLine(p: number): number {
    const e = this.t.indexOf('\n', p);
    return e < 0 ? this.n : e + 1;
  }

  /** First non-space character at or after `p` on its line. */
  private skipSpaces(p: number): number {
    while (p < this.n && this.t.charCodeAt(p) === SP) p++;
    return p;
  }

  /**
   * The first character of the next line with content from a line start, over blank and comment
   * lines; the end if none. The full parser gives a comment line to the node before it when it is
   * indented deeper than the content that follows (or ends the file), which stretches that node's
   * range by rules of its own; such files are left to it. A comment at or left of the next
   * content's column changes no range, and neither does a comment before the document.
   */
  private nextContent(lineStart: number, header = false): number {
    let p = lineStart;
    let deepest = -1;
    while (p < this.n) {
      const c = this.skipSpaces(p);
      if (c >= this.n) break;
      const ch = this.t.charCodeAt(c);
      if (ch !== NL && ch !== HASH) {
        if (!header && c - p < deepest) throw GIVE_UP;
        return c;
      }
      if (ch === HASH && c - p > deepest) deepest = c - p;
      p = this.nextLine(c);
    }
    if (!header && deepest > 0) throw GIVE_UP;
    return this.n;
  }

  private columnOf(p: number): number {
    return p - (this.t.lastIndexOf('\n', p - 1) + 1);
  }

  private startsDirective(p: number): boolean {
    const t = this.t;
    if (this.columnOf(p) !== 0) return false;
    return t.charCodeAt(p) === 37 /* % */ || t.startsWith('---', p) || t.startsWith('...', p);
  }

  /** After a value on its line: spaces, an optional comment, then the line break. Returns the offset past the break. */
  private endOfLine(p: number): number {
    const q = this.skipSpaces(p);
    if (q >= this.n) return this.n;
    const ch = this.t.charCodeAt(q);
    if (ch === NL) return q + 1;
    if (ch === HASH && q > p) return this.nextLine(q);
    if (ch === HASH && q === p && p > 0 && this.t.charCodeAt(p - 1) === SP) return this.nextLine(q);
    throw GIVE_UP;
  }

  // --- block nodes -------------------------------------------------------------------------

  /** The block node whose first content character is at `p` (column `col`). */
  private block(p: number, col: number, parent: SNode | undefined, depth: number): Read {
    if (depth > MAX_DEPTH) throw GIVE_UP;
    if (this.isDash(p)) return this.seq(p, col, parent, depth);
    if (this.keyEnd(p) >= 0) return this.map(p, col, parent, depth);
    throw GIVE_UP;
  }

  private isDash(p: number): boolean {
    if (this.t.charCodeAt(p) !== 45 /* - */) return false;
    const c = this.t.charCodeAt(p + 1);
    return p + 1 >= this.n || c === SP || c === NL;
  }

  /**
   * If a mapping key starts at `p`: the offset of its `:`; else -1. Plain keys stop at the first
   * `: ` (or `:` at the line's end); quoted keys are one-line quoted scalars followed by `:`.
   */
  private keyEnd(p: number): number {
    const t = this.t;
    const c = t.charCodeAt(p);
    if (c === 34 /* " */ || c === 39 /* ' */) {
      const q = this.quotedEnd(p);
      if (q < 0 || t.charCodeAt(q) !== 58 /* : */) return -1;
      const after = t.charCodeAt(q + 1);
      return q + 1 >= this.n || after === SP || after === NL ? q : -1;
    }
    if (!plainStart(t, p)) return -1;
    const e = this.lineEnd(p);
    for (let i = p; i < e; i++) {
      const ch = t.charCodeAt(i);
      if (ch === 58 /* : */) {
        const after = t.charCodeAt(i + 1);
        if (i + 1 >= this.n || after === SP || after === NL) return t.charCodeAt(i - 1) === SP ? -1 : i;
      } else if (ch === HASH && t.charCodeAt(i - 1) === SP) return -1;
    }
    return -1;
  }

  private map(first: number, col: number, parent: SNode | undefined, depth: number): Read {
    const node: SNode = { type: 'object', offset: first, length: 0, children: [], parent };
    const seen = new Set<string>();
    let p = first;
    let valueEnd = first;
    for (;;) {
      const colon = this.keyEnd(p);
      if (colon < 0) throw GIVE_UP;
      const key = this.scalarKey(p, colon);
      const prop = startProperty(node, p, key.end, key.value, key.end);
      const v = this.value(colon + 1, col, prop, depth + 1, true);
      this.endMember(node, prop, v.node, seen);
      valueEnd = v.nodeEnd;
      const next = this.nextContent(v.nodeEnd);
      if (next >= this.n) break;
      const c = this.columnOf(next);
      if (c < col) break;
      if (c > col || this.startsDirective(next)) throw GIVE_UP;
      if (this.isDash(next)) {
        // A sequence at the keys' column belongs to the map's parent (or is an error).
        break;
      }
      p = next;
    }
    node.length = valueEnd - first;
    fit(node);
    // Blank lines after a collection are not part of it (comment lines are not read here).
    return { node, nodeEnd: valueEnd };
  }

  private seq(first: number, col: number, parent: SNode | undefined, depth: number): Read {
    const node: SNode = { type: 'array', offset: first, length: 0, children: [], parent };
    let p = first;
    let valueEnd = first;
    for (;;) {
      const v = this.value(p + 1, col, node, depth + 1, false);
      node.children!.push(v.node);
      valueEnd = v.nodeEnd;
      const next = this.nextContent(v.nodeEnd);
      if (next >= this.n) break;
      const c = this.columnOf(next);
      if (c < col) break;
      if (c > col || !this.isDash(next)) {
        if (c === col && !this.isDash(next)) break; // the parent map's next key (a compact sequence)
        throw GIVE_UP;
      }
      p = next;
    }
    node.length = valueEnd - first;
    fit(node);
    return { node, nodeEnd: valueEnd };
  }

  /**
   * The value after a key's `:` or a sequence's `-` (at `p`), in a block whose column is `col`.
   * `inMap`: a value of a mapping (which may be a sequence at the key's own column).
   */
  private value(p: number, col: number, parent: SNode, depth: number, inMap: boolean): Read {
    if (depth > MAX_DEPTH) throw GIVE_UP;
    const t = this.t;
    const q = this.skipSpaces(p);
    const ch = q < this.n ? t.charCodeAt(q) : NL;
    if (ch === NL || (ch === HASH && q > p)) {
      // Nothing on this line: a nested block below, or null.
      const lineNext = ch === NL ? Math.min(q + 1, this.n) : this.nextLine(q);
      const next = this.nextContent(lineNext);
      if (next < this.n) {
        const c = this.columnOf(next);
        if (c > col && !this.startsDirective(next)) {
          if (this.isDash(next) || this.keyEnd(next) >= 0) return this.block(next, c, parent, depth);
          throw GIVE_UP; // a multi-line plain scalar
        }
        if (c === col && inMap && this.isDash(next)) return this.seq(next, c, parent, depth);
      }
      // Comment lines after an empty value become part of it in the full parser (whatever their
      // column), which stretches the ranges around it: left to the full parser.
      if (this.commentBefore(lineNext)) throw GIVE_UP;
      // An empty value ends where it stands. With a comment after it on its line, the full parser
      // ends it at the next line's first character (past that line's indentation).
      let nodeEnd = q;
      if (ch === HASH && lineNext < this.n) {
        nodeEnd = this.skipSpaces(lineNext);
        if (nodeEnd >= this.n || this.t.charCodeAt(nodeEnd) === NL) throw GIVE_UP;
      } else if (ch === HASH) nodeEnd = this.n;
      return { node: { type: 'null', offset: q, length: 0, value: null, parent }, nodeEnd };
    }
    if (q === p && !inMap) throw GIVE_UP; // `-x` is not an item
    if (ch === HASH) throw GIVE_UP;
    if (!inMap && this.isDash(q)) throw GIVE_UP; // `- - x`
    if (!inMap && this.keyEnd(q) >= 0) return this.map(q, this.columnOf(q), parent, depth);
    if (ch === 124 /* | */ || ch === 62 /* > */) return this.blockScalar(q, col, parent);
    if (ch === 91 /* [ */ || ch === 123 /* { */) {
      const f = this.flow(q, parent, depth, col);
      return { node: f.node, nodeEnd: this.endOfLine(f.end) };
    }
    if (ch === 34 || ch === 39) {
      let end = this.quotedEnd(q);
      let value: string;
      if (end >= 0) value = this.quotedValue(q, end);
      else if (ch === 39) {
        // A single-quoted scalar over several lines, folded like a plain one.
        end = this.singleQuotedEnd(q, col);
        value = unfoldLines(t.slice(q + 1, end - 1)).replace(/''/g, "'");
      } else throw GIVE_UP;
      const node: SNode = { type: 'string', offset: q, length: end - q, value, parent };
      const nodeEnd = this.endOfLine(end);
      this.noContinuation(nodeEnd, col);
      return { node, nodeEnd };
    }
    if (!plainStart(t, q)) throw GIVE_UP;
    // A plain scalar to the end of the line (or a comment), and on over more indented lines.
    const e = this.lineEnd(q);
    let end = e;
    let comment = false;
    for (let i = q; i < e; i++) {
      const c = t.charCodeAt(i);
      if (c === HASH && t.charCodeAt(i - 1) === SP) {
        end = i;
        comment = true;
        break;
      }
      if (c === 58 /* : */ && (i + 1 >= e || t.charCodeAt(i + 1) === SP)) throw GIVE_UP;
    }
    while (end > q && t.charCodeAt(end - 1) === SP) end--;
    let lineNext = e >= this.n ? this.n : e + 1;
    if (!comment) {
      for (;;) {
        const more = this.continuation(lineNext, col);
        if (!more) break;
        end = more.end;
        lineNext = more.next;
      }
    }
    this.noContinuation(lineNext, col);
    const raw = t.slice(q, end);
    return { node: plainNode(raw.indexOf('\n') >= 0 ? unfoldLines(raw) : raw, q, end - q, parent), nodeEnd: lineNext };
  }

  /**
   * A continuation line of a plain scalar (after blank lines, if any): indented deeper than `col`,
   * plain text only. Returns where its text ends and the next line starts, or null.
   */
  private continuation(lineStart: number, col: number): { end: number; next: number } | null {
    const t = this.t;
    let p = lineStart;
    while (p < this.n) {
      const c = this.skipSpaces(p);
      if (c >= this.n) return null;
      const ch = t.charCodeAt(c);
      if (ch === NL) {
        p = c + 1;
        continue;
      }
      if (c - p <= col || ch === HASH) return null;
      // Text that could mean structure is left to the full parser.
      // A quote opening a continuation line is text ("(e.g.,\n  "a", "b")"): only the first line
      // of a plain scalar decides its kind.
      if ((!plainStart(t, c) && ch !== 34 && ch !== 39) || ((ch === 45 || ch === 63 || ch === 58) && t.charCodeAt(c + 1) === SP)) throw GIVE_UP;
      const e = this.lineEnd(c);
      for (let i = c; i < e; i++) {
        const x = t.charCodeAt(i);
        if ((x === HASH && t.charCodeAt(i - 1) === SP) || (x === 58 && (i + 1 >= e || t.charCodeAt(i + 1) === SP))) throw GIVE_UP;
      }
      let end = e;
      while (end > c && t.charCodeAt(end - 1) === SP) end--;
      return { end, next: e >= this.n ? this.n : e + 1 };
    }
    return null;
  }

  /** Past the closing quote of a single-quoted scalar over several lines (each indented deeper than `col`). */
  private singleQuotedEnd(p: number, col: number): number {
    const t = this.t;
    for (let i = p + 1; i < this.n; i++) {
      const c = t.charCodeAt(i);
      if (c === 39) {
        if (t.charCodeAt(i + 1) === 39) i++;
        else return i + 1;
      } else if (c === NL) {
        const s = this.skipSpaces(i + 1);
        if (s < this.n && t.charCodeAt(s) !== NL && s - (i + 1) <= col) throw GIVE_UP;
      }
    }
    throw GIVE_UP;
  }

  /** Whether a comment line comes (after blank lines) before the next content line. */
  private commentBefore(lineStart: number): boolean {
    let p = lineStart;
    while (p < this.n) {
      const c = this.skipSpaces(p);
      if (c >= this.n) return false;
      const ch = this.t.charCodeAt(c);
      if (ch === HASH) return true;
      if (ch !== NL) return false;
      p = c + 1;
    }
    return false;
  }

  /** A one-line scalar must not go on below (a more indented line would continue it). */
  private noContinuation(lineStart: number, col: number): void {
    let p = lineStart;
    while (p < this.n) {
      const c = this.skipSpaces(p);
      if (c >= this.n) return;
      const ch = this.t.charCodeAt(c);
      if (ch === NL) {
        p = c + 1;
        continue;
      }
      if (ch === HASH) return;
      if (c - p > col) throw GIVE_UP;
      return;
    }
  }

  private scalarKey(p: number, colon: number): { value: string; end: number } {
    const t = this.t;
    const c = t.charCodeAt(p);
    if (c === 34 || c === 39) return { value: this.quotedValue(p, colon), end: colon };
    const raw = t.slice(p, colon);
    const v = resolvePlain(raw);
    return { value: v === null ? '' : String(v), end: colon };
  }

  // --- block scalars -----------------------------------------------------------------------

  private blockScalar(p: number, col: number, parent: SNode): Read {
    const t = this.t;
    const folded = t.charCodeAt(p) === 62;
    let i = p + 1;
    let chomp: 'clip' | 'strip' | 'keep' = 'clip';
    const h = t.charCodeAt(i);
    if (h === 45 /* - */) {
      chomp = 'strip';
      i++;
    } else if (h === 43 /* + */) {
      chomp = 'keep';
      i++;
    }
    const after = t.charCodeAt(i);
    if (i < this.n && after !== NL && after !== SP) throw GIVE_UP; // indentation indicators and the rest
    let lineStart = this.endOfLine(i);
    // Content lines: the first non-empty one sets the indentation, which must be deeper than `col`.
    let indent = -1;
    const lines: string[] = [];
    let lastContentEnd = lineStart; // past the break of the last non-empty line
    let end = lineStart;
    while (lineStart < this.n) {
      const s = this.skipSpaces(lineStart);
      const e = this.lineEnd(lineStart);
      const spaces = s - lineStart;
      if (s >= e) {
        // An empty (or spaces-only) line: part of the scalar if it is not past the end.
        if (indent >= 0 && spaces > indent) throw GIVE_UP; // spaces that would be content
        if (indent < 0 && spaces > 0) throw GIVE_UP;
        lines.push('');
        lineStart = e >= this.n ? this.n : e + 1;
        end = lineStart;
        continue;
      }
      if (indent < 0) {
        if (spaces <= col) break;
        indent = spaces;
      } else if (spaces < indent) break;
      lines.push(t.slice(lineStart + indent, e));
      lineStart = e >= this.n ? this.n : e + 1;
      lastContentEnd = lineStart;
      end = lineStart;
    }
    if (indent < 0) throw GIVE_UP; // no content: rare, leave it to the full parser
    // Trailing empty lines: kept by `+`, otherwise outside the value's range.
    let trailing = 0;
    while (lines.length > 0 && lines[lines.length - 1] === '') {
      lines.pop();
      trailing++;
    }
    // Leading empty lines are content (newlines).
    let body: string;
    if (folded) {
      // Line breaks between two lines of text become spaces, a run of empty lines keeps one break
      // fewer, and the breaks around a more-indented line are kept (as the full parser folds).
      body = '';
      let k = 0;
      while (k < lines.length && lines[k] === '') {
        body += '\n';
        k++;
      }
      let sep = '';
      let prevMore = false;
      for (; k < lines.length; k++) {
        const l = lines[k];
        if (l.charCodeAt(0) === SP) {
          if (sep === ' ') sep = '\n';
          else if (!prevMore && sep === '\n') sep = '\n\n';
          body += sep + l;
          sep = '\n';
          prevMore = true;
        } else if (l === '') {
          if (sep === '\n') body += '\n';
          else sep = '\n';
        } else {
          body += sep + l;
          sep = ' ';
          prevMore = false;
        }
      }
    } else body = lines.join('\n');
    // The last line ends with a break even at the end of a file without one (as the full parser reads it).
    const lastHasBreak = true;
    let value: string;
    let valueEnd: number;
    if (chomp === 'strip') {
      value = body;
      valueEnd = lastContentEnd;
    } else if (chomp === 'clip') {
      value = lastHasBreak ? body + '\n' : body;
      valueEnd = lastContentEnd;
    } else {
      value = body + (lastHasBreak ? '\n' : '') + '\n'.repeat(trailing);
      valueEnd = end;
      if (trailing > 0 && t.charCodeAt(end - 1) !== NL) throw GIVE_UP;
      if (lastContentEnd >= this.n && t.charCodeAt(this.n - 1) !== NL) throw GIVE_UP;
    }
    return { node: { type: 'string', offset: p, length: valueEnd - p, value, parent }, nodeEnd: valueEnd };
  }

  // --- quoted scalars ----------------------------------------------------------------------

  /** Offset just past the closing quote of a one-line quoted scalar at `p`; -1 if it does not close on its line. */
  private quotedEnd(p: number): number {
    const t = this.t;
    const q = t.charCodeAt(p);
    const e = this.lineEnd(p);
    for (let i = p + 1; i < e; i++) {
      const c = t.charCodeAt(i);
      if (q === 39) {
        if (c === 39) {
          if (t.charCodeAt(i + 1) === 39) i++;
          else return i + 1;
        }
      } else if (c === 92 /* \ */) i++;
      else if (c === 34) return i + 1;
    }
    return -1;
  }

  private quotedValue(p: number, end: number): string {
    const t = this.t;
    const inner = t.slice(p + 1, end - 1);
    if (t.charCodeAt(p) === 39) return inner.replace(/''/g, "'");
    if (inner.indexOf('\\') < 0) return inner;
    return inner.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_m, e: string) => {
      switch (e[0]) {
        case 'n':
          return '\n';
        case 't':
          return '\t';
        case 'r':
          return '\r';
        case 'b':
          return '\b';
        case 'f':
          return '\f';
        case '0':
          return '\0';
        case '"':
        case '\\':
        case '/':
        case ' ':
          return e[0];
        case 'u':
        case 'x':
          if (e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
          throw GIVE_UP;
        default:
          throw GIVE_UP;
      }
    });
  }

  /** Completes a mapping member begun by `startProperty` with its value; a key seen before is a problem. */
  private endMember(node: SNode, prop: SNode, value: SNode, seen: Set<string>): void {
    node.children!.push(endProperty(prop, value));
    const keyNode = prop.children![0];
    const key = keyNode.value as string;
    if (seen.has(key)) this.problems.push(duplicateKey(key, keyNode.offset, keyNode.length));
    seen.add(key);
  }

  // --- flow collections ----------------------------------------------------------------------

  /**
   * The next token of a flow collection at or after `i`: past spaces and line breaks. A new line
   * must be indented deeper than the block column `col` (the full parser reports anything less),
   * except a line that starts with the closing bracket, which may stand at `col`. Comments, and
   * the end of the text, are left to the full parser.
   */
  private flowNext(i: number, col: number, close: number): number {
    const t = this.t;
    for (;;) {
      i = this.skipSpaces(i);
      if (i >= this.n) throw GIVE_UP;
      const c = t.charCodeAt(i);
      if (c === HASH) throw GIVE_UP;
      if (c !== NL) return i;
      const lineStart = i + 1;
      const s = this.skipSpaces(lineStart);
      if (s >= this.n) throw GIVE_UP;
      const ch = t.charCodeAt(s);
      if (ch !== NL && !(s - lineStart > col || (ch === close && s - lineStart >= col))) throw GIVE_UP;
      i = s;
    }
  }

  private flow(p: number, parent: SNode, depth: number, col: number): { node: SNode; end: number } {
    if (depth > MAX_DEPTH) throw GIVE_UP;
    const t = this.t;
    const isMap = t.charCodeAt(p) === 123;
    const close = isMap ? 125 : 93;
    const node: SNode = { type: isMap ? 'object' : 'array', offset: p, length: 0, children: [], parent };
    let i = this.flowNext(p + 1, col, close);
    if (t.charCodeAt(i) === close) {
      node.length = i + 1 - p;
      return { node, end: i + 1 };
    }
    const seen = isMap ? new Set<string>() : null;
    for (;;) {
      if (isMap) {
        const k = this.flowScalar(i, node, true);
        if (k.node.type === 'null') throw GIVE_UP;
        i = this.skipSpaces(k.end);
        if (t.charCodeAt(i) !== 58 || t.charCodeAt(i + 1) !== SP) throw GIVE_UP;
        const prop = startProperty(node, k.node.offset, k.end, k.node.value === null ? '' : String(k.node.value), k.end);
        const at = this.skipSpaces(i + 1);
        if (t.charCodeAt(at) === NL) throw GIVE_UP; // a value on the next line
        const v = this.flowItem(at, prop, depth, col);
        this.endMember(node, prop, v.node, seen!);
        i = this.flowNext(v.end, col, close);
      } else {
        const v = this.flowItem(i, node, depth, col);
        node.children!.push(v.node);
        i = this.flowNext(v.end, col, close);
      }
      const c = t.charCodeAt(i);
      if (c === close) {
        node.length = i + 1 - p;
        fit(node);
        return { node, end: i + 1 };
      }
      if (c !== 44 /* , */) throw GIVE_UP;
      i = this.flowNext(i + 1, col, close);
      const d = t.charCodeAt(i);
      if (d === 44) throw GIVE_UP; // an empty entry
      if (d === close) {
        // A trailing comma closes a sequence like no comma at all.
        if (isMap) throw GIVE_UP;
        node.length = i + 1 - p;
        fit(node);
        return { node, end: i + 1 };
      }
    }
  }

  private flowItem(i: number, parent: SNode, depth: number, col: number): { node: SNode; end: number } {
    const t = this.t;
    const c = t.charCodeAt(i);
    if (c === 91 || c === 123) return this.flow(i, parent, depth + 1, col);
    const s = this.flowScalar(i, parent, false);
    if (s.node.type === 'null' && s.end === i) throw GIVE_UP;
    // A plain scalar that ends its line would go on over the next one (`[a\n b]` is one item).
    if (c !== 34 && c !== 39 && t.charCodeAt(this.skipSpaces(s.end)) === NL) throw GIVE_UP;
    return s;
  }

  /** A quoted or plain scalar inside a flow collection. */
  private flowScalar(i: number, parent: SNode, isKey: boolean): { node: SNode; end: number } {
    const t = this.t;
    const e = this.lineEnd(i);
    const c = t.charCodeAt(i);
    if (c === 34 || c === 39) {
      const end = this.quotedEnd(i);
      if (end < 0) throw GIVE_UP;
      return { node: { type: 'string', offset: i, length: end - i, value: this.quotedValue(i, end), parent }, end };
    }
    if (!plainStart(t, i)) throw GIVE_UP;
    let j = i;
    for (; j < e; j++) {
      const ch = t.charCodeAt(j);
      if (ch === 44 || ch === 91 || ch === 93 || ch === 123 || ch === 125) break;
      if (ch === HASH && t.charCodeAt(j - 1) === SP) throw GIVE_UP;
      if (ch === 58 /* : */) {
        const after = t.charCodeAt(j + 1);
        if (after === SP || after === 44 || after === 93 || after === 125) {
          if (!isKey) throw GIVE_UP; // a pair inside a sequence
          break;
        }
      }
    }
    let end = j;
    while (end > i && t.charCodeAt(end - 1) === SP) end--;
    if (end === i) throw GIVE_UP;
    return { node: plainNode(t.slice(i, end), i, end - i, parent), end };
  }
}

/**
 * A finished collection's children in an array of exactly their number: arrays grown by `push`
 * keep room for more, which on a large catalogue is much of the tree's memory, all of it copied
 * by the garbage collector.
 */
function fit(node: SNode): void {
  const kids = node.children!;
  if (kids.length > 0) node.children = kids.slice();
}

/** Whether a plain scalar may start at `p` (no indicator that means something else). */
function plainStart(t: string, p: number): boolean {
  const c = t.charCodeAt(p);
  switch (c) {
    case 35: // #
    case 38: // &
    case 42: // *
    case 33: // !
    case 124: // |
    case 62: // >
    case 39: // '
    case 34: // "
    case 37: // %
    case 64: // @
    case 96: // `
    case 91: // [
    case 93: // ]
    case 123: // {
    case 125: // }
    case 44: // ,
      return false;
    case 45: // -
    case 63: // ?
    case 58: {
      // :
      const n = t.charCodeAt(p + 1);
      return !(Number.isNaN(n) || n === SP || n === NL);
    }
    default:
      return !Number.isNaN(c) && c !== SP && c !== NL;
  }
}

function plainNode(value: string, offset: number, length: number, parent: SNode): SNode {
  const v = resolvePlain(value);
  const type = v === null ? 'null' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string';
  return { type, offset, length, value: v, parent };
}

/**
 * Folds the lines of a plain or single-quoted scalar as YAML does: line breaks become spaces,
 * each run of empty lines one line break less; the spaces around the breaks go.
 */
export function unfoldLines(source: string): string {
  const lines = source.split('\n');
  if (lines.length === 1) return source;
  let res = lines[0].replace(/[ ]+$/, '');
  let sep = ' ';
  for (let i = 1; i < lines.length - 1; i++) {
    const lm = lines[i].replace(/^[ ]+|[ ]+$/g, '');
    if (lm === '') {
      if (sep === '\n') res += sep;
      else sep = '\n';
    } else {
      res += sep + lm;
      sep = ' ';
    }
  }
  return res + sep + lines[lines.length - 1].replace(/^[ ]+/, '');
}

const NULL_RE = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL_RE = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const OCT_RE = /^0o[0-7]+$/;
const INT_RE = /^[-+]?[0-9]+$/;
const HEX_RE = /^0x[0-9a-fA-F]+$/;
const NAN_RE = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const EXP_RE = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT_RE = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** A plain scalar under the YAML 1.2 core schema, in the order `yaml` tries its tags. */
export function resolvePlain(s: string): string | number | boolean | null {
  const c = s.charCodeAt(0);
  // Most scalars are words: only these first characters can start a non-string.
  if (!(c === 126 || c === 78 || c === 110 || c === 84 || c === 116 || c === 70 || c === 102 || c === 43 || c === 45 || c === 46 || (c >= 48 && c <= 57)) && s.length > 0) return s;
  if (NULL_RE.test(s)) return null;
  if (BOOL_RE.test(s)) return s[0] === 't' || s[0] === 'T';
  if (OCT_RE.test(s)) return parseInt(s.substring(2), 8);
  if (INT_RE.test(s)) return parseInt(s, 10);
  if (HEX_RE.test(s)) return parseInt(s.substring(2), 16);
  if (NAN_RE.test(s)) return s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? -Infinity : Infinity;
  if (EXP_RE.test(s)) return parseFloat(s);
  if (FLOAT_RE.test(s)) return parseFloat(s);
  return s;
}
