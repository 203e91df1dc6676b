/**
 * Where a cold CLI run's rule time goes: V8 compiling and optimising the code, or the rules' own
 * work. The corpus is linted three ways in fresh processes:
 *
 * - cold: the first lint of a process (what the CLI does);
 * - JIT warm: after linting a different input (a generated catalogue) a few times, so the rules'
 *   code is compiled and optimised but none of the corpus's texts is in a per-string cache;
 * - again: the corpus linted again in the same process, every per-string cache full.
 *
 * Prints one JSON line: { cold, jitWarm, again }, each { load, rules } in ms (medians over `runs`
 * processes).
 *
 *   node --import tsx bench/warm.ts CORPUS OTHER_INPUT [runs]
 *   node --import tsx bench/warm.ts --one MODE CORPUS OTHER_INPUT     (one process; internal)
 */
import { spawnSync } from 'node:child_process';
import { runLint } from '../server/src/node/run';
import { median } from './stats';

interface Phase {
  load: number;
  rules: number;
}

function lintOnce(path: string): Phase {
  const timing = new Map<string, number>();
  runLint({ cwd: process.cwd(), paths: [path], timing });
  let rules = 0;
  for (const [id, ms] of timing) if (!id.startsWith('(')) rules += ms;
  return { load: Math.round(timing.get('(load)') ?? 0), rules: Math.round(rules) };
}

const argv = process.argv.slice(2);
if (argv[0] === '--one') {
  const [, mode, corpus, other] = argv;
  if (mode === 'jit') for (let i = 0; i < 3; i++) lintOnce(other);
  if (mode === 'again') lintOnce(corpus);
  console.log(JSON.stringify(lintOnce(corpus)));
} else {
  const [corpus, other, n] = argv;
  const runs = Number(n ?? 3);
  const out: Record<string, Phase> = {};
  for (const mode of ['cold', 'jit', 'again']) {
    const xs: Phase[] = [];
    for (let i = 0; i < runs; i++) {
      const r = spawnSync(process.execPath, [...process.execArgv, __filename, '--one', mode, corpus, other], { encoding: 'utf8', maxBuffer: 16 << 20 });
      if (r.status !== 0) throw new Error(`bench/warm.ts ${mode}: exit ${r.status}\n${r.stderr.slice(-1500)}`);
      xs.push(JSON.parse(r.stdout.trim().split('\n').pop()!) as Phase);
    }
    out[mode === 'jit' ? 'jitWarm' : mode] = { load: median(xs.map((x) => x.load)), rules: median(xs.map((x) => x.rules)) };
  }
  console.log(JSON.stringify(out));
}
