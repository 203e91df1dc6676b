import { isObject, type Schema, type Tool } from '../model';
import { childOrigin, isRequiredIn, keywordInSource, keywordLoc, schemaTypes, selfLoc, walkSchema, type SchemaVisit } from '../schema';
import type { JsonPath } from '../types';
import { defineRule, type EditOp, type Fix, type RuleContext } from './api';

/**
 * OpenAI Structured Outputs, which `strict: true` function calling uses, as documented in the
 * "Supported schemas" section of the Structured Outputs guide (read 2026-11-21).
 */
const UNSUPPORTED = ['allOf', 'not', 'dependentRequired', 'dependentSchemas', 'if', 'then', 'else'];
/**
 * Not listed as unsupported, but not among the supported ones either: OpenAI's own Agents SDK
 * rewrites `oneOf` to `anyOf` before sending a strict schema ("oneOf is not supported").
 */
const REWRITTEN = ['oneOf'];
const MAX_PROPERTIES = 5000;
const MAX_NESTING = 10;
const MAX_ENUM_VALUES = 1000;
const MAX_STRING_TOTAL = 120_000;
const LONG_ENUM = 250;
const LONG_ENUM_CHARS = 15_000;

export default defineRule({
  meta: {
    id: 'schema-strict-incompatible',
    description: 'Require input schemas that OpenAI strict mode (Structured Outputs) accepts',
    severity: 'warning',
    recommended: false,
    fixable: 'sometimes',
    hasSuggestions: false,
    scope: 'tool',
    messages: {
      optional: 'Property `{{param}}` is optional; OpenAI strict mode needs every property in `required` (optional ones nullable)',
      additionalProperties: '{{what}} has no `additionalProperties: false`, which OpenAI strict mode requires',
      openObject: '{{what}} accepts keys it does not declare; OpenAI strict mode needs `additionalProperties: false`',
      rootType: 'Input schema is not `type: object`, which OpenAI strict mode requires at the root',
      rootCombinator: '`anyOf` at the root of the input schema is not allowed in OpenAI strict mode',
      keyword: '`{{keyword}}` is not supported in OpenAI strict mode',
      limit: 'Input schema has {{count}} {{what}}, over the limit of {{max}} in OpenAI strict mode',
      depth: '`{{param}}` is nested {{depth}} objects deep, over the limit of {{max}} levels in OpenAI strict mode',
    },
    docs: {
      what:
        'Checks each input schema written as JSON Schema against the subset that OpenAI\'s strict mode accepts (`strict: true` on a function, which uses Structured Outputs). As documented in the Structured Outputs guide, "Supported schemas" (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas, read 2026-11-21):\n\n' +
        '- "All fields must be required": every property is listed in `required`; an optional one is emulated "by using a union type with `null`".\n' +
        '- "`additionalProperties: false` must always be set in objects".\n' +
        '- "Root objects must not be `anyOf` and must be an object".\n' +
        '- Unsupported keywords: "Composition: `allOf`, `not`, `dependentRequired`, `dependentSchemas`, `if`, `then`, `else`". `oneOf` is not in the supported list either; OpenAI\'s Agents SDK rewrites it to `anyOf` before it sends a strict schema (`src/agents/strict_schema.py`: "oneOf is not supported by OpenAI\'s structured outputs in nested contexts").\n' +
        '- Size: "up to 5000 object properties total, with up to 10 levels of nesting"; "total string length of all property names, definition names, enum values, and const values cannot exceed 120,000 characters"; "up to 1000 enum values across all enum properties"; for one string enum with more than 250 values, their total length cannot exceed 15,000 characters. Nesting counts the objects below the root.\n\n' +
        'Keywords the guide lists only for fine-tuned models (`minLength`, `pattern`, …) are not reported. Tools whose parameters are not written as JSON Schema (parameter lists, REST parameter maps) are skipped: their schema is built by the server at run time.',
      why: 'With `strict: true` the API constrains the model\'s output to the schema, so the arguments always parse and match it; but a schema outside the subset is rejected with an error, the request fails and no tool in it can be called. A client that sends a server\'s tools in strict mode fails on the first such tool; one that turns strict mode off loses the guarantee, and the agent is back to arguments that may not validate.',
      fix: 'Adds `type: object` to an input schema without a `type`. Makes an optional property required and nullable: adds it to `required` and `null` to its `type` (`type: [string, "null"]`), to its `enum` when it has one, or a `{type: "null"}` branch to its `anyOf`; adds `additionalProperties: false` to an object that declares its properties (or to the root). This changes the contract: the model now sends `null` where it used to leave the field out, so the server must read `null` as "not given". Properties typed only by `$ref`, `const` or a combinator other than `anyOf`, free-form objects, and the other findings are left to you.',
    },
  },
  checkTool(tool, ctx) {
    if (tool.schemaStyle !== 'json-schema') return;
    const counts = { properties: 0, enumValues: 0, chars: 0 };
    const fixes = new Map<object, Fix | null>();
    let deep: { v: SchemaVisit; depth: number } | null = null;
    walkSchema(tool, (v) => {
      const s = v.schema;
      for (const kw of [...UNSUPPORTED, ...REWRITTEN]) {
        if (kw in s && keywordInSource(v.origin, kw)) report(ctx, tool, v, 'keyword', { keyword: kw }, keywordLoc(v.origin, kw));
      }
      if (v.via === 'root') checkRoot(ctx, tool, v);
      if (v.via === 'properties' && v.parent && isObjectSchema(v.parent.schema) && !v.required) {
        report(ctx, tool, v, 'optional', { param: v.param ?? '' }, selfLoc(v.origin), optionalFix(tool, v, fixes));
      }
      if (isObjectSchema(s)) {
        checkObject(ctx, tool, v);
        const depth = objectDepth(v);
        if (depth > MAX_NESTING && (deep === null || depth > deep.depth)) deep = { v, depth };
      }
      if (v.via === 'defs') counts.chars += defName(v).length;
      tally(s, counts);
      const longEnum = longEnumChars(s);
      if (longEnum !== null) report(ctx, tool, v, 'limit', { count: longEnum, what: `characters in one enum of ${(s.enum as unknown[]).length} values`, max: LONG_ENUM_CHARS }, keywordLoc(v.origin, 'enum'));
    });
    if (deep !== null) {
      const { v, depth } = deep as { v: SchemaVisit; depth: number };
      report(ctx, tool, v, 'depth', { param: v.param ?? '', depth, max: MAX_NESTING }, selfLoc(v.origin));
    }
    const root = tool.inputSchema!;
    const rootLoc = selfLoc(tool.origins.get(root)!);
    const over = (count: number, what: string, max: number): void => {
      if (count > max) ctx.report({ messageId: 'limit', data: { count, what, max }, tool, parameter: null, loc: rootLoc });
    };
    over(counts.properties, 'object properties', MAX_PROPERTIES);
    over(counts.enumValues, 'enum values', MAX_ENUM_VALUES);
    over(counts.chars, 'characters of property names, enum and const values', MAX_STRING_TOTAL);
  },
});

