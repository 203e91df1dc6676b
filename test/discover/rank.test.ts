import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadText } from '../../server/src/engine/load';
import { buildCatalog } from '../../server/src/engine/model';
import { analyze, buildIndex, intentTerms, rankTools, stem, synonymsOf } from '../../server/src/engine/discover';

const FIX = join(__dirname, '..', 'fixtures', 'discover');
const tracker = loadText('tracker.yaml', readFileSync(join(FIX, 'tracker.yaml'), 'utf8')).tools;

/** Tools from an inline list: `[name, description, extra YAML lines]`. */
function tools(...defs: [string, string, string?][]) {
  const yaml = 'tools:\n' + defs.map(([n, d, extra]) => `  - name: ${n}\n    description: ${JSON.stringify(d)}\n    inputSchema: {type: object}\n${extra ?? ''}`).join('');
  const f = loadText('t.yaml', yaml);
  assert.equal(f.tools.length, defs.length, 'fixture loads');
  return f.tools;
}

const names = (r: { tool: { name: string | null } }[]) => r.map((x) => x.tool.name);

test('stemmer: inflections and derivations meet at one stem', () => {
  for (const group of [
    ['create', 'creates', 'created', 'creating', 'creation'],
    ['delete', 'deleted', 'deleting', 'deletion'],
    ['update', 'updated', 'updating', 'updates'],
    ['configure', 'configured', 'configuration'],
    ['deploy', 'deploys', 'deployment', 'deployments'],
    ['query', 'queries'],
    ['copy', 'copied', 'copies'],
    ['run', 'runs', 'running'],
    ['organize', 'organization', 'organizations'],
  ]) {
    const stems = new Set(group.map(stem));
    assert.equal(stems.size, 1, `${group.join(', ')} → ${[...stems].join(', ')}`);
  }
  // Words that merely end like a suffix keep their meaning apart.
  assert.notEqual(stem('author'), stem('authorize'));
  assert.notEqual(stem('setting'), stem('set'));
  assert.equal(stem('status'), 'status');
  assert.equal(stem('string'), 'string');
  assert.equal(stem('sent'), stem('send'));
});

test('analysis: names in every style, stop words dropped, adjacent words joined', () => {
  const t = (s: string) => analyze(s).filter((x) => !x.compound).map((x) => x.term);
  assert.deepEqual(t('listOpenIssues'), t('list_open_issues'));
  assert.deepEqual(t('list-open-issues'), t('List open issues'));
  assert.deepEqual(t('Please show me all of the tasks'), ['show', stem('tasks')]);
  const joined = analyze('Open a GitHub pull request, then log in').filter((x) => x.compound).map((x) => x.term);
  assert.ok(joined.includes('github'));
  assert.ok(joined.includes(stem('pullrequest')));
  assert.ok(joined.includes('login'));
  // Punctuation ends a phrase: no pair across a comma.
  assert.ok(!joined.includes(stem('requestthen')) && !joined.includes(stem('requestlog')));
  assert.deepEqual(intentTerms('the the a'), []);
});

test('synonyms: general software vocabulary, both ways', () => {
  assert.ok(synonymsOf(stem('remove')).has(stem('delete')));
  assert.ok(synonymsOf(stem('delete')).has(stem('remove')));
  assert.ok(synonymsOf(stem('fetch')).has(stem('get')));
  assert.ok(synonymsOf(stem('ticket')).has(stem('issue')));
  assert.ok(!synonymsOf(stem('create')).has(stem('delete')));
  const r = rankTools(tools(['drop_widget', 'Drop a widget.'], ['paint_widget', 'Paint a widget.']), 'remove a widget');
  assert.deepEqual(names(r), ['drop_widget', 'paint_widget']);
});

test('synonyms count less than the word itself', () => {
  const r = rankTools(tools(['fetch_order', 'Fetch an order.'], ['get_order', 'Get an order.']), 'get order');
  assert.deepEqual(names(r), ['get_order', 'fetch_order']);
  assert.ok(r[0].score > r[1].score);
});

test('field weights: name > category > description > parameter names', () => {
  const ts = tools(
    ['ledger_sync', 'Synchronise accounts.'],
    ['alpha', 'Synchronise accounts.', '    category: ledger\n'],
    ['beta', 'Synchronise the ledger.'],
    ['gamma', 'Synchronise accounts.', '    inputSchema: {type: object, properties: {ledger: {type: string}}}\n'],
    ['delta', 'Synchronise accounts.'],
  );
  const r = rankTools(ts, 'ledger');
  assert.deepEqual(names(r), ['ledger_sync', 'alpha', 'beta', 'gamma']);
});

