/**
 * Finding the tools in a document, whatever the container: a single tool, a list, a
 * `{tools: [...]}` wrapper (with or without server metadata), a JSON-RPC `tools/list` response,
 * a map keyed by tool name, a multi-server dump, an MXCP tool file or eval suite. Detection is
 * by content; no file name is needed (it is only a tie-breaker).
 */
import { isObject, type JsonObject } from '../model';
import type { JsonPath } from '../types';
import { looksLikeJsonSchema, type RequiredPolicy, type ToolSite, toolShape, type ToolShape } from './normalize';

export type Container =
  | { kind: 'tools'; sites: ToolSite[]; family: Family; policy: RequiredPolicy }
  | { kind: 'eval'; path: JsonPath; data: JsonObject }
  | { kind: 'unknown'; reason: string };

/** Families that name the format (with the language): see `formatId`. */
export type Family = 'mcp' | 'function' | 'arglist' | 'rest' | 'roxygen' | 'mxcp' | 'toolmap';

const TOOL_HINT_KEYS = ['inputSchema', 'input_schema', 'parameters', 'parameter', 'arguments', 'annotations', 'toolMetadata', 'outputSchema'];
const ROXYGEN_KEYS = ['implementation_example', 'example_response', 'execution_time', 'requires_approval', 'dangerous', 'returns'];

function toolName(o: JsonObject): string | null {
  if (typeof o.name === 'string' && o.name.trim() !== '') return o.name;
  if (o.type === 'function' && isObject(o.function) && typeof o.function.name === 'string') return o.function.name;
  return null;
}

/** A tool object in a list that is known to hold tools. */
function isListedTool(v: unknown): v is JsonObject {
  return isObject(v) && toolName(v) !== null;
}

/** A tool object standing alone, which needs stronger evidence than a name. */
function isStandaloneTool(o: JsonObject): boolean {
  if (toolName(o) === null) return false;
  if (o.type === 'function' && isObject(o.function)) return true;
  const hasDesc = typeof o.description === 'string' || o.description === null;
  if (isObject(o.inputSchema) || isObject(o.input_schema)) return true;
  if (isObject(o.parameters) && (looksLikeJsonSchema(o.parameters) || hasDesc)) return hasDesc || 'implementation_example' in o;
  if (Array.isArray(o.parameters) || Array.isArray(o.arguments)) return hasDesc;
  return hasDesc && (isObject(o.annotations) || ROXYGEN_KEYS.some((k) => k in o));
}

function mostlyTools(list: unknown[], strict: boolean): boolean {
  if (list.length === 0) return false;
  let n = 0;
  for (const v of list) if (isListedTool(v) && (!strict || hasToolEvidence(v))) n++;
  return n / list.length >= 0.8;
}

function hasToolEvidence(o: JsonObject): boolean {
  return typeof o.description === 'string' || TOOL_HINT_KEYS.some((k) => k in o) || (o.type === 'function' && isObject(o.function));
}

function siteList(list: unknown[], at: JsonPath, group: string | null = null): ToolSite[] {
  const out: ToolSite[] = [];
  list.forEach((v, i) => {
    if (isListedTool(v)) out.push({ obj: v, path: [...at, i], group });
  });
  return out;
}

function familyOf(sites: ToolSite[]): Family {
  const counts = new Map<ToolShape | 'rest', number>();
  for (const s of sites) {
    const shape: ToolShape | 'rest' = typeof s.obj.method === 'string' && typeof s.obj.path === 'string' ? 'rest' : toolShape(s.obj);
    counts.set(shape, (counts.get(shape) ?? 0) + 1);
  }
  let best: ToolShape | 'rest' = 'bare';
  let bestN = -1;
  for (const [k, n] of counts) if (n > bestN || (n === bestN && k === 'mcp')) [best, bestN] = [k, n];
  if (best === 'rest') return 'rest';
  if (best === 'function') return 'function';
  if (best === 'arglist') return 'arglist';
  if (best === 'parammap') return 'rest';
  return 'mcp';
}

