/**
 * Runs the rules over a catalogue and turns their reports into diagnostics with ranges.
 * A rule that throws is reported once as an internal problem naming it; the others go on.
 * Tool-scope results can be cached per tool (the language server re-lints one changed tool
 * without re-checking the catalogue).
 */
import { buildCatalog, type Catalog, type SourceFile, type Tool } from './model';
import type { Diagnostic, FileResult, LintResult } from './diagnostic';
import { summarize } from './diagnostic';
import { toPointer } from './parse/tree';
import { resolveLoc } from './resolve';
import { formatMessage, type EditOp, type Fix, type Report, type Rule, type RuleContext } from './rules/api';
import { allRules } from './rules';
import type { RuleSetting } from './config';
import { isSuppressed, parseDirectives, type Directive } from './suppress';
import type { JsonPath, Severity } from './types';

export interface LintOptions {
  /** Effective rule settings of a file. */
  settingsFor(file: SourceFile): Map<string, RuleSetting>;
  reportUnusedDisableDirectives?: boolean | Severity;
  /** Only these files get diagnostics (the others still form the catalogue). */
  only?: Set<SourceFile>;
  cache?: ToolResultCache;
}

interface RawFinding {
  rule: Rule;
  report: Report;
  file: SourceFile;
  doc: number;
}

/** Tool-scope results by tool content, with paths relative to the tool. */
export class ToolResultCache {
  private map = new Map<string, { rule: string; report: Report }[]>();
  hits = 0;
  misses = 0;
  get(key: string): { rule: string; report: Report }[] | undefined {
    const v = this.map.get(key);
    if (v) this.hits++;
    else this.misses++;
    return v;
  }
  set(key: string, v: { rule: string; report: Report }[]): void {
    if (this.map.size > 50_000) this.map.clear();
    this.map.set(key, v);
  }
  get size(): number {
    return this.map.size;
  }
}

export function lint(files: SourceFile[], opts: LintOptions): LintResult {
  const catalog = buildCatalog(files);
  return lintCatalog(catalog, opts);
}

