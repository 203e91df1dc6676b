import type { Position } from '../types';

/**
 * Maps offsets to 1-based line/column and back. Line breaks are `\n`, `\r\n` and a lone `\r`,
 * the three the LSP recognises, so our lines match what an editor shows.
 */
export class LineIndex {
  private readonly starts: number[];

  constructor(
    readonly text: string,
    starts?: number[],
  ) {
    if (starts) {
      this.starts = starts;
      return;
    }
    this.starts = [0];
    scanStarts(text, 0, text.length, this.starts);
  }

  /**
   * The index of `text`, which is `old.text` with `[start, oldEnd)` replaced so that the new part
   * is `[start, newEnd)`: lines before the edit are kept, lines after it are shifted, and only the
   * edited lines (plus one line either side, for a `\r\n` split by the edit) are scanned again.
   */
  static edited(old: LineIndex, text: string, start: number, oldEnd: number, newEnd: number): LineIndex {
    const delta = newEnd - oldEnd;
    const s = old.starts;
    const line = old.lineOf(Math.max(0, start - 1));
    const k = Math.max(0, line - 1);
    const from = s[k];
    const starts = s.slice(0, k + 1);
    // Scan to the first line start that lies in the unchanged tail past the edit, then reuse the rest.
    let i = from;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let next = -1;
      if (c === 10) next = i + 1;
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        next = i + 1;
      }
      if (next < 0) continue;
      starts.push(next);
      if (next > newEnd + 1) {
        const at = lowerBound(s, next - delta);
        if (at < s.length && s[at] === next - delta) {
          for (let k = at + 1; k < s.length; k++) starts.push(s[k] + delta);
          return new LineIndex(text, starts);
        }
      }
    }
    return new LineIndex(text, starts);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** 0-based line containing `offset`. */
  lineOf(offset: number): number {
    const s = this.starts;
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineOf(o);
    return { line: line + 1, column: o - this.starts[line] + 1 };
  }

  /** Offset of a 1-based position (clamped to the line). */
  offset(pos: Position): number {
    const line = Math.max(0, Math.min(pos.line - 1, this.starts.length - 1));
    const start = this.starts[line];
    return Math.min(start + Math.max(0, pos.column - 1), this.lineEnd(line));
  }

  /** Offset where a 0-based line starts. */
  lineStart(line: number): number {
    return this.starts[Math.max(0, Math.min(line, this.starts.length - 1))];
  }

  /** Offset of the end of a 0-based line's content (before its line break). */
  lineEnd(line: number): number {
    const next = line + 1 < this.starts.length ? this.starts[line + 1] : this.text.length;
    let end = next;
    if (end > this.starts[line] && this.text.charCodeAt(end - 1) === 10) end--;
    if (end > this.starts[line] && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  /** Offset just past a 0-based line's break (the next line's start, or the text's end). */
  lineNext(line: number): number {
    return line + 1 < this.starts.length ? this.starts[line + 1] : this.text.length;
  }
}

function scanStarts(text: string, from: number, to: number, starts: number[]): void {
  if (text.indexOf('\r', from) < 0) {
    // Only `\n` breaks (most files): find them with the native search.
    for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    return;
  }
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
}

/** First index whose value is `>= x` in a sorted array. */
function lowerBound(a: number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
