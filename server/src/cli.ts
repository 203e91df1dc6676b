/**
 * The `mcp-tool-lint` command. A thin adapter: it parses arguments, runs the engine through
 * `node/run.ts`, prints a report and sets the exit code (0 clean, 1 findings, 2 usage/config/
 * internal error). It contains no LSP code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultConfig, findConfigFile, loadConfigFile, parseCliRule, ruleSettings, type RawRules } from './engine/config';
import { allRules } from './engine/rules';
import { ruleDocsUrl } from './engine/docs-url';
import { FORMATS, formatResult, type FormatName } from './engine/format';
import { UsageError } from './node/files';
import { loadRun, runLint } from './node/run';
import { runSearch } from './node/commands/search';
import { runMap } from './node/commands/map';
import { runGraph } from './node/commands/graph';
import { runDiff } from './node/commands/diff';
import { runSnapshot } from './node/commands/snapshot';
import { reportFailure } from './node/commands/common';
import { addTime, lint } from './engine/runner';
import { runInit } from './node/commands/init';
import { approxTokens, renderCatalog, toolsListJson } from './engine/render';
import { serverManagedPredicate } from './engine/server-managed';
import { buildCatalog, type SourceFile, type Tool } from './engine/model';
import type { SchemaVisit } from './engine/schema';
import { closestName } from './engine/util/text';
import { unifiedDiff } from './engine/util/diff';
import type { LintResult } from './engine/diagnostic';
import { summarize } from './engine/diagnostic';

declare const __VERSION__: string;
export const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev';

const HELP = `Usage: mcp-tool-lint [options] [paths|globs...]
       mcp-tool-lint rules [--format stylish|json]
       mcp-tool-lint preview [paths] [--tool NAME] [--format markdown|json]
       mcp-tool-lint search "INTENT" [paths] [--limit N] [--format text|json]
       mcp-tool-lint map [paths] [--format markdown|json] [--intents FILE]
       mcp-tool-lint graph [paths] [--format mermaid|dot|json] [--order]
       mcp-tool-lint init [paths] [--force]
       mcp-tool-lint diff OLD NEW [--format stylish|json|markdown] [--allow-breaking]
       mcp-tool-lint snapshot [paths] [--server-command CMD | --server-url URL] -o FILE
       mcp-tool-lint --server-command "CMD ARGS" | --server-url URL [--header K=V] [options]

Lint MCP tool definitions (YAML or JSON) for what makes LLM agents fail.
Paths default to "."; folders are searched for tool and eval files.

Options:
  -f, --format NAME        stylish (default), json, sarif, github, junit
  -o, --output FILE        write the report to FILE
  -c, --config FILE        use this config instead of finding .mcp-tool-lint.yaml
      --server-command CMD start an MCP server over stdio and lint the tools it lists
      --server-url URL     connect to an MCP server over Streamable HTTP and lint its tools
      --header K=V         an HTTP header for --server-url (repeatable), e.g. Authorization
      --timeout MS         time-out for starting and listing a live server (default 30000)
      --rule ID=SEVERITY   set a rule's severity: off, info, warning, error (repeatable)
      --max-warnings N     exit 1 when there are more than N warnings
      --quiet              report errors only
      --fix                apply the safe fixes to the files
      --fix-dry-run        print the safe fixes as a diff; change no file
      --report-unused-disable-directives
                           report suppression comments that suppress nothing
      --stdin              lint the text on standard input (with any paths given);
                           with --fix, print the fixed text and report on stderr
      --stdin-filepath PATH
                           lint standard input as if it were PATH (language, config)
      --color, --no-color  force or disable colour (default: colour on a terminal)
  -h, --help               show this help
  -v, --version            show the version

Exit codes: 0 no errors (and warnings within --max-warnings), 1 errors or too many
warnings, 2 usage, config or internal error, or a path that matched no file.`;

interface Args {
  command: 'lint' | 'rules' | 'preview';
  tool: string | null;
  layout: 'markdown' | 'json';
  paths: string[];
  format: FormatName;
  output: string | null;
  config: string | null;
  rules: RawRules;
  maxWarnings: number | null;
  quiet: boolean;
  fix: 'write' | 'dry-run' | null;
  reportUnused: boolean;
  color: boolean | null;
  stdin: boolean;
  stdinFilepath: string | null;
  serverCommand: string | null;
  serverUrl: string | null;
  headers: Record<string, string>;
  timeoutMs: number | null;
  help: boolean;
  version: boolean;
}

export function parseArgs(argv: string[]): Args {
  const a: Args = { command: 'lint', tool: null, layout: 'markdown', paths: [], format: 'stylish', output: null, config: null, rules: {}, maxWarnings: null, quiet: false, fix: null, reportUnused: false, color: null, stdin: false, stdinFilepath: null, serverCommand: null, serverUrl: null, headers: {}, timeoutMs: null, help: false, version: false };
  let i = 0;
  if (argv[0] === 'rules' || argv[0] === 'preview') {
    a.command = argv[0];
    i = 1;
  }
  const value = (name: string): string => {
    const v = argv[++i];
    if (v === undefined || (v.startsWith('-') && v !== '-')) throw new UsageError(`${name} needs a value; see --help`);
    return v;
  };
  let onlyPaths = false;
  for (; i < argv.length; i++) {
    let arg = argv[i];
    if (onlyPaths || !arg.startsWith('-') || arg === '-') {
      a.paths.push(arg);
      continue;
    }
    let inline: string | null = null;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      inline = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    const val = (name: string): string => (inline !== null ? inline : value(name));
    switch (arg) {
      case '--':
        onlyPaths = true;
        break;
      case '-f':
      case '--format': {
        const f = val(arg);
        if (a.command === 'preview') {
          if (f !== 'markdown' && f !== 'json') throw new UsageError(`preview: unknown format "${f}"; allowed: markdown, json`);
          a.layout = f;
          break;
        }
        if (!(FORMATS as string[]).includes(f)) throw new UsageError(`unknown format "${f}"; allowed: ${FORMATS.join(', ')}`);
        a.format = f as FormatName;
        break;
      }
      case '-o':
      case '--output':
        a.output = val(arg);
        break;
      case '-c':
      case '--config':
        a.config = val(arg);
        break;
      case '--rule': {
        const [id, s] = parseCliRule(val(arg));
        a.rules[id] = s;
        break;
      }
      case '--max-warnings': {
        const v = val(arg);
        const n = Number(v);
        if (!/^-?\d+$/.test(v) || n < -1) throw new UsageError(`--max-warnings expects a whole number, got "${v}"`);
        a.maxWarnings = n < 0 ? null : n;
        break;
      }
      case '--tool':
        a.tool = val(arg);
        break;
      case '--quiet':
        a.quiet = true;
        break;
      case '--server-command':
        a.serverCommand = val(arg);
        break;
      case '--server-url':
        a.serverUrl = val(arg);
        break;
      case '--header': {
        const h = val(arg);
        const m = /^([^=:]+)\s*[=:]\s*(.*)$/.exec(h);
        if (!m) throw new UsageError(`--header expects K=V, got "${h}"`);
        a.headers[m[1].trim()] = m[2];
        break;
      }
      case '--timeout': {
        const v = val(arg);
        if (!/^\d+$/.test(v) || Number(v) <= 0) throw new UsageError(`--timeout expects milliseconds, got "${v}"`);
        a.timeoutMs = Number(v);
        break;
      }
      case '--fix':
        a.fix = 'write';
        break;
      case '--fix-dry-run':
        a.fix = 'dry-run';
        break;
      case '--report-unused-disable-directives':
        a.reportUnused = true;
        break;
      case '--stdin':
        a.stdin = true;
        break;
      case '--stdin-filepath':
      case '--stdin-filename':
        a.stdinFilepath = val(arg);
        break;
      case '--color':
        a.color = true;
        break;
      case '--no-color':
        a.color = false;
        break;
      case '-h':
      case '--help':
        a.help = true;
        break;
      case '-v':
      case '--version':
        a.version = true;
        break;
      default:
        throw new UsageError(`unknown option ${arg}; see --help`);
    }
  }
  if (a.stdinFilepath !== null && !a.stdin) throw new UsageError('--stdin-filepath needs --stdin');
  return a;
}

function useColor(a: Args, stream: NodeJS.WriteStream): boolean {
  if (a.color !== null) return a.color;
  if (process.env.NO_COLOR) return false;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') return true;
  return !!stream.isTTY && !a.output;
}

function listRules(a: Args): string {
  const rules = allRules().map((r) => ({
    id: r.meta.id,
    severity: r.meta.severity,
    recommended: r.meta.recommended,
    fixable: r.meta.fixable,
    suggestions: r.meta.hasSuggestions,
    description: r.meta.description,
    docs: ruleDocsUrl(r.meta.id),
  }));
  if (a.format === 'json') return JSON.stringify(rules, null, 2) + '\n';
  const w = Math.max(...rules.map((r) => r.id.length));
  const lines = rules.map((r) => `${r.id.padEnd(w)}  ${r.severity.padEnd(7)}  ${r.fixable === 'never' ? (r.suggestions ? 'suggest' : '       ') : 'fix    '}  ${r.description}`);
  return `${'rule'.padEnd(w)}  default  fixes    description\n${lines.join('\n')}\n\nDocs: ${ruleDocsUrl('<rule>')}\n`;
}

function onlyErrors(r: LintResult): LintResult {
  const results = r.results.map((fr) => ({ ...fr, diagnostics: fr.diagnostics.filter((d) => d.severity === 'error') }));
  return { ...r, results, summary: summarize(results) };
}

export interface MainIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd: string;
  /** What `--stdin` reads (defaults to the process's standard input). */
  readStdin?: () => string;
}

