/** Fixes are written atomically, keep the file's mode, and never overwrite a file changed on disk meanwhile. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { atomicWrite, runLint } from '../../server/src/node/run';
import { workspace } from '../helpers/cli';

const FIXABLE = 'name: a\ndescription: d\n# mcp-tool-lint-disable-next-line description-missing\ninputSchema: {type: object}\n';

test('atomicWrite replaces the content, keeps the mode and leaves no temporary file', () => {
  const dir = workspace({ 'a.yaml': 'old\n' });
  const p = join(dir, 'a.yaml');
  chmodSync(p, 0o640);
  atomicWrite(p, 'new\n');
  assert.equal(readFileSync(p, 'utf8'), 'new\n');
  assert.equal(statSync(p).mode & 0o777, 0o640);
  assert.deepEqual(readdirSync(dir), ['a.yaml']);
});

test('--fix writes the fixed text when the file is unchanged on disk', () => {
  const dir = workspace({ 'a.yaml': FIXABLE });
  const out = runLint({ cwd: dir, paths: ['.'], fix: 'write', reportUnusedDisableDirectives: true });
  assert.equal(out.fixed[0].written, true);
  assert.doesNotMatch(readFileSync(join(dir, 'a.yaml'), 'utf8'), /disable-next-line/);
});

test('--fix leaves a file alone when it changed on disk while it was being linted', () => {
  const dir = workspace({ 'a.yaml': FIXABLE });
  const edited = FIXABLE + '# edited by someone else meanwhile\n';
  const out = runLint({ cwd: dir, paths: ['.'], fix: 'write', reportUnusedDisableDirectives: true, beforeWrite: (abs) => writeFileSync(abs, edited) });
  assert.equal(out.fixed[0].written, false);
  assert.match(out.fixed[0].skipped ?? '', /changed on disk/);
  assert.equal(readFileSync(join(dir, 'a.yaml'), 'utf8'), edited, 'the other edit is kept, not overwritten');
});
