/**
 * One Ajv per process, created on first use (start-up stays fast when no schema is checked).
 * Validators are compiled once and cached by schema object.
 */
import type Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import { setFlagsFromString } from 'node:v8';
import { isObject } from '../model';

export type Draft = 'draft-07' | '2019-09' | '2020-12';

const instances = new Map<Draft, Ajv>();

export function getAjv(draft: Draft = 'draft-07'): Ajv {
  let a = instances.get(draft);
  if (!a) {
    // `loadSchema` stays unset: a remote `$ref` is never fetched (the schema then does not compile on its own).
    const opts = { strict: false, allErrors: true, validateSchema: false, addUsedSchema: false, logger: false as const, validateFormats: true, code: { regExp: safeRegExp } };
    // Loaded here, not at start-up: a run whose schemas are all plain never needs Ajv.
    const Class: typeof Ajv =
      draft === '2020-12' ? (require('ajv/dist/2020') as typeof import('ajv/dist/2020')).default : draft === '2019-09' ? (require('ajv/dist/2019') as typeof import('ajv/dist/2019')).default : (require('ajv') as typeof import('ajv')).default;
    a = new Class(opts);
    (require('ajv-formats') as typeof import('ajv-formats')).default(a);
    linearUniqueItems(a);
    instances.set(draft, a);
  }
  return a;
}

/**
 * Regex engine for schema `pattern`s, which come from the files being linted: a pattern that can
 * backtrack catastrophically (`^(a+)+$`) must not hang the linter on a long `default` or example.
 * Patterns without a quantified group that itself holds a quantifier or an alternation cannot
 * backtrack exponentially and keep JavaScript's engine (and the `u` flag's semantics). The others
 * run on V8's linear-time engine (the `l` flag; it has no `u` mode, so astral characters count as
 * two there); a pattern that engine cannot run (backreferences, lookarounds, `\p{…}`) is not
 * applied at all: every value passes it, which loses a check but never hangs.
 */
export function safeRegExp(pattern: string, flags: string): { test(s: string): boolean } {
  const native = new RegExp(pattern, flags);
  if (!mayBacktrack(pattern)) return native;
  if (linearAvailable()) {
    try {
      return new RegExp(pattern, flags.replace('u', '') + 'l');
    } catch {
      /* not linear-time executable: fall through */
    }
  }
  return { test: () => true };
}
safeRegExp.code = 'new RegExp';

let linear: boolean | undefined;
function linearAvailable(): boolean {
  if (linear === undefined) {
    try {
      // Only makes the `l` flag available; other regular expressions are unaffected.
      setFlagsFromString('--enable-experimental-regexp-engine');
      new RegExp('a', 'l');
      linear = true;
    } catch {
      linear = false;
    }
  }
  return linear;
}

/** A backreference, or a group quantified by `*`, `+` or `{…}` whose body holds a quantifier or `|` (star height ≥ 2, or a repeated alternation). */
export function mayBacktrack(pattern: string): boolean {
  const stack: { inner: boolean }[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      // A backreference can make matching super-linear on its own.
      if (/[1-9k]/.test(pattern[i + 1] ?? '')) return true;
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') stack.push({ inner: false });
    else if (c === ')') {
      const g = stack.pop();
      const next = pattern[i + 1];
      const repeated = next === '*' || next === '+' || next === '{';
      if (g?.inner && repeated) return true;
      if (g && stack.length) stack[stack.length - 1].inner ||= g.inner || repeated || next === '?';
    } else if ((c === '*' || c === '+' || c === '{' || c === '|' || (c === '?' && pattern[i - 1] !== '(')) && stack.length) stack[stack.length - 1].inner = true;
  }
  return false;
}

/**
 * ajv's `uniqueItems` compares every pair of items unless their type is declared: O(n²), and the
 * meta-schema applies it to `enum`, so a 100,000-value enum took minutes to check. This one keys
 * each item by its canonical JSON (sorted object keys), linear in the items.
 */
