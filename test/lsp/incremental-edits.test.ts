/**
 * Typing in a large catalogue goes through the incremental path (range edits, one tool
 * re-read and re-linted); the diagnostics must be those of a fresh session on the final text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateCatalog } from '../../bench/generate';
import { startClient } from '../helpers/lsp';
import { sameEngineDiagnostics } from '../../server/src/lsp/session';
import { hasLag } from '../../server/src/engine/parse/tree';
import type { Diagnostic as EngineDiagnostic } from '../../server/src/engine/diagnostic';

interface Diag {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  code: string;
  message: string;
}

type PullResult = { kind: string; resultId: string; items: Diag[] };

/** A pull session with a generated catalogue open as `tools.yaml`, and its first diagnostics. */
async function openCatalog(tools: number, seed: number) {
  const text = generateCatalog(tools, seed);
  const c = await startClient({ pull: true });
  await c.open('tools.yaml', text);
  const uri = c.uri('tools.yaml');
  const first = await c.request<PullResult>('textDocument/diagnostic', { textDocument: { uri } });
  return { c, uri, lines: text.split('\n'), first };
}

/** Indexes of the lines that match. */
function linesMatching(lines: string[], re: RegExp): number[] {
  return lines.flatMap((l, i) => (re.test(l) ? [i] : []));
}

test('range edits across a catalogue give the same diagnostics as a fresh open of the final text', async () => {
  const { c, uri, lines } = await openCatalog(80, 9);
  const desc = linesMatching(lines, /^ {4}description: /);
  const names = linesMatching(lines, /^ {2}- name: /);
  let version = 1;
  for (let k = 0; k < 12; k++) {
    // Rewrite a description, insert a property line, or rename a tool (a catalogue-wide change).
    if (k % 3 === 2) {
      const line = names[(k * 7) % names.length];
      const next = `  - name: renamed_tool_${k}`;
      await c.edit('tools.yaml', { start: { line, character: 0 }, end: { line, character: lines[line].length } }, next, ++version);
      lines[line] = next;
    } else {
      const line = desc[(k * 13) % desc.length];
      const next = k % 3 === 0 ? `    description: Use the id from list_widgets; status is one of open, closed (${k}).` : `${lines[line]} More words ${k}.`;
      await c.edit('tools.yaml', { start: { line, character: 0 }, end: { line, character: lines[line].length } }, next, ++version);
      lines[line] = next;
    }
    await c.request('textDocument/diagnostic', { textDocument: { uri } });
  }
  const after = await c.request<{ items: Diag[] }>('textDocument/diagnostic', { textDocument: { uri } });
  assert.equal(c.server.workspace.incrementalReads, 12, 'every edit was re-read incrementally');
  await c.dispose();

  const fresh = await startClient({ pull: true });
  await fresh.open('tools.yaml', lines.join('\n'));
  const expected = await fresh.request<{ items: Diag[] }>('textDocument/diagnostic', { textDocument: { uri: fresh.uri('tools.yaml') } });
  await fresh.dispose();
  assert.ok(expected.items.length > 50);
  assert.deepEqual(after.items, expected.items);
});

test('pull diagnostics answer `unchanged` when the previous result still holds, and in full when it does not', async () => {
  const { c, uri, lines, first } = await openCatalog(20, 4);
  assert.equal(first.kind, 'full');
  assert.ok(first.resultId && first.items.length > 0);
  // A comment typed at the end changes no finding.
  await c.edit('tools.yaml', { start: { line: lines.length - 1, character: 0 }, end: { line: lines.length - 1, character: 0 } }, '# end\n', 2);
  const same = await c.request<{ kind: string; resultId: string }>('textDocument/diagnostic', { textDocument: { uri }, previousResultId: first.resultId });
  assert.deepEqual(same, { kind: 'unchanged', resultId: first.resultId });
  // Without the previous id the client gets everything again.
  const again = await c.request<{ kind: string; items: Diag[] }>('textDocument/diagnostic', { textDocument: { uri } });
  assert.equal(again.kind, 'full');
  assert.deepEqual(again.items, first.items);
  // An edit that changes a finding gets a full answer with a new id.
  const nameLine = lines.findIndex((l) => /^ {2}- name: /.test(l));
  await c.edit('tools.yaml', { start: { line: nameLine, character: 10 }, end: { line: nameLine, character: 10 } }, 'Bad Name ', 3);
  const changed = await c.request<PullResult>('textDocument/diagnostic', { textDocument: { uri }, previousResultId: first.resultId });
  assert.equal(changed.kind, 'full');
  assert.notEqual(changed.resultId, first.resultId);
  assert.notDeepEqual(changed.items, first.items);
  await c.dispose();
});

