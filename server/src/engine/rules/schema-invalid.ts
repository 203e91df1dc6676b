import type { ErrorObject } from 'ajv';
import { isObject, type Schema, type Tool } from '../model';
import { rootOrigin, keywordLoc, walkSchema, paramOfSchemaPath } from '../schema';
import type { JsonPath } from '../types';
import { draftOf, getAjv, plainlyValidSchema } from '../util/ajv';
import { defineRule, type RuleContext } from './api';
import { jsonType } from './util';

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

export default defineRule({
  meta: {
    id: 'schema-invalid',
    description: 'Require input schemas that are valid JSON Schema with an object root',
    severity: 'error',
    recommended: true,
    fixable: 'never',
    hasSuggestions: false,
    scope: 'tool',
    messages: {
      rootType: 'The input schema\'s root must be `type: object`; it is {{actual}}',
      rootTypeMissing: 'The input schema\'s root has no `type`; MCP requires `type: object`',
      invalid: '{{message}}',
      unknownDraft: '`$schema` {{declared}} is not a draft this linter knows; the schema was checked as draft-07',
      remoteRef: '`$ref` points outside the document ({{ref}}); it is never fetched, and clients that do not resolve it reject the schema',
    },
    docs: {
      what: 'Validates every input schema against the JSON Schema meta-schema (draft-07 by default; 2019-09 or 2020-12 when `$schema` says so) and requires the root to be `type: object`, as MCP does. Parameter lists of other formats are checked parameter by parameter. A `$ref` that is not a fragment of the same document (`https://…`, `other.json#/x`) is reported as a warning: the linter never fetches it, so the schema it names is not checked either.',
      why: 'Clients and model APIs validate tool schemas before use. An invalid schema (a misspelt type, `required: true` on a property, a non-list `enum`) gets the tool dropped or the whole request rejected, and the agent never sees the tool; when it does get through, arguments are validated against something other than what the author meant.',
    },
  },
  checkTool(tool, ctx) {
    const root = tool.inputSchema;
    const origin = rootOrigin(tool);
    if (!root || !origin) return;
    if (tool.schemaStyle === 'json-schema') {
      const rt = root.type;
      if (rt === undefined) {
        if (!('$ref' in root) && !('anyOf' in root) && !('oneOf' in root) && !('allOf' in root)) ctx.report({ messageId: 'rootTypeMissing', tool, loc: { path: origin.self, target: 'key' } });
      } else if (rt !== 'object') {
        ctx.report({ messageId: 'rootType', data: { actual: '`' + JSON.stringify(rt) + '`' }, tool, loc: keywordLoc(origin, 'type', 'value') });
      }
      const { draft, declared, known } = draftOf(root);
      if (!known) ctx.report({ messageId: 'unknownDraft', data: { declared: String(declared) }, tool, loc: keywordLoc(origin, '$schema', 'value'), weak: true });
      // A draft-3 style `required: true` gathered by the loader is not in the data: validate the source.
      const source = origin.keys?.required === null ? (tool.raw[tool.schemaKey!] as Schema) : root;
      check(tool, ctx, source, origin.path, draft, known, null);
    } else if (tool.schemaStyle === 'param-list') {
      walkSchema(tool, (v) => {
        if (v.via !== 'properties') return;
        check(tool, ctx, v.schema, v.origin.path, 'draft-07', true, v.param, v.origin.keys);
        return false;
      });
    }
  },
});

function check(tool: Tool, ctx: RuleContext, schema: Schema, base: JsonPath, draft: 'draft-07' | '2019-09' | '2020-12', known: boolean, param: string | null, keys?: Record<string, JsonPath | null>): void {
  for (const { ref, segs } of remoteRefs(schema)) {
    const inner = paramOfSchemaPath(segs);
    const parameter = param && inner ? `${param}.${inner}` : (param ?? inner);
    ctx.report({ messageId: 'remoteRef', data: { ref: '`' + ref.slice(0, 80) + '`' }, tool, parameter, loc: { path: [...base, ...segs, '$ref'], target: 'value' }, weak: true });
  }
  let target: Schema = schema;
  if (!known && '$schema' in schema) {
    target = { ...schema };
    delete target.$schema;
  }
  // Most schemas are plainly valid, which spares compiling the meta-schema's validator.
  if (draft === 'draft-07' && plainlyValidSchema(target, 0, true)) return;
  const ajv = getAjv(draft);
  let ok: boolean;
  try {
    ok = ajv.validateSchema(target) as boolean;
  } catch {
    return;
  }
  if (ok || !ajv.errors) return;
  for (const e of pickErrors(ajv.errors)) {
    const segs = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const value = valueAt(schema, segs);
    const keyword = segs[segs.length - 1] ?? '';
    let path: JsonPath = [...base, ...segs.map((s) => (/^\d+$/.test(s) && Array.isArray(parentAt(schema, segs)) ? Number(s) : s))];
    if (keys && segs.length === 1 && keys[segs[0]]) path = keys[segs[0]]!;
    const inner = paramOfSchemaPath(segs);
    const parameter = param && inner ? `${param}.${inner}` : (param ?? inner);
    ctx.report({ messageId: 'invalid', data: { message: describe(e, keyword, value, segs) }, tool, parameter, loc: { path, target: segs.length ? 'value' : 'key' } });
  }
}

