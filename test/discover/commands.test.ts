import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSearch } from '../../server/src/node/commands/search';
import { runMap } from '../../server/src/node/commands/map';
import { workspace } from '../helpers/cli';

const FIX = join(__dirname, '..', 'fixtures', 'discover');

function call(fn: typeof runSearch, argv: string[], cwd = FIX): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const code = fn(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd });
  return { code, stdout, stderr };
}

test('search: tools ranked for the intent, best first, one per line, name first', () => {
  const r = call(runSearch, ['delete a task', 'tracker.yaml']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.match(lines[0], /^remove_task\s+\d+\.\d\d {2}\[tasks\] Permanently erase a task and its history\.$/);
  assert.ok(lines.every((l) => /^[a-z_]+\s/.test(l)));
  const scores = lines.map((l) => Number(l.split(/\s+/)[1]));
  assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
  assert.equal(r.stderr, '');
});

test('search: default path ".", --limit, and a tool without a category', () => {
  const r = call(runSearch, ['hours logged', '--limit', '1']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^get_time_log +\d+\.\d\d {2}Get the hours logged against a task, per person and per day\.\n$/);
  const all = call(runSearch, ['task', '--limit=0']);
  assert.ok(all.stdout.trimEnd().split('\n').length > 5);
});

test('search --format json: results with score, category, summary; the zero-result flag', () => {
  const r = call(runSearch, ['send an email', '.', '-f', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.intent, 'send an email');
  assert.equal(j.zeroResults, false);
  assert.deepEqual(Object.keys(j.results[0]), ['name', 'score', 'category', 'summary', 'file', 'matched']);
  assert.equal(j.results[0].name, 'send_message');
  assert.equal(j.results[0].category, 'mail');
  const miss = JSON.parse(call(runSearch, ['book a flight to Lisbon', '--format', 'json']).stdout);
  assert.equal(miss.zeroResults, true);
  assert.deepEqual(miss.results, []);
});

test('search: a zero result prints nothing and says so on stderr; exit 0', () => {
  const r = call(runSearch, ['book a flight to Lisbon']);
  assert.equal(r.code, 0);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /no tool matches "book a flight to Lisbon" \(a zero result/);
});

test('search: usage errors exit 2', () => {
  for (const argv of [[], ['  '], ['x', '--limit', 'many'], ['x', '--format', 'xml'], ['x', '--bogus'], ['x', 'missing.yaml']]) {
    const r = call(runSearch, argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.match(r.stderr, /^mcp-tool-lint: /, argv.join(' '));
  }
  const h = call(runSearch, ['--help']);
  assert.equal(h.code, 0);
  assert.match(h.stdout, /^Usage: mcp-tool-lint search "INTENT"/);
});

test('map: Markdown by category, uncategorised tools apart', () => {
  const r = call(runMap, ['tracker.yaml']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^# Tool map\n\n12 tools in 4 categories, 2 without a category\.\n\n## people\n\n- `invite_member` — /);
  assert.match(r.stdout, /\n## tasks\n\n- `add_task_comment` — Add a comment to a task's discussion\.\n/);
  assert.match(r.stdout, /\n## Without a category\n\n- `get_time_log` — .*\n- `ping` — Check that the server answers\.\n$/);
});

test('map --format json: {categories: [{name, tools: [{name, summary}]}], uncategorized}', () => {
  const r = call(runMap, ['--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(j), ['categories', 'uncategorized']);
  assert.deepEqual(j.categories.map((c: { name: string }) => c.name), ['files', 'mail', 'people', 'projects', 'reports', 'tasks']);
  assert.deepEqual(j.categories[0].tools[0], { name: 'download', summary: "Download a file's content." });
  assert.deepEqual(j.uncategorized.map((t: { name: string }) => t.name), ['get_time_log', 'ping']);
});

test('map --intents: the zero-result rate and each miss, in Markdown and JSON', () => {
  const md = call(runMap, ['tracker.yaml', '--intents', 'intents.txt']);
  assert.equal(md.code, 0, md.stderr);
  assert.match(md.stdout, /\n## Intents\n\nZero-result rate: 1 of 4 intents \(25%\)\.\n\nMisses .*\n\n- order a pizza for the team offsite\n$/);
  const j = JSON.parse(call(runMap, ['tracker.yaml', '--intents', 'intents.tsv', '-f', 'json']).stdout);
  assert.equal(j.intents.total, 2);
  assert.equal(j.intents.zeroResultRate, 0.5);
  assert.deepEqual(j.intents.misses, ['book a flight to Lisbon']);
  assert.equal(j.intents.results[0].intent, 'erase a task');
  assert.equal(j.intents.results[0].top[0], 'remove_task');
  assert.equal(j.intents.results[1].zeroResults, true);
});

test('map: usage errors exit 2; --output writes the file', () => {
  assert.equal(call(runMap, ['--intents', 'nope.txt']).code, 2);
  assert.match(call(runMap, ['--intents', 'nope.txt']).stderr, /cannot read the intents file "nope\.txt"/);
  assert.equal(call(runMap, ['--format', 'dot']).code, 2);
  assert.equal(call(runMap, ['--intents']).code, 2);
  const dir = workspace({ 'tools.yaml': readFileSync(join(FIX, 'tracker.yaml'), 'utf8') });
  const r = call(runMap, ['-o', 'map.md'], dir);
  assert.equal(r.code, 0);
  assert.equal(r.stdout, '');
  assert.match(readFileSync(join(dir, 'map.md'), 'utf8'), /^# Tool map\n/);
});
