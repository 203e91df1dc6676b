/**
 * `mcp-tool-lint search "INTENT" [paths]`: the tools of the catalogue ranked for an intent, best
 * first, one per line, the name first. A search that returns nothing is a *zero result* (seed
 * 004): it is said on stderr (text) or flagged in the JSON, and is not an error.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildIndex, rankTools, toolCategory, toolSummary } from '../../engine/discover';
import { UsageError } from '../files';
import { loadRun } from '../run';
import { parseOptions, runCommand, type CommandIO } from './common';


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
  return runCommand(argv, io, parseSearchArgs, SEARCH_HELP, (a) => {
  if (a.intent === null || a.intent.trim() === '') {
    io.stderr.write('mcp-tool-lint: search needs an intent, e.g. mcp-tool-lint search "refund an order" [paths]; see --help\n');
    return 2;
  }
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
  });
}
