/**
 * A small layered ("Sugiyama") layout for the workflow graph, drawn left to right like the CLI's
 * Mermaid `flowchart LR`. No `vscode` import and no DOM: boxes in, coordinates out.
 *
 * 1. Cycles are broken by reversing the back edges of a depth-first search (in input order).
 * 2. Layers by longest path from the sources; a source then moves right next to its nearest
 *    consumer, so a lister used late in a workflow does not draw a long edge from the far left.
 * 3. Ranks are doubled, as dagre does: an edge's label is a box in the rank between two layers,
 *    and every edge spanning more ranks gets a point per rank. Nodes, labels and those points
 *    then share one ordering and one spacing, so no two of them overlap and no edge crosses a box.
 * 4. Order within ranks by barycenter of the neighbours, sweeping down and up, then swapping
 *    neighbours while that removes crossings; the ordering with the fewest crossings wins.
 * 5. Vertical positions: each rank in turn moves its items towards their neighbours' mean while
 *    keeping order and spacing (an exact least-squares fit by pool-adjacent-violators).
 *
 * Tools without edges are packed in rows under the drawing. Everything is deterministic: ties
 * keep input order.
 */

export interface LayoutNodeInput {
  id: string;
  width: number;
  height: number;
}

export interface LayoutEdgeInput {
  from: string;
  to: string;
  /** Size of the edge's label box, if it has one. */
  label?: { width: number; height: number } | null;
}

