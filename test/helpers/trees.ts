/** Helpers of the tests that compare parsers: source files to read, and trees as plain values. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ParseResult, SNode } from '../../server/src/engine/parse';

/** Files under `dir` whose names match `name` (not in `node_modules` or dot folders); none if it is absent. */
export function filesUnder(dir: string, name: RegExp, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir)) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) {
      if (entry !== 'node_modules' && !entry.startsWith('.')) filesUnder(p, name, out);
    } else if (name.test(entry)) out.push(p);
  }
  return out;
}

/**
 * A tree as a plain value: every node's type, offset, length, value and colon offset, and whether
 * its children point back to it; with `keys`, also the node's own property names (its shape).
 */
export function treeView(n: SNode | undefined, keys = false): unknown {
  if (!n) return null;
  const view = [n.type, n.offset, n.length, n.value, n.colonOffset, n.children?.map((c) => treeView(c, keys)), n.children?.every((c) => c.parent === n) ?? true];
  if (keys) view.push(Object.keys(n).join());
  return view;
}

/** A parse result as a plain value: trees, data and problems (and whether anchors were met, if asked). */
export function parseView(r: ParseResult, opts: { keys?: boolean; anchors?: boolean } = {}): unknown {
  const docs = r.docs.map((d) => ({ tree: treeView(d.root, opts.keys), data: d.data }));
  return opts.anchors ? { docs, problems: r.problems, anchors: !!r.anchors } : { docs, problems: r.problems };
}
