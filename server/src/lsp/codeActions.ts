/**
 * Code actions: every fix (preferred) and suggestion of the findings under the cursor as quick
 * fixes, suppression comments for a line or the file (YAML only: JSON has no comments), a link to
 * the rule's docs, and fix-all for the document (`source.fixAll.mcp-tool-lint`).
 */
import { isDeepStrictEqual } from 'node:util';
import {
  CodeActionKind,
  type CodeAction,
  type CodeActionParams,
  type Diagnostic as LspDiagnostic,
  type Range as LspRange,
  type TextEdit as LspTextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import type { Diagnostic } from '../engine/diagnostic';
import { applyEdits, opsToEdits } from '../engine/fix/edits';
import type { SourceFile } from '../engine/model';
import { parseText, type ParseResult, type SNode } from '../engine/parse';
import { getRule } from '../engine/rules';
import type { Fix } from '../engine/rules/api';
import { parseDirectives, type Directive } from '../engine/suppress';
import type { TextEdit } from '../engine/types';
import { diagnosticsAt, toLspDiagnostic, toLspRange } from './diagnostics';
import { fixAllText, minimalEdit } from './fixAll';
import type { Workspace } from './workspace';
import { COMMANDS } from './commands';

export const FIX_ALL_KIND = 'source.fixAll.mcp-tool-lint';
export const SHOW_RULE_DOCS_COMMAND = COMMANDS.showRuleDocs;

export interface CodeActionOptions {
  /**
   * The client accepts `documentChanges` (`workspace.workspaceEdit.documentChanges`): edits then
   * carry the document version, so a client can refuse them once the text has moved on. Without
   * it, plain `changes` (every client understands those).
   */
  documentChanges?: boolean;
  /** Told about a failure that was turned into an empty answer (the session's output channel). */
  onError?: (e: unknown) => void;
}

export function getCodeActions(ws: Workspace, params: CodeActionParams, options: CodeActionOptions = {}): CodeAction[] {
  try {
    const uri = params?.textDocument?.uri;
    const file = typeof uri === 'string' ? ws.file(uri) : undefined;
    if (!uri || !file) return [];
    const only = Array.isArray(params.context?.only) ? params.context.only : undefined;
    const ctx: Ctx = { ws, uri, file, documentChanges: !!options.documentChanges };
    const out: CodeAction[] = [];
    if (wants(only, CodeActionKind.QuickFix)) out.push(...quickFixes(ctx, params));
    // Only on request: the fix loop re-lints the document, too costly for every cursor move.
    if (only && wants(only, FIX_ALL_KIND)) {
      const all = fixAll(ctx);
      if (all) out.push(all);
    }
    return out;
  } catch (e) {
    // A half-built answer is worse than none: the client gets nothing, the log gets the cause.
    options.onError?.(e);
    return [];
  }
}

interface Ctx {
  ws: Workspace;
  uri: string;
  file: SourceFile;
  documentChanges: boolean;
}

/** LSP kinds are hierarchical: `source` asks for `source.fixAll.x` too; `''` asks for everything. */
function wants(only: readonly string[] | undefined, kind: string): boolean {
  if (!only) return true;
  return only.some((k) => typeof k === 'string' && (k === '' || k === kind || kind.startsWith(k + '.')));
}

// ---------------------------------------------------------------------------------------------
// Quick fixes

function quickFixes(ctx: Ctx, params: CodeActionParams): CodeAction[] {
  const { ws, uri, file } = ctx;
  const all = ws.lintResult(uri)?.diagnostics ?? [];
  if (all.length === 0) return [];
  const [start, end] = [offsetOf(file, params.range?.start), offsetOf(file, params.range?.end)];
  const sent = (Array.isArray(params.context?.diagnostics) ? params.context.diagnostics : []).filter((c) => c && (c.source === undefined || c.source === 'mcp-tool-lint'));
  // The client's own diagnostic objects, when it sent them, so it can tie actions to its markers.
  const clientDiag = (d: Diagnostic): LspDiagnostic | undefined => {
    const r = toLspRange(d);
    return sent.find((c) => c.code === d.rule && sameRange(c.range, r));
  };
  const here = new Set(diagnosticsAt(ws, uri, Math.min(start, end), Math.max(start, end)));
  const chosen = all.filter((d) => here.has(d) || clientDiag(d));

  const fixes: CodeAction[] = [];
  const suppress: CodeAction[] = [];
  const docs: CodeAction[] = [];
  const seen = new Set<string>();
  let directives: Directive[] | undefined;
  for (const d of chosen) {
    const lsp = clientDiag(d) ?? toLspDiagnostic(d);
    if (d.fix) pushFix(fixes, ctx, d, d.fix, lsp, true);
    for (const s of d.suggestions ?? []) pushFix(fixes, ctx, d, s, lsp, false);
    const rule = getRule(d.rule) ? d.rule : null;
    if (!rule) continue;
    if (file.lang === 'yaml') {
      directives ??= parseDirectives(file);
      const lineKey = `line:${rule}:${d.range.start.line}`;
      if (!seen.has(lineKey)) {
        seen.add(lineKey);
        const edit = disableLineEdit(file, directives, rule, d.range.start.line);
        if (edit) suppress.push(action(ctx, `Disable \`${rule}\` for this line`, [edit], lsp));
      }
      if (!seen.has(`file:${rule}`)) {
        seen.add(`file:${rule}`);
        const edit = disableFileEdit(file, directives, rule, d.range.start.line);
        if (edit) suppress.push(action(ctx, `Disable \`${rule}\` for this file`, [edit], lsp));
      }
    }
    if (!seen.has(`docs:${rule}`)) {
      seen.add(`docs:${rule}`);
      docs.push({
        title: `Show documentation for \`${rule}\``,
        kind: CodeActionKind.QuickFix,
        diagnostics: [lsp],
        command: { title: `Show documentation for \`${rule}\``, command: SHOW_RULE_DOCS_COMMAND, arguments: [rule] },
      });
    }
  }
  return [...fixes, ...suppress, ...docs];
}

function pushFix(out: CodeAction[], ctx: Ctx, d: Diagnostic, fix: Fix, lsp: LspDiagnostic, preferred: boolean): void {
  let edits: TextEdit[] | null;
  try {
    edits = opsToEdits(ctx.file, d.doc, fix.ops);
  } catch {
    // A fix the edit planner cannot handle is left out; the other actions still go back.
    edits = null;
  }
  if (!edits || edits.length === 0) return;
  const a = action(ctx, fix.title, edits, lsp);
  if (preferred) a.isPreferred = true;
  out.push(a);
}

function action(ctx: Ctx, title: string, edits: readonly TextEdit[], lsp: LspDiagnostic): CodeAction {
  return { title, kind: CodeActionKind.QuickFix, diagnostics: [lsp], edit: workspaceEdit(ctx, edits) };
}

// ---------------------------------------------------------------------------------------------
// Suppression comments

const NEXT_LINE = /#\s*mcp-tool-lint-disable-next-line\b/;
const FILE_WIDE = /^#\s*mcp-tool-lint-disable\b(?!-)/;

/**
 * `# mcp-tool-lint-disable-next-line RULE` above the finding's (1-based) line, indented like it;
 * or `, RULE` added to a directive already there. Null where a `#` line would be text, not a
 * comment (the line continues a multi-line string).
 */
function disableLineEdit(file: SourceFile, directives: Directive[], rule: string, line: number): TextEdit | null {
  const lines = file.lines;
  if (line < 1 || line > lines.lineCount) return null;
  const above = directives.find((x) => x.kind === 'disable-next-line' && x.line === line - 1 && x.rules);
  if (above) {
    if (above.rules!.includes(rule)) return null;
    const at = appendPoint(file, line - 2, NEXT_LINE);
    return at === null ? null : checked(file, { start: at, end: at, text: `, ${rule}` });
  }
  const start = lines.lineStart(line - 1);
  const indent = /^[ \t]*/.exec(file.text.slice(start, lines.lineEnd(line - 1)))![0];
  const edit = { start, end: start, text: `${indent}# mcp-tool-lint-disable-next-line ${rule}${lineBreak(file)}` };
  // On a clean tree, checked without re-parsing (this action is built on every cursor move); a
  // half-written document's tree says too little, so there the edit is re-parsed.
  if (file.parsed.problems.length > 0) return checked(file, edit);
  return insideScalar(file, start) ? null : edit;
}

/**
 * `# mcp-tool-lint-disable RULE` on the first line (or `, RULE` added to such a directive there).
 * Null when an `enable` before the finding would end the suppression before it reaches it.
 */
function disableFileEdit(file: SourceFile, directives: Directive[], rule: string, line: number): TextEdit | null {
  if (directives.some((x) => x.kind === 'enable' && x.line < line && (!x.rules || x.rules.includes(rule)))) return null;
  const top = directives.find((x) => x.kind === 'disable' && x.line === 1 && x.column === 1 && x.rules);
  if (top) {
    if (top.rules!.includes(rule)) return null;
    const at = appendPoint(file, 0, FILE_WIDE);
    return at === null ? null : checked(file, { start: at, end: at, text: `, ${rule}` });
  }
  // A comment line before everything else is valid in any YAML stream.
  return { start: 0, end: 0, text: `# mcp-tool-lint-disable ${rule}${lineBreak(file)}` };
}

/** Offset just after the last rule id of the directive on a 0-based line (before any `-- reason`). */
function appendPoint(file: SourceFile, line0: number, re: RegExp): number | null {
  const start = file.lines.lineStart(line0);
  const text = file.text.slice(start, file.lines.lineEnd(line0));
  const m = re.exec(text);
  if (!m) return null;
  const listStart = m.index + m[0].length;
  const rest = text.slice(listStart);
  const dd = rest.indexOf('--');
  const list = (dd >= 0 ? rest.slice(0, dd) : rest).trimEnd();
  if (list.trim() === '') return null;
  return start + listStart + list.length;
}

/** Whether `offset` lies strictly inside a scalar (a multi-line string, key or block scalar). */
function insideScalar(file: SourceFile, offset: number): boolean {
  const stack: SNode[] = [];
  for (let d = 0; d < file.parsed.docs.length; d++) {
    const root = file.root(d);
    if (root) stack.push(root);
  }
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (offset <= n.offset || offset >= n.offset + n.length) continue;
    if (!n.children) return true;
    stack.push(...n.children);
  }
  return false;
}