export interface LayoutOptions {
  /** Horizontal space on each side of a rank (so between two layers: twice this plus the labels). */
  rankGap?: number;
  /** Vertical space between two boxes of a rank. */
  nodeGap?: number;
  /** Vertical space between two edges passing through a rank. */
  edgeGap?: number;
  margin?: number;
  /** Ordering sweeps (down and up count one each). */
  sweeps?: number;
  /** Width under which the rows of unlinked nodes wrap (at least the drawing's width). */
  wrapWidth?: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlacedNode extends Box {
  id: string;
  /** Layer from the left, or -1 for a node without edges (placed under the drawing). */
  layer: number;
}

export interface PlacedEdge {
  from: string;
  to: string;
  /** From the producer's border to the consumer's (the arrow's tip); empty for a self-loop. */
  points: Point[];
  label: Box | null;
  /** The edge closes a cycle and runs right to left. */
  reversed: boolean;
}

export interface Layout {
  width: number;
  height: number;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  layers: number;
  /** Edge crossings left between ranks (what the ordering minimised). */
  crossings: number;
}

const DEFAULTS: Required<LayoutOptions> = { rankGap: 28, nodeGap: 16, edgeGap: 8, margin: 16, sweeps: 12, wrapWidth: 720 };
/** Width of a rank that only long edges pass through, so they still run a little straight. */
const MIN_PASS_WIDTH = 12;

type Kind = 'node' | 'label' | 'point';

interface Item {
  kind: Kind;
  /** Index of the node, or of the edge for labels and points. */
  ref: number;
  width: number;
  height: number;
  rank: number;
  /** Position in the rank. */
  pos: number;
  /** Centre. */
  y: number;
  up: Item[];
  down: Item[];
  /** Creation order: the final tie-breaker. */
  seq: number;
}

/** Lays out a graph. Edges naming unknown nodes are ignored (they get no points). */
export function layoutGraph(nodes: readonly LayoutNodeInput[], edges: readonly LayoutEdgeInput[], options: LayoutOptions = {}): Layout {
  const o = { ...DEFAULTS, ...options };
  const index = new Map<string, number>();
  nodes.forEach((n, i) => {
    if (!index.has(n.id)) index.set(n.id, i);
  });
  const ends = edges.map((e) => ({ u: index.get(e.from), v: index.get(e.to) }));
  const live = ends.map((x) => x.u !== undefined && x.v !== undefined && x.u !== x.v);
  const linked = new Set<number>();
  ends.forEach((x, i) => {
    if (live[i]) linked.add(x.u!).add(x.v!);
  });

  const reversed = breakCycles(nodes.length, ends, live);
  // The acyclic edges: `a` left of `b`.
  const dag = ends.map((x, i) => (live[i] ? (reversed[i] ? { a: x.v!, b: x.u! } : { a: x.u!, b: x.v! }) : null));
  const layer = assignLayers(nodes.length, dag);

  // Items per rank (node ranks are even, the ranks between layers odd).
  let seq = 0;
  const ranks: Item[][] = [];
  const put = (kind: Kind, ref: number, width: number, height: number, rank: number): Item => {
    const it: Item = { kind, ref, width, height, rank, pos: 0, y: 0, up: [], down: [], seq: seq++ };
    (ranks[rank] ??= []).push(it);
    return it;
  };
  const nodeItem = new Map<number, Item>();
  // Nodes in input order, so the first ordering follows the catalogue.
  nodes.forEach((n, i) => {
    if (linked.has(i) && index.get(n.id) === i) nodeItem.set(i, put('node', i, n.width, n.height, 2 * layer[i]));
  });
  const chains: (Item[] | null)[] = dag.map((d, i) => {
    if (!d) return null;
    const first = 2 * layer[d.a];
    const last = 2 * layer[d.b];
    // The label sits next to the consumer: the parameter is the consumer's.
    const labelRank = reversed[i] ? first + 1 : last - 1;
    const label = edges[i].label;
    const chain = [nodeItem.get(d.a)!];
    for (let r = first + 1; r < last; r++) {
      chain.push(r === labelRank && label ? put('label', i, label.width, label.height, r) : put('point', i, 0, 0, r));
    }
    chain.push(nodeItem.get(d.b)!);
    for (let k = 0; k + 1 < chain.length; k++) {
      chain[k].down.push(chain[k + 1]);
      chain[k + 1].up.push(chain[k]);
    }
    return chain;
  });
  for (let r = 0; r < ranks.length; r++) ranks[r] ??= [];

  const crossings = orderRanks(ranks, o.sweeps);
  placeVertically(ranks, o);

  // Horizontal: each rank a column as wide as its widest item.
  const colX: number[] = [];
  const colW: number[] = [];
  let x = o.margin;
  for (let r = 0; r < ranks.length; r++) {
    const w = Math.max(r % 2 === 1 ? MIN_PASS_WIDTH : 0, ...ranks[r].map((it) => it.width));
    if (r > 0) x += o.rankGap;
    colX.push(x);
    colW.push(w);
    x += w;
  }
  const drawnWidth = ranks.length > 0 ? x + o.margin : 0;
  let top = Infinity;
  let bottom = -Infinity;
  for (const rank of ranks)
    for (const it of rank) {
      top = Math.min(top, it.y - it.height / 2);
      bottom = Math.max(bottom, it.y + it.height / 2);
    }
  const shift = Number.isFinite(top) ? o.margin - top : 0;
  const boxOf = (it: Item): Box => ({ x: colX[it.rank] + (colW[it.rank] - it.width) / 2, y: it.y + shift - it.height / 2, width: it.width, height: it.height });

  const placed: PlacedNode[] = nodes.map((n, i) => {
    const it = nodeItem.get(i);
    return it ? { id: n.id, layer: layer[i], ...boxOf(it) } : { id: n.id, layer: -1, x: 0, y: 0, width: n.width, height: n.height };
  });

  const out: PlacedEdge[] = edges.map((e, i) => {
    const chain = chains[i];
    if (!chain) return { from: e.from, to: e.to, points: [], label: null, reversed: false };
    const head = chain[0];
    const tail = chain[chain.length - 1];
    const a = boxOf(head);
    const b = boxOf(tail);
    // Straight out of a node to the edge of its column, straight through each column passed (its
    // other items lie above or below), straight into the consumer from the edge of its column:
    // the curves between columns then cross only the empty gaps.
    const points: Point[] = [{ x: a.x + a.width, y: a.y + a.height / 2 }];
    const colEnd = colX[head.rank] + colW[head.rank];
    if (colEnd > a.x + a.width) points.push({ x: colEnd, y: a.y + a.height / 2 });
    let label: Box | null = null;
    for (const it of chain.slice(1, -1)) {
      const y = it.y + shift;
      points.push({ x: colX[it.rank], y }, { x: colX[it.rank] + colW[it.rank], y });
      if (it.kind === 'label') label = boxOf(it);
    }
    if (colX[tail.rank] < b.x) points.push({ x: colX[tail.rank], y: b.y + b.height / 2 });
    points.push({ x: b.x, y: b.y + b.height / 2 });
    if (reversed[i]) points.reverse();
    return { from: e.from, to: e.to, points, label, reversed: reversed[i] };
  });

  // Unlinked nodes: rows under the drawing, in input order.
  const drawnHeight = Number.isFinite(bottom) ? bottom + shift + o.margin : 0;
  const rowWidth = Math.max(drawnWidth, o.wrapWidth);
  let cx = o.margin;
  let cy = drawnHeight > 0 ? drawnHeight + o.nodeGap : o.margin;
  let rowH = 0;
  let width = drawnWidth;
  let height = drawnHeight;
  placed.forEach((p, i) => {
    if (p.layer >= 0 || index.get(p.id) !== i) return;
    if (cx > o.margin && cx + p.width + o.margin > rowWidth) {
      cx = o.margin;
      cy += rowH + o.nodeGap;
      rowH = 0;
    }
    p.x = cx;
    p.y = cy;
    cx += p.width + o.nodeGap;
    rowH = Math.max(rowH, p.height);
    width = Math.max(width, p.x + p.width + o.margin);
    height = Math.max(height, p.y + p.height + o.margin);
  });
  // A duplicate id shares the first node's place.
  placed.forEach((p, i) => {
    const first = index.get(p.id)!;
    if (first !== i) Object.assign(p, { ...placed[first], id: p.id });
  });

  return { width, height, nodes: placed, edges: out, layers: ranks.length === 0 ? 0 : (ranks.length + 1) / 2, crossings };
}

/** The edges to reverse: back edges of a depth-first search from each node in input order. */
function breakCycles(n: number, ends: { u?: number; v?: number }[], live: boolean[]): boolean[] {
  const out: number[][] = Array.from({ length: n }, () => []);
  ends.forEach((x, i) => {
    if (live[i]) out[x.u!].push(i);
  });
  const reversed = ends.map(() => false);
  const state = new Uint8Array(n); // 0 new, 1 on the stack, 2 done
  for (let s = 0; s < n; s++) {
    if (state[s] !== 0) continue;
    // Iterative, so a long chain cannot overflow the call stack.
    const stack: [number, number][] = [[s, 0]];
    state[s] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const [u, k] = top;
      if (k >= out[u].length) {
        state[u] = 2;
        stack.pop();
        continue;
      }
      top[1]++;
      const e = out[u][k];
      const v = ends[e].v!;
      if (state[v] === 1) reversed[e] = true;
      else if (state[v] === 0) {
        state[v] = 1;
        stack.push([v, 0]);
      }
    }
  }
  return reversed;
}

