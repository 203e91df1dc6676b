import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getCodeActions, FIX_ALL_KIND } from '../../server/src/lsp/codeActions';
import { loadText } from '../../server/src/engine/load';
import { startClient, type TestClient } from '../helpers/lsp';

interface Pos {
  line: number;
  character: number;
}
interface Range {
  start: Pos;
  end: Pos;
}
interface LspTextEdit {
  range: Range;
  newText: string;
}
interface LspDiag {
  code: string;
  range: Range;
  message: string;
  data?: { parameter?: string | null; tool?: string | null };
}
interface Action {
  title: string;
  kind?: string;
  isPreferred?: boolean;
  diagnostics?: LspDiag[];
  edit?: { changes?: Record<string, LspTextEdit[]>; documentChanges?: { textDocument: { uri: string; version: number | null }; edits: LspTextEdit[] }[] };
  command?: { command: string; arguments?: unknown[] };
}

/** Offset of an LSP position in `text` (lines end at `\n`, `\r\n` or `\r`, as in the LSP). */
function offsetAt(text: string, p: Pos): number {
  let line = 0;
  let i = 0;
  while (line < p.line && i < text.length) {
    const c = text[i++];
    if (c === '\r' && text[i] === '\n') i++;
    if (c === '\n' || c === '\r') line++;
  }
  return i + p.character;
}

/** Applies LSP text edits as a client does: all ranges refer to the text before any edit. */
function applyLspEdits(text: string, edits: LspTextEdit[]): string {
  const spans = edits.map((e) => ({ start: offsetAt(text, e.range.start), end: offsetAt(text, e.range.end), text: e.newText }));
  spans.sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  for (const s of spans) out = out.slice(0, s.start) + s.text + out.slice(s.end);
  return out;
}

function editsFor(a: Action, uri: string): LspTextEdit[] {
  assert.ok(a.edit, `${a.title} has an edit`);
  if (a.edit.documentChanges) return a.edit.documentChanges.filter((d) => d.textDocument.uri === uri).flatMap((d) => d.edits);
  return a.edit.changes?.[uri] ?? [];
}

function parsesClean(path: string, text: string): void {
  const f = loadText(path, text);
  assert.deepEqual(f.parsed.problems, [], `${path} parses after the edit:\n${text}`);
}

/** One open document with its current text and version, driven through the real client. */
class Doc {
  version = 1;
  constructor(
    readonly c: TestClient,
    readonly rel: string,
    public text: string,
  ) {}
  get uri(): string {
    return this.c.uri(this.rel);
  }
  static async open(c: TestClient, rel: string, text: string): Promise<Doc> {
    await c.open(rel, text);
    return new Doc(c, rel, text);
  }
  /** Pull diagnostics; requests are answered in order, after the notifications sent before them. */
  async diagnostics(): Promise<LspDiag[]> {
    const r = await this.c.request<{ items: LspDiag[] }>('textDocument/diagnostic', { textDocument: { uri: this.uri } });
    return r.items;
  }
  actions(range: Range, diagnostics: LspDiag[] = [], only?: string[]): Promise<Action[]> {
    return this.c.request<Action[]>('textDocument/codeAction', { textDocument: { uri: this.uri }, range, context: { diagnostics, ...(only ? { only } : {}) } });
  }
  async apply(a: Action): Promise<void> {
    this.text = applyLspEdits(this.text, editsFor(a, this.uri));
    await this.c.change(this.rel, this.text, ++this.version);
  }
}

const find = (ds: LspDiag[], rule: string, parameter?: string): LspDiag => {
  const d = ds.find((x) => x.code === rule && (parameter === undefined || x.data?.parameter === parameter));
  assert.ok(d, `a ${rule} finding${parameter ? ` on ${parameter}` : ''} in ${JSON.stringify(ds.map((x) => [x.code, x.data?.parameter]))}`);
  return d;
};
const count = (ds: LspDiag[], rule: string): number => ds.filter((d) => d.code === rule).length;

