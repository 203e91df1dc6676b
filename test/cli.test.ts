import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, cli, workspace } from './helpers/cli';

const BAD_YAML = 'name: search orders\ninputSchema:\n  type: object\n  properties:\n    status:\n      type: str\n      description: Status.\n';
const CLEAN_YAML = 'name: search_orders\ndescription: Search orders.\ninputSchema:\n  type: object\n  properties:\n    status:\n      type: string\n      description: Status.\n';

test('exit 0 and no output on a clean catalogue', () => {
  const dir = workspace({ 'tools/a.yaml': CLEAN_YAML });
  const r = cli(['tools'], dir);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '');
});

test('exit 1 with stylish output on errors; lines and rule ids shown', () => {
  const dir = workspace({ 'a.yaml': BAD_YAML });
  const r = cli(['.'], dir);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /a\.yaml/);
  assert.match(r.stdout, /1:7\s+error\s+.*tool-name-invalid/);
  assert.match(r.stdout, /6:13\s+error\s+.*schema-invalid/);
  assert.match(r.stdout, /description-missing/);
});

test('an explicit path that matches nothing exits 2 with a clear message', () => {
  const dir = workspace({ 'a.yaml': CLEAN_YAML });
  for (const arg of ['missing.yaml', 'nothere/', '*.json']) {
    const r = cli([arg], dir);
    assert.equal(r.code, 2, arg);
    assert.match(r.stderr, /mcp-tool-lint: (No such file|No files matched)/, arg);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
});

test('unknown options and formats exit 2', () => {
  const dir = workspace({ 'a.yaml': CLEAN_YAML });
  assert.equal(cli(['--bogus'], dir).code, 2);
  const r = cli(['--format', 'xml'], dir);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /allowed: stylish, json, sarif, github, junit/);
});

test('--rule overrides severities; --quiet shows errors only; --max-warnings', () => {
  const dir = workspace({ 'a.yaml': BAD_YAML });
  const off = cli(['--rule', 'tool-name-invalid=off', '--rule', 'schema-invalid=warning', '-f', 'json', '.'], dir);
  const rep = JSON.parse(off.stdout);
  assert.equal(off.code, 0);
  assert.ok(!rep.files[0].diagnostics.some((d: { rule: string }) => d.rule === 'tool-name-invalid'));
  assert.equal(rep.files[0].diagnostics.find((d: { rule: string }) => d.rule === 'schema-invalid').severity, 'warning');
  const quiet = cli(['--quiet', '-f', 'json', '.'], dir);
  assert.ok(JSON.parse(quiet.stdout).files[0].diagnostics.every((d: { severity: string }) => d.severity === 'error'));
  const mw = cli(['--rule', 'tool-name-invalid=off', '--rule', 'schema-invalid=off', '--max-warnings', '0', '.'], dir);
  assert.equal(mw.code, 1);
  assert.match(mw.stderr, /more than --max-warnings 0/);
  assert.equal(cli(['--rule', 'tool-name-invalid=off', '--rule', 'schema-invalid=off', '--max-warnings', '10', '.'], dir).code, 0);
  const bad = cli(['--rule', 'no-such-rule=off', '.'], dir);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown rule `no-such-rule`/);
});

test('JSON report follows the contract', () => {
  const dir = workspace({ 'tools/a.yaml': BAD_YAML, 'notes.yaml': 'just: some\nother: yaml\n' });
  const r = cli(['-f', 'json', '.'], dir);
  const rep = JSON.parse(r.stdout);
  assert.equal(rep.version, 1);
  const a = rep.files.find((f: { path: string }) => f.path === 'tools/a.yaml');
  assert.equal(a.format, 'mcp-yaml');
  assert.equal(a.tools, 1);
  const d = a.diagnostics.find((x: { rule: string }) => x.rule === 'schema-invalid');
  assert.deepEqual(Object.keys(d).slice(0, 11), ['rule', 'severity', 'message', 'tool', 'parameter', 'test', 'pointer', 'range', 'fixable', 'suggestions', 'docs'].slice(0, 11));
  assert.equal(d.tool, 'search orders');
  assert.equal(d.pointer, '/inputSchema/properties/status/type');
  assert.deepEqual(d.range, { start: { line: 6, column: 13 }, end: { line: 6, column: 16 } });
  const other = rep.files.find((f: { path: string }) => f.path === 'notes.yaml');
  assert.equal(other.format, 'unknown');
  assert.deepEqual(other.diagnostics, []);
  assert.equal(rep.summary.files, 2);
  assert.equal(rep.summary.tools, 1);
  assert.equal(rep.summary.errors, a.diagnostics.filter((x: { severity: string }) => x.severity === 'error').length);
});

test('--output writes the report to a file', () => {
  const dir = workspace({ 'a.yaml': BAD_YAML });
  const r = cli(['-f', 'sarif', '-o', 'report.sarif', '.'], dir);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  const sarif = JSON.parse(readFileSync(join(dir, 'report.sarif'), 'utf8'));
  assert.equal(sarif.version, '2.1.0');
});

