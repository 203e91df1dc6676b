/**
 * A lexical intent ranker over a catalogue (seed 004): which tools serve "what the user wants
 * to do", judged only by the words of each tool. Scoring is BM25 per field, with field weights
 * name > category > description > parameter names, IDF over the catalogue (a word every tool
 * carries tells nothing apart), a light stemmer and a small synonym map. It contains no tool
 * names and nothing learnt from any test's answers, so it must generalise.
 */
import type { Catalog, Schema, Tool } from '../model';
import { isObject } from '../model';
import { analyze, isAction, synonymsOf } from './text';
import { toolCategory } from './tool-info';

export type Field = 'name' | 'category' | 'description' | 'parameters';
export const FIELDS: readonly Field[] = ['name', 'category', 'description', 'parameters'];

/** Weight of a match in each field. */
export const FIELD_WEIGHTS: Readonly<Record<Field, number>> = { name: 3, category: 2, description: 1, parameters: 0.5 };
/** BM25 length normalisation per field (short fields are normalised less). */
const FIELD_B: Readonly<Record<Field, number>> = { name: 0.5, category: 0.5, description: 0.75, parameters: 0.5 };
const K1 = 1.2;
/** A match through a synonym counts this much of a match of the word itself. */
export const SYNONYM_WEIGHT = 0.6;
/** Two adjacent words joined (`pull request` → `pullrequest`) count this much of a word. */
export const COMPOUND_WEIGHT = 0.5;

interface FieldStats {
  tf: Map<string, number>;
  len: number;
}

interface Doc {
  tool: Tool;
  fields: Record<Field, FieldStats>;
}

export interface ToolIndex {
  tools: Tool[];
  docs: Doc[];
  /** Number of tools carrying each term (in any field). */
  df: Map<string, number>;
  /** Tools (by position in `docs`) carrying each term. */
  postings: Map<string, number[]>;
  avgLen: Record<Field, number>;
}

export interface Ranked {
  tool: Tool;
  score: number;
  /** Terms of the intent (`QueryUnit.term`) that this tool matched, directly or through a synonym. */
  matched: string[];
}

export interface RankOptions {
  /** Return at most this many tools. */
  limit?: number;
  /**
   * Also return tools that match no word of the intent, with score 0, after the others
   * (ties by name). Off by default: search results hold only matching tools.
   */
  all?: boolean;
}

/** Words of the tool's parameter names, at any depth (properties and array items). */
function parameterText(schema: Schema | null): string {
  const names: string[] = [];
  const seen = new Set<object>();
  const visit = (s: unknown, depth: number): void => {
    if (!isObject(s) || seen.has(s) || depth > 4) return;
    seen.add(s);
    if (isObject(s.properties)) {
      for (const [k, v] of Object.entries(s.properties)) {
        names.push(k);
        visit(v, depth + 1);
      }
    }
    if (isObject(s.items)) visit(s.items, depth + 1);
  };
  visit(schema, 0);
  // One name per phrase: words of two parameters are not adjacent.
  return names.join('. ');
}

function fieldTexts(tool: Tool): Record<Field, string> {
  const raw = tool.raw;
  const title = typeof raw.title === 'string' ? raw.title : typeof tool.annotations.title === 'string' ? tool.annotations.title : '';
  return {
    name: [tool.name ?? '', title].filter(Boolean).join('. '),
    category: toolCategory(tool) ?? '',
    description: tool.description ?? '',
    parameters: parameterText(tool.inputSchema),
  };
}

function fieldStats(text: string): FieldStats {
  const tf = new Map<string, number>();
  let len = 0;
  for (const t of analyze(text)) {
    tf.set(t.term, (tf.get(t.term) ?? 0) + (t.compound ? COMPOUND_WEIGHT : 1));
    if (!t.compound) len++;
  }
  return { tf, len };
}

const indexCache = new WeakMap<object, ToolIndex>();

/**
 * The search index of a set of tools. Cached per catalogue (or per tools array), so ranking every
 * prompt of an eval suite analyses each tool once. Tools without a name are left out.
 */
export function buildIndex(source: Catalog | readonly Tool[]): ToolIndex {
  const key = source as object;
  const hit = indexCache.get(key);
  if (hit) return hit;
  const tools = (Array.isArray(source) ? source : (source as Catalog).tools).filter((t: Tool) => t.name !== null && t.name !== '');
  const docs: Doc[] = [];
  const df = new Map<string, number>();
  const postings = new Map<string, number[]>();
  const total: Record<Field, number> = { name: 0, category: 0, description: 0, parameters: 0 };
  for (const tool of tools) {
    const texts = fieldTexts(tool);
    const fields = {} as Record<Field, FieldStats>;
    const terms = new Set<string>();
    for (const f of FIELDS) {
      fields[f] = fieldStats(texts[f]);
      total[f] += fields[f].len;
      for (const t of fields[f].tf.keys()) terms.add(t);
    }
    const at = docs.length;
    docs.push({ tool, fields });
    for (const t of terms) {
      df.set(t, (df.get(t) ?? 0) + 1);
      const p = postings.get(t);
      if (p) p.push(at);
      else postings.set(t, [at]);
    }
  }
  const n = Math.max(docs.length, 1);
  const avgLen = {} as Record<Field, number>;
  for (const f of FIELDS) avgLen[f] = Math.max(total[f] / n, 1);
  const index: ToolIndex = { tools, docs, df, postings, avgLen };
  indexCache.set(key, index);
  return index;
}

