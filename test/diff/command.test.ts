/**
 * `mcp-tool-lint diff OLD NEW`: exit codes, formats, sides as lists, output file, usage errors,
 * and two real version pairs from `../shared/corpus`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIFF_HELP, runDiff, type SideLoader } from '../../server/src/node/commands/diff';
import { loadText } from '../../server/src/engine/load';

const ROOT = join(__dirname, '..', '..');
const OLD = 'test/fixtures/diff/old.yaml';
const NEW = 'test/fixtures/diff/new.yaml';
const CORPUS = join(ROOT, '..', 'shared', 'corpus');

function call(argv: string[], cwd = ROOT, loaders?: SideLoader[], tty = false): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const code = runDiff(argv, { stdout: { write: (s: string) => (stdout += s), ...(tty ? { isTTY: true } : {}) } as { write(s: string): unknown }, stderr: { write: (s: string) => (stderr += s) }, cwd }, loaders);
  return { code, stdout, stderr };
}

test('diff: exit 1 on breaking changes, 0 with --allow-breaking or with no breaking change', () => {
  assert.equal(call([OLD, NEW]).code, 1);
  assert.equal(call([OLD, NEW, '--allow-breaking']).code, 0);
  const same = call([OLD, OLD]);
  assert.equal(same.code, 0, same.stderr);
  assert.equal(same.stdout, 'No changes (4 → 4 tools)\n');
  // The reverse direction of a compatible change can be breaking and vice versa: new → old adds back `coupon`.
  const back = JSON.parse(call([NEW, OLD, '-f', 'json']).stdout);
  assert.ok(back.compatible.some((c: { kind: string; parameter: string }) => c.kind === 'parameter-added' && c.parameter === 'coupon'));
});

test('diff: usage errors and missing paths exit 2 with a message', () => {
  for (const argv of [[OLD], [OLD, NEW, 'third'], [OLD, NEW, '--format', 'sarif'], [OLD, NEW, '--bogus'], ['--old', OLD], ['--old', OLD, '--new', NEW, NEW], [OLD, 'test/fixtures/diff/nope.yaml']]) {
    const r = call(argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.match(r.stderr, /^mcp-tool-lint: /, argv.join(' '));
    assert.equal(r.stdout, '');
  }
  assert.match(call([OLD, 'test/fixtures/diff/nope.yaml']).stderr, /No such file or folder/);
  const h = call(['--help']);
  assert.equal(h.code, 0);
  assert.equal(h.stdout, DIFF_HELP + '\n');
});

test('diff: a side may be a list of paths (--old/--new, repeatable) or a folder', () => {
  const r = JSON.parse(call(['--old', OLD, '--old', 'test/fixtures/diff/old.json', '--new', NEW, '--new', 'test/fixtures/diff/new.json', '-f', 'json']).stdout);
  assert.equal(r.summary.toolsBefore, 6);
  assert.equal(r.summary.toolsAfter, 7);
  assert.ok(r.breaking.some((c: { tool: string }) => c.tool === 'search_docs'));
  assert.ok(r.breaking.some((c: { tool: string }) => c.tool === 'create_order'));
});

test('diff --format json: classes with tool, parameter, kind, before and after', () => {
  const r = call([OLD, NEW, '--format=json']);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(j), ['version', 'breaking', 'risky', 'compatible', 'summary']);
  assert.deepEqual(j.summary, { toolsBefore: 4, toolsAfter: 5, breaking: 9, risky: 2, compatible: 8 });
  const enumGone = j.breaking.find((c: { kind: string }) => c.kind === 'enum-value-removed');
  assert.deepEqual(enumGone, { tool: 'create_order', parameter: 'priority', kind: 'enum-value-removed', message: '`priority` no longer accepts `"low"`', before: ['low'], after: null });
  const desc = j.risky.find((c: { kind: string }) => c.kind === 'tool-description-changed');
  assert.equal(desc.before, 'Create an order for a customer. Returns the order id.');
  assert.match(desc.diff, /\+Always set priority to high\./);
});

test('diff --format stylish: grouped by tool, colour only on a terminal', () => {
  const plain = call([OLD, NEW]);
  assert.ok(!plain.stdout.includes('\x1b['));
  assert.match(plain.stdout, /^create_order\n {2}breaking {4}`maximum` of `quantity` changed from 100 to 50/m);
  assert.match(plain.stdout, /\n {6}\+Always set priority to high\.\n/);
  assert.match(plain.stdout, /9 breaking, 2 risky, 8 compatible changes \(4 → 5 tools\)\n$/);
  assert.ok(call([OLD, NEW], ROOT, undefined, true).stdout.includes('\x1b[31mbreaking'), 'red on a terminal');
  assert.ok(!call([OLD, NEW, '--no-color'], ROOT, undefined, true).stdout.includes('\x1b['));
});

test('diff --format markdown: summary line, tables per class, description diffs in diff blocks', () => {
  const md = call([OLD, NEW, '-f', 'markdown']).stdout;
  assert.match(md, /^### MCP tool changes\n\n\*\*9 breaking, 2 risky, 8 compatible changes \(4 → 5 tools\)\*\*\n/);
  assert.match(md, /#### Breaking \(9\)\n\n\| Tool \| Parameter \| Change \|\n\| --- \| --- \| --- \|\n/);
  assert.match(md, /\| `create_order` \| `items\[\]\.sku` \| `pattern` of `items\[\]\.sku` changed from `"\^\[A-Z\]\{3\}-\\\\d\+\$"` to/);
  assert.match(md, /```diff\n@@ -1,2 \+1,3 @@\n Create an order for a customer\.\n Returns the order id\.\n\+Always set priority to high\.\n```/);
  assert.match(md, /#### Compatible \(8\)/);
});

test('diff --output writes the report to a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mtl-diff-'));
  try {
    const r = call([OLD, NEW, '-o', join(dir, 'out.md'), '-f', 'markdown', '--allow-breaking']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.match(readFileSync(join(dir, 'out.md'), 'utf8'), /^### MCP tool changes/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('diff: sides are read by pluggable loaders (a snapshot or a live server can join files)', () => {
  const fake: SideLoader = {
    load: (specs) => (specs[0].startsWith('mem:') ? loadText('mem.yaml', specs[0] === 'mem:old' ? 'tools:\n  - name: a\n    description: A.\n' : 'tools: []\n').tools : null),
  };
  const r = JSON.parse(call(['mem:old', 'mem:new', '-f', 'json'], ROOT, [fake]).stdout);
  assert.deepEqual(r.breaking.map((c: { kind: string; tool: string }) => `${c.kind} ${c.tool}`), ['tool-removed a']);
});

const RHESIS_OLD = join(CORPUS, 'rhesis-ai__rhesis@34ec0a38');
const RHESIS_NEW = join(CORPUS, 'rhesis-ai__rhesis');
test('diff on the real rhesis catalogue (34ec0a38 → newest)', { skip: !existsSync(RHESIS_OLD) || !existsSync(RHESIS_NEW) ? 'corpus absent: ../shared/corpus/rhesis-ai__rhesis{,@34ec0a38}' : false }, () => {
  const r = call([RHESIS_OLD, RHESIS_NEW, '-f', 'json']);
  assert.equal(r.code, 1, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.summary.toolsBefore, 20);
  assert.equal(j.summary.toolsAfter, 52);
  // Six tools of the old file are gone (the test-configuration flow and list_behaviors, replaced by requirements).
  assert.deepEqual(j.breaking.map((c: { tool: string; kind: string }) => `${c.kind} ${c.tool}`).sort(), ['create_test_configuration', 'create_test_run', 'execute_test_configuration', 'execute_tests', 'list_behaviors', 'list_test_configurations'].map((t) => `tool-removed ${t}`));
  type C = { tool: string; parameter: string | null; kind: string; diff?: string; after: unknown };
  const all: C[] = [...j.risky, ...j.compatible];
  assert.ok(all.some((c) => c.kind === 'tool-added' && c.tool === 'list_requirements'));
  // create_project had no parameters; it now documents six optional ones.
  assert.deepEqual(all.filter((c) => c.tool === 'create_project' && c.kind === 'parameter-added').map((c) => c.parameter), ['name', 'description', 'project_id', 'is_active', 'icon', 'attributes']);
  // create_test_set_bulk's description gained new instructions for the model.
  const bulk = all.find((c) => c.tool === 'create_test_set_bulk' && c.kind === 'tool-description-changed')!;
  assert.match(bulk.diff!, /^\+Prefer generate_test_set for AI-generated test content/m);
  assert.match(bulk.diff!, /^-This is the preferred way to create test sets — always include tests\.$/m);
  const name = all.find((c) => c.tool === 'create_test_set_bulk' && c.parameter === 'name' && c.kind === 'parameter-description-changed')!;
  assert.equal(name.after, 'Test set name (required, string)');
  const md = call([RHESIS_OLD, RHESIS_NEW, '-f', 'markdown']).stdout;
  assert.match(md, /\*\*6 breaking, \d+ risky, \d+ compatible changes \(20 → 52 tools\)\*\*/);
  assert.match(md, /<details><summary>Show compatible changes<\/summary>/);
});

