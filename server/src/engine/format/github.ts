/**
 * GitHub Actions workflow commands: one `::error|warning|notice …::message` line per finding,
 * which the runner turns into annotations on the pull request's diff.
 */
import type { Diagnostic, LintResult } from '../diagnostic';
import type { Severity } from '../types';
import { displayPath, unattachedInternalErrors, type FormatOptions } from './common';

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

export function formatGithub(result: LintResult, opts: FormatOptions): string {
  const lines: string[] = [];
  for (const r of result.results) {
    const file = displayPath(r.file.path, opts.cwd);
    for (const d of r.diagnostics) lines.push(annotation(file, d));
  }
  for (const m of unattachedInternalErrors(result)) lines.push(`::error title=internal-error::${escapeData(m)}`);
  return lines.length ? lines.join('\n') + '\n' : '';
}

function annotation(file: string, d: Diagnostic): string {
  const props: [string, string | number][] = [
    ['file', file],
    ['line', d.range.start.line],
    ['col', d.range.start.column],
    ['endLine', d.range.end.line],
    ['endColumn', d.range.end.column],
    ['title', d.rule],
  ];
  const list = props.map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(',');
  return `::${COMMAND[d.severity]} ${list}::${escapeData(d.message)}`;
}

/** The runner's escaping for a command's message: a raw newline would end the command. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Property values also delimit on `,` (between properties) and `:` (the `::` before the message). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
