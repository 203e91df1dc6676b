/**
 * Precision review of rules on the real-world corpus (../shared/corpus).
 *
 *   npm run precision            draw the sample (docs/precision/sample.json) and write docs/precision.md
 *   npm run precision -- --check fail when the sample is stale, a sampled finding has no verdict,
 *                                or a rule is below 90% right
 *
 * The sample holds up to 50 findings per rule, chosen by a seeded hash of each finding's identity
 * (rule, file, pointer, message): a change in findings changes the sample only where it must.
 * Verdicts are written by hand, one file per rule: docs/precision/verdicts/<rule>.json, holding
 * {"<id>": {"verdict": "right" | "wrong", "reason": "…"}}.
 *
 *   npm run precision -- --print RULE   print that rule's sample (with source excerpts) as JSON and
 *                                       the ids still without a verdict; writes nothing
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLint } from '../server/src/node/run';

export const SEED = 'mcp-tool-lint-precision-2026';
export const PER_RULE = 50;
export const TARGET = 0.9;
/** Rules under review: the agent-pitfall rules (Part 2) and the safety rules as they land. */
export const REVIEWED = [
  'system-field-exposed',
  'enum-unexplained',
  'enum-implicit',
  'id-source-missing',
  'tool-reference-unknown',
  'required-mismatch',
  'array-required-empty',
  'array-empty-vs-null',
  // Safety rules (Part 5): every description-injection finding is reviewed (the sample is all of them while under 50).
  'description-injection',
  'description-hidden-chars',
  'tool-shadowing',
  'annotation-destructive-missing',
  'annotation-contradiction',
];

const ROOT = join(__dirname, '..');
const CORPUS = join(ROOT, '..', 'shared', 'corpus');
const SAMPLE = join(ROOT, 'docs', 'precision', 'sample.json');
const VERDICTS_DIR = join(ROOT, 'docs', 'precision', 'verdicts');
const REPORT = join(ROOT, 'docs', 'precision.md');

export interface Sampled {
  id: string;
  rule: string;
  file: string;
  line: number;
  column: number;
  tool: string | null;
  parameter: string | null;
  message: string;
  excerpt: string;
}

export function drawSample(): { sample: Sampled[]; totals: Record<string, number> } {
  const out = runLint({ cwd: CORPUS, paths: ['.'] });
  const byRule = new Map<string, (Sampled & { rank: string })[]>();
  const totals: Record<string, number> = {};
  for (const fr of out.result.results) {
    const lines = fr.file.text.split(/\r?\n/);
    for (const d of fr.diagnostics) {
      if (!REVIEWED.includes(d.rule)) continue;
      totals[d.rule] = (totals[d.rule] ?? 0) + 1;
      const id = createHash('sha1').update(`${d.rule}\0${fr.file.path}\0${d.pointer}\0${d.message}`).digest('hex').slice(0, 12);
      const rank = createHash('sha1').update(SEED + id).digest('hex');
      const l = d.range.start.line - 1;
      const excerpt = lines
        .slice(Math.max(0, l - 3), l + 4)
        .map((t, i) => `${Math.max(0, l - 3) + i + 1}${Math.max(0, l - 3) + i === l ? '>' : ' '} ${t.length > 240 ? t.slice(0, 240) + '…' : t}`)
        .join('\n');
      const list = byRule.get(d.rule) ?? [];
      list.push({ id, rank, rule: d.rule, file: fr.file.path, line: d.range.start.line, column: d.range.start.column, tool: d.tool, parameter: d.parameter, message: d.message, excerpt });
      byRule.set(d.rule, list);
    }
  }
  const sample: Sampled[] = [];
  for (const rule of REVIEWED) {
    const list = (byRule.get(rule) ?? []).sort((a, b) => (a.rank < b.rank ? -1 : 1)).slice(0, PER_RULE);
    for (const { rank: _rank, ...s } of list.sort((a, b) => (a.file + a.line < b.file + b.line ? -1 : 1))) sample.push(s);
  }
  return { sample, totals };
}

type Verdicts = Record<string, { verdict: 'right' | 'wrong'; reason: string }>;

function loadVerdicts(): Verdicts {
  const out: Verdicts = {};
  if (!existsSync(VERDICTS_DIR)) return out;
  for (const f of readdirSync(VERDICTS_DIR).filter((n) => n.endsWith('.json')).sort()) Object.assign(out, JSON.parse(readFileSync(join(VERDICTS_DIR, f), 'utf8')));
  return out;
}

