/**
 * `npm run bench`: measure the CLI against the parse floor and Spectral 6 on the real corpus and on
 * generated catalogues, measure the language server in-process, then write docs/BENCHMARKS.md and
 * docs/images/bench-scaling.svg. Whole processes are timed (cold start included), medians of
 * several runs, all ratios from the same run on the same machine.
 *
 * Env: BENCH_RUNS (default 5), BENCH_LARGE_RUNS (default 2; 0 skips 23,000 tools),
 *      BENCH_EDITS (default 30), BENCH_CORPUS (default ../shared/corpus).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { writeCatalog } from './generate';
import { median } from './stats';

const ROOT = resolve(import.meta.dirname ?? __dirname, '..');
const BENCH = join(ROOT, '.bench');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LARGE_RUNS = Number(process.env.BENCH_LARGE_RUNS ?? 2);
const EDITS = Number(process.env.BENCH_EDITS ?? 30);
const CORPUS = resolve(ROOT, process.env.BENCH_CORPUS ?? '../shared/corpus');
const CLI = join(ROOT, 'dist/cli.js');
const log = (m: string): void => void process.stderr.write(m + '\n');
mkdirSync(BENCH, { recursive: true });


// --- Tools -----------------------------------------------------------------------------------
function ensureTime(): boolean {
  if (existsSync('/usr/bin/time')) return true;
  if (process.getuid?.() === 0) {
    log('installing Debian `time` for peak-memory figures…');
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'time'], { stdio: 'ignore' });
  }
  return existsSync('/usr/bin/time');
}
const HAVE_TIME = ensureTime();

function ensureSpectral(): string | null {
  const bin = join(BENCH, 'spectral/node_modules/.bin/spectral');
  if (existsSync(bin)) return bin;
  log('installing @stoplight/spectral-cli@6 into .bench/spectral (scratch, not a dependency)…');
  mkdirSync(join(BENCH, 'spectral'), { recursive: true });
  writeFileSync(join(BENCH, 'spectral/package.json'), '{"name":"bench-spectral","private":true}\n');
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '@stoplight/spectral-cli@6'], { cwd: join(BENCH, 'spectral'), stdio: 'ignore' });
  return r.status === 0 && existsSync(bin) ? bin : null;
}

function buildFloor(): string {
  const out = join(BENCH, 'floor.cjs');
  const r = spawnSync(join(ROOT, 'node_modules/.bin/esbuild'), [join(ROOT, 'bench/floor.ts'), '--bundle', '--platform=node', '--format=cjs', '--main-fields=module,main', `--outfile=${out}`, '--log-level=warning'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('could not bundle bench/floor.ts');
  return out;
}

interface Sample { wall: number; rss: number | null; cpu: number | null }
/** `cpu`: user + system time of the whole process (all its threads), in ms. */
interface Stat { wall: number; rss: number | null; cpu: number | null; runs: number; walls: number[] }

interface Job {
  label: string;
  cmd: string;
  args: string[];
  okStatus?: number[];
}

/** One whole process: wall time from here, peak RSS and CPU time from /usr/bin/time. */
function runOnce(job: Job): Sample {
  const rssFile = join(BENCH, 'rss.txt');
  const argv = HAVE_TIME ? ['-f', '%M %U %S', '-o', rssFile, job.cmd, ...job.args] : job.args;
  const t = performance.now();
  const r = spawnSync(HAVE_TIME ? '/usr/bin/time' : job.cmd, argv, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 << 20 });
  const wall = performance.now() - t;
  if (r.status === null || !(job.okStatus ?? [0, 1]).includes(r.status)) throw new Error(`${job.label}: exit ${r.status}\n${r.stderr?.toString().slice(-2000)}`);
  if (!HAVE_TIME) return { wall, rss: null, cpu: null };
  const [kb, user, sys] = readFileSync(rssFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  return { wall, rss: kb / 1024, cpu: (user + sys) * 1000 };
}

/**
 * Run jobs `runs` times each, taking turns (a, b, c, a, b, c, …): the shared box's slow spells
 * then fall on every job alike, so the ratios between them hold better than the absolute times.
 */
