/**
 * `fix/edits.ts` (EditOp → minimal text edits) and `fix/apply.ts` (the `--fix` loop).
 *
 * Each case states the exact output text; the checker also re-parses it, compares its data with
 * an independent model of the op, looks for the comments that must survive, and applies the op
 * again to the output (a no-op, or null for a removal: the intent is already met).
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { loadText } from '../server/src/engine/load';
import { parseText, type Lang } from '../server/src/engine/parse';
import { applyEdits, opsToEdits } from '../server/src/engine/fix/edits';
import { applyFixesToText, type FixCandidate } from '../server/src/engine/fix/apply';
import type { EditOp } from '../server/src/engine/rules/api';
import type { JsonPath } from '../server/src/engine/types';

// ---------------------------------------------------------------------------------------------
// Helpers

const langOf = (path: string): Lang => (path.endsWith('.json') ? 'json' : 'yaml');

function run(path: string, text: string, ops: EditOp[], doc = 0, verify = true): string | null {
  const file = loadText(path, text);
  const edits = opsToEdits(file, doc, ops, { verify });
  return edits && applyEdits(file.text, edits);
}

function dataOf(path: string, text: string, doc = 0): unknown {
  const r = parseText(text, langOf(path));
  assert.deepEqual(r.problems.filter((p) => p.kind === 'parse-error'), [], `parse errors in:\n${text}`);
  return r.docs[doc]?.data;
}

type Obj = Record<string, unknown>;

/** An independent model of the ops on plain data (paths refer to the original document). */
const GONE = Symbol('gone');

function model(data: unknown, ops: EditOp[]): unknown {
  let root: unknown = structuredClone(data);
  const at = (path: JsonPath): unknown => path.reduce<unknown>((v, k) => (v as Obj | undefined)?.[k as string], root);
  const parent = (path: JsonPath): [Obj | unknown[], string | number] => [at(path.slice(0, -1)) as Obj, path[path.length - 1]];
  const eq = (a: unknown, b: unknown): boolean => {
    try {
      assert.deepStrictEqual(a, b);
      return true;
    } catch {
      return false;
    }
  };
  for (const op of ops) {
    switch (op.op) {
      case 'remove': {
        const [p, k] = parent(op.path);
        (p as Obj)[k as string] = GONE;
        break;
      }
      case 'removeItemValue': {
        const arr = at(op.path) as unknown[];
        const i = arr.findIndex((x) => x !== GONE && eq(x, op.value));
        if (i >= 0) arr[i] = GONE;
        break;
      }
      case 'set':
      case 'replaceString':
        if (op.path.length === 0) root = structuredClone(op.value);
        else {
          const [p, k] = parent(op.path);
          (p as Obj)[k as string] = structuredClone(op.value);
        }
        break;
      case 'appendText': {
        const [p, k] = parent(op.path);
        const cur = (p as Obj)[k as string] as string;
        if (!cur.trimEnd().endsWith(op.text.trim())) (p as Obj)[k as string] = cur + op.text;
        break;
      }
      case 'addItem': {
        const cur = at(op.path);
        if (Array.isArray(cur)) {
          if (!cur.some((x) => x !== GONE && eq(x, op.value))) cur.push(structuredClone(op.value));
        } else {
          const [p, k] = parent(op.path);
          (p as Obj)[k as string] = [structuredClone(op.value)];
        }
        break;
      }
      case 'renameKey': {
        const [p, k] = parent(op.path) as [Obj, string];
        const v = p[k];
        delete p[k];
        p[op.key] = v;
        break;
      }
      case 'text':
        throw new Error('no model for raw edits');
    }
  }
  const compact = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.filter((x) => x !== GONE).map(compact)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== GONE).map(([k, x]) => [k, compact(x)]))
        : v;
  return compact(root);
}

interface Case {
  name: string;
  path?: string;
  text: string;
  ops: EditOp[];
  /** Exact output, or null when the ops must be refused. */
  out: string | null;
  /** Text that must survive (comments). */
  keep?: string[];
  /** Expected data when the model does not apply (block-scalar appends, raw edits). */
  data?: unknown;
  doc?: number;
  /** False when applying again legitimately acts again (duplicates). */
  again?: false;
}

function check(c: Case): void {
  test(c.name, () => {
    const path = c.path ?? 'tools.yaml';
    const doc = c.doc ?? 0;
    const out = run(path, c.text, c.ops, doc);
    assert.equal(out, c.out);
    if (out === null) return;
    // The edit logic must be right on its own, not merely rescued by verification.
    assert.equal(run(path, c.text, c.ops, doc, false), out, 'unverified edits differ');
    const expected = c.data !== undefined ? c.data : model(dataOf(path, c.text, doc), c.ops);
    assert.deepStrictEqual(dataOf(path, out, doc), expected);
    for (const k of c.keep ?? []) assert.ok(out.includes(k), `lost ${JSON.stringify(k)}`);
    if (c.ops.some((o) => o.op === 'text')) return;
    const again = opsToEdits(loadText(path, out), doc, c.ops);
    // An index path still names an item after a removal (the next one); only a key path is gone.
    if (c.ops.some((o) => o.op === 'remove' && typeof o.path[o.path.length - 1] === 'number') || c.again === false) return;
    if (c.ops.some((o) => o.op === 'remove')) assert.equal(again, null, 'removing again should be refused');
    else assert.deepEqual(again, [], 'applying again should change nothing');
  });
}

// ---------------------------------------------------------------------------------------------
// YAML block style

const TOOL = `# Tools for the demo server
name: search # the public name
description: Find documents.
inputSchema:
  type: object
  # the parameters
  properties:
    query:
      type: string
      description: |
        What to look for.
        Plain words work best.
    limit: {type: integer}
    mode:
      type: string
      enum:
        - fast
        - exact # slower
  required: [query]
`;