const RAVE_OLD = join(CORPUS, 'dipterix__ravepipeline@d5ca4810');
const RAVE_NEW = join(CORPUS, 'dipterix__ravepipeline');
test('diff on the real ravepipeline tools (d5ca4810 → bb389320): renames found by schema and kept description', { skip: !existsSync(RAVE_OLD) || !existsSync(RAVE_NEW) ? 'corpus absent: ../shared/corpus/dipterix__ravepipeline{,@d5ca4810}' : false }, () => {
  const r = call([RAVE_OLD, RAVE_NEW, '-f', 'json']);
  assert.equal(r.code, 1, r.stderr);
  const j = JSON.parse(r.stdout);
  const renames = j.breaking.filter((c: { kind: string }) => c.kind === 'tool-renamed').map((c: { before: string; after: string }) => `${c.before} → ${c.after}`);
  assert.ok(renames.includes('ravepipeline-mcp_run_current_rave_pipeline → ravepipeline-mcp_tool_pipeline_run'), renames.join('\n'));
  assert.ok(j.breaking.some((c: { kind: string; tool: string }) => c.kind === 'tool-removed' && c.tool === 'ravepipeline-mcpflow_load_all'));
  assert.ok(j.compatible.some((c: { kind: string; tool: string }) => c.kind === 'tool-added' && c.tool === 'ravepipeline-mcp_tool_run_r'));
});

test('diff --format markdown: a report too long for a comment is cut at a line, closing an open diff block', async () => {
  const { diffTools, renderDiffMarkdown } = await import('../../server/src/engine/diff');
  const a = readFileSync(join(ROOT, OLD), 'utf8');
  const b = readFileSync(join(ROOT, NEW), 'utf8');
  const md = renderDiffMarkdown(diffTools(loadText('a.yaml', a).tools, loadText('b.yaml', b).tools), { maxChars: 1500 });
  assert.ok(md.length < 1700);
  assert.equal((md.match(/^```/gm) ?? []).length % 2, 0, 'fences balanced');
  assert.match(md, /_…cut to fit a comment; run `mcp-tool-lint diff --format json` for every change\._\n$/);
});
