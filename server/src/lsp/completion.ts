/**
 * Completion where a tool is expected: tool names in eval suites (`tool:` of a `must_call` entry,
 * items of `must_not_call`) and in descriptions after a backtick; argument names inside the
 * `args:` of a `must_call` entry whose tool is known.
 *
 * A document being typed is usually half-written: `tool: ` has no value yet, `args:` no members,
 * so the tree has no node at the cursor (or a wrong one: a key being typed parses as a scalar).
 * Block-style YAML is therefore read from the current line and the indentation of the lines
 * above it; the tree serves JSON and flow collections, and everything the lines do not settle.
 */
import { CompletionItemKind, MarkupKind, type CompletionItem } from 'vscode-languageserver';
import { isObject, type Catalog, type Schema, type SourceFile, type Tool } from '../engine/model';
import { findNode, keyOf } from '../engine/parse/tree';
import { renderTool, schemaTypeLabel } from '../engine/render';
import { isRequiredIn } from '../engine/schema';
import { promptHide } from './preview';
import type { JsonPath } from '../engine/types';
import { nodeAt, toolAtPath } from './locate';
import { descriptionNodes, evalSlot, innerSpan, lspRange, type Span } from './navigation';
import type { Workspace } from './workspace';

/**
 * A backtick opens a name in a description; a space follows `tool:` and `-`; quotes open a
 * value; `:` and `-` let a client ask again right after a key or a list dash.
 */
export const COMPLETION_TRIGGERS = ['`', ' ', ':', '-', '"', "'"];

const NAME_RUN = /^[A-Za-z0-9_.:/-]*/;
const NAME_TAIL = /[A-Za-z0-9_.:/-]*$/;
const KEY_RUN = /^[A-Za-z0-9_.$-]*/;
/** How many lines an indentation scan reads at most (bounds the work on a huge file). */
const MAX_SCAN = 5000;
const DESCRIPTION_KEYS = new Set(['description', 'desc']);

type Seg = string | number;

type Context =
  | { kind: 'tool'; span: Span; text: (name: string) => string; exclude: string | null }
  | { kind: 'args'; tool: string; segs: Seg[]; span: Span; text: (name: string) => string; present: Set<string> };

export function getCompletions(ws: Workspace, uri: string, offset: number): CompletionItem[] {
  const file = ws.file(uri);
  if (!file || offset < 0 || offset > file.text.length) return [];
  let ctx: Context | null = null;
  if (file.kind === 'eval') ctx = (file.lang === 'yaml' ? yamlEvalContext(file, offset) : null) ?? treeEvalContext(file, offset);
  else if (file.kind === 'tools') ctx = descriptionContext(file, offset);
  if (!ctx || !onOneLine(file, ctx.span, offset)) return [];
  return ctx.kind === 'tool' ? toolItems(ws, file, ctx) : argItems(ws.catalog(), file, ctx);
}

function onOneLine(file: SourceFile, s: Span, offset: number): boolean {
  return s.start <= offset && offset <= s.end && file.lines.lineOf(s.start) === file.lines.lineOf(s.end);
}

// ---------------------------------------------------------------------------------------------
// Items

const rendered = new WeakMap<Catalog, { hide: ReturnType<typeof promptHide>; docs: Map<Tool, string> }>();

/**
 * The prompt preview of a tool, rendered once per catalogue (the workspace caches catalogues),
 * hiding the same fields as the hover and the preview document.
 */
function promptOf(ws: Workspace, tool: Tool): string {
  const catalog = ws.catalog();
  let r = rendered.get(catalog);
  if (!r) rendered.set(catalog, (r = { hide: promptHide(ws), docs: new Map() }));
  let doc = r.docs.get(tool);
  if (doc === undefined) r.docs.set(tool, (doc = renderTool(tool, { hide: r.hide })));
  return doc;
}

function firstLine(text: string | null): string | undefined {
  const line = text?.trim().split(/\r?\n|\r/)[0]?.trim();
  return line || undefined;
}

function toolItems(ws: Workspace, file: SourceFile, ctx: Extract<Context, { kind: 'tool' }>): CompletionItem[] {
  const catalog = ws.catalog();
  const range = lspRange(file, ctx.span.start, ctx.span.end);
  const out: CompletionItem[] = [];
  for (const [name, tools] of catalog.byName) {
    if (!name || name === ctx.exclude) continue;
    const tool = tools[0];
    const newText = ctx.text(name);
    out.push({
      label: name,
      kind: CompletionItemKind.Function,
      detail: firstLine(tool.description),
      documentation: { kind: MarkupKind.Markdown, value: promptOf(ws, tool) },
      filterText: name,
      insertText: newText,
      textEdit: { range, newText },
    });
  }
  return out;
}