type Ctx = RuleContext<Record<string, unknown>>;

function report(ctx: Ctx, tool: Tool, v: SchemaVisit, messageId: string, data: Record<string, string | number>, loc: ReturnType<typeof selfLoc>, fix: Fix | null = null): void {
  ctx.report({ messageId, data, tool, parameter: v.param, loc, fix });
}

function checkRoot(ctx: Ctx, tool: Tool, v: SchemaVisit): void {
  const s = v.schema;
  if (Array.isArray(s.anyOf) && keywordInSource(v.origin, 'anyOf')) report(ctx, tool, v, 'rootCombinator', {}, keywordLoc(v.origin, 'anyOf'));
  const types = schemaTypes(s);
  if (types.length === 1 && types[0] === 'object') return;
  if ('type' in s) {
    report(ctx, tool, v, 'rootType', {}, keywordLoc(v.origin, 'type', 'value'));
    return;
  }
  // Tool arguments are always an object, so saying so changes nothing for a valid call.
  const fix: Fix | null = keywordInSource(v.origin, 'type') ? { title: 'Add `type: object`', ops: [{ op: 'set', path: [...v.origin.path, 'type'], value: 'object' }] } : null;
  report(ctx, tool, v, 'rootType', {}, selfLoc(v.origin), fix);
}

function checkObject(ctx: Ctx, tool: Tool, v: SchemaVisit): void {
  const s = v.schema;
  const what = v.param === null ? 'Input schema' : `Object \`${v.param}\``;
  if (s.additionalProperties === false) return;
  if ('additionalProperties' in s) {
    report(ctx, tool, v, 'openObject', { what }, keywordLoc(v.origin, 'additionalProperties'));
    return;
  }
  // A free-form object (no declared properties) would only accept `{}` once closed.
  const declares = isObject(s.properties) || v.via === 'root';
  const fix: Fix | null =
    declares && keywordInSource(v.origin, 'additionalProperties')
      ? { title: 'Add `additionalProperties: false`', ops: [{ op: 'set', path: [...v.origin.path, 'additionalProperties'], value: false }] }
      : null;
  report(ctx, tool, v, declares ? 'additionalProperties' : 'openObject', { what }, selfLoc(v.origin), fix);
}

/**
 * Makes the optional properties of an object required and nullable: adds them to `required` and
 * `null` to their types, skipping those whose shape gives no safe place for `null`. Every finding
 * of the object carries the same fix, so `--fix` rewrites the whole object in one pass (fixes that
 * each add one name to the same list would collide and take a pass per property).
 */
function optionalFix(tool: Tool, v: SchemaVisit, cache: Map<object, Fix | null>): Fix | null {
  const parent = v.parent!;
  if (v.name === null || nullableOps(v) === null) return null;
  if (!cache.has(parent.schema)) cache.set(parent.schema, objectFix(tool, parent));
  return cache.get(parent.schema)!;
}

