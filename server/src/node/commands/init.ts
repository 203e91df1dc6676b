/**
 * `mcp-tool-lint init [paths]`: look at the files a lint run would read and write a commented
 * `.mcp-tool-lint.yaml` suited to them (presets, rule examples for the formats found, ignores for
 * fixture folders, `maxFileSize` for large files). It never overwrites a config without `--force`,
 * and what it writes must load through the config loader (a test checks it).
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { CONFIG_NAMES, ConfigError, PRESETS } from '../../engine/config';
import { HOMEPAGE } from '../../engine/docs-url';
import { DEFAULT_MAX_BYTES } from '../../engine/load';
import type { SourceFile } from '../../engine/model';
import { UsageError } from '../files';
import { loadRun } from '../run';
import { parseOptions, type CommandIO } from './common';

export const INIT_HELP = `Usage: mcp-tool-lint init [paths] [options]

Look at the tool and eval files under the paths (default ".") and write a commented
.mcp-tool-lint.yaml suited to them in the current folder: the recommended preset, the
provider profiles to switch on, rule examples for the formats found, ignores for fixture
and test folders, and maxFileSize when a file is over the default 10 MB limit.

Options:
      --force              overwrite an existing config
  -h, --help               show this help`;

const CONFIG_FILE = '.mcp-tool-lint.yaml';
/** Folders whose catalogues are usually broken on purpose or copies: ignored by default. */
const FIXTURE_DIR = /^(fixtures?|__fixtures__|test-?data|tests?|__tests__|spec|mocks?|__mocks__|vendor|third[_-]party)$/i;
const MB = 1024 * 1024;

interface Scan {
  /** Files read; `[]` when the default folder holds no YAML or JSON file. */
  files: SourceFile[];
  sizes: number[];
  ignore: string[];
  nodeModules: boolean;
}

export interface InitSummary {
  toolFiles: number;
  tools: number;
  evalSuites: number;
  otherFiles: number;
  /** Format id → [files, tools]. */
  formats: Map<string, [number, number]>;
  paramMaps: number;
  paramLists: number;
  mxcp: boolean;
  largest: number;
}

