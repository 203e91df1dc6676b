/**
 * The workflow graph: which tools produce the identifiers (or names) other tools consume,
 * inferred from names in every naming style or stated in descriptions; the entity-creation
 * order; and the Mermaid, DOT and JSON forms.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadText } from '../../server/src/engine/load';
import type { Tool } from '../../server/src/engine/model';
import { buildGraph, creationOrder, renderDot, renderGraphJson, renderMermaid, renderOrderMarkdown, type WorkflowGraph } from '../../server/src/engine/graph';

const SEED = join(__dirname, '..', 'fixtures', 'seed000');

function tools(text: string, path = 'tools.yaml'): Tool[] {
  return loadText(path, text).tools;
}

function graphOf(text: string, path = 'tools.yaml'): WorkflowGraph {
  return buildGraph(tools(text, path));
}

/** Edges as `from -> to: parameter (evidence)`. */
function edges(g: WorkflowGraph): string[] {
  return g.edges.map((e) => `${e.from} -> ${e.to}: ${e.parameter} (${e.evidence})`);
}

/** A YAML catalogue from `name: {param: schema}` pairs, with optional descriptions. */
function catalogue(defs: [name: string, props?: Record<string, string>, required?: string[], description?: string][]): string {
  const out = ['tools:'];
  for (const [name, props = {}, required = [], description = `Tool ${name}.`] of defs) {
    out.push(`  - name: ${name}`, `    description: ${JSON.stringify(description)}`, '    inputSchema:', '      type: object', '      properties:');
    const entries = Object.entries(props);
    if (entries.length === 0) out[out.length - 1] += ' {}';
    for (const [p, s] of entries) out.push(`        ${p}: ${s}`);
    if (required.length) out.push(`      required: [${required.join(', ')}]`);
  }
  return out.join('\n') + '\n';
}

test('seed 000: list_endpoints feeds create_test_configuration through endpoint_id', () => {
  const g = buildGraph(loadText('before.yaml', readFileSync(join(SEED, 'before.yaml'), 'utf8')).tools);
  const e = g.edges.find((x) => x.from === 'list_endpoints' && x.to === 'create_test_configuration');
  assert.deepEqual(e, { from: 'list_endpoints', to: 'create_test_configuration', parameter: 'endpoint_id', entity: 'endpoint', evidence: 'name', ref: 'id', required: true });
  assert.ok(edges(g).includes('create_test_set_bulk -> create_test_configuration: test_set_id (name)'));
  assert.ok(edges(g).includes('create_test_configuration -> execute_test_configuration: test_configuration_id (name)'));
  // Names, not IDs: the tests of a set name their behavior, category and topic.
  assert.ok(edges(g).includes('list_behaviors -> create_test_set_bulk: tests[].behavior (name)'));
  // Server-managed identifiers (owner_id, organization_id…) have no producer and make no edge.
  assert.ok(!g.edges.some((x) => /owner_id|organization_id|status_id|user_id/.test(x.parameter)));
  assert.equal(g.nodes.length, 20);
});

test('seed 000 after the improvements: the edges the descriptions state carry description evidence', () => {
  const g = buildGraph(loadText('after.yaml', readFileSync(join(SEED, 'after.yaml'), 'utf8')).tools);
  const all = edges(g);
  for (const e of [
    'list_endpoints -> create_test_configuration: endpoint_id (description)',
    'create_test_set_bulk -> create_test_configuration: test_set_id (description)',
    'create_test_configuration -> execute_test_configuration: test_configuration_id (description)',
    'list_test_runs -> get_test_run: test_run_id (description)',
    'create_test_run -> get_test_run: test_run_id (description)',
    'list_tests -> execute_tests: test_id (description)',
  ]) {
    assert.ok(all.includes(e), `missing ${e} in\n${all.join('\n')}`);
  }
  // An edge inferred from the names stays, marked as such, when the description names another producer.
  assert.ok(all.includes('list_test_sets -> create_test_configuration: test_set_id (name)'));
});

