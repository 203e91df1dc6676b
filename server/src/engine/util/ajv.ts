/**
 * One Ajv per process, created on first use (start-up stays fast when no schema is checked).
 * Validators are compiled once and cached by schema object.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export type Draft = 'draft-07' | '2019-09' | '2020-12';

const instances = new Map<Draft, Ajv>();

export function getAjv(draft: Draft = 'draft-07'): Ajv {
  let a = instances.get(draft);
  if (!a) {
    const opts = { strict: false, allErrors: true, validateSchema: false, addUsedSchema: false, logger: false as const, validateFormats: true};
    a = draft === '2020-12' ? new Ajv2020(opts) : draft === '2019-09' ? new Ajv2019(opts) : new Ajv(opts);
    addFormats(a);
    instances.set(draft, a);
  }
  return a;
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
  const key = draft + JSON.stringify(schema);
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
