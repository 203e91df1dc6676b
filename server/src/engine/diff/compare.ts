/**
 * Compares two catalogues (an old and a new version) tool by tool and parameter by parameter,
 * and classifies each change by what it does to a client written against the old version:
 * **breaking** (a call that worked may now fail), **risky** (the prompt text an agent reads
 * changed: descriptions, titles, annotations, defaults) or **compatible**.
 *
 * Parameter paths follow the lint report's `parameter`: nested properties joined with `.`,
 * array items `[]`, additional properties `*`; anyOf/oneOf branches keep their parameter's path.
 */
import { isObject, type JsonObject, type Schema, type Tool } from '../model';
import { unifiedDiff } from '../util/diff';

export type ChangeClass = 'breaking' | 'risky' | 'compatible';

export type ChangeKind =
  | 'tool-removed'
  | 'tool-renamed'
  | 'tool-added'
  | 'tool-description-changed'
  | 'tool-title-changed'
  | 'annotations-changed'
  | 'parameter-removed'
  | 'parameter-added'
  | 'parameter-newly-required'
  | 'parameter-no-longer-required'
  | 'type-changed'
  | 'type-widened'
  | 'enum-value-removed'
  | 'enum-value-added'
  | 'enum-added'
  | 'enum-removed'
  | 'constraint-narrowed'
  | 'constraint-widened'
  | 'additional-properties-closed'
  | 'additional-properties-opened'
  | 'parameter-description-changed'
  | 'parameter-title-changed'
  | 'default-changed';

export interface Change {
  class: ChangeClass;
  kind: ChangeKind;
  /** The tool's name in the old version (for an added tool, its new name). */
  tool: string;
  /** Parameter path, or null for a tool-level change. */
  parameter: string | null;
  /** One clause saying what changed. */
  message: string;
  before: unknown;
  after: unknown;
  /** Unified diff of a changed text (descriptions, titles, annotations), for a reviewer. */
  diff?: string;
}

export interface DiffResult {
  breaking: Change[];
  risky: Change[];
  compatible: Change[];
  summary: { toolsBefore: number; toolsAfter: number; breaking: number; risky: number; compatible: number };
}

export interface DiffOptions {
  /** Minimum similarity (0–1) of description and schema for a removed+added pair to count as a rename. */
  renameThreshold?: number;
}

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains'];
/** Keywords with no order: any change (or addition) narrows, removal widens. */
const EXACT = ['pattern', 'format', 'multipleOf', 'const'];

/** Compares the tools of two versions. Tools without a name are ignored; a duplicated name counts once (its first definition). */
export function diffTools(before: readonly Tool[], after: readonly Tool[], opts: DiffOptions = {}): DiffResult {
  const changes: Change[] = [];
  const a = byName(before);
  const b = byName(after);
  const removed = [...a.keys()].filter((n) => !b.has(n));
  const added = [...b.keys()].filter((n) => !a.has(n));
  const renames = matchRenames(removed.map((n) => a.get(n)!), added.map((n) => b.get(n)!), opts.renameThreshold ?? 0.8);
  const renamedFrom = new Set(renames.map(([x]) => x.name));
  const renamedTo = new Set(renames.map(([, y]) => y.name));
  for (const n of removed) {
    if (renamedFrom.has(n)) continue;
    changes.push({ class: 'breaking', kind: 'tool-removed', tool: n, parameter: null, message: `tool \`${n}\` was removed`, before: n, after: null });
  }
  for (const [x, y] of renames) {
    changes.push({ class: 'breaking', kind: 'tool-renamed', tool: x.name!, parameter: null, message: `tool \`${x.name}\` was renamed to \`${y.name}\``, before: x.name, after: y.name });
    compareTool(x, y, changes);
  }
  for (const n of a.keys()) if (b.has(n)) compareTool(a.get(n)!, b.get(n)!, changes);
  for (const n of added) {
    if (renamedTo.has(n)) continue;
    changes.push({ class: 'compatible', kind: 'tool-added', tool: n, parameter: null, message: `tool \`${n}\` was added`, before: null, after: n });
  }
  const pick = (c: ChangeClass) => changes.filter((x) => x.class === c);
  const out = { breaking: pick('breaking'), risky: pick('risky'), compatible: pick('compatible') };
  return {
    ...out,
    summary: { toolsBefore: a.size, toolsAfter: b.size, breaking: out.breaking.length, risky: out.risky.length, compatible: out.compatible.length },
  };
}