describe('YAML block: remove', () => {
  check({
    name: 'a top-level member with a comment beside it',
    text: TOOL,
    ops: [{ op: 'remove', path: ['name'] }],
    out: TOOL.replace('name: search # the public name\n', ''),
    keep: ['# Tools for the demo server', '# the parameters'],
  });
  check({
    name: 'a member whose value is a literal block scalar and a mapping',
    text: TOOL,
    ops: [{ op: 'remove', path: ['inputSchema', 'properties', 'query'] }],
    out: TOOL.replace(/ {4}query:\n(?: {6}.*\n)+/, ''),
    keep: ['# the parameters'],
  });
  check({
    name: 'a nested block sequence item with a comment beside it',
    text: TOOL,
    ops: [{ op: 'remove', path: ['inputSchema', 'properties', 'mode', 'enum', 1] }],
    out: TOOL.replace('        - exact # slower\n', ''),
  });
  check({
    name: 'the first block sequence item',
    text: TOOL,
    ops: [{ op: 'remove', path: ['inputSchema', 'properties', 'mode', 'enum', 0] }],
    out: TOOL.replace('        - fast\n', ''),
    keep: ['# slower'],
  });
  check({
    name: 'the only member of a nested mapping leaves `{}`',
    text: 'a:\n  b: 1\nc: 2\n',
    ops: [{ op: 'remove', path: ['a', 'b'] }],
    out: 'a: {}\nc: 2\n',
  });
  check({
    name: 'the only member, with a comment on the parent key line',
    text: 'schema: # the schema\n  # about b\n  b: 1\nc: 2\n',
    ops: [{ op: 'remove', path: ['schema', 'b'] }],
    out: 'schema: {} # the schema\n  # about b\nc: 2\n',
    keep: ['# the schema', '# about b'],
  });
  check({
    name: 'the only item of a block sequence leaves `[]`',
    text: 'enum:\n  - x\nother: 1\n',
    ops: [{ op: 'remove', path: ['enum', 0] }],
    out: 'enum: []\nother: 1\n',
  });
  check({
    name: 'the only member of the root mapping',
    text: '# header\na: 1\n',
    ops: [{ op: 'remove', path: ['a'] }],
    out: '# header\n{}\n',
    keep: ['# header'],
  });
  check({
    name: 'a member of a mapping nested three deep',
    text: 'a:\n  b:\n    c: 1\n    d: 2\n  e: 3\n',
    ops: [{ op: 'remove', path: ['a', 'b', 'c'] }],
    out: 'a:\n  b:\n    d: 2\n  e: 3\n',
  });
  check({
    name: 'the last member at the end of a file without a final line break',
    text: 'a: 1\nb: 2',
    ops: [{ op: 'remove', path: ['b'] }],
    out: 'a: 1\n',
  });
  check({
    name: 'a member whose value is a folded block scalar',
    text: 'a: >-\n  one\n  two\nb: 2\n',
    ops: [{ op: 'remove', path: ['a'] }],
    out: 'b: 2\n',
  });
  check({
    name: 'a missing path is refused',
    text: 'a: 1\n',
    ops: [{ op: 'remove', path: ['zzz'] }],
    out: null,
  });
  check({
    name: 'the document itself is refused',
    text: 'a: 1\n',
    ops: [{ op: 'remove', path: [] }],
    out: null,
  });
});

const SEQ = `tools:
  # first tool
  - name: alpha
    description: A. # about alpha
    inputSchema: {type: object}
  - name: beta
`;

describe('YAML block: sequences of mappings', () => {
  check({
    name: 'removing the first key keeps `- ` and pulls the next key up',
    text: SEQ,
    ops: [{ op: 'remove', path: ['tools', 0, 'name'] }],
    out: SEQ.replace('  - name: alpha\n    description', '  - description'),
    keep: ['# first tool', '# about alpha'],
  });
  check({
    name: 'removing a later key removes its line',
    text: SEQ,
    ops: [{ op: 'remove', path: ['tools', 0, 'description'] }],
    out: SEQ.replace('    description: A. # about alpha\n', ''),
  });
  check({
    name: 'removing the only key leaves `- {}`',
    text: SEQ,
    ops: [{ op: 'remove', path: ['tools', 1, 'name'] }],
    out: SEQ.replace('  - name: beta', '  - {}'),
  });
  check({
    name: 'removing a whole item',
    text: SEQ,
    ops: [{ op: 'remove', path: ['tools', 0] }],
    out: 'tools:\n  # first tool\n  - name: beta\n',
    keep: ['# first tool'],
  });
  check({
    name: 'removing the first key when the next value is a nested mapping',
    text: '- name: a\n  schema:\n    type: object\n- name: b\n',
    ops: [{ op: 'remove', path: [0, 'name'] }],
    out: '- schema:\n    type: object\n- name: b\n',
  });
  check({
    name: 'setting a new member writes it at the item keys’ indentation',
    text: SEQ,
    ops: [{ op: 'set', path: ['tools', 1, 'description'], value: 'B: the second' }],
    out: SEQ + '    description: "B: the second"\n',
  });
  check({
    name: 'adding a mapping item writes the first key on the `- ` line',
    text: SEQ,
    ops: [{ op: 'addItem', path: ['tools'], value: { name: 'gamma', inputSchema: { type: 'object' } } }],
    out: SEQ + '  - name: gamma\n    inputSchema:\n      type: object\n',
  });
  check({
    name: 'nested sequences sharing a line: the next item is pulled up',
    text: '- - a\n  - b\n- c\n',
    ops: [{ op: 'remove', path: [0, 0] }],
    out: '- - b\n- c\n',
  });
  check({
    name: 'a sequence at the same indentation as its key',
    text: 'enum:\n- a\n- b\nx: 1\n',
    ops: [{ op: 'addItem', path: ['enum'], value: 'c' }],
    out: 'enum:\n- a\n- b\n- c\nx: 1\n',
  });
});

