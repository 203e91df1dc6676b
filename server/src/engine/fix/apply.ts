/**
 * The loop behind `--fix` (and fix-all): lint, apply every fix that does not collide with an
 * earlier one, lint again, until nothing is left to fix. Each pass is checked to parse no worse
 * than before and to the data the fixes describe; a fix that fails is dropped rather than written.
 */
import type { SourceFile } from '../model';
import type { EditOp } from '../rules/api';
import type { TextEdit } from '../types';
import { applyEdits, planEdits, verifyPlans, type EditPlan } from './edits';

export { applyEdits };

/** A fix as the runner reports it: ops on one document of the file. */
export interface FixCandidate {
  doc: number;
  ops: EditOp[];
}

export interface RelintResult {
  /** The file loaded from the text given to the callback (its `text` is that text without a BOM). */
  file: SourceFile;
  /** Fixes in the order they should be tried (the runner's order: by position, then rule). */
  fixes: FixCandidate[];
}

export interface ApplyFixesResult {
  /** The fixed text, with the original's BOM. */
  text: string;
  /** Fixes applied over all passes. */
  applied: number;
  /** Passes that changed the text. */
  passes: number;
}

export const MAX_FIX_PASSES = 10;

/**
 * Fixes `original` (the file's text as read, possibly with a BOM) to convergence, for at most
 * `maxPasses` passes. `relint` is called with the current text (BOM included, as the file would
 * be on disk) and `path`, and returns the loaded file and its fixes.
 *
 * Each pass takes the fixes in order, skips those that cannot be resolved or whose edits collide
 * with a fix already taken, and checks the result once (`verifyPlans`: no new parse error, and
 * the data the ops describe). When that check fails, the fixes are re-checked one by one and the
 * offending ones dropped. The loop stops when a pass changes nothing.
 *
 * New text keeps the original's line breaks: edits are written in the file's style, and in a CRLF
 * file any bare `\n` in an edit (a rule's raw text edit) becomes `\r\n`.
 */
export function applyFixesToText(
  path: string,
  original: string,
  relint: (text: string, path: string) => RelintResult,
  maxPasses = MAX_FIX_PASSES,
): ApplyFixesResult {
  const bom = original.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  let body = bom ? original.slice(1) : original;
  const crlf = /\r\n/.test(body) && !/(?:^|[^\r])\n/.test(body);
  const seen = new Set<string>([body]);
  let applied = 0;
  let passes = 0;
  for (let pass = 0; pass < maxPasses; pass++) {
    const { file, fixes } = relint(bom + body, path);
    // Edits are offsets into `file.text`; a callback that loaded some other text cannot be trusted.
    if (file.text !== body) break;
    const chosen = chooseFixes(file, fixes, crlf);
    if (chosen.length === 0) break;
    let accepted = chosen;
    if (!verifyPlans(file, chosen)) {
      // Some fix is wrong alone or with another: keep those that check out, one by one.
      accepted = [];
      for (const plan of chosen) if (verifyPlans(file, [...accepted, plan])) accepted.push(plan);
      if (accepted.length === 0) break;
    }
    const next = applyEdits(body, accepted.flatMap((p) => p.edits));
    // A fix that restores an earlier text would make the loop oscillate.
    if (seen.has(next)) break;
    seen.add(next);
    body = next;
    applied += accepted.length;
    passes++;
  }
  return { text: bom + body, applied, passes };
}

/** The fixes of one pass, in order, skipping any whose edits collide with one already taken. */
function chooseFixes(file: SourceFile, fixes: readonly FixCandidate[], crlf: boolean): EditPlan[] {
  const chosen: EditPlan[] = [];
  const taken = new Taken();
  for (const fix of fixes) {
    const plan = planEdits(file, fix.doc, fix.ops);
    if (!plan || plan.edits.length === 0) continue;
    const edits = crlf ? plan.edits.map((e) => ({ ...e, text: e.text.replace(/\r?\n/g, '\r\n') })) : plan.edits;
    if (edits.some((e) => taken.collides(e))) continue;
    chosen.push({ ...plan, edits });
    for (const e of edits) taken.add(e);
  }
  return chosen;
}

/**
 * Edits already taken in a pass, sorted by start. They never collide with each other, so an edit
 * can only collide with the one before its start or the first at or after it: a pass over
 * thousands of fixes stays near-linear.
 */
class Taken {
  private readonly list: TextEdit[] = [];

  collides(e: TextEdit): boolean {
    const i = this.firstAtOrAfter(e.start);
    return (i > 0 && collide(e, this.list[i - 1])) || (i < this.list.length && collide(e, this.list[i]));
  }

  add(e: TextEdit): void {
    this.list.splice(this.firstAtOrAfter(e.start), 0, e);
  }

  private firstAtOrAfter(offset: number): number {
    let lo = 0;
    let hi = this.list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.list[mid].start < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * Edits of two different fixes collide when they overlap, or when an insertion touches the other
 * edit: the order of the two at that offset is not defined, so the later fix waits a pass.
 */
function collide(a: TextEdit, b: TextEdit): boolean {
  if (a.start === a.end || b.start === b.end) return a.start <= b.end && b.start <= a.end;
  return a.start < b.end && b.start < a.end;
}
