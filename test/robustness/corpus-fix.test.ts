/**
 * Fixes never lose data: every file of ../shared/corpus is fixed in memory (the `--fix` loop with
 * the relint callback of server/src/node/run.ts) and the result must still parse no worse, keep
 * every YAML comment line, change the data only under paths some fix's ops touched, and be left
 * alone by a second fix run. Figures are printed for docs/ROBUSTNESS.md.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { defaultConfig, ruleSettings } from '../../server/src/engine/config';
import { applyFixesToText, type FixCandidate } from '../../server/src/engine/fix/apply';
import { loadBytes, loadText } from '../../server/src/engine/load';
import { isObject, type SourceFile } from '../../server/src/engine/model';
import type { SNode } from '../../server/src/engine/parse/tree';
import { lint } from '../../server/src/engine/runner';
import type { JsonPath } from '../../server/src/engine/types';

const CORPUS = join(__dirname, '..', '..', '..', 'shared', 'corpus');
const skip = existsSync(CORPUS) ? false : `the corpus is not at ${CORPUS}; this test needs ../shared/corpus beside the repository`;

const settings = ruleSettings(defaultConfig('/'), null);
const settingsFor = () => settings;

function corpusFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ya?ml|json)$/i.test(n)) out.push(p);
    }
  };
  walk(CORPUS);
  return out;
}

/** A touched place: fix ops on `doc` at `path`; `siblings` when the op may move or add siblings. */
interface Touch {
  doc: number;
  path: JsonPath;
  siblings: boolean;
}

/** The path of the deepest value node holding `offset` (for raw text ops, which have no path). */
function pathAtOffset(root: SNode | undefined, offset: number): JsonPath {
  const path: (string | number)[] = [];
  let node = root;
  while (node && node.children) {
    let next: SNode | undefined;
    if (node.type === 'object') {
      for (const prop of node.children) {
        if (offset >= prop.offset && offset <= prop.offset + prop.length) {
          path.push(String(prop.children?.[0]?.value));
          next = prop.children?.[1];
          break;
        }
      }
    } else if (node.type === 'array') {
      node.children.forEach((c, i) => {
        if (!next && offset >= c.offset && offset <= c.offset + c.length) {
          path.push(i);
          next = c;
        }
      });
    }
    if (!next) break;
    node = next;
  }
  return path;
}

function fixOnce(path: string, text: string, explicit: boolean): { text: string; applied: number; touched: Touch[] } {
  const touched: Touch[] = [];
  const out = applyFixesToText(path, text, (t) => {
    const f = loadText(path, t, { explicit });
    f.explicit = explicit;
    const r = lint([f], { settingsFor, only: new Set([f]) });
    const fixes: FixCandidate[] = (r.results.find((x) => x.file === f)?.diagnostics ?? []).filter((d) => d.fix).map((d) => ({ doc: d.doc, ops: d.fix!.ops }));
    // Every candidate of every pass: the loop may drop some, so this over-approximates what changed.
    for (const fx of fixes)
      for (const op of fx.ops) {
        if (op.op === 'text') touched.push({ doc: fx.doc, path: pathAtOffset(f.root(fx.doc), op.start), siblings: false });
        else touched.push({ doc: fx.doc, path: op.path, siblings: op.op === 'remove' || op.op === 'removeItemValue' || op.op === 'renameKey' || op.op === 'addItem' });
      }
    return { file: f, fixes };
  });
  return { text: out.text, applied: out.applied, touched };
}

/** The shallowest paths where `a` and `b` differ. */
function diffPaths(a: unknown, b: unknown, at: JsonPath = [], out: JsonPath[] = []): JsonPath[] {
  if (Object.is(a, b)) return out;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length) out.push([...at, i]);
      else diffPaths(a[i], b[i], [...at, i], out);
    }
    return out;
  }
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!Object.hasOwn(a, k) || !Object.hasOwn(b, k)) out.push([...at, k]);
      else diffPaths(a[k], b[k], [...at, k], out);
    }
    return out;
  }
  out.push(at);
  return out;
}

const startsWith = (p: JsonPath, q: JsonPath): boolean => q.length <= p.length && q.every((s, i) => String(s) === String(p[i]));

function explained(doc: number, p: JsonPath, touched: Touch[]): boolean {
  return touched.some((t) => t.doc === doc && (startsWith(p, t.path) || startsWith(t.path, p) || (t.siblings && startsWith(p, t.path.slice(0, -1)))));
}

function commentLines(text: string): string[] {
  return text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.startsWith('#'));
}

const parseErrors = (f: SourceFile) => f.parsed.problems.filter((p) => p.kind === 'parse-error').length;

test('corpus: fixes never lose data (parse, comments, untouched keys, idempotent)', { skip }, () => {
  const t0 = performance.now();
  const files = corpusFiles();
  let changed = 0;
  let applied = 0;
  const problems: string[] = [];
  for (const abs of files) {
    const rel = relative(CORPUS, abs);
    const file = loadBytes(rel, readFileSync(abs), { explicit: false });
    file.explicit = false;
    if (file.text.length === 0 || file.kind === 'unknown') continue;
    const original = (file.bom ? '\ufeff' : '') + file.text;
    const once = fixOnce(rel, original, false);
    if (once.text === original) continue;
    changed++;
    applied += once.applied;
    const fixed = loadText(rel, once.text, { explicit: false });
    if (parseErrors(fixed) > parseErrors(file)) problems.push(`${rel}: fixing added a parse error`);
    if (file.lang === 'yaml') {
      const left = new Map<string, number>();
      for (const c of commentLines(once.text)) left.set(c, (left.get(c) ?? 0) + 1);
      for (const c of commentLines(original)) {
        const n = left.get(c) ?? 0;
        if (n === 0) problems.push(`${rel}: comment lost: ${c.slice(0, 80)}`);
        else left.set(c, n - 1);
      }
    }
    if (fixed.parsed.docs.length !== file.parsed.docs.length) problems.push(`${rel}: ${file.parsed.docs.length} documents became ${fixed.parsed.docs.length}`);
    else
      file.parsed.docs.forEach((d, i) => {
        for (const p of diffPaths(d.data, fixed.parsed.docs[i].data))
          if (!explained(i, p, once.touched)) problems.push(`${rel}: doc ${i} changed at ${JSON.stringify(p)}, which no fix targeted`);
      });
    const twice = fixOnce(rel, once.text, false);
    if (twice.text !== once.text) problems.push(`${rel}: a second fix run changed the text (${twice.applied} more fixes)`);
  }
  const ms = performance.now() - t0;
  // Figures for docs/ROBUSTNESS.md ("Fixes on the corpus").
  console.log(`corpus-fix: ${files.length} files, ${changed} changed, ${applied} fixes applied, ${ms.toFixed(0)} ms`);
  assert.deepEqual(problems, []);
  assert.ok(files.length > 0);
});
