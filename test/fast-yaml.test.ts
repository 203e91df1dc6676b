/**
 * The fast YAML reader must give exactly what the full parser gives (tree with every offset,
 * data, duplicate-key problems) whenever it answers at all; it must decline everything outside
 * plain block YAML. Checked on every YAML file of the corpus, the examples, the fixtures, the rule
 * examples, generated catalogues, and on thousands of small mutations of them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCatalog, prng } from '../bench/generate';
import { readPlainYaml, resolvePlain } from '../server/src/engine/parse/fast-yaml';
import { parseYamlFull } from '../server/src/engine/parse/yaml';
import { filesUnder, parseView } from './helpers/trees';

const ROOT = join(__dirname, '..');
const CORPUS = join(ROOT, '..', 'shared', 'corpus');
const YAML_NAME = /\.ya?ml$/i;

/** Compares the two readers on a text; returns whether the fast one answered. */
function same(text: string, where: string): boolean {
  const fast = readPlainYaml(text);
  if (!fast) return false;
  assert.deepEqual(parseView(fast, { anchors: true }), parseView(parseYamlFull(text), { anchors: true }), `${where}: the fast reader differs from the full parser`);
  return true;
}

function sources(): { path: string; text: string }[] {
  const files = [
    ...filesUnder(join(ROOT, 'examples'), YAML_NAME),
    ...filesUnder(join(ROOT, 'test', 'fixtures'), YAML_NAME),
    ...filesUnder(join(ROOT, 'docs', 'rules', 'examples'), YAML_NAME),
    ...filesUnder(CORPUS, YAML_NAME),
  ];
  const out = files.map((path) => ({ path, text: readFileSync(path, 'utf8').replace(/^\uFEFF/, '') }));
  for (const seed of [1, 2, 3]) out.push({ path: `generated-${seed}`, text: generateCatalog(120, seed) });
  return out;
}

test('the fast YAML reader equals the full parser on every YAML file it reads, and reads most of them', () => {
  const all = sources();
  let answered = 0;
  for (const s of all) if (same(s.text, s.path)) answered++;
  assert.ok(all.length > 100, `YAML files found (${all.length})`);
  // The generated catalogues (the bench's input) must all take the fast path.
  for (const seed of [1, 2, 3]) assert.ok(readPlainYaml(generateCatalog(120, seed)), `generated catalogue ${seed} is read fast`);
  assert.ok(answered > all.length / 2, `the fast reader answered for ${answered} of ${all.length} files`);
});

test('the fast YAML reader equals the full parser after small mutations of real files', () => {
  const rand = prng(7);
  // Edits that keep most files plain block YAML, and some that break it.
  const inserts = [' ', '\n', '  ', ': ', '- ', '#', ' # c', 'x', '"', "'", '[', ']', '{', '}', ',', '|', '>', '-', '1', 'true', '~', '\n  - a\n', '\n\n', ': x', '0x1F', '1e3', '.5', 'null', '&a ', '*a', '!t ', '? ', '---\n'];
  let answered = 0;
  let tried = 0;
  const all = sources().filter((s) => s.text.length < 60_000);
  for (let round = 0; round < 3000; round++) {
    const s = all[Math.floor(rand() * all.length)];
    const at = Math.floor(rand() * (s.text.length + 1));
    const text = rand() < 0.7 ? s.text.slice(0, at) + inserts[Math.floor(rand() * inserts.length)] + s.text.slice(at) : s.text.slice(0, at) + s.text.slice(at + 1 + Math.floor(rand() * 3));
    tried++;
    if (same(text, `${s.path} mutated at ${at}`)) answered++;
  }
  assert.ok(answered > tried / 4, `the fast reader answered for ${answered} of ${tried} mutations`);
});

test('plain scalars resolve as the YAML 1.2 core schema says', () => {
  const cases: [string, unknown][] = [
    ['', null], ['~', null], ['null', null], ['Null', null], ['NULL', null], ['nULL', 'nULL'],
    ['true', true], ['True', true], ['FALSE', false], ['yes', 'yes'], ['on', 'on'],
    ['12', 12], ['+12', 12], ['-7', -7], ['0o17', 15], ['0x1F', 31], ['012', 12],
    ['1.5', 1.5], ['.5', 0.5], ['1e3', 1000], ['-.inf', -Infinity], ['.nan', NaN], ['1.2.3', '1.2.3'], ['1_000', '1_000'],
  ];
  for (const [s, v] of cases) assert.deepEqual(resolvePlain(s), v, JSON.stringify(s));
});