export function main(argv: string[], io: MainIO = { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() }): number | Promise<number> {
  if (argv[0] === 'init') return runInit(argv.slice(1), io);
  if (argv[0] === 'diff') return runDiff(argv.slice(1), io);
  if (argv[0] === 'snapshot') return runSnapshot(argv.slice(1), io);
  if (argv[0] === 'search') return runSearch(argv.slice(1), io);
  if (argv[0] === 'map') return runMap(argv.slice(1), io);
  if (argv[0] === 'graph') return runGraph(argv.slice(1), io);
  let a: Args;
  try {
    a = parseArgs(argv);
  } catch (e) {
    io.stderr.write(`mcp-tool-lint: ${(e as Error).message}\n`);
    return 2;
  }
  if (a.help) {
    io.stdout.write(HELP + '\n');
    return 0;
  }
  if (a.version) {
    io.stdout.write(VERSION + '\n');
    return 0;
  }
  if (a.command === 'rules') {
    io.stdout.write(listRules(a));
    return 0;
  }
  if (a.command === 'preview') return preview(a, io);
  if (a.serverCommand !== null || a.serverUrl !== null) return lintLiveServer(a, io);
  if (Object.keys(a.headers).length || a.timeoutMs !== null) {
    io.stderr.write('mcp-tool-lint: --header and --timeout go with --server-command or --server-url\n');
    return 2;
  }
  try {
    const stdin = a.stdin ? { text: (io.readStdin ?? (() => readFileSync(0, 'utf8')))(), filepath: a.stdinFilepath } : null;
    const timingWanted = process.env.MCP_TOOL_LINT_TIMING;
    const timing = timingWanted ? new Map<string, number>() : undefined;
    const out = runLint({ cwd: io.cwd, paths: a.paths, configPath: a.config, cliRules: a.rules, reportUnusedDisableDirectives: a.reportUnused, fix: a.fix, stdin, timing });
    let result = out.result;
    if (a.quiet) result = onlyErrors(result);
    const machine = a.format !== 'stylish';
    // `--stdin --fix` never writes the file: standard output carries the buffer, fixed, so the
    // report moves to stderr (as in `ruff check --fix -`).
    const stdinFix = stdin !== null && a.fix === 'write';
    // The buffer is the run's first file (see `loadRun`).
    const stdinPath = stdin ? out.files[0]?.path : null;
    const reportSink = stdinFix ? io.stderr : io.stdout;
    if (out.fixed.length > 0) {
      const sink = machine && !a.output ? io.stderr : io.stdout;
      for (const f of out.fixed) {
        if (a.fix === 'dry-run') sink.write(unifiedDiff(f.path, f.before, f.after));
        else if (f.skipped) io.stderr.write(`mcp-tool-lint: not writing fixes to ${f.path}: ${f.skipped}\n`);
      }
    }
    if (stdinFix && stdin) io.stdout.write(out.fixed.find((f) => f.path === stdinPath)?.after ?? stdin.text);
    const tReport = timing ? performance.now() : 0;
    const report = formatResult(a.format, result, { color: useColor(a, reportSink as NodeJS.WriteStream), cwd: io.cwd, toolVersion: VERSION });
    if (a.output) {
      writeFileSync(resolve(io.cwd, a.output), report);
    } else if (report) {
      reportSink.write(report.endsWith('\n') ? report : report + '\n');
    }
    if (timing && timingWanted) {
      addTime(timing, '(report)', tReport);
      io.stderr.write(timingTable(timing, timingWanted));
    }
    // The report carries internal errors as findings; repeat them on stderr only when the
    // report is not in front of the user (machine formats, or written to a file).
    if (machine || a.output) for (const msg of result.internalErrors) io.stderr.write(`mcp-tool-lint: internal error: ${msg}\n`);
    if (result.internalErrors.length > 0) return 2;
    if (result.summary.errors > 0) return 1;
    if (!a.quiet && a.maxWarnings !== null && result.summary.warnings > a.maxWarnings) {
      io.stderr.write(`mcp-tool-lint: ${result.summary.warnings} warnings, more than --max-warnings ${a.maxWarnings}\n`);
      return 1;
    }
    return 0;
  } catch (e) {
    return reportFailure(io, e);
  }
}