export function report(sample: Sampled[], totals: Record<string, number>, verdicts: Verdicts): { text: string; problems: string[] } {
  const problems: string[] = [];
  const rows: string[] = [];
  const summary: string[] = ['| rule | findings on the corpus | sampled | right | wrong | unreviewed | precision |', '|---|---:|---:|---:|---:|---:|---:|'];
  for (const rule of REVIEWED) {
    const items = sample.filter((s) => s.rule === rule);
    let right = 0;
    let wrong = 0;
    let open = 0;
    rows.push(`\n### ${rule}\n`, '| # | where | finding | verdict | reason |', '|---|---|---|---|---|');
    items.forEach((s, i) => {
      const v = verdicts[s.id];
      if (!v) open++;
      else if (v.verdict === 'right') right++;
      else wrong++;
      const where = `\`${s.file}:${s.line}\`${s.tool ? ` ${s.tool}` : ''}${s.parameter ? `.${s.parameter}` : ''}`;
      rows.push(`| ${i + 1} | ${where} | ${s.message.replace(/\|/g, '\\|').replace(/\n/g, ' ')} | ${v ? v.verdict : '—'} | ${v ? v.reason.replace(/\|/g, '\\|') : ''} |`);
    });
    const reviewed = right + wrong;
    const p = reviewed ? right / reviewed : NaN;
    summary.push(`| \`${rule}\` | ${totals[rule] ?? 0} | ${items.length} | ${right} | ${wrong} | ${open} | ${reviewed ? (p * 100).toFixed(0) + '%' : '—'} |`);
    if (open) problems.push(`${rule}: ${open} sampled finding(s) without a verdict`);
    if (reviewed && p < TARGET) problems.push(`${rule}: precision ${(p * 100).toFixed(0)}% is below ${TARGET * 100}%`);
  }
  const text = [
    '# Precision on real catalogues',
    '',
    'Each agent-pitfall and safety rule was run over the real-world corpus (`../shared/corpus`: about 3,000 tool',
    'definitions from 14 public repositories). Up to 50 findings per rule were drawn at random',
    `(seeded: \`${SEED}\`, by a hash of each finding's identity, so the sample is reproducible) by`,
    '`scripts/precision.ts`; the sample is committed in `docs/precision/sample.json`. Each sampled',
    'finding was read with its source and judged right (a real problem an agent would trip on, reported',
    'at the right place) or wrong, with a one-line reason, in `docs/precision/verdicts/<rule>.json`. A rule',
    'below 90% right is tightened, never the sample. `npm run precision` redraws the sample and this page;',
    'a test fails when the sample is stale or a verdict is missing.',
    '',
    '## Summary',
    '',
    ...summary,
    '',
    '## Findings reviewed',
    ...rows,
    '',
  ].join('\n');
  return { text, problems };
}

if (require.main === module) {
  if (!existsSync(CORPUS)) {
    console.error(`the corpus is not at ${CORPUS}`);
    process.exit(2);
  }
  const check = process.argv.includes('--check');
  const { sample, totals } = drawSample();
  const verdicts = loadVerdicts();
  const pi = process.argv.indexOf('--print');
  if (pi > 0) {
    const rule = process.argv[pi + 1];
    const items = sample.filter((x) => x.rule === rule);
    process.stdout.write(JSON.stringify({ rule, total: totals[rule] ?? 0, unreviewed: items.filter((x) => !verdicts[x.id]).map((x) => x.id), sample: items }, null, 2) + '\n');
    process.exit(0);
  }
  const { text, problems } = report(sample, totals, verdicts);
  const sampleText = JSON.stringify({ seed: SEED, perRule: PER_RULE, totals, sample }, null, 2) + '\n';
  if (check) {
    if (!existsSync(SAMPLE) || readFileSync(SAMPLE, 'utf8') !== sampleText) problems.unshift('docs/precision/sample.json is stale: run `npm run precision` and review the new items');
    if (!existsSync(REPORT) || readFileSync(REPORT, 'utf8') !== text) problems.unshift('docs/precision.md is stale: run `npm run precision`');
    for (const p of problems) console.error(p);
    process.exit(problems.length ? 1 : 0);
  }
  mkdirSync(VERDICTS_DIR, { recursive: true });
  writeFileSync(SAMPLE, sampleText);
  writeFileSync(REPORT, text);
  for (const p of problems) console.error(p);
  console.log(`sampled ${sample.length} findings; totals ${JSON.stringify(totals)}`);
}