test('seed 000: the creation order follows section D of the seed', () => {
  const g = buildGraph(loadText('before.yaml', readFileSync(join(SEED, 'before.yaml'), 'utf8')).tools);
  const md = renderOrderMarkdown(creationOrder(g));
  assert.equal(
    md,
    [
      '1. list_behaviors, list_categories, list_topics, list_endpoints (discover existing)',
      '2. create_project',
      '3. create_test_set_bulk (with behavior + category + topic; get test_set_id)',
      '4. create_metric',
      '5. create_test_configuration (with endpoint_id + test_set_id; get test_configuration_id)',
      '6. create_test_run (with test_configuration_id; get test_run_id)',
      '7. execute_test_configuration (use test_configuration_id)',
      '8. get_test_run, list_test_results (check results)',
      '',
    ].join('\n'),
  );
});

test('edges from names: snake_case, camelCase, kebab-case, PascalCase and APP__UPPER names', () => {
  const snake = graphOf(catalogue([['list_widgets'], ['get_widget', { widget_id: '{type: string}' }, ['widget_id']]]));
  assert.deepEqual(edges(snake), ['list_widgets -> get_widget: widget_id (name)']);
  const camel = graphOf(catalogue([['listWidgets'], ['getWidget', { widgetId: '{type: string}' }, ['widgetId']]]));
  assert.deepEqual(edges(camel), ['listWidgets -> getWidget: widgetId (name)']);
  const kebab = graphOf(catalogue([['list-widgets'], ['get-widget', { 'widget-id': '{type: string}' }]]));
  assert.deepEqual(edges(kebab), ['list-widgets -> get-widget: widget-id (name)']);
  const pascal = graphOf(catalogue([['ListWidgets'], ['DeleteWidget', { WidgetId: '{type: string}' }]]));
  assert.deepEqual(edges(pascal), ['ListWidgets -> DeleteWidget: WidgetId (name)']);
  const app = graphOf(catalogue([['SHOP__LIST_ORDERS'], ['SHOP__CANCEL_ORDER', { order_id: '{type: string}' }]]));
  assert.deepEqual(edges(app), ['SHOP__LIST_ORDERS -> SHOP__CANCEL_ORDER: order_id (name)']);
});

test('edges from names: plurals, qualifiers, uuid formats, numbers and "ID of the …"', () => {
  const g = graphOf(
    catalogue([
      ['list_folders'],
      ['create_folder', { name: '{type: string}', parent_folder_id: '{type: string}' }, ['name']],
      ['move_files', { file_ids: '{type: array, items: {type: string}}', target_folder_id: '{type: string}' }],
      ['search_files', { query: '{type: string}' }],
      ['list_tickets'],
      ['close_ticket', { ticket_number: '{type: integer}', page_number: '{type: integer}' }],
      ['share', { folder: '{type: string, format: uuid}' }],
      ['archive', { target: '{type: string, description: ID of the folder to archive.}' }],
    ]),
  );
  assert.deepEqual(edges(g), [
    'list_folders -> create_folder: parent_folder_id (name)',
    'search_files -> move_files: file_ids (name)',
    'list_folders -> move_files: target_folder_id (name)',
    'create_folder -> move_files: target_folder_id (name)',
    'list_tickets -> close_ticket: ticket_number (name)',
    'list_folders -> share: folder (name)',
    'create_folder -> share: folder (name)',
    'list_folders -> archive: target (name)',
    'create_folder -> archive: target (name)',
  ]);
  // A page number is a quantity, not a record's number.
  assert.ok(!g.edges.some((e) => e.parameter === 'page_number'));
  assert.equal(g.edges.find((e) => e.parameter === 'file_ids')!.entity, 'file');
});

