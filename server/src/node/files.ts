/**
 * Finding the files of a run: explicit files, folders (searched for tool files) and globs.
 * Node-only (the engine itself reads no files).
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';

export const TOOL_EXTENSIONS = ['.yaml', '.yml', '.json', '.snap'];
// Hidden folders are searched (plugins keep catalogues in `.claude-plugin/` and the like);
// only version-control, dependency and cache folders are skipped.
const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', 'dist', 'out', 'build', 'coverage', '.venv', 'venv', '__pycache__', '.next', '.cache', 'test-results', '.idea', '.tox', '.mypy_cache', '.pytest_cache', '.gradle', '.terraform', '.yarn', '.pnpm-store', '.turbo', '.nuxt', '.svelte-kit']);
/** Well-known JSON/YAML files that are never tool catalogues (skipping them saves parsing). */
const SKIP_FILES = new Set(['package.json', 'package-lock.json', 'npm-shrinkwrap.json', 'tsconfig.json', 'jsconfig.json', 'composer.json', 'composer.lock', '.eslintrc.json', 'pnpm-lock.yaml', 'yarn.lock', '.mcp-tool-lint.yaml', '.mcp-tool-lint.yml', '.mcp-tool-lint.json', 'pubspec.lock', 'renovate.json', '.pre-commit-config.yaml', '.pre-commit-hooks.yaml', 'action.yml', 'action.yaml', 'docker-compose.yml', 'docker-compose.yaml', 'mkdocs.yml', 'codecov.yml', '.travis.yml', '.gitlab-ci.yml']);

export interface FoundFile {
  abs: string;
  /** Named on the command line (not found by searching a folder). */
  explicit: boolean;
}

export class UsageError extends Error {}

export function hasGlob(p: string): boolean {
  return /[*?[\]{}]/.test(p);
}

function isCandidate(name: string): boolean {
  if (SKIP_FILES.has(name)) return false;
  const lower = name.toLowerCase();
  return TOOL_EXTENSIONS.some((e) => lower.endsWith(e));
}

/** Files under `dir` (sorted, skipping dependency/VCS folders and ignored paths) that `keep` accepts. */
function walk(dir: string, out: string[], isIgnored: (abs: string) => boolean, keep: (name: string) => boolean): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const abs = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name) && !isIgnored(abs)) walk(abs, out, isIgnored, keep);
    } else if (e.isFile() && keep(e.name) && !isIgnored(abs)) out.push(abs);
  }
}

/** Expand the command-line paths. Throws `UsageError` for a path or glob that matches nothing. */
export function collectFiles(args: string[], cwd: string, isIgnored: (abs: string) => boolean): FoundFile[] {
  const seen = new Map<string, FoundFile>();
  const add = (abs: string, explicit: boolean): void => {
    const prev = seen.get(abs);
    if (!prev) seen.set(abs, { abs, explicit });
    else if (explicit) prev.explicit = true;
  };
  for (const arg of args.length ? args : ['.']) {
    if (hasGlob(arg)) {
      const matched = expandGlob(arg, cwd, isIgnored);
      if (matched.length === 0) throw new UsageError(`No files matched the pattern "${arg}".`);
      for (const m of matched) add(m, false);
      continue;
    }
    const abs = resolve(cwd, arg);
    let st;
    try {
      st = statSync(abs);
    } catch {
      throw new UsageError(`No such file or folder: "${arg}".`);
    }
    if (st.isDirectory()) {
      const out: string[] = [];
      walk(abs, out, isIgnored, isCandidate);
      if (out.length === 0) throw new UsageError(`No YAML or JSON files found in "${arg}" (searched for ${TOOL_EXTENSIONS.join(', ')}).`);
      for (const f of out) add(f, false);
    } else {
      add(abs, true);
    }
  }
  return [...seen.values()];
}

function expandGlob(pattern: string, cwd: string, isIgnored: (abs: string) => boolean): string[] {
  const posix = pattern.split(sep).join('/');
  const parts = posix.split('/');
  const baseParts: string[] = [];
  for (const p of parts) {
    if (hasGlob(p)) break;
    baseParts.push(p);
  }
  const base = resolve(cwd, baseParts.join('/') || '.');
  const isMatch = picomatch(posix.startsWith('/') ? posix : posix.replace(/^\.\//, ''), { dot: false });
  const all: string[] = [];
  walk(base, all, isIgnored, () => true);
  return all.filter((abs) => {
    const rel = posix.startsWith('/') ? abs.split(sep).join('/') : relative(cwd, abs).split(sep).join('/');
    return isMatch(rel);
  });
}