const SYSTEM_FIELDS = `name: create_recipe
description: Create a recipe.
inputSchema:
  type: object
  properties:
    title:
      type: string
      description: Recipe title.
    id:
      type: string
      format: uuid
      description: Recipe ID.
    created_at:
      type: string
      description: Creation time.
  required: [title]
`;

const REQUIRED_UNDEFINED = `name: create_order
description: Create an order.
inputSchema:
  type: object
  properties:
    customer_id:
      type: string
      description: Customer placing the order.
  required: [customerId]
`;

const ENUMS = `name: define_grader
description: Define how answers are graded.
inputSchema:
  type: object
  properties:
    score_type:
      type: string
      enum: [numeric, categorical]
      description: Score type.
    mode:
      type: string
      enum: [strict, lenient]
      description: Mode.
`;

const BAD_NAME = `name: search orders
description: Search orders by status.
inputSchema:
  type: object
`;

/** Requests the actions at a finding, takes the one titled by `pick`, applies it and re-lints. */
async function applyAt(doc: Doc, d: LspDiag, pick: (a: Action) => boolean, sendDiagnostics = true): Promise<{ action: Action; after: LspDiag[] }> {
  const actions = await doc.actions(d.range, sendDiagnostics ? [d] : []);
  const action = actions.find(pick);
  assert.ok(action, `an action in ${JSON.stringify(actions.map((a) => a.title))}`);
  await doc.apply(action);
  parsesClean(doc.rel, doc.text);
  return { action, after: await doc.diagnostics() };
}

const isSuggestion = (a: Action) => !!a.edit && !a.isPreferred && !a.title.startsWith('Disable');

test('quick fixes for four rules: each applied edit removes its finding and the text still parses', async () => {
  const c = await startClient({ pull: true });
  try {
    // system-field-exposed: a safe fix, preferred, tied to the client's diagnostic.
    const sys = await Doc.open(c, 'sys.yaml', SYSTEM_FIELDS);
    const before = await sys.diagnostics();
    assert.equal(count(before, 'system-field-exposed'), 2);
    const idFinding = find(before, 'system-field-exposed', 'id');
    const { action, after } = await applyAt(sys, idFinding, (a) => !!a.isPreferred);
    assert.equal(action.kind, 'quickfix');
    assert.deepEqual(action.diagnostics, [idFinding]);
    assert.equal(count(after, 'system-field-exposed'), 1);
    assert.ok(!after.some((d) => d.data?.parameter === 'id'));
    assert.doesNotMatch(sys.text, /^\s+id:/m);

    // schema-required-undefined: suggestions only (none preferred); the closest name first.
    const req = await Doc.open(c, 'req.yaml', REQUIRED_UNDEFINED);
    const reqFinding = find(await req.diagnostics(), 'schema-required-undefined');
    const reqActions = await req.actions(reqFinding.range, [reqFinding]);
    assert.ok(!reqActions.some((a) => a.isPreferred), 'suggestions are not preferred');
    const r1 = await applyAt(req, reqFinding, (a) => a.title.includes('customer_id'));
    assert.equal(count(r1.after, 'schema-required-undefined'), 0);
    assert.match(req.text, /required: \[customer_id\]/);

    // enum-unexplained: the client sends no diagnostics (some clients never do).
    const en = await Doc.open(c, 'enum.yaml', ENUMS);
    const enFinding = find(await en.diagnostics(), 'enum-unexplained', 'score_type');
    const r2 = await applyAt(en, enFinding, isSuggestion, false);
    assert.ok(!r2.after.some((d) => d.code === 'enum-unexplained' && d.data?.parameter === 'score_type'));
    assert.ok(r2.after.some((d) => d.code === 'enum-unexplained' && d.data?.parameter === 'mode'), 'only the finding fixed goes');

    // tool-name-invalid: rename suggestion.
    const nm = await Doc.open(c, 'name.yaml', BAD_NAME);
    const nmFinding = find(await nm.diagnostics(), 'tool-name-invalid');
    const r3 = await applyAt(nm, nmFinding, isSuggestion);
    assert.equal(count(r3.after, 'tool-name-invalid'), 0);
    assert.match(nm.text, /^name: search_orders$/m);
  } finally {
    await c.dispose();
  }
});

