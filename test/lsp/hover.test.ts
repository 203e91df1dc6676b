import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startClient, type TestClient } from '../helpers/lsp';

interface HoverResult {
  contents: { kind: string; value: string };
  range?: { start: { line: number; character: number }; end: { line: number; character: number } };
}

/** The 0-based position of the `nth` occurrence of `needle`, `delta` characters in. */
function at(text: string, needle: string, delta = 1, nth = 0): { line: number; character: number } {
  let i = -1;
  for (let k = 0; k <= nth; k++) {
    i = text.indexOf(needle, i + 1);
    if (i < 0) throw new Error(`no ${needle} in text`);
  }
  const before = text.slice(0, i + delta);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - before.lastIndexOf('\n') - 1 };
}

/** No handler failed (a failure is logged as an error and answered with nothing). */
function assertNoFailures(c: TestClient): void {
  const failed = c.notifications.filter((n) => n.method === 'window/logMessage' && /failed/.test(String((n.params as { message: string }).message)));
  assert.deepEqual(failed, []);
}

function hover(c: TestClient, rel: string, position: { line: number; character: number }): Promise<HoverResult | null> {
  return c.request<HoverResult | null>('textDocument/hover', { textDocument: { uri: c.uri(rel) }, position });
}

const YAML = `tools:
  - name: create_ticket
    description: Create a support ticket.
    annotations: {readOnlyHint: false}
    inputSchema:
      type: object
      properties:
        title: {type: string, description: Short title., maxLength: 80}
        priority:
          type: string
          enum: [low, high]
          description: "How urgent: low or high."
        tags:
          type: array
          items:
            type: object
            properties:
              label: {type: string, description: Tag label., minLength: 1}
        created_at: {type: string, description: Set by the server.}
        size: {type: str, description: Size in points.}
      required: [title]
`;

const PREVIEW = [
  '### create_ticket',
  'Create a support ticket.',
  '',
  'Parameters:',
  '- title (required) [string]: Short title.',
  '- priority ["low" | "high"]: How urgent: low or high.',
  '- tags [array of object]: ',
  '- size [str]: Size in points.',
].join('\n');

test('hover on a tool name (YAML): the prompt preview without server-managed fields, and its token count', async () => {
  const c = await startClient();
  try {
    await c.open('tools.yaml', YAML);
    const h = await hover(c, 'tools.yaml', at(YAML, 'create_ticket', 3));
    assert.ok(h);
    assert.equal(h.contents.kind, 'markdown');
    assert.ok(h.contents.value.includes('```markdown\n' + PREVIEW + '\n```'), h.contents.value);
    assert.match(h.contents.value, new RegExp(`≈ ${Math.ceil(PREVIEW.length / 4)} tokens`));
    assert.match(h.contents.value, /left out as server-managed: `created_at`/);
    assert.deepEqual(h.range, { start: at(YAML, 'create_ticket', 0), end: at(YAML, 'create_ticket', 'create_ticket'.length) });
    // The description and the rest of the header (outside the schema) show the same preview.
    for (const p of [at(YAML, 'support ticket'), at(YAML, 'description', 2), at(YAML, 'readOnlyHint', 3)]) {
      const d = await hover(c, 'tools.yaml', p);
      assert.ok(d?.contents.value.includes(PREVIEW), `hover at ${JSON.stringify(p)}`);
    }
    assertNoFailures(c);
  } finally {
    await c.dispose();
  }
});

