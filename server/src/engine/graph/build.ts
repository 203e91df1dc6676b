/**
 * The workflow graph of a catalogue: which tools produce the identifiers (or names) that other
 * tools consume. Nodes are tools; an edge runs from a producer to a consumer and is labelled with
 * the consumer's parameter, the entity, and the evidence: `name` when inferred from the names
 * (`endpoint_id` and a tool that lists endpoints), `description` when a description says so
 * ("UUID from …", "returned by …", or a sentence naming the parameter and the tool).
 */
import type { Schema, Tool } from '../model';
import { type SchemaVisit, walkSchema } from '../schema';
import { idParam, toolParts, type Action } from '../vocab';
import { neighbourhood } from '../servers';
import { escapeRegExp } from '../util/text';
import {
  carriesValue,
  core,
  type Hood,
  identifierOf,
  type IdOf,
  indexProducers,
  LEAVE_ALONE,
  type Mention,
  mentionedTools,
  mentionIsNext,
  mentionIsSource,
  nameRefOf,
  producersFor,
  type RefKind,
  sameWords,
  sentences,
} from './producers';

export type Evidence = 'name' | 'description';

export interface GraphNode {
  /** Unique in the graph: the tool's name, with its server or folder when several servers use the name. */
  id: string;
  name: string;
  action: Action;
  /** Entity words of the name, space-separated (`test set`), or '' when the name has none. */
  entity: string;
  /** The file the tool is defined in, as the run displays it. */
  file: string;
}

export interface GraphEdge {
  /** Node id of the producer. */
  from: string;
  /** Node id of the consumer. */
  to: string;
  /** The consumer's parameter path (`test_set_id`, `tests[].behavior`). */
  parameter: string;
  /** The entity whose identifier or name flows along the edge (`test set`). */
  entity: string;
  evidence: Evidence;
  /** What the parameter holds: the record's identifier, its name, or another value a description sources. */
  ref: RefKind | 'value';
  /** Whether the consumer requires the parameter (and every object it sits in). */
  required: boolean;
}

export interface WorkflowGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface GraphOptions {
  /** `server` (default) links tools of the same server or folder only; `catalog` links every tool of the run. */
  scope?: 'server' | 'catalog';
}

interface Draft extends GraphEdge {
  order: [number, number, number];
}

/** Builds the graph. Nodes keep the catalogue's order; a name defined twice in one server is one node. */
export function buildGraph(tools: readonly Tool[], opts: GraphOptions = {}): WorkflowGraph {
  const scope = opts.scope ?? 'server';
  const hoods = indexProducers(tools, scope);
  const keyOf = (t: Tool): string => (scope === 'catalog' ? '' : neighbourhood(t));
  // A name used by tools of several servers gets the server (or folder) in its id.
  const placesOf = new Map<string, Set<string>>();
  for (const t of tools) if (t.name !== null) (placesOf.get(t.name) ?? placesOf.set(t.name, new Set()).get(t.name)!).add(keyOf(t));
  const ids = new Map<string, string>();
  const nodes: GraphNode[] = [];
  const at = new Map<string, number>();
  for (const t of tools) {
    if (t.name === null) continue;
    const key = `${keyOf(t)}\0${t.name}`;
    if (ids.has(key)) continue;
    const id = placesOf.get(t.name)!.size > 1 ? `${t.name} (${placeLabel(t)})` : t.name;
    ids.set(key, id);
    at.set(id, nodes.length);
    const p = toolParts(t);
    nodes.push({ id, name: t.name, action: p.action, entity: p.entity.join(' '), file: t.file.path });
  }

  const drafts = new Map<string, Draft>();
  for (const tool of tools) {
    if (tool.name === null) continue;
    const hoodKey = keyOf(tool);
    const hood = hoods.get(hoodKey);
    if (!hood) continue;
    const add = (e: GraphEdge, paramSeq: number): void => {
      const from = ids.get(`${hoodKey}\0${e.from}`)!;
      const to = ids.get(`${hoodKey}\0${e.to}`)!;
      if (from === to) return;
      const key = `${from}\0${to}\0${e.parameter}`;
      const old = drafts.get(key);
      if (old) {
        if (e.evidence === 'description') old.evidence = 'description';
        return;
      }
      drafts.set(key, { ...e, from, to, order: [at.get(to)!, paramSeq, at.get(from)!] });
    };
    consumerEdges(tool, hood, add);
  }
  const edges = [...drafts.values()]
    .sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1] || a.order[2] - b.order[2])
    .map(({ order: _order, ...e }) => e);
  return { nodes, edges };
}