test('a cursor inside a finding (an empty range) gets its actions; a line without findings gets none', async () => {
  const c = await startClient({ pull: true });
  try {
    const doc = await Doc.open(c, 'sys.yaml', SYSTEM_FIELDS);
    const d = find(await doc.diagnostics(), 'system-field-exposed', 'created_at');
    const inside = { line: d.range.start.line, character: d.range.start.character + 2 };
    const at = await doc.actions({ start: inside, end: inside });
    assert.ok(at.some((a) => a.isPreferred && a.title.includes('created_at')));
    // Line 1 holds the description: nothing to fix there.
    assert.deepEqual(await doc.actions({ start: { line: 1, character: 3 }, end: { line: 1, character: 3 } }), []);
  } finally {
    await c.dispose();
  }
});

test('disable for this line: a new directive with the line\'s indentation, or the rule added to one already there', async () => {
  const c = await startClient({ pull: true });
  try {
    const doc = await Doc.open(c, 'enum.yaml', ENUMS);
    const d = find(await doc.diagnostics(), 'enum-unexplained', 'score_type');
    const { after } = await applyAt(doc, d, (a) => a.title === 'Disable `enum-unexplained` for this line');
    assert.match(doc.text, /\n {4}# mcp-tool-lint-disable-next-line enum-unexplained\n {4}score_type:\n/);
    assert.ok(!after.some((x) => x.data?.parameter === 'score_type'));
    assert.ok(after.some((x) => x.code === 'enum-unexplained' && x.data?.parameter === 'mode'));

    // A directive for another rule sits above the finding: the rule joins it, the reason stays.
    const withDirective = ENUMS.replace('    mode:\n', '    # mcp-tool-lint-disable-next-line tool-name-duplicate -- kept for v1 clients\n    mode:\n');
    const doc2 = await Doc.open(c, 'enum2.yaml', withDirective);
    const d2 = find(await doc2.diagnostics(), 'enum-unexplained', 'mode');
    const actions = await doc2.actions(d2.range, [d2]);
    const disable = actions.find((a) => a.title === 'Disable `enum-unexplained` for this line')!;
    const edits = editsFor(disable, doc2.uri);
    assert.equal(edits.length, 1);
    assert.deepEqual(edits[0].range.start, edits[0].range.end, 'an insertion into the existing comment');
    await doc2.apply(disable);
    assert.match(doc2.text, /# mcp-tool-lint-disable-next-line tool-name-duplicate, enum-unexplained -- kept for v1 clients\n {4}mode:/);
    assert.equal(doc2.text.split('\n').length, withDirective.split('\n').length, 'no line added');
    const after2 = await doc2.diagnostics();
    assert.ok(!after2.some((x) => x.data?.parameter === 'mode'));
  } finally {
    await c.dispose();
  }
});

test('disable for this file: every finding of the rule goes, others stay', async () => {
  const c = await startClient({ pull: true });
  try {
    const doc = await Doc.open(c, 'sys.yaml', SYSTEM_FIELDS.replace('name: create_recipe', 'name: create recipe'));
    const d = find(await doc.diagnostics(), 'system-field-exposed', 'id');
    const { after } = await applyAt(doc, d, (a) => a.title === 'Disable `system-field-exposed` for this file');
    assert.ok(doc.text.startsWith('# mcp-tool-lint-disable system-field-exposed\n'));
    assert.equal(count(after, 'system-field-exposed'), 0);
    assert.equal(count(after, 'tool-name-invalid'), 1);
  } finally {
    await c.dispose();
  }
});

test('disable for this line is not offered where a comment line would land inside a multi-line string', async () => {
  const c = await startClient({ pull: true });
  try {
    // `id` starts on the line that continues the quoted description: a `#` line there is text.
    const text = 'name: create_note\ndescription: Create a note.\ninputSchema:\n  type: object\n  properties: {body: {type: string, description: "The note\n    text."}, id: {type: string, description: Note ID.}}\n';
    const doc = await Doc.open(c, 'flow.yaml', text);
    const d = find(await doc.diagnostics(), 'system-field-exposed', 'id');
    assert.equal(d.range.start.line, 5);
    const titles = (await doc.actions(d.range, [d])).map((a) => a.title);
    assert.ok(!titles.includes('Disable `system-field-exposed` for this line'), JSON.stringify(titles));
    assert.ok(titles.includes('Disable `system-field-exposed` for this file'));
  } finally {
    await c.dispose();
  }
});

test('show documentation: a command naming the rule, no edit', async () => {
  const c = await startClient({ pull: true });
  try {
    const doc = await Doc.open(c, 'name.yaml', BAD_NAME);
    const d = find(await doc.diagnostics(), 'tool-name-invalid');
    const docs = (await doc.actions(d.range, [d])).filter((a) => a.title === 'Show documentation for `tool-name-invalid`');
    assert.equal(docs.length, 1);
    assert.equal(docs[0].kind, 'quickfix');
    assert.equal(docs[0].edit, undefined);
    assert.deepEqual(docs[0].command && { command: docs[0].command.command, arguments: docs[0].command.arguments }, { command: 'mcpToolLint.showRuleDocs', arguments: ['tool-name-invalid'] });
    const url = await c.request<string>('workspace/executeCommand', docs[0].command);
    assert.match(url, /docs\/rules\/tool-name-invalid\.md$/);
  } finally {
    await c.dispose();
  }
});

test('fix-all: one minimal edit with every safe fix, only when asked for; it converges', async () => {
  const c = await startClient({ pull: true });
  try {
    const text =
      '# Recipes API\n' +
      SYSTEM_FIELDS +
      '---\nname: create_suite\ndescription: Create a test suite.\ninputSchema:\n  type: object\n  properties:\n    cases:\n      type: array\n      description: Test cases.\n      items: {type: string}\n    updated_at: {type: string, description: Last change.}\n  required: [cases]\n';
    const doc = await Doc.open(c, 'many.yaml', text);
    const before = await doc.diagnostics();
    assert.ok(count(before, 'system-field-exposed') >= 3);
    assert.equal(count(before, 'array-required-empty'), 1);
    const everywhere = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

    // Quick fixes and plain requests never carry fix-all (it re-lints the document).
    assert.ok(!(await doc.actions(everywhere)).some((a) => a.kind === FIX_ALL_KIND));
    assert.deepEqual(await doc.actions(everywhere, [], ['quickfix']), []);
    for (const only of [['source'], ['source.fixAll'], [FIX_ALL_KIND]]) {
      const got = await doc.actions(everywhere, [], only);
      assert.deepEqual(got.map((a) => a.kind), [FIX_ALL_KIND], `only ${only}`);
    }

    const [fixAll] = await doc.actions(everywhere, [], ['source.fixAll']);
    const edits = editsFor(fixAll, doc.uri);
    assert.equal(edits.length, 1);
    assert.ok(edits[0].range.start.line > 0, 'the unchanged head of the file is not rewritten');
    await doc.apply(fixAll);
    parsesClean(doc.rel, doc.text);
    assert.match(doc.text, /^# Recipes API\n/);
    const after = await doc.diagnostics();
    assert.equal(count(after, 'system-field-exposed'), 0, JSON.stringify(after));
    assert.equal(count(after, 'array-required-empty'), 0);
    assert.ok(!after.some((d) => d.code === 'parse-error'));
    // Converged: nothing left to fix.
    assert.deepEqual(await doc.actions(everywhere, [], ['source.fixAll']), []);

    // A document with findings but no safe fix gets no fix-all either.
    const other = await Doc.open(c, 'req.yaml', REQUIRED_UNDEFINED);
    assert.equal(count(await other.diagnostics(), 'schema-required-undefined'), 1);
    assert.deepEqual(await other.actions(everywhere, [], [FIX_ALL_KIND]), []);
  } finally {
    await c.dispose();
  }
});

test('fix-all on JSON, and an edit of whole lines where the change allows it', async () => {
  const c = await startClient({ pull: true });
  try {
    const json = '{\n  "name": "create_recipe",\n  "description": "Create a recipe.",\n  "inputSchema": {\n    "type": "object",\n    "properties": {\n      "title": {"type": "string", "description": "Title."},\n      "created_at": {"type": "string", "description": "Creation time."}\n    }\n  }\n}\n';
    const doc = await Doc.open(c, 'recipe.json', json);
    assert.equal(count(await doc.diagnostics(), 'system-field-exposed'), 1);
    const [fixAll] = await doc.actions({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, [], [FIX_ALL_KIND]);
    assert.equal(fixAll.kind, FIX_ALL_KIND);
    await doc.apply(fixAll);
    assert.deepEqual(JSON.parse(doc.text).inputSchema.properties, { title: { type: 'string', description: 'Title.' } });
    assert.equal(count(await doc.diagnostics(), 'system-field-exposed'), 0);

    const yaml = await Doc.open(c, 'suite.yaml', 'name: create_suite\ndescription: Create a suite.\ninputSchema:\n  type: object\n  properties:\n    cases:\n      type: array\n      description: Cases.\n      items:\n        type: string\n  required: [cases]\n');
    const [all] = await yaml.actions({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, [], ['source.fixAll']);
    const [edit] = editsFor(all, yaml.uri);
    assert.deepEqual(edit, { range: { start: { line: 10, character: 0 }, end: { line: 10, character: 0 } }, newText: '      minItems: 1\n' });
  } finally {
    await c.dispose();
  }
});

test('fix-all keeps CRLF line breaks', async () => {
  const c = await startClient({ pull: true });
  try {
    const doc = await Doc.open(c, 'crlf.yaml', SYSTEM_FIELDS.replace(/\n/g, '\r\n'));
    const [fixAll] = await doc.actions({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, [], ['source.fixAll']);
    await doc.apply(fixAll);
    assert.doesNotMatch(doc.text, /(^|[^\r])\n/);
    assert.equal(count(await doc.diagnostics(), 'system-field-exposed'), 0);
  } finally {
    await c.dispose();
  }
});

test('JSON documents: fixes and suggestions, docs, and no suppression comments', async () => {
  const c = await startClient({ pull: true });
  try {
    const json = JSON.stringify(
      {
        name: 'create_recipe',
        description: 'Create a recipe.',
        inputSchema: { type: 'object', properties: { title: { type: 'string', description: 'Title.' }, id: { type: 'string', description: 'Recipe ID.' } }, required: ['title', 'customerId'] },
      },
      null,
      2,
    );
    const doc = await Doc.open(c, 'recipe.json', json + '\n');
    const ds = await doc.diagnostics();
    const sys = find(ds, 'system-field-exposed', 'id');
    const actions = await doc.actions(sys.range, [sys]);
    assert.ok(actions.some((a) => a.isPreferred));
    assert.ok(actions.some((a) => a.command?.command === 'mcpToolLint.showRuleDocs'));
    assert.ok(!actions.some((a) => a.title.startsWith('Disable')), JSON.stringify(actions.map((a) => a.title)));
    const { after } = await applyAt(doc, sys, (a) => !!a.isPreferred);
    assert.ok(!after.some((d) => d.code === 'system-field-exposed'));
    JSON.parse(doc.text);

    // Fix-all works on JSON too (nothing left to fix here after the quick fix).
    assert.deepEqual(await doc.actions(sys.range, [], ['source.fixAll']), []);

    const req = find(after, 'schema-required-undefined');
    const r = await applyAt(doc, req, isSuggestion);
    assert.equal(count(r.after, 'schema-required-undefined'), 0);
    assert.deepEqual(JSON.parse(doc.text).inputSchema.required.length, 1);
  } finally {
    await c.dispose();
  }
});

test('documentChanges carry the document version when the client supports them', async () => {
  const c = await startClient({ pull: true });
  try {
    const doc = await Doc.open(c, 'sys.yaml', SYSTEM_FIELDS);
    await doc.apply({ title: 'touch', edit: { changes: { [doc.uri]: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: '# v2\n' }] } } });
    const d = find(await doc.diagnostics(), 'system-field-exposed', 'id');
    const ws = c.server.workspace;
    const params = { textDocument: { uri: doc.uri }, range: d.range, context: { diagnostics: [] } };
    const versioned = getCodeActions(ws, params, { documentChanges: true }).find((a) => a.isPreferred)!;
    assert.deepEqual(versioned.edit?.documentChanges?.map((x) => ('textDocument' in x ? x.textDocument : null)), [{ uri: doc.uri, version: 2 }]);
    assert.equal(versioned.edit?.changes, undefined);
    const plain = getCodeActions(ws, params).find((a) => a.isPreferred)!;
    assert.ok(plain.edit?.changes?.[doc.uri]?.length);
    const all = getCodeActions(ws, { ...params, context: { diagnostics: [], only: ['source.fixAll'] } }, { documentChanges: true });
    assert.equal(all.length, 1);
    assert.ok(all[0].edit?.documentChanges);
    // One round trip, so the server's refresh after the edit goes out before the client is gone.
    await doc.diagnostics();
  } finally {
    await c.dispose();
  }
});

test('odd requests: unknown and non-tool files, empty and half-written documents, ranges past the end', async () => {
  const c = await startClient({ pull: true });
  try {
    const far = { start: { line: 999, character: 999 }, end: { line: 1200, character: 0 } };
    assert.deepEqual(await c.request('textDocument/codeAction', { textDocument: { uri: c.uri('nope.yaml') }, range: far, context: { diagnostics: [] } }), []);
    await c.open('ci.yaml', 'on: push\njobs: {build: {runs-on: x}}\n');
    assert.deepEqual(await c.request('textDocument/codeAction', { textDocument: { uri: c.uri('ci.yaml') }, range: far, context: { diagnostics: [], only: ['source.fixAll'] } }), []);

    const empty = await Doc.open(c, 'empty.yaml', '');
    assert.deepEqual(await empty.actions(far), []);
    assert.deepEqual(await empty.actions(far, [], ['source']), []);

    // Half-written YAML: whatever is reported, asking for actions anywhere answers and never breaks parsing further.
    const half = await Doc.open(c, 'half.yaml', 'name: create_recipe\ndescription: Create a recipe.\ninputSchema:\n  type: object\n  properties:\n    id: {type: string\n');
    const ds = await half.diagnostics();
    const mid = { line: 5, character: 6 };
    const actions = [...(await half.actions({ start: mid, end: mid }, ds)), ...(await half.actions(far, ds)), ...(await half.actions(far, [], ['source.fixAll']))];
    for (const a of actions) {
      if (!a.edit) continue;
      const next = applyLspEdits(half.text, editsFor(a, half.uri));
      assert.ok(loadText('half.yaml', next).parsed.problems.length <= loadText('half.yaml', half.text).parsed.problems.length, a.title);
    }

    // Range past the end of a tool document with findings: no error, no stray actions.
    const doc = await Doc.open(c, 'sys.yaml', SYSTEM_FIELDS);
    await doc.diagnostics();
    assert.deepEqual(await doc.actions(far), []);
    // A diagnostic the client still shows but the text no longer has: nothing to offer for it.
    const stale = { code: 'enum-unexplained', range: { start: { line: 2, character: 0 }, end: { line: 2, character: 5 } }, message: 'stale', source: 'mcp-tool-lint' };
    assert.deepEqual(await doc.actions(far, [stale as LspDiag]), []);
  } finally {
    await c.dispose();
  }
});