test('edges from names: a reader counts only when nothing lists or creates the entity; a lookup by ID is no producer', () => {
  const g = graphOf(
    catalogue([
      ['get_current_account'],
      ['get_account_by_id', { account_id: '{type: string}' }, ['account_id']],
      ['send_invoice', { account_id: '{type: string}' }, ['account_id']],
      ['list_reports'],
      ['get_report', { report_id: '{type: string}' }, ['report_id']],
      ['get_latest_report'],
      ['share_report', { report_id: '{type: string}' }, ['report_id']],
    ]),
  );
  const into = (to: string) => edges(g).filter((e) => e.includes(`-> ${to}:`));
  assert.deepEqual(into('send_invoice'), ['get_current_account -> send_invoice: account_id (name)']);
  assert.deepEqual(into('share_report'), ['list_reports -> share_report: report_id (name)']);
});

test('edges from names: a producer of the entity within what the consumer names wins over an unrelated one', () => {
  const g = graphOf(
    catalogue([
      ['add_note_to_draft_review', { body: '{type: string}' }],
      ['add_ticket_note', { ticket_id: '{type: string}', body: '{type: string}' }],
      ['add_ticket_note_reaction', { note_id: '{type: string}', emoji: '{type: string}' }],
      ['reply_to_note', { note_id: '{type: string}' }],
    ]),
  );
  const into = (to: string) => edges(g).filter((e) => e.includes(`-> ${to}:`));
  assert.deepEqual(into('add_ticket_note_reaction'), ['add_ticket_note -> add_ticket_note_reaction: note_id (name)']);
  // Without a more specific producer, the plain one stays.
  assert.deepEqual(into('reply_to_note'), ['add_note_to_draft_review -> reply_to_note: note_id (name)']);
});

test('names, not IDs: a string parameter described as a name, whose entity a tool lists', () => {
  const g = graphOf(
    catalogue([
      ['list_labels'],
      ['tag_item', { label: '{type: string, description: Label name.}', labels: '{type: array, items: {type: string}, description: Label names.}' }],
      ['rename_item', { label: '{type: string, description: The new text.}' }],
      ['create_label', { label: '{type: string, description: Label name.}' }],
    ]),
  );
  // Lists of strings, prose that does not say "name", and a creator naming its own record make no edge.
  assert.deepEqual(edges(g), ['list_labels -> tag_item: label (name)']);
  assert.equal(g.edges[0].ref, 'name');
});

test('edges from descriptions: the parameter or the tool description names the producer', () => {
  const g = graphOf(
    catalogue([
      ['fetch_things'],
      ['lookup_gadgets'],
      ['list_modes'],
      ['make_template', { body: '{type: string}' }],
      [
        'use_thing',
        {
          thing_ref: '{type: string, format: uuid, description: UUID from the fetch_things response.}',
          gadget_id: '{type: string}',
          mode: '{type: string, description: "Mode; see available values with list_modes."}',
          style: '{type: string, description: "Style; use make_template first."}',
        },
        [],
        'Use a thing. gadget_id: returned by lookup_gadgets.',
      ],
    ]),
  );
  assert.deepEqual(edges(g), [
    'fetch_things -> use_thing: thing_ref (description)',
    'lookup_gadgets -> use_thing: gadget_id (description)',
    'list_modes -> use_thing: mode (description)',
  ]);
  assert.equal(g.edges.find((e) => e.parameter === 'mode')!.ref, 'value');
});

test('edges from descriptions: each clause pairs its parameters with their producers', () => {
  const g = graphOf(
    catalogue([
      ['list_boards'],
      ['list_columns'],
      ['poll_job'],
      [
        'move_card',
        { board_id: '{type: string}', column_id: '{type: string}', card_key: '{type: string}', lane_name: '{type: string}', row_name: '{type: string}' },
        [],
        'Move a card. PREREQUISITES: board_id from list_boards or poll_job; column_id from list_columns. Resolve lane_name and row_name from list_columns first.',
      ],
    ]),
  );
  assert.deepEqual(edges(g), [
    'list_boards -> move_card: board_id (description)',
    'poll_job -> move_card: board_id (description)',
    'list_columns -> move_card: column_id (description)',
    'list_columns -> move_card: lane_name (description)',
    'list_columns -> move_card: row_name (description)',
  ]);
});

