import { fileURLToPath, pathToFileURL } from 'node:url';

/** File path of a `file:` URI, or null for other schemes (untitled buffers, virtual documents). */
export function uriToPath(uri: string): string | null {
  if (!uri.startsWith('file:')) return null;
  try {
    return fileURLToPath(uri);
  } catch {
    return null;
  }
}

export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}
