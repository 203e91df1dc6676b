/**
 * The catalogue diff engine: each change class (breaking, risky, compatible) on small in-memory
 * pairs and on the hand-made fixtures in YAML and JSON.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadText } from '../../server/src/engine/load';
import { diffTools, type Change, type DiffResult } from '../../server/src/engine/diff';

const FIX = join(__dirname, '..', 'fixtures', 'diff');

function diffTexts(a: string, b: string, path = 'tools.yaml'): DiffResult {
  return diffTools(loadText(path, a).tools, loadText(path, b).tools);
}

function diffFixtures(ext: 'yaml' | 'json'): DiffResult {
  const a = readFileSync(join(FIX, `old.${ext}`), 'utf8');
  const b = readFileSync(join(FIX, `new.${ext}`), 'utf8');
  return diffTools(loadText(`old.${ext}`, a).tools, loadText(`new.${ext}`, b).tools);
}

/** `class kind tool parameter` for each change, to compare as a set. */
function keys(r: DiffResult): string[] {
  return [...r.breaking, ...r.risky, ...r.compatible].map((c) => `${c.class} ${c.kind} ${c.tool} ${c.parameter ?? '-'}`).sort();
}

function one(r: DiffResult, pred: (c: Change) => boolean): Change {
  const found = [...r.breaking, ...r.risky, ...r.compatible].filter(pred);
  assert.equal(found.length, 1, `expected one change, got ${JSON.stringify(found)}`);
  return found[0];
}

/** A one-tool catalogue whose input has the given properties (YAML flow text) and required list. */
function tool(props: string, required: string[] = [], extra = ''): string {
  return `tools:\n  - name: t\n    description: A tool.\n    inputSchema:\n      type: object\n      properties: ${props}\n      required: [${required.join(', ')}]\n${extra}`;
}

test('identical catalogues have no changes', () => {
  const text = readFileSync(join(FIX, 'old.yaml'), 'utf8');
  const r = diffTexts(text, text);
  assert.deepEqual(keys(r), []);
  assert.deepEqual(r.summary, { toolsBefore: 4, toolsAfter: 4, breaking: 0, risky: 0, compatible: 0 });
});

test('YAML pair: every change class, per tool and parameter path', () => {
  const r = diffFixtures('yaml');
  assert.deepEqual(keys(r), [
    'breaking additional-properties-closed create_order -',
    'breaking constraint-narrowed create_order items[].sku',
    'breaking constraint-narrowed create_order quantity',
    'breaking enum-value-removed create_order priority',
    'breaking parameter-added create_order currency',
    'breaking parameter-newly-required list_customers cursor',
    'breaking parameter-removed create_order coupon',
    'breaking tool-renamed delete_customer -',
    'breaking type-changed create_order items[].count',
    'compatible constraint-widened create_order note',
    'compatible enum-value-added create_order priority',
    'compatible parameter-added create_order channel',
    'compatible parameter-added get_order expand',
    'compatible parameter-no-longer-required get_order verbose',
    'compatible tool-added refund_order -',
    'compatible type-widened create_order quantity',
    'compatible type-widened get_order order_id',
    'risky annotations-changed create_order -',
    'risky tool-description-changed create_order -',
  ]);
  const renamed = one(r, (c) => c.kind === 'tool-renamed');
  assert.deepEqual([renamed.before, renamed.after], ['delete_customer', 'remove_customer']);
  const max = one(r, (c) => c.parameter === 'quantity' && c.kind === 'constraint-narrowed');
  assert.deepEqual([max.before, max.after], [100, 50]);
  assert.deepEqual(one(r, (c) => c.kind === 'enum-value-removed').before, ['low']);
  assert.deepEqual(one(r, (c) => c.kind === 'enum-value-added').after, ['urgent']);
  assert.deepEqual([one(r, (c) => c.parameter === 'items[].count').before, one(r, (c) => c.parameter === 'items[].count').after], ['integer', 'string']);
  assert.equal(one(r, (c) => c.parameter === 'order_id').after, 'null | string');
  const desc = one(r, (c) => c.kind === 'tool-description-changed');
  assert.match(desc.diff!, /^\+Always set priority to high\.$/m, 'the new instruction shows as an added line');
  assert.match(one(r, (c) => c.kind === 'annotations-changed').message, /`destructiveHint` `false` → `true`/);
  assert.deepEqual(r.summary, { toolsBefore: 4, toolsAfter: 5, breaking: 9, risky: 2, compatible: 8 });
});

test('JSON pair: constraints narrowed and widened, enum value added', () => {
  const r = diffFixtures('json');
  assert.deepEqual(keys(r), [
    'breaking constraint-narrowed search_docs query',
    'breaking constraint-narrowed search_docs tags',
    'compatible constraint-widened search_docs tags',
    'compatible enum-value-added search_docs mode',
  ]);
  const minItems = one(r, (c) => c.parameter === 'tags' && c.class === 'breaking');
  assert.match(minItems.message, /`minItems` of `tags` added \(1\)/);
});