test('hover on a tool name (JSON), on a keyed catalogue key, and on a wrapped function', async () => {
  const c = await startClient();
  try {
    const json = JSON.stringify({ name: 'get_widget', description: 'Get one widget.', inputSchema: { type: 'object', properties: { widget_id: { type: 'string', description: 'The widget.', pattern: '^w_' } }, required: ['widget_id'] } }, null, 2);
    await c.open('w.json', json);
    const h = await hover(c, 'w.json', at(json, '"get_widget"', 2));
    assert.ok(h && h.contents.value.includes('### get_widget\nGet one widget.\n\nParameters:\n- widget_id (required) [string]: The widget.'), h?.contents.value);
    assert.deepEqual(h.range?.start, at(json, '"get_widget"', 0));
    const p = await hover(c, 'w.json', at(json, '"widget_id"', 2));
    assert.match(p?.contents.value ?? '', /- widget_id \(required\) \[string\]: The widget\.[\s\S]*Not shown to the model:[\s\S]*`pattern: "\^w_"`/);

    const keyed = '{\n  "create-thing": {"description": "Create a thing.", "category": "things", "annotations": {}},\n  "get-thing": {"description": "Get a thing.", "category": "things", "annotations": {}}\n}\n';
    await c.open('defs.json', keyed);
    const k = await hover(c, 'defs.json', at(keyed, '"get-thing"', 3));
    assert.ok(k && k.contents.value.includes('### get-thing\nGet a thing.'), k?.contents.value);
    assert.ok(!k.contents.value.includes('create-thing'));

    const wrapped = 'tools:\n  - type: function\n    function:\n      name: find_rows\n      description: Find rows.\n      parameters:\n        type: object\n        properties:\n          query: {type: string, description: Search text.}\n';
    await c.open('fn.yaml', wrapped);
    const w = await hover(c, 'fn.yaml', at(wrapped, 'find_rows'));
    assert.ok(w?.contents.value.includes('### find_rows\nFind rows.\n\nParameters:\n- query [string]: Search text.'), w?.contents.value);
    const q = await hover(c, 'fn.yaml', at(wrapped, 'query'));
    assert.match(q?.contents.value ?? '', /Parameter\*\* `query`, as the model sees it/);
    assertNoFailures(c);
  } finally {
    await c.dispose();
  }
});

test('hover on a parameter: its line and what the layout hides; anywhere inside its schema', async () => {
  const c = await startClient();
  try {
    await c.open('tools.yaml', YAML);
    const h = await hover(c, 'tools.yaml', at(YAML, 'title:', 2));
    assert.ok(h);
    assert.equal(h.contents.value, '**Parameter** `title`, as the model sees it:\n\n```markdown\n- title (required) [string]: Short title.\n```\n\n**Not shown to the model:**\n\n- `maxLength: 80`');
    assert.deepEqual(h.range, { start: at(YAML, 'title:', 0), end: at(YAML, 'title:', 5) });
    // Inside the parameter's schema (a value of one of its keywords).
    const inside = await hover(c, 'tools.yaml', at(YAML, '80'));
    assert.equal(inside?.contents.value, h.contents.value);
    // A nested property: the prompt shows only its top-level parent's line.
    const n = await hover(c, 'tools.yaml', at(YAML, 'label:'));
    assert.match(n?.contents.value ?? '', /`tags\[\]\.label`, nested in `tags`/);
    assert.match(n?.contents.value ?? '', /```markdown\n- tags \[array of object\]: \n```/);
    assert.match(n?.contents.value ?? '', /its own line: `- label \[string\]: Tag label\.`/);
    assert.match(n?.contents.value ?? '', /`minLength: 1`/);
    // On the schema itself, but on no parameter: nothing to say.
    assert.equal(await hover(c, 'tools.yaml', at(YAML, 'type: object', 2)), null);
    assertNoFailures(c);
  } finally {
    await c.dispose();
  }
});

test('hover on a server-managed parameter says it is left out of the prompt', async () => {
  const c = await startClient();
  try {
    const text = 'name: create_note\ndescription: Create a note.\ninputSchema:\n  type: object\n  properties:\n    body: {type: string, description: Note text.}\n    tenant_id: {type: string, description: Tenant.}\n  required: [body]\n';
    await c.open('note.yaml', text);
    const h = await hover(c, 'note.yaml', at(text, 'tenant_id'));
    assert.match(h?.contents.value ?? '', /`tenant_id` is \*\*server-managed\*\*: left out of the prompt/);
    assert.match(h?.contents.value ?? '', /- tenant_id \[string\]: Tenant\./);
    const tool = await hover(c, 'note.yaml', at(text, 'create_note'));
    assert.ok(tool && !tool.contents.value.includes('- tenant_id'));
    assertNoFailures(c);
  } finally {
    await c.dispose();
  }
});

