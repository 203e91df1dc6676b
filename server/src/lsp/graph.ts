/**
 * The workflow graph for an editor: the engine's graph of the workspace catalogue (the same one
 * as the CLI's `graph --format json`), each node with the location of its tool's name so a client
 * can jump to it. For one document: its tools and their direct neighbours, with the edges that
 * touch its tools (an edge between two neighbours belongs to another document's view).
 */
import type { Location } from 'vscode-languageserver';
import { buildGraph, type GraphEdge, type GraphNode, type WorkflowGraph } from '../engine/graph';
import type { Tool } from '../engine/model';
import { lspRange, toolNameSpan, UriCache } from './navigation';
import type { Workspace } from './workspace';

export interface LocatedGraphNode extends GraphNode {
  /** Where the tool's name is written; null for a tool of a buffer with no address. */
  location: Location | null;
}

export interface EditorGraph {
  /** `document` when the request named a document (even one without tools). */
  scope: 'workspace' | 'document';
  uri: string | null;
  nodes: LocatedGraphNode[];
  edges: GraphEdge[];
}

export const EMPTY_GRAPH: EditorGraph = { scope: 'workspace', uri: null, nodes: [], edges: [] };

/** The graph of the last catalogue generation: a view refreshing, or asking for the workspace after a document, builds it once. */
const built = new WeakMap<Workspace, { gen: number; tools: Tool[]; graph: WorkflowGraph }>();

function workspaceGraph(ws: Workspace): { tools: Tool[]; graph: WorkflowGraph } {
  const hit = built.get(ws);
  if (hit?.gen === ws.gen) return hit;
  // Files in path order, as the preview lists them: the graph's order does not depend on which
  // files were opened first.
  const files = ws.catalog().files.filter((f) => f.tools.length > 0);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const tools = files.flatMap((f) => f.tools);
  const entry = { gen: ws.gen, tools, graph: buildGraph(tools) };
  built.set(ws, entry);
  return entry;
}

/** The graph of the workspace (`uri` null) or of one document's neighbourhood. */
export function documentGraph(ws: Workspace, uri: string | null): EditorGraph {
  const { tools, graph } = workspaceGraph(ws);

  // A node stands for the first tool of its name in its server (or folder); it records that
  // tool's file, so (file, name) finds it again.
  const toolOf = new Map<string, Tool>();
  for (const t of tools) if (t.name !== null && !toolOf.has(`${t.file.path}\0${t.name}`)) toolOf.set(`${t.file.path}\0${t.name}`, t);
  const uris = new UriCache(ws);
  const locate = (n: GraphNode): LocatedGraphNode => {
    const t = toolOf.get(`${n.file}\0${n.name}`);
    const u = t ? uris.of(t.file) : null;
    if (!t || !u) return { ...n, location: null };
    const s = toolNameSpan(t);
    return { ...n, location: { uri: u, range: lspRange(t.file, s.start, s.end) } };
  };

  if (uri === null) return { scope: 'workspace', uri: null, nodes: graph.nodes.map(locate), edges: graph.edges };

  const file = ws.file(uri);
  const own = new Set(file ? graph.nodes.filter((n) => n.file === file.path && file.tools.some((t) => t.name === n.name)).map((n) => n.id) : []);
  const edges = graph.edges.filter((e) => own.has(e.from) || own.has(e.to));
  const kept = new Set([...own, ...edges.flatMap((e) => [e.from, e.to])]);
  return { scope: 'document', uri, nodes: graph.nodes.filter((n) => kept.has(n.id)).map(locate), edges };
}