/** Where a tool lives, to tell apart tools of several servers with one name: its server entry, else its folder or file. */
function placeLabel(t: Tool): string {
  if (t.group !== null) return t.group;
  const p = t.file.path.replace(/\\/g, '/');
  return p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : p;
}

interface Param {
  name: string;
  /** Path for the edge label (`tests[].behavior`). */
  path: string;
  schema: Schema;
  description: string;
  required: boolean;
}

/** A parameter with what it refers to and the tools that may provide its value. */
interface Analysed extends Param {
  seq: number;
  ref: RefKind | 'value';
  id: IdOf | null;
  inferred: string[];
  stated: Set<string>;
}

/**
 * Every edge into `tool`. A tool that declares no parameters states its inputs elsewhere:
 * identifiers its description names (`Required: board_id`) and the placeholders of its URL
 * template (`/runs/{run_id}`) count as its parameters.
 */
function consumerEdges(tool: Tool, hood: Hood, add: (e: GraphEdge, seq: number) => void): void {
  const name = tool.name!;
  const self = toolParts(tool);
  const params: Analysed[] = [];
  const analyse = (p: Param): void => {
    const seq = params.length;
    if (LEAVE_ALONE.test(p.description)) return;
    let ref: RefKind | 'value' = 'id';
    let id: IdOf | null = identifierOf(p.name, p.schema, p.description, hood.byEntity);
    if (!id) {
      id = nameRefOf(p.name, p.schema, p.description, hood.byEntity);
      ref = id ? 'name' : 'value';
    }
    let inferred: string[] = [];
    if (id && !ownEntity(self.action, self.entity, id)) {
      inferred = producersFor(tool, id, hood)
        .filter((x) => ref === 'id' || x.rank === 0)
        .map((x) => x.name);
    }
    const stated = new Set<string>();
    for (const m of mentionedTools(p.description, hood.names)) if (sourceMention(p.description, m, ref, hood)) stated.add(m.name);
    params.push({ ...p, seq, ref, id, inferred, stated });
  };
  let declared = false;
  walkSchema(tool, (v) => {
    if (v.via === 'defs') return false;
    if (v.via !== 'properties' || v.name === null) return;
    declared = true;
    const s = v.schema;
    if (s.readOnly === true || 'const' in s || Array.isArray(s.enum) || !carriesValue(s)) return;
    const description = typeof s.description === 'string' ? s.description : '';
    analyse({ name: v.name, path: v.param ?? v.name, schema: s, description, required: requiredPath(v) });
  });
  if (!declared) for (const p of undeclaredParams(tool)) analyse(p);

  // Tools the consumer's own description names: anywhere, they confirm an inferred producer;
  // in a clause that names parameters, they are stated as the source of one of them.
  const desc = tool.description ?? '';
  const namedByTool = new Set(
    mentionedTools(desc, hood.names)
      .filter((m) => !mentionIsNext(desc, m))
      .map((m) => m.name),
  );
  for (const clause of clauses(desc)) attribute(clause, params, hood);

  for (const p of params) {
    for (const from of new Set([...p.inferred, ...p.stated])) {
      if (from === name) continue;
      const producer = hood.tools.get(from);
      const confirmed = p.stated.has(from) || namedByTool.has(from) || (producer?.description ? mentionedTools(producer.description, hood.names).some((m) => m.name === name) : false);
      const entity = p.id ? p.id.core.join(' ') : producer ? toolParts(producer).entity.join(' ') : '';
      add({ from, to: name, parameter: p.path, entity, evidence: confirmed ? 'description' : 'name', ref: p.ref, required: p.required }, p.seq);
    }
  }
}

/** Sentences, list items and `;`-separated parts of a description. */
function clauses(text: string): string[] {
  return sentences(text).flatMap((s) => s.split(/;\s+/));
}

/**
 * Attributes each tool a clause names to one parameter the clause names: the parameter it is
 * inferred to produce, else one of the tool's entity, else the nearest parameter before it
 * (or after it). "board_id from list_boards; column_id from list_columns" and
 * "board_id and column_id from list_boards and list_columns" both pair correctly.
 */
function attribute(clause: string, params: Analysed[], hood: Hood): void {
  const named = params
    .map((p) => ({ p, at: paramMention(clause, p.name) }))
    .filter((x): x is { p: Analysed; at: number } => x.at >= 0)
    .sort((a, b) => a.at - b.at);
  if (named.length === 0) return;
  for (const m of mentionedTools(clause, hood.names)) {
    if (mentionIsNext(clause, m)) continue;
    // `use other_tool(a_id, b)`: the parameter is that tool's argument, the call a next step.
    const call = /^\(([^)]*)\)/.exec(clause.slice(m.end));
    let to = named.filter((x) => x.p.inferred.includes(m.name));
    if (to.length === 0) {
      const producer = hood.all.find((x) => x.name === m.name);
      if (producer) to = named.filter((x) => x.p.id && core(producer.entity).join(' ') === x.p.id.core.join(' '));
    }
    if (to.length === 0) to = nearest(clause, named, m.index);
    for (const x of to) {
      if (call && paramMention(call[1], x.p.name) >= 0) continue;
      if (sourceMention(clause, m, x.p.ref, hood)) x.p.stated.add(m.name);
    }
  }
}

