/**
 * The one module that imports `yaml` (v2). It converts `yaml`'s documents to our source tree,
 * reports syntax errors and duplicate keys with their offsets, and bounds alias expansion
 * ("billion laughs") so a hostile file cannot blow up time or memory.
 */
import type { Alias as YAlias, Node as YNode } from 'yaml';
import type { ParseProblem, ParseResult, ParsedDoc, SNode } from './tree';
import { duplicateKey, endProperty, nodeToValue, startProperty } from './tree';
import { readPlainYaml } from './fast-yaml';

let yamlLib: typeof import('yaml') | null = null;
/** `yaml` is loaded on first use: most tool files are read by the fast reader and never need it. */
function Y(): typeof import('yaml') {
  return (yamlLib ??= require('yaml') as typeof import('yaml'));
}

export const MAX_ALIAS_EXPANSION = 100_000;
export const MAX_DEPTH = 1_000;

/** YAML text to our tree: the fast reader for plain block YAML, else the full parser. */
export function parseYaml(text: string): ParseResult {
  return readPlainYaml(text) ?? parseYamlFull(text);
}

/** The full parser (every YAML feature, errors with positions). */
export function parseYamlFull(text: string): ParseResult {
  const problems: ParseProblem[] = [];
  let ydocs;
  try {
    ydocs = Y().parseAllDocuments(text, { uniqueKeys: false, prettyErrors: false, strict: false, intAsBigInt: false });
  } catch (e) {
    const message = e instanceof RangeError ? `Nesting is too deep to lint (more than ${MAX_DEPTH} levels)` : `YAML could not be parsed: ${(e as Error).message}`;
    problems.push({ kind: 'parse-error', message, offset: 0, length: 0, doc: 0 });
    return { lang: 'yaml', docs: [], problems };
  }
  const list = Array.isArray(ydocs) ? ydocs : [ydocs];
  const docs: ParsedDoc[] = [];
  let anchors = false;
  list.forEach((ydoc, docIndex) => {
    for (const err of ydoc.errors) {
      // `yaml` may place an error at or past the end (an unclosed collection); keep it inside the text.
      const start = Math.min(Math.max(0, err.pos[0]), text.length);
      const end = Math.min(Math.max(start, err.pos[1]), text.length);
      // `yaml` recurses per level and reports its own stack overflow as an error.
      const message = /Maximum call stack/i.test(err.message) ? `Nesting is too deep to lint (more than ${MAX_DEPTH} levels)` : cleanMessage(err.message);
      problems.push({ kind: 'parse-error', message, offset: start, length: end - start, doc: docIndex });
    }
    const conv = new Converter(problems, docIndex, ydoc);
    let root: SNode | undefined;
    try {
      root = conv.convert(ydoc.contents as YNode | null, undefined, 0);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      problems.push({ kind: 'parse-error', message: `Nesting is too deep to lint (more than ${MAX_DEPTH} levels)`, offset: 0, length: 0, doc: docIndex });
      root = undefined;
    }
    let data: unknown;
    try {
      data = nodeToValue(root);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      problems.push({ kind: 'parse-error', message: 'Nesting is too deep to lint', offset: 0, length: 0, doc: docIndex });
      root = undefined;
    }
    docs.push({ root, data: root ? data : null });
    if (conv.anchors) anchors = true;
  });
  return { lang: 'yaml', docs, problems, anchors };
}

function cleanMessage(msg: string): string {
  // `yaml` appends " at line L, column C:" and a code excerpt; we give our own position.
  const first = msg.split('\n')[0];
  return first.replace(/ at line \d+, column \d+:?$/, '').trim();
}

class Converter {
  private readonly seen = new Map<YNode, SNode>();
  private readonly sizes = new WeakMap<SNode, number>();
  private expanded = 0;
  private aliasBudgetReported = false;
  /** An anchor or alias was met. */
  anchors = false;
  /** The `yaml` library (loaded by the time documents exist to convert). */
  private readonly y = Y();

  constructor(
    private readonly problems: ParseProblem[],
    private readonly doc: number,
    private readonly ydoc: Parameters<YAlias['resolve']>[0],
  ) {}

  convert(n: YNode | null, parent: SNode | undefined, depth: number): SNode | undefined {
    if (!n) return undefined;
    if (depth > MAX_DEPTH) throw new RangeError('depth');
    const [start, valueEnd] = n.range ?? [0, 0];
    if (this.y.isAlias(n)) {
      this.anchors = true;
      const target = n.resolve(this.ydoc) as YNode | undefined;
      const tnode = target ? this.seen.get(target) : undefined;
      const size = tnode ? (this.sizes.get(tnode) ?? 1) : 1;
      this.expanded += size;
      if (!tnode || this.expanded > MAX_ALIAS_EXPANSION) {
        if (tnode && !this.aliasBudgetReported) {
          this.aliasBudgetReported = true;
          this.problems.push({
            kind: 'parse-error',
            message: `Aliases expand to more than ${MAX_ALIAS_EXPANSION} nodes; the expansion was cut off here`,
            offset: start,
            length: valueEnd - start,
            doc: this.doc,
          });
        }
        return { type: 'null', offset: start, length: valueEnd - start, value: null, parent };
      }
      const node: SNode = { ...tnode, offset: start, length: valueEnd - start, parent };
      this.sizes.set(node, size);
      return node;
    }
    let node: SNode;
    if (this.y.isMap(n)) {
      node = { type: 'object', offset: start, length: valueEnd - start, children: [], parent };
      const seenKeys = new Map<string, true>();
      let size = 1;
      for (const pair of n.items) {
        if (!this.y.isPair(pair)) continue;
        const k = pair.key as YNode | null;
        const kr = k?.range ?? [start, start];
        const keyVal = this.y.isScalar(k) ? (k.value === null ? '' : String(k.value)) : k ? String(k.toString()) : '';
        const prop = startProperty(node, kr[0], kr[1], keyVal, kr[1]);
        const val = this.convert(pair.value as YNode | null, prop, depth + 1);
        const valueNode = val ?? { type: 'null', offset: kr[1], length: 0, value: null, parent: prop };
        node.children!.push(endProperty(prop, valueNode));
        size += this.sizes.get(valueNode) ?? 1;
        if (seenKeys.has(keyVal)) {
          this.problems.push(duplicateKey(keyVal, kr[0], kr[1] - kr[0], this.doc));
        }
        seenKeys.set(keyVal, true);
      }
      this.sizes.set(node, size);
    } else if (this.y.isSeq(n)) {
      node = { type: 'array', offset: start, length: valueEnd - start, children: [], parent };
      let size = 1;
      for (const item of n.items) {
        const c = this.convert(item as YNode | null, node, depth + 1) ?? { type: 'null', offset: start, length: 0, value: null, parent: node };
        node.children!.push(c);
        size += this.sizes.get(c) ?? 1;
      }
      this.sizes.set(node, size);
    } else if (this.y.isScalar(n)) {
      const v = n.value;
      const type = v === null || v === undefined ? 'null' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string';
      let value: unknown = v === undefined ? null : v;
      if (typeof v === 'bigint') value = Number(v);
      else if (type === 'string' && typeof v !== 'string') value = String(v);
      node = { type: type === 'string' || type === 'number' || type === 'boolean' || type === 'null' ? type : 'string', offset: start, length: valueEnd - start, value, parent };
    } else {
      node = { type: 'null', offset: start, length: valueEnd - start, value: null, parent };
    }
    // Only an anchored node can be an alias's target: keeping the others would hold every node.
    if (n.anchor != null) {
      this.anchors = true;
      this.seen.set(n, node);
    }
    return node;
  }
}
