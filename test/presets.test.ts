/**
 * The provider profiles (`openai`, `anthropic`, `gemini`): opt-in presets that switch the
 * provider rules on with each API's limits, on top of `recommended`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig, PRESETS, ruleSettings, validateOptions, type RuleSetting } from '../server/src/engine/config';
import { loadText } from '../server/src/engine/load';
import { lint } from '../server/src/engine/runner';
import { allRules } from '../server/src/engine/rules';

const PROVIDER_RULES = ['tool-count-exceeded', 'token-budget-exceeded', 'schema-strict-incompatible', 'schema-provider-unsupported'];

function settings(yaml: string): Map<string, RuleSetting> {
  return ruleSettings(parseConfig(yaml, '/project/.mcp-tool-lint.yaml'), '/project/tools.yaml');
}

function on(s: Map<string, RuleSetting>): string[] {
  return PROVIDER_RULES.filter((id) => s.get(id)!.severity !== 'off');
}

/** Rule, message and position of each finding of the given rules on one file under a config. */
function findings(configYaml: string, code: string, rules: string[]): string[] {
  const cfg = parseConfig(configYaml, '/project/.mcp-tool-lint.yaml');
  const file = loadText('/project/tools.yaml', code, { explicit: true });
  const res = lint([file], { settingsFor: () => ruleSettings(cfg, '/project/tools.yaml') });
  assert.deepEqual(res.internalErrors, []);
  return res.results[0].diagnostics.filter((d) => rules.includes(d.rule)).map((d) => `${d.range.start.line}:${d.range.start.column} ${d.rule} ${d.message}`);
}

test('the provider rules are off by default and not in `recommended`', () => {
  for (const id of PROVIDER_RULES) assert.equal(allRules().find((r) => r.meta.id === id)!.meta.recommended, false, id);
  assert.deepEqual(on(settings('extends: [recommended]\n')), []);
});

test('every option a preset sets is valid for its rule', () => {
  for (const p of Object.values(PRESETS)) {
    for (const [id, s] of Object.entries(p.rules())) {
      assert.ok(allRules().some((r) => r.meta.id === id), `${p.name}: unknown rule ${id}`);
      if (s.options) validateOptions(id, s.options, (msg) => new Error(`${p.name} → ${id}: ${msg}`));
    }
  }
});

test('`extends: [recommended, openai]` switches on the OpenAI limits', () => {
  const s = settings('extends: [recommended, openai]\n');
  assert.deepEqual(on(s), PROVIDER_RULES);
  assert.deepEqual(s.get('tool-count-exceeded')!.options, { providers: ['openai'], max: null, scope: 'server' });
  assert.deepEqual(s.get('schema-provider-unsupported')!.options, { providers: ['openai'] });
  assert.deepEqual(s.get('token-budget-exceeded')!.options, { budget: 10000, layout: 'markdown', scope: 'server' });
  // OpenAI's name rule is the default pattern.
  assert.deepEqual(s.get('tool-name-invalid'), { severity: 'error', options: { pattern: '^[a-zA-Z0-9_-]{1,64}$', maxLength: 64 } });
  // Recommended rules stay on.
  assert.equal(s.get('enum-unexplained')!.severity, 'warning');
});

test('`anthropic` has no tool-count limit to check and no strict mode', () => {
  const s = settings('extends: [recommended, anthropic]\n');
  assert.deepEqual(on(s), ['token-budget-exceeded', 'schema-provider-unsupported']);
  assert.deepEqual(s.get('schema-provider-unsupported')!.options, { providers: ['anthropic'] });
});

test('`gemini` tightens the tool name pattern: names start with a letter or `_`', () => {
  const s = settings('extends: [recommended, gemini]\n');
  assert.deepEqual(on(s), ['tool-count-exceeded', 'token-budget-exceeded', 'schema-provider-unsupported']);
  assert.deepEqual(s.get('tool-name-invalid')!.options, { pattern: '^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$', maxLength: 64 });
  const code = 'tools:\n  - name: 3d_render\n    description: d\n    inputSchema: {type: object}\n  - name: _render\n    description: d\n    inputSchema: {type: object}\n';
  assert.deepEqual(findings('extends: [recommended, gemini]\n', code, ['tool-name-invalid']), ['2:11 tool-name-invalid Tool name `3d_render` does not match `^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`']);
  assert.deepEqual(findings('extends: [recommended, openai]\n', code, ['tool-name-invalid']), []);
});

