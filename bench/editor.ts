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

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const p90 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))];
const round = (x: number): number => Math.round(x * 10) / 10;
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

async function latency(file: string, edits: number): Promise<void> {
  const text = readFileSync(file, 'utf8');
  const client = await startClient({ pull: true });
  const rel = 'tools.yaml';
  const uri = client.uri(rel);
  let t = performance.now();
  await client.open(rel, text);
  const first = await client.request<{ items: unknown[] }>('textDocument/diagnostic', { textDocument: { uri } });
  const openMs = performance.now() - t;

  const lines = text.split('\n');
  const descLines = lines.map((l, i) => (/^ {4}description: /.test(l) ? i : -1)).filter((i) => i >= 0);
  const nameLines = lines.map((l, i) => (/^ {2}- name: /.test(l) ? i : -1)).filter((i) => i >= 0);
  const editMs: number[] = [];
  let version = 1;
  const current = lines;
  for (let k = 0; k < edits; k++) {
    // One-line edit: rewrite one tool description, spread over the file.
    const line = descLines[Math.floor(((k + 0.5) / edits) * descLines.length)];
    // Sent as an incremental change of that line, as editors do.
    const replacement = `    description: Edited ${k} — find the matching records and return them newest first.`;
    const range = { start: { line, character: 0 }, end: { line, character: current[line].length } };
    current[line] = replacement;
    version++;
    t = performance.now();
    await client.edit(rel, range, replacement, version);
    const r = await client.request<{ items: unknown[] }>('textDocument/diagnostic', { textDocument: { uri } });
    editMs.push(performance.now() - t);
    if (!r || !Array.isArray(r.items)) throw new Error('no diagnostics');
  }
  // The same edits with the transport taken out: the server's own work (re-read the document,
  // lint, convert to LSP diagnostics), called directly on the session's workspace.
  const ws = client.server.workspace;
  const engineMs: number[] = [];
  let edited = current.join('\n');
  for (let k = 0; k < edits; k++) {
    const line = descLines[Math.floor(((k + 0.25) / edits) * descLines.length)];
    current[line] = `    description: Direct ${k} — list the matching records, newest first.`;
    edited = current.join('\n');
    version++;
    t = performance.now();
    ws.change(uri, edited, version);
    const d = documentDiagnostics(ws, uri);
    engineMs.push(performance.now() - t);
    if (d.length === 0) throw new Error('no diagnostics');
  }
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
    file, bytes: text.length, diagnostics: first.items.length, openMs: round(openMs),
    edit: { n: editMs.length, median: round(median(editMs)), p90: round(p90(editMs)), min: round(Math.min(...editMs)) },
    engine: { n: engineMs.length, median: round(median(engineMs)), p90: round(p90(engineMs)), min: round(Math.min(...engineMs)) },
    hover: { n: hoverMs.length, answered: hovered, median: round(median(hoverMs)), p90: round(p90(hoverMs)) },
  }));
}

/**
 * The same edits against the shipped server as its own process (\`node dist/server.js --stdio\`),
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
  await rpc.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
  const lines = text.split('\n');
  const descLines = lines.map((l, i) => (/^ {4}description: /.test(l) ? i : -1)).filter((i) => i >= 0);
  const ms: number[] = [];
  let items = 0;
  for (let k = 0; k < edits; k++) {
    const line = descLines[Math.floor(((k + 0.5) / edits) * descLines.length)];
    const replacement = `    description: Edited ${k} — find the matching records and return them newest first.`;
    const range = { start: { line, character: 0 }, end: { line, character: lines[line].length } };
    lines[line] = replacement;
    const t = performance.now();
    await rpc.sendNotification('textDocument/didChange', { textDocument: { uri, version: k + 2 }, contentChanges: [{ range, text: replacement }] });
    const r = await rpc.sendRequest<{ items: unknown[] }>('textDocument/diagnostic', { textDocument: { uri } });
    ms.push(performance.now() - t);
    items = r.items.length;
  }
  await rpc.sendRequest('shutdown').catch(() => undefined);
  rpc.dispose();
  child.stdin!.end();
  await new Promise((r) => child.once('exit', r));
  console.log(JSON.stringify({ file, diagnostics: items, edit: { n: ms.length, median: round(median(ms)), p90: round(p90(ms)), min: round(Math.min(...ms)) } }));
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
