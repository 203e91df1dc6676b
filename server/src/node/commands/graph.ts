/**
 * `mcp-tool-lint graph [paths]`: the workflow graph of the catalogue (which tools produce the
 * identifiers other tools consume) as Mermaid, DOT or JSON; with `--order`, the entity-creation
 * order as a numbered Markdown list ready to paste into a system prompt (seed 000, section D).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildGraph, creationOrder, renderGraph, renderOrderMarkdown, type GraphFormat } from '../../engine/graph';
import { UsageError } from '../files';
import { loadRun } from '../run';
import { parseOptions, runCommand, type CommandIO } from './common';

export const GRAPH_HELP = `Usage: mcp-tool-lint graph [paths] [options]

Print the workflow graph of the catalogue: an edge runs from a tool that produces an
identifier (or a name) to each tool whose parameter consumes it, labelled with the parameter.
Edges are inferred from names (\`endpoint_id\` and a tool that lists endpoints) or stated in
descriptions ("UUID from list_endpoints"). Tools link within their server (or folder).
Paths default to ".".

Options:
  -f, --format NAME        mermaid (default), dot or json
      --order              print the entity-creation order instead: a numbered Markdown
                           list (discover existing records, create in dependency order,
                           act on what was created, check results); with --format json,
                           the steps as JSON
  -o, --output FILE        write the result to FILE
  -c, --config FILE        use this config (for its ignore patterns)
  -h, --help               show this help`;

interface GraphArgs {
  paths: string[];
  format: GraphFormat;
  formatGiven: boolean;
  order: boolean;
  output: string | null;
  config: string | null;
  help: boolean;
}

function parseGraphArgs(argv: string[]): GraphArgs {
  const a: GraphArgs = { paths: [], format: 'mermaid', formatGiven: false, order: false, output: null, config: null, help: false };
  const format = {
    value: true,
    set(v: string | null) {
      if (v !== 'mermaid' && v !== 'dot' && v !== 'json') throw new UsageError(`graph: unknown format "${v}"; allowed: mermaid, dot, json`);
      a.format = v;
      a.formatGiven = true;
    },
  };
  const output = { value: true, set: (v: string | null) => void (a.output = v) };
  const config = { value: true, set: (v: string | null) => void (a.config = v) };
  const help = { value: false, set: () => void (a.help = true) };
  parseOptions(
    argv,
    { '-f': format, '--format': format, '--order': { value: false, set: () => void (a.order = true) }, '-o': output, '--output': output, '-c': config, '--config': config, '-h': help, '--help': help },
    (arg) => a.paths.push(arg),
  );
  if (a.order && a.formatGiven && a.format !== 'json') throw new UsageError(`graph: --order prints Markdown, or JSON with --format json; not ${a.format}`);
  return a;
}

/** Runs `graph` with the arguments after the subcommand's name; returns the exit code. */
export function runGraph(argv: string[], io: CommandIO): number {
  return runCommand(argv, io, parseGraphArgs, GRAPH_HELP, (a) => {
    const run = loadRun({ cwd: io.cwd, paths: a.paths, configPath: a.config });
    const tools = run.files.flatMap((f) => f.tools);
    const graph = buildGraph(tools);
    let text: string;
    if (a.order) {
      const order = creationOrder(graph);
      text = a.format === 'json' ? JSON.stringify(order, null, 2) + '\n' : renderOrderMarkdown(order);
      if (tools.length > 0 && !order.steps.some((s) => s.kind === 'create')) io.stderr.write('mcp-tool-lint: no tool of the catalogue creates records, so there is no creation order\n');
    } else {
      text = renderGraph(graph, a.format);
    }
    if (a.output) writeFileSync(resolve(io.cwd, a.output), text);
    else io.stdout.write(text);
    if (tools.length === 0) io.stderr.write('mcp-tool-lint: no tools found in the given paths\n');
    return 0;
  });
}
