/**
 * YAML suppression comments:
 *   # mcp-tool-lint-disable-next-line RULE[, RULE] -- reason
 *   # mcp-tool-lint-disable RULE[, RULE] -- reason      (to the end of the file, or an enable)
 *   # mcp-tool-lint-enable [RULE, …]
 * With no rule ids a directive applies to every rule.
 */
import type { SourceFile } from './model';
import type { SNode } from './parse/tree';

export interface Directive {
  kind: 'disable-next-line' | 'disable' | 'enable';
  rules: string[] | null;
  /** 1-based line of the comment. */
  line: number;
  column: number;
  length: number;
  used: boolean;
  reason: string | null;
}

const RE = /(^|[\s])#\s*mcp-tool-lint-(disable-next-line|disable|enable)\b([^\n\r]*)/;

export function parseDirectives(file: SourceFile): Directive[] {
  if (file.lang !== 'yaml' || !file.text.includes('mcp-tool-lint-')) return [];
  // Comments are told from text by walking the tree: every node in place first (see `SNode.lag`).
  file.settle();
  const out: Directive[] = [];
  const lines = file.lines;
  for (let l = 0; l < lines.lineCount; l++) {
    const start = lines.lineStart(l);
    const text = file.text.slice(start, lines.lineEnd(l));
    const m = RE.exec(text);
    if (!m) continue;
    const hashAt = m.index + m[1].length;
    // A `#` inside a quoted string or a block scalar is text, not a comment.
    if (insideScalar(file, start + hashAt)) continue;
    let rest = m[3];
    let reason: string | null = null;
    const dd = rest.indexOf('--');
    if (dd >= 0) {
      reason = rest.slice(dd + 2).trim() || null;
      rest = rest.slice(0, dd);
    }
    const ids = rest
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    out.push({ kind: m[2] as Directive['kind'], rules: ids.length ? ids : null, line: l + 1, column: hashAt + 1, length: text.length - hashAt, used: false, reason });
  }
  return out;
}

function insideScalar(file: SourceFile, offset: number): boolean {
  for (let d = 0; d < file.parsed.docs.length; d++) {
    let node: SNode | undefined = file.root(d);
    while (node) {
      if (offset < node.offset || offset >= node.offset + node.length) break;
      if (!node.children) return node.type === 'string';
      node = node.children.find((c) => offset >= c.offset && offset < c.offset + c.length);
    }
  }
  return false;
}

/** Whether a finding of `rule` on `line` is suppressed; marks the directive used. */
export function isSuppressed(directives: Directive[], rule: string, line: number): boolean {
  let suppressedBy: Directive | null = null;
  for (const d of directives) {
    if (d.kind === 'disable-next-line') {
      if (d.line + 1 === line && (!d.rules || d.rules.includes(rule))) {
        d.used = true;
        return true;
      }
    } else if (d.line < line) {
      const applies = !d.rules || d.rules.includes(rule);
      if (!applies) continue;
      suppressedBy = d.kind === 'disable' ? d : null;
    }
  }
  if (suppressedBy) {
    suppressedBy.used = true;
    return true;
  }
  return false;
}
