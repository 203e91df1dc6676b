/**
 * The corpus linted several times in one process: how much of a CLI run's rule time is the cost of
 * a cold process (V8 compiling and optimising the rules, first-time caches) rather than the rules'
 * steady-state work. Prints one JSON line: per run, the load phase and the sum of the rules, in ms.
 *
 *   node --import tsx bench/warm.ts ../shared/corpus [runs]
 */
import { runLint } from '../server/src/node/run';

const [dir, n] = process.argv.slice(2);
const runs: { load: number; rules: number; total: number }[] = [];
for (let i = 0; i < Number(n ?? 4); i++) {
  const timing = new Map<string, number>();
  const t = performance.now();
  runLint({ cwd: process.cwd(), paths: [dir], timing });
  const total = performance.now() - t;
  let rules = 0;
  for (const [id, ms] of timing) if (!id.startsWith('(')) rules += ms;
  runs.push({ load: Math.round(timing.get('(load)') ?? 0), rules: Math.round(rules), total: Math.round(total) });
}
console.log(JSON.stringify({ runs }));