test('config: discovery, presets, overrides, ignore', () => {
  const dir = workspace({
    '.mcp-tool-lint.yaml': 'extends: [recommended]\nrules:\n  description-missing: error\nignore: ["fixtures/**"]\noverrides:\n  - files: ["legacy/**"]\n    rules: {description-missing: off}\n',
    'tools/a.yaml': 'name: a\ninputSchema: {type: object}\n',
    'legacy/b.yaml': 'name: b\ninputSchema: {type: object}\n',
    'fixtures/c.yaml': 'name: c d\ninputSchema: {type: object}\n',
  });
  const rep = JSON.parse(cli(['-f', 'json', '.'], dir).stdout);
  const paths = rep.files.map((f: { path: string }) => f.path).sort();
  assert.deepEqual(paths, ['legacy/b.yaml', 'tools/a.yaml']);
  const a = rep.files.find((f: { path: string }) => f.path === 'tools/a.yaml');
  assert.equal(a.diagnostics[0].rule, 'description-missing');
  assert.equal(a.diagnostics[0].severity, 'error');
  assert.deepEqual(rep.files.find((f: { path: string }) => f.path === 'legacy/b.yaml').diagnostics, []);
});

test('config errors name the file, line, key and what is allowed; exit 2', () => {
  const cases: [string, RegExp][] = [
    ['rulez:\n  a: off\n', /\.mcp-tool-lint\.yaml:1:1: unknown key `rulez`; allowed: extends, rules, ignore, overrides/],
    ['rules:\n  enum-unexplaind: off\n', /\.mcp-tool-lint\.yaml:2:3: unknown rule `enum-unexplaind`/],
    ['rules:\n  description-missing: loud\n', /2:24: invalid severity "loud" for `description-missing`; allowed: off, info, warning, error/],
    ['rules:\n  description-missing: [warning, {nestd: false}]\n', /unknown option `nestd` for `description-missing`; allowed: parameters, nested/],
    ['extends: [./my-plugin.js]\n', /unknown preset "\.\/my-plugin\.js" \(configs are data: paths and modules are never loaded\)/],
    ['rules: [1\n', /invalid YAML/],
  ];
  for (const [cfg, re] of cases) {
    const dir = workspace({ '.mcp-tool-lint.yaml': cfg, 'a.yaml': CLEAN_YAML });
    const r = cli(['.'], dir);
    assert.equal(r.code, 2, cfg);
    assert.match(r.stderr, re, cfg);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
});

test('--config uses the given file', () => {
  const dir = workspace({ 'strict.yaml': 'rules:\n  description-missing: off\n', 'a.yaml': 'name: a\ninputSchema: {type: object}\n' });
  assert.equal(JSON.parse(cli(['-f', 'json', '--config', 'strict.yaml', 'a.yaml'], dir).stdout).summary.warnings, 0);
  assert.equal(cli(['--config', 'nope.yaml', 'a.yaml'], dir).code, 2);
});

test('suppression comments; unused ones are reported on request', () => {
  const yaml =
    '# mcp-tool-lint-disable-next-line tool-name-invalid -- legacy name kept for old clients\n' +
    'name: search orders\n' +
    'description: d\n' +
    'inputSchema:\n  type: object\n  properties:\n' +
    '    # mcp-tool-lint-disable-next-line description-missing\n' +
    '    x: {type: string, description: has one}\n';
  const dir = workspace({ 'a.yaml': yaml });
  const rep = JSON.parse(cli(['-f', 'json', '.'], dir).stdout);
  assert.deepEqual(rep.files[0].diagnostics, []);
  const rep2 = JSON.parse(cli(['-f', 'json', '--report-unused-disable-directives', '.'], dir).stdout);
  assert.equal(rep2.files[0].diagnostics.length, 1);
  assert.equal(rep2.files[0].diagnostics[0].rule, 'unused-disable-directive');
  assert.equal(rep2.files[0].diagnostics[0].range.start.line, 7);
  const disableAll = 'name: a b\n# mcp-tool-lint-disable\ninputSchema: {type: object, properties: {x: {type: str}}}\n';
  const rep3 = JSON.parse(cli(['-f', 'json', '.'], workspace({ 'a.yaml': disableAll })).stdout);
  assert.deepEqual(rep3.files[0].diagnostics.map((d: { rule: string }) => d.rule), ['description-missing', 'tool-name-invalid']);
});

test('--fix-dry-run prints a diff and changes nothing; --fix writes and converges', () => {
  const yaml = '# keep me\nname: a\ndescription: d\n# mcp-tool-lint-disable-next-line description-missing\ninputSchema: {type: object}\n';
  const dir = workspace({ 'a.yaml': yaml });
  const dry = cli(['--fix-dry-run', '--report-unused-disable-directives', '.'], dir);
  assert.match(dry.stdout, /^--- a\/a\.yaml/m);
  assert.match(dry.stdout, /^-# mcp-tool-lint-disable-next-line description-missing$/m);
  assert.equal(readFileSync(join(dir, 'a.yaml'), 'utf8'), yaml);
  const fix = cli(['--fix', '--report-unused-disable-directives', '.'], dir);
  assert.equal(fix.code, 0, fix.stdout + fix.stderr);
  const after = readFileSync(join(dir, 'a.yaml'), 'utf8');
  assert.equal(after, '# keep me\nname: a\ndescription: d\ninputSchema: {type: object}\n');
  cli(['--fix', '--report-unused-disable-directives', '.'], dir);
  assert.equal(readFileSync(join(dir, 'a.yaml'), 'utf8'), after, 'a second --fix changes nothing');
});

test('duplicate tool names across files of one run', () => {
  const dir = workspace({ 'a.yaml': CLEAN_YAML, 'b.json': JSON.stringify({ name: 'search_orders', description: 'x', inputSchema: { type: 'object' } }, null, 2) });
  const rep = JSON.parse(cli(['-f', 'json', '.'], dir).stdout);
  const b = rep.files.find((f: { path: string }) => f.path === 'b.json');
  assert.equal(b.diagnostics[0].rule, 'tool-name-duplicate');
  assert.match(b.diagnostics[0].message, /a\.yaml:1/);
  assert.deepEqual(b.diagnostics[0].range.start, { line: 2, column: 11 });
});

test('explicit non-tool files are reported as such; binary files get a clear finding', () => {
  const dir = workspace({ 'notes.yaml': 'a: 1\n' });
  writeFileSync(join(dir, 'bin.json'), Buffer.from([0x7b, 0x00, 0x01, 0x02]));
  const rep = JSON.parse(cli(['-f', 'json', 'notes.yaml', 'bin.json'], dir).stdout);
  const notes = rep.files.find((f: { path: string }) => f.path === 'notes.yaml');
  assert.equal(notes.format, 'unknown');
  assert.match(notes.reason, /no tool objects/);
  const bin = rep.files.find((f: { path: string }) => f.path === 'bin.json');
  assert.match(bin.diagnostics[0].message, /binary file/);
  const st = cli(['notes.yaml'], dir);
  assert.match(st.stdout, /not a tool file/);
});

test('rules subcommand lists every rule with its docs', () => {
  const r = cli(['rules', '--format', 'json'], workspace({}));
  assert.equal(r.code, 0);
  const rules = JSON.parse(r.stdout);
  assert.ok(rules.some((x: { id: string }) => x.id === 'schema-invalid'));
  assert.ok(rules.every((x: { docs: string }) => x.docs.endsWith('.md')));
  assert.match(cli(['rules'], workspace({})).stdout, /tool-name-duplicate/);
});

test('--version and --help', () => {
  assert.match(cli(['--version'], workspace({})).stdout, /^\d+\.\d+\.\d+/);
  assert.match(cli(['--help'], workspace({})).stdout, /Usage: mcp-tool-lint/);
});

test('a suppression phrase inside a string is text, not a directive', () => {
  const yaml = 'name: a b\ndescription: "Say # mcp-tool-lint-disable tool-name-invalid in docs"\ninputSchema: {type: object}\n';
  const rep = JSON.parse(cli(['-f', 'json', '.'], workspace({ 'a.yaml': yaml })).stdout);
  assert.ok(rep.files[0].diagnostics.some((d: { rule: string }) => d.rule === 'tool-name-invalid'));
});

test('MCP_TOOL_LINT_TIMING prints the slowest rules and the phases on stderr, leaving the report alone', () => {
  const dir = workspace({ 'a.yaml': BAD_YAML });
  const plain = cli(['-f', 'json', '.'], dir);
  const run = (v: string) => spawnSync(process.execPath, [CLI, '-f', 'json', '.'], { cwd: dir, encoding: 'utf8', env: { ...process.env, MCP_TOOL_LINT_TIMING: v } });
  const all = run('all');
  assert.equal(all.status, plain.code);
  assert.equal(JSON.stringify(JSON.parse(all.stdout).files), JSON.stringify(JSON.parse(plain.stdout).files));
  const rows = all.stderr.trim().split('\n');
  assert.match(rows[0], /^Rule\s+\| Time \(ms\) \| Relative$/);
  const ids = rows.slice(2).map((r) => r.split('|')[0].trim());
  for (const id of ['(load)', '(report)', 'schema-invalid', 'tool-name-invalid', 'description-missing']) assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
  const ms = rows.slice(2).map((r) => Number(r.split('|')[1]));
  assert.deepEqual(ms, [...ms].sort((a, b) => b - a), 'slowest first');
  assert.equal(run('3').stderr.trim().split('\n').length, 2 + 3);
  assert.equal(run('1').stderr.trim().split('\n').length, 2 + 10, 'any other value shows ten rows');
});