/**
 * The parameters a tool mention refers to when nothing else tells: the nearest named before it,
 * with those joined to it by "and", "or" or commas ("module_name and class_name from X"); else
 * the first named after it ("use X to find the a_id").
 */
function nearest(clause: string, named: { p: Analysed; at: number }[], index: number): { p: Analysed; at: number }[] {
  const before = named.filter((x) => x.at < index);
  if (before.length === 0) return [named[0]];
  const out = [before[before.length - 1]];
  for (let i = before.length - 2; i >= 0; i--) {
    const gap = clause.slice(before[i].at + before[i].p.name.length, out[out.length - 1].at);
    if (!/^[\s,`'"]*(?:(?:and|or|&|\+)[\s`'"]*)?$/i.test(gap)) break;
    out.push(before[i]);
  }
  return out;
}

/**
 * Whether a mention reads as where the value comes from: never a next step; for a plain value,
 * only a tool that does not write records, named as the source ("see available values with X").
 */
function sourceMention(text: string, m: Mention, ref: RefKind | 'value', hood: Hood): boolean {
  if (mentionIsNext(text, m)) return false;
  if (ref !== 'value') return true;
  const t = hood.tools.get(m.name);
  const action = t ? toolParts(t).action : 'other';
  return (action === 'list' || action === 'read' || action === 'other') && mentionIsSource(text, m.index);
}

/**
 * Where a clause names the parameter: a compound name as a whole word (`endpoint_id`), a
 * one-word name only when marked as code (`` `name` ``), so "add a description" is no mention.
 */
function paramMention(text: string, name: string): number {
  const esc = escapeRegExp(name);
  const compound = /[_\-.]|[a-z][A-Z]|\d/.test(name);
  const re = compound ? new RegExp(`(?<![A-Za-z0-9_])${esc}(?![A-Za-z0-9_])`) : new RegExp(`[\`'"]${esc}[\`'"]`);
  const m = re.exec(text);
  return m ? m.index : -1;
}

/** Raw fields that hold a REST tool's URL template. */
const URL_KEYS = ['path', 'url', 'endpoint', 'route', 'uri'];
const OUTPUT_WORDS = /\b(?:returns?|returned|returning|response|responses|results?|outputs?|yields?|gives?|provides?|includes?|including|contains?)\b/i;
const IDENT = /[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*/g;

/** Identifier parameters of a tool without declared parameters: URL placeholders (required), then identifiers its description names. */
function undeclaredParams(tool: Tool): Param[] {
  const out = new Map<string, Param>();
  for (const k of URL_KEYS) {
    const url = tool.raw[k];
    if (typeof url !== 'string') continue;
    for (const m of url.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) if (!out.has(m[1])) out.set(m[1], { name: m[1], path: m[1], schema: {}, description: '', required: true });
  }
  for (const sentence of clauses(tool.description ?? '')) {
    // "returns web_probe_id", "the response includes task_id": an output, not an input.
    if (OUTPUT_WORDS.test(sentence)) continue;
    const required = /\brequired\b/i.test(sentence) && !/\boptional\b/i.test(sentence);
    for (const m of sentence.matchAll(IDENT)) {
      const w = m[0];
      // Written as an identifier (`endpoint_id`, `endpointId`), not prose ("the ID").
      if (out.has(w) || !/[_]|[a-z][A-Z]/.test(w) || !idParam(w)) continue;
      out.set(w, { name: w, path: w, schema: {}, description: '', required });
    }
  }
  return [...out.values()];
}

/**
 * The parameter names the tool's own entity: a filter of a tool that lists it (its values come
 * from that tool's output), or the new record's identifier or name on a tool that creates it
 * (`parent_folder_id` of a tool creating folders is a real input).
 */
function ownEntity(action: Action, entity: string[], id: IdOf): boolean {
  if (action === 'list') return sameWords(entity, id.entity) || sameWords(core(entity), id.core);
  if (action === 'create' || action === 'upsert') return sameWords(entity, id.entity);
  return false;
}

/** Whether the parameter and every object property it sits in are required. */
function requiredPath(v: SchemaVisit): boolean {
  for (let cur: SchemaVisit | null = v; cur; cur = cur.parent) if (cur.via === 'properties' && !cur.required) return false;
  return true;
}
