/**
 * Go to definition and find references for tool names: a tool's own name, a catalogue tool named
 * in a tool or parameter description (in backticks or bare), and the tools an eval suite asserts
 * on (`tool:` of a `must_call` entry, items of `must_not_call`). Targets may sit in files that are
 * only indexed from disk. Also the helpers the outline and completion share: where a name is
 * written, and which places of an eval file name a tool.
 */
import { isAbsolute } from 'node:path';
import type { Location, Range } from 'vscode-languageserver';
import type { EvalSuite, SourceFile, Tool } from '../engine/model';
import { findNode, type SNode } from '../engine/parse/tree';
import { resolveLoc } from '../engine/resolve';
import { keywordLoc, walkSchema } from '../engine/schema';
import type { JsonPath } from '../engine/types';
import { nodeAt, toolAtPath } from './locate';
import { pathToUri } from './uri';
import type { Workspace } from './workspace';

export interface Span {
  start: number;
  end: number;
}

/** Characters a mention boundary may not touch: a name glued to them is another word. */
const WORD_CHAR = /[A-Za-z0-9_-]/;
/** Characters of the tool names a description can mention (a bare or backticked token). */
const NAME_CHAR = /[A-Za-z0-9_.:/-]/;
/** Longest token looked at around a position (names are short; this bounds odd text). */
const MAX_TOKEN = 256;

export function lspRange(file: SourceFile, start: number, end: number): Range {
  const a = file.lines.position(start);
  const b = file.lines.position(Math.max(start, end));
  return { start: { line: a.line - 1, character: a.column - 1 }, end: { line: b.line - 1, character: b.column - 1 } };
}

/** A scalar's text span without its quotes, so a location covers exactly the name. */
export function innerSpan(file: SourceFile, node: SNode): Span {
  let start = node.offset;
  let end = node.offset + node.length;
  const q = file.text[start];
  if (node.type === 'string' && end - start >= 2 && (q === '"' || q === "'") && file.text[end - 1] === q) {
    start++;
    end--;
  }
  return { start, end };
}

/** The node written at a path: a member's key or value, an array item, or the root. */
export function nodeAtPath(file: SourceFile, doc: number, path: JsonPath, target: 'key' | 'value'): SNode | undefined {
  const root = file.root(doc);
  if (path.length === 0) return root;
  const n = findNode(root, path, true);
  if (n?.type === 'property') return target === 'key' ? n.children?.[0] : n.children?.[1];
  return n;
}

/** Where a tool's name is written (a `name` value or a map key), without quotes. */
export function toolNameSpan(tool: Tool): Span {
  const node = nodeAtPath(tool.file, tool.doc, tool.namePath, tool.nameTarget);
  if (node && node.type !== 'object' && node.type !== 'array') return innerSpan(tool.file, node);
  // Not written as a scalar (a nameless tool): the nearest written ancestor, as findings do.
  const r = resolveLoc(tool.file, tool.doc, tool.namePath, tool.nameTarget);
  return { start: r.offset, end: r.offset + r.length };
}

/** URIs of catalogue files for one request (`uriOf` scans the workspace). */
export class UriCache {
  private readonly uris = new Map<SourceFile, string | null>();
  constructor(private readonly ws: Workspace) {}
  of(file: SourceFile): string | null {
    let u = this.uris.get(file);
    if (u === undefined) {
      u = this.ws.uriOf(file) ?? (isAbsolute(file.path) ? pathToUri(file.path) : null);
      this.uris.set(file, u);
    }
    return u;
  }
}

/**
 * Whether a JSON path is a place where an eval suite names a tool: the `tool` of a `must_call`
 * entry, or an item of `must_not_call` (also written as `{tool: …}`). A plain string item of
 * `must_call` counts too: it is still a tool name, even if the eval rules ask for the object form.
 */
