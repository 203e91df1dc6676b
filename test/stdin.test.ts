import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, workspace } from './helpers/cli';

const BAD_YAML = 'name: search orders\ninputSchema:\n  type: object\n  properties:\n    status:\n      type: string\n      description: Status.\n';
const CLEAN_YAML = 'name: search_orders\ndescription: Search orders.\ninputSchema:\n  type: object\n  properties:\n    status:\n      type: string\n      description: Status.\n';
// `--fix` adds `destructiveHint: true` (annotation-destructive-missing).
const FIXABLE_JSON = '{\n  "name": "delete_order",\n  "description": "Delete an order.",\n  "inputSchema": {"type": "object", "properties": {"order_id": {"type": "string", "description": "Order to delete, from search_orders."}}, "required": ["order_id"]},\n  "annotations": {"readOnlyHint": false}\n}\n';

test('--stdin --stdin-filepath lints the buffer as that file, not the file on disk', () => {
  const dir = workspace({ 'tools/a.yaml': CLEAN_YAML });
  const r = cli(['--stdin', '--stdin-filepath', 'tools/a.yaml'], dir, BAD_YAML);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /^tools\/a\.yaml/m);
  assert.match(r.stdout, /1:7\s+error\s+.*tool-name-invalid/);
  // Only the buffer: no folder is searched when no path is given.
  const other = workspace({ 'b.yaml': BAD_YAML });
  const r2 = cli(['--stdin', '--stdin-filepath', 'x.yaml'], other, CLEAN_YAML);
  assert.equal(r2.code, 0, r2.stdout + r2.stderr);
  assert.equal(r2.stdout, '');
});

test('--stdin-filepath picks the config of its folder and the format from its extension', () => {
  const dir = workspace({ 'tools/.mcp-tool-lint.yaml': 'rules:\n  tool-name-invalid: off\n  description-missing: off\n' });
  const r = cli(['--stdin', '--stdin-filepath', 'tools/new.yaml', '--format', 'json'], dir, BAD_YAML);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(JSON.stringify(JSON.parse(r.stdout)).includes('tools/new.yaml'), r.stdout);
  // Outside that folder the config does not apply.
  assert.equal(cli(['--stdin', '--stdin-filepath', 'new.yaml'], dir, BAD_YAML).code, 1);
});

test('--stdin without a file path is linted as <stdin>, YAML or JSON by content', () => {
  const dir = workspace({});
  const y = cli(['--stdin'], dir, BAD_YAML);
  assert.equal(y.code, 1);
  assert.match(y.stdout, /^<stdin>\s+\(mcp-yaml, 1 tool\)/m);
  const j = cli(['--stdin'], dir, JSON.stringify({ name: 'bad name', inputSchema: { type: 'object' } }));
  assert.equal(j.code, 1);
  assert.match(j.stdout, /^<stdin>\s+\(mcp-json, 1 tool\)/m);
});

test('--stdin lints with the explicit paths as one catalogue', () => {
  const dir = workspace({ 'a.yaml': CLEAN_YAML });
  const r = cli(['--stdin', '--stdin-filepath', 'b.yaml', 'a.yaml'], dir, CLEAN_YAML);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /tool-name-duplicate/);
});

test('--stdin --fix prints the fixed buffer and never writes the file', () => {
  const dir = workspace({ 'tools/d.json': FIXABLE_JSON });
  const r = cli(['--stdin', '--stdin-filepath', 'tools/d.json', '--fix'], dir, FIXABLE_JSON);
  assert.match(r.stdout, /"destructiveHint": ?true/);
  assert.doesNotThrow(() => JSON.parse(r.stdout));
  assert.equal(readFileSync(join(dir, 'tools/d.json'), 'utf8'), FIXABLE_JSON);
  assert.doesNotMatch(r.stderr, /annotation-destructive-missing/);
  // Nothing to fix: the buffer comes back unchanged, the report goes to stderr.
  const c = cli(['--stdin', '--stdin-filepath', 'x.yaml', '--fix'], dir, BAD_YAML);
  assert.equal(c.stdout, BAD_YAML);
  assert.match(c.stderr, /tool-name-invalid/);
  assert.equal(c.code, 1);
});

test('--stdin-filepath needs --stdin', () => {
  const r = cli(['--stdin-filepath', 'a.yaml'], workspace({}));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--stdin-filepath needs --stdin/);
});
