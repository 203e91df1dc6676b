// Runs every test file under test/ with Node's test runner (TypeScript through tsx).
// Usage: npm test [-- name-filter...]
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const filters = process.argv.slice(2);
function walk(dir) {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.test.ts') ? [p] : [];
  });
}
// Always rebuild: end-to-end tests run the bundles, and a stale bundle would test old code.
{
  const b = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const files = walk('test').filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(2);
}
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } });
process.exit(r.status ?? 1);