describe('YAML block: set', () => {
  check({
    name: 'replacing a plain scalar',
    text: TOOL,
    ops: [{ op: 'set', path: ['inputSchema', 'properties', 'mode', 'type'], value: 'integer' }],
    out: TOOL.replace('      type: string\n      enum', '      type: integer\n      enum'),
  });
  check({
    name: 'replacing a string keeps double quotes',
    text: 'name: "old_name" # keep\n',
    ops: [{ op: 'set', path: ['name'], value: 'new_name' }],
    out: 'name: "new_name" # keep\n',
  });
  check({
    name: 'replacing a string keeps single quotes and escapes `\'`',
    text: "name: 'old'\n",
    ops: [{ op: 'set', path: ['name'], value: "it's" }],
    out: "name: 'it''s'\n",
  });
  check({
    name: 'a string that is not plain-safe is double-quoted',
    text: 'name: old\n',
    ops: [{ op: 'set', path: ['name'], value: 'yes' }],
    out: 'name: "yes"\n',
  });
  check({
    name: 'a new scalar member goes after the last member',
    text: TOOL,
    ops: [{ op: 'set', path: ['inputSchema', 'properties', 'limit', 'minimum'], value: 1 }],
    out: TOOL.replace('limit: {type: integer}', 'limit: {type: integer, minimum: 1}'),
  });
  check({
    name: 'a new object member is written as a nested block mapping',
    text: TOOL,
    ops: [{ op: 'set', path: ['inputSchema', 'properties', 'page'], value: { type: 'integer', description: 'Page #, from 1' } }],
    out: TOOL.replace('        - exact # slower\n', '        - exact # slower\n    page:\n      type: integer\n      description: "Page #, from 1"\n'),
    keep: ['# slower'],
  });
  check({
    name: 'a new array member is written in flow style',
    text: 'items:\n  type: string\n',
    ops: [{ op: 'set', path: ['items', 'enum'], value: ['a', 'b c', 'd, e'] }],
    out: 'items:\n  type: string\n  enum: [a, b c, "d, e"]\n',
  });
  check({
    name: 'a new member after a block scalar goes after its last content line',
    text: 'a:\n  description: >-\n    folded\n    text\n\nb: 1\n',
    ops: [{ op: 'set', path: ['a', 'type'], value: 'string' }],
    out: 'a:\n  description: >-\n    folded\n    text\n  type: string\n\nb: 1\n',
  });
  check({
    name: 'the indentation unit of the file is followed (4 spaces)',
    text: 'schema:\n    properties:\n        a:\n            type: string\n',
    ops: [{ op: 'set', path: ['schema', 'properties', 'b'], value: { type: 'number' } }],
    out: 'schema:\n    properties:\n        a:\n            type: string\n        b:\n            type: number\n',
  });
  check({
    name: 'an empty value gets one',
    text: 'a:\nb: 2\n',
    ops: [{ op: 'set', path: ['a'], value: 'x' }],
    out: 'a: x\nb: 2\n',
  });
  check({
    name: 'a block mapping replaced by an object becomes a flow mapping',
    text: 'a: # note\n  b: 1\n  c: 2\nd: 3\n',
    ops: [{ op: 'set', path: ['a'], value: { type: 'string' } }],
    out: 'a: {type: string}\nd: 3\n',
  });
  check({
    name: 'an array index (block item)',
    text: 'enum:\n  - a # first\n  - b\n',
    ops: [{ op: 'set', path: ['enum', 0], value: 'z' }],
    out: 'enum:\n  - z # first\n  - b\n',
    keep: ['# first'],
  });
  check({
    name: 'a number replaced by a string that looks like a number is quoted',
    text: 'v: 1\n',
    ops: [{ op: 'set', path: ['v'], value: '2' }],
    out: 'v: "2"\n',
  });
  check({
    name: 'a tag before a replaced scalar is dropped with it',
    text: 'v: !!str 3\n',
    ops: [{ op: 'set', path: ['v'], value: 4 }],
    out: 'v: 4\n',
  });
  check({
    name: 'a quoted key ending in `!` is not taken for a tag',
    text: '"a !": null\n',
    ops: [{ op: 'set', path: ['a !'], value: [] }],
    out: '"a !": []\n',
  });
  check({
    name: 'two new members in one call keep their order',
    text: 'a:\n  x: 1\n',
    ops: [
      { op: 'set', path: ['a', 'y'], value: 2 },
      { op: 'set', path: ['a', 'z'], value: 3 },
    ],
    out: 'a:\n  x: 1\n  y: 2\n  z: 3\n',
  });
  check({
    name: 'lines inserted at one point go deepest first, whatever the op order',
    text: 'a:\n  list:\n    - x\n',
    ops: [
      { op: 'set', path: ['b'], value: 1 },
      { op: 'set', path: ['a', 'c'], value: 2 },
      { op: 'addItem', path: ['a', 'list'], value: 'y' },
    ],
    out: 'a:\n  list:\n    - x\n    - y\n  c: 2\nb: 1\n',
  });
  check({
    name: 'a sequence item goes before a member at the same column',
    text: 'enum:\n- a\n',
    ops: [
      { op: 'set', path: ['type'], value: 'string' },
      { op: 'addItem', path: ['enum'], value: 'b' },
    ],
    out: 'enum:\n- a\n- b\ntype: string\n',
  });
  check({
    name: 'removing the last member and adding another',
    text: 'a: 1\nb: 2\n',
    ops: [
      { op: 'remove', path: ['b'] },
      { op: 'set', path: ['c'], value: 3 },
    ],
    out: 'a: 1\nc: 3\n',
  });
  check({
    name: 'removing the only member and adding another collides (use renameKey)',
    text: 'a:\n  b: 1\n',
    ops: [
      { op: 'remove', path: ['a', 'b'] },
      { op: 'set', path: ['a', 'c'], value: 3 },
    ],
    out: null,
  });
  check({
    name: 'a missing parent is refused',
    text: 'a: 1\n',
    ops: [{ op: 'set', path: ['b', 'c'], value: 1 }],
    out: null,
  });
  check({
    name: 'a key that needs quoting',
    text: 'a: 1\n',
    ops: [{ op: 'set', path: ['x: y'], value: true }],
    out: 'a: 1\n"x: y": true\n',
  });
});

