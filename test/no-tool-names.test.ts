/**
 * Rules must generalise: no rule source (nor the vocabulary the rules share) may contain a tool
 * name from the seeds, the corpus or the tests. Single common words (`list`, `fetch`) are tool
 * names somewhere too, so only compound names (two or more words) are checked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadText } from '../server/src/engine/load';
import { splitWords } from '../server/src/engine/vocab';

const ROOT = join(__dirname, '..');
const SHARED = join(ROOT, '..', 'shared');

function walk(d: string, exts: RegExp): string[] {
  if (!existsSync(d)) return [];
  return readdirSync(d).flatMap((n) => {
    const p = join(d, n);
    return statSync(p).isDirectory() ? walk(p, exts) : exts.test(n) ? [p] : [];
  });
}

function toolNames(): Set<string> {
  const names = new Set<string>();
  for (const f of [...walk(join(SHARED, 'corpus'), /\.(json|ya?ml|snap)$/), ...walk(join(ROOT, 'test', 'fixtures'), /\.(json|ya?ml)$/), ...walk(join(ROOT, 'examples'), /\.(json|ya?ml)$/)]) {
    for (const t of loadText(f, readFileSync(f, 'utf8')).tools) if (t.name) names.add(t.name);
  }
  // Tool names written inline in tests, and backticked identifiers in the seeds.
  // Tool files written inline in the tests: every string literal that loads as a tool file.
  for (const f of walk(join(ROOT, 'test'), /\.ts$/)) for (const lit of stringLiterals(readFileSync(f, 'utf8'))) for (const n of toolsIn(lit)) names.add(n);
  for (const n of seedToolNames()) names.add(n);
  return new Set([...names].filter((n) => splitWords(n).length >= 2 && n.length >= 6));
}

function stringLiterals(src: string): string[] {
  const out: string[] = [];
  for (const m of src.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)) {
    const raw = m[1] ?? m[2] ?? m[3] ?? '';
    if (!raw.includes('name')) continue;
    out.push(raw.replace(/\\n/g, '\n').replace(/\\(["'`\\])/g, '$1').replace(/\$\{[^}]*\}/g, 'x'));
  }
  return out;
}

function toolsIn(text: string): string[] {
  const names: string[] = [];
  for (const path of ['t.yaml', 't.json']) {
    try {
      for (const t of loadText(path, text).tools) if (t.name) names.push(t.name);
    } catch {
      /* not a tool file */
    }
  }
  return names;
}

/**
 * Tool names of the seeds, taken from the places where the seeds name tools (not every
 * identifier: `user_id` or `created_at` are field names a rule may well know).
 */
function seedToolNames(): string[] {
  const out: string[] = [];
  for (const f of walk(join(SHARED, 'seeds'), /\.txt$/)) {
    const text = readFileSync(f, 'utf8');
    // A table of tools (`| Tool | Purpose |`) and per-tool headings (### `name`).
    const table = /\| Tool \|[^\n]*\n\|[-| ]+\|\n((?:\|[^\n]*\n)+)/.exec(text);
    if (table) for (const m of table[1].matchAll(/^\| `([^`]+)`/gm)) out.push(m[1]);
    for (const m of text.matchAll(/^###\s+`([^`]+)`/gm)) out.push(m[1]);
    // JSON tool objects, YAML `name:` / `tool:` entries, `- name` list items under assertions.
    for (const m of text.matchAll(/"name":\s*"([^"]+)"/g)) out.push(m[1]);
    // `name:` at the top level is a tool file's name (indented ones are eval tests or parameters).
    for (const m of text.matchAll(/^name:\s*([A-Za-z][\w.-]*)\s*$/gm)) out.push(m[1]);
    for (const m of text.matchAll(/^\s*(?:-\s+)?tool:\s*([A-Za-z][\w.-]*)\s*$/gm)) out.push(m[1]);
    for (const m of text.matchAll(/^\s*-\s+([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s*(?:#.*)?$/gm)) out.push(m[1]);
    // Tools named in running prose as calls: get_session_context, search_tools("…"), mcp_health.tool_names.
    for (const m of text.matchAll(/\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?=\(|\.tool_names|\s+(?:returns|is|tool)\b)/g)) out.push(m[1]);
  }
  return out;
}

test('no rule source contains a tool name from the seeds, the corpus or the tests', () => {
  const names = toolNames();
  assert.ok(names.size > 1000, `expected thousands of names, found ${names.size}`);
  // All engine code: rules, the vocabulary they share, the ranker, the renderer, the loaders.
  const sources = walk(join(ROOT, 'server', 'src', 'engine'), /\.ts$/);
  const hits: string[] = [];
  for (const f of sources) {
    const src = readFileSync(f, 'utf8');
    const tokens = new Set(src.match(/[A-Za-z][\w.-]*[A-Za-z0-9]/g) ?? []);
    for (const n of names) if (tokens.has(n)) hits.push(`${f.split('/src/')[1]}: ${n}`);
  }
  assert.deepEqual(hits, []);
});