/**
 * `MCP_TOOL_LINT_TIMING=1` (as ESLint's `TIMING=1`): the slowest rules and the phases around them
 * (`(load)`: find, read, parse and normalise; `(catalogue)`; `(diagnostics)`: findings to ranges,
 * severities and suppressions; `(report)`), in milliseconds of this run, on stderr. A number
 * shows that many rows; `all` shows all.
 */
export function timingTable(timing: Map<string, number>, wanted: string): string {
  const rows = [...timing].sort((x, y) => y[1] - x[1]);
  const asked = Number.parseInt(wanted, 10);
  const n = wanted === 'all' ? rows.length : asked > 1 ? asked : 10;
  const total = rows.reduce((sum, r) => sum + r[1], 0) || 1;
  const shown = rows.slice(0, n);
  const w = Math.max(4, ...shown.map((r) => r[0].length));
  const lines = [`${'Rule'.padEnd(w)} | Time (ms) | Relative`, `${'-'.repeat(w)}-|----------:|--------:`];
  for (const [id, ms] of shown) lines.push(`${id.padEnd(w)} | ${ms.toFixed(1).padStart(9)} | ${((100 * ms) / total).toFixed(1).padStart(7)}%`);
  return lines.join('\n') + '\n';
}

/** Hide what `system-field-exposed` reports in each file, with that file's configured options. */
function previewHide(run: ReturnType<typeof loadRun>): (tool: Tool, v: SchemaVisit) => boolean {
  const catalog = buildCatalog(run.files);
  const byFile = new Map<SourceFile, (tool: Tool, v: SchemaVisit) => boolean>();
  return (tool, v) => {
    let p = byFile.get(tool.file);
    if (!p) {
      const cfg = run.cfgOf.get(tool.file) ?? defaultConfig(run.cwd);
      const opts = ruleSettings(cfg, run.absOf.get(tool.file) ?? null).get('system-field-exposed')?.options ?? {};
      p = serverManagedPredicate(catalog, opts);
      byFile.set(tool.file, p);
    }
    return p(tool, v);
  };
}

