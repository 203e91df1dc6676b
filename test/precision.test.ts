/**
 * docs/precision.md must stay true: the committed sample is the one the script draws from the
 * current rules, every sampled finding has a verdict, and every reviewed rule is at least 90% right.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const CORPUS = join(__dirname, '..', '..', 'shared', 'corpus');
const skip = existsSync(CORPUS) ? false : `the corpus is not at ${CORPUS}`;

test('precision review is current and every reviewed rule is at least 90% right', { skip }, () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', 'scripts', 'precision.ts'), '--check'], { encoding: 'utf8', cwd: join(__dirname, '..') });
  assert.equal(r.status, 0, r.stderr);
});
