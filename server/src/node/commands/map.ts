/**
 * `mcp-tool-lint map [paths]`: the categorised tool map of seed 004 (category → tools with
 * one-line summaries), as Markdown or JSON; tools without a category are listed apart. With
 * `--intents FILE` it also runs each intent through the ranker and reports the zero-result rate
 * and each miss.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildIndex, buildToolMap, intentReport, parseIntents, renderIntentReportMarkdown, renderToolMapMarkdown, type IntentReport } from '../../engine/discover';
import { UsageError } from '../files';
import { loadRun } from '../run';
import { parseOptions, runCommand, type CommandIO } from './common';

export const MAP_HELP = `Usage: mcp-tool-lint map [paths] [options]

Print the categorised tool map: each category with its tools and a one-line summary of each;
tools without a category are listed apart. Paths default to ".".

Options:
  -f, --format NAME        markdown (default) or json
      --intents FILE       also run each intent of FILE (one per line; blank lines and
                           # comments skipped; a TSV with an "intent" header column works
                           too) and report the zero-result rate and each miss
  -o, --output FILE        write the map to FILE
  -c, --config FILE        use this config (for its ignore patterns)
  -h, --help               show this help`;

interface MapArgs {
  paths: string[];
  format: 'markdown' | 'json';
  intents: string | null;
  output: string | null;
  config: string | null;
  help: boolean;
}

function parseMapArgs(argv: string[]): MapArgs {
  const a: MapArgs = { paths: [], format: 'markdown', intents: null, output: null, config: null, help: false };
  const format = {
    value: true,
    set(v: string | null) {
      if (v !== 'markdown' && v !== 'json') throw new UsageError(`map: unknown format "${v}"; allowed: markdown, json`);
      a.format = v;
    },
  };
  const output = { value: true, set: (v: string | null) => void (a.output = v) };
  const config = { value: true, set: (v: string | null) => void (a.config = v) };
  const help = { value: false, set: () => void (a.help = true) };
  parseOptions(
    argv,
    { '-f': format, '--format': format, '--intents': { value: true, set: (v) => void (a.intents = v) }, '-o': output, '--output': output, '-c': config, '--config': config, '-h': help, '--help': help },
    (arg) => a.paths.push(arg),
  );
  return a;
}

/** Runs `map` with the arguments after the subcommand's name; returns the exit code. */
export function runMap(argv: string[], io: CommandIO): number {
  return runCommand(argv, io, parseMapArgs, MAP_HELP, (a) => {
    let intents: string[] | null = null;
    if (a.intents !== null) {
      let text: string;
      try {
        text = readFileSync(resolve(io.cwd, a.intents), 'utf8');
      } catch (e) {
        throw new UsageError(`cannot read the intents file "${a.intents}" (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      }
      intents = parseIntents(text);
    }
    const run = loadRun({ cwd: io.cwd, paths: a.paths, configPath: a.config });
    const tools = run.files.flatMap((f) => f.tools);
    const map = buildToolMap(tools);
    const report: IntentReport | null = intents ? intentReport(buildIndex(tools), intents) : null;
    let text: string;
    if (a.format === 'json') {
      const out: Record<string, unknown> = { ...map };
      if (report) out.intents = report;
      text = JSON.stringify(out, null, 2) + '\n';
    } else {
      text = renderToolMapMarkdown(map);
      if (report) text += '\n' + renderIntentReportMarkdown(report);
    }
    if (a.output) writeFileSync(resolve(io.cwd, a.output), text);
    else io.stdout.write(text);
    if (tools.length === 0) io.stderr.write('mcp-tool-lint: no tools found in the given paths\n');
    return 0;
  });
}