/** `preview`: the prompt text an agent sees for the tools of the given files. */
function preview(a: Args, io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; cwd: string }): number {
  try {
    const run = loadRun({ cwd: io.cwd, paths: a.paths, configPath: a.config });
    let tools = run.files.flatMap((f) => f.tools);
    if (a.tool !== null) {
      tools = tools.filter((t) => t.name === a.tool);
      if (tools.length === 0) {
        const names = run.files.flatMap((f) => f.tools.map((t) => t.name ?? '')).filter(Boolean);
        const near = closestName(a.tool, names);
        io.stderr.write(`mcp-tool-lint: no tool named "${a.tool}"${near ? ` (did you mean "${near}"?)` : ''}\n`);
        return 2;
      }
    }
    const text = a.layout === 'json' ? toolsListJson(tools) : renderCatalog(tools, { hide: previewHide(run) });
    if (a.output) writeFileSync(resolve(io.cwd, a.output), text + '\n');
    else io.stdout.write(text + '\n');
    io.stderr.write(`≈ ${approxTokens(text)} tokens for ${tools.length} tool${tools.length === 1 ? '' : 's'}\n`);
    return 0;
  } catch (e) {
    io.stderr.write(`mcp-tool-lint: ${(e as Error).message}\n`);
    return 2;
  }
}

