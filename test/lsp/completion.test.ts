import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CompletionItemKind, type CompletionItem, type CompletionList, type TextEdit } from 'vscode-languageserver';
import { startClient, type TestClient } from '../helpers/lsp';

/** No handler failed (a failure is logged and answered with an empty result, which tests could mistake for success). */
function noFailures(c: TestClient): void {
  const failed = c.notifications.filter((n) => n.method === 'window/logMessage' && /failed/.test((n.params as { message: string }).message));
  assert.deepEqual(failed.map((n) => (n.params as { message: string }).message), []);
}

const CURSOR = '¦';

/** Open `text` (with one `¦` marking the cursor) and ask for completions there. */
async function complete(c: TestClient, rel: string, marked: string, version = 1): Promise<{ items: CompletionItem[]; text: string; apply: (label: string) => string }> {
  const i = marked.indexOf(CURSOR);
  assert.ok(i >= 0, 'no cursor in the text');
  const text = marked.slice(0, i) + marked.slice(i + 1);
  if (version === 1) await c.open(rel, text);
  else await c.change(rel, text, version);
  const lines = text.slice(0, i).split('\n');
  const position = { line: lines.length - 1, character: lines[lines.length - 1].length };
  const res = await c.request<CompletionItem[] | CompletionList | null>('textDocument/completion', { textDocument: { uri: c.uri(rel) }, position });
  const items = Array.isArray(res) ? res : (res?.items ?? []);
  for (const it of items) {
    const e = it.textEdit as TextEdit;
    assert.ok(e && e.range.start.line === position.line && e.range.end.line === position.line, `${it.label}: edit not on the cursor's line`);
    assert.ok(e.range.start.character <= position.character && position.character <= e.range.end.character, `${it.label}: edit does not hold the cursor`);
  }
  /** The text after accepting an item. */
  const apply = (label: string): string => {
    const it = items.find((x) => x.label === label);
    assert.ok(it, `no item ${label}`);
    const e = it.textEdit as TextEdit;
    const ls = text.split('\n');
    const line = ls[e.range.start.line];
    ls[e.range.start.line] = line.slice(0, e.range.start.character) + e.newText + line.slice(e.range.end.character);
    return ls.join('\n');
  };
  return { items, text, apply };
}

const labels = (items: CompletionItem[]) => items.map((i) => i.label).sort();

const TOOLS = `tools:
  - name: search_widgets
    description: |
      Search widgets by text.
      Returns ids.
    inputSchema:
      type: object
      properties:
        query: {type: string, description: Words to find.}
        limit: {type: integer}
        filter:
          type: object
          properties:
            colour: {type: string, enum: [red, blue]}
            size: {type: string}
      required: [query]
  - name: get_widget
    description: Get one widget.
    inputSchema: {type: object, properties: {id: {type: string}}, required: [id]}
`;

const SUITE = 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      must_call:\n        - tool: some_tool\n          args: {}\n';

