/**
 * A command-line run reads a valid JSON file's data and builds no tree: the nodes a finding or a
 * quoted span needs are read alone from the text. The saving is real only if nothing asks for the
 * whole tree, so this checks that none was built, and that what is read equals the tree's nodes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLint } from '../server/src/node/run';
import { loadText } from '../server/src/engine/load';
import { type ModelText, modelTexts, stringInData, stringNode } from '../server/src/engine/model-text';
import { LazyJsonDoc, parseJson } from '../server/src/engine/parse/json';
import { findNode, type SNode } from '../server/src/engine/parse/tree';
import { filesUnder } from './helpers/trees';
import { prng } from '../bench/generate';

const CORPUS = join(__dirname, '..', '..', 'shared', 'corpus');

const clean = {
  tools: [
    {
      name: 'get_weather',
      description: 'Get the current weather for a city. Returns the temperature in Celsius and a short summary.',
      inputSchema: {
        type: 'object',
        properties: { city: { type: 'string', description: 'City name, for example Paris.' } },
        required: ['city'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
  ],
};

test('JSON files are linted without building their trees, and findings keep their exact ranges', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mtl-lazy-'));
  writeFileSync(join(dir, 'clean.json'), JSON.stringify(clean, null, 2));
  const flawed = structuredClone(clean);
  flawed.tools[0].name = 'get_forecast';
  (flawed.tools[0].inputSchema.properties as Record<string, unknown>).units = { type: 'string', enum: ['c', 'f'] };
  const flawedText = JSON.stringify(flawed, null, 2);
  writeFileSync(join(dir, 'flawed.json'), flawedText);
  // Every rule of the default configuration on: none may ask for a tree it does not report in.
  const out = runLint({ cwd: dir, paths: ['.'] });
  const byName = new Map(out.files.map((f) => [f.path.split(/[\\/]/).pop(), f]));
  const docOf = (name: string) => byName.get(name)!.parsed.docs[0];
  assert.ok(docOf('clean.json') instanceof LazyJsonDoc && docOf('flawed.json') instanceof LazyJsonDoc);
  // A finding's range reads its one node from the text: neither file needs its whole tree.
  assert.equal((docOf('clean.json') as LazyJsonDoc).built, false, 'the clean file should never need its tree');
  assert.equal((docOf('flawed.json') as LazyJsonDoc).built, false, 'a finding should read only its own node');
  const results = out.result.results.filter((r) => r.diagnostics.length > 0);
  assert.deepEqual(results.map((r) => r.file.path.split(/[\\/]/).pop()), ['flawed.json']);
  const d = results[0].diagnostics.find((x) => x.rule === 'enum-unexplained');
  assert.ok(d, 'the enum without a description is reported');
  // The range is the `units` key, where the same text parsed eagerly puts it.
  const at = flawedText.indexOf('"units"');
  assert.equal(d.offset, at);
  assert.equal(d.length, '"units"'.length);
});

test('texts read from the data of an unbuilt tree are those read from the tree, in order, with the same nodes', (t) => {
  const files = [join(__dirname, '..', 'examples'), join(__dirname, 'fixtures'), CORPUS].flatMap((d) => filesUnder(d, /\.(json|snap)$/i));
  if (!existsSync(CORPUS)) t.diagnostic('../shared/corpus is absent: checked the bundled files only');
  let texts = 0;
  let lazyFiles = 0;
  for (const path of files) {
    const text = readFileSync(path, 'utf8');
    const lazy = loadText(path, text, { lazyTree: true });
    const eager = loadText(path, text);
    assert.equal(lazy.tools.length, eager.tools.length, path);
    if (lazy.parsed.docs[0] instanceof LazyJsonDoc) lazyFiles++;
    for (let i = 0; i < lazy.tools.length; i++) {
      const a = modelTexts(lazy.tools[i]);
      const b = modelTexts(eager.tools[i]);
      const view = (ts: readonly ModelText[]) => ts.map((x) => [x.kind, x.text, x.loc.path.join('/'), x.loc.target, x.param]);
      assert.deepEqual(view(a), view(b), `${path}: texts of tool ${i}`);
      if (lazy.parsed.docs[0] instanceof LazyJsonDoc) assert.equal((lazy.parsed.docs[0] as LazyJsonDoc).built, false, `${path}: reading texts built the tree`);
      texts += a.length;
    }
    // Once asked for, each text's node is the one the tree gives.
    for (let i = 0; i < lazy.tools.length; i++) {
      const a = modelTexts(lazy.tools[i]);
      const b = modelTexts(eager.tools[i]);
      a.forEach((x, k) => assert.deepEqual([x.node?.offset, x.node?.length], [b[k].node?.offset, b[k].node?.length], `${path}: node of ${x.kind} ${x.text.slice(0, 30)}`));
    }
  }
  assert.ok(lazyFiles > 0 && texts > 0, `${lazyFiles} files, ${texts} texts`);
});

test('a location is a string of the data exactly where the tree has a string node', () => {
  const text = '{"a":{"b":["x",1,{"c":"y"}],"d":2,"__proto__":"p"},"e":"z"}';
  const data = JSON.parse(text);
  const root = parseJson(text).docs[0].root;
  const paths: (string | number)[][] = [[], ['a'], ['a', 'b'], ['a', 'b', 0], ['a', 'b', 1], ['a', 'b', 2], ['a', 'b', 2, 'c'], ['a', 'b', '0'], ['a', 'b', -1], ['a', 'b', 3], ['a', 'b', 1.5], ['a', 'd'], ['a', 'd', 'x'], ['a', '__proto__'], ['a', 'toString'], ['e'], ['f'], ['e', 0]];
  for (const path of paths) {
    for (const target of ['key', 'value'] as const) {
      const node = stringNode({ file: { find: (_d: number, p: (string | number)[], wp: boolean) => findNode(root, p, wp) }, doc: 0 } as never, { path, target });
      assert.equal(stringInData(data, { path, target }), node !== undefined, `${JSON.stringify(path)} ${target}`);
    }
  }
});

const nodeView = (n: SNode | undefined) => (n ? [n.type, n.offset, n.length, n.value, n.colonOffset, n.children?.map((c) => [c.type, c.offset, c.length, c.value])] : null);

/**
 * Looks up every path of a JSON text's data (and a missing key and an index past the end under
 * each collection) in a fresh unbuilt document, in the order given, against the tree's nodes.
 * Returns the number of look-ups, or 0 when the text is not kept unbuilt.
 */