function measureTogether(jobs: Job[], runs: number): Stat[] {
  const samples: Sample[][] = jobs.map(() => []);
  for (let i = 0; i < runs; i++) jobs.forEach((job, k) => samples[k].push(runOnce(job)));
  return jobs.map((job, k) => {
    const xs = samples[k];
    const s: Stat = { wall: median(xs.map((x) => x.wall)), rss: HAVE_TIME ? median(xs.map((x) => x.rss!)) : null, cpu: HAVE_TIME ? median(xs.map((x) => x.cpu!)) : null, runs, walls: xs.map((x) => Math.round(x.wall)) };
    log(`  ${job.label.padEnd(28)} ${Math.round(s.wall)} ms  ${s.rss ? Math.round(s.rss) + ' MB' : ''}  [${s.walls.join(', ')}]`);
    return s;
  });
}

function measure(label: string, cmd: string, args: string[], runs: number, okStatus = [0, 1]): Stat {
  return measureTogether([{ label, cmd, args, okStatus }], runs)[0];
}

// --- Inputs ----------------------------------------------------------------------------------
// How busy the shared box is: its load average, and a bare Node start-up, before anything runs.
const loadAtStart = loadavg()[0];
log('bare node start-up');
const bareNode = measure('node -e 0', 'node', ['-e', '0'], Math.max(RUNS, 5), [0]);
log('preparing inputs…');
const floor = buildFloor();
const spectral = ensureSpectral();
const ruleset = join(ROOT, 'bench/spectral-ruleset.yaml');
const sizes = [230, 2300, ...(LARGE_RUNS > 0 ? [23000] : [])];
const generated = new Map(sizes.map((n) => [n, writeCatalog(n, BENCH)]));
// The recommended rules, with the file-size limit raised: the 23,000-tool file is 21 MB (limit 10 MB).
const benchConfig = join(BENCH, 'bench-config.yaml');
writeFileSync(benchConfig, 'extends: [recommended]\nmaxFileSize: 268435456\n');

// The corpus files the CLI itself reads, so the floor and Spectral parse exactly the same set.
const corpusJson = join(BENCH, 'corpus-report.json');
spawnSync('node', [CLI, '-f', 'json', '-o', corpusJson, CORPUS], { cwd: ROOT, stdio: 'ignore' });
const corpusReport = JSON.parse(readFileSync(corpusJson, 'utf8')) as { files: { path: string }[]; summary: { files: number; tools: number } };
const corpusList = join(BENCH, 'corpus-files.txt');
writeFileSync(corpusList, corpusReport.files.map((f) => resolve(ROOT, f.path)).join('\n') + '\n');
const corpusFiles = corpusReport.files.map((f) => resolve(ROOT, f.path));

interface Row { input: string; tools: number; files: number; bytes: number; cli: Stat; floor: Stat; spectral: Stat | null }
const rows: Row[] = [];
const bytesOf = (files: string[]): number => files.reduce((n, f) => n + readFileSync(f).length, 0);

function bench(input: string, tools: number, cliArgs: string[], files: string[], runs: number, extra: Job[] = []): Stat[] {
  log(`${input} (${runs} runs, taking turns)`);
  const jobs: Job[] = [
    { label: 'mcp-tool-lint', cmd: 'node', args: [CLI, '-f', 'json', '-o', '/dev/null', ...cliArgs] },
    { label: 'floor (parse only)', cmd: 'node', args: [floor, ...(files.length > 1 ? [`@${corpusList}`] : files)] },
    ...(spectral ? [{ label: 'spectral 6', cmd: spectral, args: ['lint', '-q', '-r', ruleset, '-f', 'json', '-o', '/dev/null', ...files], okStatus: [0, 1, 2] }] : []),
    ...extra,
  ];
  const [cli, fl, ...rest] = measureTogether(jobs, runs);
  const sp = spectral ? rest.shift()! : null;
  rows.push({ input, tools, files: files.length, bytes: bytesOf(files), cli, floor: fl, spectral: sp });
  return rest;
}

