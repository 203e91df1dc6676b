/** Live servers and diff through the real CLI bundle (dist/cli.js). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cli, workspace } from '../helpers/cli';

const FIX = join(__dirname, '..', 'fixtures');

test('--server-command lints the tools a live server lists; the report says the source is live', () => {
  const r = cli(['--server-command', `"${process.execPath}" ${join(FIX, 'live', 'paged-server.mjs')}`, '-f', 'json'], workspace({}));
  assert.ok(r.code === 0 || r.code === 1, r.stderr);
  const rep = JSON.parse(r.stdout);
  assert.match(rep.files[0].path, /^live:/);
  assert.equal(rep.files[0].tools, 5, 'every page was listed');
});

test('a server that never answers is a clear error within the time-out (exit 2)', () => {
  const r = cli(['--server-command', `"${process.execPath}" ${join(FIX, 'live', 'hang-server.mjs')}`, '--timeout', '1000'], workspace({}));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /no answer to initialize within 1000 ms/);
});

test('live-server options are checked', () => {
  const dir = workspace({});
  assert.equal(cli(['--server-command', 'x', '--server-url', 'http://127.0.0.1:1/mcp'], dir).code, 2);
  assert.equal(cli(['--header', 'A=b'], dir).code, 2);
  assert.equal(cli(['--server-command', 'x', '--timeout', 'soon'], dir).code, 2);
});

test('diff through the CLI: exit 1 on breaking changes, 0 with --allow-breaking', () => {
  const dir = workspace({});
  const a = join(FIX, 'diff', 'old.yaml');
  const b = join(FIX, 'diff', 'new.yaml');
  const r = cli(['diff', a, b, '-f', 'json'], dir);
  assert.equal(r.code, 1, r.stderr);
  assert.ok(JSON.parse(r.stdout).breaking.length > 0);
  assert.equal(cli(['diff', a, b, '--allow-breaking'], dir).code, 0);
});
