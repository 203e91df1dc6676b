import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadText } from '../../server/src/engine/load';
import { buildToolMap, firstSentence, intentReport, parseIntents, renderIntentReportMarkdown, renderToolMapMarkdown, toolCategory, toolSummary } from '../../server/src/engine/discover';

const FIX = join(__dirname, '..', 'fixtures', 'discover');
const load = (f: string) => loadText(f, readFileSync(join(FIX, f), 'utf8')).tools;

test('category: `category`, else the server or command group; never invented', () => {
  const [tracker, servers] = [load('tracker.yaml'), load('servers.json')];
  assert.equal(toolCategory(tracker[0]), 'tasks');
  assert.equal(toolCategory(tracker.find((t) => t.name === 'ping')!), null);
  assert.equal(toolCategory(servers[0]), 'files');
  const cmd = loadText('c.json', '[{"name": "list", "command": "storage blob list", "description": "List blobs."}]').tools[0];
  assert.equal(toolCategory(cmd), 'storage blob');
});

test('summary: the first sentence, trimmed; a `summary` field wins', () => {
  assert.equal(firstSentence('Get a thing, e.g. a widget. Then more.'), 'Get a thing, e.g. a widget.');
  assert.equal(firstSentence('First line\nstill first sentence. Second.'), 'First line still first sentence.');
  assert.equal(firstSentence('No period here\n\nNext paragraph.'), 'No period here');
  const [t] = loadText('s.yaml', `tools:\n  - name: long_one\n    description: "${'word '.repeat(40)}end."\n    inputSchema: {type: object}\n`).tools;
  const s = toolSummary(t);
  assert.ok(s.length <= 100 && s.endsWith('…'), s);
  const [own] = loadText('s.yaml', 'tools:\n  - name: has_summary\n    summary: Short and sweet\n    description: A long story. With parts.\n    inputSchema: {type: object}\n').tools;
  assert.equal(toolSummary(own), 'Short and sweet');
  const [md] = loadText('s.yaml', 'tools:\n  - name: md_desc\n    description: "**Get** the report. More."\n    inputSchema: {type: object}\n').tools;
  assert.equal(toolSummary(md), 'Get the report.');
});

test('map: categories sorted, tools sorted, uncategorised apart', () => {
  const map = buildToolMap(load('tracker.yaml'));
  assert.deepEqual(map.categories.map((c) => c.name), ['people', 'projects', 'reports', 'tasks']);
  assert.deepEqual(map.categories[3].tools.map((t) => t.name), ['add_task_comment', 'close_task', 'create_task', 'list_tasks', 'remove_task']);
  assert.deepEqual(map.uncategorized, [
    { name: 'get_time_log', summary: 'Get the hours logged against a task, per person and per day.' },
    { name: 'ping', summary: 'Check that the server answers.' },
  ]);
  const md = renderToolMapMarkdown(map);
  assert.match(md, /^# Tool map\n\n12 tools in 4 categories, 2 without a category\.\n/);
  assert.match(md, /\n## people\n\n- `invite_member` — Invite a person to the workspace by email address\.\n- `list_members` — /);
  assert.match(md, /\n## Without a category\n\n- `get_time_log` — Get the hours logged against a task, per person and per day\.\n- `ping` — Check that the server answers\.\n$/);
});

test('map: categories differing only in case are one; a tool written twice is listed once', () => {
  const yaml = 'tools:\n  - {name: a_b, category: Billing, description: One., inputSchema: {type: object}}\n  - {name: c_d, category: billing, description: Two., inputSchema: {type: object}}\n  - {name: a_b, category: billing, description: One., inputSchema: {type: object}}\n';
  const map = buildToolMap(loadText('d.yaml', yaml).tools);
  assert.deepEqual(map, { categories: [{ name: 'Billing', tools: [{ name: 'a_b', summary: 'One.' }, { name: 'c_d', summary: 'Two.' }] }], uncategorized: [] });
  assert.equal(renderToolMapMarkdown({ categories: [], uncategorized: [] }).split('\n')[2], '0 tools in 0 categories.');
});

test('intents: one per line, comments and blank lines skipped, TSV with a header', () => {
  assert.deepEqual(parseIntents(readFileSync(join(FIX, 'intents.txt'), 'utf8')), [
    'show me the tasks assigned to Dana',
    'open a new task for the login bug',
    'invite a colleague by email',
    'order a pizza for the team offsite',
  ]);
  assert.deepEqual(parseIntents(readFileSync(join(FIX, 'intents.tsv'), 'utf8')), ['erase a task', 'book a flight to Lisbon']);
  // A tab-separated file without the header keeps its first line.
  assert.deepEqual(parseIntents('find a task\tlist_tasks\r\n'), ['find a task']);
});

test('intents report: the zero-result rate and each miss', () => {
  const r = intentReport(load('tracker.yaml'), parseIntents(readFileSync(join(FIX, 'intents.txt'), 'utf8')));
  assert.equal(r.total, 4);
  assert.equal(r.zeroResults, 1);
  assert.equal(r.zeroResultRate, 0.25);
  assert.deepEqual(r.misses, ['order a pizza for the team offsite']);
  assert.equal(r.results[0].top[0], 'list_tasks');
  assert.ok(r.results[0].top.length <= 3);
  const md = renderIntentReportMarkdown(r);
  assert.match(md, /Zero-result rate: 1 of 4 intents \(25%\)\./);
  assert.match(md, /\n- order a pizza for the team offsite\n$/);
  assert.deepEqual(intentReport(load('tracker.yaml'), []), { total: 0, zeroResults: 0, zeroResultRate: 0, misses: [], results: [] });
});
