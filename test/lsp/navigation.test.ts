import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Location } from 'vscode-languageserver';
import { startClient, type TestClient } from '../helpers/lsp';

/** No handler failed (a failure is logged and answered with an empty result, which tests could mistake for success). */
function noFailures(c: TestClient): void {
  const failed = c.notifications.filter((n) => n.method === 'window/logMessage' && /failed/.test((n.params as { message: string }).message));
  assert.deepEqual(failed.map((n) => (n.params as { message: string }).message), []);
}

/** LSP position of the `n`-th occurrence of `needle` in `text`, `delta` characters into it. */
function at(text: string, needle: string, delta = 0, n = 0): { line: number; character: number } {
  let i = -1;
  for (let k = 0; k <= n; k++) {
    i = text.indexOf(needle, i + 1);
    assert.ok(i >= 0, `${needle} not found`);
  }
  const off = i + delta;
  const lines = text.slice(0, off).split('\n');
  return { line: lines.length - 1, character: lines[lines.length - 1].length };
}

/** `rel:line:character-endCharacter` of a location, for readable assertions. */
function where(c: TestClient, l: Location): string {
  const rel = l.uri.slice(c.uri('').length + 1);
  assert.equal(l.range.start.line, l.range.end.line);
  return `${rel}:${l.range.start.line}:${l.range.start.character}-${l.range.end.character}`;
}

/** The text each location covers, given the documents' texts by relative path. */
function covered(c: TestClient, texts: Record<string, string>, locs: Location[] | null): string[] {
  return (locs ?? []).map((l) => texts[l.uri.slice(c.uri('').length + 1)].split('\n')[l.range.start.line].slice(l.range.start.character, l.range.end.character));
}

const definition = (c: TestClient, rel: string, position: { line: number; character: number }) =>
  c.request<Location[] | null>('textDocument/definition', { textDocument: { uri: c.uri(rel) }, position });
const references = (c: TestClient, rel: string, position: { line: number; character: number }, includeDeclaration = true) =>
  c.request<Location[] | null>('textDocument/references', { textDocument: { uri: c.uri(rel) }, position, context: { includeDeclaration } });

/** On disk only (indexed at start-up, never opened). */
const DISK = `tools:
  - name: create_widget
    description: Create a widget. Call \`scan_widgets\` first to avoid duplicates.
    inputSchema:
      type: object
      properties:
        title: {type: string, description: "Title; see scan_widgets."}
  - name: scan_widgets
    description: List widgets.
    inputSchema: {type: object}
`;

const OPEN_JSON = `[
  {
    "name": "archive_widget",
    "description": "Archive a widget found with scan_widgets or create_widget.\\nscan_widgets_v2 and xscan_widgets are other words.",
    "inputSchema": {"type": "object", "properties": {"id": {"type": "string", "description": "From \`scan_widgets\`."}}}
  }
]`;

const EVALS = `mxcp: 1
suite: s
tests:
  - name: t
    prompt: p
    assertions:
      must_call:
        - tool: scan_widgets
          args: {}
      must_not_call:
        - archive_widget
        - "create_widget"
  - name: u
    prompt: q
    assertions: {must_call: [{tool: scan_widgets, args: {}}], must_not_call: [no_such_tool]}
`;

test('definition: from a mention in a description (backticked or bare) into a file indexed from disk', async () => {
  const c = await startClient({ files: { 'a/tools.yaml': DISK } });
  try {
    await c.open('b/more.json', OPEN_JSON);
    // Bare mention, on its first and last character.
    for (const d of [0, 5, 'scan_widgets'.length]) {
      const defs = await definition(c, 'b/more.json', at(OPEN_JSON, 'scan_widgets', d));
      assert.deepEqual(defs?.map((l) => where(c, l)), ['a/tools.yaml:7:10-22'], `delta ${d}`);
    }
    // Another tool of the same description, and one in a parameter's description in backticks.
    assert.deepEqual((await definition(c, 'b/more.json', at(OPEN_JSON, 'create_widget', 2)))?.map((l) => where(c, l)), ['a/tools.yaml:1:10-23']);
    assert.deepEqual((await definition(c, 'b/more.json', at(OPEN_JSON, '`scan_widgets`', 3)))?.map((l) => where(c, l)), ['a/tools.yaml:7:10-22']);
    // Longer words that only contain a tool name are not mentions; nor is prose.
    assert.equal(await definition(c, 'b/more.json', at(OPEN_JSON, 'scan_widgets_v2', 3)), null);
    assert.equal(await definition(c, 'b/more.json', at(OPEN_JSON, 'xscan_widgets', 3)), null);
    assert.equal(await definition(c, 'b/more.json', at(OPEN_JSON, 'Archive a', 1)), null);
    // On a tool's own name: its own location.
    assert.deepEqual((await definition(c, 'b/more.json', at(OPEN_JSON, 'archive_widget', 4)))?.map((l) => where(c, l)), ['b/more.json:2:13-27']);
    // Keys, schema and positions outside any tool: nothing.
    assert.equal(await definition(c, 'b/more.json', at(OPEN_JSON, '"inputSchema"', 3)), null);
    assert.equal(await definition(c, 'b/more.json', { line: 0, character: 0 }), null);
    assert.equal(await definition(c, 'b/more.json', { line: 999, character: 999 }), null);
    assert.equal(await definition(c, 'b/unknown.json', { line: 0, character: 0 }), null);
    noFailures(c);
  } finally {
    await c.dispose();
  }
});