// What the corpus run is made of: the same process with every rule off (measured in turn with the
// others), each rule's own time (MCP_TOOL_LINT_TIMING), and the rules run again in one warm process.
const ruleIds = (JSON.parse(spawnSync('node', [CLI, 'rules', '-f', 'json'], { cwd: ROOT, encoding: 'utf8' }).stdout) as { id: string }[]).map((r) => r.id);
// The same work as the peer: only the two rules its ruleset mirrors, the rest off.
const PEER_RULES = ['system-field-exposed', 'enum-unexplained'];
const peerOnly = ruleIds.filter((id) => !PEER_RULES.includes(id)).flatMap((id) => ['--rule', `${id}=off`]);
const peerJob = (args: string[]): Job => ({ label: 'mcp-tool-lint, peer\'s 2 rules', cmd: 'node', args: [CLI, ...peerOnly, '-f', 'json', '-o', '/dev/null', ...args] });
// And the full run with V8's helper threads off (background compilation, parallel and concurrent
// GC): how much of the box's second core a single run already uses.
const [noRules, peerCorpus, oneThread] = bench('corpus', corpusReport.summary.tools, [CORPUS], corpusFiles, RUNS, [
  { label: 'every rule off', cmd: 'node', args: [CLI, ...ruleIds.flatMap((id) => ['--rule', `${id}=off`]), '-f', 'json', '-o', '/dev/null', CORPUS] },
  peerJob([CORPUS]),
  { label: 'node --single-threaded', cmd: 'node', args: ['--single-threaded', CLI, '-f', 'json', '-o', '/dev/null', CORPUS] },
]);
const phaseTimes = (() => {
  const per = new Map<string, number[]>();
  for (let i = 0; i < RUNS; i++) {
    const r = spawnSync('node', [CLI, '-f', 'json', '-o', '/dev/null', CORPUS], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, MCP_TOOL_LINT_TIMING: 'all' } });
    for (const line of r.stderr.split('\n').slice(2)) {
      const [id, t] = line.split('|').map((x) => x.trim());
      if (id && t) per.set(id, [...(per.get(id) ?? []), Number(t)]);
    }
  }
  return [...per].map(([id, xs]) => ({ id, ms: median(xs) })).sort((a, b) => b.ms - a.ms);
})();
const rulesCold = phaseTimes.filter((p) => !p.id.startsWith('(')).reduce((n, p) => n + p.ms, 0);
log(`  rules (MCP_TOOL_LINT_TIMING): ${Math.round(rulesCold)} ms; ${phaseTimes.slice(0, 6).map((p) => `${p.id} ${Math.round(p.ms)}`).join(', ')}`);
// Cold rules against rules whose code V8 has already optimised (on another input), and against a
// second lint of the same files (every per-string cache full): bench/warm.ts.
type Phase = { load: number; rules: number };
const warm = (() => {
  const r = spawnSync('node', ['--import', 'tsx', join(ROOT, 'bench/warm.ts'), CORPUS, generated.get(2300)!, String(Math.max(3, Math.min(RUNS, 5)))], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) {
    log(`bench/warm.ts failed: ${r.stderr.slice(-1500)}`);
    return null;
  }
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { cold: Phase; jitWarm: Phase; again: Phase };
})();
if (warm) log(`  rules: ${warm.cold.rules} ms cold, ${warm.jitWarm.rules} ms with V8 warm on another input, ${warm.again.rules} ms linting the same files again`);
const peerRows = new Map<string, Stat>([['corpus', peerCorpus]]);
for (const n of sizes) {
  const input = `${n.toLocaleString('en')} tools`;
  const [peer] = bench(input, n, ['-c', benchConfig, generated.get(n)!], [generated.get(n)!], n >= 23000 ? LARGE_RUNS : RUNS, n >= 23000 ? [] : [peerJob(['-c', benchConfig, generated.get(n)!])]);
  if (peer) peerRows.set(input, peer);
}
log('--version');
const version = measure('mcp-tool-lint --version', 'node', [CLI, '--version'], Math.max(RUNS, 5), [0]);

// --- Editor ----------------------------------------------------------------------------------
function editor(args: string[]): Record<string, any> | null {
  const r = spawnSync('node', ['--expose-gc', '--import', 'tsx', join(ROOT, 'bench/editor.ts'), ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) {
    log(`editor ${args.join(' ')} failed: ${r.stderr.slice(-1500)}`);
    return null;
  }
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
  log(`  editor ${args[0]} ${args[1]}: ${JSON.stringify(out)}`);
  return out;
}
log('editor (in-process LSP client)…');
const ed230 = editor(['latency', generated.get(230)!, String(EDITS)]);
const ed2300 = editor(['latency', generated.get(2300)!, String(EDITS)]);
const pr230 = editor(['process', generated.get(230)!, String(EDITS)]);
const pr2300 = editor(['process', generated.get(2300)!, String(EDITS)]);
const mem = editor(['memory', CORPUS]);

// --- YAML parsing alone ------------------------------------------------------------------------
log('YAML parsing alone (in-process)…');
const parseRuns = (() => {
  const r = spawnSync('node', ['--import', 'tsx', join(ROOT, 'bench/parse.ts'), ...sizes.map((n) => generated.get(n)!), '--runs', String(Math.max(3, RUNS))], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) {
    log(`parse bench failed: ${r.stderr.slice(-1500)}`);
    return [];
  }
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { file: string; bytes: number; parseDocument: number; ours: number; fast: boolean });
})();
for (const p of parseRuns) log(`  ${p.file}: parseDocument ${p.parseDocument} ms, ours ${p.ours} ms${p.fast ? ' (fast reader)' : ''}`);

