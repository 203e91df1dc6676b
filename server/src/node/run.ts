/**
 * One lint run over files on disk: discovery, per-file config, loading, linting, fixing.
 * Shared by the CLI (and by tests that want a whole run without spawning a process).
 */
import { readFileSync, renameSync, statSync, writeFileSync, openSync, closeSync, unlinkSync } from 'node:fs';
import { dirname, relative, resolve, basename, join } from 'node:path';
import { ConfigError, configFileIn, defaultConfig, isIgnored, loadConfigFile, matchingOverrides, ruleSettings, type Config, type RawRules, type RuleSetting } from '../engine/config';
import type { LintResult } from '../engine/diagnostic';
import { DEFAULT_MAX_BYTES, loadBytes, loadText } from '../engine/load';
import type { SourceFile } from '../engine/model';
import { addTime, lint } from '../engine/runner';
import { applyFixesToText } from '../engine/fix/apply';
import { collectFiles } from './files';
import type { Severity } from '../engine/types';

export interface RunOptions {
  cwd: string;
  paths: string[];
  configPath?: string | null;
  cliRules?: RawRules;
  reportUnusedDisableDirectives?: boolean | Severity;
  fix?: 'write' | 'dry-run' | null;
  /** Called just before a fixed file is written (tests use it to change the file meanwhile). */
  beforeWrite?: (abs: string) => void;
  /**
   * A buffer piped by an editor or tool, linted as if it were `filepath` (its extension picks
   * the language, its folder the config); `null` lints it as `<stdin>` from `cwd`. It is linted
   * with the explicit `paths` only (no folder is searched when there are none) and is never
   * written: `--fix` returns its text in `fixed`.
   */
  stdin?: { text: string; filepath: string | null } | null;
  /** Filled with milliseconds per rule id, plus `(load)` and `(report)` phases: see `MCP_TOOL_LINT_TIMING`. */
  timing?: Map<string, number>;
}

export interface FixedFile {
  path: string;
  before: string;
  after: string;
  applied: number;
  written: boolean;
  /** Why a fixed file was not written (it changed on disk since it was read). */
  skipped?: string;
}

export interface RunOutput {
  result: LintResult;
  files: SourceFile[];
  fixed: FixedFile[];
}

export class ConfigResolver {
  private byDir = new Map<string, Config>();
  private fixed: Config | null = null;
  /** The configuration of folders with no config file at or above them: one object, so it is one config. */
  private none: Config | null = null;

  constructor(private readonly cwd: string, configPath?: string | null) {
    if (configPath) this.fixed = loadConfigFile(resolve(cwd, configPath));
  }

  forFile(abs: string): Config {
    if (this.fixed) return this.fixed;
    const dir = dirname(abs);
    let c = this.byDir.get(dir);
    if (!c) {
      const p = this.configPathFor(dir);
      c = p ? this.loadCached(p) : (this.none ??= defaultConfig(this.cwd));
      this.byDir.set(dir, c);
    }
    return c;
  }

  /**
   * `findConfigFile`, with each folder's answer kept for the run: sibling folders share their
   * parents' look-ups instead of asking the file system again.
   */
  private pathOf = new Map<string, string | null>();
  private configPathFor(dir: string): string | null {
    const d = resolve(dir);
    let p = this.pathOf.get(d);
    if (p === undefined) {
      const up = dirname(d);
      p = configFileIn(d) ?? (up === d ? null : this.configPathFor(up));
      this.pathOf.set(d, p);
    }
    return p;
  }

  private files = new Map<string, Config>();
  private loadCached(p: string): Config {
    let c = this.files.get(p);
    if (!c) {
      c = loadConfigFile(p);
      this.files.set(p, c);
    }
    return c;
  }
}

function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  return (rel.startsWith('..') ? abs : rel).split('\\').join('/');
}

export interface LoadedRun {
  cwd: string;
  files: SourceFile[];
  absOf: Map<SourceFile, string>;
  cfgOf: Map<SourceFile, Config>;
  /** The file read from standard input, if any. */
  stdinFile: SourceFile | null;
}

export const STDIN_NAME = '<stdin>';

