/**
 * The graph view's layered layout: layers follow the edges, nothing overlaps, cycles are drawn,
 * the ordering removes avoidable crossings, and the same input always gives the same picture.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fitOrdered, layoutGraph, type Box, type Layout, type LayoutEdgeInput, type LayoutNodeInput } from '../../client/src/graphLayout';

const node = (id: string, width = 60 + id.length * 8, height = 32): LayoutNodeInput => ({ id, width, height });
const edge = (from: string, to: string, label: string | null = from + '_id'): LayoutEdgeInput => ({ from, to, label: label === null ? null : { width: label.length * 7 + 8, height: 16 } });

function byId(l: Layout, id: string) {
  const n = l.nodes.find((x) => x.id === id);
  assert.ok(n, id);
  return n;
}

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Boxes pairwise apart; every edge starts on its producer's border and ends on its consumer's. */
function checkGeometry(l: Layout, nodes: readonly LayoutNodeInput[], edges: readonly LayoutEdgeInput[]): void {
  const boxes: (Box & { what: string })[] = [...l.nodes.map((n) => ({ ...n, what: `node ${n.id}` })), ...l.edges.flatMap((e, i) => (e.label ? [{ ...e.label, what: `label of edge ${i}` }] : []))];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) assert.ok(!overlaps(boxes[i], boxes[j]), `${boxes[i].what} overlaps ${boxes[j].what}`);
  for (const b of boxes) {
    assert.ok(b.x >= 0 && b.y >= 0 && b.x + b.width <= l.width + 1e-6 && b.y + b.height <= l.height + 1e-6, `${b.what} lies inside the drawing`);
  }
  const ids = new Set(nodes.map((n) => n.id));
  l.edges.forEach((e, i) => {
    assert.equal(e.from, edges[i].from);
    assert.equal(e.to, edges[i].to);
    if (e.from === e.to || !ids.has(e.from) || !ids.has(e.to)) {
      assert.deepEqual(e.points, [], 'a self-loop or a dangling edge is not drawn');
      return;
    }
    const from = byId(l, e.from);
    const to = byId(l, e.to);
    const first = e.points[0];
    const last = e.points[e.points.length - 1];
    if (!e.reversed) {
      assert.ok(from.layer < to.layer, `${e.from} is left of ${e.to}`);
      assert.deepEqual(first, { x: from.x + from.width, y: from.y + from.height / 2 }, 'starts at the producer’s right side');
      assert.deepEqual(last, { x: to.x, y: to.y + to.height / 2 }, 'ends at the consumer’s left side');
    } else {
      assert.ok(from.layer > to.layer, `reversed: ${e.from} is right of ${e.to}`);
      assert.deepEqual(first, { x: from.x, y: from.y + from.height / 2 });
      assert.deepEqual(last, { x: to.x + to.width, y: to.y + to.height / 2 }, 'the arrow still ends at the consumer');
    }
    // Between the end points an edge runs through columns (horizontal) and gaps (left to right,
    // or right to left when reversed); a horizontal run never passes through a box.
    // A curve between two points stays within their bounding box, which must hold no box.
    for (let k = 1; k < e.points.length; k++) {
      const a = e.points[k - 1];
      const b = e.points[k];
      assert.ok(e.reversed ? b.x <= a.x : b.x >= a.x, 'monotone in x');
      const span = { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) };
      for (const box of boxes) {
        const inside = span.x < box.x + box.width && box.x < span.x + span.width && span.y <= box.y + box.height && box.y <= span.y + span.height;
        const own = box.what === `node ${e.from}` || box.what === `node ${e.to}` || (e.label !== null && box.x === e.label.x && box.y === e.label.y);
        assert.ok(!inside || own, `edge ${e.from} -> ${e.to} runs through ${box.what}`);
      }
    }
  });
}

