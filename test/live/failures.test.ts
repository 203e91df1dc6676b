/**
 * A live server that pages, hangs, dies or is missing: pages are all followed; the others end in
 * a clear error within the time-out, and no process is left behind (checked by PID, including a
 * grandchild the server started).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchLiveTools, LiveError, liveSourceFile, splitCommand } from '../../server/src/node/live';
import { ConfigError } from '../../server/src/engine/config';
import { FIXTURES, gone, lintFindings, node, ROOT } from './helpers';

const fixture = (name: string) => `${node} ${JSON.stringify(join(FIXTURES, name))}`;

test('splitCommand splits like a shell, without one', () => {
  assert.deepEqual(splitCommand(`node "a b.js" 'c d' e\\ f --x=""`), ['node', 'a b.js', 'c d', 'e f', '--x=']);
  assert.throws(() => splitCommand('node "a'), /unterminated/);
});

test('pagination: every page of tools/list is followed', async () => {
  let pid = 0;
  const r = await fetchLiveTools({ command: fixture('paged-server.mjs'), cwd: ROOT, timeoutMs: 10_000, onSpawn: (p) => (pid = p) });
  assert.deepEqual(
    r.tools.map((t) => (t as { name: string }).name),
    ['list_items', 'get_item', 'create_item', 'update_item', 'delete_item'],
  );
  assert.equal(r.serverInfo.name, 'paged-test-server');
  assert.ok(await gone(pid));
  const f = liveSourceFile(r);
  assert.equal(f.path, 'live:paged-test-server.json');
  assert.equal(f.tools.length, 5);
  lintFindings(f);
});

test('a server that never answers initialize: a time-out error, and no process left (grandchild included)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-tool-lint-hang-'));
  try {
    const pidFile = join(dir, 'grandchild.pid');
    let pid = 0;
    const t0 = Date.now();
    const err = await fetchLiveTools({
      command: fixture('hang-server.mjs'),
      cwd: ROOT,
      timeoutMs: 1000,
      env: { ...(process.env as Record<string, string>), PID_FILE: pidFile },
      onSpawn: (p) => (pid = p),
    }).then(
      () => null,
      (e: Error) => e,
    );
    const elapsed = Date.now() - t0;
    assert.ok(err instanceof LiveError && err instanceof ConfigError, 'a LiveError (the CLI exits 2)');
    assert.match(err.message, /hang-server\.mjs.*no answer to initialize within 1000 ms/);
    // Time-out, then SIGTERM (ignored by the fixture), then SIGKILL a second later.
    assert.ok(elapsed < 1000 + 3500, `took ${elapsed} ms`);
    assert.ok(pid > 0);
    assert.ok(await gone(pid), 'the server is ended');
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(await gone(grandchild), 'the process the server started is ended too');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a server that dies at start: the error gives the exit code and its stderr', async () => {
  let pid = 0;
  const t0 = Date.now();
  await assert.rejects(fetchLiveTools({ command: fixture('die-server.mjs'), cwd: ROOT, timeoutMs: 10_000, onSpawn: (p) => (pid = p) }), (e: Error) => {
    assert.ok(e instanceof LiveError);
    assert.match(e.message, /die-server\.mjs.*exited with code 1/);
    assert.match(e.message, /cannot open the database/);
    return true;
  });
  assert.ok(Date.now() - t0 < 5000, 'well within the time-out');
  assert.ok(await gone(pid));
});

test('a command that does not exist, and no server at a URL', async () => {
  await assert.rejects(fetchLiveTools({ command: 'mcp-tool-lint-no-such-command --stdio', timeoutMs: 5000 }), /no-such-command.*not found/);
  await assert.rejects(fetchLiveTools({ url: 'http://127.0.0.1:1/mcp', timeoutMs: 5000 }), /127\.0\.0\.1:1\/mcp: the connection failed/);
  await assert.rejects(fetchLiveTools({ url: 'ftp://x' }), /not an http/);
  await assert.rejects(fetchLiveTools({}), /exactly one/);
});

test('tools that break the spec are listed as sent, and linted', async () => {
  const r = await fetchLiveTools({ command: fixture('sloppy-server.mjs'), cwd: ROOT, timeoutMs: 10_000 });
  assert.equal(r.tools.length, 2);
  const rules = new Set(lintFindings(liveSourceFile(r)).map((f) => `${f.rule}:${f.tool}`));
  assert.ok(rules.has('description-missing:search'), [...rules].join(', '));
});
