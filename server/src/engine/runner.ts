/**
 * Runs the rules over a catalogue and turns their reports into diagnostics with ranges.
 * A rule that throws is reported once as an internal problem naming it; the others go on.
 * Tool-scope results can be cached per tool (the language server re-lints one changed tool
 * without re-checking the catalogue).
 */
import { buildCatalog, type Catalog, type SourceFile, type Tool } from './model';
import type { Diagnostic, FileResult, LintResult } from './diagnostic';
import { summarize } from './diagnostic';
import { findNode, toPointer, type SNode } from './parse/tree';
import { resolveLoc } from './resolve';
import { formatMessage, type EditOp, type Fix, type Report, type Rule, type RuleContext } from './rules/api';
import { allRules } from './rules';
import { StringMemo } from './util/memo';
import { compareLocale } from './util/text';
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
  /** When given, each rule's time in milliseconds is added here under its id (for `MCP_TOOL_LINT_TIMING`). */
  timing?: Map<string, number>;
}

interface RawFinding {
  rule: Rule;
  report: Report;
  file: SourceFile;
  doc: number;
  /** A cached finding: its stored report (offsets relative to the tool) and where the tool is now. */
  rel?: Rel;
}

interface Rel {
  base: Report;
  at: number;
  atLine: number;
}

/** A wanted tool during one cached run: its cache entry and where it stands in the text now. */
interface ToolRec {
  tool: Tool;
  entry: Map<string, CachedReport[] | CatalogEntry | ToolFinding[]>;
  at: number;
  /** Line of `at` (computed when first needed). */
  atLine: number;
  /** The cached results its findings come from (the same objects while nothing changed). */
  inputs: object[];
  /** Its cached findings (reports relative to the tool). */
  items: ToolFinding[];
}

/** A tool's diagnostics from the last run, kept while its place and cached results stay the same. */
interface Block {
  at: number;
  atLine: number;
  settings: number;
  inputs: object[];
  diagnostics: Diagnostic[];
}

function lineOfRec(r: ToolRec): number {
  if (r.atLine < 0) r.atLine = r.tool.file.lines.lineOf(r.at);
  return r.atLine;
}

/** A cached finding at the tool's current place. */
function cachedFinding(rule: Rule, base: Report, rec: ToolRec): RawFinding {
  const t = rec.tool;
  const moved = relocate(base, rec.at);
  return { rule, report: moved.tool === t ? moved : { ...moved, tool: t }, file: t.file, doc: t.doc, rel: { base, at: rec.at, atLine: lineOfRec(rec) } };
}

/**
 * Tool-scope results by tool content. A tool's entry holds, per rule and options, what the rule
 * reported; spans are kept relative to the tool's place in the text, so a tool that only moved
 * (an edit above it) reuses its results. The key is the tool's text and data plus everything
 * around it that normalising depends on (see `toolKey`).
 */
export class ToolResultCache {
  /**
   * Entries in two generations: a run that finds the current one full starts a new one, and the
   * entries it uses move over; the generation before is then dropped. Memory stays bounded while
   * a catalogue larger than the bound still keeps all its tools' entries from run to run.
   */
  private map = new Map<string, Map<string, CachedReport[] | CatalogEntry | ToolFinding[]>>();
  private old = new Map<string, Map<string, CachedReport[] | CatalogEntry | ToolFinding[]>>();
  hits = 0;
  misses = 0;
  /** Called as a run starts, with the number of tools it lints. */
  beginRun(tools: number): void {
    if (this.map.size > Math.max(MIN_ENTRIES, 2 * tools)) {
      this.old = this.map;
      this.map = new Map();
    }
  }
  /** The entry of a tool (created empty on first use). */
  entry(key: string): Map<string, CachedReport[] | CatalogEntry | ToolFinding[]> {
    let e = this.map.get(key);
    if (!e) {
      e = this.old.get(key);
      if (e) this.old.delete(key);
      else e = new Map();
      this.map.set(key, e);
    }
    return e;
  }
  get size(): number {
    return this.map.size + this.old.size;
  }
  /** Each tool's diagnostics of the last run (see `Block`). */
  readonly blocks = new WeakMap<Tool, Block>();
  private views = new Map<string, { parts: string[]; id: number }>();
  /**
   * An id for a catalogue rule's view of the catalogue (the tools' contributions, in order): the
   * same while every contribution stays the same. Unchanged tools keep the very same strings, so
   * the comparison is mostly by reference.
   */
  view(rule: string, parts: string[]): number {
    const v = this.views.get(rule);
    if (v && v.parts.length === parts.length && v.parts.every((p, i) => p === parts[i])) return v.id;
    // Ids are unique across caches: rules keep what they built per id (`perView`).
    const id = nextView++;
    this.views.set(rule, { parts, id });
    return id;
  }
}

