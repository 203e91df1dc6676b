import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadText } from '../server/src/engine/load';
import { lint, ToolResultCache } from '../server/src/engine/runner';
import { defaultConfig, ruleSettings } from '../server/src/engine/config';
import type { Rule } from '../server/src/engine/rules/api';
import { allRules } from '../server/src/engine/rules';

const settingsFor = () => ruleSettings(defaultConfig(), null);
const sig = (r: ReturnType<typeof lint>) => r.results.flatMap((fr) => fr.diagnostics.map((d) => `${fr.file.path} ${d.rule} ${d.range.start.line}:${d.range.start.column} ${d.message}`));

function catalog(n: number, changed = -1): string {
  let s = 'tools:\n';
  for (let i = 0; i < n; i++) s += `  - name: tool_${i}\n    description: ${i === changed ? '' : 'Does thing ' + i + '.'}\n    inputSchema:\n      type: object\n      properties:\n        p${i}: {type: ${i % 7 === 0 ? 'str' : 'string'}, description: x}\n`;
  return s;
}

test('the per-tool cache re-checks only the tool that changed, with the same results as a full run', () => {
  const cache = new ToolResultCache();
  lint([loadText('t.yaml', catalog(50))], { settingsFor, cache });
  const missesAfterFirst = cache.misses;
  const edited = loadText('t.yaml', catalog(50, 3));
  const withCache = lint([edited], { settingsFor, cache });
  // Only the tool rules that are switched on run (provider profiles are opt-in).
  const toolRules = allRules().filter((r) => r.checkTool && settingsFor().get(r.meta.id)!.severity !== 'off').length;
  assert.equal(cache.misses - missesAfterFirst, toolRules, 'only the edited tool missed the cache');
  assert.deepEqual(sig(withCache), sig(lint([loadText('t.yaml', catalog(50, 3))], { settingsFor })));
  assert.ok(sig(withCache).some((s) => s.includes('tool_3')), 'the change is reported');
});

test('a tool that moves keeps its cached findings at its new position', () => {
  const cache = new ToolResultCache();
  const a = catalog(5);
  lint([loadText('t.yaml', a)], { settingsFor, cache });
  const shifted = a.replace('tools:\n', 'tools:\n  - name: new_first\n    description: First.\n    inputSchema: {type: object}\n');
  assert.deepEqual(sig(lint([loadText('t.yaml', shifted)], { settingsFor, cache })), sig(lint([loadText('t.yaml', shifted)], { settingsFor })));
});

test('a rule that throws is reported once as an internal problem; the other rules go on', () => {
  const rules = allRules() as Rule[];
  const boom: Rule = { meta: { ...rules[2].meta, id: 'boom-rule' }, checkTool: () => { throw new Error('kaboom'); } };
  (rules as Rule[]).push(boom);
  try {
    const res = lint([loadText('t.yaml', catalog(3)), loadText('u.yaml', catalog(2))], { settingsFor: () => { const s = ruleSettings(defaultConfig(), null); s.set('boom-rule', { severity: 'error', options: {} }); return s; } });
    assert.equal(res.internalErrors.length, 1);
    assert.match(res.internalErrors[0], /rule `boom-rule` failed on t\.yaml: kaboom/);
    const all = res.results.flatMap((r) => r.diagnostics);
    assert.equal(all.filter((d) => d.rule === 'internal-error').length, 1);
    assert.ok(all.some((d) => d.rule === 'schema-invalid'), 'other rules still ran');
  } finally {
    (rules as Rule[]).pop();
  }
});

test('after a syntax error or duplicate key the rest of the file is still linted', () => {
  const yaml = 'tools:\n  - name: a\n    description: d\n    description: e\n    inputSchema: {type: object, properties: {x: {type: str}}}\n  - name: b c\n    description: "unterminated\n';
  const res = lint([loadText('t.yaml', yaml)], { settingsFor });
  const rules = new Set(res.results[0].diagnostics.map((d) => d.rule));
  for (const r of ['duplicate-key', 'parse-error', 'schema-invalid']) assert.ok(rules.has(r), `${r} missing: ${[...rules]}`);
  const json = '{"name": "a", "description": "d", "inputSchema": {"type": "object", "properties": {"x": {"type": "str"}}}, "extra": }';
  const rj = lint([loadText('t.json', json)], { settingsFor });
  const rulesJ = new Set(rj.results[0].diagnostics.map((d) => d.rule));
  assert.ok(rulesJ.has('parse-error') && rulesJ.has('schema-invalid'), [...rulesJ].join());
});

test('the per-tool cache keeps a catalogue larger than its bound from run to run, and stays bounded', () => {
  const cache = new ToolResultCache();
  // Three catalogues of 12,000 tools: together over the bound, each more than half of it.
  const make = (prefix: string) => loadText(`${prefix}.yaml`, catalog(12_000).replace(/tool_/g, `${prefix}_`));
  for (const p of ['a', 'b', 'c']) lint([make(p)], { settingsFor, cache });
  lint([make('c')], { settingsFor, cache });
  const missesBefore = cache.misses;
  lint([make('c')], { settingsFor, cache });
  assert.equal(cache.misses, missesBefore, 'the catalogue in use is still cached whole');
  // Three catalogues of entries at most: the generation in use and the one before it.
  assert.ok(cache.size <= 36_000, `bounded (${cache.size} entries)`);
  for (const p of ['d', 'e']) lint([make(p)], { settingsFor, cache });
  assert.ok(cache.size <= 2 * 24_000 + 12_000, `still bounded after more catalogues (${cache.size} entries)`);
});
