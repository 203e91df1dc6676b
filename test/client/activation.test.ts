/**
 * The client's activation guess: generous for every loader's format (a miss would leave a tool
 * workspace without a server), quiet for ordinary YAML/JSON (no server in other workspaces).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { CANDIDATE_GLOB, EXCLUDE_GLOB, looksLikeToolText, scanOrder } from '../../client/src/toolFiles';
import { loadText } from '../../server/src/engine/load';

const root = join(__dirname, '..', '..');

test('every format the loaders detect passes the activation check', () => {
  const samples: Record<string, string> = {
    'mcp-yaml': 'tools:\n  - name: a\n    description: A.\n    inputSchema: {type: object}\n',
    'mcp-json': '{"tools": [{"name": "a", "description": "A.", "inputSchema": {"type": "object"}}]}',
    'single tool': 'name: a\ndescription: A.\ninputSchema:\n  type: object\n',
    'function-json': '[{"type": "function", "function": {"name": "a", "description": "A.", "parameters": {"type": "object"}}}]',
    'function-yaml': '- name: a\n  description: A.\n  parameters:\n    type: object\n',
    'arglist-json': '[{"name": "a", "description": "A.", "arguments": [{"name": "x", "type": "string"}]}]',
    'mxcp-tool': 'mxcp: 1\ntool:\n  name: a\n  description: A.\n',
    'mxcp-eval': 'mxcp: 1\nsuite: checks\ntests:\n  - name: t\n',
    'toolmap-json': '{"search": {"description": "Search.", "annotations": {"readOnlyHint": true}}}',
    'tools/list response': '{"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}',
  };
  for (const [name, text] of Object.entries(samples)) assert.ok(looksLikeToolText(text), name);
});

test('the example catalogue and the seed fixtures pass; ordinary YAML and JSON do not', () => {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ya?ml|json|snap)$/.test(n)) files.push(p);
    }
  };
  walk(join(root, 'examples'));
  walk(join(root, 'test', 'fixtures', 'seed000'));
  let tools = 0;
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    if (loadText(f, text).kind === 'unknown') continue;
    tools++;
    assert.ok(looksLikeToolText(text.slice(0, 64 * 1024)), `${f} is a tool file and must wake the client`);
  }
  assert.ok(tools > 0);

  const ordinary = {
    'GitHub workflow': 'name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n',
    'Kubernetes manifest': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  annotations:\n    a: b\n',
    'package.json': '{"name": "x", "version": "1.0.0", "scripts": {"test": "node --test"}}',
    'tsconfig.json': '{"compilerOptions": {"strict": true}}',
    'docker compose': 'services:\n  db:\n    image: postgres\n',
  };
  for (const [name, text] of Object.entries(ordinary)) assert.ok(!looksLikeToolText(text), name);
});

test('the scan reads likely names first and skips files that are never catalogues', () => {
  const order = scanOrder(['a/config.yaml', 'package.json', 'b/mcp_tools.yaml', 'evals/x.yaml', 'c/server.snap', 'd/tsconfig.json']);
  // Names first (`mcp_tools.yaml`, `*.snap`), then folders (`evals/`), then the rest in found order.
  assert.deepEqual(order, ['b/mcp_tools.yaml', 'c/server.snap', 'evals/x.yaml', 'a/config.yaml']);
  // The exclusions keep dependency and build folders out, as the server's own walk does.
  const excluded = picomatch(EXCLUDE_GLOB, { dot: true });
  assert.ok(excluded('node_modules/x/tools.json') && excluded('a/dist/tools.json') && excluded('.git/x.json'));
  assert.ok(!excluded('tools/tools.yaml'));
  assert.ok(picomatch(CANDIDATE_GLOB)('a/b/tools.snap'));
});
