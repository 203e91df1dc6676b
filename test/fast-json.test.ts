/**
 * The strict JSON reader must build exactly `jsonc-parser`'s tree (every type, offset, length,
 * value, colon offset and parent) whenever it answers, and must decline every text that is not
 * strict JSON, so `jsonc-parser` reports it. Checked on every JSON file of the corpus, the
 * examples and fixtures, on hand-picked edge cases, and on thousands of mutations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { prng } from '../bench/generate';
import { jsonShape, readStrictJson } from '../server/src/engine/parse/fast-json';
import { LazyJsonDoc, parseJson, parseJsonFull } from '../server/src/engine/parse/json';
import { filesUnder, parseView } from './helpers/trees';

const ROOT = join(__dirname, '..');
const CORPUS = join(ROOT, '..', 'shared', 'corpus');
const JSON_NAME = /\.(json|snap)$/i;

/**
 * Compares the paths on a text: the strict reader, the tree built on first use (`lazyTree`), and
 * jsonc-parser. Returns whether the strict reader answered.
 */
function same(text: string, where: string): boolean {
  const answered = readStrictJson(text) !== null;
  const full = parseView(parseJsonFull(text), { keys: true });
  assert.deepEqual(parseView(parseJson(text), { keys: true }), full, `${where}: the strict JSON reader differs from jsonc-parser`);
  const lazy = parseJson(text, { lazyTree: true });
  assert.deepEqual(parseView(lazy, { keys: true }), full, `${where}: the tree built on first use differs from jsonc-parser`);
  return answered;
}

function sources(): { path: string; text: string }[] {
  const files = [join(ROOT, 'examples'), join(ROOT, 'test', 'fixtures'), CORPUS].flatMap((d) => filesUnder(d, JSON_NAME));
  return files.map((path) => ({ path, text: readFileSync(path, 'utf8').replace(/^\uFEFF/, '') }));
}

test('the strict JSON reader equals jsonc-parser on every JSON file, and reads the valid ones', () => {
  const all = sources();
  let read = 0;
  for (const s of all) if (same(s.text, s.path)) read++;
  const valid = all.filter((s) => {
    try {
      JSON.parse(s.text);
      return s.text.trim() !== '';
    } catch {
      return false;
    }
  }).length;
  if (!existsSync(CORPUS)) console.log(`# ../shared/corpus is absent: checked ${all.length} bundled files only`);
  // Every valid JSON text short of absurd nesting takes the fast path.
  assert.equal(read, valid, `read ${read} of ${valid} valid JSON files`);
});

test('edge cases: values, escapes, numbers and spacing give the same tree; anything else is declined', () => {
  const accepted = [
    '{}', '[]', ' \n\t\r{ "a" : 1 }\n', '"just a string"', '0', '-0', '-0.5e-7', '1E+2', '12345678901234567890', '1e400', 'true', 'null',
    '{"a":{"b":[1,[2,{}],"x"]},"c":false}', '{"a":1,"a":2}', '{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"a":10}',
    String.raw`{"e":"\"\\\/\b\f\n\r\t\u00e9\uD83D\uDE00\u0000"}`, '{"\\u0061":"\\ud800"}', '{"emoji":"😀","ls":"\u2028"}', '{"__proto__":{"x":1}}',
  ];
  for (const text of accepted) assert.equal(same(text, JSON.stringify(text)), true, `should read ${JSON.stringify(text)}`);
  const declined = [
    '', '   ', '{', '{"a":}', '{"a" 1}', '{"a":1,}', '[1,]', '[1 2]', '{a:1}', "{'a':1}", '01', '1.', '.5', '+1', '1e', '-', '--1', 'NaN', 'tru', 'truex', 'nul',
    '{"a":1} x', '{"a":1}}', '// c\n{}', '{"a":1 /* c */}', '"a\tb"', '"a\nb"', '"\\x41"', '"\\u12G4"', '"unterminated', '\u00a0{}', '{}\u000b', '[1]\u2028',
    '['.repeat(600) + ']'.repeat(600),
  ];
  for (const text of declined) {
    assert.equal(readStrictJson(text), null, `should decline ${JSON.stringify(text.slice(0, 40))}`);
    same(text, JSON.stringify(text.slice(0, 40)));
  }
});

test('mutations of real files: where the strict reader answers, it agrees with jsonc-parser', () => {
  const all = sources().filter((s) => s.text.length < 64 * 1024);
  if (all.length === 0) return;
  const rnd = prng(7);
  const pieces = ['{', '}', '[', ']', ',', ':', '"', '\\', '\\u', '0', '-', '.', 'e', ' ', '\n', '\t', 'true', 'null', '/', '\u00a0', '\u0001', '1e5'];
  let answered = 0;
  for (let i = 0; i < 3000; i++) {
    const s = all[Math.floor(rnd() * all.length)];
    const at = Math.floor(rnd() * (s.text.length + 1));
    const del = Math.floor(rnd() * 4);
    const ins = rnd() < 0.8 ? pieces[Math.floor(rnd() * pieces.length)] : '';
    const text = s.text.slice(0, at) + ins + s.text.slice(at + del);
    if (same(text, `${s.path} with ${JSON.stringify(ins)} at ${at} (-${del})`)) answered++;
  }
  // A fair share of mutations stay valid JSON (inside strings, whitespace): the reader must read them.
  assert.ok(answered > 100, `only ${answered} mutations were read`);
});

test('a tree built on first use: only for valid JSON without repeated keys, and not before it is asked for', () => {
  const lazyDoc = (text: string) => parseJson(text, { lazyTree: true }).docs[0];
  const d = lazyDoc('{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}');
  assert.ok(d instanceof LazyJsonDoc);
  assert.equal(d.built, false, 'reading the data must not build the tree');
  assert.deepEqual(d.data, { tools: [{ name: 'a', inputSchema: { type: 'object' } }] });
  assert.equal(d.root?.children?.[0].children?.[0].value, 'tools');
  assert.equal(d.built, true);
  // Whatever has a problem to report is parsed as before, tree and problems at once.
  for (const text of ['{"a":1,"a":2}', '{"x":{"a":1,"b":{"a":2},"a":3}}', '{"a":1,}', '// c\n{}', '['.repeat(600) + ']'.repeat(600), '']) {
    const r = parseJson(text, { lazyTree: true });
    assert.ok(!(r.docs[0] instanceof LazyJsonDoc), `${JSON.stringify(text.slice(0, 30))} must be parsed eagerly`);
    assert.deepEqual(parseView(r), parseView(parseJson(text)));
  }
  assert.equal(parseJson('{"a":1,"a":2}', { lazyTree: true }).problems[0]?.kind, 'duplicate-key');
});

test('jsonShape counts members and nesting outside strings', () => {
  assert.deepEqual(jsonShape('{}'), { members: 0, depth: 1 });
  assert.deepEqual(jsonShape('[1,[2,[3]],{"a":{"b":[]}}]'), { members: 2, depth: 4 });
  // Colons, brackets and escaped quotes inside strings are text.
  const tricky = String.raw`{"a:b":"x: [y] {z}","c\":d":"\\","e":"\"{"}`;
  assert.equal(Object.keys(JSON.parse(tricky)).length, 3);
  assert.deepEqual(jsonShape(tricky), { members: 3, depth: 1 });
  assert.deepEqual(jsonShape('"just: a string"'), { members: 0, depth: 0 });
});
