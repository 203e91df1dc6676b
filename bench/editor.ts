/**
 * Editor measurements with the in-process LSP client of the tests (the real server session over
 * JSON-RPC streams, no editor): edit→diagnostics and hover latency on a generated catalogue, and
 * the memory of a session with the whole corpus indexed as its workspace folder.
 *
 *   node --expose-gc --import tsx bench/editor.ts latency .bench/tools-2300.yaml [edits]
 *   node --expose-gc --import tsx bench/editor.ts process .bench/tools-2300.yaml [edits]
 *   node --expose-gc --import tsx bench/editor.ts memory ../shared/corpus
 *
 * Prints one JSON line. Each mode runs in its own process so memory figures are not mixed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { startClient } from '../test/helpers/lsp';
import { documentDiagnostics } from '../server/src/lsp/diagnostics';
import { median, p90 } from './stats';

const round = (x: number): number => Math.round(x * 10) / 10;
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

interface Edit {
  line: number;
  text: string;
  /** `text`: a description rewritten (no finding changes); `finding`: a type typo (a finding appears or goes). */
  kind: 'text' | 'finding';
}

/**
 * One-line edits spread over the file, alternating two kinds: rewriting a tool description, which
 * changes no finding (most typing), and a typo in a parameter's `type` (or its repair), which adds
 * or removes a finding so the whole diagnostics list must be sent again.
 */
function editPlan(lines: string[], edits: number, salt: string): Edit[] {
  const desc = lines.map((l, i) => (/^ {4}description: /.test(l) ? i : -1)).filter((i) => i >= 0);
  const types = lines.map((l, i) => (/^ +type: string$/.test(l) ? i : -1)).filter((i) => i >= 0);
  const plan: Edit[] = [];
  for (let k = 0; k < edits; k++) {
    const where = (k + 0.5) / edits;
    if (k % 2 === 0) plan.push({ line: desc[Math.floor(where * desc.length)], text: `    description: ${salt} ${k} — find the matching records and return them newest first.`, kind: 'text' });
    else {
      const line = types[Math.floor(where * types.length)];
      plan.push({ line, text: lines[line].replace('type: string', 'type: strng'), kind: 'finding' });
    }
  }
  return plan;
}

function stats(xs: number[]): { n: number; median: number; p90: number; min: number } {
  return { n: xs.length, median: round(median(xs)), p90: round(p90(xs)), min: round(Math.min(...xs)) };
}

async function latency(file: string, edits: number): Promise<void> {
  const text = readFileSync(file, 'utf8');
  const client = await startClient({ pull: true });
  const rel = 'tools.yaml';
  const uri = client.uri(rel);
  let t = performance.now();
  await client.open(rel, text);
  const first = await client.request<{ items: unknown[]; resultId?: string }>('textDocument/diagnostic', { textDocument: { uri } });
  const openMs = performance.now() - t;
  // As VS Code does, each pull names the result it holds (the server may answer `unchanged`).
  let resultId = first.resultId;
  let unchanged = 0;

  const lines = text.split('\n');
  const nameLines = lines.map((l, i) => (/^ {2}- name: /.test(l) ? i : -1)).filter((i) => i >= 0);
  const ms: Record<Edit['kind'], number[]> = { text: [], finding: [] };
  let version = 1;
  for (const e of editPlan(lines, edits * 2, 'Edited')) {
    // Sent as an incremental change of that line, as editors do.
    const range = { start: { line: e.line, character: 0 }, end: { line: e.line, character: lines[e.line].length } };
    lines[e.line] = e.text;
    version++;
    t = performance.now();
    await client.edit(rel, range, e.text, version);
    const r = await client.request<{ kind: string; items?: unknown[]; resultId?: string }>('textDocument/diagnostic', { textDocument: { uri }, previousResultId: resultId });
    ms[e.kind].push(performance.now() - t);
    if (r.kind === 'unchanged') unchanged++;
    else if (!Array.isArray(r.items)) throw new Error('no diagnostics');
    resultId = r.resultId;
  }
  // The same kinds of edits with the protocol taken out: the server's own work (re-read the
  // document, lint, convert to LSP diagnostics), called directly on the session's workspace.
  const ws = client.server.workspace;
  const engine: Record<Edit['kind'], number[]> = { text: [], finding: [] };
  for (const e of editPlan(lines, edits * 2, 'Direct')) {
    lines[e.line] = e.text;
    const edited = lines.join('\n');
    version++;
    t = performance.now();
    ws.change(uri, edited, version);
    const d = documentDiagnostics(ws, uri);
    engine[e.kind].push(performance.now() - t);
    if (d.length === 0) throw new Error('no diagnostics');
  }
  const incremental = ws.incrementalReads;
  const hoverMs: number[] = [];
  let hovered = 0;
  for (let k = 0; k < edits; k++) {
    const line = nameLines[Math.floor(((k + 0.5) / edits) * nameLines.length)];
    t = performance.now();
    const h = await client.request<unknown>('textDocument/hover', { textDocument: { uri }, position: { line, character: 12 } });
    hoverMs.push(performance.now() - t);
    if (h) hovered++;
  }
  await client.dispose();
  console.log(JSON.stringify({
    file, bytes: text.length, diagnostics: first.items.length, openMs: round(openMs), unchanged, incremental,
    edit: { text: stats(ms.text), finding: stats(ms.finding) },
    engine: { text: stats(engine.text), finding: stats(engine.finding) },
    hover: { n: hoverMs.length, answered: hovered, median: round(median(hoverMs)), p90: round(p90(hoverMs)) },
  }));
}