/** The schemas a value may match: the schema itself and its union or intersection branches. */
function branches(s: Schema, depth = 0): Schema[] {
  const out = [s];
  if (depth > 4) return out;
  for (const comb of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[comb];
    if (Array.isArray(list)) for (const b of list) if (isObject(b)) out.push(...branches(b, depth + 1));
  }
  return out;
}

/** The properties an object value may have, with whether each is required. */
function objectProps(s: Schema): Map<string, { schema: Schema; required: boolean }> {
  const out = new Map<string, { schema: Schema; required: boolean }>();
  for (const b of branches(s)) {
    const props = b.properties;
    if (!isObject(props)) continue;
    // Properties left out of a `visible` list are filled by the server (see `walkSchema`).
    const visible = Array.isArray(b.visible) ? new Set(b.visible) : null;
    for (const [name, ps] of Object.entries(props)) {
      if (!isObject(ps) || (visible && !visible.has(name)) || out.has(name)) continue;
      out.set(name, { schema: ps, required: isRequiredIn(b, name, ps) });
    }
  }
  return out;
}

/** The schema of the value at one step below an argument value (a member or an array item). */
function step(s: Schema, seg: Seg): Schema | null {
  if (typeof seg === 'number') {
    for (const b of branches(s)) if (isObject(b.items)) return b.items;
    return null;
  }
  return objectProps(s).get(seg)?.schema ?? null;
}

