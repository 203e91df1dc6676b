import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadText } from '../../server/src/engine/load';
import { lint } from '../../server/src/engine/runner';
import { defaultConfig, ruleSettings } from '../../server/src/engine/config';
import { ruleTester, runRule } from '../helpers/rule-tester';

/** A catalogue of `n` tools, one flow mapping a line (tool `i` is on line `i + 2`). */
const yamlTools = (n: number, prefix = 'op'): string =>
  'tools:\n' + Array.from({ length: n }, (_, i) => `  - {name: ${prefix}_${i}, description: Does thing ${i}., inputSchema: {type: object}}\n`).join('');

const jsonTools = (n: number): string =>
  '{"tools": [\n' + Array.from({ length: n }, (_, i) => `  {"name": "op_${i}", "description": "Does thing ${i}.", "inputSchema": {"type": "object"}}`).join(',\n') + '\n]}\n';

/** A multi-server dump: one entry per server. */
const dump = (servers: [string, number][]): string =>
  servers.map(([name, n]) => `- name: ${name}\n  tools:\n` + Array.from({ length: n }, (_, i) => `    - {name: ${name}_${i}, description: d}\n`).join('')).join('');

/** A CLI-style catalogue: each tool's `command` puts it in a namespace of the same server. */
const commands = (n: number): string =>
  'tools:\n' + Array.from({ length: n }, (_, i) => `  - {name: list${i}, command: "area${i % 40} list${i}", description: d}\n`).join('');

ruleTester('tool-count-exceeded', {
  valid: [
    { name: 'exactly the limit', code: yamlTools(128) },
    { name: 'Anthropic documents no limit', code: yamlTools(140), options: { providers: ['anthropic'] } },
    {
      name: 'two folders are two servers',
      filename: 'a/tools.yaml',
      code: yamlTools(100, 'alpha'),
      others: [{ filename: 'b/tools.yaml', code: yamlTools(100, 'beta') }],
    },
    { name: 'servers of a multi-server dump are counted apart', code: dump([['alpha', 100], ['beta', 100]]) },
    { name: 'a configured maximum', code: yamlTools(20), options: { max: 20 } },
  ],
  invalid: [
    {
      name: 'one past the OpenAI and Gemini limit (YAML)',
      code: yamlTools(130),
      errors: [
        {
          messageId: 'tooMany',
          line: 130,
          column: 12,
          tool: 'op_128',
          parameter: null,
          messageIncludes: '130 tools in this folder, over the limit of 128 tools per request (OpenAI and Gemini)',
        },
      ],
    },
    {
      name: 'JSON',
      filename: 'tools.json',
      code: jsonTools(129),
      errors: [{ messageId: 'tooMany', line: 130, column: 12, tool: 'op_128', messageIncludes: '(OpenAI and Gemini)' }],
    },
    {
      name: 'one provider',
      code: yamlTools(129),
      options: { providers: ['gemini'] },
      errors: [{ messageId: 'tooMany', line: 130, messageIncludes: 'per request (Gemini)' }],
    },
    {
      name: 'a configured maximum wins over the providers',
      code: yamlTools(12),
      options: { max: 10, providers: ['anthropic'] },
      errors: [{ messageId: 'tooMany', line: 12, tool: 'op_10', messageIncludes: '12 tools in this folder, over the limit of 10 tools per request (configured `max`)' }],
    },
    {
      name: 'one server of a multi-server dump',
      code: dump([['alpha', 3], ['beta', 12]]),
      options: { max: 10 },
      errors: [{ messageId: 'tooMany', tool: 'beta_10', messageIncludes: '12 tools in server `beta` of `tools.yaml`' }],
    },
    {
      name: 'command namespaces are not servers',
      code: commands(130),
      errors: [{ messageId: 'tooMany', tool: 'list128', messageIncludes: '130 tools in this folder' }],
    },
  ],
});

/** Findings of the rule over several files, as `file:line tool message`. */
function across(files: [string, string][], options: Record<string, unknown>): string[] {
  const cfg = { ...defaultConfig(), extends: [], rules: { 'tool-count-exceeded': { severity: 'warning' as const, options } } };
  const res = lint(
    files.map(([p, t]) => loadText(p, t, { explicit: true })),
    { settingsFor: () => ruleSettings(cfg, null) },
  );
  return res.results.flatMap((r) => r.diagnostics.map((d) => `${r.file.path}:${d.range.start.line} ${d.tool} ${d.message}`));
}

test('tool-count-exceeded: the files of one folder form one server', () => {
  const got = across([['srv/a.yaml', yamlTools(6, 'alpha')], ['srv/b.yaml', yamlTools(6, 'beta')], ['other/c.yaml', yamlTools(6, 'gamma')]], { max: 10 });
  assert.deepEqual(got, ['srv/b.yaml:6 beta_4 12 tools in `srv`, over the limit of 10 tools per request (configured `max`)']);
});

test('tool-count-exceeded: scope catalog counts every tool of the run together', () => {
  const got = across([['a/t.yaml', yamlTools(6, 'alpha')], ['b/t.yaml', yamlTools(6, 'beta')]], { max: 10, scope: 'catalog' });
  assert.deepEqual(got, ['b/t.yaml:6 beta_4 12 tools in the catalogue, over the limit of 10 tools per request (configured `max`)']);
});

test('tool-count-exceeded: seed 000 (before and after) stays quiet: its catalogue is within every provider\'s limits', () => {
  for (const f of ['before.yaml', 'after.yaml']) {
    const code = readFileSync(join(__dirname, '..', 'fixtures', 'seed000', f), 'utf8');
    assert.deepEqual(runRule('tool-count-exceeded', { code, filename: f }).diagnostics.map((d) => d.message), [], f);
  }
});
