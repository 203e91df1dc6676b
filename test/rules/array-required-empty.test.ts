import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester, runRule } from '../helpers/rule-tester';

const ID = 'array-required-empty';

ruleTester(ID, {
  valid: [
    { name: 'minItems: 1 rules out the empty list', code: 'name: create_bundle\ndescription: Create a bundle.\ninputSchema:\n  type: object\n  properties:\n    parts: {type: array, minItems: 1, items: {type: string}, description: Part names.}\n  required: [parts]\n' },
    { name: 'the description says it must not be empty', code: 'name: create_bundle\ndescription: Create a bundle.\ninputSchema:\n  type: object\n  properties:\n    parts: {type: array, items: {type: string}, description: Part names (at least one).}\n  required: [parts]\n' },
    { name: 'the description says what an empty list does', code: 'name: notify_team\ndescription: Notify a team.\ninputSchema:\n  type: object\n  properties:\n    channels: {type: array, items: {type: string}, description: "Channels to post to; an empty list posts to every channel."}\n  required: [channels]\n' },
    { name: 'the tool description says it for this parameter', code: 'name: create_bundle\ndescription: Create a bundle. The parts list must not be empty.\ninputSchema:\n  type: object\n  properties:\n    parts: {type: array, items: {type: string}, description: Part names.}\n  required: [parts]\n' },
    { name: 'optional arrays are not this rule\'s', code: 'name: create_bundle\ndescription: Create a bundle.\ninputSchema:\n  type: object\n  properties:\n    parts: {type: array, items: {type: string}, description: Part names.}\n' },
    { name: 'a required nullable array is left to array-empty-vs-null', code: 'name: create_bundle\ndescription: Create a bundle.\ninputSchema:\n  type: object\n  properties:\n    parts: {anyOf: [{type: array, items: {type: string}}, {type: "null"}], description: Part names.}\n  required: [parts]\n' },
    { name: 'contains, enum and const settle the empty list', code: 'name: create_bundle\ndescription: Create a bundle.\ninputSchema:\n  type: object\n  properties:\n    a: {type: array, contains: {const: x}, description: A.}\n    b: {type: array, enum: [[x], [y]], description: B.}\n    c: {type: array, const: [x], description: C.}\n  required: [a, b, c]\n' },
    { name: 'a tuple of numbers under a singular name is one value, not a list', code: 'name: draw_shape\ndescription: Draw a shape.\ninputSchema:\n  type: object\n  properties:\n    color: {type: array, items: {type: integer}, description: RGB color.}\n    position: {type: array, items: [{type: number}, {type: number}], description: X and Y.}\n  required: [color, position]\n' },
    { name: 'an MXCP parameter with a default is optional', code: 'mxcp: 1\ntool:\n  name: total_amounts\n  description: Add amounts.\n  parameters:\n    - name: amounts\n      type: array\n      items: {type: number}\n      default: [0]\n      description: Amounts to add.\n  source:\n    code: SELECT 1\n' },
    { name: 'REST parameter maps have no types', code: 'tools:\n  - name: create_bundle\n    method: POST\n    path: /bundles\n    description: Create a bundle.\n    parameters:\n      parts:\n        description: REQUIRED. Part names.\n' },
    {
      name: 'a list beside one already bounded by minItems is left open on purpose (a diagram without links)',
      code: 'name: draw_diagram\ndescription: Draw a diagram of boxes and the links between them.\ninputSchema:\n  type: object\n  properties:\n    diagram:\n      type: object\n      properties:\n        boxes: {type: array, minItems: 1, items: {type: string}, description: Box labels.}\n        links: {type: array, items: {type: object, properties: {from: {type: string}, to: {type: string}}}, description: Links.}\n      required: [boxes, links]\n  required: [diagram]\n',
    },
    {
      name: 'an update that replaces the current list with the given one: [] plainly clears it',
      code: 'name: update_card_watchers\ndescription: Update the watchers of a card. This replaces the current watchers with the provided list.\ninputSchema:\n  type: object\n  properties:\n    card_id: {type: string, description: The card.}\n    watchers: {type: array, items: {type: string}, description: Usernames to watch the card.}\n  required: [card_id, watchers]\n',
    },
    {
      name: 'replacing all stored values with a list given as the whole body',
      filename: 'functions.json',
      code: '[{"name": "BOXCO__UPDATE_SETTINGS", "description": "Update the settings of a box. This replaces all settings.", "parameters": {"type": "object", "properties": {"body": {"type": "array", "description": "Settings to set", "items": {"type": "object", "properties": {"key": {"type": "string"}, "value": {"type": "string"}}, "required": ["key", "value"]}}}, "required": ["body"]}}]',
    },
  ],
  invalid: [
    {
      name: 'YAML, block style',
      code: 'name: create_suite\ndescription: Create a test suite.\ninputSchema:\n  type: object\n  properties:\n    title: {type: string, description: Suite title.}\n    cases:\n      type: array\n      description: The test cases.\n      items: {type: string}\n  required: [title, cases]\n',
      errors: [{ messageId: 'empty', line: 7, column: 5, endColumn: 10, parameter: 'cases', tool: 'create_suite', severity: 'warning', pointer: '/inputSchema/properties/cases' }],
      output: 'name: create_suite\ndescription: Create a test suite.\ninputSchema:\n  type: object\n  properties:\n    title: {type: string, description: Suite title.}\n    cases:\n      type: array\n      description: The test cases.\n      items: {type: string}\n      minItems: 1\n  required: [title, cases]\n',
    },
    {
      name: 'YAML, flow style, with a minItems of 0 to raise',
      code: 'name: print_badges\ndescription: Print name badges.\ninputSchema:\n  type: object\n  properties:\n    names: {type: array, items: {type: string}, minItems: 0}\n  required: [names]\n',
      errors: [{ messageId: 'empty', line: 6, column: 5, endColumn: 10, parameter: 'names' }],
      output: 'name: print_badges\ndescription: Print name badges.\ninputSchema:\n  type: object\n  properties:\n    names: {type: array, items: {type: string}, minItems: 1}\n  required: [names]\n',
    },
    {
      name: 'JSON',
      filename: 't.json',
      code: '{\n  "name": "send_invoice",\n  "description": "Send an invoice.",\n  "inputSchema": {\n    "type": "object",\n    "properties": {\n      "recipients": {"type": "array", "items": {"type": "string"}, "description": "Email addresses."}\n    },\n    "required": ["recipients"]\n  }\n}\n',
      errors: [{ messageId: 'empty', line: 7, column: 7, endColumn: 19, parameter: 'recipients', pointer: '/inputSchema/properties/recipients' }],
      output: '{\n  "name": "send_invoice",\n  "description": "Send an invoice.",\n  "inputSchema": {\n    "type": "object",\n    "properties": {\n      "recipients": {"type": "array", "items": {"type": "string"}, "description": "Email addresses.", "minItems": 1}\n    },\n    "required": ["recipients"]\n  }\n}\n',
    },
    {
      name: 'MXCP parameter list: no default means required; the fix goes into the list entry',
      code: 'mxcp: 1\ntool:\n  name: sum_values\n  description: Add numbers.\n  parameters:\n    - name: values\n      type: array\n      items: {type: number}\n      description: Numbers to add.\n    - name: scale\n      type: number\n      default: 1\n      description: Factor.\n  source:\n    code: SELECT 1\n',
      errors: [{ messageId: 'empty', line: 6, column: 13, endColumn: 19, parameter: 'values', pointer: '/tool/parameters/0/name' }],
      output: 'mxcp: 1\ntool:\n  name: sum_values\n  description: Add numbers.\n  parameters:\n    - name: values\n      type: array\n      items: {type: number}\n      description: Numbers to add.\n      minItems: 1\n    - name: scale\n      type: number\n      default: 1\n      description: Factor.\n  source:\n    code: SELECT 1\n',
    },
    {
      name: 'inside array items an empty list may be fine: a suggestion ("one of" says nothing about emptiness)',
      code: 'name: import_orders\ndescription: Import orders.\ninputSchema:\n  type: object\n  properties:\n    orders:\n      type: array\n      minItems: 1\n      description: One of the orders.\n      items:\n        type: object\n        properties:\n          lines: {type: array, items: {type: string}, description: Order lines.}\n        required: [lines]\n  required: [orders]\n',
      errors: [
        {
          messageId: 'empty',
          line: 13,
          column: 11,
          parameter: 'orders[].lines',
          suggestionOutputs: ['name: import_orders\ndescription: Import orders.\ninputSchema:\n  type: object\n  properties:\n    orders:\n      type: array\n      minItems: 1\n      description: One of the orders.\n      items:\n        type: object\n        properties:\n          lines: {type: array, items: {type: string}, description: Order lines., minItems: 1}\n        required: [lines]\n  required: [orders]\n'],
        },
      ],
    },
    {
      name: 'beside another required list an empty list may be fine: a suggestion, not a fix',
      code: 'name: plan_route\ndescription: Plan a route.\ninputSchema:\n  type: object\n  properties:\n    stops: {type: array, items: {type: string}, description: Stops.}\n    detours: {type: array, items: {type: string}, description: Detours.}\n  required: [stops, detours]\n',
      errors: [
        {
          messageId: 'empty',
          line: 6,
          column: 5,
          parameter: 'stops',
          suggestionOutputs: ['name: plan_route\ndescription: Plan a route.\ninputSchema:\n  type: object\n  properties:\n    stops: {type: array, items: {type: string}, description: Stops., minItems: 1}\n    detours: {type: array, items: {type: string}, description: Detours.}\n  required: [stops, detours]\n'],
        },
        {
          messageId: 'empty',
          line: 7,
          column: 5,
          parameter: 'detours',
          suggestionOutputs: ['name: plan_route\ndescription: Plan a route.\ninputSchema:\n  type: object\n  properties:\n    stops: {type: array, items: {type: string}, description: Stops.}\n    detours: {type: array, items: {type: string}, description: Detours., minItems: 1}\n  required: [stops, detours]\n'],
        },
      ],
    },
    {
      name: 'on a tool that updates records an empty list may clear it: a suggestion, not a fix (anyOf array branch)',
      code: 'name: set_card_labels\ndescription: Replace the labels of a card.\ninputSchema:\n  type: object\n  properties:\n    card_id: {type: string, description: The card.}\n    labels:\n      anyOf:\n        - type: string\n        - type: array\n          items: {type: string}\n      description: Labels to apply.\n  required: [card_id, labels]\n',
      errors: [
        {
          messageId: 'empty',
          line: 7,
          column: 5,
          parameter: 'labels',
          suggestionOutputs: ['name: set_card_labels\ndescription: Replace the labels of a card.\ninputSchema:\n  type: object\n  properties:\n    card_id: {type: string, description: The card.}\n    labels:\n      anyOf:\n        - type: string\n        - type: array\n          items: {type: string}\n          minItems: 1\n      description: Labels to apply.\n  required: [card_id, labels]\n'],
        },
      ],
    },
    {
      name: 'draft-3 style required flag in a function-calling schema',
      filename: 'functions.json',
      code: '[{"type": "function", "function": {"name": "merge_pdfs", "description": "Merge PDFs into one.", "parameters": {"type": "object", "properties": {"files": {"type": "array", "required": true, "items": {"type": "string"}}}}}}]',
      errors: [{ messageId: 'empty', parameter: 'files', pointer: '/0/function/parameters/properties/files', suggestionOutputs: ['[{"type": "function", "function": {"name": "merge_pdfs", "description": "Merge PDFs into one.", "parameters": {"type": "object", "properties": {"files": {"type": "array", "required": true, "items": {"type": "string"}, "minItems": 1}}}}}]'] }],
    },
  ],
});

const fixtures = join(__dirname, '..', 'fixtures', 'seed000');

test(`${ID}: seed 000 — fires on the documented failure, quiet once the seed's advice is applied`, () => {
  const before = runRule(ID, { code: readFileSync(join(fixtures, 'before.yaml'), 'utf8'), filename: 'before.yaml' }).diagnostics;
  assert.deepEqual(
    before.map((d) => `${d.tool}.${d.parameter}`),
    ['create_test_set_bulk.tests'],
  );
  assert.ok(before[0].fix, 'the finding carries the minItems fix');
  const after = runRule(ID, { code: readFileSync(join(fixtures, 'after.yaml'), 'utf8'), filename: 'after.yaml' }).diagnostics;
  assert.deepEqual(after.map((d) => `${d.tool}.${d.parameter}: ${d.message}`), []);
});
