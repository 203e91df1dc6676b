/**
 * The entity-creation order of a workflow graph, as a system prompt states it (seed 000,
 * section D): first the tools that discover the existing records the plan needs, then each
 * creating tool after the creators of the identifiers it takes, then the tools that act on the
 * created records, then the reads that check the outcome.
 */
import type { GraphEdge, WorkflowGraph } from './build';

export type StepKind = 'discover' | 'create' | 'act' | 'check';

export interface OrderStep {
  kind: StepKind;
  tools: string[];
  /** Parameters the step fills from earlier steps (leaf names, in parameter order). */
  with: string[];
  /** Parameters of other tools the step's output fills (leaf names). */
  get: string[];
}

export interface OrderCycle {
  /** Tools that depend on each other, in catalogue order. */
  tools: string[];
  /** Dependencies set aside to break the cycle: `tool` is created without `parameter` from `from`. */
  without: { tool: string; parameter: string; from: string; required: boolean }[];
}

export interface CreationOrder {
  steps: OrderStep[];
  cycles: OrderCycle[];
}

type Role = 'discover' | 'create' | 'act' | null;

function roleOf(action: string): Role {
  if (action === 'create' || action === 'upsert') return 'create';
  if (action === 'list' || action === 'read') return 'discover';
  if (action === 'update' || action === 'other') return 'act';
  return null;
}

/** `tests[].behavior` → `behavior`. */
export function leafParam(param: string): string {
  return param.split('.').pop()!.replace(/\[\]$/, '');
}

export function creationOrder(graph: WorkflowGraph): CreationOrder {
  const index = new Map(graph.nodes.map((n, i) => [n.id, i]));
  const role = new Map(graph.nodes.map((n) => [n.id, roleOf(n.action)]));
  const creators = graph.nodes.filter((n) => role.get(n.id) === 'create').map((n) => n.id);
  const isCreator = new Set(creators);
  const actors = graph.nodes.filter((n) => role.get(n.id) === 'act' && graph.edges.some((e) => e.to === n.id && isCreator.has(e.from))).map((n) => n.id);
  const plan = new Set([...creators, ...actors]);

  // Discovery: reads feeding the plan a parameter no creator of the plan provides.
  const createdParam = new Set(graph.edges.filter((e) => isCreator.has(e.from)).map((e) => `${e.to}\0${e.parameter}`));
  const discoverSet = new Set(graph.edges.filter((e) => plan.has(e.to) && role.get(e.from) === 'discover' && !createdParam.has(`${e.to}\0${e.parameter}`)).map((e) => e.from));
  const discover = graph.nodes.map((n) => n.id).filter((n) => discoverSet.has(n));
  // Checks: reads of what the plan created or acted on.
  const checkSet = new Set(graph.edges.filter((e) => plan.has(e.from) && role.get(e.to) === 'discover' && !discoverSet.has(e.to)).map((e) => e.to));
  const check = graph.nodes.map((n) => n.id).filter((n) => checkSet.has(n));

  const cycles: OrderCycle[] = [];
  const created = layered(creators, graph.edges, index, cycles);
  const acting = layered(actors, graph.edges, index, cycles);

  const before = new Set<string>(discover);
  const steps: OrderStep[] = [];
  const dropped = new Set(cycles.flatMap((c) => c.without.map((w) => `${w.from}\0${w.tool}\0${w.parameter}`)));
  const inputs = (tools: string[]): string[] =>
    unique(graph.edges.filter((e) => tools.includes(e.to) && before.has(e.from) && !dropped.has(`${e.from}\0${e.to}\0${e.parameter}`)).map((e) => leafParam(e.parameter)));
  const outputs = (tools: string[]): string[] => unique(graph.edges.filter((e) => tools.includes(e.from)).map((e) => leafParam(e.parameter)));
  if (discover.length > 0) steps.push({ kind: 'discover', tools: discover, with: [], get: [] });
  for (const { name } of created) {
    steps.push({ kind: 'create', tools: [name], with: inputs([name]), get: outputs([name]) });
    before.add(name);
  }
  // Tools that act on the same inputs at the same depth share a step (`update_x_title`, `update_x_body`).
  const groups = new Map<string, OrderStep>();
  for (const { name, level } of acting) {
    const w = inputs([name]);
    const key = `${level}\0${w.join('\0')}`;
    const g = groups.get(key);
    if (g) g.tools.push(name);
    else {
      const step: OrderStep = { kind: 'act', tools: [name], with: w, get: [] };
      groups.set(key, step);
      steps.push(step);
    }
  }
  for (const { name } of acting) before.add(name);
  if (check.length > 0 && steps.some((s) => s.kind === 'create')) steps.push({ kind: 'check', tools: check, with: [], get: [] });
  return { steps, cycles };
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}

