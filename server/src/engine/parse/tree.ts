/**
 * One source tree for YAML and JSON. Its shape is that of `jsonc-parser`'s `Node`, so a JSON
 * file needs no conversion; YAML is converted to it once. Every value knows its text range,
 * and every object member is a `property` node whose children are `[key, value]`.
 */
import type { JsonPath } from '../types';

export type NodeType = 'object' | 'array' | 'property' | 'string' | 'number' | 'boolean' | 'null';

export interface SNode {
  type: NodeType;
  offset: number;
  length: number;
  value?: unknown;
  children?: SNode[];
  parent?: SNode;
  colonOffset?: number;
  /**
   * Set by the editor's incremental re-read (`load/incremental.ts`): every node below this one
   * still has to move by this much (this node itself is in place). `findNode` and `settleTree`
   * move them when something reads there; see `settleNode`.
   */
  lag?: number;
}

export type Lang = 'yaml' | 'json';

export interface ParseProblem {
  kind: 'parse-error' | 'duplicate-key';
  message: string;
  offset: number;
  length: number;
  /** Document index (multi-document YAML). */
  doc: number;
}

/** Children of a node not read yet (a property's, until its key node exists): never filled. */
export const NO_CHILDREN: SNode[] = [];

/**
 * A YAML mapping member's property node with its key node (`keyStart` to `keyEnd`), in the full
 * YAML reader's shape; `endProperty` adds the value. (JSON nodes keep `jsonc-parser`'s shape:
 * `fast-json.ts`.)
 */
export function startProperty(parent: SNode | undefined, keyStart: number, keyEnd: number, key: string, colonOffset: number): SNode {
  const prop: SNode = { type: 'property', offset: keyStart, length: keyEnd - keyStart, children: NO_CHILDREN, parent, colonOffset };
  prop.children = [{ type: 'string', offset: keyStart, length: keyEnd - keyStart, value: key, parent: prop }];
  return prop;
}

/** Completes a property begun by `startProperty` with its value: the property spans its key and value. */
export function endProperty(prop: SNode, value: SNode): SNode {
  const keyNode = prop.children![0];
  prop.children = [keyNode, value];
  prop.length = Math.max(value.offset + value.length, keyNode.offset + keyNode.length) - prop.offset;
  return prop;
}

/** The problem of a key written twice in one mapping (at the later key). */
export function duplicateKey(key: string, offset: number, length: number, doc = 0): ParseProblem {
  return { kind: 'duplicate-key', message: `Duplicate key \`${key}\`; the later value silently replaces the earlier one`, offset, length, doc };
}

/** A parsed document: its tree and the plain data a JSON/YAML parser would give. */
export interface ParsedDoc {
  root: SNode | undefined;
  data: unknown;
}

export interface ParseResult {
  lang: Lang;
  docs: ParsedDoc[];
  problems: ParseProblem[];
  /** YAML anchors or aliases were seen: subtrees may be shared, so no part can be re-parsed alone. */
  anchors?: boolean;
}

/** Key string of a property node. */
export function keyOf(prop: SNode): string {
  const k = prop.children?.[0];
  return k ? String(k.value) : '';
}

/** The value node of a property node. */
export function valueOf(prop: SNode): SNode | undefined {
  return prop.children?.[1];
}

/**
 * The node at `path`. For an object member the *property* node is returned when `wantProperty`;
 * on duplicate keys the last one wins, as in the data.
 */
export function findNode(root: SNode | undefined, path: JsonPath, wantProperty = false, shallow = false): SNode | undefined {
  let node = root;
  for (let i = 0; i < path.length && node; i++) {
    if (node.lag) settleNode(node);
    const seg = path[i];
    if (node.type === 'object') {
      const prop = findProperty(node, String(seg));
      if (!prop) return undefined;
      if (wantProperty && i === path.length - 1) {
        if (prop.lag && !shallow) settleNode(prop);
        return prop;
      }
      // A member moved after an edit: its key and value are below it.
      if (prop.lag) settleNode(prop);
      node = valueOf(prop);
    } else if (node.type === 'array') {
      const idx = typeof seg === 'number' ? seg : Number(seg);
      node = Number.isInteger(idx) ? node.children?.[idx] : undefined;
    } else {
      return undefined;
    }
  }
  // `shallow`: only the node's own place is wanted (what lies below it may still have to move).
  if (node?.lag && !shallow) settleNode(node);
  return node;
}

