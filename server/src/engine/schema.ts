/**
 * Walking a tool's normalised input schema with the source location of every subschema.
 */
import { isObject, type Origin, type Schema, type Tool } from './model';
import type { JsonPath } from './types';

export interface Loc {
  path: JsonPath;
  target: 'key' | 'value';
}

export type Via = 'root' | 'properties' | 'items' | 'anyOf' | 'oneOf' | 'allOf' | 'additionalProperties' | 'defs';

export interface SchemaVisit {
  schema: Schema;
  origin: Origin;
  /** Parameter path (`tests[].priority`), or null for the root. */
  param: string | null;
  /** Property name when reached through `properties`. */
  name: string | null;
  parent: SchemaVisit | null;
  via: Via;
  /** Listed in the parent object's `required` (or flagged `required: true`). */
  required: boolean;
  depth: number;
}

export const MAX_SCHEMA_DEPTH = 64;

export function rootOrigin(tool: Tool): Origin | undefined {
  return tool.inputSchema ? tool.origins.get(tool.inputSchema) : undefined;
}

/** Location of a keyword of a schema (falls back to the schema itself when synthesised). */
export function keywordLoc(origin: Origin, keyword: string, target: 'key' | 'value' = 'key'): Loc {
  const mapped = origin.keys?.[keyword];
  if (mapped === null) return selfLoc(origin);
  if (mapped) return { path: mapped, target };
  return { path: [...origin.path, keyword], target };
}

export function selfLoc(origin: Origin): Loc {
  return { path: origin.self, target: origin.selfTarget };
}

/** Whether the keyword is written in the source (not synthesised by normalisation). */
export function keywordInSource(origin: Origin, keyword: string): boolean {
  return origin.keys?.[keyword] !== null;
}

export function isRequiredIn(parent: Schema, name: string, prop: unknown): boolean {
  const req = parent.required;
  if (Array.isArray(req) && req.includes(name)) return true;
  return isObject(prop) && prop.required === true;
}

/** Origin of a subschema reached from `parent` through `segs` (registered origins win). */
export function childOrigin(tool: Tool, child: Schema, parent: Origin, segs: (string | number)[]): Origin {
  const known = tool.origins.get(child);
  if (known) return known;
  const path = [...parent.path, ...segs];
  const o: Origin = { path, self: path, selfTarget: typeof segs[segs.length - 1] === 'number' ? 'value' : 'key' };
  return o;
}

function joinParam(parent: string | null, name: string): string {
  return parent ? `${parent}.${name}` : name;
}

/** A tool's subschemas in visiting order; `ends[i]` is the index just past visit `i`'s subtree. */
interface Walk {
  root: Schema;
  origins: Map<object, Origin>;
  visits: SchemaVisit[];
  ends: number[];
}

// Every rule walks every tool's schema: the walk is computed once per tool and replayed.
const walks = new WeakMap<Tool, Walk>();

/**
 * Visit every subschema of a tool's input schema, depth-first, parents before children.
 * Return `false` from the callback to skip a subtree.
 */
export function walkSchema(tool: Tool, cb: (v: SchemaVisit) => void | boolean): void {
  const root = tool.inputSchema;
  if (!root) return;
  let w = walks.get(tool);
  if (!w || w.root !== root || w.origins !== tool.origins) {
    const origin = rootOrigin(tool);
    if (!origin) return;
    w = buildWalk(tool, root, origin);
    walks.set(tool, w);
  }
  const { visits, ends } = w;
  for (let i = 0; i < visits.length; ) {
    if (cb(visits[i]) === false) i = ends[i];
    else i++;
  }
}