test('the fast YAML reader equals the full parser on the constructs it reads (or declines them)', () => {
  const snippets = [
    'a: 1\nb:\nc: |\n  x\n  y\n\nd: [p, q]\ne: {k: v}\nf:\n- 1\n-  x: y\n   z: w\ng: >-\n  m\n  n\n',
    'k: |+\n  t\n\n\nw: >\n  p\n\n  q\n  r\nz: |-\n  end',
    'a: |\n\n  lead\n  x\n',
    'a: >\n  one\n\n\n  two\n',
    'a: |2\n   x\n',
    'a: |\n  x\n   more\n  y\n',
    'a: >\n  x\n   more\n  y\n',
    '"quoted key": 1\n\'single\': 2\n"a\\"b": "c\\\\d\\n\\u00e9\\x41\\/"\n\'it\'\'s\': \'x\'\'y\'\n',
    'list:\n  - [a, "b", \'c\', {d: e, f: [g, h]}, []]\n  - {}\n  - {a: 1, b: true, c: ~, d: 0x1F}\n',
    'a: [a, b,]\nb: 1\n',
    'a: {a: }\n',
    'a: [a: b]\n',
    'a: x # comment\nb: "y"  # c\nc: [1]  # c\nd:  # c\n  e: 1\n',
    '- a\n- b: 1\n  c: 2\n-\n  - x\n- - y\n',
    'a:\n- x\n- y\nb: 1\n',
    'a: b: c\n',
    'a: multi\n  line\n',
    'a:\n  plain on next line\n',
    'a: 1\na: 2\nb: {c: 1, c: 2}\n',
    '1: one\n1.50: x\ntrue: t\nnull: n\n~: m\n0x10: h\n',
    '  a: 1\n  b: 2\n',
    'a: 1\n b: 2\n',
    'a: "unclosed\n',
    'a: @x\n',
    'a: `x\n',
    'a: -\n',
    'a: - x\n',
    'a: "x"y\n',
    'a: \'x\' # c\n',
    'url: http://example.com/x?y=1#frag\ntime: 12:30\nneg: -5\ndash: -x\n',
    'a:\n  b:\n    c: 1\n\n\nd: 2\n',
    'a:\n  - b\n\n\n',
    'x: 1',
    'x:',
    '- |\n  block in seq\n- >-\n  folded\n  more\n',
    'a: {b: [1, 2], c: {d: "e, f"}}\n',
    'a: [ x , y ]\n',
    "a: 'multi\n  line'\n",
    // Comment lines in every place.
    'tools:\n  # first\n  - name: a\n    s:\n      p: 1\n  # second\n  - name: b\n    s:\n      p: 2\n',
    'a:\n  b: 1\n  # c\n  e: 2\n',
    'a:\n  b: 1\n# c\n  e: 2\n',
    'a:\n  b:\n    c: 1\n  # here\n  d: 2\n',
    'a:\n  b:\n    c: 1\n  # here\n',
    'a:\n  b:\n    c: 1\n# here\n',
    'a:\n  b: 1\n\n  # c\nd: 2\n',
    'a:\n  b: 1\n  # c\n\n\nd: 2\n',
    'a:\n  - x\n\n# c\n\nd: 2\n',
    'a:\n  b: 1\n    # deeper\n  d: 2\n',
    'a: |\n  x\n# c\nb: 1\n',
    'a: |\n  x\n  # not a comment\nb: 1\n',
    'a: |+\n  x\n\n# c\nb: 1\n',
    '- a\n# c\n- b\n  # c2\n',
    'a:\n  # before\n  b: 1\n',
    'a: 1\n\n# tail\n',
    'a: 1\n  # tail\n',
    '# head\n\n# more\na: 1\n',
    // Scalars over several lines.
    'a: one\n  two\n\n  three\n\n\n  four\nb: 1\n',
    '- one\n  two\n- x\n',
    'a: one  \n   two   \nb: 1\n',
    "a: 'one\n  two''s\n\n  three '\nb: 1\n",
    "a: 'one\nb: 1'\n",
    'a: one\n  - two\n',
    'a: one\n  two: x\n',
    'a: one # c\n  two\n',
    'a: one\n  # c\n  two\n',
    'a: 12\n  34\n',
    'a:\n  - one\n    two\n  - three\n',
    // Found by the differential fuzz: empty values next to comments, a block scalar at the end of a file.
    'r:\n  a:\n    b: # x\n  c: 3\n',
    'r:\n  a:\n    b: # x\n\n  c: 3\n',
    'r:\n  a:\n    b:\n# c\n  d: 1\n',
    'r:\n  props:\nnext:\n      type: x\n',
    'code: |\n  SELECT 1\n  FROM t ',
    'code: |+\n  SELECT 1',
    'code: >-\n  a\n  b',
    // Flow collections over several lines, folded scalars with more-indented lines, and plain
    // scalars whose next line starts with a quote (all common in hand-written tool files).
    'a:\n  examples: [\n    "x",\n    "y"\n  ]\n  b: 1\n',
    'a:\n  examples: [\n  "x",\n  "y"\n  ]\n  b: 1\n',
    'a:\n  examples: [\n "x",\n "y"\n ]\n  b: 1\n',
    'a:\n  examples: [ "x",\n    "y" ]\n',
    'a:\n  examples: [\n    x y,\n    z\n  ]\n',
    'a:\n  examples: [\n    "x",\n\n    "y"\n  ]\n',
    'a:\n  examples: [\n    "x", # c\n    "y"\n  ]\n',
    'a:\n  - [\n    1,\n    2\n  ]\n',
    '- [\n  1,\n  2\n]\n',
    'a: [\n  1,\n  2,\n]\n',
    'a: [\n  1,\n  2,\n  ]\nb: 2\n',
    'a: [1,\n  [2, 3],\n  {b: c,\n   d: e}]\n',
    'a: {b: 1,\n  c: 2}\n',
    'a: {b: 1,\n  c: 2,\n}\n',
    'a: {b:\n  1}\n',
    'a: [x\n  y]\n',
    'a: ["x"\n  , "y"]\n',
    'a: [\n"x"]\n',
    'a: [\n  "x"\n',
    'a: >\n  text\n    more indented\n    - list\n  back\n\n  para\n',
    'a: >\n  x\n\n    deeper\n\n  y\n',
    'a: >-\n  x\n    deeper\n',
    'a: >+\n  x\n    deeper\n\n',
    'a: Package name (e.g.,\n  "dplyr", "ggplot2"). Required.\nb: 1\n',
    "a: it is\n  'quoted' later\n",
    'a: one\n  "two"\n  three\n',
  ];
  let answered = 0;
  for (const s of snippets) if (same(s, JSON.stringify(s))) answered++;
  assert.ok(answered > snippets.length / 3, `answered ${answered} of ${snippets.length}`);
});