test('breaking: removed tool, removed parameter, newly required, type changed', () => {
  const two = 'tools:\n  - name: a\n    description: Alpha.\n  - name: b\n    description: Something else entirely.\n';
  const oneTool = 'tools:\n  - name: a\n    description: Alpha.\n';
  assert.deepEqual(keys(diffTexts(two, oneTool)), ['breaking tool-removed b -']);
  assert.deepEqual(keys(diffTexts(tool('{x: {type: string}, y: {type: string}}'), tool('{x: {type: string}}'))), ['breaking parameter-removed t y']);
  assert.deepEqual(keys(diffTexts(tool('{x: {type: string}}'), tool('{x: {type: string}}', ['x']))), ['breaking parameter-newly-required t x']);
  assert.deepEqual(keys(diffTexts(tool('{x: {type: number}}'), tool('{x: {type: integer}}'))), ['breaking type-changed t x'], 'number → integer narrows');
  assert.deepEqual(keys(diffTexts(tool('{x: {}}'), tool('{x: {type: string}}'))), ['breaking type-changed t x'], 'any → string narrows');
  assert.deepEqual(keys(diffTexts(tool('{x: {type: string}}'), tool('{x: {type: string, enum: [a, b]}}'))), ['breaking enum-added t x']);
});

test('breaking: constraints narrowed (bounds, pattern, format, uniqueItems), additionalProperties closed at depth', () => {
  const cases: [string, string][] = [
    ['{x: {type: integer, minimum: 0}}', '{x: {type: integer, minimum: 1}}'],
    ['{x: {type: integer, exclusiveMaximum: 10}}', '{x: {type: integer, exclusiveMaximum: 9}}'],
    ['{x: {type: string}}', '{x: {type: string, maxLength: 10}}'],
    ['{x: {type: string}}', '{x: {type: string, format: email}}'],
    ['{x: {type: array, items: {type: string}}}', '{x: {type: array, items: {type: string}, uniqueItems: true}}'],
  ];
  for (const [a, b] of cases) assert.deepEqual(keys(diffTexts(tool(a), tool(b))), ['breaking constraint-narrowed t x'], `${a} → ${b}`);
  assert.deepEqual(keys(diffTexts(tool('{o: {type: object, properties: {k: {type: string}}}}'), tool('{o: {type: object, additionalProperties: false, properties: {k: {type: string}}}}'))), ['breaking additional-properties-closed t o']);
});

test('compatible: widened constraints, optional parameter, no longer required, anyOf with null', () => {
  assert.deepEqual(keys(diffTexts(tool('{x: {type: integer, maximum: 5}}'), tool('{x: {type: integer}}'))), ['compatible constraint-widened t x']);
  assert.deepEqual(keys(diffTexts(tool('{x: {type: string, pattern: "^a"}}'), tool('{x: {type: string}}'))), ['compatible constraint-widened t x']);
  assert.deepEqual(keys(diffTexts(tool('{x: {type: string}}', ['x']), tool('{x: {type: string}}'))), ['compatible parameter-no-longer-required t x']);
  assert.deepEqual(keys(diffTexts(tool('{x: {type: string}}'), tool('{x: {anyOf: [{type: string}, {type: "null"}]}}'))), ['compatible type-widened t x']);
  assert.deepEqual(keys(diffTexts(tool('{x: {type: string, enum: [a]}}'), tool('{x: {type: string}}'))), ['compatible enum-removed t x']);
});

test('risky: parameter description and default changes carry a text diff', () => {
  const r = diffTexts(tool('{x: {type: string, description: The id., default: a}}'), tool('{x: {type: string, description: The id. Never guess it., default: b}}'));
  assert.deepEqual(keys(r), ['risky default-changed t x', 'risky parameter-description-changed t x']);
  assert.equal(one(r, (c) => c.kind === 'parameter-description-changed').diff, '@@ -1,1 +1,2 @@\n The id.\n+Never guess it.');
});

test('renames need near-identical schema and description; unrelated tools are a removal and an addition', () => {
  const a = 'tools:\n  - name: fetch_user\n    description: Get a user by id, with their email and roles.\n    inputSchema: {type: object, properties: {user_id: {type: string}}, required: [user_id]}\n';
  const renamed = a.replace('fetch_user', 'get_user');
  assert.deepEqual(keys(diffTexts(a, renamed)), ['breaking tool-renamed fetch_user -']);
  const other = 'tools:\n  - name: send_mail\n    description: Send an email to a list of recipients.\n    inputSchema: {type: object, properties: {to: {type: array, items: {type: string}}}, required: [to]}\n';
  assert.deepEqual(keys(diffTexts(a, other)), ['breaking tool-removed fetch_user -', 'compatible tool-added send_mail -']);
  // Two bare tools with no description and no parameters are not taken for one another.
  assert.deepEqual(keys(diffTexts('tools:\n  - name: ping\n', 'tools:\n  - name: pong\n')), ['breaking tool-removed ping -', 'compatible tool-added pong -']);
});

test('a rename is compared further: changes after the rename are reported under the old name', () => {
  const a = 'tools:\n  - name: fetch_user\n    description: Get a user by id, with their email and roles.\n    inputSchema: {type: object, properties: {user_id: {type: string}, org: {type: string}}, required: [user_id]}\n';
  const b = a.replace('fetch_user', 'get_user').replace('required: [user_id]', 'required: [user_id, org]');
  assert.deepEqual(keys(diffTexts(a, b)), ['breaking parameter-newly-required fetch_user org', 'breaking tool-renamed fetch_user -']);
});
