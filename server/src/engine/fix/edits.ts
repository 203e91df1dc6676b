/**
 * Declarative edit operations (`EditOp`) to minimal text edits on a file's source.
 *
 * A rule says what should change in the data ("remove `/required/2`"); this module finds the
 * entry in the source tree and writes the smallest text edit that makes the change, so comments,
 * quoting and layout of everything else survive. The document is never re-serialised.
 *
 * Every answer is checked before it is given: the edits are applied, the text is re-parsed, and
 * the new data is compared with the data the ops describe. An edit that would not produce that
 * data (a layout this module misjudged) or that would add a parse error is refused (`null`), so a
 * fix is either exact or absent — never a corruption.
 */
import type { SourceFile } from '../model';
import { findProperty, nodeToValue, parseText, type ParseResult, type SNode } from '../parse';
import type { EditOp } from '../rules/api';
import type { JsonPath, TextEdit } from '../types';

export interface OpsToEditsOptions {
  /**
   * Re-parse the edited text and compare its data with the ops' intent (default true). Costs one
   * parse of the file; callers that check many fixes at once plan them with `planEdits` and
   * check them together with `verifyPlans`.
   */
  verify?: boolean;
}

/** The edits of one fix, with what is needed to check them later (see `verifyPlans`). */
export interface EditPlan {
  readonly doc: number;
  readonly ops: readonly EditOp[];
  /** Sorted, non-overlapping; empty when the ops are already carried out. */
  readonly edits: readonly TextEdit[];
  /** Values expected at some ops' paths where YAML folding decides the result (opaque). */
  readonly expects: ReadonlyMap<number, unknown>;
}

/**
 * Text edits (offsets into `file.text`) that carry out `ops` on document `doc`, sorted and
 * non-overlapping; `[]` when the ops change nothing (already applied); `null` when an op cannot
 * be applied safely: its path is missing, the source has a shape this module does not edit, two
 * ops collide, or the result would not parse to the intended data.
 *
 * Paths of all ops refer to the document as it is now (not as left by the previous op).
 */
export function opsToEdits(file: SourceFile, doc: number, ops: readonly EditOp[], options: OpsToEditsOptions = {}): TextEdit[] | null {
  const plan = planEdits(file, doc, ops);
  if (!plan) return null;
  if (plan.edits.length > 0 && options.verify !== false && !verifyPlans(file, [plan])) return null;
  return [...plan.edits];
}

/** `opsToEdits` without the final check: the edits, or null when an op cannot be resolved. */
export function planEdits(file: SourceFile, doc: number, ops: readonly EditOp[]): EditPlan | null {
  try {
    const src = new Source(file, doc);
    const planned: Planned[] = [];
    const expects = new Map<number, unknown>();
    ops.forEach((op, i) => {
      const r = src.resolve(op);
      planned.push(...r.edits);
      if (r.expect) expects.set(i, r.expect);
    });
    const edits = mergeEdits(file.text, planned);
    return edits && { doc, ops, edits, expects };
  } catch (e) {
    if (e instanceof Refused) return null;
    throw e;
  }
}

/**
 * Whether the plans, applied together (their edits must not overlap), leave a file that parses
 * with no more parse errors or duplicate keys than before, and whose data is what the plans' ops
 * describe: one parse for any number of fixes. A document touched by a raw `text` op is only
 * checked for parsing (such an op says nothing about data).
 */
export function verifyPlans(file: SourceFile, plans: readonly EditPlan[]): boolean {
  const after = parseText(applyEdits(file.text, plans.flatMap((p) => p.edits)), file.lang);
  const before = file.parsed;
  if (countKind(after, 'parse-error') > countKind(before, 'parse-error')) return false;
  if (countKind(after, 'duplicate-key') > countKind(before, 'duplicate-key')) return false;
  if (after.docs.length !== before.docs.length) return false;
  for (let d = 0; d < before.docs.length; d++) {
    const mine = plans.filter((p) => p.doc === d);
    const ops = mine.flatMap((p) => p.ops);
    if (ops.length === 0) {
      if (!deepEqual(after.docs[d].data, before.docs[d].data)) return false;
      continue;
    }
    if (ops.some((o) => o.op === 'text')) continue;
    // Ops of several plans are numbered in one sequence, so each plan's expectations move along.
    const expects = new Map<number, unknown>();
    let base = 0;
    for (const p of mine) {
      for (const [i, v] of p.expects) expects.set(base + i, v);
      base += p.ops.length;
    }
    let expected: unknown;
    try {
      expected = simulate(before.docs[d].data, ops, expects);
    } catch (e) {
      if (e instanceof Refused) return false;
      throw e;
    }
    if (!deepEqual(after.docs[d].data, expected)) return false;
  }
  return true;
}

/**
 * The text with `edits` applied. Edits must not overlap; insertions at one offset keep their
 * order in the list. Equivalent to applying them from the end of the text backwards, but built
 * front to back in one pass.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = edits.map((e, i) => ({ e, i })).sort((x, y) => x.e.start - y.e.start || x.e.end - y.e.end || x.i - y.i);
  let out = '';
  let pos = 0;
  for (const { e } of sorted) {
    if (e.start < pos || e.end < e.start || e.end > text.length) throw new RangeError(`Overlapping or out-of-range edit at ${e.start}..${e.end}`);
    out += text.slice(pos, e.start) + e.text;
    pos = e.end;
  }
  return out + text.slice(pos);
}

// ---------------------------------------------------------------------------------------------
// Internals

/** Thrown while resolving an op that cannot be applied safely; `planEdits` turns it into null. */
class Refused extends Error {}

