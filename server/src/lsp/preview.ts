/**
 * "Preview agent prompt": the text an agent framework puts in front of the model for the tools of
 * one document or of the whole workspace, in either layout of the engine renderer (the same one as
 * the CLI's `preview`). Hover and code lenses share `promptHide` so all three show the same prompt.
 */
import type { SourceFile, Tool } from '../engine/model';
import { approxTokens, renderCatalog, toolsListJson, type RenderOptions } from '../engine/render';
import { serverManagedPredicate, type ServerManagedOptions } from '../engine/server-managed';
import type { Workspace } from './workspace';

export type PreviewLayout = 'markdown' | 'json';

type Hide = NonNullable<RenderOptions['hide']>;

/**
 * Which properties the prompt leaves out: the server-managed ones, classified against the whole
 * workspace catalogue with each file's `system-field-exposed` options (`fields`, `ignore`), so the
 * preview hides exactly what the linter calls server-managed in that file.
 */
export function promptHide(ws: Workspace): Hide {
  const catalog = ws.catalog();
  const byFile = new Map<SourceFile, Hide>();
  return (tool, v) => {
    let p = byFile.get(tool.file);
    if (!p) {
      p = serverManagedPredicate(catalog, serverManagedOptions(ws, tool.file));
      byFile.set(tool.file, p);
    }
    return p(tool, v);
  };
}

function serverManagedOptions(ws: Workspace, file: SourceFile): Partial<ServerManagedOptions> {
  let raw: Record<string, unknown> | undefined;
  try {
    raw = ws.ruleSettingsFor(file).get('system-field-exposed')?.options;
  } catch {
    // A broken config is reported by diagnostics; the preview falls back to the built-in lists.
    return {};
  }
  const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
  const out: Partial<ServerManagedOptions> = {};
  const fields = strings(raw?.fields);
  const ignore = strings(raw?.ignore);
  if (fields) out.fields = fields;
  if (ignore) out.ignore = ignore;
  return out;
}

/** The workspace's tools in a stable order (by file path, then as written), whatever the indexing order. */
function workspaceTools(ws: Workspace): Tool[] {
  const files = ws.catalog().files.filter((f) => f.tools.length > 0);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return files.flatMap((f) => f.tools);
}

/**
 * The preview text. `markdown`: the rendered catalogue after one HTML comment line with the tool
 * and token counts (a comment, so the rest reads exactly as the model gets it); `json`: the
 * `tools/list` result alone, so the document stays valid JSON.
 */
export function previewDocument(ws: Workspace, uri: string | null, layout: PreviewLayout): string {
  const tools = uri === null ? workspaceTools(ws) : (ws.file(uri)?.tools ?? []);
  if (layout === 'json') return toolsListJson(tools);
  const body = renderCatalog(tools, { hide: promptHide(ws) });
  const n = tools.length;
  const scope = uri === null ? 'workspace' : 'document';
  return `<!-- mcp-tool-lint prompt preview (${scope}): ${n} tool${n === 1 ? '' : 's'}, ≈ ${approxTokens(body)} tokens -->\n\n${body}\n`;
}