export function evalSlot(path: JsonPath): 'must_call' | 'must_not_call' | null {
  for (let i = path.length - 2; i >= 0 && i >= path.length - 3; i--) {
    const key = path[i];
    if ((key !== 'must_call' && key !== 'must_not_call') || typeof path[i + 1] !== 'number') continue;
    const rest = path.length - (i + 2);
    if (rest === 0 || (rest === 1 && path[i + 2] === 'tool')) return key;
  }
  return null;
}

/** Every string node of an eval suite that names a tool. */
export function evalToolNodes(suite: EvalSuite): SNode[] {
  const out: SNode[] = [];
  const base = nodeAtPath(suite.file, suite.doc, suite.path, 'value');
  const path: (string | number)[] = [];
  const visit = (n: SNode | undefined, depth: number): void => {
    if (!n || depth > 64) return;
    if (n.type === 'string') {
      if (evalSlot(path)) out.push(n);
      return;
    }
    if (n.type === 'object') {
      for (const p of n.children ?? []) {
        const [k, v] = p.children ?? [];
        path.push(String(k?.value ?? ''));
        visit(v, depth + 1);
        path.pop();
      }
    } else if (n.type === 'array') {
      (n.children ?? []).forEach((c, i) => {
        path.push(i);
        visit(c, depth + 1);
        path.pop();
      });
    }
  };
  visit(base, 0);
  return out;
}

/** The value nodes of a tool's description and of its parameters' descriptions. */
export function descriptionNodes(tool: Tool): SNode[] {
  const out: SNode[] = [];
  const seen = new Set<number>();
  const add = (path: JsonPath | null): void => {
    if (!path) return;
    const n = nodeAtPath(tool.file, tool.doc, path, 'value');
    if (n && n.type === 'string' && !seen.has(n.offset)) {
      seen.add(n.offset);
      out.push(n);
    }
  };
  if (tool.description !== null) add(tool.descriptionPath);
  walkSchema(tool, (v) => {
    if (v.via === 'defs') return false;
    if (typeof v.schema.description === 'string') add(keywordLoc(v.origin, 'description', 'value').path);
  });
  return out;
}

function boundaryBefore(src: string, i: number): boolean {
  if (i <= 0 || !WORD_CHAR.test(src[i - 1])) return true;
  // `\nname` in a quoted string: the letter belongs to an escape, not to the word.
  let k = i - 2;
  let slashes = 0;
  while (k >= 0 && src[k] === '\\') {
    slashes++;
    k--;
  }
  return slashes % 2 === 1 && /[ntrbf]/.test(src[i - 1]);
}

function boundaryAfter(src: string, i: number): boolean {
  return i >= src.length || !WORD_CHAR.test(src[i]);
}

/** Offsets in the file where `name` is mentioned as a whole word inside a scalar node. */
export function mentionsIn(file: SourceFile, node: SNode, name: string): Span[] {
  if (!name) return [];
  const out: Span[] = [];
  const src = file.text.slice(node.offset, node.offset + node.length);
  for (let i = src.indexOf(name); i >= 0; i = src.indexOf(name, i + 1)) {
    if (boundaryBefore(src, i) && boundaryAfter(src, i + name.length)) out.push({ start: node.offset + i, end: node.offset + i + name.length });
  }
  return out;
}

/**
 * The catalogue tool named by the token at `offset` of a description node: the longest name
 * that covers the offset and starts and ends on a mention boundary (`.`, `:` and `/` may both
 * separate words and belong to a name).
 */