function buildWalk(tool: Tool, root: Schema, origin: Origin): Walk {
  const visits: SchemaVisit[] = [];
  const ends: number[] = [];
  const stack = new Set<object>();
  const visit = (v: SchemaVisit): void => {
    if (v.depth > MAX_SCHEMA_DEPTH || stack.has(v.schema)) return;
    const at = visits.length;
    visits.push(v);
    ends.push(0);
    stack.add(v.schema);
    const s = v.schema;
    const props = s.properties;
    if (isObject(props)) {
      // Some catalogues list the properties the model sees in a non-standard `visible` keyword;
      // the others are filled by the server and never reach the model.
      const visible = Array.isArray(s.visible) ? new Set(s.visible) : null;
      for (const name of Object.keys(props)) {
        const ps = props[name];
        if (!isObject(ps) || (visible && !visible.has(name))) continue;
        visit({
          schema: ps,
          origin: childOrigin(tool, ps, v.origin, ['properties', name]),
          param: joinParam(v.param, name),
          name,
          parent: v,
          via: 'properties',
          required: isRequiredIn(s, name, ps),
          depth: v.depth + 1,
        });
      }
    }
    const items = s.items;
    if (isObject(items)) {
      visit({ schema: items, origin: childOrigin(tool, items, v.origin, ['items']), param: (v.param ?? '') + '[]', name: null, parent: v, via: 'items', required: false, depth: v.depth + 1 });
    } else if (Array.isArray(items)) {
      items.forEach((it, i) => {
        if (isObject(it)) visit({ schema: it, origin: childOrigin(tool, it, v.origin, ['items', i]), param: (v.param ?? '') + '[]', name: null, parent: v, via: 'items', required: false, depth: v.depth + 1 });
      });
    }
    for (const comb of ['anyOf', 'oneOf', 'allOf'] as const) {
      const list = s[comb];
      if (!Array.isArray(list)) continue;
      list.forEach((br, i) => {
        if (isObject(br)) visit({ schema: br, origin: childOrigin(tool, br, v.origin, [comb, i]), param: v.param, name: v.name, parent: v, via: comb, required: v.required, depth: v.depth + 1 });
      });
    }
    const ap = s.additionalProperties;
    if (isObject(ap)) {
      visit({ schema: ap, origin: childOrigin(tool, ap, v.origin, ['additionalProperties']), param: (v.param ? v.param + '.' : '') + '*', name: null, parent: v, via: 'additionalProperties', required: false, depth: v.depth + 1 });
    }
    for (const defsKey of ['$defs', 'definitions'] as const) {
      const defs = s[defsKey];
      if (!isObject(defs)) continue;
      for (const name of Object.keys(defs)) {
        const d = defs[name];
        if (isObject(d)) visit({ schema: d, origin: childOrigin(tool, d, v.origin, [defsKey, name]), param: null, name: null, parent: v, via: 'defs', required: false, depth: v.depth + 1 });
      }
    }
    stack.delete(v.schema);
    ends[at] = visits.length;
  };
  visit({ schema: root, origin, param: null, name: null, parent: null, via: 'root', required: false, depth: 0 });
  return { root, origins: tool.origins, visits, ends };
}

/** The schema's declared types (`type` as string or list), without `null`. */
export function schemaTypes(s: Schema): string[] {
  const t = s.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  return [];
}

/**
 * Parameter path (`tests[].priority`) of a place inside a schema, given the JSON path segments
 * from the schema's root, or null when the place is the root itself.
 */
export function paramOfSchemaPath(segs: readonly (string | number)[]): string | null {
  let out = '';
  for (let i = 0; i < segs.length; i++) {
    const s = String(segs[i]);
    if (s === 'properties' && i + 1 < segs.length) {
      out += (out ? '.' : '') + String(segs[++i]);
    } else if (s === 'items') {
      out += '[]';
      if (i + 1 < segs.length && /^\d+$/.test(String(segs[i + 1]))) i++;
    } else if ((s === 'anyOf' || s === 'oneOf' || s === 'allOf') && i + 1 < segs.length) {
      i++;
    } else if (s === 'additionalProperties') {
      out += (out ? '.' : '') + '*';
    } else {
      break;
    }
  }
  return out || null;
}
