// PLACEHOLDER (Part 3): replaced by the code-action feature.
import type { CodeAction, CodeActionParams } from 'vscode-languageserver';
import type { Workspace } from './workspace';
export const FIX_ALL_KIND = 'source.fixAll.mcp-tool-lint';
export function getCodeActions(ws: Workspace, params: CodeActionParams): CodeAction[] {
  void ws; void params;
  return [];
}