function checkLookups(text: string, where: string, shuffle: (() => number) | null): number {
  const doc = parseJson(text, { lazyTree: true }).docs[0];
  if (!(doc instanceof LazyJsonDoc)) return 0;
  const root = parseJson(text).docs[0].root;
  const paths: (string | number)[][] = [];
  const walk = (v: unknown, at: (string | number)[]): void => {
    paths.push(at);
    if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, [...at, i]));
      paths.push([...at, v.length], [...at, 'x']);
    } else if (typeof v === 'object' && v !== null) {
      for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k], [...at, k]);
      paths.push([...at, 'no such key']);
    }
  };
  walk(doc.data, []);
  const asks = paths.flatMap((p) => [[p, false], [p, true]] as [(string | number)[], boolean][]);
  if (shuffle) {
    // What one look-up keeps must serve any later one: ask in a random order too.
    for (let i = asks.length - 1; i > 0; i--) {
      const j = Math.floor(shuffle() * (i + 1));
      [asks[i], asks[j]] = [asks[j], asks[i]];
    }
  }
  for (const [p, wantProperty] of asks) {
    assert.deepEqual(nodeView(doc.find(p, wantProperty)), nodeView(findNode(root, p, wantProperty)), `${where}: ${JSON.stringify(p)} (property: ${wantProperty})`);
  }
  assert.equal(doc.built, false, `${where}: finding nodes built the tree`);
  return asks.length;
}

test('a node read alone from the text of an unbuilt tree is the node of the tree', (t) => {
  const files = [join(__dirname, '..', 'examples'), join(__dirname, 'fixtures'), CORPUS].flatMap((d) => filesUnder(d, /\.(json|snap)$/i)).filter((p) => statSync(p).size < 300_000);
  if (!existsSync(CORPUS)) t.diagnostic('../shared/corpus is absent: checked the bundled files only');
  let checked = 0;
  const rnd = prng(11);
  files.forEach((path, i) => {
    const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
    checked += checkLookups(text, path, null);
    if (i % 4 === 0) checked += checkLookups(text, `${path} (random order)`, rnd);
  });
  assert.ok(checked > 1000, `only ${checked} look-ups`);
});

test('look-ups without the tree: escapes, spacing, empty and large collections, scalars at every end', () => {
  const big = Array.from({ length: 60 }, (_, i) => ({ [`k${i}`]: { d: 'x'.repeat(i * 7), n: [i, -i * 1.5e3, true, null, { e: {} }] } }));
  const texts = [
    String.raw`{"\u0061":1,"a\"b":{"c\\":["\"",2,[],{}]},"é😀":"\u00e9","":{"":""}}`,
    '\r\n\t{ "a" :\r\n [ 1 , 2.5e-3 , -0 , true , false , null , "s" ] ,\n\t"b" : { } , "c" : [ ] }  \n',
    JSON.stringify({ tools: big }, null, 2),
    JSON.stringify({ tools: big }),
    JSON.stringify([[[[{ deep: [1, [2, [3, { x: 'y' }]]] }]]]]),
    '"just a string"',
    '42',
  ];
  const rnd = prng(5);
  let n = 0;
  for (const text of texts) {
    n += checkLookups(text, JSON.stringify(text.slice(0, 40)), null);
    n += checkLookups(text, `${JSON.stringify(text.slice(0, 40))} (random order)`, rnd);
  }
  assert.ok(n > 500, `only ${n} look-ups`);
});
