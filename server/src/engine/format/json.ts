/**
 * The JSON report of CONTRACTS.md. Fields may be added, never renamed: `reason` on files and
 * `docs` on diagnostics are additions.
 */
import type { Diagnostic, LintResult } from '../diagnostic';
import { ruleDocsUrl } from '../docs-url';
import { getRule } from '../rules';
import { displayPath, type FormatOptions } from './common';

export function formatJson(result: LintResult, opts: FormatOptions): string {
  const report = {
    version: 1,
    files: result.results.map((r) => ({
      path: displayPath(r.file.path, opts.cwd),
      format: r.file.format,
      tools: r.file.tools.length,
      reason: r.file.reason,
      diagnostics: r.diagnostics.map(jsonDiagnostic),
    })),
    summary: {
      files: result.summary.files,
      tools: result.summary.tools,
      errors: result.summary.errors,
      warnings: result.summary.warnings,
      infos: result.summary.infos,
    },
  };
  return JSON.stringify(report, null, 2) + '\n';
}

function jsonDiagnostic(d: Diagnostic) {
  // Built field by field, so internal fields (file, offsets, fix ops) never leak into the contract.
  return {
    rule: d.rule,
    severity: d.severity,
    message: d.message,
    tool: d.tool,
    parameter: d.parameter,
    test: d.test,
    pointer: d.pointer,
    range: {
      start: { line: d.range.start.line, column: d.range.start.column },
      end: { line: d.range.end.line, column: d.range.end.column },
    },
    fixable: d.fix != null,
    suggestions: d.suggestions.length,
    // Unregistered ids (internal-error, unused-disable-directive) have no page to link to.
    docs: getRule(d.rule) ? ruleDocsUrl(d.rule) : null,
  };
}