/**
 * Orders tools so that each comes after the tools whose output it takes: by the length of the
 * longest chain of producers before it, then in catalogue order. Cycles are broken first,
 * setting aside optional parameters before required ones and keeping the tool that comes first
 * in the catalogue first; each broken cycle is recorded.
 */
function layered(tools: string[], all: GraphEdge[], index: Map<string, number>, cycles: OrderCycle[]): { name: string; level: number }[] {
  const inSet = new Set(tools);
  let edges = all.filter((e) => inSet.has(e.from) && inSet.has(e.to) && e.from !== e.to);
  for (;;) {
    const cyclic = components(tools, edges, index).find((c) => c.length > 1);
    if (!cyclic) break;
    const members = new Set(cyclic);
    const inner = edges
      .filter((e) => members.has(e.from) && members.has(e.to))
      .sort((a, b) => Number(a.required) - Number(b.required) || index.get(a.to)! - index.get(b.to)! || index.get(a.from)! - index.get(b.from)! || (a.parameter < b.parameter ? -1 : a.parameter > b.parameter ? 1 : 0));
    const drop = inner[0];
    // Setting aside one parameter may leave other edges of the same pair: drop them together.
    const gone = inner.filter((e) => e.from === drop.from && e.to === drop.to);
    edges = edges.filter((e) => !gone.includes(e));
    let cycle = cycles.find((c) => c.tools.some((t) => members.has(t)));
    if (!cycle) cycles.push((cycle = { tools: [...cyclic].sort((a, b) => index.get(a)! - index.get(b)!), without: [] }));
    for (const e of gone) cycle.without.push({ tool: e.to, parameter: e.parameter, from: e.from, required: e.required });
  }
  const level = new Map<string, number>();
  const depth = (t: string, seen: Set<string>): number => {
    const known = level.get(t);
    if (known !== undefined) return known;
    seen.add(t);
    let d = 0;
    for (const e of edges) if (e.to === t && !seen.has(e.from)) d = Math.max(d, depth(e.from, seen) + 1);
    seen.delete(t);
    level.set(t, d);
    return d;
  };
  return tools.map((name) => ({ name, level: depth(name, new Set()) })).sort((a, b) => a.level - b.level || index.get(a.name)! - index.get(b.name)!);
}

/** Strongly connected components (Tarjan), each in catalogue order. */
function components(tools: string[], edges: GraphEdge[], index: Map<string, number>): string[][] {
  const next = new Map<string, string[]>(tools.map((t) => [t, []]));
  for (const e of edges) next.get(e.from)!.push(e.to);
  const num = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    num.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!num.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, num.get(w)!));
    }
    if (low.get(v) === num.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      out.push(comp.sort((a, b) => index.get(a)! - index.get(b)!));
    }
  };
  for (const t of tools) if (!num.has(t)) visit(t);
  return out.sort((a, b) => index.get(a[0])! - index.get(b[0])!);
}

const NOTE: Record<StepKind, string> = { discover: 'discover existing', create: '', act: '', check: 'check results' };

/**
 * The order as a numbered Markdown list, ready to paste into a system prompt:
 * `1. list_a, list_b (discover existing)`, `2. create_x (with a_id; get x_id)`, …
 * Broken cycles follow the list, one line each.
 */
export function renderOrderMarkdown(order: CreationOrder): string {
  const lines = order.steps.map((s, i) => {
    const parts: string[] = [];
    if (NOTE[s.kind]) parts.push(NOTE[s.kind]);
    if (s.with.length > 0) parts.push((s.kind === 'act' ? 'use ' : 'with ') + s.with.join(' + '));
    if (s.get.length > 0) parts.push('get ' + s.get.join(', '));
    return `${i + 1}. ${s.tools.join(', ')}${parts.length ? ` (${parts.join('; ')})` : ''}`;
  });
  if (order.cycles.length > 0) {
    lines.push('');
    for (const c of order.cycles) {
      const first = c.without.map((w) =>
        w.required
          ? `${w.tool} comes first, but it requires ${leafParam(w.parameter)}: use an existing one`
          : `call ${w.tool} first, without ${leafParam(w.parameter)}`,
      );
      lines.push(`Cycle: ${joinAnd(c.tools)} depend on each other; ${unique(first).join('; ')}.`);
    }
  }
  return lines.length ? lines.join('\n') + '\n' : '';
}

function joinAnd(xs: string[]): string {
  return xs.length <= 2 ? xs.join(' and ') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
}