function byName(tools: readonly Tool[]): Map<string, Tool> {
  const m = new Map<string, Tool>();
  for (const t of tools) if (t.name !== null && !m.has(t.name)) m.set(t.name, t);
  return m;
}

function words(s: string | null): Set<string> {
  return new Set((s ?? '').toLowerCase().match(/[a-z0-9]+/g) ?? []);
}

function jaccard(x: Set<string>, y: Set<string>): number {
  if (x.size === 0 && y.size === 0) return 1;
  let inter = 0;
  for (const w of x) if (y.has(w)) inter++;
  return inter / (x.size + y.size - inter);
}

/** Parameter names with their paths and types: two schemas that accept the same calls look the same here. */
function schemaShape(s: Schema | null): Set<string> {
  const out = new Set<string>();
  const walk = (node: unknown, path: string, depth: number) => {
    if (!isObject(node) || depth > 16) return;
    out.add(`${path}:${typesOf(node).sort().join('|')}`);
    if (isObject(node.properties)) for (const [k, v] of Object.entries(node.properties)) walk(v, path ? `${path}.${k}` : k, depth + 1);
    if (isObject(node.items)) walk(node.items, path + '[]', depth + 1);
  };
  walk(s, '', 0);
  return out;
}

/**
 * Pairs removed and added tools whose schema and description are near-identical (best pairs
 * first). Both must have something to compare: two tools with no description and no parameters
 * are not taken for one another.
 */
function matchRenames(removed: Tool[], added: Tool[], threshold: number): [Tool, Tool][] {
  const cands: { x: Tool; y: Tool; score: number }[] = [];
  for (const x of removed) {
    const dx = words(x.description);
    const sx = schemaShape(x.inputSchema);
    const nx = words(x.name);
    for (const y of added) {
      const dy = words(y.description);
      const sy = schemaShape(y.inputSchema);
      if (dx.size === 0 && dy.size === 0 && sx.size <= 1) continue;
      const ss = jaccard(sx, sy);
      if (ss < threshold) continue;
      const ds = jaccard(dx, dy);
      // A rename often comes with a longer description: the old text kept nearly whole counts too,
      // when the schema has parameters to match and the names share words.
      const kept = dx.size ? [...dx].filter((w) => dy.has(w)).length / dx.size : 0;
      const extended = sx.size > 1 && kept >= threshold && jaccard(nx, words(y.name)) >= 0.5;
      if (ds >= threshold || extended) cands.push({ x, y, score: ds + ss + kept });
    }
  }
  cands.sort((p, q) => q.score - p.score);
  const used = new Set<Tool>();
  const out: [Tool, Tool][] = [];
  for (const c of cands) {
    if (used.has(c.x) || used.has(c.y)) continue;
    used.add(c.x);
    used.add(c.y);
    out.push([c.x, c.y]);
  }
  return out;
}