function argItems(catalog: Catalog, file: SourceFile, ctx: Extract<Context, { kind: 'args' }>): CompletionItem[] {
  let schema: Schema | null = catalog.byName.get(ctx.tool)?.[0]?.inputSchema ?? null;
  for (const seg of ctx.segs) if (schema) schema = step(schema, seg);
  if (!schema) return [];
  const range = lspRange(file, ctx.span.start, ctx.span.end);
  const out: CompletionItem[] = [];
  for (const [name, { schema: ps, required }] of objectProps(schema)) {
    if (!name || ctx.present.has(name)) continue;
    const newText = ctx.text(name);
    const item: CompletionItem = {
      label: name,
      kind: CompletionItemKind.Property,
      detail: schemaTypeLabel(ps),
      // Required arguments first, each group in the schema's order.
      sortText: `${required ? 0 : 1}${String(out.length).padStart(5, '0')}`,
      filterText: name,
      insertText: newText,
      textEdit: { range, newText },
    };
    if (typeof ps.description === 'string' && ps.description.trim()) item.documentation = { kind: MarkupKind.Markdown, value: ps.description };
    out.push(item);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading block-style YAML by lines

interface LineInfo {
  indent: number;
  /** Column of a sequence dash (`- `), or null. */
  dash: number | null;
  /** Column where the key (or the item's content) starts. */
  keyAt: number;
  key: string | null;
  /** Text after the key's colon (or the whole content when there is no key). */
  rest: string;
  /** Nothing but spaces or a comment. */
  blank: boolean;
}

const KEY_RE = /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^\s#"'{}[\],&*!|>%@`][^#]*?))[ \t]*:(?=\s|$)/;

function readLine(text: string): LineInfo {
  let i = 0;
  while (i < text.length && text[i] === ' ') i++;
  const indent = i;
  let dash: number | null = null;
  if (text[i] === '-' && (i + 1 === text.length || text[i + 1] === ' ' || text[i + 1] === '\t')) {
    dash = i;
    i++;
    while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  }
  const body = text.slice(i);
  const m = KEY_RE.exec(body);
  const key = m ? (m[1] ?? m[2]?.replace(/''/g, "'") ?? m[3] ?? '') : null;
  const rest = m ? body.slice(m[0].length) : body;
  return { indent, dash, keyAt: i, key, rest, blank: dash === null && (body.trim() === '' || body.startsWith('#')) };
}

function lineText(file: SourceFile, line: number): string {
  return file.text.slice(file.lines.lineStart(line), file.lines.lineEnd(line));
}

/** No value on the key's line: its value is the indented block below. */
function opensBlock(rest: string): boolean {
  return /^\s*(?:#.*)?$/.test(rest);
}

function scalarValue(rest: string): string {
  const v = rest.replace(/\s+#.*$/, '').trim();
  const q = v[0];
  if ((q === '"' || q === "'") && v.length >= 2 && v.endsWith(q)) return v.slice(1, -1);
  return v;
}

/** A key (or, with `key: null`, a sequence item) that encloses a position. */
interface Frame {
  key: string | null;
  line: number;
  col: number;
  /** For an item: where its first key stands. */
  keyAt: number;
  rest: string;
}

/**
 * The keys and items that enclose a position at column `col` of line `from`, innermost first,
 * found by indentation. `inItem` says the position itself is a sequence item at `col` (whose
 * parent key may stand at the same column: `key:\n- item`).
 */
function ancestors(file: SourceFile, from: number, col: number, inItem: boolean): Frame[] {
  const out: Frame[] = [];
  let cur = col;
  let item = inItem;
  for (let l = from - 1; l >= 0 && from - l <= MAX_SCAN; l--) {
    if (cur === 0 && !item) break;
    const info = readLine(lineText(file, l));
    if (info.blank) continue;
    if (info.dash !== null) {
      if (info.dash < cur) {
        if (info.key !== null && info.keyAt < cur) out.push({ key: info.key, line: l, col: info.keyAt, keyAt: info.keyAt, rest: info.rest });
        out.push({ key: null, line: l, col: info.dash, keyAt: info.keyAt, rest: info.rest });
        cur = info.dash;
        item = true;
      }
      continue;
    }
    if (info.key === null) continue;
    if (info.indent < cur || (item && info.indent === cur && opensBlock(info.rest))) {
      out.push({ key: info.key, line: l, col: info.indent, keyAt: info.indent, rest: info.rest });
      cur = info.indent;
      item = false;
    }
  }
  return out;
}

/** The `tool:` value of the block-style item that starts at `item`, wherever it stands in it. */
function itemTool(file: SourceFile, item: Frame): string | null {
  const first = readLine(lineText(file, item.line));
  if (first.key === 'tool') return scalarValue(first.rest) || null;
  const flow = /(?:^|[{,])\s*["']?tool["']?\s*:\s*["']?([A-Za-z0-9_.:/-]+)/.exec(first.rest.startsWith('{') ? first.rest : '');
  if (flow) return flow[1];
  for (let l = item.line + 1; l < file.lines.lineCount && l - item.line <= MAX_SCAN; l++) {
    const info = readLine(lineText(file, l));
    if (info.blank) continue;
    if ((info.dash ?? info.indent) <= item.col) break;
    if (info.dash === null && info.indent === item.keyAt && info.key === 'tool') return scalarValue(info.rest) || null;
  }
  return null;
}

/** Keys written at column `col` in the block mapping around line `line` (the position's siblings). */
function siblingKeys(file: SourceFile, line: number, col: number, parentLine: number): Set<string> {
  const out = new Set<string>();
  const take = (l: number): boolean => {
    const info = readLine(lineText(file, l));
    if (info.blank) return true;
    if ((info.dash ?? info.indent) < col) return false;
    if (info.dash === null && info.indent === col && info.key !== null) out.add(info.key);
    return true;
  };
  for (let l = line - 1; l > parentLine && take(l); l--);
  for (let l = line + 1; l < file.lines.lineCount && l - line <= MAX_SCAN && take(l); l++);
  return out;
}

/** The enclosing `must_call` entry of a frame chain whose innermost frames are `…, args, item, must_call`. */
function argsFrames(frames: Frame[]): { args: number } | null {
  for (let k = 0; k + 2 < frames.length; k++) {
    if (frames[k].key === 'args' && frames[k + 1].key === null && frames[k + 2].key === 'must_call') return { args: k };
  }
  return null;
}

function yamlEvalContext(file: SourceFile, offset: number): Context | null {
  const lines = file.lines;
  const ln = lines.lineOf(offset);
  const ls = lines.lineStart(ln);
  const before = file.text.slice(ls, offset);
  const after = file.text.slice(offset, lines.lineEnd(ln));
  const cur = readLine(before);
  const nameEnd = offset + (NAME_RUN.exec(after)?.[0].length ?? 0);

  /** Replace the name being typed; add a separating space or a closing quote when missing. */
  const toolCtx = (prefix: string, quote: string, spaced: boolean): Context => {
    const close = quote && file.text[nameEnd] !== quote ? quote : '';
    return { kind: 'tool', span: { start: offset - prefix.length, end: nameEnd }, text: (n) => (spaced ? '' : ' ') + n + close, exclude: null };
  };

  // `tool: …` of a `must_call` entry, block style or a flow entry on this line.
  const tool = /(?:^[ \t]*(?:-[ \t]+)?|[{,][ \t]*)["']?tool["']?[ \t]*:([ \t]*)(["']?)([A-Za-z0-9_.:/-]*)$/.exec(before);
  if (tool && (tool[1] !== '' || (tool[2] === '' && tool[3] === ''))) {
    let inMustCall = /["']?must_call["']?[ \t]*:[ \t]*\[/.test(before);
    if (!inMustCall) {
      const frames = cur.dash !== null ? ancestors(file, ln, cur.dash, true) : ancestors(file, ln, cur.indent, false);
      inMustCall = cur.dash !== null ? frames[0]?.key === 'must_call' : frames[0]?.key === null && frames[1]?.key === 'must_call';
    }
    return inMustCall ? toolCtx(tool[3], tool[2], tool[1] !== '') : null;
  }

  // An item of `must_not_call` (or a `must_call` entry written as the tool name alone): `- name`
  // below it, or `[a, name` after it on this line.
  const item = /^[ \t]*-(?:([ \t]+)(["']?)([A-Za-z0-9_.:/-]*))?$/.exec(before);
  if (item && cur.dash !== null) {
    const key = ancestors(file, ln, cur.dash, true)[0]?.key;
    return key === 'must_not_call' || key === 'must_call' ? toolCtx(item[3] ?? '', item[2] ?? '', !!item[1]) : null;
  }
  const flowList = /["']?must_(?:not_)?call["']?[ \t]*:[ \t]*\[(?:[^\]]*,)?[ \t]*(["']?)([A-Za-z0-9_.:/-]*)$/.exec(before);
  if (flowList) return toolCtx(flowList[2], flowList[1], true);

  // `args: {a: 1, na` on this line.
  const flowArgs = /(?:^|[\s{,])["']?args["']?[ \t]*:[ \t]*\{([^{}]*?)([A-Za-z0-9_.$-]*)$/.exec(before);
  if (flowArgs && (flowArgs[1] === '' || /,\s*$/.test(flowArgs[1]))) {
    let toolName = /(?:^|[\s{,])["']?tool["']?\s*:\s*["']?([A-Za-z0-9_.:/-]+)/.exec(before)?.[1] ?? null;
    if (!toolName) {
      const frames = cur.dash !== null ? [{ key: null, line: ln, col: cur.dash, keyAt: cur.keyAt, rest: cur.rest }] : ancestors(file, ln, cur.indent, false);
      if (frames[0]?.key === null) toolName = itemTool(file, frames[0]);
    }
    if (!toolName) return null;
    const present = new Set([...flowArgs[1].matchAll(/([A-Za-z0-9_.$-]+)["']?\s*:/g)].map((m) => m[1]));
    const end = offset + (KEY_RUN.exec(after)?.[0].length ?? 0);
    const colon = /^[ \t]*:/.test(file.text.slice(end));
    return { kind: 'args', tool: toolName, segs: [], span: { start: offset - flowArgs[2].length, end }, text: (n) => (colon ? n : `${n}: `), present };
  }

  // A key being typed (or an empty line) in the block under `args:`.
  const key = /^[ \t]*([A-Za-z0-9_.$-]*)$/.exec(before);
  if (key) {
    const col = key[1] === '' ? before.length : cur.indent;
    const frames = ancestors(file, ln, col, false);
    const found = argsFrames(frames);
    if (!found || !opensBlock(frames[found.args].rest)) return null;
    const toolName = itemTool(file, frames[found.args + 1]);
    if (!toolName) return null;
    const segs: Seg[] = [];
    for (let k = found.args - 1; k >= 0; k--) segs.push(frames[k].key ?? 0);
    const present = siblingKeys(file, ln, col, frames[0].line);
    const end = offset + (KEY_RUN.exec(after)?.[0].length ?? 0);
    const colon = /^[ \t]*:/.test(file.text.slice(end));
    return { kind: 'args', tool: toolName, segs, span: { start: offset - key[1].length, end }, text: (n) => (colon ? n : `${n}: `), present };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Reading the tree (JSON, flow collections)

function treeEvalContext(file: SourceFile, offset: number): Context | null {
  const loc = nodeAt(file, offset);
  if (!loc) return null;
  const json = file.lang === 'json';
  const { node, path } = loc;
  if (!loc.onKey && (node.type === 'string' || node.type === 'null') && evalSlot(path)) {
    if (node.type === 'string') return { kind: 'tool', span: innerSpan(file, node), text: (n) => n, exclude: null };
    return { kind: 'tool', span: { start: offset, end: offset }, text: (n) => (json ? JSON.stringify(n) : n), exclude: null };
  }
  if (!loc.onKey && node.type === 'array' && (path[path.length - 1] === 'must_not_call' || path[path.length - 1] === 'must_call')) {
    return { kind: 'tool', span: { start: offset, end: offset }, text: (n) => (json ? JSON.stringify(n) : n), exclude: null };
  }
  const a = argsIndex(path);
  if (a < 0) return null;
  const toolNode = findNode(file.root(loc.doc), [...path.slice(0, a), 'tool']);
  const toolName = typeof toolNode?.value === 'string' ? toolNode.value : null;
  if (!toolName) return null;
  const segs = path.slice(a + 1) as Seg[];
  if (loc.onKey) {
    const obj = node.parent?.parent;
    const present = new Set((obj?.children ?? []).filter((p) => p !== node.parent).map(keyOf));
    const span = innerSpan(file, node);
    // Read the text: a YAML flow key without a colon (`{na}`) still records where one would be.
    const colon = /^["']?[ \t]*:/.test(file.text.slice(node.offset + node.length));
    return { kind: 'args', tool: toolName, segs: segs.slice(0, -1), span, text: (n) => (json || colon ? n : `${n}: `), present };
  }
  if (node.type !== 'object') return null;
  const present = new Set((node.children ?? []).map(keyOf));
  return { kind: 'args', tool: toolName, segs, span: { start: offset, end: offset }, text: (n) => (json ? `${JSON.stringify(n)}: ` : `${n}: `), present };
}

/** Index of `args` in a path `…, must_call, N, args, …`, or -1. */
function argsIndex(path: JsonPath): number {
  for (let i = 2; i < path.length; i++) if (path[i] === 'args' && typeof path[i - 1] === 'number' && path[i - 2] === 'must_call') return i;
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Descriptions

function descriptionContext(file: SourceFile, offset: number): Context | null {
  let lo: number | null = null;
  let exclude: string | null = null;
  const loc = nodeAt(file, offset);
  if (loc && !loc.onKey && loc.node.type === 'string') {
    const tool = toolAtPath(file, loc.doc, loc.path);
    if (tool && descriptionNodes(tool).some((n) => n.offset === loc.node.offset)) {
      lo = loc.node.offset;
      exclude = tool.name;
    }
  }
  if (lo === null && file.lang === 'yaml') lo = yamlDescriptionStart(file, offset);
  if (lo === null) return null;
  const lines = file.lines;
  const ln = lines.lineOf(offset);
  // A name never spans lines, and a backtick left open on an earlier line is prose, not a name.
  const seg = file.text.slice(Math.max(lo, lines.lineStart(ln)), offset);
  if ((seg.match(/`/g)?.length ?? 0) % 2 === 0) return null;
  const prefix = seg.slice(seg.lastIndexOf('`') + 1);
  if (NAME_TAIL.exec(prefix)?.[0] !== prefix) return null;
  const end = offset + (NAME_RUN.exec(file.text.slice(offset, lines.lineEnd(ln)))?.[0].length ?? 0);
  const close = file.text[end] === '`' ? '' : '`';
  return { kind: 'tool', span: { start: offset - prefix.length, end }, text: (n) => n + close, exclude };
}

/** Where the description being typed starts, read from the lines when the tree has no string there. */
function yamlDescriptionStart(file: SourceFile, offset: number): number | null {
  const lines = file.lines;
  const ln = lines.lineOf(offset);
  const ls = lines.lineStart(ln);
  const before = file.text.slice(ls, offset);
  const cur = readLine(before);
  if (cur.key !== null && DESCRIPTION_KEYS.has(cur.key)) return offset - cur.rest.length;
  if (cur.key !== null || cur.dash !== null) return null;
  // A continuation line of a multi-line description.
  const frames = ancestors(file, ln, cur.blank ? before.length : cur.indent, false);
  return frames[0]?.key !== null && frames[0] && DESCRIPTION_KEYS.has(frames[0].key) ? ls : null;
}