describe('YAML block: appendText', () => {
  check({
    name: 'a plain scalar stays plain when the result is safe',
    text: 'description: Find documents. # why\n',
    ops: [{ op: 'appendText', path: ['description'], text: ' Call `list` first.' }],
    out: 'description: Find documents. Call `list` first. # why\n',
    keep: ['# why'],
  });
  check({
    name: 'a plain scalar is rewritten double-quoted when the text has `: `',
    text: 'description: Find documents.\n',
    ops: [{ op: 'appendText', path: ['description'], text: ' Note: slow.' }],
    out: 'description: "Find documents. Note: slow."\n',
  });
  check({
    name: 'a double-quoted scalar gets escaped text before its quote',
    text: 'd: "Say \\"hi\\"."\n',
    ops: [{ op: 'appendText', path: ['d'], text: ' Then "bye".' }],
    out: 'd: "Say \\"hi\\". Then \\"bye\\"."\n',
  });
  check({
    name: 'a single-quoted scalar doubles `\'`',
    text: "d: 'Plain.'\n",
    ops: [{ op: 'appendText', path: ['d'], text: " It's fine." }],
    out: "d: 'Plain. It''s fine.'\n",
  });
  check({
    name: 'a literal block scalar gets a new content line',
    text: TOOL,
    ops: [{ op: 'appendText', path: ['inputSchema', 'properties', 'query', 'description'], text: ' Quotes: "x".' }],
    out: TOOL.replace('        Plain words work best.\n', '        Plain words work best.\n        Quotes: "x".\n'),
    data: (() => {
      const d = model(dataOf('t.yaml', TOOL), []) as Obj;
      ((((d.inputSchema as Obj).properties as Obj).query as Obj).description as unknown) = 'What to look for.\nPlain words work best.\nQuotes: "x".\n';
      return d;
    })(),
  });
  check({
    name: 'a folded strip block scalar gets a new content line (joined by a space)',
    text: 'd: >-\n  One line\n  folded.\nx: 1\n',
    ops: [{ op: 'appendText', path: ['d'], text: ' More.' }],
    out: 'd: >-\n  One line\n  folded.\n  More.\nx: 1\n',
    data: { d: 'One line folded. More.', x: 1 },
  });
  check({
    name: 'a literal keep block scalar keeps its trailing blank lines',
    text: 'd: |+\n  a\n\nx: 1\n',
    ops: [{ op: 'appendText', path: ['d'], text: 'b' }],
    out: 'd: |+\n  a\n  b\n\nx: 1\n',
    data: { d: 'a\nb\n\n', x: 1 },
  });
  check({
    name: 'a block scalar with an indentation indicator',
    text: 'd: |2-\n    indented\n  base\n',
    ops: [{ op: 'appendText', path: ['d'], text: 'end' }],
    out: 'd: |2-\n    indented\n  base\n  end\n',
    data: { d: '  indented\nbase\nend' },
  });
  check({
    name: 'a line break in text for a folded scalar is refused',
    text: 'd: >\n  a\n',
    ops: [{ op: 'appendText', path: ['d'], text: 'x\ny' }],
    out: null,
  });
  check({
    name: 'a non-string is refused',
    text: 'd: 3\n',
    ops: [{ op: 'appendText', path: ['d'], text: 'x' }],
    out: null,
  });
});

describe('YAML block: addItem, removeItemValue, renameKey, replaceString, text', () => {
  check({
    name: 'addItem to a block sequence',
    text: TOOL,
    ops: [{ op: 'addItem', path: ['inputSchema', 'properties', 'mode', 'enum'], value: 'fuzzy' }],
    out: TOOL.replace('        - exact # slower\n', '        - exact # slower\n        - fuzzy\n'),
  });
  check({
    name: 'addItem to a missing array creates it',
    text: 'schema:\n  type: object\n',
    ops: [{ op: 'addItem', path: ['schema', 'required'], value: 'q' }],
    out: 'schema:\n  type: object\n  required: [q]\n',
  });
  check({
    name: 'addItem to a flow sequence',
    text: TOOL,
    ops: [{ op: 'addItem', path: ['inputSchema', 'required'], value: 'mode' }],
    out: TOOL.replace('required: [query]', 'required: [query, mode]'),
  });
  check({
    name: 'addItem to an empty value',
    text: 'required:\nx: 1\n',
    ops: [{ op: 'addItem', path: ['required'], value: 'a' }],
    out: 'required: [a]\nx: 1\n',
  });
  check({
    name: 'removeItemValue removes the first equal item',
    text: 'required:\n  - a\n  - b\n  - a\n',
    ops: [{ op: 'removeItemValue', path: ['required'], value: 'a' }],
    out: 'required:\n  - b\n  - a\n',
    again: false,
  });
  check({
    name: 'removeItemValue of an absent value is a no-op',
    text: 'required: [a]\n',
    ops: [{ op: 'removeItemValue', path: ['required'], value: 'z' }],
    out: 'required: [a]\n',
  });
  check({
    name: 'renameKey keeps a plain key plain',
    text: TOOL,
    ops: [{ op: 'renameKey', path: ['inputSchema', 'properties', 'limit'], key: 'max_results' }],
    out: TOOL.replace('limit:', 'max_results:'),
  });
  check({
    name: 'renameKey keeps quotes and quotes when needed',
    text: '"a": 1\nb: 2\n',
    ops: [
      { op: 'renameKey', path: ['a'], key: 'c' },
      { op: 'renameKey', path: ['b'], key: 'd #e' },
    ],
    out: '"c": 1\n"d #e": 2\n',
  });
  check({
    name: 'renameKey onto an existing key is refused',
    text: 'a: 1\nb: 2\n',
    ops: [{ op: 'renameKey', path: ['a'], key: 'b' }],
    out: null,
  });
  check({
    name: 'replaceString keeps single quotes',
    text: "type: 'strng'\n",
    ops: [{ op: 'replaceString', path: ['type'], value: 'string' }],
    out: "type: 'string'\n",
  });
  check({
    name: 'replaceString on a literal block keeps the block',
    text: 'd: |\n  old\n  text\nx: 1\n',
    ops: [{ op: 'replaceString', path: ['d'], value: 'new\ntext\n' }],
    out: 'd: |\n  new\n  text\nx: 1\n',
  });
  check({
    name: 'a raw text edit passes through',
    text: 'a: 1 # lint-disable-line x\n',
    ops: [{ op: 'text', start: 4, end: 26, text: '' }],
    out: 'a: 1\n',
    data: { a: 1 },
  });
  check({
    name: 'overlapping ops are refused',
    text: 'a:\n  b: 1\n',
    ops: [
      { op: 'remove', path: ['a'] },
      { op: 'set', path: ['a', 'b'], value: 2 },
    ],
    out: null,
  });
  check({
    name: 'an edit inside an alias is refused (it would change the anchor)',
    text: 'base: &b\n  type: string\nother: *b\n',
    ops: [{ op: 'set', path: ['other', 'type'], value: 'number' }],
    out: null,
  });
  check({
    name: 'the second document of a stream',
    text: 'a: 1\n---\n# doc two\nb: 2\nc: 3\n',
    ops: [{ op: 'remove', path: ['b'] }],
    out: 'a: 1\n---\n# doc two\nc: 3\n',
    doc: 1,
    keep: ['# doc two'],
  });
});