test('a preset works without `recommended`', () => {
  const s = settings('extends: [openai]\n');
  assert.deepEqual(on(s), PROVIDER_RULES);
  assert.equal(s.get('tool-name-invalid')!.severity, 'error');
  assert.equal(s.get('enum-unexplained')!.severity, 'off');
});

test('each profile reports what its API rejects, and only that', () => {
  const code = `tools:
  - name: find_notes
    description: Find notes.
    inputSchema:
      type: object
      properties:
        query: {type: string}
        limit: {type: [integer, "null"]}
      additionalProperties: false
`;
  const rules = ['schema-provider-unsupported', 'schema-strict-incompatible'];
  assert.deepEqual(findings('extends: [recommended, anthropic]\n', code, rules), []);
  assert.deepEqual(findings('extends: [recommended, openai]\n', code, rules), [
    '7:9 schema-strict-incompatible Property `query` is optional; OpenAI strict mode needs every property in `required` (optional ones nullable)',
    '8:9 schema-strict-incompatible Property `limit` is optional; OpenAI strict mode needs every property in `required` (optional ones nullable)',
  ]);
  assert.deepEqual(findings('extends: [recommended, gemini]\n', code, rules), [
    "8:23 schema-provider-unsupported `type` lists several types; Gemini takes one type per schema (`nullable: true` for null)",
    "9:7 schema-provider-unsupported `additionalProperties` is not a field of Gemini's function schema and fails the request",
  ]);
});

test('combining presets: each one adds the rules it owns', () => {
  const s = settings('extends: [recommended, openai, anthropic, gemini]\n');
  assert.deepEqual(on(s), PROVIDER_RULES);
  assert.equal(s.get('schema-strict-incompatible')!.severity, 'warning');
  // The strictest name pattern of the three (Gemini's start rule within OpenAI's and Anthropic's characters).
  assert.equal(s.get('tool-name-invalid')!.options.pattern, '^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$');
});

test('user `rules` override a preset: severity, and options that name several providers', () => {
  const s = settings(
    'extends: [recommended, openai, anthropic, gemini]\nrules:\n  schema-strict-incompatible: off\n  schema-provider-unsupported: [error, {providers: [openai, anthropic, gemini]}]\n  token-budget-exceeded: [warning, {budget: 4000}]\n',
  );
  assert.equal(s.get('schema-strict-incompatible')!.severity, 'off');
  assert.deepEqual(s.get('schema-provider-unsupported'), { severity: 'error', options: { providers: ['openai', 'anthropic', 'gemini'] } });
  assert.equal(s.get('token-budget-exceeded')!.options.budget, 4000);
  // A severity alone keeps the preset's options.
  const t = settings('extends: [recommended, gemini]\nrules:\n  tool-count-exceeded: error\n');
  assert.deepEqual(t.get('tool-count-exceeded'), { severity: 'error', options: { providers: ['gemini'], max: null, scope: 'server' } });
});

test('an unknown provider in the options is a config error', () => {
  assert.throws(() => parseConfig('rules:\n  tool-count-exceeded: [warning, {providers: [mistral]}]\n', '/p/.mcp-tool-lint.yaml'), /providers/);
});

test('combining presets accumulates their providers; a later preset without options keeps earlier ones', () => {
  const s = settings('extends: [recommended, openai, anthropic, gemini]\n');
  assert.deepEqual(s.get('schema-provider-unsupported')!.options.providers, ['openai', 'anthropic', 'gemini']);
  const g = settings('extends: [gemini, recommended]\n');
  assert.equal(g.get('tool-name-invalid')!.options.pattern, '^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$');
});