// --- Report ----------------------------------------------------------------------------------
const ms = (x: number): string => (x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x).toLocaleString('en')} ms`);
const mb = (x: number | null): string => (x == null ? 'n/a' : `${Math.round(x)} MB`);
const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;
const cpuMs = (s: { cpu: number | null }): string => (s.cpu === null ? 'n/a' : ms(s.cpu));
const kb = (b: number): string => (b >= 1 << 20 ? `${(b / 2 ** 20).toFixed(1)} MB` : `${Math.round(b / 1024)} KB`);
const yes = (ok: boolean | null): string => (ok == null ? '— not measured' : ok ? '✅ met' : '❌ not met');

const byInput = (name: string): Row | undefined => rows.find((r) => r.input === name);
const corpus = byInput('corpus')!;
const r230 = byInput('230 tools')!;
const r2300 = byInput('2,300 tools')!;
const r23000 = byInput('23,000 tools');
const perTool = (r: Row): number => r.cli.wall / r.tools;
const growth = (a: Row, b: Row): number => (b.cli.wall - version.wall) / (a.cli.wall - version.wall) / (b.tools / a.tools);

const peerOf = (r: Row): Stat | undefined => peerRows.get(r.input);
/** Spectral against the CLI running only the two rules Spectral's ruleset mirrors. */
const sameWork = (r: Row, min: number): [string, boolean | null] => {
  const p = peerOf(r);
  if (!p || !r.spectral) return ['n/a', null];
  return [`${ratio(r.spectral.wall, p.wall)} (${ms(p.wall)} vs ${ms(r.spectral.wall)})`, r.spectral.wall / p.wall >= min];
};
const targets: [string, string, boolean | null][] = [
  ['Corpus ≥ 4× faster than Spectral: all 24 default rules against its 2', corpus.spectral ? `${ratio(corpus.spectral.wall, corpus.cli.wall)} (${ms(corpus.cli.wall)} vs ${ms(corpus.spectral.wall)})` : 'n/a', corpus.spectral ? corpus.spectral.wall / corpus.cli.wall >= 4 : null],
  ['Corpus ≥ 4× faster than Spectral: the same two checks', ...sameWork(corpus, 4)],
  ['230-tool file ≥ 2× faster than Spectral: all default rules against its 2', r230.spectral ? `${ratio(r230.spectral.wall, r230.cli.wall)} (${ms(r230.cli.wall)} vs ${ms(r230.spectral.wall)})` : 'n/a', r230.spectral ? r230.spectral.wall / r230.cli.wall >= 2 : null],
  ['CLI ≤ 1.3× the parse floor (corpus), all 24 default rules', `${ratio(corpus.cli.wall, corpus.floor.wall)} (${ms(corpus.cli.wall)} vs ${ms(corpus.floor.wall)})`, corpus.cli.wall / corpus.floor.wall <= 1.3],
  ['CLI ≤ 1.3× the parse floor (corpus), the peer\'s two rules', peerOf(corpus) ? `${ratio(peerOf(corpus)!.wall, corpus.floor.wall)} (${ms(peerOf(corpus)!.wall)} vs ${ms(corpus.floor.wall)})` : 'n/a', peerOf(corpus) ? peerOf(corpus)!.wall / corpus.floor.wall <= 1.3 : null],
  ['CLI ≤ 1.3× the parse floor (230 tools)', `${ratio(r230.cli.wall, r230.floor.wall)} (${ms(r230.cli.wall)} vs ${ms(r230.floor.wall)})`, r230.cli.wall / r230.floor.wall <= 1.3],
  ['CLI ≤ 1.3× the parse floor (2,300 tools)', `${ratio(r2300.cli.wall, r2300.floor.wall)} (${ms(r2300.cli.wall)} vs ${ms(r2300.floor.wall)})`, r2300.cli.wall / r2300.floor.wall <= 1.3],
  ...(r23000 ? [['CLI ≤ 1.3× the parse floor (23,000 tools)', `${ratio(r23000.cli.wall, r23000.floor.wall)} (${ms(r23000.cli.wall)} vs ${ms(r23000.floor.wall)})`, r23000.cli.wall / r23000.floor.wall <= 1.3] as [string, string, boolean]] : []),
  [
    'Stretch: parse faster than `parseDocument` without losing a range',
    parseRuns.length ? parseRuns.map((p) => `${p.file.includes('23000') ? '23,000' : p.file.includes('2300') ? '2,300' : '230'} tools: ${p.ours} ms vs ${p.parseDocument} ms`).join('; ') + ' (identical trees: `test/fast-yaml.test.ts`)' : 'n/a',
    parseRuns.length ? parseRuns.every((p) => p.ours < p.parseDocument) : null,
  ],
  ['Linear growth 230 → 2,300 → 23,000', `time per tool beyond start-up, relative to the step before: ${growth(r230, r2300).toFixed(2)}${r23000 ? `, ${growth(r2300, r23000).toFixed(2)}` : ''} (1.00 = linear)`, growth(r230, r2300) <= 1.25 && (!r23000 || growth(r2300, r23000) <= 1.25)],
  [
    'Edit → diagnostics ≤ 30 ms median (2,300 tools), an edit that changes no finding',
    pr2300 && ed2300 ? `${pr2300.edit.text.median} ms (p90 ${pr2300.edit.text.p90} ms) with the server as its own process; its own work ${ed2300.engine.text.median} ms` : 'n/a',
    pr2300 ? pr2300.edit.text.median <= 30 : null,
  ],
  [
    'Edit → diagnostics ≤ 30 ms median (2,300 tools), an edit that changes a finding',
    pr2300 && ed2300
      ? `${pr2300.edit.finding.median} ms (p90 ${pr2300.edit.finding.p90} ms) with the server as its own process; its own work ${ed2300.engine.finding.median} ms, the rest is sending all ${ed2300.diagnostics.toLocaleString('en')} diagnostics again over JSON-RPC`
      : 'n/a',
    pr2300 ? pr2300.edit.finding.median <= 30 : null,
  ],
  [
    'Edit → diagnostics ≤ 30 ms median (230 tools)',
    pr230 ? `${pr230.edit.text.median} ms without a changed finding, ${pr230.edit.finding.median} ms with one (server process)` : 'n/a',
    pr230 ? pr230.edit.text.median <= 30 && pr230.edit.finding.median <= 30 : null,
  ],
  ['Hover ≤ 10 ms (2,300 tools)', ed2300 ? `${ed2300.hover.median} ms median (p90 ${ed2300.hover.p90} ms)` : 'n/a', ed2300 ? ed2300.hover.median <= 10 : null],
  ['Server memory ≤ 250 MB with the corpus indexed', mem ? `${mem.rssMB} MB RSS (${mem.rssDeltaMB} MB above the bench process's baseline of ${mem.baselineRssMB} MB)` : 'n/a', mem ? mem.rssMB <= 250 : null],
  ['`mcp-tool-lint --version` ≤ 150 ms', ms(version.wall), version.wall <= 150],
];