/**
 * Lint the tools a running MCP server lists (over stdio or Streamable HTTP). The client code
 * is loaded only here, so ordinary runs do not pay for it.
 */
async function lintLiveServer(a: Args, io: MainIO): Promise<number> {
  if (a.serverCommand !== null && a.serverUrl !== null) {
    io.stderr.write('mcp-tool-lint: give --server-command or --server-url, not both\n');
    return 2;
  }
  if (a.paths.length || a.stdin || a.fix) {
    io.stderr.write('mcp-tool-lint: a live server is linted on its own (no paths, --stdin or --fix)\n');
    return 2;
  }
  try {
    const { lintLive } = await import('./node/live');
    const files = await lintLive({ command: a.serverCommand ?? undefined, url: a.serverUrl ?? undefined, headers: a.headers, timeoutMs: a.timeoutMs ?? undefined, cwd: io.cwd });
    const cfgPath = a.config ? resolve(io.cwd, a.config) : findConfigFile(io.cwd);
    const cfg = cfgPath ? loadConfigFile(cfgPath) : defaultConfig(io.cwd);
    // One config for the whole server: its files share one set of settings.
    const settings = ruleSettings(cfg, null, a.rules);
    let result = lint(files, { settingsFor: () => settings, reportUnusedDisableDirectives: a.reportUnused });
    if (a.quiet) result = onlyErrors(result);
    const report = formatResult(a.format, result, { color: useColor(a, io.stdout as NodeJS.WriteStream), cwd: io.cwd, toolVersion: VERSION });
    if (a.output) writeFileSync(resolve(io.cwd, a.output), report);
    else if (report) io.stdout.write(report.endsWith('\n') ? report : report + '\n');
    if (result.internalErrors.length > 0) return 2;
    if (result.summary.errors > 0) return 1;
    if (!a.quiet && a.maxWarnings !== null && result.summary.warnings > a.maxWarnings) return 1;
    return 0;
  } catch (e) {
    io.stderr.write(`mcp-tool-lint: ${(e as Error)?.message ?? String(e)}\n`);
    return 2;
  }
}

/** Entry point of the `mcp-tool-lint` binary. */
export function run(): void {
  const code = main(process.argv.slice(2));
  if (typeof code === 'number') process.exitCode = code;
  else
    void code.then(
      (c) => {
        process.exitCode = c;
      },
      (e) => {
        process.stderr.write(`mcp-tool-lint: internal error: ${(e as Error)?.message ?? String(e)}\n`);
        process.exitCode = 2;
      },
    );
}

if (require.main === module) run();
