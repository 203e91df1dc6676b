import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester, runRule } from '../helpers/rule-tester';

const ID = 'array-empty-vs-null';

ruleTester(ID, {
  valid: [
    { name: 'nullable, but minItems: 1 rules out the empty list', code: 'name: create_rubric\ndescription: Create a rubric.\ninputSchema:\n  type: object\n  properties:\n    grades:\n      anyOf:\n        - {type: array, minItems: 1, items: {type: string}}\n        - type: "null"\n      description: Grade names.\n' },
    { name: 'nullable, and the description says what to do instead of []', code: 'name: create_rubric\ndescription: Create a rubric.\ninputSchema:\n  type: object\n  properties:\n    grades:\n      type: [array, "null"]\n      items: {type: string}\n      description: Grade names; omit instead of sending an empty list.\n' },
    { name: 'the tool description says it for this parameter', code: 'name: create_rubric\ndescription: Create a rubric. Leave grades out rather than passing [].\ninputSchema:\n  type: object\n  properties:\n    grades: {anyOf: [{type: array, items: {type: string}}, {type: "null"}], description: Grade names.}\n' },
    { name: 'nullable filter on a list tool: an empty filter means no filter', code: 'name: search_invoices\ndescription: Search invoices.\ninputSchema:\n  type: object\n  properties:\n    statuses: {anyOf: [{type: array, items: {type: string}}, {type: "null"}], description: Statuses to match.}\n' },
    { name: 'plain optional array on a create tool: omitted and empty mean the same', code: 'name: create_rubric\ndescription: Create a rubric.\ninputSchema:\n  type: object\n  properties:\n    grades: {type: array, items: {type: string}, description: Grade names.}\n' },
    {
      name: 'update tool: lists of changes and of targets, lists inside items, and default []',
      code: 'name: update_tickets\ndescription: Update tickets.\ninputSchema:\n  type: object\n  properties:\n    ticket_ids: {type: array, items: {type: string}, description: Tickets to change.}\n    add_labels: {type: array, items: {type: string}, description: Labels to put on.}\n    watchers: {type: array, items: {type: string}, description: Users to add as watchers.}\n    field_values:\n      type: array\n      description: Custom field values.\n      items:\n        type: object\n        properties:\n          field_id: {type: string, description: The field.}\n          value: {type: string, description: The value.}\n        required: [field_id, value]\n    links: {type: array, default: [], items: {type: string}, description: Links.}\n    steps:\n      type: array\n      minItems: 1\n      description: Steps.\n      items:\n        type: object\n        properties:\n          tags: {type: array, items: {type: string}, description: Step tags.}\n  required: [ticket_ids]\n',
    },
    { name: 'a required non-nullable array is array-required-empty\'s', code: 'name: modify_ticket\ndescription: Modify a ticket.\ninputSchema:\n  type: object\n  properties:\n    watchers: {type: array, items: {type: string}, description: Watchers.}\n  required: [watchers]\n' },
    { name: 'a nullable color tuple is one value, not a list', code: 'name: style_cell\ndescription: Style a table cell.\ninputSchema:\n  type: object\n  properties:\n    color: {anyOf: [{type: array, items: {type: integer}}, {type: "null"}], description: RGB color.}\n' },
    { name: 'a replace tool keeps nothing of the old record: omission cannot keep the list', code: 'name: replace_banner_page\ndescription: Replace the banner page of a site.\ninputSchema:\n  type: object\n  properties:\n    site_id: {type: string, description: The site.}\n    allowed_hosts: {type: array, items: {type: string}, description: Hosts the banner may load from.}\n  required: [site_id]\n' },
    { name: 'the tool says omitted fields revert to their defaults', code: 'name: update_banner_page\ndescription: Update the banner page of a site. Replaces the entire page; any fields omitted revert to their defaults.\ninputSchema:\n  type: object\n  properties:\n    site_id: {type: string, description: The site.}\n    allowed_hosts: {type: array, items: {type: string}, description: Hosts the banner may load from.}\n  required: [site_id]\n' },
    { name: 'the description says what omitting the list does', code: 'name: update_board\ndescription: Update a board.\ninputSchema:\n  type: object\n  properties:\n    board_id: {type: string, description: The board.}\n    columns: {type: array, items: {type: string}, description: "Custom columns. Only set this to change them; otherwise omit it."}\n  required: [board_id]\n' },
    { name: 'a docstring says what null means for this parameter', code: 'name: draw_lots\ndescription: |\n  Draw lots among the entrants.\n\n  Args:\n      entrants: Names to draw from\n      weights: Optional weights for each entrant (default None for equal weights)\ninputSchema:\n  type: object\n  properties:\n    entrants: {type: array, minItems: 1, items: {type: string}}\n    weights: {anyOf: [{type: array, items: {type: number}}, {type: "null"}], default: null}\n  required: [entrants]\n' },
    {
      name: 'argument lists: in a file that marks optional arguments, an unflagged one is required',
      filename: 'tools.json',
      code: '[\n  {"name": "create_board", "description": "Create a board.", "arguments": [{"name": "title", "type": "string", "desc": "Title."}, {"name": "tags", "type": "array", "items": {"type": "string"}, "desc": "Tags.", "optional": true}]},\n  {"name": "update_board", "description": "Update a board.", "arguments": [{"name": "board_id", "type": "string", "desc": "Board."}, {"name": "columns", "type": "array", "items": {"type": "string"}, "desc": "Updated list of columns."}]}\n]\n',
    },
  ],
  invalid: [
    {
      name: 'argument lists without any optional flag in the file: unflagged arguments stay optional',
      filename: 'tools.json',
      code: '[\n  {"name": "create_board", "description": "Create a board.", "arguments": [{"name": "title", "type": "string", "desc": "Title."}]},\n  {"name": "update_board", "description": "Update a board.", "arguments": [{"name": "board_id", "type": "string", "desc": "Board."}, {"name": "columns", "type": "array", "items": {"type": "string"}, "desc": "Updated list of columns."}]}\n]\n',
      errors: [{ messageId: 'state', parameter: 'columns', tool: 'update_board' }],
    },
    {
      name: 'YAML: nullable through anyOf and through a type list',
      code: 'name: create_rubric\ndescription: Create a scoring rubric.\ninputSchema:\n  type: object\n  properties:\n    name: {type: string, description: Rubric name.}\n    grades:\n      anyOf:\n        - {type: array, items: {type: string}}\n        - type: "null"\n      description: Grade names for graded rubrics\n    notes:\n      type: [array, "null"]\n      items: {type: string}\n  required: [name]\n',
      errors: [
        {
          messageId: 'nullable',
          line: 7,
          column: 5,
          endColumn: 11,
          parameter: 'grades',
          tool: 'create_rubric',
          severity: 'warning',
          suggestionOutputs: ['name: create_rubric\ndescription: Create a scoring rubric.\ninputSchema:\n  type: object\n  properties:\n    name: {type: string, description: Rubric name.}\n    grades:\n      anyOf:\n        - {type: array, items: {type: string}, minItems: 1}\n        - type: "null"\n      description: Grade names for graded rubrics. Omit it instead of sending an empty list.\n    notes:\n      type: [array, "null"]\n      items: {type: string}\n  required: [name]\n'],
        },
        {
          messageId: 'nullable',
          line: 12,
          column: 5,
          parameter: 'notes',
          suggestionOutputs: ['name: create_rubric\ndescription: Create a scoring rubric.\ninputSchema:\n  type: object\n  properties:\n    name: {type: string, description: Rubric name.}\n    grades:\n      anyOf:\n        - {type: array, items: {type: string}}\n        - type: "null"\n      description: Grade names for graded rubrics\n    notes:\n      type: [array, "null"]\n      items: {type: string}\n      description: Omit it instead of sending an empty list.\n      minItems: 1\n  required: [name]\n'],
        },
      ],
    },
    {
      name: 'JSON: optional array on a tool that updates records',
      filename: 't.json',
      code: '{"name": "edit_event", "description": "Edit an event.", "inputSchema": {"type": "object", "properties": {"event_id": {"type": "string"}, "guests": {"type": "array", "items": {"type": "string"}, "description": "Guest emails"}}, "required": ["event_id"]}}',
      errors: [
        {
          messageId: 'state',
          line: 1,
          column: 138,
          endColumn: 146,
          parameter: 'guests',
          pointer: '/inputSchema/properties/guests',
          suggestionOutputs: [
            '{"name": "edit_event", "description": "Edit an event.", "inputSchema": {"type": "object", "properties": {"event_id": {"type": "string"}, "guests": {"type": "array", "items": {"type": "string"}, "description": "Guest emails. Omit it instead of sending an empty list.", "minItems": 1}}, "required": ["event_id"]}}',
            '{"name": "edit_event", "description": "Edit an event.", "inputSchema": {"type": "object", "properties": {"event_id": {"type": "string"}, "guests": {"type": "array", "items": {"type": "string"}, "description": "Guest emails. Omit it to keep the current list; send [] to clear it."}}, "required": ["event_id"]}}',
          ],
        },
      ],
    },
    {
      name: 'block-scalar description gets the sentence on a line of its own',
      code: 'name: modify_ticket\ndescription: Modify a ticket.\ninputSchema:\n  type: object\n  properties:\n    ticket_id: {type: string, description: The ticket.}\n    watchers:\n      type: array\n      items: {type: string}\n      description: |\n        Users who follow the ticket.\n  required: [ticket_id]\n',
      errors: [
        {
          messageId: 'state',
          line: 7,
          column: 5,
          parameter: 'watchers',
          suggestionOutputs: [
            'name: modify_ticket\ndescription: Modify a ticket.\ninputSchema:\n  type: object\n  properties:\n    ticket_id: {type: string, description: The ticket.}\n    watchers:\n      type: array\n      items: {type: string}\n      description: |\n        Users who follow the ticket.\n        Omit it instead of sending an empty list.\n      minItems: 1\n  required: [ticket_id]\n',
            'name: modify_ticket\ndescription: Modify a ticket.\ninputSchema:\n  type: object\n  properties:\n    ticket_id: {type: string, description: The ticket.}\n    watchers:\n      type: array\n      items: {type: string}\n      description: |\n        Users who follow the ticket.\n        Omit it to keep the current list; send [] to clear it.\n  required: [ticket_id]\n',
          ],
        },
      ],
    },
    {
      name: 'required but nullable: `[]` and `null` both pass',
      code: 'name: send_digest\ndescription: Send a digest email.\ninputSchema:\n  type: object\n  properties:\n    cc: {anyOf: [{type: array, items: {type: string}}, {type: "null"}], description: Copy recipients.}\n  required: [cc]\n',
      errors: [{ messageId: 'nullableRequired', line: 6, column: 5, parameter: 'cc' }],
    },
    {
      name: 'MXCP parameter list: an optional array (it has a default) on a tool that updates records',
      code: 'mxcp: 1\ntool:\n  name: update_member\n  description: Update a member.\n  parameters:\n    - name: member_id\n      type: string\n      description: The member.\n    - name: roles\n      type: array\n      items: {type: string}\n      default: null\n      description: Roles of the member.\n  source:\n    code: SELECT 1\n',
      errors: [
        {
          messageId: 'state',
          line: 9,
          column: 13,
          parameter: 'roles',
          pointer: '/tool/parameters/1/name',
          suggestionOutputs: [
            'mxcp: 1\ntool:\n  name: update_member\n  description: Update a member.\n  parameters:\n    - name: member_id\n      type: string\n      description: The member.\n    - name: roles\n      type: array\n      items: {type: string}\n      default: null\n      description: Roles of the member. Omit it instead of sending an empty list.\n      minItems: 1\n  source:\n    code: SELECT 1\n',
            'mxcp: 1\ntool:\n  name: update_member\n  description: Update a member.\n  parameters:\n    - name: member_id\n      type: string\n      description: The member.\n    - name: roles\n      type: array\n      items: {type: string}\n      default: null\n      description: Roles of the member. Omit it to keep the current list; send [] to clear it.\n  source:\n    code: SELECT 1\n',
          ],
        },
      ],
    },
    {
      name: 'a non-empty default: omission is not the empty list (weaker on a read tool)',
      code: 'name: fetch_page\ndescription: Fetch a web page.\ninputSchema:\n  type: object\n  properties:\n    url: {type: string, description: Page URL.}\n    formats: {type: array, items: {type: string}, default: [markdown], description: Output formats.}\n  required: [url]\n',
      errors: [{ messageId: 'defaulted', line: 7, column: 5, parameter: 'formats', severity: 'info' }],
    },
    {
      name: 'a non-empty default on a tool that acts',
      code: 'name: plan_route\ndescription: Plan a route.\ninputSchema:\n  type: object\n  properties:\n    modes: {type: array, items: {type: string}, default: [car, bike], description: Travel modes}\n',
      errors: [{ messageId: 'defaulted', severity: 'warning', parameter: 'modes', suggestionOutputs: ['name: plan_route\ndescription: Plan a route.\ninputSchema:\n  type: object\n  properties:\n    modes: {type: array, items: {type: string}, default: [car, bike], description: Travel modes. Omit it instead of sending an empty list., minItems: 1}\n'] }],
    },
  ],
});

const fixtures = join(__dirname, '..', 'fixtures', 'seed000');

test(`${ID}: seed 000 — fires on the nullable lists, not on the required one; quiet after the seed's advice`, () => {
  const before = runRule(ID, { code: readFileSync(join(fixtures, 'before.yaml'), 'utf8'), filename: 'before.yaml' }).diagnostics;
  const got = before.map((d) => `${d.tool}.${d.parameter}`);
  for (const p of ['create_metric.metric_scope', 'create_metric.categories', 'create_metric.passing_categories']) assert.ok(got.includes(p), `did not fire on ${p}`);
  assert.ok(!got.includes('create_test_set_bulk.tests'), 'fired on a required, non-nullable list');
  assert.equal(got.length, 3, got.join(', '));
  assert.ok(before.every((d) => d.suggestions.length === 1 && !d.fix));
  const after = runRule(ID, { code: readFileSync(join(fixtures, 'after.yaml'), 'utf8'), filename: 'after.yaml' }).diagnostics;
  assert.deepEqual(after.map((d) => `${d.tool}.${d.parameter}: ${d.message}`), []);
});