function refuse(why: string): never {
  throw new Refused(why);
}

/** An edit, plus how it may sit next to another edit at the same offset (see `mergeEdits`). */
interface Planned extends TextEdit {
  /** An insertion that may be concatenated with other `chain` insertions at the same offset. */
  chain?: boolean;
  /** An insertion of whole lines at a line start: it may touch a removal of whole lines. */
  line?: boolean;
  /**
   * For YAML block lines, how deep the first line sits (indent, then `- ` items below keys at the
   * same column). Lines inserted at one offset go deepest first: an item appended to a nested
   * sequence must come before a member appended to the mapping that holds it.
   */
  depth?: number;
}

/** Values the data at a path may take after an op whose exact result depends on YAML folding. */
class OneOf {
  constructor(readonly values: unknown[]) {}
}

interface Resolved {
  edits: Planned[];
  /** Replaces the simulated value at the op's path when verifying (block-scalar appends). */
  expect?: OneOf;
}

interface Located {
  /** The value node at the path. */
  node: SNode;
  /** The node that sits in the container's children: a property node for object members. */
  entry: SNode;
  /** The object or array holding the entry; undefined for the document root. */
  container?: SNode;
}

type Ctx = 'block' | 'flow';

const end = (n: SNode): number => n.offset + n.length;
const pad = (n: number): string => ' '.repeat(Math.max(0, n));
const isWs = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const isCollection = (n: SNode): boolean => n.type === 'object' || n.type === 'array';

