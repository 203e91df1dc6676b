import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startClient } from '../helpers/lsp';

/** On disk only: indexed at start-up, never opened. */
const DISK = JSON.stringify({ name: 'list_projects', description: 'List projects.', inputSchema: { type: 'object', properties: { limit: { type: 'integer', description: 'Page size.', maximum: 100 } } } }, null, 2);

const OPEN = `name: create_project
description: Create a project.
inputSchema:
  type: object
  properties:
    title: {type: string, description: Project title.}
    created_at: {type: string, description: Set by the server.}
  required: [title]
`;

const CREATE = '### create_project\nCreate a project.\n\nParameters:\n- title (required) [string]: Project title.';
const LIST = '### list_projects\nList projects.\n\nParameters:\n- limit [integer]: Page size.';

test('preview request: the whole workspace (disk and open files) in the markdown layout, with a header line', async () => {
  const c = await startClient({ files: { 'z-disk/projects.json': DISK } });
  try {
    await c.open('a-open/create.yaml', OPEN);
    const text = await c.request<string>('mcpToolLint/preview', { uri: null });
    const body = `${CREATE}\n\n${LIST}`;
    assert.equal(text, `<!-- mcp-tool-lint prompt preview (workspace): 2 tools, ≈ ${Math.ceil(body.length / 4)} tokens -->\n\n${body}\n`);
    // The same without any parameters (a client that sends none).
    assert.equal(await c.request<string>('mcpToolLint/preview', {}), text);
    // Unsaved edits show at once.
    await c.change('a-open/create.yaml', OPEN.replace('Create a project.', 'Create a new project.'), 2);
    assert.match(await c.request<string>('mcpToolLint/preview', { uri: null, layout: 'markdown' }), /Create a new project\./);
  } finally {
    await c.dispose();
  }
});

test('preview request: the tools/list JSON layout (valid JSON, schema as the model receives it)', async () => {
  const c = await startClient({ files: { 'z-disk/projects.json': DISK } });
  try {
    await c.open('a-open/create.yaml', OPEN);
    const text = await c.request<string>('mcpToolLint/preview', { uri: null, layout: 'json' });
    const parsed = JSON.parse(text) as { tools: { name: string; description: string; inputSchema: { properties: Record<string, unknown> } }[] };
    assert.deepEqual(parsed.tools.map((t) => t.name), ['create_project', 'list_projects']);
    // The model receives the whole input schema, server-managed fields included.
    assert.ok('created_at' in parsed.tools[0].inputSchema.properties);
    assert.deepEqual(parsed.tools[1].inputSchema.properties.limit, { type: 'integer', description: 'Page size.', maximum: 100 });
    // One document only.
    const one = JSON.parse(await c.request<string>('mcpToolLint/preview', { uri: c.uri('z-disk/projects.json'), layout: 'json' })) as { tools: { name: string }[] };
    assert.deepEqual(one.tools.map((t) => t.name), ['list_projects']);
  } finally {
    await c.dispose();
  }
});

test('preview command: one document, both layouts, the workspace without arguments, and unknown documents', async () => {
  const c = await startClient({ files: { 'z-disk/projects.json': DISK } });
  try {
    await c.open('a-open/create.yaml', OPEN);
    const exec = (args?: unknown[]) => c.request<string>('workspace/executeCommand', { command: 'mcpToolLint.previewPrompt', arguments: args });
    const md = await exec([c.uri('a-open/create.yaml')]);
    assert.equal(md, `<!-- mcp-tool-lint prompt preview (document): 1 tool, ≈ ${Math.ceil(CREATE.length / 4)} tokens -->\n\n${CREATE}\n`);
    // A document indexed from disk but never opened.
    assert.match(await exec([c.uri('z-disk/projects.json'), 'markdown']), new RegExp(`\\(document\\): 1 tool,[^\\n]*\\n\\n${LIST.replace(/[[\]()]/g, '\\$&')}\\n$`));
    const json = JSON.parse(await exec([c.uri('a-open/create.yaml'), 'json'])) as { tools: { name: string }[] };
    assert.deepEqual(json.tools.map((t) => t.name), ['create_project']);
    assert.equal(await exec(), await c.request<string>('mcpToolLint/preview', { uri: null }));
    assert.match(await exec([c.uri('nowhere.yaml')]), /0 tools[\s\S]*\(no tools available\)/);
    assert.deepEqual(JSON.parse(await exec([c.uri('nowhere.yaml'), 'json'])), { tools: [] });
  } finally {
    await c.dispose();
  }
});

test('preview of an empty workspace', async () => {
  const c = await startClient();
  try {
    assert.equal(await c.request<string>('mcpToolLint/preview', { uri: null }), '<!-- mcp-tool-lint prompt preview (workspace): 0 tools, ≈ 5 tokens -->\n\n(no tools available)\n');
  } finally {
    await c.dispose();
  }
});
