/**
 * `mcp-tool-lint search "INTENT" [paths]`: the tools of the catalogue ranked for an intent, best
 * first, one per line, the name first. A search that returns nothing is a *zero result* (seed
 * 004): it is said on stderr (text) or flagged in the JSON, and is not an error.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../../engine/config';
import { buildIndex, rankTools, toolCategory, toolSummary } from '../../engine/discover';
import { UsageError } from '../files';
import { loadRun } from '../run';

export interface CommandIO {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  cwd: string;
}

export const SEARCH_HELP = `Usage: mcp-tool-lint search "INTENT" [paths] [options]

Rank the tools of the catalogue for an intent ("what the user wants to do"), best first,
one per line: name, score, [category] and a one-line summary. Paths default to ".".
A search that matches no tool is a zero result: a gap in the catalogue or its descriptions.

Options:
  -n, --limit N            show at most N tools (default 10; 0 shows every match)
  -f, --format NAME        text (default) or json
  -o, --output FILE        write the result to FILE
  -c, --config FILE        use this config (for its ignore patterns)
  -h, --help               show this help`;

interface SearchArgs {
  intent: string | null;
  paths: string[];
  limit: number;
  format: 'text' | 'json';
  output: string | null;
  config: string | null;
  help: boolean;
}

/**
 * Parses the options of a subcommand: `spec` maps each option (long and short) to a handler
 * that receives its value (or null for a flag). Anything not an option is positional.
 */
export function parseOptions(argv: string[], spec: Record<string, { value: boolean; set(v: string | null): void }>, positional: (arg: string) => void): void {
  let onlyPositional = false;
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    if (onlyPositional || !arg.startsWith('-') || arg === '-') {
      positional(arg);
      continue;
    }
    if (arg === '--') {
      onlyPositional = true;
      continue;
    }
    let inline: string | null = null;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      inline = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    const opt = spec[arg];
    if (!opt) throw new UsageError(`unknown option ${arg}; see --help`);
    if (!opt.value) {
      if (inline !== null) throw new UsageError(`${arg} takes no value`);
      opt.set(null);
      continue;
    }
    let v = inline;
    if (v === null) {
      v = argv[++i] ?? null;
      if (v === null || (v.startsWith('-') && v !== '-')) throw new UsageError(`${arg} needs a value; see --help`);
    }
    opt.set(v);
  }
}

function parseSearchArgs(argv: string[]): SearchArgs {
  const a: SearchArgs = { intent: null, paths: [], limit: 10, format: 'text', output: null, config: null, help: false };
  const limit = {
    value: true,
    set(v: string | null) {
      if (!/^\d+$/.test(v ?? '')) throw new UsageError(`--limit expects a whole number, got "${v}"`);
      a.limit = Number(v);
    },
  };
  const format = {
    value: true,
    set(v: string | null) {
      if (v !== 'text' && v !== 'json') throw new UsageError(`search: unknown format "${v}"; allowed: text, json`);
      a.format = v;
    },
  };
  const output = { value: true, set: (v: string | null) => void (a.output = v) };
  const config = { value: true, set: (v: string | null) => void (a.config = v) };
  const help = { value: false, set: () => void (a.help = true) };
  parseOptions(argv, { '-n': limit, '--limit': limit, '-f': format, '--format': format, '-o': output, '--output': output, '-c': config, '--config': config, '-h': help, '--help': help }, (arg) => {
    if (a.intent === null) a.intent = arg;
    else a.paths.push(arg);
  });
  return a;
}

/** Runs `search` with the arguments after the subcommand's name; returns the exit code. */
export function runSearch(argv: string[], io: CommandIO): number {
  let a: SearchArgs;
  try {
    a = parseSearchArgs(argv);
  } catch (e) {
    io.stderr.write(`mcp-tool-lint: ${(e as Error).message}\n`);
    return 2;
  }
  if (a.help) {
    io.stdout.write(SEARCH_HELP + '\n');
    return 0;
  }
  if (a.intent === null || a.intent.trim() === '') {
    io.stderr.write('mcp-tool-lint: search needs an intent, e.g. mcp-tool-lint search "refund an order" [paths]; see --help\n');
    return 2;
  }
  try {
    const run = loadRun({ cwd: io.cwd, paths: a.paths, configPath: a.config });
    const tools = run.files.flatMap((f) => f.tools);
    const index = buildIndex(tools);
    const ranked = rankTools(index, a.intent, a.limit > 0 ? { limit: a.limit } : {});
    let text: string;
    if (a.format === 'json') {
      text = JSON.stringify(
        {
          intent: a.intent,
          zeroResults: ranked.length === 0,
          tools: index.tools.length,
          results: ranked.map((r) => ({
            name: r.tool.name,
            score: Math.round(r.score * 1000) / 1000,
            category: toolCategory(r.tool),
            summary: toolSummary(r.tool),
            file: r.tool.file.path,
            matched: r.matched,
          })),
        },
        null,
        2,
      );
    } else {
      const w = Math.max(0, ...ranked.map((r) => (r.tool.name ?? '').length));
      text = ranked
        .map((r) => {
          const cat = toolCategory(r.tool);
          const summary = toolSummary(r.tool);
          return `${(r.tool.name ?? '').padEnd(w)}  ${r.score.toFixed(2).padStart(6)}  ${cat ? `[${cat}] ` : ''}${summary}`.trimEnd();
        })
        .join('\n');
    }
    if (a.output) writeFileSync(resolve(io.cwd, a.output), text ? text + '\n' : '');
    else if (text) io.stdout.write(text + '\n');
    if (ranked.length === 0 && a.format === 'text') {
      io.stderr.write(index.tools.length === 0 ? 'mcp-tool-lint: no tools found in the given paths\n' : `mcp-tool-lint: no tool matches "${a.intent}" (a zero result: a gap in the catalogue or in its descriptions)\n`);
    }
    return 0;
  } catch (e) {
    if (e instanceof ConfigError || e instanceof UsageError) {
      io.stderr.write(`mcp-tool-lint: ${e.message}\n`);
      return 2;
    }
    io.stderr.write(`mcp-tool-lint: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    return 2;
  }
}