const table = (r: Row): string => {
  const sp = r.spectral;
  return `| ${r.input} | ${r.files} | ${kb(r.bytes)} | ${r.tools.toLocaleString('en')} | ${ms(r.cli.wall)} | ${mb(r.cli.rss)} | ${ms(r.floor.wall)} | ${mb(r.floor.rss)} | ${sp ? ms(sp.wall) : 'n/a'} | ${sp ? mb(sp.rss) : 'n/a'} | ${ratio(r.cli.wall, r.floor.wall)} | ${sp ? ratio(sp.wall, r.cli.wall) : 'n/a'} | ${r.cli.runs} |`;
};

const cpu = cpus();
const md = `# Benchmarks

Generated by \`npm run bench\` (\`bench/run.ts\`) on ${new Date().toISOString().slice(0, 10)}: do not edit by hand.

**Machine:** ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB RAM, Node ${process.version}, ${process.platform}.
A noisy shared box: every figure is a median of several whole-process runs, and every ratio compares
figures measured in the same run on the same machine, the commands taking turns run by run (a slow
spell of the box falls on all of them alike). How busy the box was:
load average ${loadAtStart.toFixed(2)} when the run started, and a bare \`node -e 0\` took ${ms(bareNode.wall)} (median); absolute
times move with both, ratios much less.

## What is measured

- **mcp-tool-lint**: \`node dist/cli.js -f json -o /dev/null <input>\`, a whole process
  (start-up, discovery, parse, all rules, report). Its V8 code cache is warm, as after any first
  run on a machine (the very first run compiles the bundle: about 40 ms more).
- **floor**: \`bench/floor.ts\` (bundled like the CLI) reads the same files and parses each with the
  fastest parser that keeps source offsets: \`yaml\`'s \`parseDocument\` for YAML, \`jsonc-parser\`'s
  \`parseTree\` for JSON (and \`.snap\`). No rules, no report: the lower bound for a linter that points at lines.
- **Spectral 6**: \`spectral lint\` with \`bench/spectral-ruleset.yaml\`, two rules equivalent in reach to
  \`system-field-exposed\` (by field name) and \`enum-unexplained\` (an enum without a description), on
  exactly the files the CLI read. Installed by the bench into \`.bench/spectral\`, never a dependency.
- Wall time is measured around the spawned process; peak memory is \`/usr/bin/time\`'s maximum RSS.
- **Inputs:** the real corpus (\`../shared/corpus\`, the ${corpus.files} files the CLI reads, ${corpus.tools.toLocaleString('en')} tools) and
  seeded generated YAML catalogues (\`bench/generate.ts\`) of ${sizes.map((n) => n.toLocaleString('en')).join(', ')} tools.

## Command line

| Input | Files | Size | Tools | mcp-tool-lint | peak RSS | floor | peak RSS | Spectral 6 | peak RSS | lint / floor | Spectral / lint | runs |
|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|
${rows.map(table).join('\n')}

\`mcp-tool-lint --version\`: ${ms(version.wall)} median, ${mb(version.rss)} peak RSS.

Per tool (CLI): ${rows.filter((r) => r.input !== 'corpus').map((r) => `${r.input}: ${(perTool(r) * 1000).toFixed(0)} µs`).join('; ')}.

![Wall time by catalogue size](images/bench-scaling.svg)

YAML parsing alone, in one warm process (\`bench/parse.ts\`, median of ${Math.max(3, RUNS)}): \`yaml\`'s \`parseDocument\` against the
engine's reader, which reads plain block YAML itself and hands anything else to the full parser
(\`server/src/engine/parse/fast-yaml.ts\`; \`test/fast-yaml.test.ts\` proves the same trees, offsets and data).

| File | parseDocument | mcp-tool-lint's reader | ratio |
|---|--:|--:|--:|
${parseRuns.map((p) => `| ${kb(p.bytes)} (${p.file.split('/').pop()}) | ${ms(p.parseDocument)} | ${ms(p.ours)}${p.fast ? '' : ' (full parser)'} | ${(p.parseDocument / p.ours).toFixed(1)}× faster |`).join('\n')}

### The corpus run, taken apart

The corpus is ${corpus.files} small files, mostly JSON, and ${corpus.tools.toLocaleString('en')} tools under the ${phaseTimes.filter((p) => !p.id.startsWith('(')).length} rules of the default configuration. The same run five ways
(medians of ${RUNS}):

| Run | Wall time | against the floor | CPU time (user + system, all threads) |
|---|--:|--:|--:|
| floor (read and parse only) | ${ms(corpus.floor.wall)} | 1.00× | ${cpuMs(corpus.floor)} |
| mcp-tool-lint with every rule off (discovery, parse, normalise, report) | ${ms(noRules.wall)} | ${ratio(noRules.wall, corpus.floor.wall)} | ${cpuMs(noRules)} |
| mcp-tool-lint with only the two rules Spectral's ruleset mirrors | ${ms(peerCorpus.wall)} | ${ratio(peerCorpus.wall, corpus.floor.wall)} | ${cpuMs(peerCorpus)} |
| mcp-tool-lint (the 24 default rules) | ${ms(corpus.cli.wall)} | ${ratio(corpus.cli.wall, corpus.floor.wall)} | ${cpuMs(corpus.cli)} |
| the same, V8's helper threads off (\`node --single-threaded\`) | ${ms(oneThread.wall)} | ${ratio(oneThread.wall, corpus.floor.wall)} | ${cpuMs(oneThread)} |

${corpus.cli.cpu ? `A full run keeps ${(corpus.cli.cpu / corpus.cli.wall).toFixed(1)} cores busy on average: V8 compiles the hot code and collects
garbage on threads of its own. Without those threads the run takes ${ratio(oneThread.wall, corpus.cli.wall)} as long. The box's second
core is already at work, so a second thread for the rules has nothing to run on here (tried: see
"Where the time goes").` : ''}

Inside the full run, by \`MCP_TOOL_LINT_TIMING=all\` (time of each rule, load and report phases):
${phaseTimes.length ? `load ${ms(phaseTimes.find((p) => p.id === '(load)')?.ms ?? 0)}, report ${ms(phaseTimes.find((p) => p.id === '(report)')?.ms ?? 0)}, the ${phaseTimes.filter((p) => !p.id.startsWith('(')).length} rules ${ms(rulesCold)}; the ten slowest rules:

