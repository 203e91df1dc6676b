/** `mcp-tool-lint snapshot`: from files and from a live server, read back with the same tools. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSnapshot } from '../../server/src/node/commands/snapshot';
import { loadText } from '../../server/src/engine/load';
import { loadRun } from '../../server/src/node/run';
import { FIXTURES, node, ROOT } from './helpers';

async function call(argv: string[], cwd = ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runSnapshot(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd });
  return { code, stdout, stderr };
}

test('snapshot of files: one catalogue with the same tools', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-tool-lint-snap-'));
  try {
    const src = join(ROOT, 'test', 'fixtures');
    const run = loadRun({ cwd: src, paths: ['.'] });
    const names = run.files.flatMap((f) => f.tools.map((t) => t.name));
    assert.ok(names.length > 0);
    const out = join(dir, 'catalogue.json');
    const r = await call(['.', '-o', out], src);
    assert.equal(r.code, 0, r.stderr);
    const back = loadText('catalogue.json', readFileSync(out, 'utf8'));
    assert.equal(back.kind, 'tools');
    assert.deepEqual(
      back.tools.map((t) => t.name),
      names,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('snapshot of a live server (paged), to stdout', async () => {
  const r = await call(['--server-command', `${node} ${JSON.stringify(join(FIXTURES, 'paged-server.mjs'))}`, '--timeout', '10000']);
  assert.equal(r.code, 0, r.stderr);
  const data = JSON.parse(r.stdout);
  assert.equal(data.server.name, 'paged-test-server');
  assert.match(data.server.source, /^live: .*paged-server\.mjs/);
  assert.equal(loadText('snap.json', r.stdout).tools.length, 5);
});

test('snapshot: a server that dies is exit 2 with the cause; bad usage is exit 2', async () => {
  const r = await call(['--server-command', `${node} ${JSON.stringify(join(FIXTURES, 'die-server.mjs'))}`]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /exited with code 1/);
  assert.equal((await call(['--server-url', 'http://127.0.0.1:1/mcp', '--server-command', 'x'])).code, 2);
  assert.equal((await call(['a.json', '--server-command', 'x'])).code, 2);
  assert.equal((await call(['--header', 'A=b'])).code, 2);
  const help = await call(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--server-command/);
});