/** Longest-path layers of the acyclic edges; then each source moves right next to its nearest consumer. */
function assignLayers(n: number, dag: ({ a: number; b: number } | null)[]): number[] {
  const succ: number[][] = Array.from({ length: n }, () => []);
  const indeg = new Array<number>(n).fill(0);
  for (const d of dag) {
    if (!d) continue;
    succ[d.a].push(d.b);
    indeg[d.b]++;
  }
  const layer = new Array<number>(n).fill(0);
  const order: number[] = [];
  const left = indeg.slice();
  const queue: number[] = [];
  for (let i = 0; i < n; i++) if (left[i] === 0) queue.push(i);
  for (let q = 0; q < queue.length; q++) {
    const u = queue[q];
    order.push(u);
    for (const v of succ[u]) {
      layer[v] = Math.max(layer[v], layer[u] + 1);
      if (--left[v] === 0) queue.push(v);
    }
  }
  for (let k = order.length - 1; k >= 0; k--) {
    const u = order[k];
    if (indeg[u] === 0 && succ[u].length > 0) layer[u] = Math.min(...succ[u].map((v) => layer[v])) - 1;
  }
  return layer;
}

/** Orders every rank to reduce crossings; returns the crossings of the best ordering found. */
function orderRanks(ranks: Item[][], sweeps: number): number {
  const renumber = (rank: Item[]) => rank.forEach((it, i) => (it.pos = i));
  ranks.forEach(renumber);
  // First ordering: down from the first rank by barycenter, which keeps input order among equals.
  for (let r = 1; r < ranks.length; r++) reorder(ranks[r], 'up');
  let best = ranks.map((rank) => rank.slice());
  let bestCount = totalCrossings(ranks);
  for (let s = 0; s < sweeps && bestCount > 0; s++) {
    if (s % 2 === 0) for (let r = 1; r < ranks.length; r++) reorder(ranks[r], 'up');
    else for (let r = ranks.length - 2; r >= 0; r--) reorder(ranks[r], 'down');
    transpose(ranks);
    const count = totalCrossings(ranks);
    if (count < bestCount) {
      bestCount = count;
      best = ranks.map((rank) => rank.slice());
    }
  }
  best.forEach((rank, r) => {
    ranks[r] = rank;
    renumber(rank);
  });
  return bestCount;
}

/**
 * Sorts a rank by the mean position of each item's neighbours on one side. Items with no
 * neighbour there keep their place; the others fill the remaining places in barycenter order.
 */
function reorder(rank: Item[], side: 'up' | 'down'): void {
  const movable: { it: Item; bc: number }[] = [];
  const fixed = new Set<number>();
  rank.forEach((it, i) => {
    const ns = it[side];
    if (ns.length === 0) fixed.add(i);
    else movable.push({ it, bc: ns.reduce((s, n) => s + n.pos, 0) / ns.length });
  });
  movable.sort((a, b) => a.bc - b.bc || a.it.pos - b.it.pos || a.it.seq - b.it.seq);
  const next: Item[] = [];
  let m = 0;
  for (let i = 0; i < rank.length; i++) next.push(fixed.has(i) ? rank[i] : movable[m++].it);
  next.forEach((it, i) => {
    rank[i] = it;
    it.pos = i;
  });
}