/** Keywords whose values are data, not schemas: a `$ref` key inside them is not a reference. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);

/**
 * Every `$ref` whose value is not a fragment of this document (`#…`), with the path of the schema
 * holding it. Found by walking the data, never by resolving: nothing is fetched.
 */
function remoteRefs(root: unknown): { ref: string; segs: (string | number)[] }[] {
  const out: { ref: string; segs: (string | number)[] }[] = [];
  const seen = new Set<unknown>();
  // One path stack for the whole walk (copied only for a reference found): most of a schema is
  // leaves, which are not even entered.
  const segs: (string | number)[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 1000 || v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (x === null || typeof x !== 'object') continue;
        segs.push(i);
        walk(x, depth + 1);
        segs.pop();
      }
      return;
    }
    const o = v as Record<string, unknown>;
    const parentKey = segs[segs.length - 1];
    // Under `properties` (and the like) keys are names, so a property called `$ref` is not one.
    const namesHere = parentKey === 'properties' || parentKey === 'patternProperties' || parentKey === 'definitions' || parentKey === '$defs' || parentKey === 'dependentSchemas';
    if (!namesHere && typeof o.$ref === 'string' && !o.$ref.startsWith('#')) out.push({ ref: o.$ref, segs: segs.slice() });
    for (const k of Object.keys(o)) {
      if (DATA_KEYWORDS.has(k) && !namesHere) continue;
      const x = o[k];
      if (x === null || typeof x !== 'object') continue;
      segs.push(k);
      walk(x, depth + 1);
      segs.pop();
    }
  };
  walk(root, 0);
  return out;
}

function parentAt(root: unknown, segs: string[]): unknown {
  return valueAt(root, segs.slice(0, -1));
}

function valueAt(root: unknown, segs: string[]): unknown {
  let v = root;
  for (const s of segs) {
    if (Array.isArray(v)) v = v[Number(s)];
    else if (isObject(v)) v = v[s];
    else return undefined;
  }
  return v;
}

/** One error per place: the most specific one (an `enum` or `type` beats the `anyOf` around it). */
function pickErrors(errors: ErrorObject[]): ErrorObject[] {
  const rank = (e: ErrorObject): number => (e.keyword === 'enum' ? 0 : e.keyword === 'type' ? 1 : e.keyword === 'anyOf' || e.keyword === 'oneOf' ? 9 : 2);
  const best = new Map<string, ErrorObject>();
  for (const e of errors) {
    if (e.keyword === 'if' || e.keyword === '$ref') continue;
    const prev = best.get(e.instancePath);
    if (!prev || rank(e) < rank(prev)) best.set(e.instancePath, e);
  }
  // Drop an error whose place is inside another reported place (the outer one explains it).
  return [...best.values()];
}

function describe(e: ErrorObject, keyword: string, value: unknown, segs: string[]): string {
  const where = segs.length ? `\`${keyword}\`` : 'The schema';
  const shown = JSON.stringify(value)?.slice(0, 60) ?? 'undefined';
  if (keyword === 'type' && (e.keyword === 'enum' || e.keyword === 'type' || e.keyword === 'anyOf')) {
    return `\`type\` must be one of ${TYPES.join(', ')} (or a list of them); got ${shown}`;
  }
  if (keyword === 'required' && typeof value === 'boolean') {
    return '`required` must be a list of property names on the enclosing object; `required: ' + String(value) + '` on a property is draft-3 style that current validators and clients ignore';
  }
  if (e.keyword === 'type') return `${where} must be ${article(String(e.params.type))}; got ${value === undefined ? 'nothing (the value is missing)' : `${jsonType(value)} ${shown}`}`;
  if (e.keyword === 'enum') return `${where} must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}; got ${shown}`;
  if (e.keyword === 'uniqueItems') return `${where} must not repeat items (items ${e.params.j} and ${e.params.i} are the same)`;
  if (e.keyword === 'minItems') return `${where} must not be empty`;
  return `${where} ${e.message ?? 'is invalid'}`;
}

function article(t: string): string {
  const s = t.replace(/,/g, ' or ');
  return /^[aeio]/.test(s) ? `an ${s}` : `a ${s}`;
}