test('pull diagnostics: an edit that moves later findings by offset only is `unchanged`; one that moves their lines is not', async () => {
  const { c, uri, lines, first } = await openCatalog(30, 6);
  const descLine = lines.findIndex((l, i) => i > 5 && /^ {4}description: /.test(l));
  assert.ok(descLine > 0);
  // A longer description: every later offset moves, no line does, no finding changes.
  await c.edit('tools.yaml', { start: { line: descLine, character: 17 }, end: { line: descLine, character: 17 } }, 'Newly written words and ', 2);
  const same = await c.request<{ kind: string; resultId: string }>('textDocument/diagnostic', { textDocument: { uri }, previousResultId: first.resultId });
  assert.deepEqual(same, { kind: 'unchanged', resultId: first.resultId });
  // A new line in the same description moves every later finding down one line.
  await c.edit('tools.yaml', { start: { line: descLine + 1, character: 0 }, end: { line: descLine + 1, character: 0 } }, '    # a note\n', 3);
  const moved = await c.request<PullResult>('textDocument/diagnostic', { textDocument: { uri }, previousResultId: first.resultId });
  assert.equal(moved.kind, 'full');
  const fresh = await c.request<{ items: Diag[] }>('textDocument/diagnostic', { textDocument: { uri } });
  assert.deepEqual(moved.items, fresh.items);
  const later = first.items.filter((d) => d.range.start.line > descLine);
  assert.ok(later.length > 0);
  assert.deepEqual(
    moved.items.filter((d) => d.range.start.line > descLine + 1).map((d) => d.range.start.line),
    later.map((d) => d.range.start.line + 1),
  );
  await c.dispose();
});

test('after edits, features read later tools in place (their nodes move on demand)', async () => {
  const { c, uri, lines } = await openCatalog(30, 7);
  // Three edits early in the file, each pulled (the lint leaves later nodes to move on demand).
  const descs = linesMatching(lines, /^ {4}description: /).slice(1, 4);
  let version = 1;
  for (const line of descs) {
    await c.edit('tools.yaml', { start: { line, character: 17 }, end: { line, character: 17 } }, 'Longer now, ', ++version);
    lines[line] = lines[line].slice(0, 17) + 'Longer now, ' + lines[line].slice(17);
    await c.request('textDocument/diagnostic', { textDocument: { uri } });
  }
  assert.equal(c.server.workspace.incrementalReads, descs.length, 'every edit was re-read incrementally');
  assert.ok(hasLag(c.server.workspace.file(uri)!.root(0)), 'later nodes are still to move when the features ask');
  const edited = await c.request<unknown[]>('textDocument/documentSymbol', { textDocument: { uri } });
  // Hover on a parameter of the last tool, completion inside its schema, symbols of the file.
  const lastName = linesMatching(lines, /^ {2}- name: /).pop()!;
  const param = lines.findIndex((l, i) => i > lastName && /^ {8}[a-z_]+:$/.test(l));
  assert.ok(param > lastName);
  const at = { line: param, character: 10 };
  const requests = async (cl: typeof c, u: string) => [
    await cl.request('textDocument/hover', { textDocument: { uri: u }, position: at }),
    await cl.request('textDocument/completion', { textDocument: { uri: u }, position: { line: param + 1, character: 10 } }),
    await cl.request('textDocument/definition', { textDocument: { uri: u }, position: at }),
  ];
  const hover = await requests(c, uri);
  await c.dispose();
  const f = await startClient({ pull: true });
  await f.open('tools.yaml', lines.join('\n'));
  const fresh = await f.request<unknown[]>('textDocument/documentSymbol', { textDocument: { uri: f.uri('tools.yaml') } });
  const freshHover = await requests(f, f.uri('tools.yaml'));
  await f.dispose();
  assert.deepEqual(edited, fresh);
  assert.ok(hover[0], 'a hover on the parameter');
  assert.deepEqual(hover, freshHover);
});

test('sameEngineDiagnostics compares what the LSP form shows', () => {
  const base = { rule: 'r', severity: 'warning', message: 'm', pointer: '/a', tool: 't', parameter: null, range: { start: { line: 1, column: 2 }, end: { line: 1, column: 5 } } };
  const d = (extra: object) => ({ ...base, ...extra }) as unknown as EngineDiagnostic;
  assert.equal(sameEngineDiagnostics([d({})], [d({ range: { start: { line: 1, column: 2 }, end: { line: 1, column: 5 } }, offset: 99 })]), true, 'equal ranges, other offsets');
  for (const change of [{ message: 'n' }, { severity: 'error' }, { rule: 's' }, { pointer: '/b' }, { tool: 'u' }, { parameter: 'p' }, { range: { start: { line: 2, column: 2 }, end: { line: 2, column: 5 } } }]) {
    assert.equal(sameEngineDiagnostics([d({})], [d(change)]), false, JSON.stringify(change));
  }
  assert.equal(sameEngineDiagnostics([d({})], []), false);
});

test('pull mode: typing in the only open document asks for no extra refresh; with others open it does', async () => {
  const text = generateCatalog(10, 5);
  const c = await startClient({ pull: true });
  let refreshes = 0;
  c.rpc.onRequest('workspace/diagnostic/refresh', () => {
    refreshes++;
    return null;
  });
  await c.open('a.yaml', text);
  await new Promise((r) => setTimeout(r, 50));
  const before = refreshes;
  await c.edit('a.yaml', { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, '# a\n', 2);
  await c.request('textDocument/diagnostic', { textDocument: { uri: c.uri('a.yaml') } });
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(refreshes, before, 'the client pulls the edited document itself');
  await c.open('b.yaml', text.replace(/name: /g, 'name: b_'));
  await new Promise((r) => setTimeout(r, 50));
  const withTwo = refreshes;
  await c.edit('a.yaml', { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, '# b\n', 3);
  await c.until(() => refreshes > withTwo, 'a refresh for the other open document');
  await c.dispose();
});
