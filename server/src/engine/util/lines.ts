import type { Position } from '../types';

/**
 * Maps offsets to 1-based line/column and back. Line breaks are `\n`, `\r\n` and a lone `\r`,
 * the three the LSP recognises, so our lines match what an editor shows.
 */
export class LineIndex {
  private readonly starts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    if (text.indexOf('\r') < 0) {
      // Only `\n` breaks (most files): find them with the native search.
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.starts = starts;
      return;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
    this.starts = starts;
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
