/**
 * dist/cli.js loads the bundle with a V8 code cache in the user's cache folder. The cache may only
 * make runs faster: every run gives the same output with it, without it, with a broken cache file
 * and with a cache folder that others could write (which must not be used).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');

function run(env: Record<string, string>): { out: string; cache: string; status: number | null } {
  const r = spawnSync(process.execPath, [CLI, '-f', 'json', 'examples/'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, MCP_TOOL_LINT_DEBUG: '1', MCP_TOOL_LINT_NO_CACHE: '', ...env } });
  const cache = /code cache (\w+)/.exec(r.stderr)?.[1] ?? 'none';
  return { out: r.stdout, cache, status: r.status };
}

test('the code cache is written by a first run, used by the next, and changes no output', () => {
  const home = mkdtempSync(join(tmpdir(), 'mtl-cache-'));
  const plain = run({ MCP_TOOL_LINT_NO_CACHE: '1', XDG_CACHE_HOME: home });
  assert.equal(plain.cache, 'none');
  assert.equal(existsSync(join(home, 'mcp-tool-lint')), false, 'no cache folder when it is turned off');
  const first = run({ XDG_CACHE_HOME: home });
  assert.equal(first.cache, 'miss');
  const files = readdirSync(join(home, 'mcp-tool-lint'));
  assert.equal(files.length, 1);
  const second = run({ XDG_CACHE_HOME: home });
  assert.equal(second.cache, 'hit');
  assert.equal(first.status, plain.status);
  assert.equal(first.out, plain.out);
  assert.equal(second.out, plain.out);
  assert.ok(JSON.parse(second.out).summary.errors > 0, 'the run really linted the examples');
});

test('a broken cache file is rejected and replaced; stale caches of other builds are removed', () => {
  const home = mkdtempSync(join(tmpdir(), 'mtl-cache-'));
  const plain = run({ MCP_TOOL_LINT_NO_CACHE: '1', XDG_CACHE_HOME: home });
  run({ XDG_CACHE_HOME: home });
  const dir = join(home, 'mcp-tool-lint');
  const [file] = readdirSync(dir);
  writeFileSync(join(dir, file), Buffer.alloc(4096, 7));
  writeFileSync(join(dir, 'cli-0.0.0-old-build.v8cache'), 'old');
  const broken = run({ XDG_CACHE_HOME: home });
  assert.equal(broken.cache, 'rejected');
  assert.equal(broken.out, plain.out);
  assert.deepEqual(readdirSync(dir), [file], 'the stale cache is gone, the broken one rewritten');
  assert.equal(run({ XDG_CACHE_HOME: home }).cache, 'hit');
});

test('a cache folder that others can write is not used', { skip: process.platform === 'win32' ? 'POSIX permissions' : false }, () => {
  const home = mkdtempSync(join(tmpdir(), 'mtl-cache-'));
  const plain = run({ MCP_TOOL_LINT_NO_CACHE: '1', XDG_CACHE_HOME: home });
  run({ XDG_CACHE_HOME: home });
  chmodSync(join(home, 'mcp-tool-lint'), 0o777);
  const open = run({ XDG_CACHE_HOME: home });
  assert.equal(open.cache, 'off');
  assert.equal(open.out, plain.out);
});

test('an unusable cache location never breaks a run', () => {
  const home = mkdtempSync(join(tmpdir(), 'mtl-cache-'));
  const plain = run({ MCP_TOOL_LINT_NO_CACHE: '1', XDG_CACHE_HOME: home });
  const notDir = join(home, 'a-file');
  writeFileSync(notDir, 'x');
  const r = run({ XDG_CACHE_HOME: notDir });
  assert.equal(r.out, plain.out);
  const relative = run({ XDG_CACHE_HOME: 'relative/path' });
  assert.equal(relative.out, plain.out);
});
