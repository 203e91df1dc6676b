import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startClient, type TestClient } from '../helpers/lsp';

interface Lens {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  command: { title: string; command: string; arguments: unknown[] };
}

function lenses(c: TestClient, rel: string): Promise<Lens[]> {
  return c.request<Lens[]>('textDocument/codeLens', { textDocument: { uri: c.uri(rel) } });
}

const YAML = `tools:
  - name: list_notes
    description: List notes.
    inputSchema: {type: object, properties: {}}
  - name: create_note
    description: Create a note.
    inputSchema:
      type: object
      properties:
        body: {type: string, description: Note text.}
        tenant_id: {type: string, description: Tenant.}
      required: [body]
`;

test('one lens per tool at its name, with the token count of the hover preview and the preview command', async () => {
  const c = await startClient();
  try {
    await c.open('notes.yaml', YAML);
    const got = await lenses(c, 'notes.yaml');
    assert.equal(got.length, 2);
    assert.deepEqual(got.map((l) => l.range), [
      { start: { line: 1, character: 10 }, end: { line: 1, character: 20 } },
      { start: { line: 4, character: 10 }, end: { line: 4, character: 21 } },
    ]);
    for (const l of got) {
      assert.match(l.command.title, /^≈ \d+ tokens · preview$/);
      assert.equal(l.command.command, 'mcpToolLint.previewPrompt');
      assert.deepEqual(l.command.arguments, [c.uri('notes.yaml')]);
    }
    // The server-managed `tenant_id` is not counted: the count is the hover's.
    const h = await c.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri: c.uri('notes.yaml') }, position: { line: 4, character: 12 } });
    const tokens = /≈ (\d+) tokens/.exec(h.contents.value)?.[1];
    assert.equal(got[1].command.title, `≈ ${tokens} tokens · preview`);
    const rendered = '### create_note\nCreate a note.\n\nParameters:\n- body (required) [string]: Note text.';
    assert.equal(tokens, String(Math.ceil(rendered.length / 4)));
    // Running the lens's command gives the preview of this document.
    const text = await c.request<string>('workspace/executeCommand', got[0].command);
    assert.match(text, /### list_notes[\s\S]*### create_note/);
  } finally {
    await c.dispose();
  }
});

test('lenses follow edits, work on JSON and keyed catalogues, and are absent on eval, non-tool and empty files', async () => {
  const c = await startClient();
  try {
    await c.open('notes.yaml', YAML);
    assert.equal((await lenses(c, 'notes.yaml')).length, 2);
    await c.change('notes.yaml', YAML.split('  - name: create_note')[0], 2);
    assert.equal((await lenses(c, 'notes.yaml')).length, 1);

    const keyed = '{\n  "create-thing": {"description": "Create a thing.", "category": "things", "annotations": {}},\n  "get-thing": {"description": "Get a thing.", "category": "things", "annotations": {}}\n}\n';
    await c.open('defs.json', keyed);
    const k = await lenses(c, 'defs.json');
    assert.deepEqual(k.map((l) => l.range.start), [{ line: 1, character: 2 }, { line: 2, character: 2 }]);

    const json = JSON.stringify([{ name: 'get_widget', description: 'Get a widget.', inputSchema: { type: 'object' } }], null, 2);
    await c.open('w.json', json);
    const j = await lenses(c, 'w.json');
    assert.equal(j.length, 1);
    assert.deepEqual(j[0].range.start, { line: 2, character: 12 });

    await c.open('evals.yml', 'mxcp: 1\nsuite: s\ndescription: d\ntests:\n  - name: t\n    prompt: p\n    assertions: {must_call: [{tool: list_notes, args: {}}]}\n');
    assert.deepEqual(await lenses(c, 'evals.yml'), []);
    await c.open('ci.yaml', 'on: push\njobs: {build: {runs-on: x}}\n');
    assert.deepEqual(await lenses(c, 'ci.yaml'), []);
    await c.open('empty.yaml', '');
    assert.deepEqual(await lenses(c, 'empty.yaml'), []);
    assert.deepEqual(await lenses(c, 'missing.yaml'), []);
  } finally {
    await c.dispose();
  }
});
