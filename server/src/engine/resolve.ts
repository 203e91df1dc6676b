/** The one module that maps a JSON path (and key/value target) to a text range. */
import { keyOf, type SNode } from './parse/tree';
import type { SourceFile } from './model';
import type { JsonPath, Range } from './types';

export interface Resolved {
  offset: number;
  length: number;
  range: Range;
  /** The path actually found (a prefix of the asked one when the rest is not in the source). */
  found: JsonPath;
}

export function resolveLoc(file: SourceFile, doc: number, path: JsonPath, target: 'key' | 'value'): Resolved {
  let p = path.slice();
  let node: SNode | undefined;
  let useKey = target === 'key';
  for (;;) {
    if (p.length === 0) {
      node = file.find(doc, p);
      break;
    }
    const prop = file.find(doc, p, true);
    if (prop) {
      if (prop.type === 'property') node = useKey ? prop.children![0] : prop.children![1];
      else node = prop;
      break;
    }
    // Not in the source (synthesised or absent): point at the nearest written ancestor's key.
    p = p.slice(0, -1);
    useKey = true;
  }
  let offset = node?.offset ?? 0;
  let length = node?.length ?? 0;
  if (node && (node.type === 'object' || node.type === 'array') && length > 0) {
    // A multi-line block: underline only its first line.
    const lines = file.lines;
    const line = lines.lineOf(offset);
    const end = Math.min(offset + length, lines.lineEnd(line));
    length = Math.max(1, end - offset);
  }
  if (!node && !file.hasTree(doc)) {
    offset = 0;
    length = 0;
  }
  return { offset, length, range: { start: file.lines.position(offset), end: file.lines.position(offset + length) }, found: p };
}

/** Key names along a path (for messages). */
export function lastKey(prop: SNode): string {
  return keyOf(prop);
}
