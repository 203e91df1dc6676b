/**
 * Seed 000's documented failures, written as a catalogue from its parameter tables: every
 * agent-pitfall rule fires on it, and on the same catalogue with the seed's recommended
 * improvements applied none of them does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadText } from '../server/src/engine/load';
import { lint } from '../server/src/engine/runner';
import { defaultConfig, ruleSettings } from '../server/src/engine/config';

const dir = join(__dirname, 'fixtures', 'seed000');
const PITFALL_RULES = ['system-field-exposed', 'enum-unexplained', 'enum-implicit', 'id-source-missing', 'tool-reference-unknown', 'required-mismatch', 'array-required-empty', 'array-empty-vs-null'];

function findings(name: string) {
  const file = loadText(name, readFileSync(join(dir, name), 'utf8'));
  const res = lint([file], { settingsFor: () => ruleSettings(defaultConfig(), null) });
  assert.deepEqual(res.internalErrors, []);
  return res.results[0].diagnostics;
}

test('before: each pitfall rule fires on the failures the seed documents', () => {
  const ds = findings('before.yaml');
  const has = (rule: string, tool: string, parameter: string | null) => ds.some((d) => d.rule === rule && d.tool === tool && d.parameter === parameter);
  const expect: [string, string, string | null][] = [
    ['system-field-exposed', 'create_project', 'organization_id'],
    ['system-field-exposed', 'create_project', 'nano_id'],
    ['system-field-exposed', 'create_test_set_bulk', 'assignee_id'],
    ['system-field-exposed', 'create_test_set_bulk', 'tests[].owner_id'],
    ['system-field-exposed', 'create_metric', 'status_id'],
    ['enum-unexplained', 'create_metric', 'score_type'],
    ['enum-unexplained', 'create_metric', 'threshold_operator'],
    ['enum-implicit', 'create_test_set_bulk', 'priority'],
    ['enum-implicit', 'create_test_set_bulk', 'tests[].priority'],
    ['id-source-missing', 'create_test_configuration', 'endpoint_id'],
    ['id-source-missing', 'create_test_configuration', 'test_set_id'],
    ['id-source-missing', 'execute_test_configuration', 'test_configuration_id'],
    ['required-mismatch', 'create_metric', 'metric_scope'],
    ['array-required-empty', 'create_test_set_bulk', 'tests'],
    ['array-empty-vs-null', 'create_metric', 'categories'],
  ];
  for (const [rule, tool, param] of expect) assert.ok(has(rule, tool, param), `${rule} did not fire on ${tool}.${param}`);
  assert.ok(ds.some((d) => d.rule === 'tool-reference-unknown' && d.tool === 'create_test_configuration'), 'tool-reference-unknown did not fire');
  for (const rule of PITFALL_RULES) assert.ok(ds.some((d) => d.rule === rule), `${rule} never fires on the seed catalogue`);
  // Targets and read tools are left alone.
  assert.ok(!has('system-field-exposed', 'get_test_run', 'test_run_id'));
  assert.ok(!ds.some((d) => d.rule === 'system-field-exposed' && d.tool?.startsWith('list_')));
});

test('after: with the recommended improvements applied, no pitfall rule fires', () => {
  const ds = findings('after.yaml').filter((d) => PITFALL_RULES.includes(d.rule));
  assert.deepEqual(
    ds.map((d) => `${d.rule} ${d.tool}.${d.parameter}: ${d.message}`),
    [],
  );
});

test('before: applying every fix leaves a catalogue that parses, keeps its comments, and converges', async () => {
  const { runLint } = await import('../server/src/node/run');
  const { mkdtempSync, writeFileSync, readFileSync: rf } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const tmp = mkdtempSync(join(tmpdir(), 'seed-'));
  const original = readFileSync(join(dir, 'before.yaml'), 'utf8');
  writeFileSync(join(tmp, 'before.yaml'), original);
  const first = runLint({ cwd: tmp, paths: ['.'], fix: 'write' });
  const after1 = rf(join(tmp, 'before.yaml'), 'utf8');
  assert.notEqual(after1, original, 'some fix applied');
  assert.ok(after1.startsWith('# The 20-tool catalogue'), 'the leading comment survives');
  assert.deepEqual(first.result.results[0].diagnostics.filter((d) => d.rule === 'parse-error'), []);
  assert.ok(first.result.results[0].diagnostics.every((d) => !d.fix), 'no fixable finding remains');
  runLint({ cwd: tmp, paths: ['.'], fix: 'write' });
  assert.equal(rf(join(tmp, 'before.yaml'), 'utf8'), after1, 'a second --fix changes nothing');
});
