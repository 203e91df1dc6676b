/**
 * Snapshots of the `map`, `search` and `graph` subcommands on the seed-000 catalogue (the
 * fixture) and on a real catalogue of the corpus, so any change in their output shows up in
 * review. Snapshots live in test/snapshots/commands/; a missing one is written, and
 * UPDATE_SNAPSHOTS=1 rewrites them all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMap } from '../server/src/node/commands/map';
import { runSearch } from '../server/src/node/commands/search';
import { runGraph } from '../server/src/node/commands/graph';

const ROOT = join(__dirname, '..');
const SNAPSHOTS = join(__dirname, 'snapshots', 'commands');
const CORPUS = join(ROOT, '..', 'shared', 'corpus');
const GITHUB = join(CORPUS, 'github__github-mcp-server', 'pkg', 'github', '__toolsnaps__');

type Command = (argv: string[], io: { stdout: { write(s: string): unknown }; stderr: { write(s: string): unknown }; cwd: string }) => number;

function call(fn: Command, argv: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const code = fn(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd });
  return { code, stdout, stderr };
}

/** Compares with the snapshot, writing it when missing or asked to; on a difference, shows the first changed line. */
function matchSnapshot(name: string, actual: string): void {
  const file = join(SNAPSHOTS, name);
  if (process.env.UPDATE_SNAPSHOTS || !existsSync(file)) {
    mkdirSync(SNAPSHOTS, { recursive: true });
    writeFileSync(file, actual);
  }
  const expected = readFileSync(file, 'utf8');
  if (actual === expected) return;
  const a = actual.split('\n');
  const e = expected.split('\n');
  let i = 0;
  while (i < a.length && i < e.length && a[i] === e[i]) i++;
  assert.fail(
    `output differs from test/snapshots/commands/${name} at line ${i + 1}:\n` +
      `  snapshot: ${e[i] === undefined ? '(end of file)' : JSON.stringify(e[i])}\n` +
      `  now:      ${a[i] === undefined ? '(end of output)' : JSON.stringify(a[i])}\n` +
      `(${e.length} lines in the snapshot, ${a.length} now). If the change is intended, review it and run UPDATE_SNAPSHOTS=1 npm test -- commands-snapshot`,
  );
}

interface Case {
  name: string;
  fn: Command;
  argv: string[];
}

/** The same commands on each catalogue: map (Markdown, JSON), search for two intents, graph (Mermaid, JSON, order). */
function cases(prefix: string, path: string, intents: [string, string][]): Case[] {
  return [
    { name: `${prefix}.map.md`, fn: runMap, argv: [path] },
    { name: `${prefix}.map.json`, fn: runMap, argv: [path, '--format', 'json'] },
    ...intents.map(([slug, intent]) => ({ name: `${prefix}.search-${slug}.txt`, fn: runSearch, argv: [intent, path] })),
    { name: `${prefix}.graph.mmd`, fn: runGraph, argv: [path] },
    { name: `${prefix}.graph.json`, fn: runGraph, argv: [path, '--format', 'json'] },
    { name: `${prefix}.graph-order.md`, fn: runGraph, argv: [path, '--order'] },
  ];
}

const SEED_CASES = cases('seed000', 'test/fixtures/seed000/before.yaml', [
  ['run-tests', 'run tests against an endpoint'],
  ['create-metric', 'create an evaluation metric'],
]);

for (const c of SEED_CASES) {
  test(`snapshot: ${c.name} (seed-000 fixture)`, () => {
    const r = call(c.fn, c.argv, ROOT);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.length > 0, 'no output');
    assert.ok(!r.stdout.includes(ROOT), 'output holds an absolute path');
    matchSnapshot(c.name, r.stdout);
  });
}

const skip = existsSync(GITHUB) ? false : `the corpus catalogue is not at ${GITHUB}; these snapshots need ../shared/corpus beside the repository`;

// Run from inside the catalogue so the file paths in the output are short and the same everywhere.
for (const c of cases('github', '.', [
  ['comment-on-issue', 'comment on an issue'],
  ['open-pull-request', 'open a pull request'],
])) {
  test(`snapshot: ${c.name} (corpus: github-mcp-server toolsnaps)`, { skip }, () => {
    const r = call(c.fn, c.argv, GITHUB);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.length > 0, 'no output');
    assert.ok(!r.stdout.includes(CORPUS), 'output holds an absolute path');
    matchSnapshot(c.name, r.stdout);
  });
}

test('the seed-000 graph snapshot shows list_endpoints feeding create_test_configuration', () => {
  const r = call(runGraph, ['test/fixtures/seed000/before.yaml'], ROOT);
  assert.match(r.stdout, /^ {2}list_endpoints -->\|"endpoint_id"\| create_test_configuration$/m);
  const j = JSON.parse(call(runGraph, ['test/fixtures/seed000/before.yaml', '--format', 'json'], ROOT).stdout);
  assert.ok(j.edges.some((e: { from: string; to: string; parameter: string }) => e.from === 'list_endpoints' && e.to === 'create_test_configuration' && e.parameter === 'endpoint_id'));
});