// ---------------------------------------------------------------------------------------------
// YAML flow style

describe('YAML flow', () => {
  check({
    name: 'remove the first, the last and the only member',
    text: 'a: {x: 1, y: 2, z: 3}\nb: {only: 1}\n',
    ops: [
      { op: 'remove', path: ['a', 'x'] },
      { op: 'remove', path: ['a', 'z'] },
      { op: 'remove', path: ['b', 'only'] },
    ],
    out: 'a: {y: 2}\nb: {}\n',
  });
  check({
    name: 'remove from a flow sequence',
    text: 'r: [a, b, c]\n',
    ops: [{ op: 'remove', path: ['r', 1] }],
    out: 'r: [a, c]\n',
  });
  check({
    name: 'set a new member in a flow mapping',
    text: 'p: {type: string}\n',
    ops: [{ op: 'set', path: ['p', 'description'], value: 'A, B' }],
    out: 'p: {type: string, description: "A, B"}\n',
  });
  check({
    name: 'fill an empty flow mapping',
    text: 'p: {}\n',
    ops: [{ op: 'set', path: ['p', 'type'], value: 'string' }],
    out: 'p: {type: string}\n',
  });
  check({
    name: 'a multi-line flow mapping keeps its layout',
    text: 'p: {\n  a: 1, # one\n  b: 2\n}\n',
    ops: [{ op: 'set', path: ['p', 'c'], value: 3 }],
    out: 'p: {\n  a: 1, # one\n  b: 2,\n  c: 3\n}\n',
    keep: ['# one'],
  });
  check({
    name: 'a flow root',
    text: '{name: t, tags: [x]}\n',
    ops: [{ op: 'addItem', path: ['tags'], value: 'y' }],
    out: '{name: t, tags: [x, y]}\n',
  });
  check({
    name: 'replace an item of a flow sequence with a string needing quotes in flow',
    text: 'r: [a, b]\n',
    ops: [{ op: 'set', path: ['r', 0], value: 'x,y' }],
    out: 'r: ["x,y", b]\n',
  });
});

// ---------------------------------------------------------------------------------------------
// JSON

const JSON_PRETTY = `{
  "name": "search",
  "inputSchema": {
    "type": "object",
    "properties": {},
    "required": ["query", "limit"]
  },
  "tags": []
}
`;

describe('JSON pretty-printed', () => {
  const path = 'tool.json';
  check({
    path,
    name: 'remove the first member',
    text: JSON_PRETTY,
    ops: [{ op: 'remove', path: ['name'] }],
    out: JSON_PRETTY.replace('"name": "search",\n  ', ''),
  });
  check({
    path,
    name: 'remove the last member',
    text: JSON_PRETTY,
    ops: [{ op: 'remove', path: ['tags'] }],
    out: JSON_PRETTY.replace(',\n  "tags": []', ''),
  });
  check({
    path,
    name: 'remove the last array item',
    text: JSON_PRETTY,
    ops: [{ op: 'remove', path: ['inputSchema', 'required', 1] }],
    out: JSON_PRETTY.replace('["query", "limit"]', '["query"]'),
  });
  check({
    path,
    name: 'remove the only member',
    text: '{\n  "a": {\n    "b": 1\n  }\n}\n',
    ops: [{ op: 'remove', path: ['a', 'b'] }],
    out: '{\n  "a": {}\n}\n',
  });
  check({
    path,
    name: 'set a new member after the last one, in the file’s indentation',
    text: JSON_PRETTY,
    ops: [{ op: 'set', path: ['inputSchema', 'additionalProperties'], value: false }],
    out: JSON_PRETTY.replace('["query", "limit"]\n', '["query", "limit"],\n    "additionalProperties": false\n'),
  });
  check({
    path,
    name: 'fill an empty object the way a formatter would',
    text: JSON_PRETTY,
    ops: [{ op: 'set', path: ['inputSchema', 'properties', 'query'], value: { type: 'string' } }],
    out: JSON_PRETTY.replace('"properties": {}', '"properties": {\n      "query": {"type":"string"}\n    }'),
  });
  check({
    path,
    name: 'addItem to an empty array',
    text: JSON_PRETTY,
    ops: [{ op: 'addItem', path: ['tags'], value: 'search' }],
    out: JSON_PRETTY.replace('"tags": []', '"tags": [\n    "search"\n  ]'),
  });
  check({
    path,
    name: 'appendText escapes for JSON',
    text: JSON_PRETTY,
    ops: [{ op: 'appendText', path: ['name'], text: ' "v2"\t' }],
    out: JSON_PRETTY.replace('"search"', '"search \\"v2\\"\\t"'),
  });
  check({
    path,
    name: 'renameKey and replaceString',
    text: JSON_PRETTY,
    ops: [
      { op: 'renameKey', path: ['tags'], key: 'labels' },
      { op: 'replaceString', path: ['inputSchema', 'type'], value: 'array' },
    ],
    out: JSON_PRETTY.replace('"tags"', '"labels"').replace('"object"', '"array"'),
  });
  check({
    path,
    name: 'tabs for indentation',
    text: '{\n\t"a": {\n\t\t"b": 1\n\t}\n}',
    ops: [{ op: 'set', path: ['a', 'c'], value: [1] }],
    out: '{\n\t"a": {\n\t\t"b": 1,\n\t\t"c": [1]\n\t}\n}',
  });
  check({
    path,
    name: 'NaN is refused in JSON',
    text: '{"a": 1}',
    ops: [{ op: 'set', path: ['a'], value: NaN }],
    out: null,
  });
});