/**
 * The edit, if the text still parses as well as before and to the same data. For additions to an
 * existing directive: the engine takes a `#` inside a string for one, and text added there would
 * change the string.
 */
function checked(file: SourceFile, edit: TextEdit): TextEdit | null {
  const after = parseText(applyEdits(file.text, [edit]), file.lang);
  const before = file.parsed;
  if (count(after, 'parse-error') > count(before, 'parse-error') || count(after, 'duplicate-key') > count(before, 'duplicate-key')) return null;
  if (after.docs.length !== before.docs.length) return null;
  for (let i = 0; i < before.docs.length; i++) if (!isDeepStrictEqual(after.docs[i].data, before.docs[i].data)) return null;
  return edit;
}

function count(r: ParseResult, kind: 'parse-error' | 'duplicate-key'): number {
  return r.problems.filter((p) => p.kind === kind).length;
}

function lineBreak(file: SourceFile): string {
  return /\r\n|\r|\n/.exec(file.text)?.[0] ?? '\n';
}

// ---------------------------------------------------------------------------------------------
// Fix-all

function fixAll(ctx: Ctx): CodeAction | null {
  const fixed = fixAllText(ctx.ws, ctx.uri);
  if (fixed === null) return null;
  return { title: 'Fix all auto-fixable mcp-tool-lint problems', kind: FIX_ALL_KIND, edit: workspaceEdit(ctx, [minimalEdit(ctx.file.text, fixed)]) };
}