/** Swaps neighbours in a rank while that lowers the crossings with both adjacent ranks. */
function transpose(ranks: Item[][]): void {
  for (let round = 0, improved = true; improved && round < 8; round++) {
    improved = false;
    for (const rank of ranks) {
      for (let i = 0; i + 1 < rank.length; i++) {
        const a = rank[i];
        const b = rank[i + 1];
        if (pairCrossings(b, a) < pairCrossings(a, b)) {
          rank[i] = b;
          rank[i + 1] = a;
          a.pos = i + 1;
          b.pos = i;
          improved = true;
        }
      }
    }
  }
}

/** Crossings between the edges of `a` and of `b` when `a` is above `b`. */
function pairCrossings(a: Item, b: Item): number {
  let c = 0;
  for (const side of ['up', 'down'] as const) for (const x of a[side]) for (const y of b[side]) if (x.pos > y.pos) c++;
  return c;
}

function totalCrossings(ranks: Item[][]): number {
  let total = 0;
  for (let r = 0; r + 1 < ranks.length; r++) {
    // Edges sorted by the upper end; crossings are inversions of the lower ends (counted with a Fenwick tree).
    const pairs: [number, number][] = [];
    for (const it of ranks[r]) for (const d of it.down) pairs.push([it.pos, d.pos]);
    pairs.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    const size = ranks[r + 1].length;
    const tree = new Array<number>(size + 1).fill(0);
    let seen = 0;
    for (const [, lower] of pairs) {
      let le = 0;
      for (let i = lower + 1; i > 0; i -= i & -i) le += tree[i];
      total += seen - le;
      for (let i = lower + 1; i <= size; i += i & -i) tree[i]++;
      seen++;
    }
  }
  return total;
}

/** Vertical centres: stacked, then pulled towards the neighbours rank by rank, keeping order and spacing. */
function placeVertically(ranks: Item[][], o: Required<LayoutOptions>): void {
  const gap = (a: Item, b: Item) => (a.kind === 'point' && b.kind === 'point' ? o.edgeGap : o.nodeGap);
  const sep = (rank: Item[]) => rank.map((it, i) => (i === 0 ? 0 : (rank[i - 1].height + it.height) / 2 + gap(rank[i - 1], it)));
  const seps = ranks.map(sep);
  for (const [r, rank] of ranks.entries()) {
    let y = 0;
    rank.forEach((it, i) => (it.y = y += seps[r][i]));
  }
  const fit = (r: number, sides: ('up' | 'down')[]) => {
    const rank = ranks[r];
    if (rank.length === 0) return;
    const want = rank.map((it) => {
      const ns = sides.flatMap((s) => it[s]);
      return ns.length === 0 ? it.y : ns.reduce((s, n) => s + n.y, 0) / ns.length;
    });
    const ys = fitOrdered(want, seps[r]);
    rank.forEach((it, i) => (it.y = ys[i]));
  };
  for (let round = 0; round < 6; round++) {
    for (let r = 1; r < ranks.length; r++) fit(r, ['up']);
    for (let r = ranks.length - 2; r >= 0; r--) fit(r, ['down']);
  }
  for (let r = 0; r < ranks.length; r++) fit(r, ['up', 'down']);
}

/**
 * The positions closest (least squares) to `want` with `y[i] - y[i-1] >= sep[i]`: shifted by the
 * cumulative spacing this is isotonic regression, solved exactly by pool-adjacent-violators.
 */
export function fitOrdered(want: readonly number[], sep: readonly number[]): number[] {
  const off: number[] = [];
  let acc = 0;
  for (let i = 0; i < want.length; i++) off.push((acc += i === 0 ? 0 : sep[i]));
  const blocks: { sum: number; n: number }[] = [];
  for (let i = 0; i < want.length; i++) {
    blocks.push({ sum: want[i] - off[i], n: 1 });
    while (blocks.length > 1) {
      const b = blocks[blocks.length - 1];
      const a = blocks[blocks.length - 2];
      if (a.sum / a.n <= b.sum / b.n) break;
      a.sum += b.sum;
      a.n += b.n;
      blocks.pop();
    }
  }
  const out: number[] = [];
  for (const b of blocks) for (let k = 0; k < b.n; k++) out.push(b.sum / b.n + off[out.length]);
  return out;
}
