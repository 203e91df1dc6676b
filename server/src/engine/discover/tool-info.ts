/**
 * What a tool is filed under and what it does in one line: its category as its file gives it,
 * and a one-line summary. Shared by the tool map and search results.
 */
import type { Tool } from '../model';

/** Longest one-line summary, in characters. */
export const SUMMARY_MAX = 100;

/** The tool's category as its file writes it: `category`, else its server or command group. */
export function toolCategory(tool: Tool): string | null {
  for (const c of [tool.category, tool.group]) if (typeof c === 'string' && c.trim() !== '') return c.trim().replace(/\s+/g, ' ');
  return null;
}

const ABBREVIATIONS = /(?:^|\s)(?:e\.g|i\.e|etc|vs|approx|incl|cf|no|fig|min|max|avg|est|dept|mr|mrs|dr|st)\.$/i;

/** The first sentence of a text (a sentence ends at `.`, `!` or `?` before white space, or at a blank line). */
export function firstSentence(text: string): string {
  const para = text.trim().split(/\n\s*\n/)[0] ?? '';
  const flat = para.replace(/\s+/g, ' ').trim();
  const re = /[.!?](?=\s|$)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(flat))) {
    const upTo = flat.slice(0, m.index + 1);
    if (ABBREVIATIONS.test(upTo)) continue;
    return upTo;
  }
  return flat;
}

/** A one-line summary: the tool's `summary` when its format has one, else its description's first sentence, trimmed to ~100 characters. */
export function toolSummary(tool: Tool, max = SUMMARY_MAX): string {
  const own = typeof tool.raw.summary === 'string' && tool.raw.summary.trim() ? tool.raw.summary : null;
  let s = firstSentence(own ?? tool.description ?? '')
    // Leading Markdown markers (`# `, `**`, `- `) are layout, not summary.
    .replace(/^(?:#+\s*|[-*]\s+|\*\*)+/, '')
    .replace(/\*\*/g, '');
  if (s.length > max) {
    const cut = s.slice(0, max - 1);
    const sp = cut.lastIndexOf(' ');
    s = (sp > max * 0.6 ? cut.slice(0, sp) : cut).replace(/[\s,;:.-]+$/, '') + '…';
  }
  return s;
}
