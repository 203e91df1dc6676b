/**
 * Text forms of the workflow graph: Mermaid (`flowchart LR`), Graphviz DOT and JSON.
 * The diagrams draw the tools that take part in an edge (a comment names the others); edges
 * between the same two tools are drawn once, labelled with every parameter; an edge whose
 * parameters are all optional is dashed. JSON lists every tool and every edge.
 */
import type { GraphEdge, GraphNode, WorkflowGraph } from './build';

export type GraphFormat = 'mermaid' | 'dot' | 'json';

interface Link {
  from: string;
  to: string;
  labels: string[];
  required: boolean;
}

/** Edges merged per producer–consumer pair, in the graph's order. */
function links(edges: GraphEdge[]): Link[] {
  const out = new Map<string, Link>();
  for (const e of edges) {
    const key = `${e.from}\0${e.to}`;
    const l = out.get(key);
    if (l) {
      if (!l.labels.includes(e.parameter)) l.labels.push(e.parameter);
      l.required ||= e.required;
    } else out.set(key, { from: e.from, to: e.to, labels: [e.parameter], required: e.required });
  }
  return [...out.values()];
}

function split(graph: WorkflowGraph): { drawn: GraphNode[]; alone: GraphNode[] } {
  const linked = new Set(graph.edges.flatMap((e) => [e.from, e.to]));
  return { drawn: graph.nodes.filter((n) => linked.has(n.id)), alone: graph.nodes.filter((n) => !linked.has(n.id)) };
}

type Shape = 'read' | 'create' | 'act';

function shapeOf(n: GraphNode): Shape {
  if (n.action === 'list' || n.action === 'read') return 'read';
  if (n.action === 'create' || n.action === 'upsert') return 'create';
  return 'act';
}

/** Words Mermaid reads as syntax when used as a node id. */
const MERMAID_RESERVED = new Set(['end', 'graph', 'flowchart', 'subgraph', 'direction', 'style', 'class', 'classdef', 'click', 'linkstyle', 'default', 'call', 'href']);

/** Mermaid node ids: letters, digits and `_`, starting with a letter, unique, never a keyword. */
function mermaidIds(nodes: GraphNode[]): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const n of nodes) {
    let id = n.id.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
    if (!/^[A-Za-z]/.test(id)) id = 't_' + id;
    if (MERMAID_RESERVED.has(id.toLowerCase())) id += '_';
    let unique = id;
    for (let i = 2; used.has(unique.toLowerCase()); i++) unique = `${id}_${i}`;
    used.add(unique.toLowerCase());
    out.set(n.id, unique);
  }
  return out;
}

/** Text inside a quoted Mermaid label. */
function mermaidText(s: string): string {
  return s.replace(/"/g, '#quot;');
}

export function renderMermaid(graph: WorkflowGraph): string {
  const { drawn, alone } = split(graph);
  const ids = mermaidIds(drawn);
  const lines = ['flowchart LR'];
  lines.push('  %% rounded: lists or reads; box: creates; hexagon: acts; dashed: optional parameter');
  for (const n of drawn) {
    const label = `"${mermaidText(n.id)}"`;
    const shape = shapeOf(n);
    lines.push(`  ${ids.get(n.id)}${shape === 'read' ? `([${label}])` : shape === 'create' ? `[${label}]` : `{{${label}}}`}`);
  }
  for (const l of links(graph.edges)) {
    const arrow = l.required ? '-->' : '-.->';
    lines.push(`  ${ids.get(l.from)} ${arrow}|"${mermaidText(l.labels.join(', '))}"| ${ids.get(l.to)}`);
  }
  if (alone.length > 0) lines.push(`  %% ${alone.length} ${alone.length === 1 ? 'tool' : 'tools'} without edges: ${alone.map((n) => n.id).join(', ')}`);
  return lines.join('\n') + '\n';
}

function dotString(s: string): string {
  return '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') + '"';
}

export function renderDot(graph: WorkflowGraph): string {
  const { drawn, alone } = split(graph);
  const lines = ['digraph workflow {', '  rankdir=LR;', '  node [shape=box];'];
  for (const n of drawn) {
    const shape = shapeOf(n);
    lines.push(`  ${dotString(n.id)}${shape === 'read' ? ' [shape=ellipse]' : shape === 'act' ? ' [shape=hexagon]' : ''};`);
  }
  for (const l of links(graph.edges)) {
    lines.push(`  ${dotString(l.from)} -> ${dotString(l.to)} [label=${dotString(l.labels.join(', '))}${l.required ? '' : ', style=dashed'}];`);
  }
  if (alone.length > 0) lines.push(`  // ${alone.length} ${alone.length === 1 ? 'tool' : 'tools'} without edges: ${alone.map((n) => n.id).join(', ')}`);
  lines.push('}');
  return lines.join('\n') + '\n';
}

export function renderGraphJson(graph: WorkflowGraph): string {
  return JSON.stringify(graph, null, 2) + '\n';
}

export function renderGraph(graph: WorkflowGraph, format: GraphFormat): string {
  return format === 'dot' ? renderDot(graph) : format === 'json' ? renderGraphJson(graph) : renderMermaid(graph);
}
