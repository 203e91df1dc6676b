/**
 * The real-world corpus (../shared/corpus): every file loads or says why it is not a tool file,
 * nothing crashes, and per-source tool counts and findings are recorded in a snapshot so any
 * change in findings shows up in review. Update with UPDATE_SNAPSHOTS=1 npm test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLint } from '../server/src/node/run';

const CORPUS = join(__dirname, '..', '..', 'shared', 'corpus');
const SNAPSHOT = join(__dirname, 'snapshots', 'corpus.json');
const skip = existsSync(CORPUS) ? false : `the corpus is not at ${CORPUS}; these tests need ../shared/corpus beside the repository`;

interface SourceStats {
  files: number;
  tools: number;
  formats: Record<string, number>;
  notToolFiles: Record<string, string>;
  findings: Record<string, number>;
}

test('linting the whole corpus: no internal error, snapshot of counts and findings', { skip }, () => {
  const out = runLint({ cwd: CORPUS, paths: ['.'] });
  assert.deepEqual(out.result.internalErrors, []);
  const stats: Record<string, SourceStats> = {};
  for (const fr of out.result.results) {
    const source = fr.file.path.split('/')[0];
    const s = (stats[source] ??= { files: 0, tools: 0, formats: {}, notToolFiles: {}, findings: {} });
    s.files++;
    s.tools += fr.file.tools.length;
    s.formats[fr.file.format] = (s.formats[fr.file.format] ?? 0) + 1;
    if (fr.file.kind === 'unknown') {
      assert.ok(fr.file.reason, `${fr.file.path}: an unknown file must say why`);
      s.notToolFiles[fr.file.path.split('/').slice(1).join('/')] = fr.file.reason!;
    }
    for (const d of fr.diagnostics) {
      assert.ok(d.range.start.line >= 1 && d.offset + d.length <= fr.file.text.length, `${fr.file.path}: range outside the file`);
      s.findings[d.rule] = (s.findings[d.rule] ?? 0) + 1;
    }
  }
  // Sorted keys make the snapshot diff-friendly.
  const sorted = JSON.parse(JSON.stringify(stats, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v)));
  if (process.env.UPDATE_SNAPSHOTS || !existsSync(SNAPSHOT)) writeFileSync(SNAPSHOT, JSON.stringify(sorted, null, 2) + '\n');
  const expected = JSON.parse(readFileSync(SNAPSHOT, 'utf8'));
  assert.deepEqual(sorted, expected, 'corpus findings changed: review, then UPDATE_SNAPSHOTS=1 npm test');
});

test('per-source tool counts match the corpus documentation', { skip }, () => {
  const out = runLint({ cwd: CORPUS, paths: ['.'] });
  const tools: Record<string, number> = {};
  for (const fr of out.result.results) {
    const source = fr.file.path.split('/')[0];
    tools[source] = (tools[source] ?? 0) + fr.file.tools.length;
  }
  // From SOURCES.md (newest copies and older versions).
  const documented: Record<string, number> = {
    'rhesis-ai__rhesis': 52,
    'rhesis-ai__rhesis@34ec0a38': 20,
    'rhesis-ai__rhesis@656f5501': 23,
    dipterix__ravepipeline: 18,
    'dipterix__ravepipeline@d5ca4810': 16,
    dipterix__tricobbler: 16,
    'rave-ieeg__rave-pipelines': 1,
    'raw-labs__raw-labs-claude-marketplace': 46,
    'github__github-mcp-server': 117,
    'docker__mcp-registry': 760,
    PostHog__mcp: 44,
    'icip-cas__LiveMCPBench': 527,
    'aipotheosis-labs__aci': 987,
    microsoft__mcp: 131,
    'microsoft__mcp@2c930f6f': 180,
    'jakemannix__mcp-proxy': 83,
    'mims-harvard__ToolUniverse': 214,
  };
  assert.deepEqual(tools, documented);
});

test('provider profiles on the corpus: findings per rule and source, recorded for review', { skip }, async () => {
  const { mkdtempSync, writeFileSync: write } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const cfg = join(mkdtempSync(join(tmpdir(), 'mtl-prov-')), 'providers.yaml');
  write(cfg, 'extends: [recommended, openai, anthropic, gemini]\n');
  const out = runLint({ cwd: CORPUS, paths: ['.'], configPath: cfg });
  assert.deepEqual(out.result.internalErrors, []);
  const PROVIDER_RULES = ['tool-count-exceeded', 'token-budget-exceeded', 'schema-strict-incompatible', 'schema-provider-unsupported', 'tool-name-invalid'];
  const counts: Record<string, Record<string, number>> = {};
  for (const fr of out.result.results) {
    for (const d of fr.diagnostics) {
      if (!PROVIDER_RULES.includes(d.rule)) continue;
      const source = fr.file.path.split('/')[0];
      const byRule = (counts[d.rule] ??= {});
      byRule[source] = (byRule[source] ?? 0) + 1;
    }
  }
  const sorted = JSON.parse(JSON.stringify(counts, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v)));
  const file = join(__dirname, 'snapshots', 'corpus-providers.json');
  if (process.env.UPDATE_SNAPSHOTS || !existsSync(file)) writeFileSync(file, JSON.stringify(sorted, null, 2) + '\n');
  assert.deepEqual(sorted, JSON.parse(readFileSync(file, 'utf8')), 'provider findings changed: review, then UPDATE_SNAPSHOTS=1 npm test');
  for (const r of PROVIDER_RULES.slice(0, 4)) assert.ok(r in sorted, `${r} finds nothing on the corpus`);
});