test('IDF: a word every tool carries counts less than a rare one', () => {
  const ts = tools(['a_one', 'Widget report.'], ['a_two', 'Widget chart.'], ['a_three', 'Widget export.'], ['a_four', 'Gadget export.']);
  // `widget` is in three tools, `gadget` in one: the gadget tool wins "widget gadget".
  const r = rankTools(ts, 'widget gadget');
  assert.equal(r[0].tool.name, 'a_four');
  assert.equal(r.length, 4);
});

test('ties are broken by name, deterministically', () => {
  const ts = tools(['zeta', 'Plan a trip.'], ['alpha', 'Plan a trip.'], ['mid', 'Plan a trip.']);
  const r = rankTools(ts, 'plan trip');
  assert.deepEqual(names(r), ['alpha', 'mid', 'zeta']);
  assert.equal(r[0].score, r[2].score);
  assert.deepEqual(names(rankTools([...ts].reverse(), 'plan trip')), ['alpha', 'mid', 'zeta']);
});

test('zero results: no word matches, or only a verb of action does', () => {
  assert.deepEqual(rankTools(tracker, 'book a flight to Lisbon'), []);
  assert.deepEqual(rankTools(tracker, 'the of and'), []);
  assert.deepEqual(rankTools(tracker, ''), []);
  // `create` matches the task tool, but the intent names a spaceship, which nothing serves.
  assert.deepEqual(rankTools(tracker, 'create a spaceship'), []);
  // An intent of verbs only matches on verbs.
  assert.equal(rankTools(tracker, 'create')[0].tool.name, 'create_task');
});

test('ranks the tracker fixture for plain intents', () => {
  const top = (q: string) => rankTools(tracker, q)[0]?.tool.name;
  assert.equal(top('show me the tasks assigned to Dana'), 'list_tasks');
  assert.equal(top('open a new task'), 'create_task');
  assert.equal(top('delete a task for good'), 'remove_task');
  assert.equal(top('comment on a task'), 'add_task_comment');
  assert.equal(top('invite a colleague by email'), 'invite_member');
  assert.equal(top('how many hours were logged on this task'), 'get_time_log');
  assert.equal(top('show all projects'), 'list_projects');
});

test('categories from multi-server dumps count as the category field', () => {
  const servers = loadText('servers.json', readFileSync(join(FIX, 'servers.json'), 'utf8')).tools;
  // `mail` is only the server's name: both of its tools, and no other, match it.
  assert.deepEqual(names(rankTools(servers, 'mail')), ['search_inbox', 'send_message']);
  assert.equal(rankTools(servers, 'send mail')[0].tool.name, 'send_message');
  assert.deepEqual(names(rankTools(servers, 'create a folder')), ['make_folder', 'upload']);
});

test('limit and all', () => {
  assert.equal(rankTools(tracker, 'task', { limit: 2 }).length, 2);
  const all = rankTools(tracker, 'task', { all: true });
  assert.equal(all.length, tracker.length);
  const zero = all.filter((r) => r.score === 0).map((r) => r.tool.name);
  assert.deepEqual(zero, [...zero].sort(), 'unmatched tools follow, by name');
  assert.ok(!zero.includes('list_tasks'));
});

test('the index is built once per catalogue and skips unnamed tools', () => {
  const catalog = buildCatalog([loadText('tracker.yaml', readFileSync(join(FIX, 'tracker.yaml'), 'utf8'))]);
  const a = buildIndex(catalog);
  assert.equal(buildIndex(catalog), a);
  assert.equal(a.tools.length, 12);
  assert.deepEqual(names(rankTools(catalog, 'archive')), names(rankTools(a, 'archive')));
  const unnamed = loadText('u.json', '{"tools": [{"name": "", "description": "Archive things.", "inputSchema": {"type": "object"}}]}').tools;
  assert.deepEqual(rankTools(unnamed, 'archive'), []);
});

test('ranking a large catalogue is fast once indexed', () => {
  const many = tools(...Array.from({ length: 400 }, (_, i): [string, string] => [`op_${i}_thing${i % 37}`, `Handle record kind ${i % 53} for region ${i % 11} and report its state.`]));
  const index = buildIndex(many);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < 200; i++) rankTools(index, `report the state of record kind ${i}`);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  assert.ok(ms < 2000, `200 queries over 400 tools took ${ms.toFixed(0)} ms`);
});
