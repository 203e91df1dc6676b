/**
 * Language-server soak: thousands of seeded random opens, edits, closes and requests over 20
 * tool documents (valid, broken and half-written YAML/JSON), in push and in pull mode, through
 * the in-process client. The server must answer every request, log no handler failure, leave no
 * stale diagnostics (a closed document's are empty; a document edited to a clean text has none
 * for that version) and keep its heap bounded. `SOAK_OPS` (default 400 per mode) and `SOAK_SEED`
 * change the run; a failure names the seed and the operation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startClient, type TestClient } from '../helpers/lsp';
import { prng } from '../../bench/generate';

// 400 per mode keeps `npm test` within its budget on a shared 2-core machine; SOAK_OPS=5000 for a long run.
const OPS = Number(process.env.SOAK_OPS ?? 400);
const SEED = Number(process.env.SOAK_SEED ?? 20261121);
const DOCS = 20;
/** Time allowed for one request to answer, or for one expected push to arrive. */
const ANSWER_MS = 10_000;
/** Heap growth allowed between the first and the last quarter of a run, after GC. */
const HEAP_BOUND = 48 * 1024 * 1024;

/** `global.gc` when node runs with --expose-gc; otherwise the flag is set now and gc fetched from a fresh context. */
function getGc(): (() => void) | null {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return null;
  }
}


// Same length, distinct letters: no damage (deletions, inserted punctuation) turns one name into another's.
const WORDS = ['apple', 'brick', 'cloud', 'delta', 'eagle', 'flame', 'grape', 'house', 'index', 'joker', 'knife', 'lemon', 'mango', 'night', 'ocean', 'piano', 'queen', 'river', 'stone', 'tiger'];
const PARAMS = ['title', 'owner', 'label', 'notes', 'color'];
const DAMAGE = ['\n', ' ', ':', '- ', '{', '}', '[', ']', '"', "'", '&a ', '*a', '#', '---\n', '\t', ',', 'type: str\n', 'enum: [', 'required: true\n', '$ref: "#/nowhere"\n'];

type Kind = 'valid' | 'broken' | 'half';