test('edges from descriptions: contrasts, next steps and calls are not sources', () => {
  const g = graphOf(
    catalogue([
      ['list_orders'],
      ['export_orders'],
      ['ship_order'],
      [
        'get_order_total',
        { order_ref: '{type: string, format: uuid, description: "Do not take it from export_orders; call ship_order next."}' },
        [],
        'Total of an order. To ship it, use ship_order(order_ref). Needed for ship_order.',
      ],
    ]),
  );
  assert.deepEqual(edges(g), []);
});

test('no self edges: a filter of a listing, a creator\'s own ID, a description naming the tool itself', () => {
  const g = graphOf(
    catalogue([
      ['list_widgets', { widget_id: '{type: string, description: Only this widget.}' }],
      ['create_widget', { widget_id: '{type: string}', name: '{type: string}' }],
      ['touch_widget', { widget_id: '{type: string, description: ID from touch_widget or list_widgets.}' }],
    ]),
  );
  assert.ok(g.edges.every((e) => e.from !== e.to));
  assert.deepEqual(edges(g), ['list_widgets -> touch_widget: widget_id (description)', 'create_widget -> touch_widget: widget_id (name)']);
});

test('parameters marked server-managed or read-only carry no edge', () => {
  const g = graphOf(
    catalogue([
      ['list_teams'],
      ['create_note', { team_id: '{type: string, description: Server-managed; omit.}', owner_team_id: '{type: string, readOnly: true}', text: '{type: string}' }],
    ]),
  );
  assert.deepEqual(g.edges, []);
});

test('a tool without declared parameters: URL placeholders and identifiers its description requires', () => {
  const text = [
    'tools:',
    '  - name: list_pipelines',
    '    method: GET',
    '    path: /pipelines/',
    '    description: List pipelines.',
    '  - name: run_pipeline',
    '    method: POST',
    '    path: /pipelines/{pipeline_id}/run',
    '    description: Run a pipeline. The response includes run_id.',
    '  - name: create_stage',
    '    method: POST',
    '    path: /stages/',
    '    description: "Create a stage. Required: pipeline_id (UUID). Optional: run_id."',
    '  - name: list_runs',
    '    method: GET',
    '    path: /runs/',
    '    description: List runs.',
  ].join('\n');
  const g = graphOf(text);
  assert.deepEqual(edges(g), ['list_pipelines -> run_pipeline: pipeline_id (name)', 'list_pipelines -> create_stage: pipeline_id (name)', 'list_runs -> create_stage: run_id (name)']);
  assert.deepEqual(
    g.edges.map((e) => e.required),
    [true, true, false],
  );
});

test('tools of different servers never link, and a shared name gets its server in the id', () => {
  const a = tools(catalogue([['list_items'], ['get_item', { item_id: '{type: string}' }]]), 'one/tools.yaml');
  const b = tools(catalogue([['list_items'], ['tag_item', { item_id: '{type: string}' }]]), 'two/tools.yaml');
  const g = buildGraph([...a, ...b]);
  assert.deepEqual(
    g.nodes.map((n) => n.id),
    ['list_items (one)', 'get_item', 'list_items (two)', 'tag_item'],
  );
  assert.deepEqual(edges(g), ['list_items (one) -> get_item: item_id (name)', 'list_items (two) -> tag_item: item_id (name)']);
  // With scope `catalog`, the run is one catalogue.
  assert.equal(buildGraph([...a, ...b], { scope: 'catalog' }).nodes.length, 3);
});

test('order: discover, creators by dependency then catalogue order, actors, checks', () => {
  const g = graphOf(
    catalogue([
      ['list_regions'],
      ['create_shipment', { order_id: '{type: string}', carrier_id: '{type: string}' }, ['order_id']],
      ['create_order', { customer_id: '{type: string}', region_id: '{type: string}' }, ['customer_id']],
      ['create_customer', { name: '{type: string}' }],
      ['create_coupon', { code: '{type: string}' }],
      ['list_carriers'],
      ['dispatch_shipment', { shipment_id: '{type: string}' }, ['shipment_id']],
      ['track_shipment', { shipment_id: '{type: string}' }, ['shipment_id']],
      ['get_shipment', { shipment_id: '{type: string}' }, ['shipment_id']],
      ['delete_order', { order_id: '{type: string}' }, ['order_id']],
    ]),
  );
  const order = creationOrder(g);
  assert.deepEqual(order.cycles, []);
  assert.equal(
    renderOrderMarkdown(order),
    [
      '1. list_regions, list_carriers (discover existing)',
      '2. create_customer (get customer_id)',
      '3. create_coupon',
      '4. create_order (with customer_id + region_id; get order_id)',
      '5. create_shipment (with order_id + carrier_id; get shipment_id)',
      '6. dispatch_shipment, track_shipment (use shipment_id)',
      '7. get_shipment (check results)',
      '',
    ].join('\n'),
  );
});

