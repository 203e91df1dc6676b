/**
 * The workflow graph as SVG markup for the graph view: laid out by `graphLayout`, drawn with the
 * shapes of the CLI's Mermaid legend (rounded: lists or reads; box: creates; hexagon: acts;
 * dashed: optional parameter). Colours are classes that the view's stylesheet maps to the
 * theme's CSS variables, so the markup carries no style attribute (the view's CSP forbids them)
 * and no script. No `vscode` import, so tests render it directly.
 */
import { layoutGraph, type Layout, type Point } from './graphLayout';

/** What the drawing needs of a node of the server's `mcpToolLint/graph` answer. */
export interface DrawNode {
  id: string;
  /** Text of the node, if not its id. */
  label?: string;
  action: string;
  /** Tooltip lines after the id (where the tool is defined). */
  detail?: string;
  /** A tool of the document the view follows (its neighbours are drawn fainter). */
  own?: boolean;
}

export interface DrawEdge {
  from: string;
  to: string;
  parameter: string;
  required: boolean;
}

export type Shape = 'read' | 'create' | 'act';

/** As the CLI's Mermaid and DOT output: lists and reads are rounded, creations boxes, the rest hexagons. */
export function shapeOf(action: string): Shape {
  if (action === 'list' || action === 'read') return 'read';
  if (action === 'create' || action === 'upsert') return 'create';
  return 'act';
}

/** Text sizes: monospace, so a label's width is its length in characters. */
const NODE_FONT = 13;
const LABEL_FONT = 11;
/** Advance of a monospace character per pixel of font size (0.6 for the usual editor fonts). */
const CHAR = 0.62;
const NODE_H = 32;
const LABEL_H = 16;

const textWidth = (s: string, font: number) => Math.ceil([...s].length * font * CHAR);

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Edges merged per producer–consumer pair, as the Mermaid output draws them. */
export function mergeLinks(edges: readonly DrawEdge[]): { from: string; to: string; label: string; required: boolean }[] {
  const out = new Map<string, { from: string; to: string; labels: string[]; required: boolean }>();
  for (const e of edges) {
    const key = `${e.from}\0${e.to}`;
    const l = out.get(key);
    if (!l) out.set(key, { from: e.from, to: e.to, labels: [e.parameter], required: e.required });
    else {
      if (!l.labels.includes(e.parameter)) l.labels.push(e.parameter);
      l.required ||= e.required;
    }
  }
  return [...out.values()].map((l) => ({ from: l.from, to: l.to, label: l.labels.join(', '), required: l.required }));
}

export interface RenderedGraph {
  svg: string;
  layout: Layout;
}

