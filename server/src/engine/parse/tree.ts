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
export function findNode(root: SNode | undefined, path: JsonPath, wantProperty = false): SNode | undefined {
  let node = root;
  for (let i = 0; i < path.length && node; i++) {
    const seg = path[i];
    if (node.type === 'object') {
      const prop = findProperty(node, String(seg));
      if (!prop) return undefined;
      if (wantProperty && i === path.length - 1) return prop;
      node = valueOf(prop);
    } else if (node.type === 'array') {
      const idx = typeof seg === 'number' ? seg : Number(seg);
      node = Number.isInteger(idx) ? node.children?.[idx] : undefined;
    } else {
      return undefined;
    }
  }
  return node;
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
