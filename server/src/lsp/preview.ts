// PLACEHOLDER (Part 3): replaced by the preview feature.
import type { Workspace } from './workspace';
export type PreviewLayout = 'markdown' | 'json';
export function previewDocument(ws: Workspace, uri: string | null, layout: PreviewLayout): string {
  void ws; void uri; void layout;
  return '';
}