export function renderGraphSvg(nodes: readonly DrawNode[], edges: readonly DrawEdge[], title = 'Tool workflow graph'): RenderedGraph {
  const links = mergeLinks(edges);
  const layout = layoutGraph(
    nodes.map((n) => ({ id: n.id, width: nodeWidth(n), height: NODE_H })),
    links.map((l) => ({ from: l.from, to: l.to, label: { width: textWidth(l.label, LABEL_FONT) + 8, height: LABEL_H } })),
  );
  const out: string[] = [];
  const w = Math.ceil(layout.width);
  const h = Math.ceil(layout.height);
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" class="graph" width="${w}" height="${h}" data-width="${w}" data-height="${h}" viewBox="0 0 ${w} ${h}" role="group" aria-label="${escapeXml(title)}">`);
  out.push('<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path class="arrowhead" d="M0,0L10,5L0,10z"/></marker></defs>');
  out.push('<g class="edges">');
  layout.edges.forEach((e, i) => {
    if (e.points.length < 2) return;
    const l = links[i];
    out.push(`<path class="edge${l.required ? '' : ' optional'}" data-from="${escapeXml(l.from)}" data-to="${escapeXml(l.to)}" d="${pathOf(e.points)}" marker-end="url(#arrow)"><title>${escapeXml(`${l.from} → ${l.to}: ${l.label}${l.required ? '' : ' (optional)'}`)}</title></path>`);
  });
  out.push('</g><g class="edge-labels">');
  layout.edges.forEach((e, i) => {
    if (!e.label) return;
    const b = e.label;
    out.push(
      `<g class="edge-label"><rect x="${n(b.x)}" y="${n(b.y)}" width="${n(b.width)}" height="${n(b.height)}" rx="3"/><text x="${n(b.x + b.width / 2)}" y="${n(b.y + b.height / 2)}">${escapeXml(links[i].label)}</text></g>`,
    );
  });
  out.push('</g><g class="nodes">');
  layout.nodes.forEach((p, i) => {
    const node = nodes[i];
    const shape = shapeOf(node.action);
    const cls = `node ${shape}${node.own === false ? ' neighbour' : ''}${p.layer < 0 ? ' unlinked' : ''}`;
    const text = node.label ?? node.id;
    const tip = [text, `${node.action}${p.layer < 0 ? ' · no edges' : ''}`, node.detail].filter(Boolean).join('\n');
    out.push(`<g class="${cls}" data-node="${escapeXml(node.id)}" tabindex="0" role="button" aria-label="${escapeXml(`${text}: go to definition`)}"><title>${escapeXml(tip)}</title>`);
    out.push(shapeMarkup(shape, p.x, p.y, p.width, p.height));
    out.push(`<text x="${n(p.x + p.width / 2)}" y="${n(p.y + p.height / 2)}">${escapeXml(text)}</text></g>`);
  });
  out.push('</g></svg>');
  return { svg: out.join(''), layout };
}

function nodeWidth(node: DrawNode): number {
  const text = textWidth(node.label ?? node.id, NODE_FONT);
  // A hexagon's points take room from the text; a stadium's round ends a little.
  return text + (shapeOf(node.action) === 'act' ? 40 : 28);
}

/** Coordinates with at most one decimal, so the markup stays short and stable. */
function n(v: number): string {
  return String(Math.round(v * 10) / 10);
}

function shapeMarkup(shape: Shape, x: number, y: number, w: number, h: number): string {
  if (shape === 'act') {
    const d = h / 2.5;
    const pts = [
      [x + d, y],
      [x + w - d, y],
      [x + w, y + h / 2],
      [x + w - d, y + h],
      [x + d, y + h],
      [x, y + h / 2],
    ];
    return `<polygon class="shape" points="${pts.map(([a, b]) => `${n(a)},${n(b)}`).join(' ')}"/>`;
  }
  const r = shape === 'read' ? h / 2 : 3;
  return `<rect class="shape" x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" rx="${n(r)}"/>`;
}

/** Straight runs through columns, S-curves between them. */
function pathOf(points: readonly Point[]): string {
  let d = `M${n(points[0].x)},${n(points[0].y)}`;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    if (Math.abs(a.y - b.y) < 0.5) d += `L${n(b.x)},${n(b.y)}`;
    else {
      const mx = (a.x + b.x) / 2;
      d += `C${n(mx)},${n(a.y)} ${n(mx)},${n(b.y)} ${n(b.x)},${n(b.y)}`;
    }
  }
  return d;
}

/** The legend of the view's header: one small picture per shape, as in the Mermaid comment. */
export function legendSvg(): string {
  const item = (shape: Shape, text: string) => `<span class="legend-item"><svg xmlns="http://www.w3.org/2000/svg" width="28" height="14" viewBox="0 0 28 14"><g class="node ${shape}">${shapeMarkup(shape, 1, 1, 26, 12)}</g></svg>${text}</span>`;
  const dashed = '<span class="legend-item"><svg xmlns="http://www.w3.org/2000/svg" width="28" height="14" viewBox="0 0 28 14"><path class="edge optional" d="M1,7L27,7"/></svg>optional parameter</span>';
  return item('read', 'lists or reads') + item('create', 'creates') + item('act', 'acts') + dashed;
}