test('hover on a finding: message, rule with docs link, why it matters; before the parameter when both apply', async () => {
  const c = await startClient();
  try {
    await c.open('tools.yaml', YAML);
    const h = await hover(c, 'tools.yaml', at(YAML, 'str,', 1));
    assert.ok(h);
    const v = h.contents.value;
    assert.match(v, /^\*\*error\*\* `schema-invalid` \(\[docs\]\(https:\/\/[^)]*docs\/rules\/schema-invalid\.md\)\): /);
    assert.match(v, /\*\*Why it matters:\*\* \S/);
    const param = v.indexOf('**Parameter** `size`');
    assert.ok(param > v.indexOf('Why it matters'), v);
    assert.match(v, /\n---\n/);
    assert.deepEqual(h.range, { start: at(YAML, 'str,', 0), end: at(YAML, 'str,', 3) });
    assertNoFailures(c);
  } finally {
    await c.dispose();
  }
});

test('no hover outside tools, past the end, on empty or non-tool documents, or unknown files', async () => {
  const c = await startClient();
  try {
    await c.open('tools.yaml', YAML);
    assert.equal(await hover(c, 'tools.yaml', { line: 0, character: 2 }), null);
    assert.equal(await hover(c, 'tools.yaml', { line: 500, character: 90 }), null);
    await c.open('ci.yaml', 'on: push\nname: build\ndescription: not a tool\n');
    assert.equal(await hover(c, 'ci.yaml', { line: 1, character: 7 }), null);
    await c.open('empty.yaml', '');
    assert.equal(await hover(c, 'empty.yaml', { line: 0, character: 0 }), null);
    assert.equal(await hover(c, 'missing.yaml', { line: 0, character: 0 }), null);
    // Half-written YAML does not make the server fail.
    const broken = 'name: get_x\ndescription: Get x.\ninputSchema:\n  type: object\n  properties:\n    a: {type: string\n';
    await c.open('broken.yaml', broken);
    for (let line = 0; line < 7; line++) for (const character of [0, 4, 40]) await hover(c, 'broken.yaml', { line, character });
    assertNoFailures(c);
  } finally {
    await c.dispose();
  }
});

test('argument lists (MXCP): hover on a list entry shows that parameter', async () => {
  const c = await startClient();
  try {
    const text = 'mxcp: 1\ntool:\n  name: get_orders\n  description: Get orders.\n  parameters:\n    - name: customer\n      type: string\n      description: Customer name.\n    - name: limit\n      type: integer\n      description: How many.\n      default: 10\n  source: {code: "SELECT 1"}\n';
    await c.open('orders.yml', text);
    for (const p of [at(text, 'limit'), at(text, 'integer'), at(text, '10')]) {
      const h = await hover(c, 'orders.yml', p);
      assert.match(h?.contents.value ?? '', /- limit \[integer\]: How many\.[\s\S]*Not shown to the model:[\s\S]*`default: 10`/, `at ${JSON.stringify(p)}`);
    }
    const first = await hover(c, 'orders.yml', at(text, 'customer'));
    assert.match(first?.contents.value ?? '', /- customer \(required\) \[string\]: Customer name\./);
    const tool = await hover(c, 'orders.yml', at(text, 'get_orders'));
    assert.match(tool?.contents.value ?? '', /### get_orders\nGet orders\.\n\nParameters:\n- customer \(required\) \[string\]: Customer name\.\n- limit \[integer\]: How many\./);
    assertNoFailures(c);
  } finally {
    await c.dispose();
  }
});
