/** A short property-based run in `npm test`; `npm run fuzz` runs the long one. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fuzz } from '../fixtures/hostile/fuzz';

test('fuzz (short budget): load → lint → fix → re-lint never throws, ranges stay inside, fixes converge', () => {
  const r = fuzz(Number(process.env.FUZZ_RUNS ?? 400));
  assert.equal(r.counterexample, null, `seed ${r.seed}`);
});