function mentionAt(file: SourceFile, node: SNode, offset: number, known: (name: string) => boolean): { name: string; span: Span } | null {
  const text = file.text;
  const lo = node.offset;
  const hi = node.offset + node.length;
  let a = offset;
  while (a > lo && offset - a < MAX_TOKEN && NAME_CHAR.test(text[a - 1])) a--;
  let b = offset;
  while (b < hi && b - offset < MAX_TOKEN && NAME_CHAR.test(text[b])) b++;
  if (a === b) return null;
  const src = text.slice(lo, hi);
  const starts: number[] = [];
  for (let i = a; i <= offset; i++) if (boundaryBefore(src, i - lo)) starts.push(i);
  const ends: number[] = [];
  for (let j = b; j >= offset; j--) if (boundaryAfter(src, j - lo)) ends.push(j);
  let best: { name: string; span: Span } | null = null;
  for (const s of starts) {
    for (const e of ends) {
      if (e <= s || (best && e - s <= best.span.end - best.span.start)) continue;
      const name = text.slice(s, e);
      if (known(name)) best = { name, span: { start: s, end: e } };
    }
  }
  return best;
}

export interface NamedTool {
  name: string;
  /** Where the name is written at the position. */
  span: Span;
  /** How it is named there. */
  via: 'definition' | 'description' | 'eval';
}

/** The tool name at a position: a tool's own name, a mention in a description, an eval entry. */
export function toolNameAt(ws: Workspace, file: SourceFile, offset: number): NamedTool | null {
  for (const t of file.tools) {
    if (t.name === null || t.name === '') continue;
    const s = toolNameSpan(t);
    if (offset >= s.start && offset <= s.end && s.end > s.start) return { name: t.name, span: s, via: 'definition' };
  }
  const loc = nodeAt(file, offset);
  if (!loc || loc.onKey || loc.node.type !== 'string') return null;
  const node = loc.node;
  if (file.kind === 'eval' && evalSlot(loc.path) && typeof node.value === 'string' && node.value !== '') {
    return { name: node.value, span: innerSpan(file, node), via: 'eval' };
  }
  const tool = toolAtPath(file, loc.doc, loc.path);
  if (!tool || !descriptionNodes(tool).some((n) => n.offset === node.offset)) return null;
  const byName = ws.catalog().byName;
  const m = mentionAt(file, node, offset, (n) => byName.has(n));
  return m ? { name: m.name, span: m.span, via: 'description' } : null;
}

export function getDefinition(ws: Workspace, uri: string, offset: number): Location[] | null {
  const file = ws.file(uri);
  if (!file) return null;
  const named = toolNameAt(ws, file, offset);
  if (!named) return null;
  const tools = ws.catalog().byName.get(named.name) ?? [];
  const uris = new UriCache(ws);
  const out: Location[] = [];
  for (const t of tools) {
    const u = uris.of(t.file);
    if (!u) continue;
    const s = toolNameSpan(t);
    out.push({ uri: u, range: lspRange(t.file, s.start, s.end) });
  }
  return out.length ? out : null;
}

export function getReferences(ws: Workspace, uri: string, offset: number, includeDeclaration: boolean): Location[] {
  const file = ws.file(uri);
  if (!file) return [];
  const named = toolNameAt(ws, file, offset);
  if (!named) return [];
  const name = named.name;
  const catalog = ws.catalog();
  const uris = new UriCache(ws);
  const out: Location[] = [];
  const seen = new Set<string>();
  const add = (f: SourceFile, s: Span): void => {
    const u = uris.of(f);
    const key = `${u}\0${s.start}`;
    if (!u || seen.has(key)) return;
    seen.add(key);
    out.push({ uri: u, range: lspRange(f, s.start, s.end) });
  };
  if (includeDeclaration) for (const t of catalog.byName.get(name) ?? []) add(t.file, toolNameSpan(t));
  for (const t of catalog.tools) for (const n of descriptionNodes(t)) for (const s of mentionsIn(t.file, n, name)) add(t.file, s);
  const suites = [...catalog.evals];
  if (file.evalSuite && !suites.includes(file.evalSuite)) suites.push(file.evalSuite);
  for (const suite of suites) for (const n of evalToolNodes(suite)) if (n.value === name) add(suite.file, innerSpan(suite.file, n));
  return out;
}
