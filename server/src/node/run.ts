/**
 * One lint run over files on disk: discovery, per-file config, loading, linting, fixing.
 * Shared by the CLI (and by tests that want a whole run without spawning a process).
 */
import { readFileSync, renameSync, statSync, writeFileSync, openSync, closeSync, unlinkSync } from 'node:fs';
import { dirname, relative, resolve, basename, join } from 'node:path';
import { ConfigError, defaultConfig, findConfigFile, isIgnored, loadConfigFile, ruleSettings, type Config, type RawRules } from '../engine/config';
import type { LintResult } from '../engine/diagnostic';
import { DEFAULT_MAX_BYTES, loadBytes, loadText } from '../engine/load';
import type { SourceFile } from '../engine/model';
import { lint } from '../engine/runner';
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

  constructor(private readonly cwd: string, configPath?: string | null) {
    if (configPath) this.fixed = loadConfigFile(resolve(cwd, configPath));
  }

  forFile(abs: string): Config {
    if (this.fixed) return this.fixed;
    const dir = dirname(abs);
    let c = this.byDir.get(dir);
    if (!c) {
      const p = findConfigFile(dir);
      c = p ? this.loadCached(p) : defaultConfig(this.cwd);
      this.byDir.set(dir, c);
    }
    return c;
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
}

/** Find, read and load the files of a run (with each file's config), without linting. */
export function loadRun(opts: Pick<RunOptions, 'cwd' | 'paths' | 'configPath'>): LoadedRun {
  const cwd = resolve(opts.cwd);
  const configs = new ConfigResolver(cwd, opts.configPath);
  const found = collectFiles(opts.paths, cwd, (abs) => isIgnored(configs.forFile(abs), abs));
  const files: SourceFile[] = [];
  const absOf = new Map<SourceFile, string>();
  const cfgOf = new Map<SourceFile, Config>();
  for (const f of found) {
    const cfg = configs.forFile(f.abs);
    const maxBytes = cfg.maxFileSize ?? DEFAULT_MAX_BYTES;
    const path = displayPath(cwd, f.abs);
    let file: SourceFile;
    try {
      const size = statSync(f.abs).size;
      file = size > maxBytes ? loadBytes(path, new Uint8Array(size), { explicit: f.explicit, maxBytes }) : loadBytes(path, readFileSync(f.abs), { explicit: f.explicit, maxBytes });
    } catch (e) {
      throw new ConfigError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    files.push(file);
    absOf.set(file, f.abs);
    cfgOf.set(file, cfg);
  }
  return { cwd, files, absOf, cfgOf };
}

export function runLint(opts: RunOptions): RunOutput {
  const { cwd, files, absOf, cfgOf } = loadRun(opts);
  const settingsFor = (f: SourceFile) => ruleSettings(cfgOf.get(f) ?? defaultConfig(cwd), absOf.get(f) ?? null, opts.cliRules);
  let result = lint(files, { settingsFor, reportUnusedDisableDirectives: opts.reportUnusedDisableDirectives });
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
      if (opts.fix === 'write') {
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