function linearUniqueItems(a: Ajv): void {
  a.removeKeyword('uniqueItems');
  a.addKeyword({
    keyword: 'uniqueItems',
    type: 'array',
    schemaType: 'boolean',
    errors: true,
    validate: function unique(this: unknown, on: boolean, data: unknown[]): boolean {
      const self = unique as { errors?: unknown[] | null };
      self.errors = null;
      if (!on) return true;
      const seen = new Map<string, number>();
      for (let j = 0; j < data.length; j++) {
        const k = canonical(data[j]);
        const i = seen.get(k);
        if (i !== undefined) {
          self.errors = [{ keyword: 'uniqueItems', params: { i: j, j: i }, message: `must NOT have duplicate items (items ${i} and ${j} are identical)` }];
          return false;
        }
        seen.set(k, j);
      }
      return true;
    },
  });
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return '[' + v.map(canonical).join(',') + ']';
  if (v && typeof v === 'object') return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canonical((v as Record<string, unknown>)[k])).join(',') + '}';
  return JSON.stringify(v) ?? 'undefined';
}

const cache = new WeakMap<object, ValidateFunction>();

export function compile(schema: object, draft: Draft = 'draft-07'): ValidateFunction {
  let v = cache.get(schema);
  if (!v) {
    v = getAjv(draft).compile(schema);
    cache.set(schema, v);
  }
  return v;
}

/** Which draft a schema declares with `$schema` (draft-07 when absent or unknown). */
export function draftOf(schema: Record<string, unknown>): { draft: Draft; declared: string | null; known: boolean } {
  const s = typeof schema.$schema === 'string' ? schema.$schema : null;
  if (!s) return { draft: 'draft-07', declared: null, known: true };
  if (s.includes('2020-12')) return { draft: '2020-12', declared: s, known: true };
  if (s.includes('2019-09')) return { draft: '2019-09', declared: s, known: true };
  if (/draft-0[67]/.test(s)) return { draft: 'draft-07', declared: s, known: true };
  return { draft: 'draft-07', declared: s, known: false };
}

const byText = new Map<string, ValidateFunction | null>();

/**
 * A validator for a schema given as data, cached by its text (catalogues repeat the same small
 * schemas thousands of times). Returns null when the schema cannot be compiled on its own
 * (for example a `$ref` into the enclosing document).
 */
export function compileData(schema: unknown, draft: Draft = 'draft-07'): ValidateFunction | null {
  // Keep `undefined` members distinct (JSON.stringify drops them) so two schemas never share a validator by accident.
  const key = draft + JSON.stringify(schema, (_k, x) => (x === undefined ? '\u0000undefined' : x));
  if (byText.has(key)) return byText.get(key)!;
  let v: ValidateFunction | null = null;
  try {
    v = getAjv(draft).compile(schema as object);
  } catch {
    v = null;
  }
  if (byText.size > 20_000) byText.clear();
  byText.set(key, v);
  return v;
}

const ANNOTATION_KEYS = new Set(['default', 'examples', 'example', 'description', 'title', '$comment', 'required']);

/**
 * Validate one value (a `default`, an example) against the schema it belongs to, minus its
 * annotations. Returns a one-line reason, `null` when it is valid, or `undefined` when the
 * schema cannot be checked on its own.
 */
export function checkValue(schema: Record<string, unknown>, value: unknown, draft: Draft = 'draft-07'): string | null | undefined {
  const stripped: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) if (!ANNOTATION_KEYS.has(k) || (k === 'required' && Array.isArray(v))) stripped[k] = v;
  if (plainlyValid(stripped, value)) return null;
  const validate = compileData(stripped, draft);
  if (!validate) return undefined;
  if (validate(value)) return null;
  const e = validate.errors?.[0];
  if (!e) return 'does not match the schema';
  const where = e.instancePath ? `at \`${e.instancePath}\` ` : '';
  if (e.keyword === 'enum') return `${where}is not one of ${(e.params.allowedValues as unknown[]).map((x) => JSON.stringify(x)).join(', ')}`;
  if (e.keyword === 'type') return `${where}must be ${e.params.type}`;
  return `${where}${e.message}`;
}

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'array', 'object']);
const PLAIN_KEYWORDS = new Set(['type', 'enum', 'minimum', 'maximum', 'anyOf']);
/** Keywords Ajv compiles to nothing: allowed in `anyOf` branches (the top level has them stripped). */
const NOTE_KEYWORDS = new Set(['description', 'title', 'default', 'examples', '$comment']);

