/** `mcp-tool-lint graph`: options, formats, --order, output file and errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GRAPH_HELP, runGraph } from '../../server/src/node/commands/graph';

const ROOT = join(__dirname, '..', '..');
const BEFORE = 'test/fixtures/seed000/before.yaml';

function call(argv: string[], cwd = ROOT): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const code = runGraph(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd });
  return { code, stdout, stderr };
}

test('graph: Mermaid by default, DOT and JSON on request', () => {
  const m = call([BEFORE]);
  assert.equal(m.code, 0, m.stderr);
  assert.ok(m.stdout.startsWith('flowchart LR\n'));
  const d = call([BEFORE, '-f', 'dot']);
  assert.ok(d.stdout.startsWith('digraph workflow {\n') && d.stdout.endsWith('}\n'));
  const j = JSON.parse(call([BEFORE, '--format=json']).stdout);
  assert.equal(j.nodes.length, 20);
  assert.ok(j.edges.length > 10);
});

test('graph --order: a numbered Markdown list; JSON steps with --format json', () => {
  const r = call([BEFORE, '--order']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^1\. list_behaviors, list_categories, list_topics, list_endpoints \(discover existing\)\n2\. create_project\n/);
  const j = JSON.parse(call([BEFORE, '--order', '--format', 'json']).stdout);
  assert.deepEqual(j.steps[0], { kind: 'discover', tools: ['list_behaviors', 'list_categories', 'list_topics', 'list_endpoints'], with: [], get: [] });
  assert.deepEqual(j.cycles, []);
});

test('graph: usage errors exit 2 with a message', () => {
  const bad = call([BEFORE, '--format', 'svg']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown format "svg"; allowed: mermaid, dot, json/);
  const order = call([BEFORE, '--order', '--format', 'dot']);
  assert.equal(order.code, 2);
  assert.match(order.stderr, /--order prints Markdown, or JSON with --format json/);
  assert.equal(call([BEFORE, '--nope']).code, 2);
  const missing = call(['no/such/file.yaml']);
  assert.equal(missing.code, 2);
});

test('graph --help; -o writes the file; no tools and nothing to create are said on stderr', () => {
  const h = call(['--help']);
  assert.equal(h.code, 0);
  assert.equal(h.stdout, GRAPH_HELP + '\n');
  const dir = mkdtempSync(join(tmpdir(), 'graph-'));
  try {
    const out = join(dir, 'g.mmd');
    const r = call([join(ROOT, BEFORE), '-o', out], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.ok(readFileSync(out, 'utf8').startsWith('flowchart LR\n'));
    writeFileSync(join(dir, 'read.yaml'), 'tools:\n  - name: list_items\n    description: List items.\n    inputSchema: {type: object}\n');
    const none = call(['read.yaml', '--order'], dir);
    assert.equal(none.code, 0);
    assert.equal(none.stdout, '');
    assert.match(none.stderr, /no tool of the catalogue creates records/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