export function findTools(data: unknown, fileName: string): Container {
  if (data === null || data === undefined) return { kind: 'unknown', reason: 'the file is empty' };
  if (Array.isArray(data)) return fromArray(data, [], fileName);
  if (!isObject(data)) return { kind: 'unknown', reason: `the document is a single ${typeof data}, not a tool object or list` };
  return fromObject(data);
}

function fromArray(list: unknown[], at: JsonPath, fileName: string): Container {
  if (list.length === 0) return { kind: 'unknown', reason: 'the file is an empty list (no tools)' };
  // A list of servers, each with its tools (multi-server dumps), before plain tool lists:
  // a server entry has a name and a description too.
  const withTools = list.filter((s) => isObject(s) && (Array.isArray(s.tools) || isObject(s.tools)) && !isObject((s as JsonObject).inputSchema));
  if (withTools.length / list.length < 0.5 && (mostlyTools(list, true) || (mostlyTools(list, false) && /tool/i.test(fileName)))) {
    const sites = siteList(list, at);
    return { kind: 'tools', sites, family: familyOf(sites), policy: 'flag' };
  }
  // A list of servers, each with its tools (multi-server dumps).
  const sites: ToolSite[] = [];
  let servers = 0;
  list.forEach((srv, i) => {
    if (!isObject(srv)) return;
    const found = serverTools(srv, [...at, i]);
    if (found) {
      servers++;
      sites.push(...found);
    }
  });
  if (servers > 0 && servers / list.length >= 0.5) return { kind: 'tools', sites, family: familyOf(sites), policy: 'flag' };
  return { kind: 'unknown', reason: 'a list whose items are not tool objects (no `name` with a description or schema)' };
}

/** Tools of one server entry: `tools: [...]`, or `tools: {key: {tools: [...]}}`. */
function serverTools(srv: JsonObject, at: JsonPath): ToolSite[] | null {
  const group = typeof srv.name === 'string' ? srv.name : typeof srv.server_name === 'string' ? srv.server_name : null;
  const t = srv.tools;
  if (Array.isArray(t) && (t.length === 0 || mostlyTools(t, false))) return siteList(t, [...at, 'tools'], group);
  if (isObject(t)) {
    const out: ToolSite[] = [];
    let ok = false;
    for (const [k, sub] of Object.entries(t)) {
      if (isObject(sub) && Array.isArray(sub.tools)) {
        ok = true;
        const g = typeof sub.server_name === 'string' ? sub.server_name : group ?? k;
        out.push(...siteList(sub.tools, [...at, 'tools', k, 'tools'], g));
      }
    }
    return ok ? out : null;
  }
  return null;
}