describe('JSON compact', () => {
  const path = 'tool.json';
  check({
    path,
    name: 'remove and set',
    text: '{"a":1,"b":{"c":2},"d":[1,2,3]}',
    ops: [
      { op: 'remove', path: ['a'] },
      { op: 'set', path: ['b', 'e'], value: 'x' },
      { op: 'remove', path: ['d', 2] },
    ],
    out: '{"b":{"c":2,"e":"x"},"d":[1,2]}',
  });
  check({
    path,
    name: 'spaced compact',
    text: '{ "a": [ 1 ], "b": {} }\n',
    ops: [
      { op: 'addItem', path: ['a'], value: 2 },
      { op: 'set', path: ['b', 'k'], value: null },
    ],
    out: '{ "a": [ 1, 2 ], "b": {"k": null} }\n',
  });
});

// ---------------------------------------------------------------------------------------------
// Line breaks

describe('CRLF files stay CRLF', () => {
  const text = '# c\r\na:\r\n  b: 1\r\n  d: |\r\n    text\r\nc: 2\r\n';
  check({
    name: 'remove',
    text,
    ops: [{ op: 'remove', path: ['a', 'b'] }],
    out: '# c\r\na:\r\n  d: |\r\n    text\r\nc: 2\r\n',
    keep: ['# c'],
  });
  check({
    name: 'insert a nested mapping',
    text,
    ops: [{ op: 'set', path: ['a', 'e'], value: { type: 'string' } }],
    out: '# c\r\na:\r\n  b: 1\r\n  d: |\r\n    text\r\n  e:\r\n    type: string\r\nc: 2\r\n',
  });
  check({
    name: 'append to a block scalar',
    text,
    ops: [{ op: 'appendText', path: ['a', 'd'], text: 'more' }],
    out: '# c\r\na:\r\n  b: 1\r\n  d: |\r\n    text\r\n    more\r\nc: 2\r\n',
    data: { a: { b: 1, d: 'text\nmore\n' }, c: 2 },
  });
  check({
    name: 'only-member removal',
    text: 'a:\r\n  - x\r\n',
    ops: [{ op: 'remove', path: ['a', 0] }],
    out: 'a: []\r\n',
  });
  check({
    path: 'x.json',
    name: 'JSON fill',
    text: '{\r\n  "a": {}\r\n}\r\n',
    ops: [{ op: 'set', path: ['a', 'b'], value: 1 }],
    out: '{\r\n  "a": {\r\n    "b": 1\r\n  }\r\n}\r\n',
  });
});

// ---------------------------------------------------------------------------------------------
// applyEdits

test('applyEdits applies non-overlapping edits and keeps insertion order', () => {
  assert.equal(
    applyEdits('abcdef', [
      { start: 4, end: 6, text: 'X' },
      { start: 1, end: 1, text: '1' },
      { start: 1, end: 1, text: '2' },
      { start: 1, end: 3, text: '' },
    ]),
    'a12dX',
  );
  assert.throws(() => applyEdits('abc', [{ start: 0, end: 2, text: '' }, { start: 1, end: 3, text: '' }]), RangeError);
});

// ---------------------------------------------------------------------------------------------
// applyFixesToText

/** A toy rule: every property schema needs a `type` (fix: `type: string`). */
function missingTypes(path: string) {
  return (text: string) => {
    const file = loadText(path, text);
    const fixes: FixCandidate[] = [];
    const props = ((file.parsed.docs[0]?.data as Obj | null)?.properties ?? {}) as Obj;
    for (const [k, v] of Object.entries(props)) {
      if (!(v as Obj).type) fixes.push({ doc: 0, ops: [{ op: 'set', path: ['properties', k, 'type'], value: 'string' }] });
    }
    return { file, fixes };
  };
}

