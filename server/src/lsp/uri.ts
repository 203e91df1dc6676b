import { fileURLToPath } from 'node:url';

/** File path of a `file:` URI, or null for other schemes (untitled buffers, virtual documents). */
export function URI_TO_PATH(uri: string): string | null {
  if (!uri.startsWith('file:')) return null;
  try {
    return fileURLToPath(uri);
  } catch {
    return null;
  }
}
