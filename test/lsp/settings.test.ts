/** Settings under `mcpToolLint.`: enable, run on save, and globs that count as tool files. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startClient } from '../helpers/lsp';

const TOOL = 'name: create_widget\ndescription: Create a widget.\ninputSchema:\n  type: object\n  properties:\n    title: {type: str, description: Title.}\n';
const codes = async (c: Awaited<ReturnType<typeof startClient>>, rel: string) =>
  (await c.request<{ items: { code: string }[] }>('textDocument/diagnostic', { textDocument: { uri: c.uri(rel) } })).items.map((d) => d.code);

test('enable: false turns the linter off for the document', async () => {
  const c = await startClient({ pull: true, settings: { enable: false } });
  try {
    await c.open('w.yaml', TOOL);
    assert.deepEqual(await codes(c, 'w.yaml'), []);
  } finally {
    await c.dispose();
  }
});

test('run: onSave shows the findings of the last save, not of unsaved edits', async () => {
  const c = await startClient({ pull: true, settings: { run: 'onSave' } });
  try {
    await c.open('w.yaml', TOOL);
    await c.until(async () => ((await codes(c, 'w.yaml')).includes('schema-invalid') ? true : undefined), 'findings at open');
    await c.change('w.yaml', TOOL.replace('type: str', 'type: string'), 2);
    assert.deepEqual(await codes(c, 'w.yaml'), ['schema-invalid'], 'unsaved edit: still the saved findings');
    await c.rpc.sendNotification('textDocument/didSave', { textDocument: { uri: c.uri('w.yaml') } });
    await c.until(async () => ((await codes(c, 'w.yaml')).length === 0 ? true : undefined), 'findings after save');
  } finally {
    await c.dispose();
  }
});

test('toolFiles: a glob makes a file count as a tool file whatever its content', async () => {
  const broken = 'a: [1\n';
  const plain = await startClient({ pull: true });
  try {
    await plain.open('notes/x.yaml', broken);
    assert.deepEqual(await codes(plain, 'notes/x.yaml'), [], 'not a tool file: left alone');
  } finally {
    await plain.dispose();
  }
  const forced = await startClient({ pull: true, settings: { toolFiles: ['**/notes/*.yaml'] } });
  try {
    await forced.open('notes/x.yaml', broken);
    await forced.until(async () => ((await codes(forced, 'notes/x.yaml')).includes('parse-error') ? true : undefined), 'the forced file is linted');
  } finally {
    await forced.dispose();
  }
});
