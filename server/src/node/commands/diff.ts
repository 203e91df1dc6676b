/**
 * `mcp-tool-lint diff OLD NEW`: what changed between two versions of a catalogue, per tool and
 * parameter, classified as breaking, risky or compatible. Exit 1 on breaking changes unless
 * `--allow-breaking`; 2 on usage errors and paths that match nothing.
 *
 * A side is one path or several (`--old P --old Q`); how a side is read is pluggable
 * (`SideLoader`), so snapshots and live servers can join files and folders.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../../engine/config';
import { diffTools, renderDiffJson, renderDiffMarkdown, renderDiffStylish, type DiffResult } from '../../engine/diff';
import { buildCatalog, type Tool } from '../../engine/model';
import { UsageError } from '../files';
import { loadRun } from '../run';
import { parseOptions, type CommandIO } from './common';

export const DIFF_HELP = `Usage: mcp-tool-lint diff OLD NEW [options]
       mcp-tool-lint diff --old PATH... --new PATH... [options]

List what changed between two versions of a tool catalogue (files or folders on either side),
per tool and parameter:
  breaking    tool removed or renamed, parameter removed or newly required, type changed,
              enum value removed, constraint narrowed, additionalProperties: false added
  risky       description, title, default or annotations changed (shown as a text diff, so a
              reviewer sees new instructions to the model)
  compatible  tool or optional parameter added, type widened, enum value added, constraint widened
Exits 1 when there are breaking changes (unless --allow-breaking), 2 on usage errors.

Options:
      --old PATH           a path of the old side (repeatable; instead of OLD)
      --new PATH           a path of the new side (repeatable; instead of NEW)
  -f, --format NAME        stylish (default), json or markdown (a pull-request comment)
  -o, --output FILE        write the report to FILE
      --allow-breaking     exit 0 even with breaking changes
  -c, --config FILE        use this config (for its ignore patterns)
      --color, --no-color  force or disable colours (default: on a terminal)
  -h, --help               show this help`;

export type DiffFormat = 'stylish' | 'json' | 'markdown';

/** Reads one side of a diff. `load` returns null when the spec is not its kind, so the next loader is tried. */
export interface SideLoader {
  load(specs: string[], ctx: { cwd: string; config: string | null }): Tool[] | null;
}

/** Files and folders, through the same discovery and loaders as a lint run. */
export const fileSideLoader: SideLoader = {
  load(specs, ctx) {
    const run = loadRun({ cwd: ctx.cwd, paths: specs, configPath: ctx.config });
    return buildCatalog(run.files).tools;
  },
};

interface DiffArgs {
  old: string[];
  new: string[];
  positional: string[];
  format: DiffFormat;
  output: string | null;
  config: string | null;
  allowBreaking: boolean;
  color: boolean | null;
  help: boolean;
}

function parseDiffArgs(argv: string[]): DiffArgs {
  const a: DiffArgs = { old: [], new: [], positional: [], format: 'stylish', output: null, config: null, allowBreaking: false, color: null, help: false };
  const format = {
    value: true,
    set(v: string | null) {
      if (v !== 'stylish' && v !== 'json' && v !== 'markdown') throw new UsageError(`diff: unknown format "${v}"; allowed: stylish, json, markdown`);
      a.format = v;
    },
  };
  const output = { value: true, set: (v: string | null) => void (a.output = v) };
  const config = { value: true, set: (v: string | null) => void (a.config = v) };
  const help = { value: false, set: () => void (a.help = true) };
  parseOptions(
    argv,
    {
      '--old': { value: true, set: (v) => void a.old.push(v!) },
      '--new': { value: true, set: (v) => void a.new.push(v!) },
      '-f': format,
      '--format': format,
      '-o': output,
      '--output': output,
      '-c': config,
      '--config': config,
      '--allow-breaking': { value: false, set: () => void (a.allowBreaking = true) },
      '--color': { value: false, set: () => void (a.color = true) },
      '--no-color': { value: false, set: () => void (a.color = false) },
      '-h': help,
      '--help': help,
    },
    (arg) => void a.positional.push(arg),
  );
  return a;
}

function sides(a: DiffArgs): [string[], string[]] {
  if (a.old.length || a.new.length) {
    if (a.positional.length) throw new UsageError('diff: give the sides either as OLD NEW or with --old/--new, not both; see --help');
    if (!a.old.length || !a.new.length) throw new UsageError('diff: both --old and --new are needed; see --help');
    return [a.old, a.new];
  }
  if (a.positional.length !== 2) throw new UsageError(`diff needs two sides, OLD and NEW (got ${a.positional.length}); see --help`);
  return [[a.positional[0]], [a.positional[1]]];
}

function loadSide(specs: string[], loaders: SideLoader[], ctx: { cwd: string; config: string | null }): Tool[] {
  for (const l of loaders) {
    const tools = l.load(specs, ctx);
    if (tools) return tools;
  }
  throw new UsageError(`diff: cannot read ${specs.join(', ')}`);
}

export function renderDiff(r: DiffResult, format: DiffFormat, color: boolean): string {
  if (format === 'json') return renderDiffJson(r);
  if (format === 'markdown') return renderDiffMarkdown(r);
  return renderDiffStylish(r, { color });
}

/** Runs `diff` with the arguments after the subcommand's name; returns the exit code. */
export function runDiff(argv: string[], io: CommandIO, loaders: SideLoader[] = [fileSideLoader]): number {
  let a: DiffArgs;
  let oldSpecs: string[];
  let newSpecs: string[];
  try {
    a = parseDiffArgs(argv);
    if (a.help) {
      io.stdout.write(DIFF_HELP + '\n');
      return 0;
    }
    [oldSpecs, newSpecs] = sides(a);
  } catch (e) {
    io.stderr.write(`mcp-tool-lint: ${(e as Error).message}\n`);
    return 2;
  }
  try {
    const ctx = { cwd: io.cwd, config: a.config };
    const before = loadSide(oldSpecs, loaders, ctx);
    const after = loadSide(newSpecs, loaders, ctx);
    if (before.length === 0) io.stderr.write(`mcp-tool-lint: no tools found in ${oldSpecs.join(', ')} (old side)\n`);
    if (after.length === 0) io.stderr.write(`mcp-tool-lint: no tools found in ${newSpecs.join(', ')} (new side)\n`);
    const result = diffTools(before, after);
    const stream = io.stdout as { isTTY?: boolean };
    const color = a.format === 'stylish' && !a.output && (a.color ?? (!process.env.NO_COLOR && ((!!process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') || !!stream.isTTY)));
    const text = renderDiff(result, a.format, color);
    if (a.output) writeFileSync(resolve(io.cwd, a.output), text.endsWith('\n') ? text : text + '\n');
    else io.stdout.write(text.endsWith('\n') ? text : text + '\n');
    return result.summary.breaking > 0 && !a.allowBreaking ? 1 : 0;
  } catch (e) {
    if (e instanceof ConfigError || e instanceof UsageError) {
      io.stderr.write(`mcp-tool-lint: ${e.message}\n`);
      return 2;
    }
    io.stderr.write(`mcp-tool-lint: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    return 2;
  }
}