test('eval suite: tool names for `tool:` of must_call, on an empty value, a partial name and in flow style', async () => {
  const c = await startClient({ files: { 'tools/widgets.yaml': TOOLS } });
  try {
    // The brief's example, with the value being replaced.
    const base = await complete(c, 'evals/a.yml', SUITE.replace('tool: some_tool', `tool: some${CURSOR}_tool`));
    assert.deepEqual(labels(base.items), ['get_widget', 'search_widgets']);
    const search = base.items.find((i) => i.label === 'search_widgets')!;
    assert.equal(search.kind, CompletionItemKind.Function);
    assert.equal(search.detail, 'Search widgets by text.');
    assert.deepEqual(search.documentation, { kind: 'markdown', value: '### search_widgets\nSearch widgets by text.\nReturns ids.\n\nParameters:\n- query (required) [string]: Words to find.\n- limit [integer]: \n- filter [object]: ' });
    assert.match(base.apply('get_widget'), /- tool: get_widget\n/);

    // Half-written: nothing after `tool:` yet (the tree has no node there).
    const empty = await complete(c, 'evals/b.yml', 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      must_call:\n        - tool: ' + CURSOR + '\n');
    assert.deepEqual(labels(empty.items), ['get_widget', 'search_widgets']);
    assert.match(empty.apply('search_widgets'), /- tool: search_widgets\n/);
    // CRLF line breaks.
    const crlf = await complete(c, 'evals/b2.yml', 'mxcp: 1\r\nsuite: s\r\ntests:\r\n  - name: t\r\n    prompt: p\r\n    assertions:\r\n      must_call:\r\n        - tool: ' + CURSOR + '\r\n          args:\r\n            ' + '\r\n');
    assert.deepEqual(labels(crlf.items), ['get_widget', 'search_widgets']);
    // Right after the colon: a space is added.
    const colon = await complete(c, 'evals/c.yml', 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      must_call:\n        - args: {}\n          tool:' + CURSOR);
    assert.match(colon.apply('get_widget'), /tool: get_widget$/);
    // A quoted value being typed gets its closing quote.
    const quoted = await complete(c, 'evals/d.yml', 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      must_call:\n        - tool: "get' + CURSOR + '\n');
    assert.match(quoted.apply('get_widget'), /- tool: "get_widget"\n/);
    // Flow style on one line.
    const flow = await complete(c, 'evals/e.yml', 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions: {must_call: [{tool: sea' + CURSOR + '}]}\n');
    assert.match(flow.apply('search_widgets'), /\{tool: search_widgets\}/);
    // Compact sequence (dash at the key's column).
    const compact = await complete(c, 'evals/f.yml', 'mxcp: 1\nsuite: s\ntests:\n- name: t\n  prompt: p\n  assertions:\n    must_call:\n    - tool: ' + CURSOR + '\n');
    assert.deepEqual(labels(compact.items), ['get_widget', 'search_widgets']);
    noFailures(c);
  } finally {
    await c.dispose();
  }
});

test('eval suite: tool names for must_not_call items, block and flow', async () => {
  const c = await startClient({ files: { 'tools/widgets.yaml': TOOLS } });
  try {
    const block = await complete(c, 'evals/a.yml', 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      must_not_call:\n        - get_widget\n        - ' + CURSOR + '\n      answer_contains: [x]\n');
    assert.deepEqual(labels(block.items), ['get_widget', 'search_widgets']);
    assert.match(block.apply('search_widgets'), /\n {8}- search_widgets\n/);
    const flow = await complete(c, 'evals/b.yml', 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      must_not_call: [get_widget, s' + CURSOR + ']\n');
    assert.match(flow.apply('search_widgets'), /\[get_widget, search_widgets\]/);
    // A must_call entry written as the tool name alone.
    const alone = await complete(c, 'evals/a2.yml', 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      must_call:\n        - get' + CURSOR + '\n');
    assert.match(alone.apply('get_widget'), /\n {8}- get_widget\n/);
    // A list item elsewhere (answer_contains) is no place for a tool.
    const other = await complete(c, 'evals/c.yml', 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      answer_contains:\n        - ' + CURSOR + '\n');
    assert.deepEqual(other.items, []);
    noFailures(c);
  } finally {
    await c.dispose();
  }
});

test('eval suite: argument names inside `args:` of a must_call entry whose tool is known', async () => {
  const c = await startClient({ files: { 'tools/widgets.yaml': TOOLS } });
  try {
    const head = 'mxcp: 1\nsuite: s\ntests:\n  - name: t\n    prompt: p\n    assertions:\n      must_call:\n';
    // An empty line under `args:`: the tool's parameters, required first, minus those written.
    const block = await complete(c, 'evals/a.yml', head + '        - tool: search_widgets\n          args:\n            limit: 3\n            ' + CURSOR + '\n');
    assert.deepEqual(block.items.map((i) => i.label), ['query', 'filter']);
    const query = block.items[0];
    assert.equal(query.kind, CompletionItemKind.Property);
    assert.equal(query.detail, 'string');
    assert.equal(query.insertText, 'query: ');
    assert.ok(query.sortText! < block.items[1].sortText!);
    assert.match(block.apply('query'), /\n {12}query: \n/);
    // A key being typed, with `tool:` written after `args:`.
    const partial = await complete(c, 'evals/b.yml', head + '        - args:\n            qu' + CURSOR + '\n          tool: search_widgets\n');
    assert.deepEqual(labels(partial.items), ['filter', 'limit', 'query']);
    assert.match(partial.apply('query'), /\n {12}query: \n/);
    // Nested: the properties of an object argument.
    const nested = await complete(c, 'evals/c.yml', head + '        - tool: search_widgets\n          args:\n            filter:\n              ' + CURSOR + '\n');
    assert.deepEqual(nested.items.map((i) => [i.label, i.detail]), [['colour', '"red" | "blue"'], ['size', 'string']]);
    // Inside a flow mapping: the brief's `args: {}`.
    const flow = await complete(c, 'evals/d.yml', head + '        - tool: get_widget\n          args: {' + CURSOR + '}\n');
    assert.deepEqual(labels(flow.items), ['id']);
    assert.match(flow.apply('id'), /args: \{id: \}/);
    const flowKey = await complete(c, 'evals/d2.yml', head + '        - tool: search_widgets\n          args: {limit: 2, qu' + CURSOR + '}\n');
    assert.deepEqual(labels(flowKey.items), ['filter', 'query']);
    assert.match(flowKey.apply('query'), /args: \{limit: 2, query: \}/);
    // Replacing a written key keeps its colon.
    const rekey = await complete(c, 'evals/e.yml', head + '        - tool: search_widgets\n          args:\n            li' + CURSOR + 'mit: 3\n');
    assert.match(rekey.apply('query'), /\n {12}query: 3\n/);
    // Unknown tool, or no tool yet: nothing.
    assert.deepEqual((await complete(c, 'evals/f.yml', head + '        - tool: no_such_tool\n          args:\n            ' + CURSOR + '\n')).items, []);
    assert.deepEqual((await complete(c, 'evals/g.yml', head + '        - args:\n            ' + CURSOR + '\n')).items, []);
    noFailures(c);
  } finally {
    await c.dispose();
  }
});

test('eval suite in JSON: tool names and arguments from the tree', async () => {
  const c = await startClient({ files: { 'tools/widgets.yaml': TOOLS } });
  try {
    const json = (inner: string) => `{"mxcp": 1, "suite": "s", "tests": [{"name": "t", "prompt": "p", "assertions": ${inner}}]}`;
    const tool = await complete(c, 'evals/a.json', json(`{"must_call": [{"tool": "g${CURSOR}", "args": {}}]}`));
    assert.deepEqual(labels(tool.items), ['get_widget', 'search_widgets']);
    assert.match(tool.apply('get_widget'), /"tool": "get_widget"/);
    const list = await complete(c, 'evals/b.json', json(`{"must_not_call": [${CURSOR}]}`));
    assert.match(list.apply('get_widget'), /"must_not_call": \["get_widget"\]/);
    const args = await complete(c, 'evals/c.json', json(`{"must_call": [{"tool": "search_widgets", "args": {"limit": 1, ${CURSOR}}}]}`));
    assert.deepEqual(labels(args.items), ['filter', 'query']);
    assert.match(args.apply('query'), /"limit": 1, "query": \}/);
    const key = await complete(c, 'evals/d.json', json(`{"must_call": [{"tool": "search_widgets", "args": {"li${CURSOR}": 1}}]}`));
    assert.deepEqual(labels(key.items), ['filter', 'limit', 'query']);
    assert.match(key.apply('limit'), /"args": \{"limit": 1\}/);
    noFailures(c);
  } finally {
    await c.dispose();
  }
});

test('descriptions: tool names after a backtick (YAML and JSON), not the tool itself, not elsewhere', async () => {
  const c = await startClient({ files: { 'tools/widgets.yaml': TOOLS } });
  try {
    const yaml = await complete(c, 'tools/more.yaml', '- name: delete_widget\n  description: Delete a widget. Find it with `sea' + CURSOR + '\n  inputSchema: {type: object}\n');
    assert.deepEqual(labels(yaml.items), ['get_widget', 'search_widgets']);
    assert.match(yaml.apply('search_widgets'), /Find it with `search_widgets`\n/);
    const item = yaml.items.find((i) => i.label === 'get_widget')!;
    assert.equal(item.detail, 'Get one widget.');
    assert.match((item.documentation as { value: string }).value, /^### get_widget\nGet one widget\./);
    // A closing backtick already there is kept; block descriptions and parameter descriptions work too.
    const block = await complete(c, 'tools/block.yaml', '- name: delete_widget\n  description: |\n    Delete a widget.\n    Use `' + CURSOR + '` first.\n  inputSchema:\n    type: object\n    properties:\n      id: {type: string, description: "From `get_widget`."}\n');
    assert.deepEqual(labels(block.items), ['get_widget', 'search_widgets'], 'the tool itself is left out');
    assert.match(block.apply('get_widget'), /Use `get_widget` first\./);
    const param = await complete(c, 'tools/param.json', '[{"name": "delete_widget", "description": "d", "inputSchema": {"type": "object", "properties": {"id": {"type": "string", "description": "From `ge' + CURSOR + '"}}}}]');
    assert.match(param.apply('get_widget'), /"From `get_widget`"/);
    // No open backtick, a closed pair, a name, a key: nothing.
    const none = ['- name: delete_widget\n  description: Delete a ' + CURSOR + 'widget.\n  inputSchema: {type: object}\n', '- name: delete_widget\n  description: Use `get_widget` ' + CURSOR + '\n  inputSchema: {type: object}\n', '- name: dele' + CURSOR + 'te_widget\n  description: d\n  inputSchema: {type: object}\n', '- name: delete_widget\n  description: d\n  input' + CURSOR + 'Schema: {type: object}\n'];
    for (const [i, text] of none.entries()) assert.deepEqual((await complete(c, `tools/none${i}.yaml`, text)).items, [], text);
    noFailures(c);
  } finally {
    await c.dispose();
  }
});

test('odd positions: past the end, empty documents, unknown files, other YAML', async () => {
  const c = await startClient({ files: { 'tools/widgets.yaml': TOOLS } });
  try {
    await c.open('evals/a.yml', SUITE);
    const req = (rel: string, line: number, character: number) => c.request<CompletionItem[]>('textDocument/completion', { textDocument: { uri: c.uri(rel) }, position: { line, character } });
    assert.ok(Array.isArray(await req('evals/a.yml', 999, 999)));
    assert.ok(Array.isArray(await req('evals/a.yml', 0, 999)));
    await c.open('empty.yaml', '');
    assert.deepEqual(await req('empty.yaml', 0, 0), []);
    assert.deepEqual(await req('nowhere.yaml', 0, 0), []);
    await c.open('ci.yaml', 'on: push\njobs:\n  - tool: \n');
    assert.deepEqual(await req('ci.yaml', 2, 10), []);
    // Every position of a suite answers without failing.
    const lines = SUITE.split('\n');
    for (let l = 0; l < lines.length; l++) for (let ch = 0; ch <= lines[l].length; ch++) assert.ok(Array.isArray(await req('evals/a.yml', l, ch)));
    noFailures(c);
  } finally {
    await c.dispose();
  }
});

test('half-written documents: every prefix of a suite and a catalogue, at every position, answers without failing', async () => {
  const { Workspace } = await import('../../server/src/lsp/workspace');
  const { getCompletions } = await import('../../server/src/lsp/completion');
  const { getDefinition, getReferences } = await import('../../server/src/lsp/navigation');
  const { getDocumentSymbols } = await import('../../server/src/lsp/symbols');
  const errors: string[] = [];
  const ws = new Workspace({ log: () => undefined, error: (m) => errors.push(m) });
  ws.open('file:///w/tools.yaml', TOOLS, 1);
  const suite = SUITE + '      must_not_call: [get_widget]\n  - name: u\n    prompt: q\n    assertions:\n      must_call:\n        - tool: search_widgets\n          args:\n            filter: {colour: red}\n';
  let v = 1;
  for (const [uri, full] of [['file:///w/e.yml', suite], ['file:///w/t.yaml', TOOLS], ['file:///w/t.json', JSON.stringify({ tools: [{ name: 'a_b', description: 'Use `search_widgets`.', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } }] })]] as const) {
    for (let n = 0; n <= full.length; n += 3) {
      const text = full.slice(0, n);
      ws.change(uri, text, ++v);
      getDocumentSymbols(ws, uri);
      for (const off of [-1, text.length + 5, ...Array.from({ length: Math.ceil((text.length + 1) / 2) }, (_, i) => i * 2)]) {
        getCompletions(ws, uri, off);
        getDefinition(ws, uri, off);
        getReferences(ws, uri, off, true);
      }
    }
  }
  assert.deepEqual(errors, []);
});