test('order: a cycle is broken at an optional parameter first, and noted', () => {
  const g = graphOf(
    catalogue([
      ['create_author', { name: '{type: string}', book_id: '{type: string}' }, ['name']],
      ['create_book', { title: '{type: string}', author_id: '{type: string}' }, ['title', 'author_id']],
    ]),
  );
  const order = creationOrder(g);
  assert.deepEqual(order.cycles, [{ tools: ['create_author', 'create_book'], without: [{ tool: 'create_author', parameter: 'book_id', from: 'create_book', required: false }] }]);
  assert.equal(
    renderOrderMarkdown(order),
    [
      '1. create_author (get author_id)',
      '2. create_book (with author_id; get book_id)',
      '',
      'Cycle: create_author and create_book depend on each other; call create_author first, without book_id.',
      '',
    ].join('\n'),
  );
  // Both required: the tool that comes first in the catalogue goes first, and the note says so.
  const hard = creationOrder(
    graphOf(
      catalogue([
        ['create_lock', { key_id: '{type: string}' }, ['key_id']],
        ['create_key', { lock_id: '{type: string}' }, ['lock_id']],
        ['create_door', { lock_id: '{type: string}', hinge_id: '{type: string}' }, ['lock_id']],
        ['create_hinge', { door_id: '{type: string}' }],
      ]),
    ),
  );
  const md = renderOrderMarkdown(hard);
  assert.match(md, /^1\. create_lock \(get lock_id\)\n2\. create_key \(with lock_id; get key_id\)\n/);
  assert.match(md, /Cycle: create_lock and create_key depend on each other; create_lock comes first, but it requires key_id: use an existing one\./);
  assert.match(md, /Cycle: create_door and create_hinge depend on each other; call create_door first, without hinge_id\./);
  assert.equal(hard.steps.filter((s) => s.kind === 'create').length, 4);
  // Both optional: the tool that comes first in the catalogue goes first; the same input, the same order.
  const pair = catalogue([['create_cat', { dog_id: '{type: string}' }], ['create_dog', { cat_id: '{type: string}' }]]);
  const once = creationOrder(graphOf(pair));
  assert.deepEqual(once.cycles, [{ tools: ['create_cat', 'create_dog'], without: [{ tool: 'create_cat', parameter: 'dog_id', from: 'create_dog', required: false }] }]);
  assert.deepEqual(creationOrder(graphOf(pair)), once);
});

test('order: nothing to create, nothing to order', () => {
  const g = graphOf(catalogue([['list_items'], ['get_item', { item_id: '{type: string}' }]]));
  assert.deepEqual(creationOrder(g).steps, []);
  assert.equal(renderOrderMarkdown(creationOrder(g)), '');
});

