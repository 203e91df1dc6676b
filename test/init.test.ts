import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfigFile, ruleSettings } from '../server/src/engine/config';
import { initConfigText, runInit } from '../server/src/node/commands/init';
import { cli, workspace } from './helpers/cli';

const MCP_YAML = 'name: search_orders\ndescription: Search orders.\ninputSchema:\n  type: object\n  properties:\n    status:\n      type: string\n      description: Status.\n';
const REST_YAML = 'tools:\n  - name: list_items\n    method: GET\n    path: /items\n    description: List items.\n    parameters:\n      limit:\n        description: "How many."\n';
const MXCP_TOOL = 'mxcp: 1\ntool:\n  name: get_x\n  description: Get x.\n  parameters:\n    - name: id\n      type: string\n      description: The id.\n  source: {code: "SELECT 1"}\n';
const MXCP_EVAL = 'mxcp: 1\nsuite: s\ndescription: d\ntests:\n  - name: t\n    description: d\n    prompt: get x\n    assertions: {must_call: [{tool: get_x, args: {}}]}\n';

function sink(): { write(s: string): boolean; text: string } {
  return {
    text: '',
    write(s: string) {
      this.text += s;
      return true;
    },
  };
}

test('init writes a commented config that the config loader accepts', () => {
  const dir = workspace({ 'tools/orders.yaml': MCP_YAML, 'tools/rest.yaml': REST_YAML, 'mxcp/tools/get_x.yml': MXCP_TOOL, 'mxcp/evals/x.evals.yml': MXCP_EVAL, 'test/fixtures/broken.yaml': MCP_YAML, 'notes.yaml': 'a: 1\n' });
  const r = cli(['init'], dir);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Found 4 tool files \(4 tools\) and 1 eval suite in 6 YAML\/JSON files/);
  assert.match(r.stdout, /rest-yaml\s+1 file, 1 tool/);
  assert.match(r.stdout, /mxcp-eval\s+1 file\n/);
  assert.match(r.stdout, /Wrote \.mcp-tool-lint\.yaml/);
  const path = join(dir, '.mcp-tool-lint.yaml');
  const text = readFileSync(path, 'utf8');
  const cfg = loadConfigFile(path);
  assert.deepEqual(cfg.extends, ['recommended']);
  assert.deepEqual(cfg.ignore, ['test/**']);
  assert.equal(cfg.maxFileSize, null);
  // Provider profiles are offered, commented out, each with its explanation.
  for (const p of ['openai', 'anthropic', 'gemini']) assert.match(text, new RegExp(`^  # - ${p} +# \\S`, 'm'));
  // Rule examples for what was found.
  assert.match(text, /REST parameter maps/);
  assert.match(text, /MXCP/);
  assert.match(text, /tool-undiscoverable/);
  assert.match(text, /^# overrides:/m);
  // The linter runs with it: the fixture folder is ignored.
  const lint = cli(['.'], dir);
  assert.doesNotMatch(lint.stdout, /broken\.yaml/);
});

test('every commented example loads once uncommented', () => {
  const dir = workspace({ 'a.yaml': REST_YAML, 'b.yml': MXCP_TOOL, 'c.evals.yml': MXCP_EVAL });
  assert.equal(cli(['init'], dir).code, 0);
  const path = join(dir, '.mcp-tool-lint.yaml');
  const text = readFileSync(path, 'utf8');
  // Uncomment the `rules:` and `overrides:` blocks and one provider profile.
  const lines = text.split('\n');
  const out: string[] = [];
  let block = false;
  for (const l of lines) {
    if (/^# (rules|overrides):/.test(l)) block = true;
    else if (!l.startsWith('#')) block = false;
    out.push(block ? l.replace(/^# ?/, '') : l.replace(/^  # - openai/, '  - openai'));
  }
  writeFileSync(path, out.join('\n'));
  const cfg = loadConfigFile(path);
  assert.deepEqual(cfg.extends, ['recommended', 'openai']);
  assert.ok(Object.keys(cfg.rules).length >= 3, JSON.stringify(cfg.rules));
  assert.equal(cfg.overrides.length, 1);
  assert.equal(ruleSettings(cfg, join(dir, 'legacy', 'x.yaml')).get('description-missing')?.severity, 'off');
});

test('init refuses to overwrite a config without --force', () => {
  const dir = workspace({ 'a.yaml': MCP_YAML, '.mcp-tool-lint.yaml': 'extends: [strict]\n' });
  const r = cli(['init'], dir);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /\.mcp-tool-lint\.yaml already exists; not overwriting it \(use --force/);
  assert.equal(readFileSync(join(dir, '.mcp-tool-lint.yaml'), 'utf8'), 'extends: [strict]\n');
  const f = cli(['init', '--force'], dir);
  assert.equal(f.code, 0, f.stderr);
  assert.deepEqual(loadConfigFile(join(dir, '.mcp-tool-lint.yaml')).extends, ['recommended']);
});

test('init in an empty folder writes a starting config; a missing path is an error', () => {
  const dir = workspace({ 'README.md': '# x\n' });
  const io = { stdout: sink(), stderr: sink(), cwd: dir };
  assert.equal(runInit([], io), 0, io.stderr.text);
  assert.match(io.stdout.text, /Found no YAML or JSON files/);
  assert.deepEqual(loadConfigFile(join(dir, '.mcp-tool-lint.yaml')).extends, ['recommended']);
  const dir2 = workspace({ 'a.yaml': MCP_YAML });
  const io2 = { stdout: sink(), stderr: sink(), cwd: dir2 };
  assert.equal(runInit(['nothere/'], io2), 2);
  assert.match(io2.stderr.text, /No such file or folder/);
  assert.equal(existsSync(join(dir2, '.mcp-tool-lint.yaml')), false);
  assert.equal(runInit(['--help'], io2), 0);
  assert.match(io2.stdout.text, /Usage: mcp-tool-lint init/);
  assert.equal(runInit(['--bogus'], io2), 2);
});

test('files over the default size limit raise maxFileSize', () => {
  const big = 12 * 1024 * 1024;
  const text = initConfigText(
    { toolFiles: 1, tools: 1, evalSuites: 0, otherFiles: 0, formats: new Map([['mcp-json', [1, 1]]]), paramMaps: 0, paramLists: 0, mxcp: false, largest: big },
    { files: [], sizes: [], ignore: [], nodeModules: true },
  );
  const dir = workspace({ '.mcp-tool-lint.yaml': text });
  const cfg = loadConfigFile(join(dir, '.mcp-tool-lint.yaml'));
  assert.ok(cfg.maxFileSize !== null && cfg.maxFileSize > big, String(cfg.maxFileSize));
  assert.match(text, /node_modules/);
});
