/**
 * From an editor position to what is there: the deepest node, its JSON path, whether the
 * position is on a key, and the tool (and parameter) that contains it.
 */
import { keyOf, type SNode } from '../engine/parse/tree';
import type { SourceFile, Tool } from '../engine/model';
import type { JsonPath } from '../engine/types';

export interface Located {
  doc: number;
  node: SNode;
  path: JsonPath;
  /** The position is on an object key (the key node is `node`). */
  onKey: boolean;
}

function contains(n: SNode, offset: number): boolean {
  return offset >= n.offset && offset <= n.offset + n.length;
}

export function nodeAt(file: SourceFile, offset: number): Located | null {
  for (let doc = 0; doc < file.parsed.docs.length; doc++) {
    const root = file.root(doc);
    if (!root || !contains(root, offset)) continue;
    let node = root;
    const path: (string | number)[] = [];
    for (let depth = 0; depth < 10_000; depth++) {
      const kids = node.children;
      if (!kids) break;
      let next: SNode | undefined;
      if (node.type === 'object') {
        for (const p of kids) {
          if (!contains(p, offset)) continue;
          const [k, v] = p.children ?? [];
          if (k && contains(k, offset) && offset < k.offset + Math.max(1, k.length)) return { doc, node: k, path: [...path, keyOf(p)], onKey: true };
          if (v) {
            path.push(keyOf(p));
            next = v;
          }
          break;
        }
      } else if (node.type === 'array') {
        const i = kids.findIndex((c) => contains(c, offset));
        if (i >= 0) {
          path.push(i);
          next = kids[i];
        }
      }
      if (!next) break;
      node = next;
    }
    return { doc, node, path, onKey: false };
  }
  return null;
}

function startsWith(path: JsonPath, prefix: JsonPath): boolean {
  if (prefix.length > path.length) return false;
  for (let i = 0; i < prefix.length; i++) if (String(path[i]) !== String(prefix[i])) return false;
  return true;
}

/** The tool whose object contains the path (the most specific one). */
export function toolAtPath(file: SourceFile, doc: number, path: JsonPath): Tool | null {
  let best: Tool | null = null;
  for (const t of file.tools) if (t.doc === doc && startsWith(path, t.path) && (!best || t.path.length > best.path.length)) best = t;
  return best;
}

/**
 * The "header" of a tool: its name, its description and the object itself, before its schema.
 * Hovering there shows the prompt preview.
 */
export function inToolHeader(tool: Tool, path: JsonPath): boolean {
  const rel = path.slice(tool.path.length);
  if (rel.length === 0) return true;
  const first = String(rel[0]);
  if (tool.schemaKey && first === tool.schemaKey) return false;
  if (tool.path.length > 0 && tool.namePath.length === tool.path.length) return true;
  return ['name', 'description', 'title', 'annotations', 'category'].includes(first) || (rel.length === 1 && first !== tool.schemaKey);
}
