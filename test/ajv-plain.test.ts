/**
 * `plainlyValidSchema` spares compiling Ajv's meta-schema validator, so it may only say "valid"
 * where Ajv says valid. Checked on every tool schema of the corpus, the examples, the fixtures and
 * the rule examples (and every subschema of them), on mutations of those, and on random schemas.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { draftOf, getAjv, plainlyValidSchema } from '../server/src/engine/util/ajv';
import { isObject } from '../server/src/engine/model';
import { runLint } from '../server/src/node/run';

const ROOT = join(__dirname, '..');
const CORPUS = join(ROOT, '..', 'shared', 'corpus');
const ajv = getAjv('draft-07');
const validByAjv = (s: unknown): boolean => {
  try {
    return ajv.validateSchema(s as object) as boolean;
  } catch {
    return false;
  }
};

function schemasOf(dirs: string[]): unknown[] {
  const out: unknown[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const f of runLint({ cwd: ROOT, paths: [dir] }).files) for (const t of f.tools) if (t.inputSchema) out.push(t.inputSchema);
  }
  return out;
}

/** A schema and every object below it (subschemas, and values that are not schemas too). */
function parts(v: unknown, out: unknown[] = [], depth = 0): unknown[] {
  if (v === null || typeof v !== 'object' || depth > 30) return out;
  out.push(v);
  for (const x of Object.values(v)) parts(x, out, depth + 1);
  return out;
}

test('plainly valid schemas are valid to Ajv: every real schema and its parts', () => {
  const schemas = schemasOf([join(ROOT, 'examples'), join(ROOT, 'test', 'fixtures'), join(ROOT, 'docs', 'rules', 'examples'), CORPUS]);
  if (!existsSync(CORPUS)) console.log('# ../shared/corpus is absent: checked the bundled files only');
  let plain = 0;
  let checked = 0;
  for (const s of schemas) {
    for (const p of parts(s)) {
      checked++;
      if (!plainlyValidSchema(p)) continue;
      plain++;
      assert.ok(validByAjv(p), `plainly valid but not to Ajv: ${JSON.stringify(p).slice(0, 300)}`);
    }
  }
  // A root `$schema` that draftOf reads as draft-07: plain apart from it means Ajv reports nothing
  // (it validates against draft-07's meta-schema, or throws for a meta-schema it does not hold).
  let declared = 0;
  for (const s of schemas) {
    if (!isObject(s) || typeof s.$schema !== 'string' || draftOf(s).draft !== 'draft-07' || !draftOf(s).known) continue;
    if (!plainlyValidSchema(s, 0, true)) continue;
    declared++;
    let ok: boolean;
    try {
      ok = ajv.validateSchema(s) as boolean;
    } catch {
      ok = true;
    }
    assert.ok(ok, `plainly valid with its $schema but not to Ajv: ${JSON.stringify(s).slice(0, 300)}`);
  }
  if (existsSync(CORPUS)) assert.ok(declared > 0, 'the corpus has schemas that declare draft-07');
  const whole = schemas.filter((s) => plainlyValidSchema(s, 0, true)).length;
  // Most tool schemas take the plain path (the point of it).
  assert.ok(whole > schemas.length / 2, `${whole} of ${schemas.length} tool schemas are plain`);
  assert.ok(plain > 0 && checked > plain);
});

test('plainly valid schemas are valid to Ajv: random schemas and keyword values', () => {
  // Each keyword gets values around the edge of what the meta-schema allows (valid and not).
  const scalars = fc.constantFrom<unknown>('a', 'b', '', 0, 1, -1, 1.5, Number.NaN, Infinity, true, false, null);
  const lists = fc.array(scalars, { maxLength: 4 });
  const strings = fc.array(fc.constantFrom('a', 'b', 'c', 1, null), { maxLength: 4 });
  const types = fc.oneof(fc.constantFrom<unknown>('string', 'integer', 'number', 'object', 'array', 'boolean', 'null', 'str', 'int', '', 1, null), fc.array(fc.constantFrom('string', 'null', 'integer', 'str', 1), { maxLength: 3 }));
  const count = fc.constantFrom<unknown>(0, 1, 5, -1, 1.5, '1', null, 2 ** 60);
  const num = fc.constantFrom<unknown>(0, -2, 3.5, Infinity, Number.NaN, '1', null);
  const text = fc.constantFrom<unknown>('x', '', 1, null, ['x']);
  const bool = fc.constantFrom<unknown>(true, false, 'true', 0);
  const schema: fc.Arbitrary<unknown> = fc.letrec((tie) => {
    const sub = tie('schema');
    const subs = fc.oneof(fc.array(sub, { maxLength: 3 }), sub, fc.constant(null));
    const named = fc.oneof(fc.dictionary(fc.constantFrom('a', 'b', 'id', '$ref', 'type'), sub, { maxKeys: 3 }), fc.constant([]), fc.constant('x'));
    const value: Record<string, fc.Arbitrary<unknown>> = {
      type: types, enum: fc.oneof(lists, fc.constant([]), scalars), const: scalars, default: fc.oneof(scalars, lists), examples: fc.oneof(lists, scalars),
      required: fc.oneof(strings, fc.constant(true), fc.constant([])), description: text, title: text, $comment: text, format: text,
      minimum: num, maximum: num, exclusiveMinimum: num, exclusiveMaximum: num, multipleOf: num, minLength: count, maxLength: count, minItems: count,
      maxItems: count, minProperties: count, maxProperties: count, uniqueItems: bool, readOnly: bool, properties: named, definitions: named,
      items: subs, additionalItems: sub, additionalProperties: fc.oneof(sub, fc.constant(true)), contains: sub, propertyNames: sub, not: sub, if: sub,
      then: sub, else: sub, anyOf: subs, oneOf: subs, allOf: subs, $ref: text, $id: text, $schema: text, pattern: fc.constantFrom('^a+$', '(', 1),
      patternProperties: named, dependencies: named, 'x-custom': fc.oneof(scalars, lists), nullable: bool,
    };
    const entry = fc.constantFrom(...Object.keys(value)).chain((k) => value[k].map((v) => [k, v] as const));
    return {
      schema: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.array(entry, { maxLength: 4 }).map((es) => Object.fromEntries(es)),
        fc.boolean(),
        fc.constantFrom<unknown>(null, 1, 'string', []),
      ),
    };
  }).schema;
  let plain = 0;
  let invalid = 0;
  fc.assert(
    fc.property(schema, (s) => {
      const ok = validByAjv(s);
      if (!ok) invalid++;
      if (!plainlyValidSchema(s)) return true;
      plain++;
      return ok;
    }),
    { numRuns: 6000, seed: 42 },
  );
  // Both sides of the edge are reached.
  assert.ok(plain > 500 && invalid > 500, `${plain} plain, ${invalid} invalid random schemas`);
});