/** Characters a YAML plain or single-quoted scalar cannot hold (no escapes there). */
const UNESCAPABLE = /[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/;
/** Same, for block scalar content, which may hold tabs and (in `|`) line breaks. */
const BLOCK_UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/;

class Source {
  readonly text: string;
  readonly json: boolean;
  readonly root: SNode | undefined;
  /** The file's line break: new lines are written with it, so CRLF files stay CRLF. */
  readonly nl: string;
  private readonly file: SourceFile;
  private unitCache: number | undefined;
  private colonCache: string | undefined;

  constructor(file: SourceFile, doc: number) {
    this.file = file;
    this.text = file.text;
    this.json = file.lang === 'json';
    this.root = file.root(doc);
    this.nl = /\r?\n/.exec(this.text)?.[0] ?? '\n';
  }

  resolve(op: EditOp): Resolved {
    switch (op.op) {
      case 'remove':
        return { edits: this.remove(op.path) };
      case 'removeItemValue':
        return { edits: this.removeItemValue(op.path, op.value) };
      case 'set':
        return { edits: this.set(op.path, op.value) };
      case 'appendText':
        return this.appendText(op.path, op.text);
      case 'addItem':
        return { edits: this.addItem(op.path, op.value) };
      case 'renameKey':
        return { edits: this.renameKey(op.path, op.key) };
      case 'replaceString':
        return { edits: this.replaceString(op.path, op.value) };
      case 'text': {
        const ok = Number.isInteger(op.start) && Number.isInteger(op.end) && op.start >= 0 && op.start <= op.end && op.end <= this.text.length;
        if (!ok || typeof op.text !== 'string') refuse('raw edit out of range');
        return { edits: [{ start: op.start, end: op.end, text: op.text }] };
      }
      default:
        return refuse('unknown op');
    }
  }

  // ----- ops ----------------------------------------------------------------------------------

  private remove(path: JsonPath): Planned[] {
    if (path.length === 0) refuse('cannot remove the document');
    const loc = this.locate(path);
    if (!loc?.container) return refuse('path not found');
    return this.removeEntry(loc.container, loc.entry);
  }

  private removeItemValue(path: JsonPath, value: unknown): Planned[] {
    const loc = this.locate(path);
    if (!loc || loc.node.type !== 'array') return refuse('not an array');
    const item = (loc.node.children ?? []).find((c) => deepEqual(nodeToValue(c), value));
    return item ? this.removeEntry(loc.node, item) : [];
  }

  private set(path: JsonPath, value: unknown): Planned[] {
    checkValue(value, this.json, 0);
    const loc = this.locate(path);
    if (loc) {
      if (deepEqual(nodeToValue(loc.node), value)) return [];
      // A string over a scalar keeps the scalar's quoting (a renamed tool keeps its quotes).
      if (typeof value === 'string' && !isCollection(loc.node)) return this.replaceStringNode(loc.node, value);
      return this.replaceValue(loc.node, value);
    }
    if (path.length === 0) return refuse('no document');
    const parent = this.locate(path.slice(0, -1));
    if (!parent) return refuse('parent not found');
    const key = path[path.length - 1];
    if (parent.node.type === 'object') return this.insertMember(parent.node, String(key), value);
    if (parent.node.type === 'array' && Number(key) === (parent.node.children ?? []).length) return this.appendItem(parent.node, value);
    return refuse('parent is not an object');
  }

  private addItem(path: JsonPath, value: unknown): Planned[] {
    checkValue(value, this.json, 0);
    const loc = this.locate(path);
    if (!loc) return this.set(path, [value]);
    const n = loc.node;
    if (n.type === 'null') return this.replaceValue(n, [value]);
    if (n.type !== 'array') return refuse('not an array');
    // Present already: a fix that re-adds would never converge under `--fix`.
    if ((n.children ?? []).some((c) => deepEqual(nodeToValue(c), value))) return [];
    return this.appendItem(n, value);
  }

  private appendText(path: JsonPath, add: string): Resolved {
    const loc = this.locate(path);
    if (!loc) return refuse('path not found');
    const v = loc.node;
    if (v.type !== 'string' || typeof v.value !== 'string') return refuse('not a string');
    const old = v.value;
    // Already there (the fix was applied: keeps `--fix` convergent), or nothing to see.
    if (add.trim() === '' || old.trimEnd().endsWith(add.trim())) return { edits: [] };
    const close = end(v) - 1;
    if (this.json) {
      if (this.text[close] !== '"') refuse('not a JSON string');
      return { edits: [{ start: close, end: close, text: JSON.stringify(add).slice(1, -1), chain: true }] };
    }
    const c = this.text[v.offset];
    if (c === '|' || c === '>') return this.appendBlock(v, old, add);
    if (c === '"' && this.text[close] === '"' && this.closesOnLine(v)) {
      return { edits: [{ start: close, end: close, text: yamlDouble(add).slice(1, -1), chain: true }] };
    }
    if (c === "'" && this.text[close] === "'" && this.closesOnLine(v) && !UNESCAPABLE.test(add)) {
      return { edits: [{ start: close, end: close, text: add.replace(/'/g, "''"), chain: true }] };
    }
    const next = old + add;
    const plain = c !== '"' && c !== "'" && c !== '*';
    if (plain && this.lineOf(v.offset) === this.lineOf(close) && plainSafe(next, this.inFlow(v) ? 'flow' : 'block')) {
      return { edits: [{ start: end(v), end: end(v), text: add, chain: true }] };
    }
    // Plain scalars cannot hold `: `, ` #`, quotes or line breaks; a double-quoted string can.
    return { edits: [{ start: v.offset, end: end(v), text: yamlDouble(next) }] };
  }

  private renameKey(path: JsonPath, key: string): Planned[] {
    if (path.length === 0) refuse('no key');
    const parent = this.locate(path.slice(0, -1));
    if (!parent || parent.node.type !== 'object') return refuse('parent is not an object');
    const obj = parent.node;
    const oldKey = String(path[path.length - 1]);
    const prop = findProperty(obj, oldKey);
    if (!prop) {
      if (findProperty(obj, key)) return [];
      return refuse('key not found');
    }
    if (oldKey === key) return [];
    if (findProperty(obj, key)) refuse('the new key exists');
    const k = prop.children?.[0];
    if (!k) return refuse('no key node');
    this.within(prop, obj);
    return [{ start: k.offset, end: end(k), text: this.keyText(k, key, this.json || this.isFlow(obj) ? 'flow' : 'block') }];
  }

  private replaceString(path: JsonPath, value: string): Planned[] {
    if (typeof value !== 'string') refuse('not a string');
    const loc = this.locate(path);
    if (!loc) return refuse('path not found');
    if (isCollection(loc.node)) refuse('not a scalar');
    if (loc.node.value === value) return [];
    return this.replaceStringNode(loc.node, value);
  }

  // ----- finding nodes -----------------------------------------------------------------------

  /**
   * The node at `path`. Unlike `findNode`, it checks that every node lies inside its parent's
   * text: a YAML alias's copy keeps the anchor's children, and an edit there would change the
   * anchor and every other alias of it.
   */
  private locate(path: JsonPath): Located | undefined {
    if (!this.root) return undefined;
    let node: SNode = this.root;
    let entry: SNode = node;
    let container: SNode | undefined;
    for (const seg of path) {
      if (node.type === 'object') {
        const prop = findProperty(node, String(seg));
        const value = prop?.children?.[1];
        if (!prop || !value) return undefined;
        this.within(prop, node);
        this.within(value, prop);
        container = node;
        entry = prop;
        node = value;
      } else if (node.type === 'array') {
        const idx = typeof seg === 'number' ? seg : /^\d+$/.test(seg) ? Number(seg) : NaN;
        const item: SNode | undefined = Number.isInteger(idx) ? node.children?.[idx] : undefined;
        if (!item) return undefined;
        this.within(item, node);
        container = node;
        entry = item;
        node = item;
      } else {
        return undefined;
      }
    }
    return { node, entry, container };
  }

  private within(child: SNode, parent: SNode): void {
    if (child.offset < parent.offset || end(child) > end(parent)) refuse('inside an alias');
  }

  // ----- text geometry ------------------------------------------------------------------------

  private lineOf(offset: number): number {
    return this.file.lines.lineOf(offset);
  }

  private column(offset: number): number {
    return offset - this.file.lines.lineStart(this.lineOf(offset));
  }

  /** Leading blanks of the line holding `offset`. */
  private lineIndent(offset: number): string {
    const start = this.file.lines.lineStart(this.lineOf(offset));
    return /^[ \t]*/.exec(this.text.slice(start, this.file.lines.lineEnd(this.lineOf(offset))))?.[0] ?? '';
  }

  /** End of the last non-blank character of a node (block nodes' ranges include line breaks). */
  private contentEnd(n: SNode): number {
    let i = end(n);
    while (i > n.offset && isWs(this.text[i - 1])) i--;
    return i;
  }

  /** A flow collection (`{…}`, `[…]`; all of JSON). A block node inside flow is an implicit pair. */
  private isFlow(n: SNode): boolean {
    if (this.json) return true;
    const c = this.text[n.offset];
    if ((c === '{' || c === '[') && isCollection(n)) return true;
    for (let p = n.parent; p; p = p.parent) if (isCollection(p) && (this.text[p.offset] === '{' || this.text[p.offset] === '[')) refuse('implicit pair in a flow collection');
    return false;
  }

  /** Whether a value node sits inside a flow collection (its plain scalars must avoid `,[]{}`). */
  private inFlow(v: SNode): boolean {
    if (this.json) return true;
    let p = v.parent;
    if (p?.type === 'property') p = p.parent;
    return p ? this.isFlow(p) : false;
  }

  /** Offset of a block sequence item's `-`, skipping an anchor or tag written after it. */
  private dashOf(item: SNode): number {
    let i = item.offset;
    for (;;) {
      while (i > 0 && isWs(this.text[i - 1])) i--;
      if (i === 0) refuse('no sequence indicator');
      if (this.text[i - 1] === '-' && (i === 1 || isWs(this.text[i - 2])) && (i === item.offset || isWs(this.text[i]))) return i - 1;
      let j = i;
      while (j > 0 && !isWs(this.text[j - 1])) j--;
      const c = this.text[j];
      if (j < i && (c === '&' || c === '!')) {
        i = j;
        continue;
      }
      return refuse('no sequence indicator');
    }
  }

  /** Offset of a YAML property's `:`. */
  private colonOf(prop: SNode): number {
    const k = prop.children?.[0];
    if (!k) return refuse('no key');
    let i = end(k);
    while (this.text[i] === ' ' || this.text[i] === '\t') i++;
    if (this.text[i] !== ':') refuse('no `:` after the key');
    return i;
  }

  /** The indicator that introduces a block value: its key's `:` or its sequence `-`. */
  private indicatorBefore(v: SNode): number | undefined {
    const p = v.parent;
    if (!p) return undefined;
    if (p.type === 'property') return this.colonOf(p);
    if (p.type === 'array' && !this.isFlow(p)) return this.dashOf(v);
    return undefined;
  }

  /** Where an entry's text starts: its key, or its `-`. */
  private entryStart(container: SNode, e: SNode): number {
    return container.type === 'object' ? e.offset : this.dashOf(e);
  }

  /** The last line of an entry (a keep-chomped block scalar owns its trailing blank lines). */
  private entryLastLine(container: SNode, e: SNode): number {
    const v = e.type === 'property' ? e.children?.[1] : e;
    if (v && v.type === 'string' && /^[|>][1-9]?\+/.test(this.text.slice(v.offset, v.offset + 3))) return this.lineOf(end(v) - 1);
    const start = this.entryStart(container, e);
    return this.lineOf(Math.max(this.contentEnd(e), start + 1) - 1);
  }

  /** Whether a quoted scalar's closing quote follows text on its line (else it ends a fold). */
  private closesOnLine(v: SNode): boolean {
    const close = end(v) - 1;
    const ls = this.file.lines.lineStart(this.lineOf(close));
    return ls <= v.offset || this.text.slice(ls, close).trim() !== '';
  }

  /** YAML indentation step: the smallest indent of a block under a `key:` line (default 2). */
  private get unit(): number {
    if (this.unitCache !== undefined) return this.unitCache;
    let best = Infinity;
    let opener: number | null = null;
    for (const line of this.text.split(/\r?\n|\r/)) {
      const m = /^( *)((?:- +)*)(.*)$/.exec(line);
      if (!m || m[3] === '' || m[3].startsWith('#')) continue;
      const lead = m[1].length;
      if (opener !== null && lead > opener) best = Math.min(best, lead - opener);
      opener = /:[ \t]*(?:#.*)?$/.test(m[3]) ? lead + m[2].length : null;
    }
    return (this.unitCache = best >= 1 && best <= 8 ? best : 2);
  }

  /** JSON indentation step: the first indented line's leading blanks (default two spaces). */
  private get jsonUnit(): string {
    return /^([ \t]+)\S/m.exec(this.text)?.[1] ?? '  ';
  }

  /** What separates a JSON key from its value in this file (`: ` or `:`). */
  private get colonSep(): string {
    if (this.colonCache !== undefined) return this.colonCache;
    let sep = ': ';
    const stack = this.root ? [this.root] : [];
    for (let n = stack.pop(), seen = 0; n && seen < 1000; n = stack.pop(), seen++) {
      if (n.type === 'property' && n.children?.length === 2) {
        const gap = this.text.slice(end(n.children[0]), n.children[1].offset);
        if (/^[ \t]*:[ \t]*$/.test(gap)) sep = gap;
        break;
      }
      if (n.children) stack.push(...[...n.children].reverse());
    }
    return (this.colonCache = sep);
  }

  // ----- removal ------------------------------------------------------------------------------

  private removeEntry(c: SNode, e: SNode): Planned[] {
    const kids = c.children ?? [];
    const i = kids.indexOf(e);
    if (i < 0) refuse('entry not in its container');
    return this.isFlow(c) ? this.removeFlow(c, kids, i) : this.removeBlock(c, kids, i);
  }

  /** JSON and YAML flow: the entry with the separator after it, or before it for the last one. */
  private removeFlow(c: SNode, kids: SNode[], i: number): Planned[] {
    if (kids.length === 1) return [{ start: c.offset + 1, end: end(c) - 1, text: '' }];
    if (i < kids.length - 1) return [{ start: kids[i].offset, end: kids[i + 1].offset, text: '' }];
    return [{ start: end(kids[i - 1]), end: end(kids[i]), text: '' }];
  }

  /** YAML block: the entry's whole lines, keeping a shared `- ` and never leaving a null. */
  private removeBlock(c: SNode, kids: SNode[], i: number): Planned[] {
    const e = kids[i];
    const start = this.entryStart(c, e);
    const lines = this.file.lines;
    const first = this.lineOf(start);
    const lineStart = lines.lineStart(first);
    const before = this.text.slice(lineStart, start);
    if (/^[ \t]*$/.test(before)) {
      const range = { start: lineStart, end: lines.lineNext(this.entryLastLine(c, e)) };
      return kids.length > 1 ? [{ ...range, text: '' }] : this.emptyBlock(c, range);
    }
    // Only the first entry of a mapping (or sequence) that is itself a sequence item shares a line.
    if (i !== 0 || !/^[ \t]*(?:-[ \t]+)+$/.test(before)) refuse('entry shares its line');
    if (kids.length === 1) return [{ start, end: this.contentEnd(e), text: c.type === 'object' ? '{}' : '[]' }];
    return [{ start, end: this.entryStart(c, kids[1]), text: '' }];
  }

  /** Removing the only entry of a block collection: write `{}`/`[]` so the value keeps its type. */
  private emptyBlock(c: SNode, range: { start: number; end: number }): Planned[] {
    const empty = c.type === 'object' ? '{}' : '[]';
    const ind = this.indicatorBefore(c);
    if (ind === undefined) {
      if (c.parent) refuse('no indicator before the collection');
      const brk = /\r?\n$/.exec(this.text.slice(range.start, range.end))?.[0] ?? '';
      return [{ start: range.start, end: range.end, text: empty + brk }];
    }
    const indLine = this.lineOf(ind);
    if (indLine >= this.lineOf(range.start)) refuse('collection starts on its indicator line');
    // An anchor or tag after the indicator would end up before `{}` in a way we do not rewrite.
    if (!/^(?:[ \t]+(?:#.*)?)?$/.test(this.text.slice(ind + 1, this.file.lines.lineEnd(indLine)))) refuse('node properties after the indicator');
    return [
      { start: ind + 1, end: ind + 1, text: ' ' + empty },
      { ...range, text: '' },
    ];
  }

  // ----- replacement --------------------------------------------------------------------------

  private replaceValue(v: SNode, value: unknown): Planned[] {
    if (this.json) return [{ start: v.offset, end: end(v), text: JSON.stringify(value) }];
    const text = yamlValue(value, this.inFlow(v) ? 'flow' : 'block');
    if (v.length === 0) {
      // An empty value (`key:` or `- `) has no text of its own: write after the indicator.
      const ind = this.indicatorBefore(v);
      if (ind === undefined) return refuse('empty value without indicator');
      return [{ start: ind + 1, end: Math.max(ind + 1, v.offset), text: ' ' + text }];
    }
    if (isCollection(v) && !this.isFlow(v)) {
      // A block collection becomes a flow value on its indicator's line.
      const ind = this.indicatorBefore(v);
      if (ind !== undefined && this.lineOf(ind) < this.lineOf(v.offset)) return [{ start: ind + 1, end: this.contentEnd(v), text: ' ' + text }];
      return [{ start: v.offset, end: this.contentEnd(v), text }];
    }
    return [{ start: this.tagStart(v), end: this.contentEnd(v), text }];
  }

  /** Start of a scalar including a tag written just before it (`!!str 3`), which a new value drops. */
  private tagStart(v: SNode): number {
    let i = v.offset;
    while (i > 0 && (this.text[i - 1] === ' ' || this.text[i - 1] === '\t')) i--;
    let j = i;
    while (j > 0 && !isWs(this.text[j - 1])) j--;
    // Only a plain tag token (`!x`, `!!str`); a quoted key ending in `!"` followed by `:` is not one.
    return i < v.offset && /^![!\w.~%/-]*$/.test(this.text.slice(j, i)) ? j : v.offset;
  }

  /** A string over a scalar, in the scalar's quoting style where the string allows it. */
  private replaceStringNode(v: SNode, value: string): Planned[] {
    if (this.json) return [{ start: v.offset, end: end(v), text: JSON.stringify(value) }];
    if (v.length === 0) return this.replaceValue(v, value);
    const c = this.text[v.offset];
    let out: string;
    if (c === '|') out = this.literalBlock(v, value) ?? yamlDouble(value);
    else if (c === "'" && !UNESCAPABLE.test(value)) out = "'" + value.replace(/'/g, "''") + "'";
    else if (c === '"' || c === "'" || c === '>') out = yamlDouble(value);
    else out = plainSafe(value, this.inFlow(v) ? 'flow' : 'block') ? value : yamlDouble(value);
    return [{ start: v.offset, end: this.contentEnd(v), text: out }];
  }

  /** A literal block scalar holding `value` at the old block's indentation, if it can. */
  private literalBlock(v: SNode, value: string): string | undefined {
    if (value.endsWith('\n\n') || BLOCK_UNSAFE.test(value) || value.includes('\r')) return undefined;
    const chomp = value.endsWith('\n') ? '' : '-';
    const body = chomp === '' ? value.slice(0, -1) : value;
    const rows = body.split('\n');
    const firstText = rows.find((r) => r !== '');
    // Leading blanks on the first text line would read as indentation; blank-only rows as empty.
    if (firstText === undefined || /^[ \t]/.test(firstText) || rows.some((r) => r !== '' && r.trim() === '')) return undefined;
    const indent = this.blockIndent(v);
    if (indent === undefined) return undefined;
    return '|' + chomp + this.nl + rows.map((r) => (r === '' ? '' : pad(indent) + r)).join(this.nl);
  }

  /** Content indentation of a block scalar: the least indented of its non-blank lines. */
  private blockIndent(v: SNode): number | undefined {
    const head = this.lineOf(v.offset);
    const last = this.lineOf(this.contentEnd(v) - 1);
    let indent: number | undefined;
    for (let l = head + 1; l <= last; l++) {
      const row = this.text.slice(this.file.lines.lineStart(l), this.file.lines.lineEnd(l));
      if (row.trim() === '') continue;
      const n = /^ */.exec(row)?.[0].length ?? 0;
      indent = indent === undefined ? n : Math.min(indent, n);
    }
    return indent;
  }

  // ----- insertion ----------------------------------------------------------------------------

  private insertMember(obj: SNode, key: string, value: unknown): Planned[] {
    if (this.isFlow(obj)) {
      const item = this.json ? JSON.stringify(key) + this.colonSep + JSON.stringify(value) : yamlKey(key, 'flow') + ': ' + yamlValue(value, 'flow');
      return [this.insertFlow(obj, item)];
    }
    const kids = obj.children ?? [];
    if (kids.length === 0) return refuse('empty block mapping');
    const col = this.column(kids[0].offset);
    return [this.insertLines(this.entryLastLine(obj, kids[kids.length - 1]), this.memberLines(key, value, col))];
  }

  private appendItem(arr: SNode, value: unknown): Planned[] {
    if (this.isFlow(arr)) return [this.insertFlow(arr, this.json ? JSON.stringify(value) : yamlValue(value, 'flow'))];
    const kids = arr.children ?? [];
    if (kids.length === 0) return refuse('empty block sequence');
    const dash = this.column(this.dashOf(kids[0]));
    let lines: string[];
    if (isPlainObject(value) && Object.keys(value).length > 0) {
      // A mapping item in the sequence-of-mappings style: first key on the `- ` line.
      lines = Object.entries(value).flatMap(([k, v]) => this.memberLines(k, v, dash + 2));
      lines[0] = pad(dash) + '- ' + lines[0].slice(dash + 2);
    } else {
      lines = [pad(dash) + '- ' + yamlValue(value, 'block')];
    }
    return [this.insertLines(this.entryLastLine(arr, kids[kids.length - 1]), lines)];
  }

  /** `key: value` lines of a block mapping; a non-empty object value nests as a block mapping. */
  private memberLines(key: string, value: unknown, col: number): string[] {
    const k = yamlKey(key, 'block');
    if (isPlainObject(value) && Object.keys(value).length > 0) {
      return [pad(col) + k + ':', ...Object.entries(value).flatMap(([ck, cv]) => this.memberLines(ck, cv, col + this.unit))];
    }
    return [pad(col) + k + ': ' + yamlValue(value, 'block')];
  }

  /** Whole lines inserted after a line, in the file's line break. */
  private insertLines(afterLine: number, rows: string[]): Planned {
    const pos = this.file.lines.lineNext(afterLine);
    const body = rows.join(this.nl);
    const lead = /^( *)(- )?/.exec(rows[0] ?? '');
    const depth = (lead?.[1].length ?? 0) * 2 + (lead?.[2] ? 1 : 0);
    if (pos === this.text.length && !/[\r\n]$/.test(this.text)) return { start: pos, end: pos, text: this.nl + body, chain: true, depth };
    return { start: pos, end: pos, text: body + this.nl, chain: true, line: true, depth };
  }

  /** A member or item appended to a flow collection, following the separators around it. */
  private insertFlow(c: SNode, item: string): Planned {
    const kids = c.children ?? [];
    const close = end(c) - 1;
    if (kids.length === 0) {
      if (this.json && this.root && this.text.slice(this.root.offset, end(this.root)).includes('\n')) {
        // Pretty-printed JSON: the filled collection is laid out as a formatter would.
        const ind = this.lineIndent(c.offset);
        return { start: c.offset + 1, end: close, text: this.nl + ind + this.jsonUnit + item + this.nl + ind };
      }
      return { start: c.offset + 1, end: close, text: item };
    }
    const last = kids[kids.length - 1];
    const head = this.text.slice(c.offset + 1, kids[0].offset);
    let sep: string;
    if (head.includes('\n')) sep = this.nl + this.lineIndent(last.offset);
    else if (kids.length >= 2) sep = /^[ \t]*,([ \t]*)$/.exec(this.text.slice(end(kids[kids.length - 2]), last.offset))?.[1] ?? ' ';
    else sep = this.json ? (/^[ \t]*$/.test(head) ? head : '') : ' ';
    return { start: end(last), end: end(last), text: ',' + sep + item, chain: true };
  }

  // ----- strings ------------------------------------------------------------------------------

  /** Text appended to a block scalar becomes a new content line after its last one. */
  private appendBlock(v: SNode, old: string, add: string): Resolved {
    const literal = this.text[v.offset] === '|';
    // The line break separates the old text from the new; leading blanks would indent the line.
    const piece = add.replace(/^[ \t]+/, '').replace(/\s+$/, '');
    if (piece === '') return { edits: [] };
    if (BLOCK_UNSAFE.test(piece) || piece.includes('\r') || (!literal && piece.includes('\n'))) refuse('text a block scalar cannot hold');
    const head = this.lineOf(v.offset);
    const last = this.lineOf(this.contentEnd(v) - 1);
    const indent = this.blockIndent(v);
    if (last <= head || indent === undefined) return refuse('empty block scalar');
    const rows = piece.split('\n').map((r) => (r === '' ? '' : pad(indent) + r));
    const kept = old.replace(/\n+$/, '');
    const tail = old.slice(kept.length);
    const values = literal ? [kept + '\n' + piece + tail] : [kept + ' ' + piece + tail, kept + '\n' + piece + tail];
    return { edits: [this.insertLines(last, rows)], expect: new OneOf(values) };
  }

  private keyText(k: SNode, key: string, ctx: Ctx): string {
    if (this.json) return JSON.stringify(key);
    const c = this.text[k.offset];
    if (c === '"') return yamlDouble(key);
    if (c === "'" && !UNESCAPABLE.test(key)) return "'" + key.replace(/'/g, "''") + "'";
    return yamlKey(key, ctx);
  }
}

// ---------------------------------------------------------------------------------------------
// Merging and verification

/**
 * Sorted, non-overlapping edits, or null when two collide. Insertions at one offset are kept in
 * op order when both are `chain` (two members appended to one object), block lines deepest
 * first; an insertion touching a replacement is allowed only when it is whole lines (a member
 * added after a removed one).
 */
function mergeEdits(text: string, planned: Planned[]): TextEdit[] | null {
  // Only block-line insertions carry a depth; others keep op order among themselves.
  const list = planned
    .filter((e) => e.text !== text.slice(e.start, e.end))
    .map((e, i) => ({ e, i }))
    .sort((x, y) => x.e.start - y.e.start || x.e.end - y.e.end || (y.e.depth ?? 0) - (x.e.depth ?? 0) || x.i - y.i)
    .map((x) => x.e);
  for (let k = 1; k < list.length; k++) {
    const a = list[k - 1];
    const b = list[k];
    if (a.end > b.start) return null;
    if (a.end < b.start) continue;
    const aIns = a.start === a.end;
    const bIns = b.start === b.end;
    if (aIns && bIns ? !(a.chain && b.chain) : aIns ? !a.line : bIns ? !b.line : false) return null;
  }
  return list.map(({ start, end: stop, text: t }) => ({ start, end: stop, text: t }));
}

function countKind(r: ParseResult, kind: 'parse-error' | 'duplicate-key'): number {
  return r.problems.reduce((n, p) => n + (p.kind === kind ? 1 : 0), 0);
}

/** Marks a removed entry during simulation, so later ops' original indexes stay valid. */
const GONE: unique symbol = Symbol('removed');

type Box = Record<string, unknown> | unknown[];

/** The data `ops` should leave, computed on plain data; paths refer to the original document. */
function simulate(data: unknown, ops: readonly EditOp[], expects: ReadonlyMap<number, unknown>): unknown {
  const holder: { root: unknown } = { root: clone(data) };
  const parentOf = (path: JsonPath): { box: Box; key: string | number } => {
    let cur: unknown = holder.root;
    for (const seg of path.slice(0, -1)) cur = child(cur, seg);
    if (typeof cur !== 'object' || cur === null) refuse('simulated parent missing');
    const last = path[path.length - 1];
    return Array.isArray(cur) ? { box: cur, key: Number(last) } : { box: cur as Record<string, unknown>, key: String(last) };
  };
  const get = (path: JsonPath): unknown => {
    if (path.length === 0) return holder.root;
    const { box, key } = parentOf(path);
    return own(box, key) ? (box as Record<string | number, unknown>)[key] : undefined;
  };
  const put = (path: JsonPath, value: unknown): void => {
    if (path.length === 0) {
      holder.root = value;
      return;
    }
    const { box, key } = parentOf(path);
    if (Array.isArray(box)) {
      if (!Number.isInteger(key) || (key as number) > box.length) refuse('simulated index out of range');
      box[key as number] = value;
    } else {
      Object.defineProperty(box, key, { value, enumerable: true, writable: true, configurable: true });
    }
  };
  ops.forEach((op, i) => {
    switch (op.op) {
      case 'remove':
        if (get(op.path) === undefined) refuse('simulated path missing');
        put(op.path, GONE);
        break;
      case 'removeItemValue': {
        const arr = get(op.path);
        if (!Array.isArray(arr)) return refuse('simulated array missing');
        const idx = arr.findIndex((x) => x !== GONE && deepEqual(x, op.value));
        if (idx >= 0) arr[idx] = GONE;
        break;
      }
      case 'set':
      case 'replaceString':
        put(op.path, clone(op.value));
        break;
      case 'appendText': {
        const cur = get(op.path);
        if (typeof cur !== 'string') return refuse('simulated string missing');
        if (op.text === '' || (op.text.trim() !== '' && cur.trimEnd().endsWith(op.text.trim()))) break;
        put(op.path, expects.get(i) ?? cur + op.text);
        break;
      }
      case 'addItem': {
        const cur = get(op.path);
        if (Array.isArray(cur)) {
          if (!cur.some((x) => x !== GONE && deepEqual(x, op.value))) cur.push(clone(op.value));
        } else if (cur === undefined || cur === null) {
          put(op.path, [clone(op.value)]);
        } else {
          refuse('simulated value is not an array');
        }
        break;
      }
      case 'renameKey': {
        if (op.path.length === 0) return refuse('no key');
        const { box, key } = parentOf(op.path);
        if (Array.isArray(box) || !own(box, key) || key === op.key) break;
        const v = box[key as string];
        delete box[key as string];
        Object.defineProperty(box, op.key, { value: v, enumerable: true, writable: true, configurable: true });
        break;
      }
      case 'text':
        break;
    }
  });
  return compact(holder.root);
}

function child(cur: unknown, seg: string | number): unknown {
  if (Array.isArray(cur)) return cur[Number(seg)];
  if (typeof cur === 'object' && cur !== null && own(cur, String(seg))) return (cur as Record<string, unknown>)[String(seg)];
  return refuse('simulated path missing');
}

function own(o: object, k: string | number): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

function clone(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(clone);
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: clone(x), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

function compact(v: unknown): unknown {
  if (Array.isArray(v)) return v.filter((x) => x !== GONE).map(compact);
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== GONE) Object.defineProperty(out, k, { value: compact(x), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Structural equality, key order ignored; an expected `OneOf` matches any of its values. */
function deepEqual(a: unknown, b: unknown): boolean {
  if (b instanceof OneOf) return b.values.some((x) => deepEqual(a, x));
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => own(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Only data a JSON/YAML document can hold; anything else (undefined, functions, cycles) is refused. */
function checkValue(v: unknown, json: boolean, depth: number): void {
  if (depth > 100) refuse('value nests too deeply');
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return;
  if (typeof v === 'number') {
    if (json && !Number.isFinite(v)) refuse('JSON has no NaN or Infinity');
    return;
  }
  if (Array.isArray(v)) return v.forEach((x) => checkValue(x, json, depth + 1));
  if (isPlainObject(v)) return Object.values(v).forEach((x) => checkValue(x, json, depth + 1));
  refuse('not JSON data');
}

// ---------------------------------------------------------------------------------------------
// YAML serialisation of small values (never of a document)

/** Strings a YAML 1.2 (or 1.1) reader would take for something other than a string. */
const NOT_A_STRING = [
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE)$/,
  // YAML 1.1 booleans, as PyYAML reads them (it leaves `y` and `n` strings).
  /^(?:yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|<<|=)$/,
  /^[-+]?(?:\d[\d_]*)?(?:\.\d*)?(?:[eE][-+]?\d+)?$/,
  /^[-+]?0(?:[xX][\da-fA-F_]+|[oO]?[0-7_]+|[bB][01_]+)$/,
  /^[-+]?\d[\d_]*(?::[0-5]?\d)+(?:\.\d*)?$/,
  /^\d{4}-\d\d?-\d\d?/,
  /^[-+]?\.(?:inf|Inf|INF)$/,
  /^\.(?:nan|NaN|NAN)$/,
];

/** Whether `s` can be written as a plain scalar and read back as the same string. */
function plainSafe(s: string, ctx: Ctx): boolean {
  if (s === '' || s.trim() !== s || UNESCAPABLE.test(s) || /[\ud800-\udfff]/.test(s)) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(s) || /^(?:---|\.\.\.)/.test(s)) return false;
  if (s.includes(': ') || s.includes(' #') || s.endsWith(':')) return false;
  if (ctx === 'flow' && /[,[\]{}:]/.test(s)) return false;
  return !NOT_A_STRING.some((re) => re.test(s));
}

/** A double-quoted YAML scalar; JSON's escapes are YAML's, plus escapes for non-printables. */
function yamlDouble(s: string): string {
  return JSON.stringify(s).replace(/[\x7f-\x9f\ufeff\ufffe\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

function yamlKey(key: string, ctx: Ctx): string {
  return plainSafe(key, ctx) ? key : yamlDouble(key);
}

/** A value on one line: scalars plain when safe, collections in flow style. */
function yamlValue(v: unknown, ctx: Ctx): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return '.nan';
    if (!Number.isFinite(v)) return v > 0 ? '.inf' : '-.inf';
    return String(v);
  }
  if (typeof v === 'string') return plainSafe(v, ctx) ? v : yamlDouble(v);
  if (Array.isArray(v)) return '[' + v.map((x) => yamlValue(x, 'flow')).join(', ') + ']';
  if (isPlainObject(v)) return '{' + Object.entries(v).map(([k, x]) => yamlKey(k, 'flow') + ': ' + yamlValue(x, 'flow')).join(', ') + '}';
  return refuse('not JSON data');
}
