import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startClient } from '../helpers/lsp';

const TOOL = 'name: create_widget\ndescription: Create a widget.\ninputSchema:\n  type: object\n  properties:\n    title: {type: str, description: Title.}\n';

test('push: diagnostics for an open tool file, with code, docs link and source', async () => {
  const c = await startClient();
  try {
    await c.open('tools/w.yaml', TOOL);
    const got = await c.until(() => {
      const p = c.pushed.get(c.uri('tools/w.yaml'));
      return p && p.diagnostics.length > 0 ? p : undefined;
    }, 'diagnostics');
    const d = got.diagnostics[0] as { code: string; source: string; codeDescription: { href: string }; range: { start: { line: number; character: number } } };
    assert.equal(d.code, 'schema-invalid');
    assert.equal(d.source, 'mcp-tool-lint');
    assert.match(d.codeDescription.href, /docs\/rules\/schema-invalid\.md$/);
    assert.deepEqual(d.range.start, { line: 5, character: 18 });
    // Fix it as you type: the finding goes away.
    await c.change('tools/w.yaml', TOOL.replace('type: str', 'type: string'), 2);
    await c.until(() => c.pushed.get(c.uri('tools/w.yaml'))?.version === 2 && c.pushed.get(c.uri('tools/w.yaml'))!.diagnostics.length === 0, 'cleared diagnostics');
    await c.close('tools/w.yaml');
    await c.until(() => c.pushed.get(c.uri('tools/w.yaml'))?.diagnostics.length === 0, 'cleared on close');
  } finally {
    await c.dispose();
  }
});

test('pull: textDocument/diagnostic answers for tool files; other YAML gets nothing', async () => {
  const c = await startClient({ pull: true });
  try {
    await c.open('w.yaml', TOOL);
    await c.open('ci.yaml', 'on: push\njobs: {build: {runs-on: x}}\n');
    const r = await c.request<{ kind: string; items: { code: string }[] }>('textDocument/diagnostic', { textDocument: { uri: c.uri('w.yaml') } });
    assert.equal(r.kind, 'full');
    assert.deepEqual(r.items.map((d) => d.code), ['schema-invalid']);
    const other = await c.request<{ items: unknown[] }>('textDocument/diagnostic', { textDocument: { uri: c.uri('ci.yaml') } });
    assert.deepEqual(other.items, []);
  } finally {
    await c.dispose();
  }
});

test('cross-file findings use the workspace catalogue indexed at start-up, and follow edits and disk changes', async () => {
  const c = await startClient({ pull: true, files: { 'a/first.yaml': 'name: get_widget\ndescription: Get a widget.\ninputSchema: {type: object}\n' } });
  try {
    const dup = 'name: get_widget\ndescription: Another.\ninputSchema: {type: object}\n';
    await c.open('b/second.yaml', dup);
    const r = await c.request<{ items: { code: string; message: string }[] }>('textDocument/diagnostic', { textDocument: { uri: c.uri('b/second.yaml') } });
    assert.deepEqual(r.items.map((d) => d.code), ['tool-name-duplicate']);
    // The other file is renamed on disk: the duplicate goes away.
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${c.root}/a/first.yaml`, 'name: get_widget_v1\ndescription: Get a widget.\ninputSchema: {type: object}\n');
    await c.rpc.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: c.uri('a/first.yaml'), type: 2 }] });
    const after = await c.until(async () => {
      const x = await c.request<{ items: unknown[] }>('textDocument/diagnostic', { textDocument: { uri: c.uri('b/second.yaml') } });
      return x.items.length === 0 ? x : undefined;
    }, 'duplicate cleared');
    assert.ok(after);
  } finally {
    await c.dispose();
  }
});

test('settings: a rule turned off in settings disappears; a bad settings value is ignored safely', async () => {
  const c = await startClient({ pull: true, settings: { rules: { 'schema-invalid': 'off', 'description-missing': 'loud' }, run: 42 } });
  try {
    await c.open('w.yaml', TOOL);
    await c.until(async () => {
      const r = await c.request<{ items: unknown[] }>('textDocument/diagnostic', { textDocument: { uri: c.uri('w.yaml') } });
      return r.items.length === 0 ? true : undefined;
    }, 'schema-invalid turned off by settings');
  } finally {
    await c.dispose();
  }
});