class Gen {
  constructor(readonly rnd: () => number) {}
  int(n: number): number {
    return Math.floor(this.rnd() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }

  /** A tool with no finding under the default rules. */
  valid(doc: number): string {
    const name = `get_${WORDS[doc]}`;
    const params = PARAMS.slice(0, 1 + this.int(PARAMS.length));
    const props = Object.fromEntries(params.map((p) => [p, { type: 'string', description: `The ${p} of the ${WORDS[doc]}.` }]));
    const tool = { name, description: `Get one ${WORDS[doc]} record by its ${params[0]}.`, inputSchema: { type: 'object', properties: props } };
    if (doc % 2 === 1) return JSON.stringify(tool, null, 2) + '\n';
    const lines = [`name: ${name}`, '# what the agent sees', `description: ${tool.description}`, 'inputSchema:', '  type: object', '  properties:'];
    for (const p of params) lines.push(`    ${p}:`, '      type: string', `      description: ${props[p].description}`);
    return lines.join('\n') + '\n';
  }

  broken(doc: number): string {
    let t = this.valid(doc);
    for (let k = 1 + this.int(3); k > 0; k--) {
      const at = this.int(t.length + 1);
      t = t.slice(0, at) + (this.rnd() < 0.7 ? this.pick(DAMAGE) : '') + t.slice(at + this.int(12));
    }
    return t;
  }

  half(doc: number): string {
    const t = this.valid(doc);
    return t.slice(0, this.int(t.length));
  }

  text(doc: number): { kind: Kind; text: string } {
    const r = this.rnd();
    const kind: Kind = r < 0.35 ? 'valid' : r < 0.7 ? 'broken' : 'half';
    return { kind, text: this[kind](doc) };
  }
}

const rel = (doc: number) => `tools/t${doc}.${doc % 2 === 1 ? 'json' : 'yaml'}`;

async function answered<T>(what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to ${what} within ${ANSWER_MS} ms`)), ANSWER_MS);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Fails on a handler failure the server logged, and returns its other error-level lines; drops
 * the notifications seen so the client's memory stays flat.
 */
function checkLog(c: TestClient, where: string): string[] {
  const errors: string[] = [];
  for (const n of c.notifications) {
    if (n.method !== 'window/logMessage') continue;
    const { type, message } = n.params as { type: number; message: string };
    assert.ok(!/failed/i.test(message), `${where}: the server logged: ${message.slice(0, 2000)}`);
    if (type === 1) errors.push(message);
  }
  c.notifications.length = 0;
  return errors;
}

async function soak(mode: 'push' | 'pull'): Promise<{ ops: number; requests: number; heap: number[]; ms: number; loggedErrors: string[] }> {
  const g = new Gen(prng(SEED + (mode === 'pull' ? 1 : 0)));
  const gc = getGc();
  // Half the documents are saved files (a clean text on disk, indexed at start-up); the other half were never saved.
  const onDisk = new Gen(prng(SEED));
  const files = Object.fromEntries(Array.from({ length: DOCS / 2 }, (_, doc) => [rel(doc), onDisk.valid(doc)]));
  const c = await startClient({ pull: mode === 'pull', files });
  const loggedErrors: string[] = [];
  const open = new Map<number, { version: number; kind: Kind }>();
  /** Texts sent per document, newest last, for the failure message. */
  const history = new Map<number, string[]>();
  const sent = (doc: number, text: string) => {
    const h = history.get(doc) ?? [];
    h.push(text);
    history.set(doc, h.slice(-3));
  };
  const historyOf = (doc: number) => (history.get(doc) ?? []).map((t) => JSON.stringify(t)).join('\n  then ');
  const heap: number[] = [];
  let requests = 0;
  const t0 = performance.now();
  const pulled = async (doc: number, where: string) => {
    requests++;
    return answered(`${where}: textDocument/diagnostic`, c.request<{ kind: string; items: { code: string; message: string }[] }>('textDocument/diagnostic', { textDocument: { uri: c.uri(rel(doc)) } }));
  };
  /** A clean document has no diagnostics for this version. */
  const expectClean = async (doc: number, version: number, where: string) => {
    if (mode === 'pull') {
      const r = await pulled(doc, where);
      assert.deepEqual(r.items.map((d) => `${d.code}: ${d.message}`), [], `${where}: a clean document has diagnostics; texts sent:\n  ${historyOf(doc)}`);
    } else {
      const uri = c.uri(rel(doc));
      const got = await c.until(() => {
        const p = c.pushed.get(uri);
        return p && p.version === version ? p : undefined;
      }, `${where}: a push for version ${version}`, ANSWER_MS);
      assert.deepEqual(got.diagnostics, [], `${where}: a clean document has diagnostics; texts sent:\n  ${historyOf(doc)}`);
    }
  };
  const expectClosedEmpty = async (doc: number, where: string) => {
    if (mode === 'pull') {
      const r = await pulled(doc, where);
      assert.deepEqual(r.items, [], `${where}: a closed document still has diagnostics`);
    } else {
      const uri = c.uri(rel(doc));
      await c.until(() => c.pushed.get(uri)?.diagnostics.length === 0, `${where}: empty diagnostics after close`, ANSWER_MS);
    }
  };
  try {
    for (let i = 0; i < OPS; i++) {
      const doc = g.int(DOCS);
      const where = `${mode} seed ${SEED} op ${i} (${rel(doc)})`;
      const state = open.get(doc);
      const r = g.rnd();
      if (!state) {
        const { kind, text } = g.text(doc);
        sent(doc, text);
        await c.open(rel(doc), text);
        open.set(doc, { version: 1, kind });
        if (kind === 'valid') await expectClean(doc, 1, where);
      } else if (r < 0.6) {
        const { kind, text } = g.text(doc);
        const version = state.version + 1;
        sent(doc, text);
        await c.change(rel(doc), text, version);
        open.set(doc, { version, kind });
        if (kind === 'valid') await expectClean(doc, version, where);
      } else if (r < 0.75) {
        await c.close(rel(doc));
        open.delete(doc);
        await expectClosedEmpty(doc, where);
      } else {
        // Other requests on the document as it stands: each must answer.
        const uri = c.uri(rel(doc));
        const pos = { line: g.int(12), character: g.int(30) };
        const which = g.int(4);
        requests++;
        if (which === 0 && mode === 'pull') await pulled(doc, where);
        else if (which === 0 || which === 1) await answered(`${where}: hover`, c.request('textDocument/hover', { textDocument: { uri }, position: pos }));
        else if (which === 2) await answered(`${where}: documentSymbol`, c.request('textDocument/documentSymbol', { textDocument: { uri } }));
        else await answered(`${where}: codeAction`, c.request('textDocument/codeAction', { textDocument: { uri }, range: { start: pos, end: pos }, context: { diagnostics: [], only: ['quickfix', 'source'] } }));
      }
      if (i % 100 === 99) loggedErrors.push(...checkLog(c, where));
      // Heap after GC at each quarter of the run.
      if (gc && (i + 1) % Math.max(1, Math.floor(OPS / 4)) === 0) {
        await c.until(() => true, 'a turn of the event loop');
        gc();
        heap.push(process.memoryUsage().heapUsed);
      }
    }
    // Nothing stale at the end: every closed document is still empty once pending work has run.
    await answered('final documentSymbol', c.request('textDocument/documentSymbol', { textDocument: { uri: c.uri(rel(0)) } }));
    for (let doc = 0; doc < DOCS; doc++) if (!open.has(doc)) await expectClosedEmpty(doc, `${mode} end (${rel(doc)})`);
    for (const [doc, s] of open) if (s.kind === 'valid') await expectClean(doc, s.version, `${mode} end (${rel(doc)})`);
    loggedErrors.push(...checkLog(c, `${mode} end`));
  } finally {
    await c.dispose();
  }
  return { ops: OPS, requests, heap, ms: performance.now() - t0, loggedErrors };
}

for (const mode of ['push', 'pull'] as const) {
  test(`soak (${mode}): ${OPS} random opens, edits, closes and requests over ${DOCS} documents`, async () => {
    const r = await soak(mode);
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    console.log(`soak ${mode}: ${r.ops} ops, ${r.requests} requests, ${r.ms.toFixed(0)} ms, heap after GC by quarter: ${r.heap.map(mb).join(', ')} MB; ${r.loggedErrors.length} error-level log lines${r.loggedErrors.length ? ` (first: ${r.loggedErrors[0].slice(0, 200)})` : ''}`);
    if (r.heap.length >= 2) {
      const growth = r.heap[r.heap.length - 1] - r.heap[0];
      assert.ok(growth < HEAP_BOUND, `heap grew ${mb(growth)} MB from the first to the last quarter (bound ${mb(HEAP_BOUND)} MB)`);
    }
  });
}