test('layers follow the edges: producers left of consumers, sources next to their nearest consumer', () => {
  const nodes = ['list_a', 'create_a', 'list_b', 'use_ab', 'get_result'].map((id) => node(id));
  const edges = [edge('list_a', 'create_a'), edge('create_a', 'use_ab'), edge('list_b', 'use_ab'), edge('use_ab', 'get_result')];
  const l = layoutGraph(nodes, edges);
  assert.deepEqual(
    l.nodes.map((n) => [n.id, n.layer]),
    [
      ['list_a', 0],
      ['create_a', 1],
      // Longest path would put it in layer 0, with a long edge; it moves next to its consumer.
      ['list_b', 1],
      ['use_ab', 2],
      ['get_result', 3],
    ],
  );
  assert.equal(l.layers, 4);
  assert.equal(l.crossings, 0);
  checkGeometry(l, nodes, edges);
  // Nodes of one layer share a column.
  assert.equal(byId(l, 'create_a').x + byId(l, 'create_a').width / 2, byId(l, 'list_b').x + byId(l, 'list_b').width / 2);
});

test('a long edge bends around the nodes of the layers it passes, and keeps its label by the consumer', () => {
  const nodes = ['a', 'b', 'c', 'd'].map((id) => node(id, 80));
  const edges = [edge('a', 'b'), edge('b', 'c'), edge('c', 'd'), edge('a', 'd', 'long_parameter_name')];
  const l = layoutGraph(nodes, edges);
  checkGeometry(l, nodes, edges);
  const long = l.edges[3];
  // Two points per rank passed: 5 ranks (b, its gap, c, and the gaps around) between a and d.
  assert.equal(long.points.length, 2 + 2 * 5);
  const d = byId(l, 'd');
  const c = byId(l, 'c');
  assert.ok(long.label && long.label.x > c.x + c.width && long.label.x + long.label.width < d.x, 'the label sits in the gap before the consumer');
});

test('cycles: one back edge per cycle is reversed, every edge is drawn, the arrows point at the consumers', () => {
  const nodes = ['a', 'b', 'c', 'x', 'y'].map((id) => node(id));
  const edges = [edge('a', 'b'), edge('b', 'c'), edge('c', 'a'), edge('x', 'y'), edge('y', 'x'), edge('a', 'a')];
  const l = layoutGraph(nodes, edges);
  assert.deepEqual(
    l.edges.map((e) => e.reversed),
    [false, false, true, false, true, false],
  );
  checkGeometry(l, nodes, edges);
  assert.deepEqual(l.edges[5].points, [], 'the self-loop is left out');
});

test('ordering by barycenter removes the crossings that input order would draw', () => {
  // Input order puts the consumers the wrong way round (and the lone tool first).
  const nodes = ['p1', 'p2', 'p3', 'c3', 'c2', 'c1'].map((id) => node(id));
  const edges = [edge('p1', 'c1'), edge('p2', 'c2'), edge('p3', 'c3'), edge('p1', 'c2')];
  const l = layoutGraph(nodes, edges);
  assert.equal(l.crossings, 0);
  const ys = (ids: string[]) => ids.map((id) => byId(l, id).y);
  const sorted = (v: number[]) => v.every((y, i) => i === 0 || y > v[i - 1]);
  assert.ok(sorted(ys(['p1', 'p2', 'p3'])));
  assert.ok(sorted(ys(['c1', 'c2', 'c3'])), 'the consumers follow their producers');
  checkGeometry(l, nodes, edges);
  // K2,3 cannot be drawn in two layers without crossings; three is the least possible.
  const k = layoutGraph(['a', 'b', 'x', 'y', 'z'].map((id) => node(id)), ['x', 'y', 'z'].flatMap((t) => [edge('a', t, null), edge('b', t, null)]));
  assert.equal(k.crossings, 3);
});

