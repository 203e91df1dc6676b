// PLACEHOLDER (Part 3): replaced by the definition/references feature.
import type { Location } from 'vscode-languageserver';
import type { Workspace } from './workspace';
export function getDefinition(ws: Workspace, uri: string, offset: number): Location[] | null {
  void ws; void uri; void offset;
  return null;
}
export function getReferences(ws: Workspace, uri: string, offset: number, includeDeclaration: boolean): Location[] {
  void ws; void uri; void offset; void includeDeclaration;
  return [];
}