/**
 * The same edits against the shipped server as its own process (`node dist/server.js --stdio`),
 * the way an editor runs it: the server and the client encode and decode on their own threads.
 */
async function processLatency(file: string, edits: number): Promise<void> {
  const text = readFileSync(file, 'utf8');
  const root = mkdtempSync(join(tmpdir(), 'mtl-bench-'));
  const child = spawn(process.execPath, [...(process.env.BENCH_SERVER_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROF}`] : []), join(__dirname, '..', 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const rpc = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  rpc.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
  rpc.onRequest('client/registerCapability', () => null);
  rpc.onRequest('workspace/diagnostic/refresh', () => null);
  rpc.onNotification(() => undefined);
  rpc.listen();
  const rootUri = pathToFileURL(root).href;
  await rpc.sendRequest('initialize', { processId: process.pid, rootUri, workspaceFolders: [{ uri: rootUri, name: 'bench' }], capabilities: { textDocument: { diagnostic: { dynamicRegistration: false } }, workspace: { configuration: true } } });
  await rpc.sendNotification('initialized', {});
  const uri = pathToFileURL(join(root, 'tools.yaml')).href;
  await rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  const first = await rpc.sendRequest<{ resultId?: string; items: unknown[] }>('textDocument/diagnostic', { textDocument: { uri } });
  let resultId = first.resultId;
  let unchanged = 0;
  const lines = text.split('\n');
  const ms: Record<Edit['kind'], number[]> = { text: [], finding: [] };
  let version = 1;
  for (const e of editPlan(lines, edits * 2, 'Edited')) {
    const range = { start: { line: e.line, character: 0 }, end: { line: e.line, character: lines[e.line].length } };
    lines[e.line] = e.text;
    const t = performance.now();
    await rpc.sendNotification('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: [{ range, text: e.text }] });
    const r = await rpc.sendRequest<{ kind: string; items?: unknown[]; resultId?: string }>('textDocument/diagnostic', { textDocument: { uri }, previousResultId: resultId });
    ms[e.kind].push(performance.now() - t);
    if (r.kind === 'unchanged') unchanged++;
    resultId = r.resultId;
  }
  await rpc.sendRequest('shutdown').catch(() => undefined);
  rpc.dispose();
  child.stdin!.end();
  await new Promise((r) => child.once('exit', r));
  console.log(JSON.stringify({ file, diagnostics: first.items.length, unchanged, edit: { text: stats(ms.text), finding: stats(ms.finding) } }));
}

function readTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(root, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(root);
  return out;
}

async function memory(corpus: string): Promise<void> {
  gc();
  const before = process.memoryUsage();
  let files: Record<string, string> | null = readTree(corpus);
  const count = Object.keys(files).length;
  const t = performance.now();
  const client = await startClient({ files, pull: true });
  files = null;
  await client.until(() => client.server.workspace.size.files > 0, 'corpus indexed', 60_000);
  const indexMs = performance.now() - t;
  const size = client.server.workspace.size;
  gc();
  const after = process.memoryUsage();
  console.log(JSON.stringify({
    corpusFiles: count, indexed: size, indexMs: Math.round(indexMs),
    rssMB: Math.round(after.rss / 2 ** 20), rssDeltaMB: Math.round((after.rss - before.rss) / 2 ** 20),
    heapUsedMB: Math.round(after.heapUsed / 2 ** 20), heapDeltaMB: Math.round((after.heapUsed - before.heapUsed) / 2 ** 20),
    baselineRssMB: Math.round(before.rss / 2 ** 20),
  }));
  await client.dispose();
}

const [mode, arg, n] = process.argv.slice(2);
const main =
  mode === 'latency' ? latency(arg, Number(n ?? 20)) : mode === 'process' ? processLatency(arg, Number(n ?? 20)) : mode === 'memory' ? memory(arg) : Promise.reject(new Error('usage: editor.ts latency|process FILE [N] | memory DIR'));
main.then(() => process.exit(0), (e: unknown) => {
  console.error(e);
  process.exit(1);
});
