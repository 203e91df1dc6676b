// PLACEHOLDER (Part 3): replaced by the hover feature.
import type { Hover } from 'vscode-languageserver';
import type { Workspace } from './workspace';
export function getHover(ws: Workspace, uri: string, offset: number): Hover | null {
  void ws; void uri; void offset;
  return null;
}
