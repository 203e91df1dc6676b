/**
 * Real MCP servers that nobody on the team wrote (the npm reference servers), started over stdio
 * and over Streamable HTTP on a loopback port, listed, linted with the default config; their
 * findings are snapshots in test/snapshots/live/. Update with UPDATE_SNAPSHOTS=1 npm test -- live.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { fetchLiveTools, lintLive, liveSourceFile, type LiveOptions } from '../../server/src/node/live';
import { loadText } from '../../server/src/engine/load';
import { gone, lintFindings, matchSnapshot, node, pkgBin, ROOT, startHttpFixture, type Finding } from './helpers';

let tmp = '';
before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'mcp-tool-lint-live-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

async function lintServer(opts: LiveOptions): Promise<{ name: string; tools: string[]; findings: Finding[]; pid: number }> {
  let pid = 0;
  const r = await fetchLiveTools({ timeoutMs: 20_000, cwd: ROOT, ...opts, onSpawn: (p) => (pid = p) });
  const file = liveSourceFile(r);
  assert.match(file.path, /^live:.+\.json$/);
  assert.equal(file.kind, 'tools');
  assert.equal(file.tools.length, r.tools.length, 'every listed tool is loaded');
  assert.ok(file.text.includes(`"source": ${JSON.stringify(r.source)}`), 'the text says the source is a live server');
  // The text is a catalogue the linter reads back: same tools, same findings.
  const again = loadText('again.json', file.text);
  assert.equal(again.tools.length, file.tools.length);
  return { name: r.serverInfo.name, tools: file.tools.map((t) => t.name ?? ''), findings: lintFindings(file), pid };
}

const everythingStdio: { findings?: Finding[] } = {};

test('server-everything over stdio', async () => {
  const r = await lintServer({ command: `${node} ${pkgBin('server-everything')} stdio` });
  assert.ok(r.tools.length >= 10);
  assert.ok(await gone(r.pid), 'the server process is ended');
  everythingStdio.findings = r.findings;
  matchSnapshot('server-everything', { server: r.name, tools: r.tools, findings: r.findings });
});

test('server-memory over stdio', async () => {
  const r = await lintServer({ command: `${node} ${pkgBin('server-memory')}`, env: { ...(process.env as Record<string, string>), MEMORY_FILE_PATH: join(tmp, 'memory.jsonl') } });
  assert.ok(r.tools.includes('create_entities'));
  assert.ok(await gone(r.pid), 'the server process is ended');
  matchSnapshot('server-memory', { server: r.name, tools: r.tools, findings: r.findings });
});

test('server-filesystem over stdio', async () => {
  const r = await lintServer({ command: `${node} ${pkgBin('server-filesystem')} ${JSON.stringify(tmp)}` });
  assert.ok(r.tools.includes('read_text_file') || r.tools.includes('read_file'));
  assert.ok(await gone(r.pid), 'the server process is ended');
  // The allowed folder is a temporary path; keep it out of the snapshot.
  const findings = r.findings.map((f) => ({ ...f, message: f.message.split(tmp).join('<tmp>') }));
  matchSnapshot('server-filesystem', { server: r.name, tools: r.tools, findings });
});

test('server-everything over Streamable HTTP on a loopback port, with an auth header', async () => {
  let proc: ChildProcess | undefined;
  try {
    const s = await startHttpFixture('http-everything.mjs', ['test-token']);
    proc = s.proc;
    await assert.rejects(fetchLiveTools({ url: s.url, timeoutMs: 5000 }), /HTTP 401.*--header/);
    const files = await lintLive({ url: s.url, headers: { Authorization: 'Bearer test-token' }, timeoutMs: 10_000 });
    assert.equal(files.length, 1);
    assert.ok(files[0].text.includes(`"source": "live: ${s.url}"`));
    const findings = lintFindings(files[0]);
    matchSnapshot('server-everything-http', { server: 'mcp-servers/everything', tools: files[0].tools.map((t) => t.name), findings });
    // Same server, other transport: same findings.
    if (everythingStdio.findings) assert.deepEqual(findings, everythingStdio.findings);
  } finally {
    if (proc?.pid) {
      proc.kill('SIGKILL');
      assert.ok(await gone(proc.pid));
    }
  }
});