// ---------------------------------------------------------------------------------------------
// Positions and edits

function offsetOf(file: SourceFile, pos: { line: number; character: number } | undefined): number {
  const line = Number.isFinite(pos?.line) ? Math.max(0, Math.floor(pos!.line)) : 0;
  const character = Number.isFinite(pos?.character) ? Math.max(0, Math.floor(pos!.character)) : 0;
  return file.lines.offset({ line: line + 1, column: character + 1 });
}

function lspRange(file: SourceFile, start: number, end: number): LspRange {
  const a = file.lines.position(start);
  const b = file.lines.position(end);
  return { start: { line: a.line - 1, character: a.column - 1 }, end: { line: b.line - 1, character: b.column - 1 } };
}

function sameRange(a: LspRange | undefined, b: LspRange): boolean {
  return !!a && a.start?.line === b.start.line && a.start?.character === b.start.character && a.end?.line === b.end.line && a.end?.character === b.end.character;
}

function workspaceEdit(ctx: Ctx, edits: readonly TextEdit[]): WorkspaceEdit {
  const lsp: LspTextEdit[] = edits.map((e) => ({ range: lspRange(ctx.file, e.start, e.end), newText: e.text }));
  if (!ctx.documentChanges) return { changes: { [ctx.uri]: lsp } };
  // A file only read from disk has no editor version: null lets the client apply it to any.
  const version = ctx.ws.isOpen(ctx.uri) ? ctx.file.version : null;
  return { documentChanges: [{ textDocument: { uri: ctx.uri, version }, edits: lsp }] };
}
