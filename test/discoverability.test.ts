/** docs/discoverability.md reports what the ranker returns on the frozen intent sets today. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const CORPUS = join(__dirname, '..', '..', 'shared', 'corpus');
const skip = existsSync(CORPUS) ? false : `the corpus is not at ${CORPUS}`;

test('the discoverability report matches a fresh measurement on the frozen intents', { skip }, () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', 'scripts', 'discoverability.ts'), '--check'], { encoding: 'utf8', cwd: join(__dirname, '..') });
  assert.equal(r.status, 0, r.stderr);
});
