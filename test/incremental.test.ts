/**
 * The editor's incremental re-read (`reloadEdited`) must build exactly the file a full parse
 * builds: same tree (types, offsets, lengths, values), same data, same tools, same line index and
 * the same findings, after chains of random edits on generated catalogues, the examples and every
 * multi-tool file of the corpus. It may decline (a full parse follows), but never differ.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCatalog, prng } from '../bench/generate';
import { defaultConfig, ruleSettings, type RawRules } from '../server/src/engine/config';
import { loadText } from '../server/src/engine/load';
import { lastFallback, reloadEdited, textDiff } from '../server/src/engine/load/incremental';
import { findNode, hasLag, settleTree, type SNode } from '../server/src/engine/parse';
import { lint, ToolResultCache } from '../server/src/engine/runner';
import { allRules } from '../server/src/engine/rules';
import type { SourceFile } from '../server/src/engine/model';
import { collectFiles } from '../server/src/node/files';
import { treeView } from './helpers/trees';

const CORPUS = join(__dirname, '..', '..', 'shared', 'corpus');
const noCorpus = existsSync(CORPUS) ? false : `the corpus is not at ${CORPUS}; this test needs ../shared/corpus beside the repository`;

// Every rule on, so every rule's findings are compared.
const all: RawRules = {};
for (const r of allRules()) all[r.meta.id] = { severity: 'warning' };
const settings = ruleSettings(defaultConfig(), null, all);
const settingsFor = () => settings;



function view(f: SourceFile, withLint: boolean, cache?: ToolResultCache): unknown {
  // Linted before anything else reads the tree: after an edit the nodes of later tools move only
  // when read (`SNode.lag`), and the lint must come out the same without reading them.
  let lintOut: unknown[] | null = null;
  let internal: string[] | null = null;
  if (withLint) {
    const r = lint([f], { settingsFor, cache });
    lintOut = r.results[0].diagnostics.map((d) => ({ ...d, file: d.file === f }));
    internal = r.internalErrors;
  }
  for (const d of f.parsed.docs) settleTree(d.root);
  const lines = [];
  for (let i = 0; i < f.lines.lineCount; i++) lines.push(f.lines.lineStart(i));
  const out: Record<string, unknown> = {
    kind: f.kind,
    format: f.format,
    reason: f.reason,
    policy: f.requiredPolicy,
    problems: f.parsed.problems,
    trees: f.parsed.docs.map((d) => treeView(d.root)),
    data: f.parsed.docs.map((d) => d.data),
    lines,
    tools: f.tools.map((t) => ({ ...t, file: t.file === f, origins: [...t.origins.entries()] })),
  };
  if (withLint) {
    out.lint = lintOut;
    out.internal = internal;
  }
  return out;
}

/** String values (not keys) under a node. */
function stringValues(n: SNode | undefined, out: SNode[] = []): SNode[] {
  if (!n) return out;
  const isKey = n.parent?.type === 'property' && n.parent.children?.[0] === n;
  if (n.type === 'string' && !isKey && n.length >= 2) out.push(n);
  for (const c of n.children ?? []) stringValues(c, out);
  return out;
}

/**
 * One random edit inside a tool: mostly what typing does (a word typed inside a string value, a
 * line added beside a key), sometimes anything (characters deleted, a line break) that may break
 * the structure.
 */