export function runInit(argv: string[], io: CommandIO): number {
  let force = false;
  let help = false;
  const paths: string[] = [];
  try {
    parseOptions(
      argv,
      {
        '--force': { value: false, set: () => (force = true) },
        '-h': { value: false, set: () => (help = true) },
        '--help': { value: false, set: () => (help = true) },
      },
      (p) => paths.push(p),
    );
  } catch (e) {
    io.stderr.write(`mcp-tool-lint init: ${(e as Error).message}\n`);
    return 2;
  }
  if (help) {
    io.stdout.write(INIT_HELP + '\n');
    return 0;
  }
  const cwd = resolve(io.cwd);
  const existing = CONFIG_NAMES.map((n) => join(cwd, n)).filter((p) => existsSync(p));
  if (existing.length > 0 && !force) {
    io.stderr.write(`mcp-tool-lint init: ${relative(cwd, existing[0])} already exists; not overwriting it (use --force to replace it)\n`);
    return 2;
  }
  let scan: Scan;
  try {
    scan = scanFiles(cwd, paths);
  } catch (e) {
    io.stderr.write(`mcp-tool-lint init: ${(e as Error).message}\n`);
    return 2;
  }
  const summary = summarizeScan(scan);
  const target = existing.find((p) => /\.ya?ml$/.test(p)) ?? join(cwd, CONFIG_FILE);
  try {
    writeFileSync(target, initConfigText(summary, scan));
  } catch (e) {
    io.stderr.write(`mcp-tool-lint init: cannot write ${relative(cwd, target)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
    return 2;
  }
  io.stdout.write(describeScan(summary, scan));
  io.stdout.write(`Wrote ${relative(cwd, target)}. Review it, then run \`mcp-tool-lint\` to lint with it.\n`);
  for (const other of existing) {
    if (other !== target) io.stderr.write(`mcp-tool-lint init: ${relative(cwd, other)} is now shadowed by ${relative(cwd, target)}; delete it\n`);
  }
  return 0;
}

function scanFiles(cwd: string, paths: string[]): Scan {
  let files: SourceFile[] = [];
  let absOf = new Map<SourceFile, string>();
  try {
    // No existing config is applied (`--force` replaces it): scan with the built-in defaults.
    const run = loadRun({ cwd, paths, configPath: null });
    files = run.files;
    absOf = run.absOf;
  } catch (e) {
    // An empty project still gets a starting config; a path the user named that does not
    // exist is an error.
    if (!(e instanceof UsageError && paths.length === 0)) throw e instanceof ConfigError || e instanceof UsageError ? e : new Error(String((e as Error).message ?? e));
  }
  const sizes = files.map((f) => {
    try {
      return statSync(absOf.get(f)!).size;
    } catch {
      return 0;
    }
  });
  const ignore = new Set<string>();
  for (const f of files) {
    if (f.kind === 'unknown') continue;
    const rel = relative(cwd, absOf.get(f)!);
    if (rel.startsWith('..')) continue;
    const parts = rel.split(sep).slice(0, -1);
    const i = parts.findIndex((p) => FIXTURE_DIR.test(p));
    if (i >= 0) ignore.add(parts.slice(0, i + 1).join('/') + '/**');
  }
  return { files, sizes, ignore: [...ignore].sort(), nodeModules: existsSync(join(cwd, 'node_modules')) };
}

export function summarizeScan(scan: Scan): InitSummary {
  const s: InitSummary = { toolFiles: 0, tools: 0, evalSuites: 0, otherFiles: 0, formats: new Map(), paramMaps: 0, paramLists: 0, mxcp: false, largest: 0 };
  scan.files.forEach((f, i) => {
    s.largest = Math.max(s.largest, scan.sizes[i] ?? 0);
    if (f.kind === 'tools') s.toolFiles++;
    if (f.evalSuite) s.evalSuites++;
    if (f.kind === 'unknown') {
      s.otherFiles++;
      return;
    }
    const entry = s.formats.get(f.format) ?? [0, 0];
    entry[0]++;
    entry[1] += f.tools.length;
    s.formats.set(f.format, entry);
    s.tools += f.tools.length;
    if (f.format.startsWith('mxcp')) s.mxcp = true;
    for (const t of f.tools) {
      if (t.schemaStyle === 'param-map') s.paramMaps++;
      if (t.schemaStyle === 'param-list') s.paramLists++;
    }
  });
  return s;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function describeScan(s: InitSummary, scan: Scan): string {
  if (scan.files.length === 0) return 'Found no YAML or JSON files; writing a starting config.\n';
  const lines = [`Found ${plural(s.toolFiles, 'tool file')} (${plural(s.tools, 'tool')}) and ${plural(s.evalSuites, 'eval suite')} in ${plural(scan.files.length, 'YAML/JSON file')}:`];
  const w = Math.max(0, ...[...s.formats.keys()].map((k) => k.length));
  for (const [format, [files, tools]] of [...s.formats].sort()) {
    lines.push(`  ${format.padEnd(w)}  ${plural(files, 'file')}${format === 'mxcp-eval' ? '' : `, ${plural(tools, 'tool')}`}`);
  }
  if (s.otherFiles > 0) lines.push(`  ${plural(s.otherFiles, 'other file')} (not tool or eval files; left alone)`);
  if (scan.ignore.length > 0) lines.push(`Ignoring fixture and test folders: ${scan.ignore.join(', ')}`);
  if (s.largest > DEFAULT_MAX_BYTES) lines.push(`The largest file is ${(s.largest / MB).toFixed(1)} MB: raising maxFileSize.`);
  return lines.join('\n') + '\n';
}

const PROVIDERS = ['openai', 'anthropic', 'gemini'] as const;

/** A preset's description, on one line. */
function presetLine(name: string): string {
  return PRESETS[name].description.replace(/\s+/g, ' ').replace(/\.$/, '');
}

/** The text of the config `init` writes for what the scan found. */
export function initConfigText(s: InitSummary, scan: Scan): string {
  const out: string[] = [];
  const push = (...l: string[]) => out.push(...l);
  const found = s.formats.size > 0 ? `${plural(s.toolFiles, 'tool file')} (${plural(s.tools, 'tool')}; ${[...s.formats.keys()].sort().join(', ')})` : 'no tool files yet';
  push(
    '# mcp-tool-lint configuration, written by `mcp-tool-lint init`.',
    `# Found: ${found}${s.evalSuites ? `, ${plural(s.evalSuites, 'eval suite')}` : ''}.`,
    `# Every key is optional. Reference: ${HOMEPAGE}#configuration`,
    '# `mcp-tool-lint rules` lists every rule with its default severity.',
    '',
    '# Presets apply in order, then `rules`, then matching `overrides`.',
    'extends:',
    `  - recommended        # ${presetLine('recommended')}`,
    '  # Provider profiles: uncomment the model APIs your tools are sent to.',
  );
  for (const p of PROVIDERS) push(`  # - ${p.padEnd(16)} # ${presetLine(p)}`);
  push(`  # For a CI gate, replace recommended with strict: ${presetLine('strict')}.`, '');

  const examples: string[] = [];
  if (s.paramMaps > 0) {
    examples.push(
      `# ${plural(s.paramMaps, 'tool')} ${s.paramMaps === 1 ? 'uses' : 'use'} REST parameter maps (name → description, no types): the schema rules`,
      '# (`enum-implicit`, `required-mismatch`) skip them; `description-missing` still checks each parameter.',
      'description-missing: [warning, {nested: false}]',
    );
  }
  if (s.mxcp) {
    examples.push(
      '# MXCP: a parameter without `default` is required; `required-mismatch` checks the descriptions agree.',
      'required-mismatch: error',
    );
  }
  if (s.paramLists > 0 && !s.mxcp) {
    examples.push('# Parameter lists: `array-empty-vs-null` asks optional arrays to say what `[]` means.', 'array-empty-vs-null: info');
  }
  if (s.evalSuites > 0) {
    examples.push("# Eval suites: each test's expected tools must rank in the top k for its prompt.", 'tool-undiscoverable: [warning, {k: 3}]');
  }
  if (s.tools >= 40) {
    examples.push(
      `# ${s.tools} tools: check what they cost in the prompt (the provider profiles switch these on).`,
      'token-budget-exceeded: [warning, {budget: 8000}]',
      'tool-count-exceeded: [warning, {providers: [openai, gemini]}]',
    );
  }
  examples.push(
    '# Fields your server assigns (beyond ids, timestamps and owners it already knows):',
    'system-field-exposed: [warning, {fields: [tenant_key]}]',
    '# Raise a rule to an error, or turn it off:',
    'enum-unexplained: error',
  );
  // Examples only: `recommended` is already right for most catalogues, and an empty `rules:`
  // key would not load.
  push('# Severity: off | info | warning | error, or [severity, {options}].', '# rules:', ...examples.map((l) => '#   ' + l));
  push('');

  if (scan.ignore.length > 0) {
    push('# Folders that look like fixtures or tests (their catalogues are often broken on purpose).', '# Delete a line to lint that folder.', 'ignore:');
    for (const g of scan.ignore) push(`  - ${JSON.stringify(g)}`);
  } else {
    push('# Globs to leave alone, relative to this file.', '# ignore:', '#   - "fixtures/**"');
  }
  if (scan.nodeModules) push('# node_modules (like dist, build, .git and other dependency and cache folders) is never searched.');
  push('');

  push(
    '# Per-glob rule settings (applied after `rules`):',
    '# overrides:',
    '#   - files: ["legacy/**"]',
    '#     rules: {description-missing: off}',
    '',
  );
  if (s.largest > DEFAULT_MAX_BYTES) {
    const limit = Math.ceil((s.largest * 1.25) / MB) * MB;
    push(`# The largest file found is ${(s.largest / MB).toFixed(1)} MB, over the default 10 MB limit.`, `maxFileSize: ${limit}    # bytes (${limit / MB} MB)`, '');
  } else {
    push('# Files larger than this many bytes get a finding instead of being parsed (default 10 MB).', '# maxFileSize: 10485760', '');
  }
  return out.join('\n');
}