function fromObject(o: JsonObject): Container {
  // MXCP: `mxcp: 1` with `tool:` or an eval suite.
  if ('mxcp' in o) {
    if ('suite' in o || ('tests' in o && !('tool' in o))) return { kind: 'eval', path: [], data: o };
    if (isObject(o.tool)) {
      const tool = o.tool;
      if (toolName(tool) === null) return { kind: 'unknown', reason: 'an MXCP file whose `tool` has no `name`' };
      return { kind: 'tools', sites: [{ obj: tool, path: ['tool'] }], family: 'mxcp', policy: 'no-default' };
    }
    for (const k of ['resource', 'prompt']) if (k in o) return { kind: 'unknown', reason: `an MXCP ${k} file, not a tool` };
    return { kind: 'unknown', reason: 'an MXCP file with neither `tool` nor `suite`' };
  }
  // JSON-RPC `tools/list` response.
  if (isObject(o.result) && Array.isArray(o.result.tools)) {
    const sites = siteList(o.result.tools, ['result', 'tools']);
    if (sites.length === 0 && o.result.tools.length > 0) return { kind: 'unknown', reason: '`result.tools` holds no tool objects' };
    return { kind: 'tools', sites, family: familyOf(sites), policy: 'flag' };
  }
  // A single tool.
  if (isStandaloneTool(o)) {
    // Seed 001's generator writes one tool per YAML file with `parameters` as JSON Schema and
    // seed-specific fields; `category` alone is enough when the rest is absent.
    const roxygen = !('inputSchema' in o) && (ROXYGEN_KEYS.some((k) => k in o) || ('category' in o && isObject(o.parameters)));
    return { kind: 'tools', sites: [{ obj: o, path: [] }], family: roxygen ? 'roxygen' : familyOf([{ obj: o, path: [] }]), policy: 'flag' };
  }
  // `{tools: [...]}`, possibly beside server metadata; or another key holding a tool list.
  const listKeys = Object.keys(o).filter((k) => Array.isArray(o[k]));
  const preferred = ['tools', 'functions', 'consolidated_tools', 'results'];
  listKeys.sort((a, b) => rank(a) - rank(b));
  function rank(k: string): number {
    const i = preferred.indexOf(k);
    return i < 0 ? preferred.length : i;
  }
  for (const k of listKeys) {
    const list = o[k] as unknown[];
    const named = preferred.includes(k) || /tool|function/i.test(k);
    if (list.length === 0 && k === 'tools') return { kind: 'tools', sites: [], family: 'mcp', policy: 'flag' };
    if (mostlyTools(list, !named)) {
      const sites = siteList(list, [k], serverName(o));
      let family = familyOf(sites);
      if (family === 'arglist' && typeof o.package === 'string') family = 'roxygen';
      return { kind: 'tools', sites, family, policy: 'flag' };
    }
  }
  // A server entry (`{name, tools: {...}}`).
  const srv = serverTools(o, []);
  if (srv && srv.length > 0) return { kind: 'tools', sites: srv, family: familyOf(srv), policy: 'flag' };
  // A map keyed by tool name: `{tool_name: {description, annotations|inputSchema|…}}`.
  const entries = Object.entries(o);
  if (entries.length > 0 && !('$schema' in o)) {
    let n = 0;
    for (const [k, v] of entries) if (/^[\w.:-]{1,128}$/.test(k) && isObject(v) && typeof v.description === 'string' && !('name' in v && typeof v.name === 'string' && v.name !== k) && TOOL_HINT_KEYS.concat(['category', 'title', 'summary']).some((h) => h in v)) n++;
    if (n / entries.length >= 0.8) {
      const sites: ToolSite[] = entries.filter(([, v]) => isObject(v)).map(([k, v]) => ({ obj: v as JsonObject, path: [k], keyName: k }));
      return { kind: 'tools', sites, family: 'toolmap', policy: 'flag' };
    }
  }
  if ('$schema' in o || 'definitions' in o || '$defs' in o) return { kind: 'unknown', reason: 'a JSON Schema document, not a tool catalogue' };
  if (typeof o.name === 'string') return { kind: 'unknown', reason: 'an object with a `name` but no description, input schema or parameters' };
  return { kind: 'unknown', reason: 'no tool objects found (expected `name` with `description` and `inputSchema` or `parameters`, or a list of them)' };
}

/** The server a `{server_info|server, tools}` dump describes, if it says. */
function serverName(o: JsonObject): string | null {
  for (const k of ['server_info', 'serverInfo', 'server']) {
    const v = o[k];
    if (typeof v === 'string' && v.trim()) return v;
    if (isObject(v) && typeof v.name === 'string') return v.name;
  }
  return null;
}

export function formatId(family: Family, lang: 'yaml' | 'json'): string {
  switch (family) {
    case 'mxcp':
      return 'mxcp-tool';
    case 'roxygen':
      return 'roxygen-yaml';
    default:
      return `${family}-${lang}`;
  }
}
