/**
 * Which server a tool belongs to, for rules that count or budget per server: the entry of a
 * multi-server dump, otherwise the file's folder (one-tool-per-file catalogues share a folder).
 */
import type { Catalog, Tool } from './model';

/** Tools by server, in catalogue order: a multi-server dump's entry, otherwise the file's folder. */
export function servers(catalog: Catalog, scope: 'server' | 'catalog'): Map<string, Tool[]> {
  const out = new Map<string, Tool[]>();
  for (const t of catalog.tools) {
    const key = scope === 'catalog' ? '' : serverKey(t);
    const list = out.get(key);
    if (list) list.push(t);
    else out.set(key, [t]);
  }
  return out;
}

export function serverKey(tool: Tool): string {
  return serverGroup(tool) !== null ? `${tool.file.path.replace(/\\/g, '/')}\0${tool.group}` : folderOf(tool.file.path);
}

/**
 * The server a multi-server dump files the tool under. A group taken from a CLI-style `command`
 * (`storage account list`) is a namespace within one server, not a server.
 */
export function serverGroup(tool: Tool): string | null {
  if (tool.group === null) return null;
  const cmd = tool.raw.command;
  return typeof cmd === 'string' && cmd.trim().startsWith(tool.group + ' ') ? null : tool.group;
}

export function serverLabel(tool: Tool): string {
  const p = tool.file.path.replace(/\\/g, '/');
  if (serverGroup(tool) !== null) return `server \`${tool.group}\` of \`${p.slice(p.lastIndexOf('/') + 1)}\``;
  const dir = folderOf(p);
  return dir === '.' ? 'this folder' : `\`${dir}\``;
}

/** The folder of a file path, with `/` separators (`.` for a bare name). */
export function folderOf(path: string): string {
  const p = path.replace(/\\/g, '/');
  return p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '.';
}

/**
 * Tools shipped together, for rules that resolve names between tools (references, producers,
 * shadowing): a server entry of a multi-server dump (any group), else the files of one folder.
 * Unlike `serverKey`, any group counts, and the key starts with the folder.
 */
export function neighbourhood(tool: Tool): string {
  const dir = folderOf(tool.file.path);
  return tool.group !== null ? `${dir}\0${tool.file.path.replace(/\\/g, '/')}\0${tool.group}` : dir;
}