| Rule | ms |
|---|--:|
${phaseTimes.filter((p) => !p.id.startsWith('(')).slice(0, 10).map((p) => `| \`${p.id}\` | ${Math.round(p.ms)} |`).join('\n')}` : 'not measured.'}

${warm ? `Is that the rules' work, or a cold process? \`bench/warm.ts\` lints the corpus in fresh processes three ways (medians of ${Math.max(3, Math.min(RUNS, 5))}):

| In the process | load | the rules |
|---|--:|--:|
| cold: the corpus is the first thing linted (the CLI) | ${ms(warm.cold.load)} | ${ms(warm.cold.rules)} |
| V8 warm: a generated catalogue linted three times first, so the code is compiled and optimised, but no text of the corpus is in a cache | ${ms(warm.jitWarm.load)} | ${ms(warm.jitWarm.rules)} (${Math.round(100 * (1 - warm.jitWarm.rules / warm.cold.rules))} % less) |
| again: the corpus linted a second time, every per-text cache full | ${ms(warm.again.load)} | ${ms(warm.again.rules)} |

Compiling and optimising the code is the smaller part of a cold run's rule time; most of it is
the rules reading the corpus's texts (below), which no warm-up removes: a second run is cheaper
only because every text's result is already cached.` : ''}

### Same work as the peer

