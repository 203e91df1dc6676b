// Long property-based run over the whole pipeline. Usage: npm run fuzz [-- runs [seed]]
// Prints the figures that docs/ROBUSTNESS.md records.
import { fuzz } from '../test/fixtures/hostile/fuzz';

const runs = Number(process.argv[2] ?? 100_000);
const seed = process.argv[3] ? Number(process.argv[3]) : undefined;
const r = fuzz(runs, seed);
console.log(JSON.stringify({ date: new Date().toISOString(), node: process.version, ...r, ms: Math.round(r.ms) }, null, 2));
process.exit(r.failures ? 1 : 0);
