/**
 * JUnit XML, for CI systems that show test reports: a test suite per file, a failing test case
 * per finding, and one passing (or skipped, for a file that is not a tool file) case per clean file
 * so every linted file shows up.
 */
import type { Diagnostic, LintResult } from '../diagnostic';
import { displayPath, unattachedInternalErrors, type FormatOptions } from './common';

export function formatJunit(result: LintResult, opts: FormatOptions): string {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  for (const r of result.results) {
    const path = displayPath(r.file.path, opts.cwd);
    const cases: string[] = [];
    let skip = 0;
    if (r.diagnostics.length === 0) {
      if (r.file.kind === 'unknown') {
        skip = 1;
        const why = `not a tool file: ${r.file.reason ?? 'unrecognised format'}`;
        cases.push(`    <testcase name="mcp-tool-lint" classname=${attr(path)}>\n      <skipped message=${attr(why)}/>\n    </testcase>`);
      } else {
        cases.push(`    <testcase name="mcp-tool-lint" classname=${attr(path)}/>`);
      }
    }
    for (const d of r.diagnostics) cases.push(testcase(path, d));
    const n = Math.max(1, r.diagnostics.length);
    tests += n;
    failures += r.diagnostics.length;
    skipped += skip;
    suites.push(
      `  <testsuite name=${attr(path)} tests="${n}" failures="${r.diagnostics.length}" errors="0" skipped="${skip}">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  // A rule that failed outside any file is a test error (the check could not run), not a failure.
  const internal = unattachedInternalErrors(result);
  if (internal.length) {
    const cases = internal.map(
      (m) => `    <testcase name="internal-error" classname="mcp-tool-lint">\n      <error message=${attr(m)} type="internal-error">${text(m)}</error>\n    </testcase>`,
    );
    tests += internal.length;
    suites.push(`  <testsuite name="mcp-tool-lint" tests="${internal.length}" failures="0" errors="${internal.length}" skipped="0">\n${cases.join('\n')}\n  </testsuite>`);
  }
  const head = `<testsuites name="mcp-tool-lint" tests="${tests}" failures="${failures}" errors="${internal.length}" skipped="${skipped}">`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', head, ...suites, '</testsuites>'].join('\n') + '\n';
}

function testcase(path: string, d: Diagnostic): string {
  const subject = [d.tool ?? d.test, d.parameter].filter((s): s is string => s !== null).join('/');
  const name = subject ? `${d.rule}: ${subject}` : d.rule;
  const body = `${d.range.start.line}:${d.range.start.column} ${d.message}`;
  return (
    `    <testcase name=${attr(name)} classname=${attr(path)}>\n` +
    `      <failure message=${attr(d.message)} type="${d.severity}">${text(body)}</failure>\n` +
    `    </testcase>`
  );
}

/**
 * Characters XML 1.0 cannot hold at all, not even as references (C0 controls other than tab and
 * line breaks, lone surrogates, U+FFFE/U+FFFF); they are dropped rather than breaking the report.
 */
const INVALID_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function text(s: string): string {
  return s.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** A quoted attribute value; whitespace is written as references because parsers normalise raw tabs and newlines in attributes to spaces. */
export function attr(s: string): string {
  return `"${text(s).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;')}"`;
}
