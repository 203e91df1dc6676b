import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SymbolKind, type DocumentSymbol, type Range } from 'vscode-languageserver';
import { startClient, type TestClient } from '../helpers/lsp';

/** No handler failed (a failure is logged and answered with an empty result, which tests could mistake for success). */
function noFailures(c: TestClient): void {
  const failed = c.notifications.filter((n) => n.method === 'window/logMessage' && /failed/.test((n.params as { message: string }).message));
  assert.deepEqual(failed.map((n) => (n.params as { message: string }).message), []);
}

const symbols = (c: TestClient, rel: string) => c.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri: c.uri(rel) } });

/** The text a range covers. */
function slice(text: string, r: Range): string {
  const lines = text.split('\n');
  if (r.start.line === r.end.line) return lines[r.start.line].slice(r.start.character, r.end.character);
  return [lines[r.start.line].slice(r.start.character), ...lines.slice(r.start.line + 1, r.end.line), lines[r.end.line].slice(0, r.end.character)].join('\n');
}

function before(a: Range['start'], b: Range['start']): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character);
}

/** Every symbol's selection lies inside its range, and every range inside the document. */
function checkRanges(text: string, syms: DocumentSymbol[]): void {
  const lines = text.split('\n');
  const end = { line: lines.length - 1, character: lines[lines.length - 1].length };
  const walk = (s: DocumentSymbol): void => {
    assert.ok(s.name.length > 0, 'empty symbol name');
    assert.ok(before(s.range.start, s.selectionRange.start) && before(s.selectionRange.end, s.range.end), `selection of ${s.name} outside its range`);
    assert.ok(before({ line: 0, character: 0 }, s.range.start) && before(s.range.end, end), `range of ${s.name} outside the document`);
    for (const line of [s.range.start, s.range.end]) assert.ok(line.character <= lines[line.line].length, `range of ${s.name} past its line`);
    s.children?.forEach(walk);
  };
  syms.forEach(walk);
}

const YAML_CATALOG = `tools:
  - name: create_widget
    description: |
      Create a widget.
      Returns its id.
    inputSchema:
      type: object
      properties:
        title:
          type: string
          description: Title.
        size:
          type: string
          enum: [small, large]
        options:
          type: object
          properties:
            colour: {type: string}
            tags:
              type: array
              items: {type: string}
      required: [title]
  - name: "scan_widgets"
    description: List widgets.
    inputSchema: {type: object, properties: {limit: {type: [integer, "null"]}}}
`;

test('YAML catalogue: one Function per tool, parameters as children with type and (required), nested properties below', async () => {
  const c = await startClient();
  try {
    await c.open('tools.yaml', YAML_CATALOG);
    const syms = await symbols(c, 'tools.yaml');
    checkRanges(YAML_CATALOG, syms);
    assert.deepEqual(syms.map((s) => [s.name, s.kind, s.detail]), [
      ['create_widget', SymbolKind.Function, 'Create a widget.'],
      ['scan_widgets', SymbolKind.Function, 'List widgets.'],
    ]);
    const [create, list] = syms;
    assert.equal(slice(YAML_CATALOG, create.selectionRange), 'create_widget');
    assert.equal(slice(YAML_CATALOG, list.selectionRange), 'scan_widgets', 'quotes are not part of the name');
    assert.ok(slice(YAML_CATALOG, create.range).startsWith('name: create_widget'));
    assert.ok(slice(YAML_CATALOG, create.range).endsWith('required: [title]'), JSON.stringify(slice(YAML_CATALOG, create.range)));
    assert.deepEqual(create.children!.map((p) => [p.name, p.kind, p.detail]), [
      ['title', SymbolKind.Property, 'string (required)'],
      ['size', SymbolKind.Property, '"small" | "large"'],
      ['options', SymbolKind.Property, 'object'],
    ]);
    const options = create.children![2];
    assert.deepEqual(options.children!.map((p) => [p.name, p.kind, p.detail]), [
      ['colour', SymbolKind.Field, 'string'],
      ['tags', SymbolKind.Field, 'array of string'],
    ]);
    assert.equal(slice(YAML_CATALOG, options.selectionRange), 'options');
    assert.equal(slice(YAML_CATALOG, create.children![0].range), 'title:\n          type: string\n          description: Title.');
    assert.deepEqual(list.children!.map((p) => [p.name, p.detail]), [['limit', 'integer']]);
    noFailures(c);
  } finally {
    await c.dispose();
  }
});

const JSON_CATALOG = `{
  "tools": [
    {
      "name": "get_widget",
      "description": "Get one widget by id.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "id": {"type": "string", "description": "Widget id."},
          "filter": {"anyOf": [{"type": "object", "properties": {"state": {"type": "string"}}}, {"type": "null"}]}
        },
        "required": ["id"]
      }
    }
  ]
}`;

test('JSON catalogue: names without quotes, nested properties through a nullable union', async () => {
  const c = await startClient();
  try {
    await c.open('tools.json', JSON_CATALOG);
    const syms = await symbols(c, 'tools.json');
    checkRanges(JSON_CATALOG, syms);
    assert.equal(syms.length, 1);
    assert.equal(slice(JSON_CATALOG, syms[0].selectionRange), 'get_widget');
    assert.ok(slice(JSON_CATALOG, syms[0].range).startsWith('{\n      "name"'));
    assert.deepEqual(syms[0].children!.map((p) => [p.name, p.detail]), [['id', 'string (required)'], ['filter', 'object']]);
    assert.equal(slice(JSON_CATALOG, syms[0].children![0].selectionRange), 'id');
    assert.deepEqual(syms[0].children![1].children!.map((p) => [p.name, p.kind]), [['state', SymbolKind.Field]]);
    noFailures(c);
  } finally {
    await c.dispose();
  }
});

