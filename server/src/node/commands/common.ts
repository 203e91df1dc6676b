/**
 * What the subcommands share: their I/O, option parsing, and the shell every one runs in
 * (usage errors and config errors exit 2 with a one-line message, `--help` prints the help).
 */
import { ConfigError } from '../../engine/config';
import { UsageError } from '../files';

export interface CommandIO {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  cwd: string;
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

/**
 * Runs a subcommand: parse its options (a usage error exits 2), answer `--help`, then run the
 * body; a usage or config error in the body exits 2 with its message, anything else is reported
 * as an internal error (exit 2).
 */
export function runCommand<A extends { help: boolean }>(argv: string[], io: CommandIO, parse: (argv: string[]) => A, help: string, body: (a: A) => number): number {
  let a: A;
  try {
    a = parse(argv);
  } catch (e) {
    io.stderr.write(`mcp-tool-lint: ${(e as Error).message}\n`);
    return 2;
  }
  if (a.help) {
    io.stdout.write(help + '\n');
    return 0;
  }
  try {
    return body(a);
  } catch (e) {
    return reportFailure(io, e);
  }
}

/**
 * A run that threw: a usage or config error is the user's to fix and gets its one-line message;
 * anything else is an internal error (with the stack when MCP_TOOL_LINT_DEBUG is set). Exit code 2.
 */
export function reportFailure(io: Pick<CommandIO, 'stderr'>, e: unknown): number {
  if (e instanceof ConfigError || e instanceof UsageError) {
    io.stderr.write(`mcp-tool-lint: ${e.message}\n`);
    return 2;
  }
  io.stderr.write(`mcp-tool-lint: internal error: ${(e as Error)?.message ?? String(e)}\n`);
  if (process.env.MCP_TOOL_LINT_DEBUG) io.stderr.write(String((e as Error)?.stack) + '\n');
  return 2;
}
