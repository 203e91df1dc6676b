/**
 * Normalising one tool object, whatever its shape, to the `Tool` model:
 * - MCP `Tool` objects (`inputSchema`, also `input_schema`);
 * - function-calling objects whose JSON Schema is under `parameters` / `parameter`
 *   (including per-property `required: true` flags of draft-3 style);
 * - argument lists (`parameters` / `arguments` / `options` as a list of `{name, type, …}`);
 * - REST-style parameter maps (`parameters: {name: {description}}`, no types);
 * - OpenAI's `{type: function, function: {…}}` wrapper.
 */
import { isObject, type JsonObject, type Origin, type Schema, type SourceFile, type Tool } from '../model';
import type { JsonPath } from '../types';

/**
 * How a parameter list says which parameters are required: `flag` (a `required` or `optional`
 * flag per entry; in a file whose lists use `optional` flags, an entry without one is required),
 * `optional-flags` (the same, known to be such a file), or `no-default` (MXCP: required unless it
 * has a default).
 */
export type RequiredPolicy = 'flag' | 'optional-flags' | 'no-default';

/** Whether any argument list of these tools marks entries `optional` (then the rest are required). */
export function usesOptionalFlags(sites: ToolSite[]): boolean {
  for (const s of sites) {
    for (const k of PARAM_KEYS) {
      const v = s.obj[k];
      if (Array.isArray(v) && v.some((p) => isObject(p) && 'optional' in p)) return true;
    }
  }
  return false;
}

export interface ToolSite {
  obj: JsonObject;
  path: JsonPath;
  /** Name taken from a map key (keyed catalogues) rather than a `name` field. */
  keyName?: string;
  group?: string | null;
}

const SCHEMA_KEYS = ['inputSchema', 'input_schema', 'inputschema'];
const PARAM_KEYS = ['parameters', 'parameter', 'params', 'arguments', 'args', 'options', 'option'];
const DESC_KEYS = ['description', 'desc'];

export type ToolShape = 'mcp' | 'function' | 'arglist' | 'parammap' | 'bare';

/** Which shape a tool object has (used to name the file's format). */
export function toolShape(obj: JsonObject): ToolShape {
  const o = unwrapFunction(obj).obj;
  for (const k of SCHEMA_KEYS) if (isObject(o[k])) return 'mcp';
  for (const k of PARAM_KEYS) {
    const v = o[k];
    if (Array.isArray(v)) return 'arglist';
    if (isObject(v)) return looksLikeJsonSchema(v) ? 'function' : 'parammap';
  }
  return 'bare';
}

export function looksLikeJsonSchema(v: JsonObject): boolean {
  return 'type' in v || 'properties' in v || '$schema' in v || 'anyOf' in v || 'oneOf' in v || 'allOf' in v || '$ref' in v;
}

function unwrapFunction(obj: JsonObject): { obj: JsonObject; prefix: (string | number)[] } {
  if (obj.type === 'function' && isObject(obj.function) && typeof obj.function.name === 'string') return { obj: obj.function, prefix: ['function'] };
  return { obj, prefix: [] };
}

export function normalizeTool(file: SourceFile, doc: number, index: number, site: ToolSite, policy: RequiredPolicy = 'flag'): Tool {
  const { obj, prefix } = unwrapFunction(site.obj);
  const base: JsonPath = [...site.path, ...prefix];
  const origins = new Map<object, Origin>();

  let name: string | null = null;
  let namePath: JsonPath;
  let nameTarget: 'key' | 'value';
  if (site.keyName !== undefined) {
    name = site.keyName;
    namePath = site.path;
    nameTarget = 'key';
  } else {
    name = typeof obj.name === 'string' ? obj.name : obj.name == null ? null : String(obj.name);
    namePath = 'name' in obj ? [...base, 'name'] : base;
    nameTarget = 'name' in obj ? 'value' : 'key';
  }

  let description: string | null = null;
  let descriptionPath: JsonPath | null = null;
  for (const k of DESC_KEYS) {
    if (k in obj) {
      const d = obj[k];
      description = typeof d === 'string' ? d : null;
      descriptionPath = [...base, k];
      break;
    }
  }

  let inputSchema: Schema | null = null;
  let schemaStyle: Tool['schemaStyle'] = 'none';
  let schemaKey: string | null = null;
  const schemaK = SCHEMA_KEYS.find((k) => isObject(obj[k]));
  if (schemaK) {
    schemaKey = schemaK;
    ({ schema: inputSchema } = fromJsonSchema(obj[schemaK] as Schema, [...base, schemaK], origins));
    schemaStyle = 'json-schema';
  } else {
    const pk = PARAM_KEYS.find((k) => isObject(obj[k]) || Array.isArray(obj[k]));
    if (pk) {
      schemaKey = pk;
      const v = obj[pk];
      const at: JsonPath = [...base, pk];
      if (Array.isArray(v)) {
        inputSchema = fromParamList(v, at, origins, policy);
        schemaStyle = 'param-list';
      } else if (isObject(v) && looksLikeJsonSchema(v)) {
        ({ schema: inputSchema } = fromJsonSchema(v, at, origins));
        schemaStyle = 'json-schema';
      } else if (isObject(v)) {
        inputSchema = fromParamMap(v, at, origins);
        schemaStyle = 'param-map';
      }
    }
  }

  const { annotations, annotationsPath } = readAnnotations(obj, base);
  const category = typeof obj.category === 'string' ? obj.category : null;

  return {
    file,
    doc,
    index,
    path: site.path,
    name,
    namePath,
    nameTarget,
    description,
    descriptionPath,
    inputSchema,
    schemaStyle,
    schemaKey,
    annotations,
    annotationsPath,
    category,
    group: site.group ?? commandGroup(obj, name),
    raw: obj,
    origins,
  };
}

