/**
 * Hover: what the model sees. On a tool's header, the tool rendered as an agent framework puts it
 * in the prompt, with its token count; on a parameter, its prompt line and what that line leaves
 * out; on a finding, the rule and why it matters. Findings come first when they overlap.
 */
import { MarkupKind, type Hover } from 'vscode-languageserver';
import type { Diagnostic } from '../engine/diagnostic';
import { ruleDocsUrl } from '../engine/docs-url';
import type { Schema, SourceFile, Tool } from '../engine/model';
import { approxTokens, renderParams, renderTool, type RenderedParam, type RenderOptions } from '../engine/render';
import { getRule } from '../engine/rules';
import { rootOrigin, walkSchema, type SchemaVisit } from '../engine/schema';
import type { JsonPath } from '../engine/types';
import { diagnosticsAt } from './diagnostics';
import { inToolHeader, nodeAt, toolAtPath } from './locate';
import { promptHide } from './preview';
import type { Workspace } from './workspace';

type Hide = NonNullable<RenderOptions['hide']>;

export function getHover(ws: Workspace, uri: string, offset: number): Hover | null {
  const file = ws.file(uri);
  if (!file) return null;
  const sections: string[] = [];
  // Offsets of the hovered thing, to keep the hover open while the mouse stays on it.
  let span: [number, number] | null = null;

  const findings = findingsAt(ws, uri, offset);
  for (const d of findings) {
    sections.push(findingSection(d));
    const own: [number, number] = [d.offset, d.offset + d.length];
    span = span ? intersect(span, own) ?? span : own;
  }

  const at = nodeAt(file, offset);
  const tool = at ? toolAtPath(file, at.doc, at.path) : null;
  if (at && tool) {
    const hide = promptHide(ws);
    let section: string | null = null;
    if (inHeader(tool, at.path)) section = toolSection(tool, hide);
    else {
      const v = paramAt(tool, at.path);
      if (v) section = paramSection(tool, v, hide);
    }
    if (section) {
      sections.push(section);
      const n = at.node;
      // Containers span many lines; only a key or scalar makes a useful hover range.
      const nodeSpan: [number, number] | null = n.type === 'object' || n.type === 'array' ? null : [n.offset, n.offset + n.length];
      span = !span ? nodeSpan : nodeSpan ? intersect(span, nodeSpan) : null;
    }
  }

  if (sections.length === 0) return null;
  const hover: Hover = { contents: { kind: MarkupKind.Markdown, value: sections.join('\n\n---\n\n') } };
  if (span) hover.range = lspRange(file, span);
  return hover;
}

/** Findings whose range holds the position (a zero-length finding counts at its offset). */
function findingsAt(ws: Workspace, uri: string, offset: number): Diagnostic[] {
  return diagnosticsAt(ws, uri, offset, offset).filter((d) => offset >= d.offset && offset < d.offset + Math.max(1, d.length));
}

function findingSection(d: Diagnostic): string {
  const why = getRule(d.rule)?.meta.docs.why;
  let text = `**${d.severity}** ${code(d.rule)} ([docs](${ruleDocsUrl(d.rule)})): ${d.message}`;
  if (why) text += `\n\n**Why it matters:** ${why}`;
  return text;
}

/**
 * The tool's header: its name, description and the rest of the object outside its input schema.
 * Besides `inToolHeader`, the name and description paths themselves count, so wrapped tools
 * (`{type: function, function: {name, …}}`) are covered too.
 */
function inHeader(tool: Tool, path: JsonPath): boolean {
  const schemaAt = rootOrigin(tool)?.path;
  if (schemaAt && startsWith(path, schemaAt)) return false;
  if (startsWith(path, tool.namePath)) return true;
  if (tool.descriptionPath && startsWith(path, tool.descriptionPath)) return true;
  return inToolHeader(tool, path);
}

function toolSection(tool: Tool, hide: Hide): string {
  const rendered = renderTool(tool, { hide });
  let text = `**Prompt preview** of ${code(tool.name ?? '(unnamed)')}, as an agent framework shows it to the model:\n\n${fence(rendered)}\n\n≈ ${approxTokens(rendered)} tokens`;
  const left = topLevel(tool).filter((v) => hide(tool, v)).map((v) => code(v.name ?? ''));
  if (left.length) text += ` · left out as server-managed: ${left.join(', ')}`;
  return text;
}

function topLevel(tool: Tool): SchemaVisit[] {
  const out: SchemaVisit[] = [];
  walkSchema(tool, (v) => {
    if (v.via === 'root') return;
    if (v.via === 'properties' && v.depth === 1) out.push(v);
    return false;
  });
  return out;
}