test('random flow collections over several lines and folded scalars: the fast reader equals the full parser', () => {
  const rand = prng(11);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];
  const items = ['"x"', "'y'", 'z', 'two words', '1', 'true', '~', '[a, b]', '{k: v}', '"a, b"', '[]', '{}', '"q\\"x"'];
  const indent = (): string => ' '.repeat(Math.floor(rand() * 7));
  const gap = (): string => pick([' ', '', '\n' + indent(), '\n\n' + indent(), ' \n' + indent()]);
  let answered = 0;
  const rounds = 1500;
  for (let r = 0; r < rounds; r++) {
    const col = pick([0, 2, 4]);
    const pad = ' '.repeat(col);
    let text: string;
    if (rand() < 0.7) {
      const map = rand() < 0.25;
      const n = Math.floor(rand() * 4);
      const parts: string[] = [];
      for (let i = 0; i < n; i++) parts.push(map ? `k${i}: ${pick(items)}` : pick(items));
      let body = parts.map((x, i) => (i === 0 ? gap() : ',' + gap()) + x).join('');
      if (n > 0 && rand() < 0.3) body += ',';
      const value = `${map ? '{' : '['}${body}${gap()}${map ? '}' : ']'}`;
      text = `${pad}key: ${value}\n${pad}next: 1\n`;
    } else {
      const lines: string[] = [];
      for (let i = 0, n = 1 + Math.floor(rand() * 5); i < n; i++) lines.push(pick(['', 'text here', '  deeper', '    deeper still', '- item', 'end.']));
      text = `${pad}key: ${pick(['>', '>-', '>+', '|'])}\n${lines.map((l) => (l === '' ? '' : `${pad}  ${l}`)).join('\n')}\n${pad}next: 1\n`;
    }
    const doc = col === 0 ? text : `root:\n${text}`;
    if (same(doc, JSON.stringify(doc))) answered++;
  }
  assert.ok(answered > rounds / 3, `answered ${answered} of ${rounds}`);
});