const MERMAID_NODE = /^ {2}[A-Za-z][A-Za-z0-9_]*(?:\(\["[^"]*"\]\)|\["[^"]*"\]|\{\{"[^"]*"\}\})$/;
const MERMAID_EDGE = /^ {2}[A-Za-z][A-Za-z0-9_]* (?:-->|-\.->)\|"[^"]*"\| [A-Za-z][A-Za-z0-9_]*$/;

test('mermaid: flowchart LR, safe node ids, quoted labels, dashed optional edges', () => {
  const g = graphOf(
    catalogue([
      ['end', { x: '{type: string}' }],
      ['list.widgets'],
      ['3d-print', { widget_id: '{type: string}', 'tests[]': '{type: string}' }, ['widget_id']],
      ['list_gizmos'],
      ['use_gizmo', { gizmo_id: '{type: string}' }],
      ['list_end'],
      ['read_end_detail', { end_id: '{type: string}' }],
    ]),
  );
  const text = renderMermaid(g);
  const lines = text.trimEnd().split('\n');
  assert.equal(lines[0], 'flowchart LR');
  for (const l of lines.slice(1)) {
    if (l.startsWith('  %%')) continue;
    assert.ok(MERMAID_NODE.test(l) || MERMAID_EDGE.test(l), `not Mermaid: ${l}`);
  }
  assert.ok(lines.includes('  list_widgets(["list.widgets"])'));
  assert.ok(lines.includes('  t_3d_print{{"3d-print"}}'));
  assert.ok(lines.includes('  list_widgets -->|"widget_id"| t_3d_print'));
  assert.ok(lines.includes('  list_gizmos -.->|"gizmo_id"| use_gizmo'));
  assert.ok(lines.includes('  %% 1 tool without edges: end'));
  // `end` is a Mermaid keyword: never a bare node id.
  assert.ok(!lines.some((l) => /^ {2}end\b/.test(l)));
});

test('mermaid: two parameters between the same tools make one labelled edge', () => {
  const g = graphOf(catalogue([['list_teams'], ['move_member', { from_team_id: '{type: string}', to_team_id: '{type: string}' }, ['from_team_id', 'to_team_id']]]));
  assert.deepEqual(g.edges.length, 2);
  assert.match(renderMermaid(g), /\n {2}list_teams -->\|"from_team_id, to_team_id"\| move_member\n/);
});

test('dot: a digraph with quoted ids, escaped quotes, labels and dashed optional edges', () => {
  const g = graphOf(catalogue([['list_teams'], ['get_team', { team_id: '{type: string}' }, ['team_id']], ['ping_team', { team_id: '{type: string}' }]]));
  const text = renderDot(g);
  const lines = text.trimEnd().split('\n');
  assert.equal(lines[0], 'digraph workflow {');
  assert.equal(lines[lines.length - 1], '}');
  assert.ok(lines.includes('  "list_teams" -> "get_team" [label="team_id"];'));
  assert.ok(lines.includes('  "list_teams" -> "ping_team" [label="team_id", style=dashed];'));
  assert.ok(lines.includes('  "list_teams" [shape=ellipse];'));
  for (const l of lines.slice(1, -1)) assert.match(l, /^ {2}(?:rankdir=LR;|node \[shape=box\];|"(?:[^"\\]|\\.)*"(?: -> "(?:[^"\\]|\\.)*")?(?: \[[^\]]*\])?;|\/\/ .*)$/);
  const odd = renderDot({ nodes: [{ id: 'say "hi"', name: 'say "hi"', action: 'other', entity: '', file: 'x' }, { id: 'b\\c', name: 'b\\c', action: 'list', entity: '', file: 'x' }], edges: [{ from: 'b\\c', to: 'say "hi"', parameter: 'p', entity: '', evidence: 'name', ref: 'id', required: true }] });
  assert.ok(odd.includes('"b\\\\c" -> "say \\"hi\\"" [label="p"];'), odd);
});

test('json: every tool and every edge, with the documented fields', () => {
  const g = graphOf(catalogue([['list_teams'], ['get_team', { team_id: '{type: string}' }, ['team_id']], ['ping']]));
  const j = JSON.parse(renderGraphJson(g));
  assert.deepEqual(
    j.nodes.map((n: { name: string }) => n.name),
    ['list_teams', 'get_team', 'ping'],
  );
  assert.deepEqual(j.nodes[0], { id: 'list_teams', name: 'list_teams', action: 'list', entity: 'team', file: 'tools.yaml' });
  assert.deepEqual(j.edges, [{ from: 'list_teams', to: 'get_team', parameter: 'team_id', entity: 'team', evidence: 'name', ref: 'id', required: true }]);
});
