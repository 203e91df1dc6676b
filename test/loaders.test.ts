import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadText } from '../server/src/engine/load';

function load(path: string, text: string) {
  const f = loadText(path, text);
  return { format: f.format, kind: f.kind, reason: f.reason, tools: f.tools.map((t) => ({ name: t.name, path: t.path.join('/'), style: t.schemaStyle, required: (t.inputSchema?.required as string[]) ?? [] })) };
}

test('MCP tool objects: single, list, {tools}, JSON-RPC tools/list, .snap', () => {
  assert.deepEqual(load('a.yaml', 'name: a\ndescription: d\ninputSchema: {type: object, required: [x], properties: {x: {type: string}}}\n'), {
    format: 'mcp-yaml',
    kind: 'tools',
    reason: null,
    tools: [{ name: 'a', path: '', style: 'json-schema', required: ['x'] }],
  });
  assert.equal(load('a.json', '[{"name": "a", "description": "d", "inputSchema": {"type": "object"}}, {"name": "b", "description": "e", "inputSchema": {"type": "object"}}]').tools.length, 2);
  assert.deepEqual(load('a.yaml', 'tools:\n  - name: a\n    description: d\n    inputSchema: {type: object}\n').tools.map((t) => t.path), ['tools/0']);
  const rpc = load('resp.json', '{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "search_files", "description": "Search", "inputSchema": {"type": "object"}}], "nextCursor": null}}');
  assert.equal(rpc.format, 'mcp-json');
  assert.deepEqual(rpc.tools.map((t) => t.path), ['result/tools/0']);
  assert.equal(load('get_me.snap', '{\n  "annotations": {"title": "Me", "readOnlyHint": true},\n  "description": "Get me",\n  "inputSchema": {"type": "object"},\n  "name": "get_me"\n}').format, 'mcp-json');
  assert.equal(load('x.snap', '// Jest Snapshot v1\nexports[`a`] = `b`;\n').kind, 'unknown');
});

test('REST catalogues with untyped parameter maps', () => {
  const r = load('mcp_tools.yaml', 'tools:\n  - name: list_items\n    method: GET\n    path: /items\n    description: List items.\n    parameters:\n      limit:\n        description: "REQUIRED. How many."\n');
  assert.equal(r.format, 'rest-yaml');
  assert.equal(r.tools[0].style, 'param-map');
});

test('R-generated one-tool-per-file YAML and its older list form', () => {
  const one = load('pkg-mcp_tool_x.yaml', '# generated, do not edit\nname: pkg-mcp_tool_x\ndescription: Does x.\nparameters:\n  type: object\n  properties:\n    q: {type: string, description: q}\n  required: [q]\ncategory: discovery\nimplementation_example: "x()"\n');
  assert.equal(one.format, 'roxygen-yaml');
  assert.deepEqual(one.tools[0].required, ['q']);
  const list = load('mcp-tools.yaml', 'version: 1\npackage: pkg\ntools:\n  - name: a\n    description: d\n    parameters:\n      - {name: q, type: string, required: true, description: q}\n      - {name: n, type: integer, required: false, description: n}\n');
  assert.equal(list.format, 'roxygen-yaml');
  assert.deepEqual(list.tools[0].required, ['q']);
});

test('MXCP tool files (required = no default) and eval suites', () => {
  const t = load('tool.yml', 'mxcp: 1\ntool:\n  name: get_x\n  description: d\n  parameters:\n    - name: id\n      type: string\n      description: i\n    - name: limit\n      type: integer\n      description: l\n      default: 10\n  source: {code: "SELECT 1"}\n');
  assert.equal(t.format, 'mxcp-tool');
  assert.deepEqual(t.tools[0].required, ['id']);
  const e = loadText('evals.yml', 'mxcp: 1\nsuite: s\ndescription: d\ntests:\n  - name: t\n    prompt: p\n    assertions: {must_call: [{tool: get_x, args: {}}]}\n');
  assert.equal(e.format, 'mxcp-eval');
  assert.equal(e.kind, 'eval');
  assert.equal(e.evalSuite?.name, 's');
  assert.equal(load('r.yml', 'mxcp: 1\nresource:\n  uri: x\n').reason, 'an MXCP resource file, not a tool');
});

test('argument lists, keyed catalogues, multi-server dumps, function wrappers, per-property required', () => {
  const args = load('tools.json', '[{"name": "a", "description": "d", "arguments": [{"name": "q", "type": "string", "desc": "q"}, {"name": "n", "type": "number", "desc": "n", "optional": true}]}]');
  assert.equal(args.format, 'arglist-json');
  assert.deepEqual(args.tools[0].required, ['q']);
  const keyed = load('defs.json', '{"create-thing": {"description": "d", "category": "c", "annotations": {"readOnlyHint": false}}, "get-thing": {"description": "e", "category": "c", "annotations": {}}}');
  assert.equal(keyed.format, 'toolmap-json');
  assert.deepEqual(keyed.tools.map((t) => t.name), ['create-thing', 'get-thing']);
  const dump = load('servers.json', '[{"name": "srv", "description": "a server", "tools": {"srv": {"server_name": "srv", "tools": [{"name": "x", "description": "d", "inputSchema": {"type": "object"}}]}}}]');
  assert.deepEqual(dump.tools.map((t) => t.path), ['0/tools/srv/tools/0']);
  const fn = load('fn.json', '[{"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "object", "properties": {}}}}]');
  assert.equal(fn.format, 'function-json');
  assert.equal(fn.tools[0].name, 'f');
  const draft3 = load('t.json', '[{"name": "a", "description": "d", "parameter": {"type": "object", "properties": {"x": {"type": "string", "required": true}, "y": {"type": "string", "required": false}}}}]');
  assert.deepEqual(draft3.tools[0].required, ['x']);
});

test('files that are not tool files say why', () => {
  const cases: [string, string, RegExp][] = [
    ['ci.yml', 'on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n', /no tool objects/],
    ['schema.json', '{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {}}', /JSON Schema document/],
    ['empty.yaml', '', /empty/],
    ['list.json', '[]', /empty list/],
    ['k8s.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n', /no tool objects/],
    ['pkg.json', '{"name": "x", "version": "1.0.0"}', /`name` but no description/],
    ['broken.json', '{"name": ', /could not be parsed/],
  ];
  for (const [p, text, re] of cases) {
    const r = load(p, text);
    assert.equal(r.kind, 'unknown', p);
    assert.match(r.reason ?? '', re, p);
  }
});

test('multi-document YAML: tools of every document are loaded', () => {
  const r = loadText('multi.yaml', 'name: a\ndescription: d\ninputSchema: {type: object}\n---\nname: b\ndescription: e\ninputSchema: {type: object}\n');
  assert.deepEqual(r.tools.map((t) => [t.name, t.doc]), [['a', 0], ['b', 1]]);
});

test('argument lists: in a file that marks optional entries, unflagged entries are required in every tool', () => {
  const r = load('tools.json', '[{"name": "a", "description": "d", "arguments": [{"name": "q", "type": "string", "desc": "q", "optional": true}]}, {"name": "b", "description": "e", "arguments": [{"name": "x", "type": "string", "desc": "x"}]}]');
  assert.deepEqual(r.tools.map((t) => t.required), [[], ['x']]);
});