/** One word of the intent with the terms that count as it, each with its weight. */
export interface QueryUnit {
  /** The stem (or joined pair) the unit matches. */
  term: string;
  /** The intent's words as written (lower-case). */
  word: string;
  compound: boolean;
  /** A verb of action (`get`, `create`), not a thing. */
  action: boolean;
  /** Terms that count as this one, with their weights (the term itself, its synonyms). */
  expansions: Map<string, number>;
}

/** The units an intent is ranked by: each distinct term, with its synonyms. */
export function queryUnits(intent: string): QueryUnit[] {
  const units = new Map<string, QueryUnit>();
  for (const t of analyze(intent)) {
    if (units.has(t.term)) continue;
    const expansions = new Map<string, number>([[t.term, t.compound ? COMPOUND_WEIGHT : 1]]);
    const synWeight = t.compound ? COMPOUND_WEIGHT * SYNONYM_WEIGHT : SYNONYM_WEIGHT;
    for (const s of synonymsOf(t.term)) if (!expansions.has(s)) expansions.set(s, synWeight);
    units.set(t.term, { term: t.term, word: t.word, compound: t.compound, action: !t.compound && isAction(t.term), expansions });
  }
  return [...units.values()];
}

function idf(index: ToolIndex, term: string): number {
  const n = index.docs.length;
  const df = index.df.get(term) ?? 0;
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** BM25 weight of a term in one tool: the sum over fields of the field weight times BM25's term-frequency factor. */
function termWeight(index: ToolIndex, doc: Doc, term: string): number {
  let s = 0;
  for (const f of FIELDS) {
    const st = doc.fields[f];
    const tf = st.tf.get(term);
    if (!tf) continue;
    const norm = 1 - FIELD_B[f] + (FIELD_B[f] * st.len) / index.avgLen[f];
    s += (FIELD_WEIGHTS[f] * (tf * (K1 + 1))) / (tf + K1 * norm);
  }
  return s;
}

function compareRanked(a: Ranked, b: Ranked): number {
  if (b.score !== a.score) return b.score - a.score;
  const an = a.tool.name ?? '';
  const bn = b.tool.name ?? '';
  if (an !== bn) return an < bn ? -1 : 1;
  if (a.tool.file.path !== b.tool.file.path) return a.tool.file.path < b.tool.file.path ? -1 : 1;
  return a.tool.index - b.tool.index;
}

/**
 * Tools ranked for an intent, best first; ties by name (then file and position), so the order
 * is deterministic. A tool is returned when it matches a word of the intent that names a thing
 * (not only a verb of action such as `create`: matching `create` alone does not serve "create an
 * invoice"), or any word when the intent has only verbs. No tool returned is a *zero result*.
 */
export function rankTools(source: Catalog | readonly Tool[] | ToolIndex, intent: string, opts: RankOptions = {}): Ranked[] {
  const index = 'postings' in source ? source : buildIndex(source);
  const units = queryUnits(intent);
  const hasContent = units.some((u) => !u.action);
  const scores = new Map<number, { score: number; matched: string[]; content: boolean }>();
  for (const u of units) {
    // Per tool, a word counts once: through itself or its best synonym, not through each.
    const best = new Map<number, number>();
    for (const [term, w] of u.expansions) {
      const posting = index.postings.get(term);
      if (!posting) continue;
      const termIdf = idf(index, term);
      for (const at of posting) {
        const s = w * termIdf * termWeight(index, index.docs[at], term);
        if (s > (best.get(at) ?? 0)) best.set(at, s);
      }
    }
    for (const [at, s] of best) {
      let e = scores.get(at);
      if (!e) scores.set(at, (e = { score: 0, matched: [], content: false }));
      e.score += s;
      e.matched.push(u.term);
      if (!u.action) e.content = true;
    }
  }
  const out: Ranked[] = [];
  const returned = new Set<number>();
  for (const [at, e] of scores) {
    if (e.score <= 0 || (hasContent && !e.content)) continue;
    out.push({ tool: index.docs[at].tool, score: e.score, matched: e.matched });
    returned.add(at);
  }
  out.sort(compareRanked);
  if (opts.all) {
    const rest: Ranked[] = [];
    index.docs.forEach((d, at) => {
      if (!returned.has(at)) rest.push({ tool: d.tool, score: 0, matched: [] });
    });
    rest.sort(compareRanked);
    out.push(...rest);
  }
  return opts.limit !== undefined && opts.limit >= 0 ? out.slice(0, opts.limit) : out;
}

/** Words of the intent that the ranker uses (stems, without stop words and joined pairs). */
export function intentTerms(intent: string): string[] {
  return queryUnits(intent)
    .filter((u) => !u.compound)
    .map((u) => u.term);
}