export function lintCatalog(catalog: Catalog, opts: LintOptions): LintResult {
  const rules = allRules();
  const settings = new Map<SourceFile, Map<string, RuleSetting>>();
  const settingOf = (f: SourceFile): Map<string, RuleSetting> => {
    let s = settings.get(f);
    if (!s) {
      s = opts.settingsFor(f);
      settings.set(f, s);
    }
    return s;
  };
  const wanted = (f: SourceFile): boolean => !opts.only || opts.only.has(f);
  const findings: RawFinding[] = [];
  const internalErrors: string[] = [];
  const failed = new Set<string>();

  const run = (rule: Rule, fn: () => void, where: SourceFile | null): void => {
    try {
      fn();
    } catch (e) {
      if (failed.has(rule.meta.id)) return;
      failed.add(rule.meta.id);
      const msg = `rule \`${rule.meta.id}\` failed${where ? ` on ${where.path}` : ''}: ${(e as Error)?.message ?? String(e)}`;
      internalErrors.push(msg);
      // A catalogue rule has no file of its own: its failure is filed under the first file, so
      // every report format shows it (a clean-looking report would hide the failure).
      const file = where ?? catalog.files.find(wanted) ?? null;
      if (file) {
        findings.push({
          rule: INTERNAL,
          report: { messageId: 'internal', data: { message: msg }, loc: { path: [], target: 'value' }, span: { offset: 0, length: 0 } },
          file,
          doc: 0,
        });
      }
    }
  };
  const ctxFor = (options: Record<string, unknown>, sink: (r: Report) => void): RuleContext => ({ catalog, options, report: sink });
  const defaultSink = (rule: Rule, fallbackFile: SourceFile | null) => (r: Report) => {
    // An explicit file wins over the tool's: an eval finding names a tool but sits in the eval file.
    const file = r.file ?? r.tool?.file ?? fallbackFile;
    if (!file) return;
    findings.push({ rule, report: r, file, doc: r.file ? (r.doc ?? 0) : (r.tool?.doc ?? r.doc ?? 0) });
  };

  for (const rule of rules) {
    const id = rule.meta.id;
    if (rule.checkFile) {
      for (const f of catalog.files) {
        if (!wanted(f) || !fileWanted(f)) continue;
        const s = settingOf(f).get(id);
        if (!s || s.severity === 'off') continue;
        run(rule, () => rule.checkFile!(f, ctxFor(s.options, defaultSink(rule, f))), f);
      }
    }
    if (rule.checkTool) {
      for (const t of catalog.tools) {
        if (!wanted(t.file)) continue;
        const s = settingOf(t.file).get(id);
        if (!s || s.severity === 'off') continue;
        run(rule, () => runToolRule(rule, t, s, catalog, opts.cache, (r) => findings.push({ rule, report: r, file: t.file, doc: t.doc })), t.file);
      }
    }
    if (rule.checkEval) {
      for (const e of catalog.evals) {
        if (!wanted(e.file)) continue;
        const s = settingOf(e.file).get(id);
        if (!s || s.severity === 'off') continue;
        run(rule, () => rule.checkEval!(e, ctxFor(s.options, defaultSink(rule, e.file))), e.file);
      }
    }
    if (rule.checkCatalog) {
      // Catalogue rules run once; each finding then takes its own file's settings.
      const enabledSomewhere = catalog.files.some((f) => (settingOf(f).get(id)?.severity ?? 'off') !== 'off');
      if (!enabledSomewhere) continue;
      const first = catalog.files.find((f) => (settingOf(f).get(id)?.severity ?? 'off') !== 'off')!;
      run(rule, () => rule.checkCatalog!(catalog, ctxFor(settingOf(first).get(id)!.options, defaultSink(rule, null))), null);
    }
  }

  // Resolve, filter by severity and suppressions, group by file.
  const byFile = new Map<SourceFile, Diagnostic[]>();
  for (const f of catalog.files) if (wanted(f)) byFile.set(f, []);
  const directives = new Map<SourceFile, Directive[]>();
  const dirsOf = (f: SourceFile): Directive[] => {
    let d = directives.get(f);
    if (!d) {
      d = parseDirectives(f);
      directives.set(f, d);
    }
    return d;
  };
  for (const fd of findings) {
    const list = byFile.get(fd.file);
    if (!list) continue;
    const isInternal = fd.rule === INTERNAL;
    const s = isInternal ? { severity: 'error' as const } : settingOf(fd.file).get(fd.rule.meta.id);
    if (!s || s.severity === 'off') continue;
    const d = toDiagnostic(fd, s.severity);
    if (!isInternal && isSuppressed(dirsOf(fd.file), d.rule, d.range.start.line)) continue;
    list.push(d);
  }
  if (opts.reportUnusedDisableDirectives) {
    const sev: Severity = opts.reportUnusedDisableDirectives === true ? 'warning' : opts.reportUnusedDisableDirectives;
    for (const [f, list] of byFile) {
      for (const d of dirsOf(f)) {
        if (d.used || d.kind === 'enable') continue;
        const offset = f.lines.offset({ line: d.line, column: d.column });
        list.push({
          rule: 'unused-disable-directive',
          severity: sev,
          message: d.rules ? `Unused disable directive (no findings of ${d.rules.map((r) => `\`${r}\``).join(', ')} here)` : 'Unused disable directive (no findings here)',
          messageId: 'unused',
          file: f,
          doc: 0,
          tool: null,
          parameter: null,
          test: null,
          path: [],
          pointer: '',
          range: { start: { line: d.line, column: d.column }, end: { line: d.line, column: d.column + d.length } },
          offset,
          length: d.length,
          fix: { title: 'Remove the unused directive', ops: [directiveRemoval(f, d)] },
          suggestions: [],
        });
      }
    }
  }
  const results: FileResult[] = [];
  for (const [file, diagnostics] of byFile) {
    diagnostics.sort((a, b) => a.offset - b.offset || a.rule.localeCompare(b.rule));
    results.push({ file, diagnostics });
  }
  return { results, summary: summarize(results), internalErrors };
}

/** Removes a directive comment: the whole line when it stands alone, else the comment and the spaces before it. */
function directiveRemoval(f: SourceFile, d: Directive): EditOp {
  const line = d.line - 1;
  const start = f.lines.lineStart(line);
  const hash = start + d.column - 1;
  const before = f.text.slice(start, hash);
  if (before.trim() === '') return { op: 'text', start, end: f.lines.lineNext(line), text: '' };
  let s = hash;
  while (s > start && (f.text[s - 1] === ' ' || f.text[s - 1] === '\t')) s--;
  return { op: 'text', start: s, end: f.lines.lineEnd(line), text: '' };
}

function fileWanted(f: SourceFile): boolean {
  return f.kind !== 'unknown' || f.explicit || f.reason === null || f.parsed.problems.length > 0;
}

const INTERNAL: Rule = {
  meta: {
    id: 'internal-error',
    description: 'Report a rule that failed',
    severity: 'error',
    recommended: true,
    fixable: 'never',
    hasSuggestions: false,
    scope: 'file',
    messages: { internal: 'Internal error: {{message}}' },
    docs: { what: 'An internal failure of a rule.', why: 'The other rules still ran.' },
  },
};

/**
 * JSON text that keeps what JSON.stringify drops: a half-written member (`{"o": undefined}`)
 * must not share a cache key with the finished tool, or stale findings come back.
 */
export function stableText(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (x === undefined ? '\u0000undefined' : x));
}

const toolKeys = new WeakMap<Tool, string>();
/** What a tool-scope result depends on: the tool's content, place and file format (computed once per tool). */
function toolKey(tool: Tool): string {
  let k = toolKeys.get(tool);
  if (k === undefined) {
    k = `${tool.file.format}\u0000${JSON.stringify(tool.path)}\u0000${stableText(tool.raw)}`;
    toolKeys.set(tool, k);
  }
  return k;
}

function runToolRule(rule: Rule, tool: Tool, s: RuleSetting, catalog: Catalog, cache: ToolResultCache | undefined, push: (r: Report) => void): void {
  if (!cache) {
    rule.checkTool!(tool, { catalog, options: s.options, report: push });
    return;
  }
  const key = `${rule.meta.id}\u0000${JSON.stringify(s.options)}\u0000${toolKey(tool)}`;
  const hit = cache.get(key);
  if (hit) {
    for (const h of hit) push({ ...h.report, tool });
    return;
  }
  const got: { rule: string; report: Report }[] = [];
  rule.checkTool!(tool, {
    catalog,
    options: s.options,
    report: (r) => {
      got.push({ rule: rule.meta.id, report: r });
      push(r);
    },
  });
  cache.set(key, got);
}

export function toDiagnostic(fd: { rule: Rule; report: Report; file: SourceFile; doc: number }, severity: Severity): Diagnostic {
  const { rule, report: r, file, doc } = fd;
  const res = r.span
    ? { offset: r.span.offset, length: r.span.length, range: { start: file.lines.position(r.span.offset), end: file.lines.position(r.span.offset + r.span.length) } }
    : resolveLoc(file, doc, r.loc.path, r.loc.target);
  const sev = r.weak ? lower(severity) : severity;
  const template = rule.meta.messages[r.messageId] ?? r.messageId;
  return {
    rule: rule.meta.id,
    severity: sev,
    message: formatMessage(template, r.data),
    messageId: r.messageId,
    file,
    doc,
    tool: r.tool?.name ?? null,
    parameter: r.parameter ?? null,
    test: r.test ?? null,
    path: r.loc.path as JsonPath,
    pointer: toPointer(r.loc.path),
    range: res.range,
    offset: res.offset,
    length: res.length,
    fix: r.fix ?? null,
    suggestions: r.suggestions ?? [],
  };
}

function lower(s: Severity): Severity {
  return s === 'error' ? 'warning' : 'info';
}

export type { Fix };
