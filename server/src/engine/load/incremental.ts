/**
 * Re-reading a file after an edit inside one tool, without parsing the rest of it again.
 *
 * An editor sends a new text on every keystroke. When the change lies inside one tool object of a
 * catalogue, only that object's lines are parsed again; the rest of the old tree is kept, with its
 * offsets shifted past the edit (the first node of each later subtree at once, the nodes below it
 * when first read: `SNode.lag`), and every other `Tool` is kept as the same object (so results
 * cached per tool stay valid). The new file must be exactly what `loadText` would have built:
 * whenever that is not certain the answer is `null`, and the caller parses the whole text.
 * `test/incremental.test.ts` compares both paths over the corpus and generated catalogues.
 *
 * Not attempted (a full parse instead): files with fewer than two tools, parse errors, YAML anchors
 * or aliases (shared subtrees), several documents, an eval suite, an edit that touches a tool's
 * first token or anything outside a tool, and an edit after which the tool list would be found
 * differently (a tool gained or lost, the format or the parameter-list policy changed).
 */
import { SourceFile, type Tool } from '../model';
import { addLag, dropLag, parseText, nodeToValue, findNode, settleNode, shiftSubtree, type ParseProblem, type ParseResult, type SNode } from '../parse';
import { LineIndex } from '../util/lines';
import type { JsonPath } from '../types';
import { findTools, formatId } from './detect';
import { normalizeTool, usesOptionalFlags } from './normalize';

export interface TextEdit {
  /** Offset where the old and new texts start to differ. */
  start: number;
  /** End of the replaced part in the old text. */
  oldEnd: number;
  /** End of the replacing part in the new text. */
  newEnd: number;
}