function randomEdit(text: string, f: SourceFile, rand: () => number): string {
  const t = f.tools[Math.floor(rand() * f.tools.length)];
  const node = findNode(f.root(t.doc), t.path);
  const lo = node ? node.offset + 1 : 0;
  const hi = node ? node.offset + node.length : text.length;
  const kind = rand();
  const strings = stringValues(node);
  if (kind < 0.5 && strings.length) {
    const s = strings[Math.floor(rand() * strings.length)];
    const at = s.offset + 1 + Math.floor(rand() * (s.length - 1));
    if (text[at - 1] !== '\\') return text.slice(0, at) + 'zeta' + text.slice(at);
  }
  if (kind < 0.7 && strings.length) {
    // A new member after a string value's line, indented like the member holding it.
    const s = strings[Math.floor(rand() * strings.length)];
    const prop = s.parent;
    if (prop?.type === 'property') {
      const ls = text.lastIndexOf('\n', prop.offset - 1) + 1;
      const le = text.indexOf('\n', s.offset + s.length);
      const indent = ' '.repeat(prop.offset - ls);
      if (le > 0 && /^ *$/.test(text.slice(ls, prop.offset)) && !text.slice(s.offset, s.offset + s.length).includes('\n')) {
        const line = f.lang === 'json' ? `${indent}"extra_${Math.floor(rand() * 99)}": 1,` : `${indent}extra_${Math.floor(rand() * 99)}: one more`;
        return text.slice(0, le + 1) + line + '\n' + text.slice(le + 1);
      }
    }
  }
  const at = lo + Math.floor(rand() * Math.max(1, hi - lo));
  if (kind < 0.85) return text.slice(0, at) + text.slice(Math.min(text.length, at + 1 + Math.floor(rand() * 4)));
  return text.slice(0, at) + '\n' + text.slice(at);
}

/** Chains `steps` random edits; after each, the incremental file must equal a full parse. Returns how many were incremental. */
function check(path: string, text0: string, steps: number, seed: number, withLint: boolean): { incremental: number; total: number; declined: Record<string, number> } {
  const declined: Record<string, number> = {};
  const rand = prng(seed);
  let text = text0;
  let file = loadText(path, text, { version: 1 });
  let incremental = 0;
  const cache = new ToolResultCache();
  for (let s = 0; s < steps; s++) {
    if (file.kind !== 'tools' || file.tools.length < 2) break;
    const next = randomEdit(text, file, rand);
    if (next === text) continue;
    const full = loadText(path, next, { version: s + 2 });
    // The cache is shared across steps so reused results are compared too.
    if (withLint) view(file, true, cache);
    const inc = reloadEdited(file, next, s + 2);
    if (inc) {
      incremental++;
      const d = textDiff(text, next);
      assert.deepEqual(view(inc, withLint, cache), view(full, withLint), `${path}: edit ${s + 1} at ${d.start} differs from a full parse`);
      file = inc;
    } else {
      assert.ok(lastFallback, 'a declined edit says why');
      declined[lastFallback] = (declined[lastFallback] ?? 0) + 1;
      file = full;
    }
    text = next;
    // A broken text is never re-read incrementally: start again from the original.
    if (full.parsed.problems.some((p) => p.kind === 'parse-error') || full.kind !== 'tools') {
      text = text0;
      file = loadText(path, text, { version: s + 2 });
    }
  }
  return { incremental, total: steps, declined };
}

test('incremental re-read equals a full parse after random edits of a generated YAML catalogue', () => {
  const text = generateCatalog(60, 7);
  const r = check('tools.yaml', text, 60, 11, true);
  if (process.env.VERBOSE) console.log(r);
  assert.ok(r.incremental >= r.total / 3, `most edits inside a tool are incremental (${r.incremental}/${r.total}; declined: ${JSON.stringify(r.declined)})`);
});

test('incremental re-read equals a full parse on the same catalogue written as JSON', () => {
  const text = JSON.stringify({ tools: (loadText('t.yaml', generateCatalog(40, 3)).parsed.docs[0].data as { tools: unknown[] }).tools }, null, 2);
  const r = check('tools.json', text, 50, 5, true);
  if (process.env.VERBOSE) console.log(r);
  assert.ok(r.incremental >= r.total / 3, `most edits inside a tool are incremental (${r.incremental}/${r.total}; declined: ${JSON.stringify(r.declined)})`);
});