/**
 * Whether a scalar value plainly satisfies a schema made only of `type`, `enum`, `minimum`,
 * `maximum` and `anyOf` branches of the same, written as Ajv compiles them without error: most
 * defaults are checked against such schemas, and compiling a validator for each costs far more
 * than this check. True only where Ajv would say valid; anything else (another keyword, an
 * unusual keyword value, an invalid value) is left to Ajv, so its messages stay the only ones.
 */
export function plainlyValid(schema: Record<string, unknown>, value: unknown): boolean {
  const vt = typeof value;
  if (value !== null && vt !== 'string' && vt !== 'boolean' && !(vt === 'number' && Number.isFinite(value))) return false;
  return plainShape(schema, false, 0) && satisfies(schema, value);
}

/** Whether Ajv compiles the schema without error and this module can judge values against it. */
function plainShape(schema: Record<string, unknown>, notes: boolean, depth: number): boolean {
  for (const k of Object.keys(schema)) if (!PLAIN_KEYWORDS.has(k) && !(notes && NOTE_KEYWORDS.has(k))) return false;
  if (schema.type !== undefined && !validTypeKeyword(schema.type)) return false;
  if ('enum' in schema) {
    const e = schema.enum;
    if (!Array.isArray(e) || e.length === 0) return false;
    // Scalars only: Ajv compares them with `===` (objects deeply, which is left to it).
    if (!e.every((x) => x === null || (typeof x !== 'object' && !(typeof x === 'number' && Number.isNaN(x))))) return false;
  }
  for (const k of ['minimum', 'maximum'] as const) {
    // Ajv writes a bound into its code as JSON, where an infinite or NaN bound reads `null`.
    if (k in schema && !(typeof schema[k] === 'number' && Number.isFinite(schema[k]))) return false;
  }
  if ('anyOf' in schema) {
    const branches = schema.anyOf;
    if (depth > 0 || !Array.isArray(branches) || branches.length === 0) return false;
    if (!branches.every((b) => isObject(b) && plainShape(b, true, depth + 1))) return false;
  }
  return true;
}

/** A `type` the meta-schema accepts: one JSON type, or a non-empty list of distinct ones. */
function validTypeKeyword(t: unknown): boolean {
  if (typeof t === 'string') return JSON_TYPES.has(t);
  return Array.isArray(t) && t.length > 0 && t.every((x) => typeof x === 'string' && JSON_TYPES.has(x)) && new Set(t).size === t.length;
}

/** Whether a scalar satisfies a schema `plainShape` accepted. */
function satisfies(schema: Record<string, unknown>, value: unknown): boolean {
  const t = schema.type;
  if (t !== undefined && !(typeof t === 'string' ? [t] : (t as string[])).some((x) => scalarHasType(value, x))) return false;
  if ('enum' in schema && !(schema.enum as unknown[]).includes(value)) return false;
  // Bounds apply to numbers only.
  if (typeof value === 'number' && typeof schema.minimum === 'number' && value < schema.minimum) return false;
  if (typeof value === 'number' && typeof schema.maximum === 'number' && value > schema.maximum) return false;
  if ('anyOf' in schema && !(schema.anyOf as Record<string, unknown>[]).some((b) => satisfies(b, value))) return false;
  return true;
}

function scalarHasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return false;
  }
}