Spectral's ruleset mirrors two of the 24 default rules. With only those two on
(\`--rule <id>=off\` for the others), both tools do the same checks on the same files:

| Input | mcp-tool-lint, the two rules | Spectral 6 | Spectral / lint | lint / floor |
|---|--:|--:|--:|--:|
${rows.filter((r) => peerOf(r) && r.spectral).map((r) => `| ${r.input} | ${ms(peerOf(r)!.wall)} | ${ms(r.spectral!.wall)} | ${ratio(r.spectral!.wall, peerOf(r)!.wall)} | ${ratio(peerOf(r)!.wall, r.floor.wall)} |`).join('\n')}

## Editor (language server)

Edits are one-line range changes, as editors send them, of two kinds: rewriting a tool's description
(no finding changes: most typing), and a typo in a parameter's \`type\` (a finding appears, so every
diagnostic of the file is sent again). The time runs from sending \`didChange\` to the answer of
\`textDocument/diagnostic\`, whose request names the previous result as VS Code does (the server answers
\`unchanged\` when it still holds). Three ways:

- **server process**: the shipped \`dist/server.js --stdio\` as its own process, the way an editor runs it;
- **in-process**: the LSP client of the tests (\`test/helpers/lsp.ts\`) and the server session in one
  process over JSON-RPC streams (client and server take turns on one thread);
- **server work**: the same kind of edit applied straight to that session's workspace (re-read the
  document, lint, convert to LSP diagnostics), without the protocol: what does not depend on how
  many diagnostics have to be sent.

Hover is on tool names, ${EDITS} per file.

| File | Diagnostics | First diagnostics (open) | Edit, no finding changed: server process | in-process | server work | Edit changing a finding: server process | in-process | server work | Hover median | p90 |
|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|
${[[ed230, pr230], [ed2300, pr2300]].filter(([e]) => e).map(([e, p]) => `| ${e!.file.includes('2300') ? '2,300' : '230'} tools (${kb(e!.bytes)}) | ${e!.diagnostics.toLocaleString('en')} | ${Math.round(e!.openMs)} ms | ${p ? `${p.edit.text.median} ms` : 'n/a'} | ${e!.edit.text.median} ms | ${e!.engine.text.median} ms | ${p ? `${p.edit.finding.median} ms` : 'n/a'} | ${e!.edit.finding.median} ms | ${e!.engine.finding.median} ms | ${e!.hover.median} ms | ${e!.hover.p90} ms |`).join('\n')}

Medians of ${EDITS} edits of each kind; p90s are in \`.bench/results.json\`. ${ed2300 ? `Of the edits, ${ed2300.incremental} of ${EDITS * 4} were re-read incrementally (one tool re-parsed) and ${ed2300.unchanged} answered \`unchanged\`.` : ''}

