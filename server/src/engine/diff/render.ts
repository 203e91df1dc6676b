/** The three forms of a diff report: stylish (terminal), json (machines) and markdown (a pull-request comment). */
import type { Change, ChangeClass, DiffResult } from './compare';

const CLASSES: ChangeClass[] = ['breaking', 'risky', 'compatible'];

export function summaryLine(r: DiffResult): string {
  const s = r.summary;
  return `${s.breaking} breaking, ${s.risky} risky, ${s.compatible} compatible change${s.compatible === 1 ? '' : 's'} (${s.toolsBefore} → ${s.toolsAfter} tools)`;
}

function allChanges(r: DiffResult): Change[] {
  return [...r.breaking, ...r.risky, ...r.compatible];
}

/** Changes grouped by tool, tools in the order of their first change (breaking ones first). */
function byTool(r: DiffResult): Map<string, Change[]> {
  const m = new Map<string, Change[]>();
  for (const c of allChanges(r)) {
    const list = m.get(c.tool);
    if (list) list.push(c);
    else m.set(c.tool, [c]);
  }
  return m;
}

export function renderDiffJson(r: DiffResult): string {
  const strip = (c: Change) => ({ tool: c.tool, parameter: c.parameter, kind: c.kind, message: c.message, before: c.before ?? null, after: c.after ?? null, ...(c.diff !== undefined ? { diff: c.diff } : {}) });
  return JSON.stringify({ version: 1, breaking: r.breaking.map(strip), risky: r.risky.map(strip), compatible: r.compatible.map(strip), summary: r.summary }, null, 2);
}

const COLOR: Record<ChangeClass | 'dim' | 'bold' | 'add' | 'del', [string, string]> = {
  breaking: ['\x1b[31m', '\x1b[39m'],
  risky: ['\x1b[33m', '\x1b[39m'],
  compatible: ['\x1b[32m', '\x1b[39m'],
  add: ['\x1b[32m', '\x1b[39m'],
  del: ['\x1b[31m', '\x1b[39m'],
  dim: ['\x1b[2m', '\x1b[22m'],
  bold: ['\x1b[1m', '\x1b[22m'],
};

export function renderDiffStylish(r: DiffResult, opts: { color?: boolean } = {}): string {
  const paint = (k: keyof typeof COLOR, s: string) => (opts.color ? COLOR[k][0] + s + COLOR[k][1] : s);
  const out: string[] = [];
  for (const [tool, changes] of byTool(r)) {
    out.push(paint('bold', tool));
    for (const c of changes) {
      out.push(`  ${paint(c.class, c.class.padEnd(10))}  ${c.message}  ${paint('dim', c.kind)}`);
      if (c.diff) {
        for (const line of c.diff.split('\n')) out.push('      ' + (line.startsWith('+') ? paint('add', line) : line.startsWith('-') ? paint('del', line) : paint('dim', line)));
      }
    }
    out.push('');
  }
  const s = r.summary;
  const total = s.breaking + s.risky + s.compatible;
  out.push(total === 0 ? `No changes (${s.toolsBefore} → ${s.toolsAfter} tools)` : (s.breaking ? paint('breaking', '✖ ') : '') + summaryLine(r));
  return out.join('\n');
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

const HEADINGS: Record<ChangeClass, string> = { breaking: 'Breaking', risky: 'Risky: prompt text or annotations changed', compatible: 'Compatible' };

/** A pull-request comment: a summary line, a table per class, then each text change as a ```diff block. */
export function renderDiffMarkdown(r: DiffResult, opts: { title?: string; maxChars?: number } = {}): string {
  const out: string[] = [`### ${opts.title ?? 'MCP tool changes'}`, '', `**${summaryLine(r)}**`];
  if (r.summary.breaking) out.push('', '> [!CAUTION]', '> This change breaks clients written against the old tool definitions.');
  for (const k of CLASSES) {
    const list = r[k];
    if (list.length === 0) continue;
    const table = ['| Tool | Parameter | Change |', '| --- | --- | --- |', ...list.map((c) => `| \`${cell(c.tool)}\` | ${c.parameter ? `\`${cell(c.parameter)}\`` : ''} | ${cell(c.message)} |`)];
    out.push('', `#### ${HEADINGS[k]} (${list.length})`, '');
    // A long compatible list (mostly added tools) folds away so the breaking and risky parts stay in view.
    if (k === 'compatible' && list.length > 10) out.push('<details><summary>Show compatible changes</summary>', '', ...table, '', '</details>');
    else out.push(...table);
    const diffs = list.filter((c) => c.diff);
    for (const c of diffs) {
      out.push('', `\`${c.tool}\`${c.parameter ? ` · \`${c.parameter}\`` : ''}: ${c.message}`, '', '```diff', c.diff!.replace(/```/g, '`\u200b``'), '```');
    }
  }
  let text = out.join('\n') + '\n';
  // GitHub refuses comments over 65,536 characters; cut at a line and say so rather than fail to post.
  const max = opts.maxChars ?? 60_000;
  if (text.length > max) {
    const cut = text.lastIndexOf('\n', max);
    const fence = (text.slice(0, cut).match(/^```/gm) ?? []).length % 2 === 1 ? '\n```' : '';
    text = text.slice(0, cut) + fence + '\n\n_…cut to fit a comment; run `mcp-tool-lint diff --format json` for every change._\n';
  }
  return text;
}