/**
 * A JSON Schema written as such. The root is shallow-copied only when per-property boolean
 * `required` flags must be gathered into a `required` list; subschemas keep their identity.
 */
function fromJsonSchema(src: Schema, at: JsonPath, origins: Map<object, Origin>): { schema: Schema } {
  const props = src.properties;
  let schema = src;
  const keys: Record<string, JsonPath | null> = {};
  if (isObject(props) && !Array.isArray(src.required)) {
    const flagged = Object.keys(props).filter((k) => isObject(props[k]) && (props[k] as JsonObject).required === true);
    if (flagged.length > 0) {
      schema = { ...src, required: flagged };
      keys.required = null;
    }
  }
  origins.set(schema, { path: at, self: at, selfTarget: 'key', keys: Object.keys(keys).length ? keys : undefined });
  return { schema };
}

const LIST_META = new Set(['name', 'required', 'optional', 'desc']);

function fromParamList(list: unknown[], at: JsonPath, origins: Map<object, Origin>, policy: RequiredPolicy): Schema {
  const properties: JsonObject = {};
  const required: string[] = [];
  const hasOptionalFlags = policy === 'optional-flags' || list.some((p) => isObject(p) && 'optional' in p);
  list.forEach((p, i) => {
    if (!isObject(p) || typeof p.name !== 'string') return;
    const prop: JsonObject = {};
    const keys: Record<string, JsonPath | null> = {};
    for (const [k, v] of Object.entries(p)) {
      if (LIST_META.has(k)) continue;
      prop[k] = v;
    }
    if (!('description' in p) && 'desc' in p) {
      prop.description = p.desc;
      keys.description = [...at, i, 'desc'];
    }
    let isReq: boolean;
    if (policy === 'no-default') isReq = !('default' in p);
    else if (typeof p.required === 'boolean') isReq = p.required;
    else if (typeof p.optional === 'boolean') isReq = !p.optional;
    else isReq = hasOptionalFlags;
    if (isReq) required.push(p.name);
    const itemPath = [...at, i];
    origins.set(prop, { path: itemPath, self: [...itemPath, 'name'], selfTarget: 'value', keys: Object.keys(keys).length ? keys : undefined });
    // Duplicate names: the first wins, as most loaders of these formats do.
    // Own keys only: a parameter named `constructor` or `toString` is an ordinary name here.
    if (!Object.prototype.hasOwnProperty.call(properties, p.name)) properties[p.name] = prop;
  });
  const schema: Schema = { type: 'object', properties, required };
  origins.set(schema, { path: at, self: at, selfTarget: 'key', keys: { type: null, properties: at, required: null } });
  return schema;
}

function fromParamMap(map: JsonObject, at: JsonPath, origins: Map<object, Origin>): Schema {
  const properties: JsonObject = {};
  for (const [k, v] of Object.entries(map)) {
    const prop = isObject(v) ? v : typeof v === 'string' ? { description: v } : {};
    // The entry sits directly under the map (no `properties` level in the source).
    if (isObject(v)) origins.set(prop, { path: [...at, k], self: [...at, k], selfTarget: 'key' });
    else origins.set(prop, { path: [...at, k], self: [...at, k], selfTarget: 'key', keys: { description: [...at, k] } });
    properties[k] = prop;
  }
  const schema: Schema = { type: 'object', properties };
  origins.set(schema, { path: at, self: at, selfTarget: 'key', keys: { type: null, properties: at, required: null } });
  return schema;
}

/** MCP `annotations`, and the per-key `{value}` metadata some catalogues use instead. */
function readAnnotations(obj: JsonObject, base: JsonPath): { annotations: JsonObject; annotationsPath: JsonPath | null } {
  if (isObject(obj.annotations)) return { annotations: obj.annotations, annotationsPath: [...base, 'annotations'] };
  const meta = obj.toolMetadata;
  if (isObject(meta)) {
    const out: JsonObject = {};
    const map: Record<string, string> = { destructive: 'destructiveHint', readOnly: 'readOnlyHint', idempotent: 'idempotentHint', openWorld: 'openWorldHint' };
    for (const [k, v] of Object.entries(meta)) {
      const val = isObject(v) && 'value' in v ? v.value : v;
      out[map[k] ?? k] = val;
    }
    return { annotations: out, annotationsPath: [...base, 'toolMetadata'] };
  }
  return { annotations: {}, annotationsPath: null };
}

/**
 * Catalogues of CLI commands name each tool by its last word (`list`) and keep the full path in
 * `command` (`storage account list`): the rest of the path is the tool's group.
 */
function commandGroup(obj: JsonObject, name: string | null): string | null {
  const cmd = obj.command;
  if (typeof cmd !== 'string' || name === null) return null;
  const words = cmd.trim().split(/\s+/);
  return words.length > 1 && words[words.length - 1] === name ? words.slice(0, -1).join(' ') : null;
}
