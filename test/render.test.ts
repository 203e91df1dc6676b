import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadText } from '../server/src/engine/load';
import { renderTool, renderParams, toolsListJson, approxTokens, schemaTypeLabel } from '../server/src/engine/render';
import { cli, workspace } from './helpers/cli';

const YAML = `name: create_widget
description: Create a widget.
inputSchema:
  type: object
  properties:
    title: {type: string, description: Widget title.}
    size: {type: string, enum: [small, large], description: Widget size.}
    weight: {anyOf: [{type: number, minimum: 0}, {type: "null"}], description: Weight in grams.}
    tags: {type: array, items: {type: string}, maxItems: 5}
    .session: {type: object, description: hidden state}
  required: [title]
`;

test('markdown layout: heading, description, one line per parameter', () => {
  const tool = loadText('w.yaml', YAML).tools[0];
  assert.equal(
    renderTool(tool, { hide: (_t, v) => v.name?.startsWith('.') ?? false }),
    [
      '### create_widget',
      'Create a widget.',
      '',
      'Parameters:',
      '- title (required) [string]: Widget title.',
      '- size ["small" | "large"]: Widget size.',
      '- weight [number]: Weight in grams.',
      '- tags [array of string]: ',
    ].join('\n'),
  );
});

test('what the layout hides: constraints that stay in the schema', () => {
  const tool = loadText('w.yaml', YAML).tools[0];
  const p = renderParams(tool);
  assert.deepEqual(p.find((x) => x.name === 'weight')?.hidden, ['minimum: 0']);
  assert.deepEqual(p.find((x) => x.name === 'tags')?.hidden, ['maxItems: 5']);
});

test('type labels flatten nullable unions and show enum values', () => {
  assert.equal(schemaTypeLabel({ type: ['integer', 'null'] }), 'integer');
  assert.equal(schemaTypeLabel({ anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] }), '"a" | "b"');
  assert.equal(schemaTypeLabel({}), 'any');
});

test('tools/list layout is the JSON the model receives, normalised for other formats', () => {
  const mxcp = loadText('t.yml', 'mxcp: 1\ntool:\n  name: get_x\n  description: d\n  parameters:\n    - {name: id, type: string, description: i}\n').tools;
  const json = JSON.parse(toolsListJson(mxcp));
  assert.deepEqual(json.tools[0], { name: 'get_x', description: 'd', inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'i' } }, required: ['id'] } });
  assert.equal(approxTokens('abcdefgh'), 2);
});

test('CLI preview: one tool, a typo suggests the name, json layout parses', () => {
  const dir = workspace({ 'w.yaml': YAML });
  const r = cli(['preview', 'w.yaml', '--tool', 'create_widget'], dir);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^### create_widget\n/);
  assert.match(r.stderr, /≈ \d+ tokens for 1 tool/);
  const typo = cli(['preview', '.', '--tool', 'create_widgte'], dir);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /did you mean "create_widget"/);
  assert.equal(JSON.parse(cli(['preview', '.', '--format', 'json'], dir).stdout).tools.length, 1);
});

test('CLI preview hides the fields a file configures as server-managed', () => {
  const dir = workspace({
    '.mcp-tool-lint.yaml': 'rules:\n  system-field-exposed: [warning, {fields: [workspace_ref]}]\n',
    'w.yaml': 'name: create_widget\ndescription: Create a widget.\ninputSchema:\n  type: object\n  properties:\n    title: {type: string, description: Title.}\n    workspace_ref: {type: string, description: Workspace.}\n',
  });
  const r = cli(['preview', 'w.yaml'], dir);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /- title/);
  assert.doesNotMatch(r.stdout, /workspace_ref/);
});