test('definition: from eval entries (`tool:` of must_call, items of must_not_call, flow style) to the tools', async () => {
  const c = await startClient({ files: { 'a/tools.yaml': DISK } });
  try {
    await c.open('b/more.json', OPEN_JSON);
    await c.open('evals/e.yml', EVALS);
    const def = async (needle: string, delta: number, n = 0) => (await definition(c, 'evals/e.yml', at(EVALS, needle, delta, n)))?.map((l) => where(c, l)) ?? null;
    assert.deepEqual(await def('tool: scan_widgets', 8), ['a/tools.yaml:7:10-22']);
    assert.deepEqual(await def('- archive_widget', 4), ['b/more.json:2:13-27']);
    assert.deepEqual(await def('"create_widget"', 1), ['a/tools.yaml:1:10-23']);
    assert.deepEqual(await def('scan_widgets', 2, 1), ['a/tools.yaml:7:10-22'], 'flow style');
    // An unknown tool, the suite's own keys and a test name lead nowhere.
    assert.equal(await def('no_such_tool', 2), null);
    assert.equal(await def('must_call', 2), null);
    assert.equal(await def('name: t', 6), null);
    noFailures(c);
  } finally {
    await c.dispose();
  }
});

test('references: the definition, mentions in all descriptions (also unopened files) and eval entries', async () => {
  const c = await startClient({ files: { 'a/tools.yaml': DISK, 'evals/e.yml': EVALS } });
  try {
    await c.open('b/more.json', OPEN_JSON);
    const expected = [
      'a/tools.yaml:7:10-22', // the definition
      'a/tools.yaml:2:40-52', // `scan_widgets` in create_widget's description
      'a/tools.yaml:6:55-67', // in a parameter description
      'b/more.json:3:48-60', // bare, in a JSON description
      'b/more.json:4:100-112', // in a JSON parameter description
      'evals/e.yml:7:16-28', // must_call
      'evals/e.yml:14:36-48', // flow must_call
    ].sort();
    const fromMention = await references(c, 'b/more.json', at(OPEN_JSON, 'scan_widgets', 1));
    assert.deepEqual(fromMention?.map((l) => where(c, l)).sort(), expected);
    const texts = { 'a/tools.yaml': DISK, 'b/more.json': OPEN_JSON, 'evals/e.yml': EVALS };
    assert.deepEqual(new Set(covered(c, texts, fromMention)), new Set(['scan_widgets']));
    // From the definition (a file only on disk is opened now), without the declaration.
    await c.open('a/tools.yaml', DISK);
    const fromDef = await references(c, 'a/tools.yaml', at(DISK, 'name: scan_widgets', 8), false);
    assert.deepEqual(fromDef?.map((l) => where(c, l)).sort(), expected.filter((e) => e !== 'a/tools.yaml:7:10-22'));
    // From an eval entry (must_not_call, quoted).
    await c.open('evals/e.yml', EVALS);
    const fromEval = await references(c, 'evals/e.yml', at(EVALS, '"create_widget"', 3));
    assert.deepEqual(fromEval?.map((l) => where(c, l)).sort(), ['a/tools.yaml:1:10-23', 'b/more.json:3:64-77', 'evals/e.yml:11:11-24'].sort());
    assert.deepEqual(new Set(covered(c, texts, fromEval)), new Set(['create_widget']));
    // An unknown tool named by an eval: its eval entries only.
    const unknown = await references(c, 'evals/e.yml', at(EVALS, 'no_such_tool', 1));
    assert.deepEqual(unknown?.map((l) => where(c, l)), ['evals/e.yml:14:78-90']);
    // Nothing at positions that name no tool.
    assert.deepEqual(await references(c, 'b/more.json', at(OPEN_JSON, '"description"', 2)), []);
    assert.deepEqual(await references(c, 'b/more.json', { line: 500, character: 0 }), []);
    noFailures(c);
  } finally {
    await c.dispose();
  }
});

test('navigation in a YAML keyed catalogue and a block description; nothing in empty or unknown documents', async () => {
  const keyed = `fetch-widget:
  description: >-
    Fetch one widget. Pair it with
    \`store-widget\` to save changes.
  category: widgets
  annotations: {readOnlyHint: true}
store-widget:
  description: Store a widget; use fetch-widget first.
  category: widgets
  annotations: {readOnlyHint: false}
`;
  const c = await startClient();
  try {
    await c.open('keyed.yaml', keyed);
    await c.open('empty.yaml', '');
    assert.deepEqual((await definition(c, 'keyed.yaml', at(keyed, '`store-widget`', 7)))?.map((l) => where(c, l)), ['keyed.yaml:6:0-12']);
    const refs = await references(c, 'keyed.yaml', at(keyed, 'fetch-widget', 0));
    assert.deepEqual(refs?.map((l) => where(c, l)).sort(), ['keyed.yaml:0:0-12', 'keyed.yaml:7:35-47'].sort());
    assert.deepEqual(covered(c, { 'keyed.yaml': keyed }, refs), ['fetch-widget', 'fetch-widget']);
    assert.equal(await definition(c, 'empty.yaml', { line: 0, character: 0 }), null);
    assert.equal(await definition(c, 'empty.yaml', { line: 3, character: 7 }), null);
    assert.deepEqual(await references(c, 'empty.yaml', { line: 0, character: 0 }), []);
    noFailures(c);
  } finally {
    await c.dispose();
  }
});
