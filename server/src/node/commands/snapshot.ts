/**
 * `mcp-tool-lint snapshot`: write what a server (or a set of tool files) exposes as one
 * normalised catalogue, a `tools/list`-shaped JSON file that the linter reads back like any other.
 * From a server the tools are written as the server sent them; from files each tool is written
 * in MCP shape (name, description, inputSchema, annotations) whatever format it came in.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../../engine/config';
import type { Tool } from '../../engine/model';
import { UsageError } from '../files';
import { DEFAULT_LIVE_TIMEOUT_MS } from '../live-defaults';
import { loadRun } from '../run';
import { parseOptions, type CommandIO } from './common';

export const SNAPSHOT_HELP = `Usage: mcp-tool-lint snapshot [paths] -o FILE
       mcp-tool-lint snapshot --server-command "CMD ARGS..." -o FILE
       mcp-tool-lint snapshot --server-url URL [--header K=V]... -o FILE

Write the tools of the given files, or of a live MCP server, as one normalised catalogue:
a JSON {"tools": [...]} file that mcp-tool-lint lints like any other. Paths default to ".".

Options:
      --server-command CMD   start an MCP server over stdio (the command line is split like a
                             shell would, but not run through one)
      --server-url URL       connect to an MCP server over Streamable HTTP
      --header K=V           send this HTTP header (repeatable; with --server-url)
      --timeout MS           time-out of the connection and of each tools/list call
                             (default ${DEFAULT_LIVE_TIMEOUT_MS})
  -o, --output FILE          write the catalogue to FILE (default: standard output)
  -c, --config FILE          use this config (for its ignore patterns)
  -h, --help                 show this help`;

interface SnapshotArgs {
  paths: string[];
  command: string | null;
  url: string | null;
  headers: Record<string, string>;
  timeoutMs: number;
  output: string | null;
  config: string | null;
  help: boolean;
}

function parseSnapshotArgs(argv: string[]): SnapshotArgs {
  const a: SnapshotArgs = { paths: [], command: null, url: null, headers: {}, timeoutMs: DEFAULT_LIVE_TIMEOUT_MS, output: null, config: null, help: false };
  const output = { value: true, set: (v: string | null) => void (a.output = v) };
  const config = { value: true, set: (v: string | null) => void (a.config = v) };
  const help = { value: false, set: () => void (a.help = true) };
  parseOptions(
    argv,
    {
      '--server-command': { value: true, set: (v) => void (a.command = v) },
      '--server-url': { value: true, set: (v) => void (a.url = v) },
      '--header': { value: true, set: (v) => addHeader(a.headers, v ?? '') },
      '--timeout': {
        value: true,
        set(v) {
          const n = Number(v);
          if (!/^\d+$/.test(v ?? '') || n <= 0) throw new UsageError(`--timeout expects a positive number of milliseconds, got "${v}"`);
          a.timeoutMs = n;
        },
      },
      '-o': output,
      '--output': output,
      '-c': config,
      '--config': config,
      '-h': help,
      '--help': help,
    },
    (arg) => a.paths.push(arg),
  );
  if (a.command !== null && a.url !== null) throw new UsageError('snapshot: give --server-command or --server-url, not both');
  if ((a.command !== null || a.url !== null) && a.paths.length > 0) throw new UsageError('snapshot: give paths or a server, not both');
  if (Object.keys(a.headers).length > 0 && a.url === null) throw new UsageError('--header needs --server-url');
  return a;
}

/** `--header K=V` (also `K: V`, as curl writes it). */
export function addHeader(into: Record<string, string>, v: string): void {
  const m = /^([^=:\s]+)\s*[=:]\s*(.*)$/s.exec(v);
  if (!m) throw new UsageError(`--header expects NAME=VALUE, got "${v}"`);
  into[m[1]] = m[2];
}

/** An MCP-shaped tool object from a loaded tool, whatever format it was written in. */
export function catalogTool(t: Tool): Record<string, unknown> {
  const out: Record<string, unknown> = { name: t.name };
  if (typeof t.raw.title === 'string') out.title = t.raw.title;
  if (t.description !== null) out.description = t.description;
  out.inputSchema = t.inputSchema ?? { type: 'object', properties: {} };
  if (Object.keys(t.annotations).length > 0) out.annotations = t.annotations;
  return out;
}

function write(io: CommandIO, output: string | null, text: string): void {
  if (output) writeFileSync(resolve(io.cwd, output), text);
  else io.stdout.write(text);
}

function fail(io: CommandIO, e: unknown): number {
  if (e instanceof ConfigError || e instanceof UsageError) io.stderr.write(`mcp-tool-lint: ${e.message}\n`);
  else io.stderr.write(`mcp-tool-lint: internal error: ${(e as Error)?.message ?? String(e)}\n`);
  return 2;
}

/**
 * Runs `snapshot` with the arguments after the subcommand's name. Synchronous (a number) for
 * files and for usage errors; a promise of the exit code when it talks to a server.
 */
export function runSnapshot(argv: string[], io: CommandIO): number | Promise<number> {
  let a: SnapshotArgs;
  try {
    a = parseSnapshotArgs(argv);
  } catch (e) {
    return fail(io, e);
  }
  if (a.help) {
    io.stdout.write(SNAPSHOT_HELP + '\n');
    return 0;
  }
  if (a.command !== null || a.url !== null) {
    // The MCP client is loaded only here, so other commands do not pay for it at start-up.
    return import('../live')
      .then(({ fetchLiveTools, liveCatalogText }) =>
        fetchLiveTools({ command: a.command ?? undefined, url: a.url ?? undefined, headers: a.headers, timeoutMs: a.timeoutMs, cwd: io.cwd }).then((r) => {
          write(io, a.output, liveCatalogText(r));
          return 0;
        }),
      )
      .catch((e: unknown) => fail(io, e));
  }
  try {
    const run = loadRun({ cwd: io.cwd, paths: a.paths.length > 0 ? a.paths : ['.'], configPath: a.config });
    const tools = run.files.flatMap((f) => f.tools);
    write(io, a.output, JSON.stringify({ tools: tools.map(catalogTool) }, null, 2) + '\n');
    if (tools.length === 0) io.stderr.write('mcp-tool-lint: no tools found in the given paths\n');
    return 0;
  } catch (e) {
    return fail(io, e);
  }
}