test('normalised formats point at the entries as written: MXCP parameter lists, argument lists, REST parameter maps, keyed catalogues', async () => {
  const mxcp = 'mxcp: 1\ntool:\n  name: get_widget_stats\n  description: Stats of a widget.\n  parameters:\n    - name: widget_id\n      type: string\n      description: The widget.\n    - name: days\n      type: integer\n      description: Days back.\n      default: 7\n  source: {code: "SELECT 1"}\n';
  const args = '[{"name": "find_widgets", "description": "Find widgets.", "arguments": [{"name": "query", "type": "string", "desc": "Text."}, {"name": "max", "type": "number", "desc": "At most.", "optional": true}]}]';
  const rest = '- name: delete_widget\n  description: Delete a widget.\n  method: DELETE\n  path: /widgets/{id}\n  parameters:\n    id: The widget id.\n    force: {description: Skip the bin.}\n';
  const keyed = '{"archive-widget": {"description": "Archive a widget.", "category": "widgets", "annotations": {"destructiveHint": false}}}';
  const c = await startClient();
  try {
    await c.open('tool.yml', mxcp);
    await c.open('args.json', args);
    await c.open('rest.yaml', rest);
    await c.open('keyed.json', keyed);
    const m = await symbols(c, 'tool.yml');
    checkRanges(mxcp, m);
    assert.equal(slice(mxcp, m[0].selectionRange), 'get_widget_stats');
    assert.ok(slice(mxcp, m[0].range).startsWith('tool:'));
    assert.deepEqual(m[0].children!.map((p) => [p.name, p.detail, slice(mxcp, p.selectionRange)]), [
      ['widget_id', 'string (required)', 'widget_id'],
      ['days', 'integer', 'days'],
    ]);
    assert.ok(slice(mxcp, m[0].children![1].range).startsWith('name: days'));

    const a = await symbols(c, 'args.json');
    checkRanges(args, a);
    assert.deepEqual(a[0].children!.map((p) => [p.name, p.detail, slice(args, p.selectionRange)]), [
      ['query', 'string (required)', 'query'],
      ['max', 'number', 'max'],
    ]);

    const r = await symbols(c, 'rest.yaml');
    checkRanges(rest, r);
    assert.deepEqual(r[0].children!.map((p) => [p.name, slice(rest, p.selectionRange), slice(rest, p.range)]), [
      ['id', 'id', 'id: The widget id.'],
      ['force', 'force', 'force: {description: Skip the bin.}'],
    ]);

    const k = await symbols(c, 'keyed.json');
    checkRanges(keyed, k);
    assert.equal(k[0].name, 'archive-widget');
    assert.equal(slice(keyed, k[0].selectionRange), 'archive-widget');
    assert.ok(slice(keyed, k[0].range).startsWith('"archive-widget": {'));
    assert.deepEqual(k[0].children, []);
    noFailures(c);
  } finally {
    await c.dispose();
  }
});

const EVALS = 'mxcp: 1\nsuite: widget_checks\ndescription: Widgets are found.\ntests:\n  - name: finds_one\n    description: Looks one up.\n    prompt: Show widget 7\n    assertions:\n      must_call:\n        - tool: get_widget\n          args: {}\n  - prompt: unnamed\n    assertions: {must_not_call: [delete_widget]}\n';

test('eval suite: the suite and its tests', async () => {
  const c = await startClient();
  try {
    await c.open('evals/widgets.yml', EVALS);
    const syms = await symbols(c, 'evals/widgets.yml');
    checkRanges(EVALS, syms);
    assert.equal(syms.length, 1);
    const [suite] = syms;
    assert.deepEqual([suite.name, suite.kind, suite.detail, slice(EVALS, suite.selectionRange)], ['widget_checks', SymbolKind.Event, 'Widgets are found.', 'widget_checks']);
    assert.deepEqual(suite.children!.map((t) => [t.name, t.kind, t.detail]), [
      ['finds_one', SymbolKind.Method, 'Looks one up.'],
      ['(test 2)', SymbolKind.Method, 'unnamed'],
    ]);
    assert.equal(slice(EVALS, suite.children![0].selectionRange), 'finds_one');
    assert.ok(slice(EVALS, suite.children![0].range).startsWith('name: finds_one'));
    noFailures(c);
  } finally {
    await c.dispose();
  }
});

test('nothing for empty documents, non-tool files, unknown files and a half-written tool file', async () => {
  const c = await startClient();
  try {
    await c.open('empty.yaml', '');
    await c.open('ci.yaml', 'on: push\njobs: {build: {runs-on: x}}\n');
    assert.deepEqual(await symbols(c, 'empty.yaml'), []);
    assert.deepEqual(await symbols(c, 'ci.yaml'), []);
    assert.deepEqual(await symbols(c, 'nowhere.yaml'), []);
    const half = 'name: make_widget\ndescription: Make one.\ninputSchema:\n  type: object\n  properties:\n    title: {type: string\n    size:\n';
    await c.open('half.yaml', half);
    const syms = await symbols(c, 'half.yaml');
    checkRanges(half, syms);
    // A tool with no name still gets an outline entry with a name.
    const nameless = '- description: No name yet.\n  inputSchema: {type: object}\n  name: ""\n';
    await c.open('nameless/tools.yaml', nameless);
    const n = await symbols(c, 'nameless/tools.yaml');
    checkRanges(nameless, n);
    for (const s of n) assert.ok(s.name.length > 0);
    noFailures(c);
  } finally {
    await c.dispose();
  }
});
