/**
 * The categorised tool map of seed 004 (category → tools with one-line summaries), for an agent
 * to orient itself before it searches, and the zero-result report of a list of intents. A tool's
 * category is the one its file gives it (`category`, else the server or command group it is filed
 * under); tools without one are listed apart, never given an invented category.
 */
import type { Catalog, Tool } from '../model';
import { rankTools, buildIndex, type ToolIndex } from './rank';
import { toolCategory, toolSummary } from './tool-info';

export { toolCategory, toolSummary, firstSentence, SUMMARY_MAX } from './tool-info';

export interface MapEntry {
  name: string;
  summary: string;
}

export interface ToolMap {
  categories: { name: string; tools: MapEntry[] }[];
  /** Tools whose file gives them no category. */
  uncategorized: MapEntry[];
}

function byName(a: MapEntry, b: MapEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : a.summary < b.summary ? -1 : a.summary > b.summary ? 1 : 0;
}

function dedupe(list: MapEntry[]): MapEntry[] {
  const seen = new Set<string>();
  return list.sort(byName).filter((e) => {
    const k = `${e.name}\u0000${e.summary}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Tools grouped by category. Categories that differ only in case or spacing are one (spelled as
 * first seen); categories and their tools are sorted by name; the same tool written twice (same
 * name and summary) is listed once.
 */
export function buildToolMap(tools: readonly Tool[]): ToolMap {
  const cats = new Map<string, { name: string; tools: MapEntry[] }>();
  const uncategorized: MapEntry[] = [];
  for (const t of tools) {
    if (t.name === null || t.name === '') continue;
    const entry = { name: t.name, summary: toolSummary(t) };
    const c = toolCategory(t);
    if (c === null) {
      uncategorized.push(entry);
      continue;
    }
    const key = c.toLowerCase();
    let cat = cats.get(key);
    if (!cat) cats.set(key, (cat = { name: c, tools: [] }));
    cat.tools.push(entry);
  }
  const categories = [...cats.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, c]) => ({ name: c.name, tools: dedupe(c.tools) }));
  return { categories, uncategorized: dedupe(uncategorized) };
}

function entryLine(e: MapEntry): string {
  return e.summary ? `- \`${e.name}\` — ${e.summary}` : `- \`${e.name}\``;
}

/** The map as Markdown: `## category`, then `- name — summary` per tool; tools without a category last. */
export function renderToolMapMarkdown(map: ToolMap): string {
  const count = map.categories.reduce((n, c) => n + c.tools.length, 0) + map.uncategorized.length;
  const out: string[] = [`# Tool map`, '', `${count} tool${count === 1 ? '' : 's'} in ${map.categories.length} categor${map.categories.length === 1 ? 'y' : 'ies'}${map.uncategorized.length ? `, ${map.uncategorized.length} without a category` : ''}.`];
  for (const c of map.categories) {
    out.push('', `## ${c.name}`, '');
    for (const e of c.tools) out.push(entryLine(e));
  }
  if (map.uncategorized.length > 0) {
    out.push('', '## Without a category', '');
    for (const e of map.uncategorized) out.push(entryLine(e));
  }
  return out.join('\n') + '\n';
}

/**
 * Intents from a text: one per line; blank lines and `#` comments are skipped. A TSV whose first
 * line is a header starting with `intent` is accepted too: each line's first column is the intent.
 */
export function parseIntents(text: string): string[] {
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  const out: string[] = [];
  let first = true;
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const col = line.includes('\t') ? line.split('\t')[0].trim() : trimmed;
    if (first) {
      first = false;
      if (line.includes('\t') && col.toLowerCase() === 'intent') continue;
    }
    if (col !== '') out.push(col);
  }
  return out;
}

export interface IntentResult {
  intent: string;
  /** The best tools (names), at most three. */
  top: string[];
  zeroResults: boolean;
}

export interface IntentReport {
  total: number;
  zeroResults: number;
  /** `zeroResults / total`, 0 when there are no intents. */
  zeroResultRate: number;
  /** The intents no tool matched, in input order. */
  misses: string[];
  results: IntentResult[];
}

/** Runs every intent through the ranker: the zero-result rate and each miss (seed 004's one honest signal). */
export function intentReport(source: Catalog | readonly Tool[] | ToolIndex, intents: readonly string[]): IntentReport {
  const index = 'postings' in source ? source : buildIndex(source);
  const results: IntentResult[] = intents.map((intent) => {
    const ranked = rankTools(index, intent);
    const top: string[] = [];
    for (const r of ranked) {
      if (top.length === 3) break;
      if (!top.includes(r.tool.name!)) top.push(r.tool.name!);
    }
    return { intent, top, zeroResults: ranked.length === 0 };
  });
  const misses = results.filter((r) => r.zeroResults).map((r) => r.intent);
  return { total: intents.length, zeroResults: misses.length, zeroResultRate: intents.length ? misses.length / intents.length : 0, misses, results };
}

function percent(rate: number): string {
  return `${(rate * 100).toFixed(1).replace(/\.0$/, '')}%`;
}

/** The intents report as Markdown. */
export function renderIntentReportMarkdown(r: IntentReport): string {
  const out = ['## Intents', '', `Zero-result rate: ${r.zeroResults} of ${r.total} intent${r.total === 1 ? '' : 's'} (${percent(r.zeroResultRate)}).`];
  if (r.misses.length > 0) {
    out.push('', 'Misses (no tool matches; each is a gap in the catalogue or in its descriptions):', '');
    for (const m of r.misses) out.push(`- ${m}`);
  }
  return out.join('\n') + '\n';
}
