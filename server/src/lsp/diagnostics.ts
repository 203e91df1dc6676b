/** Engine diagnostics as LSP diagnostics (code = rule id, with a link to the rule's docs). */
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import type { Diagnostic } from '../engine/diagnostic';
import { ruleDocsUrl } from '../engine/docs-url';
import type { Workspace } from './workspace';

export function toLspRange(d: { range: { start: { line: number; column: number }; end: { line: number; column: number } } }) {
  return {
    start: { line: d.range.start.line - 1, character: d.range.start.column - 1 },
    end: { line: d.range.end.line - 1, character: d.range.end.column - 1 },
  };
}

/**
 * LSP diagnostics by their engine range object. The engine hands out the same range object only
 * for a cached finding re-emitted unchanged (same rule, message, tool, lines), so its LSP form is
 * the same too and is built once.
 */
const converted = new WeakMap<object, LspDiagnostic>();

export function toLspDiagnostic(d: Diagnostic): LspDiagnostic {
  const hit = converted.get(d.range);
  if (hit && hit.code === d.rule && hit.message === d.message && hit.severity === lspSeverity(d.severity)) return hit;
  const out = convert(d);
  converted.set(d.range, out);
  return out;
}

function lspSeverity(s: Diagnostic['severity']): DiagnosticSeverity {
  return s === 'error' ? DiagnosticSeverity.Error : s === 'warning' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Information;
}

function convert(d: Diagnostic): LspDiagnostic {
  return {
    range: toLspRange(d),
    severity: lspSeverity(d.severity),
    code: d.rule,
    codeDescription: { href: ruleDocsUrl(d.rule) },
    source: 'mcp-tool-lint',
    message: d.message,
    data: { rule: d.rule, pointer: d.pointer, tool: d.tool, parameter: d.parameter },
  };
}

export function documentDiagnostics(ws: Workspace, uri: string): LspDiagnostic[] {
  const r = ws.lintResult(uri);
  return r ? r.diagnostics.map(toLspDiagnostic) : [];
}

/** The engine diagnostics that overlap an LSP range (for code actions and hover). */
export function diagnosticsAt(ws: Workspace, uri: string, startOffset: number, endOffset: number): Diagnostic[] {
  const r = ws.lintResult(uri);
  if (!r) return [];
  return r.diagnostics.filter((d) => d.offset <= endOffset && d.offset + d.length >= startOffset);
}