// --- Offsets moved on demand ---------------------------------------------------------------

/**
 * After an edit, the editor moves only the nodes on the way to the edited tool and the first node
 * of each subtree after it; the rest of each such subtree is moved when it is first read. A big
 * catalogue would otherwise move hundreds of thousands of nodes per keystroke, of tools whose
 * results are cached and never read. The subtrees still to move, by tree root:
 */
const lagging = new WeakMap<SNode, Set<SNode>>();

/** `node` is in place, and everything below it must move by `delta` more (see `SNode.lag`). */
export function addLag(root: SNode, node: SNode, delta: number): void {
  if (!node.children || node.children.length === 0 || delta === 0) return;
  node.lag = (node.lag ?? 0) + delta;
  let set = lagging.get(root);
  if (!set) lagging.set(root, (set = new Set()));
  set.add(node);
}

/** Moves what lies below `node` into place. */
export function settleNode(node: SNode): void {
  const d = node.lag;
  if (!d) return;
  node.lag = 0;
  const kids = node.children;
  if (kids) for (let i = 0; i < kids.length; i++) shiftSubtree(kids[i], d);
}

/** Moves every node of a tree into place (before reading it freely: editor features, fixes). */
export function settleTree(root: SNode | undefined): void {
  if (!root) return;
  const set = lagging.get(root);
  if (!set) return;
  for (const n of set) settleNode(n);
  lagging.delete(root);
}

/** A subtree that is no longer part of its tree (replaced by an edit): nothing of it is moved. */
export function dropLag(root: SNode, node: SNode): void {
  lagging.get(root)?.delete(node);
}

/** Whether any node of the tree still has to move (for tests). */
export function hasLag(root: SNode | undefined): boolean {
  return !!root && (lagging.get(root)?.size ?? 0) > 0;
}

/** Moves a node and everything below it (a child's own `lag` stays: it is relative to the child). */
export function shiftSubtree(n: SNode, delta: number): void {
  n.offset += delta;
  if (n.colonOffset !== undefined) n.colonOffset += delta;
  const kids = n.children;
  if (kids) for (let i = 0; i < kids.length; i++) shiftSubtree(kids[i], delta);
}

const propIndexes = new WeakMap<SNode, Map<string, SNode>>();

export function findProperty(obj: SNode, key: string): SNode | undefined {
  const kids = obj.children;
  if (!kids) return undefined;
  if (kids.length <= 12) {
    for (let i = kids.length - 1; i >= 0; i--) if (keyOf(kids[i]) === key) return kids[i];
    return undefined;
  }
  let idx = propIndexes.get(obj);
  if (!idx) {
    idx = new Map();
    for (const p of kids) idx.set(keyOf(p), p);
    propIndexes.set(obj, idx);
  }
  return idx.get(key);
}

/** RFC 6901 pointer of a path. */
export function toPointer(path: JsonPath): string {
  if (path.length === 0) return '';
  let out = '';
  for (const seg of path) out += '/' + String(seg).replace(/~/g, '~0').replace(/\//g, '~1');
  return out;
}

/** Plain data from a tree. Keys such as `__proto__` become own properties, never prototypes. */
export function nodeToValue(node: SNode | undefined): unknown {
  if (!node) return undefined;
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const p of node.children ?? []) {
        const k = keyOf(p);
        const v = nodeToValue(valueOf(p));
        if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
        else out[k] = v;
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map(nodeToValue);
    case 'property':
      return nodeToValue(valueOf(node));
    default:
      return node.value;
  }
}
