// PLACEHOLDER (Part 3): replaced by the completion feature.
import type { CompletionItem } from 'vscode-languageserver';
import type { Workspace } from './workspace';
export const COMPLETION_TRIGGERS = [' ', ':', '-', '"'];
export function getCompletions(ws: Workspace, uri: string, offset: number): CompletionItem[] {
  void ws; void uri; void offset;
  return [];
}
