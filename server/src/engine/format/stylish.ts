/**
 * The human report, after ESLint's `stylish`: findings grouped by file in aligned columns, then
 * one summary line. Nothing at all when there is nothing to report, so a clean run is quiet.
 */
import type { Diagnostic, LintResult } from '../diagnostic';
import type { SourceFile } from '../model';
import type { Severity } from '../types';
import { displayPath, plural, unattachedInternalErrors, type FormatOptions } from './common';

type Paint = (s: string) => string;

interface Palette {
  underline: Paint;
  dim: Paint;
  bold: Paint;
  red: Paint;
  yellow: Paint;
  cyan: Paint;
}

/** SGR codes with their own closing code (not a full reset), so nested styles survive. */
function palette(on: boolean): Palette {
  const sgr = (open: number, close: number): Paint => (on ? (s) => `\u001b[${open}m${s}\u001b[${close}m` : (s) => s);
  return { underline: sgr(4, 24), dim: sgr(2, 22), bold: sgr(1, 22), red: sgr(31, 39), yellow: sgr(33, 39), cyan: sgr(36, 39) };
}

export function formatStylish(result: LintResult, opts: FormatOptions): string {
  const c = palette(opts.color);
  const sevColor: Record<Severity, Paint> = { error: c.red, warning: c.yellow, info: c.cyan };
  const blocks: string[] = [];

  for (const r of result.results) {
    const path = displayPath(r.file.path, opts.cwd);
    if (r.diagnostics.length === 0) {
      // Only a file the user named gets a word; files found by searching a folder are skipped silently.
      if (r.file.kind === 'unknown' && r.file.explicit) {
        blocks.push(`${c.underline(path)}\n  ${c.dim(`not a tool file: ${clean(r.file.reason ?? 'unrecognised format')}`)}`);
      }
      continue;
    }
    blocks.push([`${c.underline(path)}${c.dim(header(r.file))}`, ...table(r.diagnostics, c, sevColor)].join('\n'));
  }
  for (const m of unattachedInternalErrors(result)) blocks.push(`${c.red('internal error')}  ${clean(m)}`);

  const s = result.summary;
  const problems = s.errors + s.warnings + s.infos;
  if (problems > 0) {
    const color = s.errors > 0 ? c.red : s.warnings > 0 ? c.yellow : c.cyan;
    const lines = [color(c.bold(`✖ ${plural(problems, 'problem')} (${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${plural(s.infos, 'info')})`))];
    if (s.fixableErrors + s.fixableWarnings > 0) {
      lines.push(color(c.bold(`  ${plural(s.fixableErrors, 'error')} and ${plural(s.fixableWarnings, 'warning')} potentially fixable with the \`--fix\` option.`)));
    }
    blocks.push(lines.join('\n'));
  }
  return blocks.length ? `\n${blocks.join('\n\n')}\n` : '';
}

function header(f: SourceFile): string {
  if (f.kind === 'tools') return `  (${f.format}, ${plural(f.tools.length, 'tool')})`;
  if (f.kind === 'eval') return `  (${f.format})`;
  return '';
}

/**
 * One row per finding: `line:col  severity  message  rule`. Widths are measured on the plain
 * text and colour is applied after padding, so escape codes never skew the columns.
 */
function table(diags: Diagnostic[], c: Palette, sevColor: Record<Severity, Paint>): string[] {
  const rows = diags.map((d) => ({ line: String(d.range.start.line), col: String(d.range.start.column), sev: d.severity, msg: clean(d.message), rule: d.rule }));
  const w = (f: (r: (typeof rows)[number]) => string) => Math.max(...rows.map((r) => f(r).length));
  const wLine = w((r) => r.line);
  const wCol = w((r) => r.col);
  const wSev = w((r) => r.sev);
  const wMsg = w((r) => r.msg);
  return rows.map((r) => {
    const pos = c.dim(`${r.line.padStart(wLine)}:${r.col.padEnd(wCol)}`);
    return `  ${pos}  ${sevColor[r.sev](r.sev.padEnd(wSev))}  ${r.msg.padEnd(wMsg)}  ${c.dim(r.rule)}`;
  });
}

/**
 * Messages quote the user's file (tool names, values); control characters from it must not reach
 * the terminal, where they could move the cursor or forge colours, or break the one-line rows.
 */
function clean(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');
}