describe('applyFixesToText', () => {
  test('applies all fixes, keeps BOM and CRLF, converges', () => {
    const original = '\ufeffproperties:\r\n  a: {}\r\n  b:\r\n    description: B\r\n';
    const r = applyFixesToText('t.yaml', original, missingTypes('t.yaml'));
    assert.equal(r.text, '\ufeffproperties:\r\n  a: {type: string}\r\n  b:\r\n    description: B\r\n    type: string\r\n');
    assert.equal(r.applied, 2);
    assert.equal(r.passes, 1);
  });

  test('colliding fixes wait for the next pass', () => {
    const relint = (text: string) => {
      const file = loadText('t.yaml', text);
      const data = file.parsed.docs[0]?.data as Obj;
      const fixes: FixCandidate[] = ['x', 'y'].filter((k) => !(k in data)).map((k) => ({ doc: 0, ops: [{ op: 'set', path: [k], value: 1 }] }));
      return { file, fixes };
    };
    const r = applyFixesToText('t.yaml', 'a: 1\n', relint);
    assert.equal(r.text, 'a: 1\nx: 1\ny: 1\n');
    assert.deepEqual([r.applied, r.passes], [2, 2]);
  });

  test('a fix that breaks the file together with another is dropped', () => {
    // Each raw edit parses on its own; together the mapping gains a sequence item and a key.
    const relint = (text: string) => {
      const file = loadText('t.yaml', text);
      const fixes: FixCandidate[] = [];
      const b = text.indexOf('b: 1');
      if (b >= 0) fixes.push({ doc: 0, ops: [{ op: 'text', start: b, end: b + 4, text: '- 1' }] });
      if (!text.includes('c: 2')) fixes.push({ doc: 0, ops: [{ op: 'text', start: text.length, end: text.length, text: '  c: 2\n' }] });
      return { file, fixes };
    };
    const r = applyFixesToText('t.yaml', 'a:\n  b: 1\n', relint);
    assert.equal(r.text, 'a:\n  - 1\n');
    assert.deepEqual([r.applied, r.passes], [1, 1]);
  });

  test('fixes whose ops clash on the data (not the text) are split across passes', () => {
    const relint = (text: string) => {
      const file = loadText('t.yaml', text);
      const data = file.parsed.docs[0]?.data as Obj;
      const fixes: FixCandidate[] = [];
      if ('a' in data) {
        fixes.push({ doc: 0, ops: [{ op: 'renameKey', path: ['a'], key: 'b' }] });
        fixes.push({ doc: 0, ops: [{ op: 'set', path: ['a', 'x'], value: 1 }] });
      } else if (!('x' in (data.b as Obj))) {
        fixes.push({ doc: 0, ops: [{ op: 'set', path: ['b', 'x'], value: 1 }] });
      }
      return { file, fixes };
    };
    const r = applyFixesToText('t.yaml', 'a:\n  y: 0\n', relint);
    assert.equal(r.text, 'b:\n  y: 0\n  x: 1\n');
    assert.deepEqual([r.applied, r.passes], [2, 2]);
  });

  test('the callback gets the path', () => {
    const paths: string[] = [];
    applyFixesToText('dir/t.yaml', 'a: 1\n', (text, path) => {
      paths.push(path);
      return { file: loadText(path, text), fixes: [] };
    });
    assert.deepEqual(paths, ['dir/t.yaml']);
  });

  test('an oscillating fix stops', () => {
    const relint = (text: string) => {
      const file = loadText('t.yaml', text);
      const i = text.indexOf('1');
      const j = text.indexOf('2');
      const op: EditOp = i >= 0 ? { op: 'text', start: i, end: i + 1, text: '2' } : { op: 'text', start: j, end: j + 1, text: '1' };
      return { file, fixes: [{ doc: 0, ops: [op] }] };
    };
    const r = applyFixesToText('t.yaml', 'a: 1\n', relint);
    assert.equal(r.text, 'a: 2\n');
    assert.equal(r.passes, 1);
  });

  test('at most ten passes', () => {
    let n = 0;
    const relint = (text: string) => ({ file: loadText('t.yaml', text), fixes: [{ doc: 0, ops: [{ op: 'addItem' as const, path: ['a'], value: ++n }] }] });
    const r = applyFixesToText('t.yaml', 'a: []\n', relint);
    assert.equal(r.passes, 10);
    assert.deepEqual(dataOf('t.yaml', r.text), { a: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] });
  });

  test('nothing to fix returns the text unchanged', () => {
    const original = '\ufeff{"properties": {"a": {"type": "string"}}}';
    assert.deepEqual(applyFixesToText('t.json', original, missingTypes('t.json')), { text: original, applied: 0, passes: 0 });
  });
});

// ---------------------------------------------------------------------------------------------
// Property: random documents, random ops, in every serialisation.
// `RUNS=20000 SEED=7 node --import tsx --test test/edits.test.ts` searches harder or replays.

const fcParams = () => ({ numRuns: Number(process.env.RUNS ?? 1000), seed: process.env.SEED ? Number(process.env.SEED) : undefined });

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const keyArb = fc.oneof(
  fc.constantFrom('a', 'b', 'name', 'type', 'description', 'x y', 'k: v', '#c', 'true', '1', '-d', 'é', "it's", ''),
  fc.string({ minLength: 1, maxLength: 6 }),
);
const textArb = fc.oneof(
  fc.string({ maxLength: 10 }),
  fc.constantFrom('line1\nline2\n', 'a: b', "it's", 'say "hi"', ' lead', 'trail ', '#x', '- y', 'yes', '0x1F', '', 'tab\there', 'é😀', 'x'.repeat(90) + ' ' + 'y'.repeat(10)),
);
const scalarArb: fc.Arbitrary<Json> = fc.oneof(
  textArb,
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
);
const { value: valueArb } = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', maxDepth: 3 }, scalarArb, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(keyArb, tie('value'), { maxKeys: 3, noNullPrototype: true })),
}));
const docArb = fc.dictionary(keyArb, valueArb, { minKeys: 1, maxKeys: 4, noNullPrototype: true });

const FORMATS: Record<string, [string, (v: Json) => string]> = {
  'json-pretty': ['t.json', (v) => JSON.stringify(v, null, 2) + '\n'],
  'json-compact': ['t.json', (v) => JSON.stringify(v)],
  'json-crlf': ['t.json', (v) => JSON.stringify(v, null, 4).replace(/\n/g, '\r\n')],
  'yaml-block': ['t.yaml', (v) => stringify(v)],
  'yaml-indent4': ['t.yaml', (v) => stringify(v, { indent: 4, indentSeq: false })],
  'yaml-flow': ['t.yaml', (v) => stringify(v, { collectionStyle: 'flow' })],
  'yaml-crlf': ['t.yaml', (v) => stringify(v).replace(/\n/g, '\r\n')],
};