function textDiff(label: string, a: string, b: string): string {
  // unifiedDiff compares lines; one sentence a line, so a one-word edit in a paragraph shows as one changed sentence.
  const lines = (s: string) => s.replace(/([.!?])[ \t]+(?=["'(\[`]?[A-Z])/g, '$1\n').replace(/\s*$/, '\n');
  const body = unifiedDiff(label, lines(a), lines(b)).split('\n').slice(2);
  if (body[body.length - 1] === '') body.pop();
  // Within a run of changed lines, removals first: the order reviewers expect.
  const out: string[] = [];
  for (let i = 0; i < body.length; ) {
    if (body[i].startsWith('-') || body[i].startsWith('+')) {
      let j = i;
      while (j < body.length && (body[j].startsWith('-') || body[j].startsWith('+') || body[j].startsWith('\\'))) j++;
      const run = body.slice(i, j).filter((l) => !l.startsWith('\\'));
      out.push(...run.filter((l) => l.startsWith('-')), ...run.filter((l) => l.startsWith('+')));
      i = j;
    } else {
      if (!body[i].startsWith('\\')) out.push(body[i]);
      i++;
    }
  }
  return out.join('\n');
}

function compareTool(x: Tool, y: Tool, out: Change[]): void {
  const tool = x.name!;
  if ((x.description ?? '') !== (y.description ?? '')) {
    out.push({
      class: 'risky',
      kind: 'tool-description-changed',
      tool,
      parameter: null,
      message: x.description ? (y.description ? 'description changed' : 'description was removed') : 'description was added',
      before: x.description,
      after: y.description,
      diff: textDiff(tool, x.description ?? '', y.description ?? ''),
    });
  }
  const tx = typeof x.raw.title === 'string' ? x.raw.title : (x.annotations.title as string | undefined);
  const ty = typeof y.raw.title === 'string' ? y.raw.title : (y.annotations.title as string | undefined);
  if ((tx ?? null) !== (ty ?? null)) {
    out.push({ class: 'risky', kind: 'tool-title-changed', tool, parameter: null, message: `title changed`, before: tx ?? null, after: ty ?? null, diff: textDiff(tool, tx ?? '', ty ?? '') });
  }
  const ax = withoutTitle(x.annotations);
  const ay = withoutTitle(y.annotations);
  if (stable(ax) !== stable(ay)) {
    const keys = [...new Set([...Object.keys(ax), ...Object.keys(ay)])].filter((k) => stable(ax[k]) !== stable(ay[k])).sort();
    out.push({
      class: 'risky',
      kind: 'annotations-changed',
      tool,
      parameter: null,
      message: `annotations changed: ${keys.map((k) => `\`${k}\` ${show(ax[k])} → ${show(ay[k])}`).join(', ')}`,
      before: ax,
      after: ay,
      diff: textDiff(tool, annotationLines(ax), annotationLines(ay)),
    });
  }
  // A format with no input schema (a REST map without parameters) takes no arguments: an empty object.
  const none: Schema = { type: 'object' };
  compareSchema(tool, null, x.inputSchema ?? none, y.inputSchema ?? none, out, 0);
}

function withoutTitle(a: JsonObject): JsonObject {
  const { title: _t, ...rest } = a;
  return rest;
}

function annotationLines(a: JsonObject): string {
  return Object.keys(a)
    .sort()
    .map((k) => `${k}: ${JSON.stringify(a[k])}\n`)
    .join('');
}

/** JSON with sorted keys, to compare values regardless of key order. */
export function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .filter((k) => v[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stable(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

function show(v: unknown): string {
  return v === undefined ? '(unset)' : `\`${JSON.stringify(v)}\``;
}

/** Declared types (`null` kept), or those of the anyOf/oneOf branches when there is no `type`. Empty means "any". */
function typesOf(s: Schema): string[] {
  if ('type' in s) {
    const t = s.type;
    if (typeof t === 'string') return [t];
    return Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
  }
  if (s.const !== undefined) return [jsonType(s.const)];
  const out = new Set<string>();
  let union = false;
  for (const k of ['anyOf', 'oneOf'] as const) {
    const br = s[k];
    if (!Array.isArray(br)) continue;
    union = true;
    for (const b of br) {
      const bt = isObject(b) ? typesOf(b) : [];
      if (bt.length === 0) return [];
      for (const x of bt) out.add(x);
    }
  }
  return union ? [...out] : [];
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Whether every value of type `t` is accepted by one of `set`. */
function covered(t: string, set: string[]): boolean {
  return set.includes(t) || (t === 'integer' && set.includes('number'));
}

function join(parent: string | null, seg: string): string {
  if (seg === '[]') return (parent ?? '') + '[]';
  return parent ? `${parent}.${seg}` : seg;
}

function compareSchema(tool: string, param: string | null, a: Schema, b: Schema, out: Change[], depth: number): void {
  if (depth > 32) return;
  const push = (klass: ChangeClass, kind: ChangeKind, message: string, before: unknown, after: unknown, diff?: string) =>
    out.push({ class: klass, kind, tool, parameter: param, message, before, after, ...(diff !== undefined ? { diff } : {}) });
  const where = param ? `\`${param}\`` : 'the input';

  if (param !== null) {
    for (const [key, kind] of [['description', 'parameter-description-changed'], ['title', 'parameter-title-changed']] as const) {
      const da = typeof a[key] === 'string' ? (a[key] as string) : null;
      const db = typeof b[key] === 'string' ? (b[key] as string) : null;
      if (da !== db) push('risky', kind, `${key} of ${where} ${da === null ? 'was added' : db === null ? 'was removed' : 'changed'}`, da, db, textDiff(`${tool} ${param}`, da ?? '', db ?? ''));
    }
    if (stable(a.default) !== stable(b.default)) push('risky', 'default-changed', `default of ${where} changed from ${show(a.default)} to ${show(b.default)}`, a.default ?? null, b.default ?? null);
  }

  // Types.
  const ta = typesOf(a);
  const tb = typesOf(b);
  if (stable([...ta].sort()) !== stable([...tb].sort())) {
    const lost = ta.length === 0 ? tb.length > 0 : ta.some((t) => !covered(t, tb)) && tb.length > 0;
    if (lost) push('breaking', 'type-changed', `type of ${where} changed from ${typeLabel(ta)} to ${typeLabel(tb)}`, typeLabel(ta), typeLabel(tb));
    else push('compatible', 'type-widened', `type of ${where} widened from ${typeLabel(ta)} to ${typeLabel(tb)}`, typeLabel(ta), typeLabel(tb));
  }

  // Enums.
  const ea = Array.isArray(a.enum) ? a.enum : null;
  const eb = Array.isArray(b.enum) ? b.enum : null;
  if (ea && eb) {
    const sa = new Set(ea.map(stable));
    const sb = new Set(eb.map(stable));
    const gone = ea.filter((v) => !sb.has(stable(v)));
    const gained = eb.filter((v) => !sa.has(stable(v)));
    if (gone.length) push('breaking', 'enum-value-removed', `${where} no longer accepts ${gone.map((v) => `\`${JSON.stringify(v)}\``).join(', ')}`, gone, null);
    if (gained.length) push('compatible', 'enum-value-added', `${where} now also accepts ${gained.map((v) => `\`${JSON.stringify(v)}\``).join(', ')}`, null, gained);
  } else if (!ea && eb) push('breaking', 'enum-added', `${where} is now limited to ${eb.map((v) => `\`${JSON.stringify(v)}\``).join(', ')}`, null, eb);
  else if (ea && !eb) push('compatible', 'enum-removed', `${where} is no longer limited to an enum`, ea, null);

  // Constraints.
  for (const k of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) {
    const va = typeof a[k] === 'number' ? (a[k] as number) : undefined;
    const vb = typeof b[k] === 'number' ? (b[k] as number) : undefined;
    if (va === vb) continue;
    const lower = LOWER_BOUNDS.includes(k);
    const narrowed = va === undefined ? true : vb === undefined ? false : lower ? vb > va : vb < va;
    push(narrowed ? 'breaking' : 'compatible', narrowed ? 'constraint-narrowed' : 'constraint-widened', `\`${k}\` of ${where} ${va === undefined ? `added (${vb})` : vb === undefined ? `removed (was ${va})` : `changed from ${va} to ${vb}`}`, va ?? null, vb ?? null);
  }
  for (const k of EXACT) {
    if (stable(a[k]) === stable(b[k])) continue;
    const narrowed = b[k] !== undefined;
    push(narrowed ? 'breaking' : 'compatible', narrowed ? 'constraint-narrowed' : 'constraint-widened', `\`${k}\` of ${where} ${a[k] === undefined ? `added (${show(b[k])})` : b[k] === undefined ? `removed (was ${show(a[k])})` : `changed from ${show(a[k])} to ${show(b[k])}`}`, a[k] ?? null, b[k] ?? null);
  }
  if (a.uniqueItems !== true && b.uniqueItems === true) push('breaking', 'constraint-narrowed', `${where} now requires unique items`, a.uniqueItems ?? null, true);
  else if (a.uniqueItems === true && b.uniqueItems !== true) push('compatible', 'constraint-widened', `${where} no longer requires unique items`, true, b.uniqueItems ?? null);

  // Object members.
  const pa = isObject(a.properties) ? a.properties : {};
  const pb = isObject(b.properties) ? b.properties : {};
  const ra = new Set(Array.isArray(a.required) ? a.required.filter((x): x is string => typeof x === 'string') : []);
  const rb = new Set(Array.isArray(b.required) ? b.required.filter((x): x is string => typeof x === 'string') : []);
  for (const k of Object.keys(pa)) {
    const p = join(param, k);
    if (!(k in pb)) {
      out.push({ class: 'breaking', kind: 'parameter-removed', tool, parameter: p, message: `parameter \`${p}\` was removed`, before: pa[k], after: null });
      continue;
    }
    if (!ra.has(k) && rb.has(k)) out.push({ class: 'breaking', kind: 'parameter-newly-required', tool, parameter: p, message: `parameter \`${p}\` is now required`, before: false, after: true });
    if (ra.has(k) && !rb.has(k)) out.push({ class: 'compatible', kind: 'parameter-no-longer-required', tool, parameter: p, message: `parameter \`${p}\` is no longer required`, before: true, after: false });
    if (isObject(pa[k]) && isObject(pb[k])) compareSchema(tool, p, pa[k] as Schema, pb[k] as Schema, out, depth + 1);
  }
  for (const k of Object.keys(pb)) {
    if (k in pa) continue;
    const p = join(param, k);
    if (rb.has(k)) out.push({ class: 'breaking', kind: 'parameter-added', tool, parameter: p, message: `required parameter \`${p}\` was added`, before: null, after: pb[k] });
    else out.push({ class: 'compatible', kind: 'parameter-added', tool, parameter: p, message: `optional parameter \`${p}\` was added`, before: null, after: pb[k] });
  }
  // Required names with no property (schema-required-undefined) still constrain calls.
  for (const k of rb) if (!ra.has(k) && !(k in pb) && !(k in pa)) out.push({ class: 'breaking', kind: 'parameter-newly-required', tool, parameter: join(param, k), message: `\`${join(param, k)}\` is now required`, before: false, after: true });

  const apa = a.additionalProperties;
  const apb = b.additionalProperties;
  if (apa !== false && apb === false) push('breaking', 'additional-properties-closed', `${where} no longer accepts undeclared properties (\`additionalProperties: false\`)`, apa ?? null, false);
  else if (apa === false && apb !== false) push('compatible', 'additional-properties-opened', `${where} now accepts undeclared properties`, false, apb ?? null);
  else if (isObject(apa) && isObject(apb)) compareSchema(tool, join(param, '*'), apa, apb, out, depth + 1);

  // Array items.
  if (isObject(a.items) && isObject(b.items)) compareSchema(tool, join(param, '[]'), a.items, b.items, out, depth + 1);

  // Branches: compared pairwise when their number is unchanged (the union's types are compared above).
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    const ba = Array.isArray(a[k]) ? (a[k] as unknown[]) : null;
    const bb = Array.isArray(b[k]) ? (b[k] as unknown[]) : null;
    if (!ba || !bb || ba.length !== bb.length) continue;
    for (let i = 0; i < ba.length; i++) if (isObject(ba[i]) && isObject(bb[i])) compareSchema(tool, param, ba[i] as Schema, bb[i] as Schema, out, depth + 1);
  }
}

function typeLabel(ts: string[]): string {
  return ts.length === 0 ? 'any' : [...ts].sort().join(' | ');
}
