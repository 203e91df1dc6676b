/**
 * The prompt an agent sees. Two layouts:
 * - `markdown`: the layout seed 000 proposes for agent frameworks — a heading with the name, the
 *   description, then one line per parameter with `(required)`, its type (enum values as
 *   `"a" | "b"`, nullable unions flattened) and its description; server-managed fields left out;
 * - `tools-list`: the MCP `tools/list` JSON the model receives (normalised input schema).
 * Plus an approximate token count (about four characters a token, the usual rule of thumb for
 * English and JSON with current tokenizers).
 */
import { isObject, type Schema, type Tool } from './model';
import { walkSchema, type SchemaVisit } from './schema';

export interface RenderOptions {
  /** Leave out parameters that the server assigns (decided by the caller's rule logic). */
  hide?: (tool: Tool, v: SchemaVisit) => boolean;
}

export interface RenderedParam {
  name: string;
  required: boolean;
  type: string;
  description: string;
  line: string;
  /** Constraints that stay in the schema and never reach a prompt of this layout. */
  hidden: string[];
}

export function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Human-readable type of a schema, as the seed's `_schema_type` formats it (and a bit more). */
export function schemaTypeLabel(s: Schema, depth = 0): string {
  if (depth > 8) return 'any';
  if (Array.isArray(s.enum)) return s.enum.filter((v) => v !== null).map((v) => JSON.stringify(v)).join(' | ') || 'null';
  if ('const' in s) return JSON.stringify(s.const);
  for (const comb of ['anyOf', 'oneOf'] as const) {
    const list = s[comb];
    if (Array.isArray(list)) {
      const parts = list.filter((o) => isObject(o) && o.type !== 'null').map((o) => schemaTypeLabel(o as Schema, depth + 1));
      return [...new Set(parts)].join(' | ') || 'any';
    }
  }
  const t = s.type;
  const types = (Array.isArray(t) ? t : typeof t === 'string' ? [t] : []).filter((x) => x !== 'null') as string[];
  if (types.length === 0) return isObject(s.properties) ? 'object' : 'any';
  return types.map((x) => (x === 'array' && isObject(s.items) ? `array of ${schemaTypeLabel(s.items as Schema, depth + 1)}` : x)).join(' | ');
}

const PROMPT_KEYS = new Set(['type', 'enum', 'description', 'anyOf', 'oneOf', 'items', 'title', 'properties', 'required']);
const CONSTRAINTS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'format', 'minItems', 'maxItems', 'uniqueItems', 'multipleOf', 'default', 'examples', 'const', 'additionalProperties', 'minProperties', 'maxProperties'];

function hiddenConstraints(s: Schema): string[] {
  const out: string[] = [];
  const visit = (x: Schema, prefix: string): void => {
    for (const k of CONSTRAINTS) if (k in x && !PROMPT_KEYS.has(k)) out.push(`${prefix}${k}: ${JSON.stringify(x[k])}`);
    for (const comb of ['anyOf', 'oneOf'] as const) if (Array.isArray(x[comb])) for (const b of x[comb] as unknown[]) if (isObject(b)) visit(b, prefix);
    if (isObject(x.items)) visit(x.items, prefix + 'items.');
  };
  visit(s, '');
  if (isObject(s.properties)) out.push(`nested properties: ${Object.keys(s.properties).join(', ')}`);
  else if (isObject(s.items) && isObject(s.items.properties)) out.push(`properties of each item: ${Object.keys(s.items.properties).join(', ')}`);
  return out;
}

export function renderParams(tool: Tool, opts: RenderOptions = {}): RenderedParam[] {
  const out: RenderedParam[] = [];
  walkSchema(tool, (v) => {
    if (v.via === 'root') return;
    if (v.via !== 'properties' || v.depth !== 1) return false;
    if (opts.hide?.(tool, v)) return false;
    const s = v.schema;
    const description = typeof s.description === 'string' ? s.description.replace(/\s+/g, ' ').trim() : '';
    const type = schemaTypeLabel(s);
    const line = `- ${v.name}${v.required ? ' (required)' : ''} [${type}]: ${description}`;
    out.push({ name: v.name ?? '', required: v.required, type, description, line, hidden: hiddenConstraints(s) });
    return false;
  });
  return out;
}

/** One tool in the markdown layout. */
export function renderTool(tool: Tool, opts: RenderOptions = {}): string {
  let text = `### ${tool.name ?? '(unnamed)'}\n${tool.description?.trim() || 'No description'}`;
  const params = renderParams(tool, opts);
  if (params.length) text += '\n\nParameters:\n' + params.map((p) => p.line).join('\n');
  return text;
}

export function renderCatalog(tools: Tool[], opts: RenderOptions = {}): string {
  if (tools.length === 0) return '(no tools available)';
  return tools.map((t) => renderTool(t, opts)).join('\n\n');
}

/** The MCP `tools/list` result the model receives. */
export function toolsListJson(tools: Tool[]): string {
  return JSON.stringify(
    {
      tools: tools.map((t) => {
        const o: Record<string, unknown> = { name: t.name };
        if (t.description !== null) o.description = t.description;
        o.inputSchema = t.inputSchema ?? { type: 'object' };
        if (Object.keys(t.annotations).length) o.annotations = t.annotations;
        return o;
      }),
    },
    null,
    2,
  );
}
