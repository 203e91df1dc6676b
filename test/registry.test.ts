import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { allRules } from '../server/src/engine/rules';
import { runRule } from './helpers/rule-tester';
import { expectedFiles } from '../scripts/gen-docs';
import { ruleExamples } from '../scripts/rule-examples';

const RULES_DIR = join(__dirname, '..', 'server', 'src', 'engine', 'rules');
const NOT_RULES = new Set(['index.ts', 'api.ts', 'util.ts']);

test('the registry lists exactly the rule files of the folder', () => {
  const files = readdirSync(RULES_DIR)
    .filter((f) => f.endsWith('.ts') && !NOT_RULES.has(f))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
  const ids = allRules()
    .map((r) => r.meta.id)
    .sort();
  assert.deepEqual(ids, files);
});

test('rule ids are kebab-case and descriptions imperative', () => {
  for (const r of allRules()) {
    assert.match(r.meta.id, /^[a-z]+(-[a-z]+)*$/, r.meta.id);
    assert.match(r.meta.description, /^(Require|Disallow|Report|Flag|Limit|Warn|Check)\b/, `${r.meta.id}: "${r.meta.description}"`);
    assert.ok(!r.meta.description.endsWith('.'), `${r.meta.id}: description ends without a period`);
    for (const [k, msg] of Object.entries(r.meta.messages)) assert.ok(msg.length > 0, `${r.meta.id}.${k}`);
  }
});

test('every rule has a test file', () => {
  for (const r of allRules()) assert.ok(existsSync(join(__dirname, 'rules', `${r.meta.id}.test.ts`)), `test/rules/${r.meta.id}.test.ts is missing`);
});

test('every rule has docs: what, why, an example and a use-instead file', () => {
  for (const r of allRules()) {
    const d = r.meta.docs;
    for (const k of ['what', 'why'] as const) assert.ok(d[k] && d[k].trim().length > 10, `${r.meta.id}: docs.${k}`);
    const ex = ruleExamples(r.meta.id);
    assert.ok(ex, `docs/rules/examples/${r.meta.id}.yaml and .fixed.yaml are missing`);
    assert.ok(ex.example.trim().length > 10 && ex.useInstead.trim().length > 10, r.meta.id);
  }
});

test("each rule's Example triggers it and its Use-instead does not", () => {
  for (const r of allRules()) {
    const files = ruleExamples(r.meta.id)!;
    const ex = runRule(r.meta.id, { code: files.example, filename: 'example.yaml' });
    assert.ok(ex.diagnostics.length > 0, `${r.meta.id}: the docs Example does not trigger the rule`);
    const ok = runRule(r.meta.id, { code: files.useInstead, filename: 'example.yaml' });
    assert.deepEqual(
      ok.diagnostics.map((d) => d.message),
      [],
      `${r.meta.id}: the docs Use-instead triggers the rule`,
    );
  }
});

test('generated docs pages and the README rule table are up to date (npm run docs)', () => {
  const stale: string[] = [];
  for (const [path, text] of expectedFiles()) if (!existsSync(path) || readFileSync(path, 'utf8') !== text) stale.push(path);
  assert.deepEqual(stale, [], 'run `npm run docs`');
});

test('the CLI bundle contains no language-server code', () => {
  for (const name of ['cli.js', 'cli-main.js']) {
    const bundle = readFileSync(join(__dirname, '..', 'dist', name), 'utf8');
    for (const marker of ['vscode-languageserver', 'vscode-jsonrpc', 'createConnection', 'textDocument/publishDiagnostics']) {
      assert.ok(!bundle.includes(marker), `dist/${name} contains "${marker}"`);
    }
  }
});

test('the engine imports nothing from the editor side', () => {
  const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.ts') ? [join(d, e.name)] : []));
  for (const f of walk(join(__dirname, '..', 'server', 'src', 'engine'))) {
    const src = readFileSync(f, 'utf8');
    assert.ok(!/from ['"](vscode|vscode-languageserver[^'"]*)['"]/.test(src), `${f} imports editor code`);
  }
});

test('every import of `yaml` sits in one module', () => {
  const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.ts') ? [join(d, e.name)] : []));
  const importers = walk(join(__dirname, '..', 'server', 'src'))
    .filter((f) => /from ['"]yaml['"]/.test(readFileSync(f, 'utf8')))
    .map((f) => f.split('/server/src/')[1]);
  assert.deepEqual(importers, ['engine/parse/yaml.ts']);
});
