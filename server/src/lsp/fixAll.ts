/**
 * Fix-all for one document (`source.fixAll.mcp-tool-lint`, so `editor.codeActionsOnSave` works):
 * the same fix loop as the CLI's `--fix`, re-linting each candidate text against the workspace
 * catalogue, so fixes converge and a pass that would break parsing is dropped.
 */
import { applyFixesToText, type RelintResult } from '../engine/fix/apply';
import type { RuleSetting } from '../engine/config';
import type { Diagnostic } from '../engine/diagnostic';
import { loadText } from '../engine/load';
import type { SourceFile } from '../engine/model';
import { lint } from '../engine/runner';
import type { TextEdit } from '../engine/types';
import type { Workspace } from './workspace';

/**
 * The document's text with every safe fix applied, or null when no fix applies. Offsets and text
 * are those of `ws.file(uri).text` (without a BOM), like every other range the server reports.
 */
export function fixAllText(ws: Workspace, uri: string): string | null {
  const file = ws.file(uri);
  const current = ws.lintResult(uri);
  if (!file || !current || !current.diagnostics.some((d) => d.fix)) return null;

  const others = ws.catalog().files.filter((f) => f !== file);
  const own = ws.ruleSettingsFor(file);
  const settings = new Map<SourceFile, Map<string, RuleSetting>>();
  // Candidate files are not workspace entries, so `ws.ruleSettingsFor` cannot find their URI.
  const candidates = new WeakSet<SourceFile>();
  const settingsFor = (f: SourceFile): Map<string, RuleSetting> => {
    if (candidates.has(f)) return own;
    let s = settings.get(f);
    if (!s) settings.set(f, (s = ws.ruleSettingsFor(f)));
    return s;
  };
  const fixesOf = (f: SourceFile, ds: readonly Diagnostic[]): RelintResult => ({
    file: f,
    fixes: ds.filter((d) => d.fix).map((d) => ({ doc: d.doc, ops: d.fix!.ops })),
  });

  const out = applyFixesToText(file.path, file.text, (text, path) => {
    // The first pass is the document as it stands: its results are already cached.
    if (text === file.text) return fixesOf(file, current.diagnostics);
    const next = loadText(path, text, { version: file.version, explicit: file.explicit });
    candidates.add(next);
    const res = lint([...others, next], { settingsFor, only: new Set([next]), cache: ws.cache });
    return fixesOf(next, res.results.find((r) => r.file === next)?.diagnostics ?? []);
  });
  if (out.applied === 0 || out.text === file.text) return null;
  return out.text;
}

/**
 * One edit turning `before` into `after`: the common prefix and suffix are kept, so the cursor,
 * folding and undo history outside the changed span survive. Never splits a CRLF pair or a
 * surrogate pair, which have no LSP position in between.
 */
export function minimalEdit(before: string, after: string): TextEdit {
  const max = Math.min(before.length, after.length);
  let p = 0;
  while (p < max && before.charCodeAt(p) === after.charCodeAt(p)) p++;
  while (p > 0 && splitsPair(before, p)) p--;
  let s = 0;
  while (s < max - p && before.charCodeAt(before.length - 1 - s) === after.charCodeAt(after.length - 1 - s)) s++;
  while (s > 0 && splitsPair(before, before.length - s)) s--;
  return wholeLines(before, { start: p, end: before.length - s, text: after.slice(p, after.length - s) });
}

/**
 * A pure insertion or deletion can often sit at several offsets (`a\n` inserted after `a\n` is
 * also `\na` after `a`); the trim above picks the rightmost, often mid-line. Slid back to a line
 * start, a removed or added member is whole lines, as a person would have edited it.
 */
function wholeLines(before: string, e: TextEdit): TextEdit {
  const insert = e.start === e.end;
  if (insert === (e.text === '')) return e;
  const body = insert ? e.text : before.slice(e.start, e.end);
  let k = 0;
  while (k < body.length && e.start - k > 0 && !atLineStart(before, e.start - k) && before[e.start - k - 1] === body[body.length - 1 - k]) k++;
  if (k === 0 || !atLineStart(before, e.start - k)) return e;
  if (insert) return { start: e.start - k, end: e.start - k, text: before.slice(e.start - k, e.start) + e.text.slice(0, e.text.length - k) };
  return { start: e.start - k, end: e.end - k, text: '' };
}

function atLineStart(text: string, at: number): boolean {
  if (at <= 0) return true;
  const c = text.charCodeAt(at - 1);
  return c === 10 || (c === 13 && text.charCodeAt(at) !== 10);
}

function splitsPair(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const a = text.charCodeAt(at - 1);
  const b = text.charCodeAt(at);
  return (a === 13 && b === 10) || (a >= 0xd800 && a <= 0xdbff && b >= 0xdc00 && b <= 0xdfff);
}