/** Find, read and load the files of a run (with each file's config), without linting. */
export function loadRun(opts: Pick<RunOptions, 'cwd' | 'paths' | 'configPath' | 'stdin'>): LoadedRun {
  const cwd = resolve(opts.cwd);
  const configs = new ConfigResolver(cwd, opts.configPath);
  const stdin = opts.stdin ?? null;
  // Without a file path the buffer still needs a place for config lookup and `overrides`.
  const stdinAbs = stdin ? resolve(cwd, stdin.filepath ?? STDIN_NAME) : null;
  const found = stdin && opts.paths.length === 0 ? [] : collectFiles(opts.paths, cwd, (abs) => isIgnored(configs.forFile(abs), abs));
  const files: SourceFile[] = [];
  const absOf = new Map<SourceFile, string>();
  const cfgOf = new Map<SourceFile, Config>();
  let stdinFile: SourceFile | null = null;
  if (stdin && stdinAbs) {
    const cfg = configs.forFile(stdinAbs);
    const path = stdin.filepath === null ? STDIN_NAME : displayPath(cwd, stdinAbs);
    stdinFile = loadText(path, stdin.text, { explicit: true, maxBytes: cfg.maxFileSize ?? DEFAULT_MAX_BYTES });
    files.push(stdinFile);
    absOf.set(stdinFile, stdinAbs);
    cfgOf.set(stdinFile, cfg);
  }
  for (const f of found) {
    // The editor's buffer stands for the file on disk.
    if (f.abs === stdinAbs) continue;
    const cfg = configs.forFile(f.abs);
    const maxBytes = cfg.maxFileSize ?? DEFAULT_MAX_BYTES;
    const path = displayPath(cwd, f.abs);
    let file: SourceFile;
    try {
      const size = statSync(f.abs).size;
      file = size > maxBytes ? loadBytes(path, new Uint8Array(size), { explicit: f.explicit, maxBytes }) : loadBytes(path, readFileSync(f.abs), { explicit: f.explicit, maxBytes, lazyTree: true });
    } catch (e) {
      throw new ConfigError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    files.push(file);
    absOf.set(file, f.abs);
    cfgOf.set(file, cfg);
  }
  return { cwd, files, absOf, cfgOf, stdinFile };
}

export function runLint(opts: RunOptions): RunOutput {
  const timing = opts.timing;
  const t0 = timing ? performance.now() : 0;
  const { cwd, files, absOf, cfgOf, stdinFile } = loadRun(opts);
  addTime(timing, '(load)', t0);
  // Files under one config share their settings unless an `overrides` entry tells them apart:
  // worked out once per config and set of matching overrides, not once per file.
  const fallback = defaultConfig(cwd);
  const settingsMemo = new Map<Config, Map<string, Map<string, RuleSetting>>>();
  const settingsFor = (f: SourceFile) => {
    const cfg = cfgOf.get(f) ?? fallback;
    const abs = absOf.get(f) ?? null;
    const key = abs ? matchingOverrides(cfg, abs).join() : '-';
    let byKey = settingsMemo.get(cfg);
    if (!byKey) settingsMemo.set(cfg, (byKey = new Map()));
    let s = byKey.get(key);
    if (!s) byKey.set(key, (s = ruleSettings(cfg, abs, opts.cliRules)));
    return s;
  };
  let result = lint(files, { settingsFor, reportUnusedDisableDirectives: opts.reportUnusedDisableDirectives, timing });
  const fixed: FixedFile[] = [];
  if (opts.fix) {
    const fixedFiles = files.slice();
    for (const fr of result.results) {
      if (!fr.diagnostics.some((d) => d.fix)) continue;
      const file = fr.file;
      const abs = absOf.get(file)!;
      const before = (file.bom ? '\ufeff' : '') + file.text;
      const out = applyFixesToText(file.path, before, (text) => {
        const f2 = loadText(file.path, text, { explicit: file.explicit });
        f2.explicit = file.explicit;
        cfgOf.set(f2, cfgOf.get(file)!);
        absOf.set(f2, abs);
        const others = fixedFiles.filter((x) => x !== file);
        const r = lint([...others, f2], { settingsFor, only: new Set([f2]), reportUnusedDisableDirectives: opts.reportUnusedDisableDirectives });
        const ds = r.results.find((x) => x.file === f2)?.diagnostics ?? [];
        return { file: f2, fixes: ds.filter((d) => d.fix).map((d) => ({ doc: d.doc, ops: d.fix!.ops })) };
      });
      if (out.applied === 0 || out.text === before) continue;
      const entry: FixedFile = { path: file.path, before, after: out.text, applied: out.applied, written: false };
      if (opts.fix === 'write' && file !== stdinFile) {
        opts.beforeWrite?.(abs);
        const onDisk = readFileSync(abs);
        if (onDisk.toString('utf8') !== before) {
          entry.skipped = 'the file changed on disk while it was being linted';
        } else {
          atomicWrite(abs, out.text);
          entry.written = true;
        }
      }
      fixed.push(entry);
      const reloaded = loadText(file.path, out.text, { explicit: file.explicit });
      cfgOf.set(reloaded, cfgOf.get(file)!);
      absOf.set(reloaded, abs);
      fixedFiles[fixedFiles.indexOf(file)] = reloaded;
    }
    if (fixed.length > 0) {
      result = lint(fixedFiles, { settingsFor, reportUnusedDisableDirectives: opts.reportUnusedDisableDirectives });
      return { result, files: fixedFiles, fixed };
    }
  }
  return { result, files, fixed };
}

/** Write through a temporary file in the same folder and rename it over the original. */
export function atomicWrite(abs: string, text: string): void {
  const tmp = join(dirname(abs), `.${basename(abs)}.${process.pid}.mcp-tool-lint.tmp`);
  let mode: number | undefined;
  try {
    mode = statSync(abs).mode;
  } catch {
    mode = undefined;
  }
  const fd = openSync(tmp, 'w', mode);
  try {
    writeFileSync(fd, text, 'utf8');
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, abs);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* the rename error is the one to report */
    }
    throw e;
  }
}