test('a one-line description edit is incremental and keeps the other tools as they were', () => {
  const text = generateCatalog(30, 1);
  const file = loadText('tools.yaml', text);
  const before = file.tools.slice();
  const line = text.split('\n').findIndex((l, i) => i > 200 && /^ {4}description: /.test(l));
  const lines = text.split('\n');
  lines[line] = '    description: Edited — find the matching records and return them newest first.';
  const inc = reloadEdited(file, lines.join('\n'), 2);
  assert.ok(inc, `declined: ${lastFallback}`);
  const changed = inc.tools.filter((t, i) => t !== before[i]);
  assert.equal(changed.length, 1, 'only the edited tool is a new object');
  assert.equal(changed[0].description, 'Edited — find the matching records and return them newest first.');
  // The later tools' own nodes moved; what lies below them moves when read.
  const root = inc.root(0)!;
  assert.ok(hasLag(root), 'the nodes below later tools are left to move on demand');
  const last = inc.tools[inc.tools.length - 1];
  const fresh = loadText('tools.yaml', lines.join('\n'));
  const nameOf = (f: SourceFile) => findNode(f.root(0), [...last.path, 'name'], true)!;
  assert.deepEqual([nameOf(inc).offset, nameOf(inc).children![1].offset], [nameOf(fresh).offset, nameOf(fresh).children![1].offset], 'read through findNode, a later node is in place');
  settleTree(root);
  assert.ok(!hasLag(root));
  assert.deepEqual(treeView(root), treeView(fresh.root(0)));
});

test('edits that change the structure are declined, not applied', () => {
  const text = generateCatalog(10, 2);
  const lines = text.split('\n');
  const i = lines.findIndex((l) => /^ {4}description: /.test(l));
  // A new tool typed inside another one's lines, and a key dedented out of its tool.
  const cases = [
    [...lines.slice(0, i + 1), '  - name: typed_in_the_middle', '    description: new', ...lines.slice(i + 1)],
    [...lines.slice(0, i), lines[i].replace(/^ {4}/, ''), ...lines.slice(i + 1)],
  ];
  for (const c of cases) {
    const next = c.join('\n');
    const inc = reloadEdited(loadText('tools.yaml', text), next, 2);
    if (inc) assert.deepEqual(view(inc, true), view(loadText('tools.yaml', next), true));
    else assert.ok(lastFallback);
  }
});

test('incremental re-read equals a full parse on the examples and every multi-tool corpus file', { skip: noCorpus }, () => {
  const roots = [join(__dirname, '..', 'examples'), CORPUS];
  let files = 0;
  let incremental = 0;
  for (const root of roots) {
    for (const f of collectFiles([root], root, () => false)) {
      const text = readFileSync(f.abs, 'utf8');
      if (text.length > 400_000) continue;
      const first = loadText(f.abs, text);
      if (first.kind !== 'tools' || first.tools.length < 2) continue;
      files++;
      // Lint comparisons on a sample keep the test quick; trees, data and tools are compared everywhere.
      incremental += check(f.abs, text, 4, files, files % 5 === 0).incremental;
    }
  }
  assert.ok(files > 50, `multi-tool files found (${files})`);
  assert.ok(incremental > files, `edits were re-read incrementally (${incremental} over ${files} files)`);
  if (process.env.VERBOSE) console.log({ files, incremental });
});

test('textDiff finds the one changed span, as a character-by-character comparison does', () => {
  const naive = (a: string, b: string) => {
    const n = Math.min(a.length, b.length);
    let s = 0;
    while (s < n && a[s] === b[s]) s++;
    let ea = a.length;
    let eb = b.length;
    while (ea > s && eb > s && a[ea - 1] === b[eb - 1]) {
      ea--;
      eb--;
    }
    return { start: s, oldEnd: ea, newEnd: eb };
  };
  const rand = prng(3);
  for (let k = 0; k < 400; k++) {
    const len = Math.floor(rand() * (k % 4 === 0 ? 200_000 : 300));
    let a = '';
    while (a.length < len) a += 'abcab\n'.charAt(Math.floor(rand() * 6));
    const at = Math.floor(rand() * (a.length + 1));
    const b = a.slice(0, at) + ['', 'x', 'ab', 'b\n'][Math.floor(rand() * 4)] + a.slice(at + Math.floor(rand() * 5));
    assert.deepEqual(textDiff(a, b), naive(a, b), `case ${k}`);
  }
});