/** The one changed span between two texts (common prefix and suffix removed). */
export function textDiff(a: string, b: string): TextEdit {
  const n = Math.min(a.length, b.length);
  // Equal chunks are skipped with native string comparison, then the first difference is found
  // character by character (a 2 MB document is compared in about a millisecond).
  let start = 0;
  for (let step = 65536; step >= 1; step >>= 4) {
    while (start + step <= n && a.slice(start, start + step) === b.slice(start, start + step)) start += step;
  }
  while (start < n && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let ea = a.length;
  let eb = b.length;
  for (let step = 65536; step >= 1; step >>= 4) {
    while (ea - step >= start && eb - step >= start && a.slice(ea - step, ea) === b.slice(eb - step, eb)) {
      ea -= step;
      eb -= step;
    }
  }
  while (ea > start && eb > start && a.charCodeAt(ea - 1) === b.charCodeAt(eb - 1)) {
    ea--;
    eb--;
  }
  return { start, oldEnd: ea, newEnd: eb };
}

/** Why the last `reloadEdited` fell back to a full parse (for tests and the bench). */
export let lastFallback: string | null = null;

/**
 * The file `prev` becomes with the text `text`, built by re-parsing only the edited tool; `null`
 * when the edit cannot be applied that way. `prev`'s tree is taken over (its nodes are moved), so
 * `prev` must not be used afterwards.
 */
export function reloadEdited(prev: SourceFile, text: string, version: number): SourceFile | null {
  lastFallback = null;
  const no = (why: string): null => {
    lastFallback = why;
    return null;
  };
  if (prev.kind !== 'tools' || prev.tools.length < 2) return no('not a catalogue of several tools');
  if (prev.evalSuite || prev.parsed.docs.length !== 1 || prev.parsed.anchors) return no('several documents, an eval suite or YAML anchors');
  if (prev.parsed.problems.some((p) => p.kind === 'parse-error')) return no('the old text has parse errors');
  if (prev.requiredPolicy === null) return no('no parameter-list policy recorded');
  const doc = prev.parsed.docs[0];
  const root = doc.root;
  if (!root) return no('no tree');

  const edit = textDiff(prev.text, text);
  if (edit.start === edit.oldEnd && edit.start === edit.newEnd) return no('no change');
  const delta = edit.newEnd - edit.oldEnd;

  // The tool whose object strictly contains the edit (its first token untouched).
  const idx = toolAt(prev.tools, root, edit.start, edit.oldEnd);
  if (idx < 0) return no('the edit is not inside one tool');
  const tool = prev.tools[idx];
  // Its own place only: what lies below it is replaced.
  const old = findNode(root, tool.path, false, true)!;
  const oldEnd = old.offset + old.length;

  // Parse the edited object alone. A YAML block node is parsed with its whole first line (the
  // `- ` or `key:` before it), which keeps its indentation; JSON needs only the value itself.
  const lang = prev.lang;
  const regionStart = lang === 'yaml' ? prev.lines.lineStart(prev.lines.lineOf(old.offset)) : old.offset;
  const regionEnd = oldEnd + delta;
  const sub = text.slice(regionStart, regionEnd);
  const parsed: ParseResult = parseText(sub, lang);
  if (parsed.docs.length !== 1 || parsed.anchors) return no('the edited part has several documents or anchors');
  if (parsed.problems.some((p) => p.kind === 'parse-error')) return no('the edited part does not parse');
  const fresh = unwrap(parsed.docs[0].root, old.offset - regionStart);
  if (!fresh || fresh.type !== old.type || fresh.offset + fresh.length !== sub.length) return no('the edited part parses to another structure');

  // Splice: shift the fresh subtree into place, move everything after the edit, swap the node.
  shiftSubtree(fresh, regionStart);
  const holder = old.parent!;
  shiftAfter(root, old, oldEnd, delta);
  const at = holder.children!.indexOf(old);
  holder.children![at] = fresh;
  fresh.parent = holder;
  dropLag(root, old);

  // The plain data: the tool's value in its container is replaced.
  const value = nodeToValue(fresh);
  const container = valueAt(doc.data, tool.path.slice(0, -1));
  const key = tool.path[tool.path.length - 1];
  if (container === undefined || key === undefined) return no('the tool is the whole document');
  (container as Record<string | number, unknown>)[key] = value;

  // Find the tools again (cheap: no parsing) and check nothing but this tool changed.
  const base = prev.path.split(/[\\/]/).pop() ?? prev.path;
  const c = findTools(doc.data, base);
  if (c.kind !== 'tools' || c.sites.length !== prev.tools.length) return no('the tools are found differently');
  if (formatId(c.family, lang) !== prev.format) return no('the format changed');
  const policy = c.policy === 'flag' && usesOptionalFlags(c.sites) ? 'optional-flags' : c.policy;
  if (policy !== prev.requiredPolicy) return no('the parameter-list policy changed');
  for (let i = 0; i < c.sites.length; i++) if (!samePath(c.sites[i].path, prev.tools[i].path)) return no('a tool moved');

  // Problems (only duplicate keys: there are no parse errors) keep their tree order.
  const problems: ParseProblem[] = prev.parsed.problems.filter((p) => p.offset < old.offset);
  for (const p of parsed.problems) problems.push({ ...p, offset: p.offset + regionStart });
  for (const p of prev.parsed.problems) if (p.offset >= oldEnd) problems.push({ ...p, offset: p.offset + delta });

  const file = new SourceFile(prev.path, text, lang, { lang, docs: [{ root, data: doc.data }], problems, anchors: false }, prev.bom, version);
  file.kind = prev.kind;
  file.format = prev.format;
  file.explicit = prev.explicit;
  file.reason = prev.reason;
  file.requiredPolicy = prev.requiredPolicy;
  file.adoptLines(LineIndex.edited(prev.lines, text, edit.start, edit.oldEnd, edit.newEnd));
  const tools: Tool[] = prev.tools.slice();
  for (const t of tools) t.file = file;
  tools[idx] = normalizeTool(file, 0, idx, c.sites[idx], policy);
  file.tools = tools;
  return file;
}

/** Index of the tool whose object contains `[start, end)` and begins before `start`, or -1. */
function toolAt(tools: Tool[], root: SNode, start: number, end: number): number {
  // Tools are in source order: binary search on their object's start.
  let lo = 0;
  let hi = tools.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const n = findNode(root, tools[mid].path, false, true);
    if (!n) return -1;
    if (n.offset < start) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (best < 0) return -1;
  const n = findNode(root, tools[best].path, false, true)!;
  if (n.type !== 'object' || end > n.offset + n.length) return -1;
  // The search assumed source order; a tool listed out of order is not worth the risk.
  if (best + 1 < tools.length) {
    const next = findNode(root, tools[best + 1].path, false, true);
    if (!next || next.offset < n.offset + n.length) return -1;
  }
  return best;
}

/** The node at `offset` under single-child wrappers (the `- ` item or `key:` of the first line). */
function unwrap(node: SNode | undefined, offset: number): SNode | undefined {
  let n = node;
  while (n && n.offset !== offset) {
    if (n.type === 'array' && n.children?.length === 1) n = n.children[0];
    else if (n.type === 'object' && n.children?.length === 1) n = n.children[0].children?.[1];
    else return undefined;
  }
  return n;
}

/**
 * Moves the nodes after `end` (where the replaced part ended) by `delta` and stretches the ones
 * around it. A subtree wholly after the edit has only its first node moved now; the rest moves
 * when first read (`addLag`, `settleNode`): typing would otherwise move every node of every later
 * tool on each keystroke.
 */
function shiftAfter(root: SNode, skip: SNode, end: number, delta: number): void {
  if (delta === 0) return;
  // Down the path of nodes that contain the edit: stretch them; their children after it move whole.
  let n: SNode | undefined = root;
  while (n && n !== skip) {
    if (n.lag) settleNode(n);
    n.length += delta;
    let next: SNode | undefined;
    const kids = n.children;
    if (kids) {
      for (let i = 0; i < kids.length; i++) {
        const c = kids[i];
        if (c.offset >= end) {
          c.offset += delta;
          if (c.colonOffset !== undefined) c.colonOffset += delta;
          addLag(root, c, delta);
        } else if (c === skip || c.offset + c.length >= end) next = c;
      }
    }
    if (n.colonOffset !== undefined && n.colonOffset >= end) n.colonOffset += delta;
    n = next;
  }
}

function valueAt(data: unknown, path: JsonPath): unknown {
  let v = data;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

function samePath(a: JsonPath, b: JsonPath): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