let nextView = 1;
/** Tool entries kept at least (the whole corpus of a large workspace fits several times). */
const MIN_ENTRIES = 20_000;

/** A cached report; `span` offsets are relative to the tool's anchor in the text. */
type CachedReport = Report;

/** Adds the milliseconds since `since` to `key` (see `LintOptions.timing`); a no-op without timing. */
export function addTime(timing: Map<string, number> | undefined, key: string, since: number): void {
  if (timing) timing.set(key, (timing.get(key) ?? 0) + performance.now() - since);
}

export function lint(files: SourceFile[], opts: LintOptions): LintResult {
  const t0 = opts.timing ? performance.now() : 0;
  const catalog = buildCatalog(files);
  addTime(opts.timing, '(catalogue)', t0);
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

  const timing = opts.timing;
  const run = (rule: Rule, fn: () => void, where: SourceFile | null): void => {
    const t0 = timing ? performance.now() : 0;
    try {
      fn();
      addTime(timing, rule.meta.id, t0);
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

  // With a cache, tool rules run tool by tool: an unchanged tool's findings of all its rules
  // come back with one lookup (the editor re-lints thousands of unchanged tools per keystroke).
  const recs: ToolRec[] = [];
  if (opts.cache) {
    const cache = opts.cache;
    cache.beginRun(catalog.tools.length);
    let misses = 0;
    const toolRules = rules.filter((r) => r.checkTool);
    for (const t of catalog.tools) {
      if (!wanted(t.file)) continue;
      const rec: ToolRec = { tool: t, entry: cache.entry(toolKey(t)), at: toolAnchor(t)?.offset ?? 0, atLine: -1, inputs: [], items: [] };
      recs.push(rec);
      const settings = settingOf(t.file);
      const sig = toolRulesKey(settings, toolRules);
      let all = rec.entry.get(sig) as ToolFinding[] | undefined;
      // Misses are counted per rule (in runToolRule); a tool found whole counts one hit.
      if (all) cache.hits++;
      else {
        // Rules read the tool's nodes: they must be in place (after an edit, later tools move
        // on demand). An edit makes one tool miss; any more, and everything is put in place.
        if (++misses === 2) settleCatalog(catalog);
        settleTool(t);
        const got: ToolFinding[] = [];
        const failedBefore = failed.size;
        for (const rule of toolRules) {
          const s = settings.get(rule.meta.id);
          if (!s || s.severity === 'off') continue;
          run(rule, () => runToolRule(rule, t, s, catalog, cache, (r) => got.push({ rule, report: relocate(r, -rec.at) })), t.file);
        }
        all = got;
        if (failed.size === failedBefore) rec.entry.set(sig, got);
      }
      rec.inputs.push(all);
      for (const x of all) rec.items.push(x);
    }
  }

  // The distinct settings of the run's files (files under one config share theirs): a rule off in
  // all of them is not visited tool by tool.
  let distinctSettings: Map<string, RuleSetting>[] | null = null;
  const onSomewhere = (id: string): boolean => {
    distinctSettings ??= [...new Set(catalog.files.filter(wanted).map(settingOf))];
    return distinctSettings.some((m) => (m.get(id)?.severity ?? 'off') !== 'off');
  };
  for (const rule of rules) {
    const id = rule.meta.id;
    if (!rule.checkCatalog && !onSomewhere(id)) continue;
    if (rule.checkFile) {
      for (const f of catalog.files) {
        if (!wanted(f) || !fileWanted(f)) continue;
        const s = settingOf(f).get(id);
        if (!s || s.severity === 'off') continue;
        run(rule, () => rule.checkFile!(f, ctxFor(s.options, defaultSink(rule, f))), f);
      }
    }
    if (rule.checkTool && !opts.cache) {
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
      const setting = settingOf(first).get(id)!;
      if (opts.cache && rule.contribution) {
        const sink = defaultSink(rule, null);
        run(
          rule,
          () => runCatalogRuleCached(rule, setting, catalog, opts.cache!, recs, sink),
          null,
        );
        continue;
      }
      run(rule, () => rule.checkCatalog!(catalog, ctxFor(setting.options, defaultSink(rule, null))), null);
    }
  }

  // Resolve, filter by severity and suppressions, group by file.
  const tResolve = timing ? performance.now() : 0;
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
  // Cached findings, tool by tool: a tool whose place and cached results did not change since
  // the last run gives the same diagnostics (typing moves only the tools after the cursor).
  for (const rec of recs) {
    const file = rec.tool.file;
    const list = byFile.get(file);
    if (!list) continue;
    const settings = settingOf(file);
    const dirs = dirsOf(file);
    const sig = severitiesKey(settings);
    const last = dirs.length === 0 ? opts.cache!.blocks.get(rec.tool) : undefined;
    if (last && last.at === rec.at && last.settings === sig && last.atLine === lineOfRec(rec) && sameInputs(last.inputs, rec.inputs)) {
      for (const d of last.diagnostics) {
        d.file = file;
        list.push(d);
      }
      continue;
    }
    const out: Diagnostic[] = [];
    for (const x of rec.items) {
      const s = settings.get(x.rule.meta.id);
      if (!s || s.severity === 'off') continue;
      const fd = cachedFinding(x.rule, x.report, rec);
      const d = cachedDiagnostic(fd, fd.rel!, s.severity);
      if (dirs.length > 0 && isSuppressed(dirs, d.rule, d.range.start.line)) continue;
      out.push(d);
      list.push(d);
    }
    if (dirs.length === 0) opts.cache!.blocks.set(rec.tool, { at: rec.at, atLine: lineOfRec(rec), settings: sig, inputs: rec.inputs, diagnostics: out });
  }
  for (const fd of findings) {
    const list = byFile.get(fd.file);
    if (!list) continue;
    const isInternal = fd.rule === INTERNAL;
    const s = isInternal ? { severity: 'error' as const } : settingOf(fd.file).get(fd.rule.meta.id);
    if (!s || s.severity === 'off') continue;
    const d = fd.rel ? cachedDiagnostic(fd, fd.rel, s.severity) : toDiagnostic(fd, s.severity);
    if (!isInternal) {
      const dirs = dirsOf(fd.file);
      if (dirs.length > 0 && isSuppressed(dirs, d.rule, d.range.start.line)) continue;
    }
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
    diagnostics.sort((a, b) => a.offset - b.offset || compareLocale(a.rule, b.rule));
    results.push({ file, diagnostics });
  }
  addTime(timing, '(diagnostics)', tResolve);
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
/**
 * What a tool-scope result depends on, computed once per tool object: the file's format and
 * parameter-list policy, the tool's group and path, its data, and its text with the column it
 * starts at (two tools with the same data but written differently get different spans).
 */
function toolKey(tool: Tool): string {
  let k = toolKeys.get(tool);
  if (k === undefined) {
    const f = tool.file;
    const anchor = toolAnchor(tool);
    const text = anchor ? f.text.slice(anchor.offset, anchor.offset + anchor.length) : '';
    const column = anchor ? anchor.offset - f.lines.lineStart(f.lines.lineOf(anchor.offset)) : -1;
    k = `${f.format}\u0000${f.requiredPolicy}\u0000${tool.group}\u0000${column}\u0000${JSON.stringify(tool.path)}\u0000${stableText(tool.raw)}\u0000${text}`;
    toolKeys.set(tool, k);
  }
  return k;
}

/** The source node a tool's cached spans are relative to: its member (`key: {…}`) or its object. */
function toolAnchor(tool: Tool): SNode | undefined {
  // Its own place only (the nodes below it may still have to move after an edit).
  return findNode(tool.file.root(tool.doc), tool.path, true, true);
}

/** Puts a tool's nodes in place (`SNode.lag`): the path to it, its member and its object. */
function settleTool(tool: Tool): void {
  const root = tool.file.root(tool.doc);
  findNode(root, tool.path, true);
  findNode(root, tool.path);
}

/** Puts every node of the catalogue's files in place. */
function settleCatalog(catalog: Catalog): void {
  for (const f of catalog.files) f.settle();
}

interface ToolFinding {
  rule: Rule;
  /** With offsets relative to the tool's anchor. */
  report: Report;
}

/** Whether a fix edits text at offsets (a `text` op), which must move with the tool. */
function hasTextOps(f: Fix | null | undefined): boolean {
  return !!f && f.ops.some((o) => o.op === 'text');
}

function sameInputs(a: object[], b: object[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const severityKeys = new WeakMap<Map<string, RuleSetting>, number>();
const severityIds = new Map<string, number>();
let nextSeverityId = 1;
/** A small id for the severities of a file's rules (equal ids, equal severities). */
function severitiesKey(settings: Map<string, RuleSetting>): number {
  let k = severityKeys.get(settings);
  if (k === undefined) {
    let text = '';
    for (const [id, s] of settings) text += `${id}=${s.severity};`;
    k = severityIds.get(text);
    if (k === undefined) {
      if (severityIds.size > 1000) severityIds.clear();
      severityIds.set(text, (k = nextSeverityId++));
    }
    severityKeys.set(settings, k);
  }
  return k;
}

const toolRulesKeys = new WeakMap<Map<string, RuleSetting>, string>();
/** The tool rules that are on in a file, with their options (the key of a tool's combined results). */
function toolRulesKey(settings: Map<string, RuleSetting>, toolRules: Rule[]): string {
  let k = toolRulesKeys.get(settings);
  if (k === undefined) {
    const on: string[] = [];
    for (const r of toolRules) {
      const s = settings.get(r.meta.id);
      if (s && s.severity !== 'off') on.push(settingKey(r, s));
    }
    k = intern(`tools\u0001${on.join('\u0001')}`);
    toolRulesKeys.set(settings, k);
  }
  return k;
}

/**
 * One string object per distinct key. Settings are computed again on every run (each edit makes a
 * new file object), and a Map compares a fresh copy of a long key character by character, where
 * the interned one is found by identity: thousands of lookups per keystroke in the editor.
 */
const interned = new StringMemo((k) => k, 10_000);
function intern(k: string): string {
  return interned.get(k);
}

const optionKeys = new WeakMap<RuleSetting, string>();
function settingKey(rule: Rule, s: RuleSetting): string {
  let k = optionKeys.get(s);
  if (k === undefined) {
    k = intern(`${rule.meta.id}\u0000${JSON.stringify(s.options)}`);
    optionKeys.set(s, k);
  }
  return k;
}

function runToolRule(rule: Rule, tool: Tool, s: RuleSetting, catalog: Catalog, cache: ToolResultCache | undefined, push: (r: Report) => void): void {
  if (!cache) {
    rule.checkTool!(tool, { catalog, options: s.options, report: push });
    return;
  }
  const entry = cache.entry(toolKey(tool));
  const key = settingKey(rule, s);
  const hit = entry.get(key) as CachedReport[] | undefined;
  const base = () => toolAnchor(tool)?.offset ?? 0;
  if (hit) {
    cache.hits++;
    if (hit.length === 0) return;
    const at = base();
    for (const h of hit) push({ ...relocate(h, at), tool });
    return;
  }
  cache.misses++;
  const got: CachedReport[] = [];
  rule.checkTool!(tool, {
    catalog,
    options: s.options,
    report: (r) => {
      got.push(r);
      push(r);
    },
  });
  if (got.length > 0) {
    const at = base();
    for (let i = 0; i < got.length; i++) got[i] = relocate(got[i], -at);
  }
  entry.set(key, got);
}

/** A tool's contribution as text, per rule setting (`settingKey`), then per tool. */
const contributionKeys = new Map<string, WeakMap<Tool, string>>();

/**
 * A catalogue rule with a `contribution`, re-checking only the tools it must: a tool's findings
 * are kept while the tool is unchanged (same cache entry) and every tool's contribution is the
 * same as when they were found (same catalogue view). Only wanted tools are checked.
 */
function runCatalogRuleCached(
  rule: Rule,
  s: RuleSetting,
  catalog: Catalog,
  cache: ToolResultCache,
  recs: ToolRec[],
  push: (r: Report) => void,
): void {
  const sk = settingKey(rule, s);
  const parts: string[] = new Array(catalog.tools.length);
  let byTool = contributionKeys.get(sk);
  if (!byTool) contributionKeys.set(sk, (byTool = new WeakMap()));
  for (let i = 0; i < catalog.tools.length; i++) {
    const t = catalog.tools[i];
    let c = byTool.get(t);
    if (c === undefined) byTool.set(t, (c = JSON.stringify(rule.contribution!(t, s.options)) ?? ''));
    parts[i] = c;
  }
  const view = cache.view(sk, parts);
  const ek = intern(`${sk}\u0000catalog`);
  // A finding also depends on the tool's own place (its file decides its server): checked on hit.
  const valid = (r: ToolRec, e: CatalogEntry | undefined): e is CatalogEntry => !!e && e.view === view && e.path === r.tool.file.path;
  const only = new Set<Tool>();
  // Each tool's entry, looked up once (an entry found invalid is replaced below).
  const hits: (CatalogEntry | undefined)[] = new Array(recs.length);
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    const e = r.entry.get(ek) as CatalogEntry | undefined;
    if (valid(r, e)) hits[i] = e;
    else only.add(r.tool);
  }
  if (only.size > 0) {
    // The tools checked again are read whole: in place first (one edited tool, or everything).
    if (only.size === 1) for (const t of only) settleTool(t);
    else settleCatalog(catalog);
    const got = new Map<Tool, Report[]>();
    for (const t of only) got.set(t, []);
    let stray = false;
    rule.checkCatalog!(catalog, {
      catalog,
      options: s.options,
      only,
      view,
      report: (r) => {
        const list = r.tool && !r.file ? got.get(r.tool) : undefined;
        if (list) list.push(r);
        else stray = true;
      },
    });
    if (stray) {
      // A report not attributable to one checked tool: nothing can be kept, check everything.
      settleCatalog(catalog);
      rule.checkCatalog!(catalog, { catalog, options: s.options, report: push });
      return;
    }
    for (let i = 0; i < recs.length; i++) {
      const r = recs[i];
      const reports = got.get(r.tool);
      if (reports) r.entry.set(ek, (hits[i] = { view, path: r.tool.file.path, reports: reports.map((x) => relocate(x, -r.at)) }));
    }
  }
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    const hit = hits[i]!;
    r.inputs.push(hit);
    for (const base of hit.reports) r.items.push({ rule, report: base });
  }
}

interface CatalogEntry {
  view: number;
  /** The file the tool was in. */
  path: string;
  reports: Report[];
}

/** A report with its text offsets (span, text edits) moved by `by`; the same object when it has none. */
export function relocate(r: Report, by: number): Report {
  if (by === 0 || (!r.span && !hasTextOps(r.fix) && !(r.suggestions ?? []).some(hasTextOps))) return r;
  const move = (f: Fix): Fix => (hasTextOps(f) ? { ...f, ops: f.ops.map((o) => (o.op === 'text' ? { ...o, start: o.start + by, end: o.end + by } : o)) } : f);
  return {
    ...r,
    span: r.span ? { offset: r.span.offset + by, length: r.span.length } : r.span,
    fix: r.fix ? move(r.fix) : r.fix,
    suggestions: r.suggestions ? r.suggestions.map(move) : r.suggestions,
  };
}

const resolved = new WeakMap<Report, { severity: Severity; d: Diagnostic; at: number; atLine: number }>();

/**
 * The diagnostic of a cached finding. Its range depends only on the tool's text, which is the
 * same as when it was first resolved (the cache key holds it), so it is resolved once and then
 * moved with the tool: offsets by the tool's shift, lines by its line shift, columns unchanged.
 */
function cachedDiagnostic(fd: RawFinding, rel: Rel, severity: Severity): Diagnostic {
  const m = resolved.get(rel.base);
  if (!m || m.severity !== severity) {
    const d = toDiagnostic(fd, severity);
    resolved.set(rel.base, { severity, d, at: rel.at, atLine: rel.atLine });
    return d;
  }
  const by = rel.at - m.at;
  const lines = rel.atLine - m.atLine;
  const d = m.d;
  if (by === 0 && lines === 0) {
    // The tool has not moved: the very same diagnostic, now of this file (an edit elsewhere made
    // a new file object). Only one place of a tool matches, so no two findings share it.
    d.file = fd.file;
    d.doc = fd.doc;
    return d;
  }
  const r = d.range;
  // The same range object while the tool's lines did not move (typing within a line).
  const range = lines === 0 ? r : { start: { line: r.start.line + lines, column: r.start.column }, end: { line: r.end.line + lines, column: r.end.column } };
  return {
    rule: d.rule,
    severity: d.severity,
    message: d.message,
    messageId: d.messageId,
    file: fd.file,
    doc: fd.doc,
    tool: fd.report.tool?.name ?? null,
    parameter: d.parameter,
    test: d.test,
    path: d.path,
    pointer: d.pointer,
    range,
    offset: d.offset + by,
    length: d.length,
    fix: by === 0 ? d.fix : (fd.report.fix ?? null),
    suggestions: by === 0 ? d.suggestions : (fd.report.suggestions ?? []),
  };
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