/** The deepest property whose source entry holds the path (a schema, or an argument-list entry). */
function paramAt(tool: Tool, path: JsonPath): SchemaVisit | null {
  let best: SchemaVisit | null = null;
  walkSchema(tool, (v) => {
    if (v.via !== 'properties' || !startsWith(path, v.origin.path)) return;
    if (!best || v.origin.path.length > best.origin.path.length) best = v;
  });
  return best;
}

function paramSection(tool: Tool, v: SchemaVisit, hide: Hide): string {
  const top = topAncestor(v);
  const managed = chain(v).filter((p) => p.via === 'properties' && hide(tool, p));
  const own = ownLine(tool, v);
  const label = `**Parameter** ${code(v.param ?? v.name ?? '')}`;
  const lines: string[] = [];
  const notShown: string[] = [];
  if (top === v) {
    if (managed.length) lines.push(`${label} is **server-managed**: left out of the prompt, since the server assigns it. Shown, its line would read:`, '', fence(own?.line ?? ''));
    else lines.push(`${label}, as the model sees it:`, '', fence(own?.line ?? ''));
  } else {
    if (top && managed.includes(top)) lines.push(`${label}, nested in ${code(top.name ?? '')}: left out of the prompt with it, since ${code(top.name ?? '')} is server-managed.`);
    else if (top) lines.push(`${label}, nested in ${code(top.name ?? '')}: the prompt shows only the top-level line`, '', fence(renderParams(tool).find((p) => p.name === top.name)?.line ?? ''));
    // Under a combinator of the root schema: the layout has no line for it at all.
    else lines.push(`${label}: not rendered in the prompt (not a top-level property)`);
    if (own) notShown.push(`its own line: ${code(own.line)}`);
  }
  for (const h of own?.hidden ?? []) notShown.push(code(h));
  if (notShown.length) lines.push('', '**Not shown to the model:**', '', ...notShown.map((s) => `- ${s}`));
  if (top !== v && managed.length && !(top && managed.includes(top))) lines.push('', '**Server-managed:** the server assigns this value; the model should never send it.');
  return lines.join('\n');
}

function chain(v: SchemaVisit): SchemaVisit[] {
  const out: SchemaVisit[] = [];
  for (let p: SchemaVisit | null = v; p; p = p.parent) out.push(p);
  return out;
}

/** The top-level property (the one the prompt has a line for) that holds this one. */
function topAncestor(v: SchemaVisit): SchemaVisit | null {
  return chain(v).find((p) => p.via === 'properties' && p.depth === 1) ?? null;
}

/** The property's line as the renderer would write it at top level, and what that line hides. */
function ownLine(tool: Tool, v: SchemaVisit): RenderedParam | undefined {
  if (v.via === 'properties' && v.depth === 1) return renderParams(tool).find((p) => p.name === v.name);
  const name = v.name ?? '';
  const wrapper: Schema = { type: 'object', properties: { [name]: v.schema }, required: v.required ? [name] : [] };
  const origin = rootOrigin(tool) ?? v.origin;
  return renderParams({ ...tool, inputSchema: wrapper, origins: new Map([[wrapper, origin]]) })[0];
}

function startsWith(path: JsonPath, prefix: JsonPath): boolean {
  if (prefix.length > path.length) return false;
  for (let i = 0; i < prefix.length; i++) if (String(path[i]) !== String(prefix[i])) return false;
  return true;
}

function intersect(a: [number, number], b: [number, number]): [number, number] | null {
  const s = Math.max(a[0], b[0]);
  const e = Math.min(a[1], b[1]);
  return e >= s ? [s, e] : null;
}

function lspRange(file: SourceFile, [s, e]: [number, number]) {
  const a = file.lines.position(s);
  const b = file.lines.position(e);
  return { start: { line: a.line - 1, character: a.column - 1 }, end: { line: b.line - 1, character: b.column - 1 } };
}

/** Inline code that survives backticks in the text. */
function code(s: string): string {
  const ticks = '`'.repeat(longestRun(s) + 1);
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${s}${pad}${ticks}`;
}

/** A fenced block longer than any backtick run in the text, so descriptions cannot close it. */
function fence(text: string): string {
  const ticks = '`'.repeat(Math.max(3, longestRun(text) + 1));
  return `${ticks}markdown\n${text}\n${ticks}`;
}

function longestRun(s: string): number {
  let best = 0;
  for (const m of s.matchAll(/`+/g)) best = Math.max(best, m[0].length);
  return best;
}