test('nodes without edges are packed in rows under the drawing, within the wrap width', () => {
  const lone = Array.from({ length: 12 }, (_, i) => node(`lone_${i}`, 150));
  const nodes = [node('a'), ...lone, node('b')];
  const edges = [edge('a', 'b')];
  const l = layoutGraph(nodes, edges, { wrapWidth: 500 });
  checkGeometry(l, nodes, edges);
  const drawnBottom = Math.max(byId(l, 'a').y + 32, byId(l, 'b').y + 32);
  for (const n of l.nodes.filter((x) => x.id.startsWith('lone_'))) {
    assert.equal(n.layer, -1);
    assert.ok(n.y > drawnBottom, `${n.id} is under the drawing`);
    assert.ok(n.x + n.width <= 500, `${n.id} wraps within the width`);
  }
  // Input order, row by row.
  const rows = new Map<number, string[]>();
  for (const n of l.nodes.filter((x) => x.layer < 0)) rows.set(n.y, [...(rows.get(n.y) ?? []), n.id]);
  assert.deepEqual([...rows.values()].flat(), lone.map((n) => n.id));
  assert.ok(rows.size > 1);
  // Only lone tools: rows from the top.
  const only = layoutGraph(lone.slice(0, 2), []);
  assert.deepEqual(
    only.nodes.map((n) => [n.x, n.y]),
    [
      [16, 16],
      [182, 16],
    ],
  );
  assert.equal(layoutGraph([], []).width, 0);
});

test('edges naming unknown nodes and duplicate node ids do not break the layout', () => {
  const nodes = [node('a'), node('b'), node('a')];
  const edges = [edge('a', 'b'), edge('a', 'ghost'), edge('ghost', 'b')];
  const l = layoutGraph(nodes, edges);
  assert.deepEqual(l.edges[1].points, []);
  assert.deepEqual(l.edges[2].points, []);
  assert.deepEqual({ ...l.nodes[2] }, { ...l.nodes[0] }, 'a duplicate shares the first node’s place');
});

test('the same input always gives the same layout', () => {
  const nodes = Array.from({ length: 14 }, (_, i) => node(`t${i}`, 70 + ((i * 37) % 50)));
  const edges = [
    [0, 3],
    [1, 3],
    [2, 4],
    [3, 5],
    [4, 5],
    [5, 6],
    [0, 6],
    [7, 8],
    [8, 9],
    [9, 7],
    [1, 9],
    [10, 2],
    [11, 12],
  ].map(([a, b]) => edge(`t${a}`, `t${b}`));
  const one = layoutGraph(nodes, edges);
  const two = layoutGraph(nodes.map((n) => ({ ...n })), edges.map((e) => ({ ...e })));
  assert.deepEqual(two, one);
  checkGeometry(one, nodes, edges);
});

test('random graphs: no overlaps, edges left to right unless they close a cycle, deterministic', () => {
  const graphs = fc
    .integer({ min: 1, max: 14 })
    .chain((n) =>
      fc.record({
        widths: fc.array(fc.integer({ min: 20, max: 200 }), { minLength: n, maxLength: n }),
        edges: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1), fc.option(fc.integer({ min: 10, max: 120 }))), { maxLength: 3 * n }),
      }),
    );
  fc.assert(
    fc.property(graphs, ({ widths, edges: raw }) => {
      const nodes = widths.map((w, i) => node(`n${i}`, w));
      const edges = raw.map(([a, b, lw]) => ({ from: `n${a}`, to: `n${b}`, label: lw === null ? null : { width: lw, height: 16 } }));
      const l = layoutGraph(nodes, edges);
      checkGeometry(l, nodes, edges);
      assert.deepEqual(layoutGraph(nodes, edges), l);
    }),
    { numRuns: 300, seed: 20240611 },
  );
});

test('fitOrdered: the least-squares positions that keep order and spacing', () => {
  assert.deepEqual(fitOrdered([0, 100, 200], [0, 10, 10]), [0, 100, 200], 'already apart: unchanged');
  assert.deepEqual(fitOrdered([0, 0, 0], [0, 10, 10]), [-10, 0, 10], 'all wanting one place: centred on it');
  assert.deepEqual(fitOrdered([50, 0], [0, 20]), [15, 35], 'crossed wishes: the pair is centred on their mean');
  assert.deepEqual(fitOrdered([], []), []);
});
