/**
 * A code lens over each tool, at its name: what the tool costs in the prompt (the same rendering
 * and count as the hover), opening the prompt preview of the document.
 */
import type { CodeLens } from 'vscode-languageserver';
import { approxTokens, renderTool } from '../engine/render';
import { resolveLoc } from '../engine/resolve';
import { toLspRange } from './diagnostics';
import { promptHide } from './preview';
import { COMMANDS } from './commands';
import type { Workspace } from './workspace';

export function getCodeLenses(ws: Workspace, uri: string): CodeLens[] {
  const file = ws.file(uri);
  // Eval files hold no tools of their own; their lens would only repeat the catalogue's.
  if (!file || file.kind === 'eval' || file.tools.length === 0) return [];
  const hide = promptHide(ws);
  const lenses: CodeLens[] = [];
  for (const tool of file.tools) {
    const tokens = approxTokens(renderTool(tool, { hide }));
    const at = resolveLoc(file, tool.doc, tool.namePath, tool.nameTarget);
    lenses.push({
      range: toLspRange(at),
      command: { title: `≈ ${tokens} tokens · preview`, command: COMMANDS.preview, arguments: [uri] },
    });
  }
  return lenses;
}