Memory with the whole corpus as the workspace folder (${mem ? `${mem.indexed.files} tool files, ${mem.indexed.tools} tools indexed in ${mem.indexMs} ms` : 'not measured'}):
${mem ? `${mem.rssMB} MB RSS for the whole process after GC, of which ${mem.rssDeltaMB} MB above the process before the server started (${mem.baselineRssMB} MB: Node, tsx and the client); JS heap ${mem.heapUsedMB} MB (+${mem.heapDeltaMB} MB).` : ''}

## Targets

| Target | Measured | Status |
|---|---|---|
${targets.map(([t, m, ok]) => `| ${t} | ${m} | ${yes(ok)} |`).join('\n')}

## Where the time goes

${readNotes()}
`;

function readNotes(): string {
  const p = join(ROOT, 'bench/NOTES.md');
  return existsSync(p) ? readFileSync(p, 'utf8').trim() : '_No analysis written yet (bench/NOTES.md)._';
}

// --- Chart -----------------------------------------------------------------------------------
function chart(): string {
  const gen = rows.filter((r) => r.input !== 'corpus');
  const series: [string, string, (r: Row) => number | null][] = [
    ['mcp-tool-lint', '#1f77b4', (r) => r.cli.wall],
    ['floor (parse only)', '#2ca02c', (r) => r.floor.wall],
    ['Spectral 6', '#d62728', (r) => r.spectral?.wall ?? null],
  ];
  const W = 640, H = 360, L = 70, B = 300, T = 40, gw = (W - L - 20) / gen.length, bw = gw / 4;
  // Log scale: the sizes grow 10× each step, so equal steps mean linear growth.
  const all = gen.flatMap((r) => series.map(([, , f]) => f(r)).filter((x): x is number => x != null));
  const lo = Math.pow(10, Math.floor(Math.log10(Math.min(...all)))), hi = Math.pow(10, Math.ceil(Math.log10(Math.max(...all))));
  const y = (v: number): number => B - ((Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * (B - T);
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  parts.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  parts.push(`<text x="${W / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">Cold wall time by catalogue size (median, log scale)</text>`);
  for (let v = lo; v <= hi; v *= 10) {
    parts.push(`<line x1="${L}" x2="${W - 20}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`);
    parts.push(`<text x="${L - 6}" y="${y(v) + 4}" text-anchor="end">${v >= 1000 ? `${v / 1000} s` : `${v} ms`}</text>`);
  }
  gen.forEach((r, i) => {
    const x0 = L + i * gw + bw / 2;
    series.forEach(([name, color, f], k) => {
      const v = f(r);
      if (v == null) return;
      const x = x0 + k * bw;
      parts.push(`<rect x="${x}" y="${y(v)}" width="${bw - 4}" height="${B - y(v)}" fill="${color}"><title>${name}: ${ms(v)}</title></rect>`);
      parts.push(`<text x="${x + (bw - 4) / 2}" y="${y(v) - 4}" text-anchor="middle" font-size="10">${v >= 1000 ? (v / 1000).toFixed(1) + ' s' : Math.round(v)}</text>`);
    });
    parts.push(`<text x="${x0 + 1.5 * bw}" y="${B + 18}" text-anchor="middle">${r.input}</text>`);
  });
  parts.push(`<line x1="${L}" x2="${W - 20}" y1="${B}" y2="${B}" stroke="#333"/>`);
  series.forEach(([name, color], k) => {
    const x = L + k * 170;
    parts.push(`<rect x="${x}" y="${H - 24}" width="12" height="12" fill="${color}"/><text x="${x + 18}" y="${H - 14}">${name}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}

mkdirSync(join(ROOT, 'docs/images'), { recursive: true });
writeFileSync(join(ROOT, 'docs/images/bench-scaling.svg'), chart());
writeFileSync(join(ROOT, 'docs/BENCHMARKS.md'), md);
writeFileSync(join(BENCH, 'results.json'), JSON.stringify({ loadAtStart, bareNode, rows, peerRows: Object.fromEntries(peerRows), version, noRules, oneThread, phaseTimes, warm, ed230, ed2300, pr230, pr2300, mem, parseRuns }, null, 2));
rmSync(join(BENCH, 'rss.txt'), { force: true });
log('wrote docs/BENCHMARKS.md and docs/images/bench-scaling.svg');
