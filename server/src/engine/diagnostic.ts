import type { Fix } from './rules/api';
import type { SourceFile } from './model';
import type { JsonPath, Range, Severity } from './types';

/** One finding, resolved to its file and range. */
export interface Diagnostic {
  rule: string;
  severity: Severity;
  message: string;
  messageId: string;
  file: SourceFile;
  doc: number;
  tool: string | null;
  parameter: string | null;
  test: string | null;
  path: JsonPath;
  pointer: string;
  range: Range;
  /** Offsets of the range in the file's text. */
  offset: number;
  length: number;
  fix: Fix | null;
  suggestions: Fix[];
}

export interface FileResult {
  file: SourceFile;
  diagnostics: Diagnostic[];
}

export interface LintSummary {
  files: number;
  tools: number;
  errors: number;
  warnings: number;
  infos: number;
  fixableErrors: number;
  fixableWarnings: number;
}

export interface LintResult {
  results: FileResult[];
  summary: LintSummary;
  /** Rules that threw (each reported once as an internal problem). */
  internalErrors: string[];
}

export function summarize(results: FileResult[]): LintSummary {
  const s: LintSummary = { files: results.length, tools: 0, errors: 0, warnings: 0, infos: 0, fixableErrors: 0, fixableWarnings: 0 };
  for (const r of results) {
    s.tools += r.file.tools.length;
    for (const d of r.diagnostics) {
      if (d.severity === 'error') {
        s.errors++;
        if (d.fix) s.fixableErrors++;
      } else if (d.severity === 'warning') {
        s.warnings++;
        if (d.fix) s.fixableWarnings++;
      } else s.infos++;
    }
  }
  return s;
}