/** Every keyword of draft-07's meta-schema (a keyword outside it may hold anything). */
const DRAFT7_KEYWORDS = new Set([
  '$id', '$schema', '$ref', '$comment', 'title', 'description', 'default', 'readOnly', 'examples', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum',
  'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'additionalItems', 'items', 'maxItems', 'minItems', 'uniqueItems', 'contains', 'maxProperties',
  'minProperties', 'required', 'additionalProperties', 'definitions', 'properties', 'patternProperties', 'dependencies', 'propertyNames', 'const', 'enum',
  'type', 'format', 'contentMediaType', 'contentEncoding', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not',
]);

const MAX_PLAIN_DEPTH = 64;

/**
 * Whether a schema is plainly valid under draft-07's meta-schema, judged keyword by keyword:
 * true only where Ajv's `validateSchema` says valid too. Anything this does not judge (`$ref`,
 * `$id`, `$schema`, `pattern`, `patternProperties`, `dependencies`, a non-finite number, very
 * deep nesting) answers false and is left to Ajv, whose messages stay the only ones. Most tool
 * schemas are plain, and compiling Ajv's meta-schema validator costs a run 30–40 ms.
 * `rootSchemaKey`: the root's `$schema` names draft-07 (or a draft Ajv does not hold, where it
 * reports nothing) and is not judged here.
 * `test/ajv-plain.test.ts` checks the implication on the corpus and on random schemas.
 */
export function plainlyValidSchema(s: unknown, depth = 0, rootSchemaKey = false): boolean {
  if (typeof s === 'boolean') return true;
  if (!isObject(s) || depth > MAX_PLAIN_DEPTH) return false;
  for (const k of Object.keys(s)) {
    const v = s[k];
    // A root `$schema` naming draft-07 (the caller knows): Ajv checks against the same meta-schema.
    if (rootSchemaKey && depth === 0 && k === '$schema' && typeof v === 'string') continue;
    switch (k) {
      case 'title':
      case 'description':
      case '$comment':
      case 'format':
      case 'contentMediaType':
      case 'contentEncoding':
        if (typeof v !== 'string') return false;
        break;
      case 'default':
      case 'const':
        break;
      case 'readOnly':
      case 'uniqueItems':
        if (typeof v !== 'boolean') return false;
        break;
      case 'examples':
        if (!Array.isArray(v)) return false;
        break;
      case 'multipleOf':
        if (!(typeof v === 'number' && Number.isFinite(v) && v > 0)) return false;
        break;
      case 'maximum':
      case 'exclusiveMaximum':
      case 'minimum':
      case 'exclusiveMinimum':
        if (!(typeof v === 'number' && Number.isFinite(v))) return false;
        break;
      case 'maxLength':
      case 'minLength':
      case 'maxItems':
      case 'minItems':
      case 'maxProperties':
      case 'minProperties':
        if (!(Number.isSafeInteger(v) && (v as number) >= 0)) return false;
        break;
      case 'required':
        if (!Array.isArray(v) || !v.every((x) => typeof x === 'string') || new Set(v).size !== v.length) return false;
        break;
      case 'enum':
        if (!Array.isArray(v) || v.length === 0 || new Set(v.map(canonical)).size !== v.length) return false;
        break;
      case 'type':
        if (!validTypeKeyword(v)) return false;
        break;
      case 'properties':
      case 'definitions':
        if (!isObject(v)) return false;
        for (const x of Object.values(v)) if (!plainlyValidSchema(x, depth + 1)) return false;
        break;
      case 'items':
        if (Array.isArray(v)) {
          if (v.length === 0 || !v.every((x) => plainlyValidSchema(x, depth + 1))) return false;
        } else if (!plainlyValidSchema(v, depth + 1)) return false;
        break;
      case 'additionalItems':
      case 'additionalProperties':
      case 'contains':
      case 'propertyNames':
      case 'if':
      case 'then':
      case 'else':
      case 'not':
        if (!plainlyValidSchema(v, depth + 1)) return false;
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        if (!Array.isArray(v) || v.length === 0 || !v.every((x) => plainlyValidSchema(x, depth + 1))) return false;
        break;
      default:
        if (DRAFT7_KEYWORDS.has(k)) return false;
    }
  }
  return true;
}
