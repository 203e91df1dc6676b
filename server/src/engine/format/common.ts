/** What every report formatter shares: options, display paths, and the severity counts. */
import { isAbsolute, relative } from 'node:path';
import type { LintResult } from '../diagnostic';

export interface FormatOptions {
  /** Colour the output with ANSI codes (stylish only; the other formats are for machines). */
  color: boolean;
  /** Paths are reported relative to this folder. */
  cwd: string;
  /** The linter's version, for formats that name the tool (SARIF). */
  toolVersion: string;
}

/**
 * A file's path relative to `cwd`, with forward slashes on every platform, so reports are the
 * same on Windows and in CI. A path on another drive stays absolute (there is no relative form).
 */
export function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  if (rel === '') return path.replace(/\\/g, '/');
  return rel.replace(/\\/g, '/');
}

/** Whether `displayPath` had to keep the path absolute. */
export function isOutside(displayed: string): boolean {
  return isAbsolute(displayed) || /^[A-Za-z]:\//.test(displayed);
}

/**
 * Internal errors that no diagnostic carries. The runner turns a rule failure into an
 * `internal-error` diagnostic only when it knows the file; a catalogue rule that throws is left
 * in `internalErrors` alone, and a report must still say so rather than look clean.
 */
export function unattachedInternalErrors(result: LintResult): string[] {
  const carried: string[] = [];
  for (const r of result.results) for (const d of r.diagnostics) if (d.rule === 'internal-error') carried.push(d.message);
  return result.internalErrors.filter((m) => !carried.some((c) => c.includes(m)));
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