function objectFix(tool: Tool, parent: SchemaVisit): Fix | null {
  const req = parent.schema.required;
  const reqPath = [...parent.origin.path, 'required'];
  if (req !== undefined && !(Array.isArray(req) && keywordInSource(parent.origin, 'required'))) return null;
  const names: string[] = [];
  const ops: EditOp[] = [];
  for (const child of propertyVisits(tool, parent)) {
    if (child.required || child.name === null) continue;
    const more = nullableOps(child);
    if (more === null) continue;
    names.push(child.name);
    ops.push(...more);
  }
  if (names.length === 0) return null;
  const reqOps: EditOp[] = Array.isArray(req) && req.length > 0 ? names.map((n) => ({ op: 'addItem', path: reqPath, value: n })) : [{ op: 'set', path: reqPath, value: [...(Array.isArray(req) ? req : []), ...names] }];
  const what = parent.param === null ? 'the input schema' : `\`${parent.param}\``;
  const title = names.length === 1 ? `Make \`${names[0]}\` required and nullable` : `Make the optional properties of ${what} required and nullable`;
  return { title, ops: [...reqOps, ...ops] };
}

/** The property visits of an object schema, as `walkSchema` makes them. */
function propertyVisits(tool: Tool, parent: SchemaVisit): SchemaVisit[] {
  const props = parent.schema.properties;
  if (!isObject(props)) return [];
  const visible = Array.isArray(parent.schema.visible) ? new Set(parent.schema.visible) : null;
  const out: SchemaVisit[] = [];
  for (const name of Object.keys(props)) {
    const ps = props[name];
    if (!isObject(ps) || (visible && !visible.has(name))) continue;
    out.push({
      schema: ps,
      origin: childOrigin(tool, ps, parent.origin, ['properties', name]),
      param: parent.param ? `${parent.param}.${name}` : name,
      name,
      parent,
      via: 'properties',
      required: isRequiredIn(parent.schema, name, ps),
      depth: parent.depth + 1,
    });
  }
  return out;
}

/** Ops that let the property take `null`; null when its shape gives no safe place for it. */
function nullableOps(v: SchemaVisit): EditOp[] | null {
  const s = v.schema;
  const at = (kw: string): JsonPath => [...v.origin.path, kw];
  if ('const' in s || '$ref' in s) return null;
  const t = s.type;
  const ops: EditOp[] = [];
  if (typeof t === 'string' || Array.isArray(t)) {
    if (!keywordInSource(v.origin, 'type')) return null;
    if (typeof t === 'string' && t !== 'null') ops.push({ op: 'set', path: at('type'), value: [t, 'null'] });
    else if (Array.isArray(t) && !t.includes('null')) ops.push({ op: 'addItem', path: at('type'), value: 'null' });
    // A nullable type with an `enum` that leaves `null` out still rejects `null`.
    if (Array.isArray(s.enum) && !s.enum.includes(null)) {
      if (!keywordInSource(v.origin, 'enum')) return null;
      ops.push({ op: 'addItem', path: at('enum'), value: null });
    }
    return ops;
  }
  if (Array.isArray(s.anyOf) && t === undefined && !('oneOf' in s) && !('allOf' in s) && !('enum' in s)) {
    if (!keywordInSource(v.origin, 'anyOf')) return null;
    const hasNull = s.anyOf.some((b) => isObject(b) && (b.type === 'null' || (Array.isArray(b.type) && b.type.includes('null'))));
    if (!hasNull) ops.push({ op: 'addItem', path: at('anyOf'), value: { type: 'null' } });
    return ops;
  }
  return null;
}

function isObjectSchema(s: Schema): boolean {
  const types = schemaTypes(s);
  if (types.length > 0) return types.includes('object');
  return isObject(s.properties) && !Array.isArray(s.anyOf) && !Array.isArray(s.oneOf);
}

/** Objects below the root on the way to this one, itself included (definitions are not placed). */
function objectDepth(v: SchemaVisit): number {
  let depth = 0;
  for (let p: SchemaVisit | null = v; p && p.via !== 'root'; p = p.parent) {
    if (p.via === 'defs') return 0;
    if (isObjectSchema(p.schema)) depth++;
  }
  return depth;
}

function defName(v: SchemaVisit): string {
  const path = v.origin.path;
  return String(path[path.length - 1] ?? '');
}

function tally(s: Schema, counts: { properties: number; enumValues: number; chars: number }): void {
  if (isObject(s.properties)) {
    const names = Object.keys(s.properties);
    counts.properties += names.length;
    counts.chars += names.reduce((n, k) => n + k.length, 0);
  }
  if (Array.isArray(s.enum)) {
    counts.enumValues += s.enum.length;
    counts.chars += s.enum.reduce((n: number, x) => n + (typeof x === 'string' ? x.length : 0), 0);
  }
  if (typeof s.const === 'string') counts.chars += s.const.length;
}

/** Total length of a string enum of more than 250 values, when it is over the limit. */
function longEnumChars(s: Schema): number | null {
  const e = s.enum;
  if (!Array.isArray(e) || e.length <= LONG_ENUM || !e.every((x) => typeof x === 'string')) return null;
  const total = (e as string[]).reduce((n, x) => n + x.length, 0);
  return total > LONG_ENUM_CHARS ? total : null;
}