function allPaths(v: Json, path: JsonPath = [], out: { path: JsonPath; value: Json }[] = []) {
  out.push({ path, value: v });
  if (Array.isArray(v)) v.forEach((x, i) => allPaths(x, [...path, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) allPaths(x, [...path, k], out);
  return out;
}

interface Drawn {
  op: EditOp;
  /** The op may be refused for a documented reason (not counted as a failure). */
  mayRefuse: boolean;
}

function drawOp(doc: Json, kind: number, pick: number, value: Json, key: string, text: string): Drawn | null {
  const paths = allPaths(doc);
  const choose = <T>(xs: T[]): T | null => (xs.length ? xs[pick % xs.length] : null);
  const isObj = (x: Json): x is { [k: string]: Json } => !!x && typeof x === 'object' && !Array.isArray(x);
  switch (kind % 7) {
    case 0: {
      const p = choose(paths.filter((x) => x.path.length > 0));
      return p && { op: { op: 'remove', path: p.path }, mayRefuse: false };
    }
    case 1: {
      const p = choose(paths);
      return p && { op: { op: 'set', path: p.path, value }, mayRefuse: false };
    }
    case 2: {
      const p = choose(paths.filter((x) => isObj(x.value) && !(key in (x.value as object))));
      return p && { op: { op: 'set', path: [...p.path, key], value }, mayRefuse: false };
    }
    case 3: {
      const p = choose(paths.filter((x) => Array.isArray(x.value)));
      return p && { op: { op: 'addItem', path: p.path, value }, mayRefuse: false };
    }
    case 4: {
      const p = choose(paths.filter((x) => typeof x.value === 'string'));
      // A folded block scalar cannot take a line break.
      return p && { op: { op: 'appendText', path: p.path, text }, mayRefuse: /[\r\n]/.test(text) };
    }
    case 5: {
      const p = choose(paths.filter((x) => x.path.length > 0 && typeof x.path[x.path.length - 1] === 'string'));
      if (!p) return null;
      const parent = paths.find((x) => x.path.length === p.path.length - 1 && x.path.every((s, i) => s === p.path[i]))!.value as object;
      return { op: { op: 'renameKey', path: p.path, key }, mayRefuse: key in parent && key !== p.path[p.path.length - 1] };
    }
    default: {
      const p = choose(paths.filter((x) => Array.isArray(x.value) && x.value.length > 0));
      if (!p) return null;
      const items = p.value as Json[];
      return { op: { op: 'removeItemValue', path: p.path, value: items[pick % items.length] }, mayRefuse: false };
    }
  }
}

test('property: random ops on random documents give the modelled data', () => {
  let refused = 0;
  let total = 0;
  fc.assert(
    fc.property(docArb, fc.constantFrom(...Object.keys(FORMATS)), fc.nat(), fc.nat(), valueArb, keyArb, textArb, (doc, fmt, kind, pick, value, key, text) => {
      const [path, ser] = FORMATS[fmt];
      const src = ser(doc);
      const before = parseText(src, langOf(path));
      fc.pre(before.problems.length === 0);
      fc.pre(isDeepStrictEqual(before.docs[0]?.data, doc));
      const drawn = drawOp(doc, kind, pick, value, key, text);
      fc.pre(drawn !== null);
      const { op, mayRefuse } = drawn!;
      total++;
      const out = run(path, src, [op]);
      if (out === null) {
        refused++;
        assert.ok(mayRefuse, `refused ${JSON.stringify(op)} on ${fmt}:\n${src}`);
        return;
      }
      if (src.includes('\r\n')) assert.ok(!/(?:^|[^\r])\n/.test(out), `a bare line break in a CRLF file:\n${JSON.stringify(out)}`);
      const after = parseText(out, langOf(path));
      assert.deepEqual(after.problems, [], `problems after ${JSON.stringify(op)} on ${fmt}:\n${src}\n--->\n${out}`);
      const got = after.docs[0]?.data;
      if (op.op === 'appendText') {
        // Block scalars join the new line with a line break or a fold; check the rest exactly.
        const want = model(doc, [op]);
        const g = op.path.reduce<unknown>((v, k) => (v as Obj)[k as string], got) as string;
        const w = op.path.reduce<unknown>((v, k) => (v as Obj)[k as string], want) as string;
        const old = op.path.reduce<unknown>((v, k) => (v as Obj)[k as string], doc) as string;
        const variants = [w, old.replace(/\n+$/, '') + '\n' + op.text.trim() + old.slice(old.replace(/\n+$/, '').length), old.replace(/\n+$/, '') + ' ' + op.text.trim() + old.slice(old.replace(/\n+$/, '').length)];
        assert.ok(variants.includes(g), `appendText gave ${JSON.stringify(g)}`);
        assert.deepStrictEqual(model(got, [{ op: 'set', path: op.path, value: w }]), want);
      } else {
        assert.deepStrictEqual(got, model(doc, [op]), `${JSON.stringify(op)} on ${fmt}:\n${src}\n--->\n${out}`);
      }
    }),
    fcParams(),
  );
  // Refusals are for documented cases only, and rare.
  assert.ok(refused <= total * 0.05, `${refused} of ${total} refused`);
});

test('property: two ops in one call are applied together or refused together', () => {
  let applied = 0;
  let total = 0;
  fc.assert(
    fc.property(docArb, fc.constantFrom(...Object.keys(FORMATS)), fc.array(fc.tuple(fc.nat(), fc.nat(), valueArb, keyArb), { minLength: 2, maxLength: 2 }), (doc, fmt, draws) => {
      const [path, ser] = FORMATS[fmt];
      const src = ser(doc);
      const before = parseText(src, langOf(path));
      fc.pre(before.problems.length === 0 && isDeepStrictEqual(before.docs[0]?.data, doc));
      // appendText is left out: its block-scalar join is not the model's plain concatenation.
      const ops = draws.map(([kind, pick, value, key]) => drawOp(doc, kind === 4 ? 1 : kind, pick, value, key, ''));
      fc.pre(ops.every((d) => d !== null && !d.mayRefuse));
      const list = ops.map((d) => d!.op);
      // Ops on nested paths interact (set a parent, rename its child): not a case for the model.
      const [p0, p1] = list.map((o) => (o.op === 'text' ? [] : o.path));
      const prefix = (a: JsonPath, b: JsonPath) => a.length <= b.length && a.every((x, i) => x === b[i]);
      fc.pre(!prefix(p0, p1) && !prefix(p1, p0));
      total++;
      const out = run(path, src, list);
      if (out === null) return;
      applied++;
      const after = parseText(out, langOf(path));
      assert.deepEqual(after.problems, [], `problems after ${JSON.stringify(list)} on ${fmt}:\n${src}\n--->\n${out}`);
      assert.deepStrictEqual(after.docs[0]?.data, model(doc, list));
    }),
    fcParams(),
  );
  // Most pairs touch different entries; refusals are for colliding ones only.
  assert.ok(applied >= total * 0.5, `${applied} of ${total} applied`);
});

function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}
