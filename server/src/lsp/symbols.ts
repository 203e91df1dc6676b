/**
 * Document symbols (the Outline): every tool with its parameters, nested properties under the
 * parameter that holds them; an eval suite with its tests. Parameters are found through the
 * origins of the normalised schema, so an MXCP parameter list or a REST parameter map shows the
 * entry as written, not the synthesised JSON Schema.
 */
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver';
import { isObject, type EvalSuite, type SourceFile, type Tool } from '../engine/model';
import { findNode, findProperty, valueOf, type SNode } from '../engine/parse/tree';
import { schemaTypeLabel } from '../engine/render';
import { resolveLoc } from '../engine/resolve';
import { walkSchema, type SchemaVisit } from '../engine/schema';
import type { JsonPath } from '../engine/types';
import { innerSpan, lspRange, nodeAtPath, toolNameSpan, type Span } from './navigation';
import type { Workspace } from './workspace';

/** Longest `detail` shown next to a symbol (the Outline has one line). */
const MAX_DETAIL = 80;

export function getDocumentSymbols(ws: Workspace, uri: string): DocumentSymbol[] {
  const file = ws.file(uri);
  if (!file) return [];
  const out: DocumentSymbol[] = file.tools.map((t) => toolSymbol(t));
  if (file.evalSuite) {
    const s = suiteSymbol(file.evalSuite);
    if (s) out.push(s);
  }
  return out;
}

function firstLine(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const line = text.trim().split(/\r?\n|\r/)[0]?.trim() ?? '';
  if (!line) return undefined;
  return line.length > MAX_DETAIL ? line.slice(0, MAX_DETAIL - 1) + '…' : line;
}

/** The outline needs a non-empty name (VS Code rejects empty ones). */
function label(name: string | null | undefined, fallback: string): string {
  return name && name.trim() ? name : fallback;
}

/** The span of what is written at a path: a member with its key, an array item, the root. */
function entrySpan(file: SourceFile, doc: number, path: JsonPath): Span | null {
  const root = file.root(doc);
  const n = path.length === 0 ? root : findNode(root, path, true);
  return n ? { start: n.offset, end: n.offset + n.length } : null;
}

/** A symbol whose range holds its selection range, as the protocol requires. */
function symbol(file: SourceFile, name: string, kind: SymbolKind, range: Span | null, selection: Span, detail?: string, children?: DocumentSymbol[]): DocumentSymbol {
  const r = range ?? selection;
  const start = Math.min(r.start, selection.start);
  let end = Math.max(r.end, selection.end);
  // A YAML block ends after its last line break; the outline highlights the written text only.
  while (end > selection.end && /\s/.test(file.text[end - 1] ?? '')) end--;
  const s: DocumentSymbol = { name, kind, range: lspRange(file, start, end), selectionRange: lspRange(file, selection.start, selection.end) };
  if (detail) s.detail = detail;
  if (children) s.children = children;
  return s;
}

function toolSymbol(tool: Tool): DocumentSymbol {
  const file = tool.file;
  const children: DocumentSymbol[] = [];
  const byVisit = new Map<SchemaVisit, DocumentSymbol>();
  const names = new Map<DocumentSymbol[], Set<string>>();
  walkSchema(tool, (v) => {
    if (v.via === 'defs') return false;
    if (v.via !== 'properties' || v.name === null) return;
    // The nearest enclosing property holds this one (through `items` and `anyOf` branches).
    let holder: DocumentSymbol | undefined;
    for (let p = v.parent; p && !holder; p = p.parent) holder = byVisit.get(p);
    const list = holder ? (holder.children ??= []) : children;
    let seen = names.get(list);
    if (!seen) names.set(list, (seen = new Set()));
    // The same property in two branches of a union is one entry of the outline.
    if (seen.has(v.name)) return;
    seen.add(v.name);
    const sym = paramSymbol(tool, v, holder ? SymbolKind.Field : SymbolKind.Property);
    list.push(sym);
    byVisit.set(v, sym);
  });
  const range = entrySpan(file, tool.doc, tool.path);
  return symbol(file, label(tool.name, '(unnamed tool)'), SymbolKind.Function, range, toolNameSpan(tool), firstLine(tool.description), children);
}

function paramSymbol(tool: Tool, v: SchemaVisit, kind: SymbolKind): DocumentSymbol {
  const file = tool.file;
  const o = v.origin;
  const node = nodeAtPath(file, tool.doc, o.self, o.selfTarget);
  let selection: Span;
  if (node && node.type !== 'object' && node.type !== 'array') selection = innerSpan(file, node);
  else {
    const r = resolveLoc(file, tool.doc, o.self, o.selfTarget);
    selection = { start: r.offset, end: r.offset + r.length };
  }
  const detail = schemaTypeLabel(v.schema) + (v.required ? ' (required)' : '');
  return symbol(file, label(v.name, '""'), kind, entrySpan(file, tool.doc, o.path), selection, detail);
}

function scalarSpan(file: SourceFile, obj: SNode | undefined, key: string): Span | null {
  if (obj?.type !== 'object') return null;
  const p = findProperty(obj, key);
  const v = p ? valueOf(p) : undefined;
  if (v && v.type !== 'object' && v.type !== 'array' && v.length > 0) return innerSpan(file, v);
  const k = p?.children?.[0];
  return k ? { start: k.offset, end: k.offset + k.length } : null;
}

/** An empty span at the start of a node, when it has no name to select. */
function headSpan(n: SNode): Span {
  return { start: n.offset, end: n.offset };
}

function suiteSymbol(suite: EvalSuite): DocumentSymbol | null {
  const file = suite.file;
  const root = nodeAtPath(file, suite.doc, suite.path, 'value');
  if (!root) return null;
  const tests: DocumentSymbol[] = [];
  const testsProp = root.type === 'object' ? findProperty(root, 'tests') : undefined;
  const list = testsProp ? valueOf(testsProp) : undefined;
  if (list?.type === 'array') {
    (list.children ?? []).forEach((item, i) => {
      const data = Array.isArray(suite.data.tests) ? suite.data.tests[i] : undefined;
      const name = isObject(data) && typeof data.name === 'string' ? data.name : null;
      const sel = scalarSpan(file, item, 'name') ?? headSpan(item);
      const detail = isObject(data) ? firstLine(data.description) ?? firstLine(data.prompt) : undefined;
      tests.push(symbol(file, label(name, `(test ${i + 1})`), SymbolKind.Method, { start: item.offset, end: item.offset + item.length }, sel, detail));
    });
  }
  const sel = scalarSpan(file, root, 'suite') ?? headSpan(root);
  return symbol(file, label(suite.name, '(eval suite)'), SymbolKind.Event, { start: root.offset, end: root.offset + root.length }, sel, firstLine(suite.data.description), tests);
}
