import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester, runRule } from '../helpers/rule-tester';

const listEndpoints = '  - name: list_endpoints\n    description: List endpoints.\n    inputSchema: {type: object, properties: {}}\n';
const execute = (desc: string): string =>
  `tools:\n${listEndpoints}  - name: execute_tests\n    description: Execute tests against an endpoint.\n    inputSchema:\n      type: object\n      properties:\n        endpoint_id: {type: string, format: uuid, description: ${desc}}\n      required: [endpoint_id]\n`;

const mxcp = (name: string, desc: string, params: string): string => `mxcp: 1\ntool:\n  name: ${name}\n  description: ${desc}\n  parameters:\n${params}`;

ruleTester('id-source-missing', {
  valid: [
    { name: 'the description names the producer', code: execute('UUID from list_endpoints.') },
    { name: 'the producer named in backticks', code: execute('"Target endpoint (see `list_endpoints`)."') },
    { name: 'provenance wording without a tool name', code: execute('The endpoint ID as returned when the endpoint was created.') },
    { name: 'provenance: from the … response', code: execute('The id field from the endpoints list response.') },
    { name: 'provenance: use … to find', code: execute('Target endpoint; use the endpoint listing tool to find it.') },
    { name: 'the producer named by its words', code: execute('"Target endpoint, from List Endpoints."') },
    {
      name: 'the tool description says where the value comes from',
      code: `tools:\n${listEndpoints}  - name: check_endpoint\n    description: "Check an endpoint. PREREQUISITES: endpoint_id from list_endpoints."\n    inputSchema:\n      type: object\n      properties:\n        endpoint_id: {type: string, description: The endpoint.}\n`,
    },
    {
      name: 'no tool produces the entity',
      code: 'tools:\n  - name: execute_tests\n    description: Execute tests.\n    inputSchema:\n      type: object\n      properties:\n        endpoint_id: {type: string, description: Target endpoint.}\n        user_id: {type: string, description: The user.}\n',
    },
    {
      name: 'a filter of a tool that lists the same entity',
      code: 'tools:\n  - name: list_folders\n    description: List folders.\n    inputSchema:\n      type: object\n      properties:\n        parentFolderId: {type: string, description: Only children of this folder.}\n  - name: create_folder\n    description: Create a folder.\n    inputSchema: {type: object, properties: {name: {type: string, description: Name.}}}\n',
    },
    {
      name: "the new record's own identifier on the tool that creates it",
      code: 'tools:\n  - name: list_orders\n    description: List orders.\n    inputSchema: {type: object, properties: {}}\n  - name: create_order\n    description: Create an order.\n    inputSchema:\n      type: object\n      properties:\n        order_id: {type: string, description: Client-chosen order ID.}\n',
    },
    {
      name: 'a parameter the description says to leave alone',
      code: 'tools:\n  - name: list_projects\n    description: List projects.\n    inputSchema: {type: object, properties: {}}\n  - name: create_test_set\n    description: Create a test set.\n    inputSchema:\n      type: object\n      properties:\n        project_id: {type: string, description: Omit. The project is taken from the session.}\n',
    },
    {
      name: 'a fallback makes the identifier unnecessary',
      code: 'tools:\n  - name: list_presentations\n    description: List presentations.\n    inputSchema: {type: object, properties: {}}\n  - name: add_slide\n    description: Add a slide.\n    inputSchema:\n      type: object\n      properties:\n        presentation_id: {type: string, description: Presentation to edit; uses the current presentation if not given.}\n',
    },
    {
      name: 'flags, objects and enums are not identifiers to look up',
      code: 'tools:\n  - name: list_tests\n    description: List tests.\n    inputSchema: {type: object, properties: {}}\n  - name: export_results\n    description: Export results.\n    inputSchema:\n      type: object\n      properties:\n        test_ids: {type: boolean, description: Include test IDs in the export.}\n        test_id: {type: string, enum: [all, latest], description: Which tests.}\n        test_uuid: {type: object, description: Test reference.}\n',
    },
    {
      name: 'a tool that reads one record by its id hands out none',
      code: 'tools:\n  - name: get_order\n    description: Get an order.\n    inputSchema: {type: object, properties: {order_id: {type: string, description: The order.}}, required: [order_id]}\n  - name: get_user_by_id\n    description: Get a user.\n    inputSchema: {type: object, properties: {id: {type: string, description: The user ID.}}}\n  - name: cancel_order\n    description: Cancel an order.\n    inputSchema:\n      type: object\n      properties:\n        order_id: {type: string, description: The order to cancel.}\n        user_id: {type: string, description: The user.}\n',
    },
    {
      name: 'producers of another folder belong to another server',
      filename: 'a/tools.yaml',
      code: 'tools:\n  - name: execute_tests\n    description: Execute tests.\n    inputSchema:\n      type: object\n      properties:\n        endpoint_id: {type: string, description: Target endpoint.}\n',
      others: [{ filename: 'b/tools.yaml', code: `tools:\n${listEndpoints}` }],
    },
  ],
  invalid: [
    {
      name: 'a UUID parameter with no source (YAML)',
      code: execute('Target endpoint.'),
      errors: [
        {
          messageId: 'missing',
          line: 10,
          column: 9,
          endColumn: 20,
          parameter: 'endpoint_id',
          tool: 'execute_tests',
          messageIncludes: '`list_endpoints`',
          suggestionOutputs: [execute('Target endpoint. Get it from `list_endpoints`.')],
        },
      ],
    },
    {
      name: 'camelCase identifier matched to a snake_case producer across qualifiers (JSON)',
      filename: 'tools.json',
      code: '{"tools": [{"name": "list_folders", "description": "List folders.", "inputSchema": {"type": "object", "properties": {}}}, {"name": "move_file", "description": "Move a file.", "inputSchema": {"type": "object", "properties": {"parentFolderId": {"type": "string", "description": "Destination folder"}}}}]}',
      errors: [
        {
          messageId: 'missing',
          line: 1,
          column: 225,
          parameter: 'parentFolderId',
          pointer: '/tools/1/inputSchema/properties/parentFolderId',
          suggestionOutputs: [
            '{"tools": [{"name": "list_folders", "description": "List folders.", "inputSchema": {"type": "object", "properties": {}}}, {"name": "move_file", "description": "Move a file.", "inputSchema": {"type": "object", "properties": {"parentFolderId": {"type": "string", "description": "Destination folder. Get it from `list_folders`."}}}}]}',
          ],
        },
      ],
    },
    {
      name: 'only a bulk create produces the entity; a list of ids, with no description',
      code: 'tools:\n  - name: create_test_set_bulk\n    description: Create a test set with its tests.\n    inputSchema: {type: object, properties: {name: {type: string, description: Name.}}}\n  - name: compare_test_sets\n    description: Compare test sets.\n    inputSchema:\n      type: object\n      properties:\n        test_set_ids:\n          type: array\n          items: {type: string, format: uuid}\n',
      errors: [
        {
          messageId: 'missing',
          line: 10,
          column: 9,
          parameter: 'test_set_ids',
          messageIncludes: '`create_test_set_bulk`',
          suggestionOutputs: [
            'tools:\n  - name: create_test_set_bulk\n    description: Create a test set with its tests.\n    inputSchema: {type: object, properties: {name: {type: string, description: Name.}}}\n  - name: compare_test_sets\n    description: Compare test sets.\n    inputSchema:\n      type: object\n      properties:\n        test_set_ids:\n          type: array\n          items: {type: string, format: uuid}\n          description: Get them from `create_test_set_bulk`.\n',
          ],
        },
      ],
    },
    {
      name: 'a parameter described as "ID of the …"; list preferred over create and read',
      code: 'tools:\n  - name: get_run\n    description: Get a run.\n    inputSchema: {type: object, properties: {}}\n  - name: start_run\n    description: Start a run.\n    inputSchema: {type: object, properties: {}}\n  - name: create_run\n    description: Create a run.\n    inputSchema: {type: object, properties: {}}\n  - name: list_runs\n    description: List runs.\n    inputSchema: {type: object, properties: {}}\n  - name: cancel\n    description: Cancel something.\n    inputSchema:\n      type: object\n      properties:\n        target: {type: string, description: ID of the run to cancel}\n',
      errors: [
        {
          messageId: 'missing',
          line: 19,
          column: 9,
          parameter: 'target',
          messageIncludes: '(`list_runs` or `create_run` provides it)',
          suggestionOutputs: [
            'tools:\n  - name: get_run\n    description: Get a run.\n    inputSchema: {type: object, properties: {}}\n  - name: start_run\n    description: Start a run.\n    inputSchema: {type: object, properties: {}}\n  - name: create_run\n    description: Create a run.\n    inputSchema: {type: object, properties: {}}\n  - name: list_runs\n    description: List runs.\n    inputSchema: {type: object, properties: {}}\n  - name: cancel\n    description: Cancel something.\n    inputSchema:\n      type: object\n      properties:\n        target: {type: string, description: ID of the run to cancel. Get it from `list_runs` or `create_run`.}\n',
          ],
        },
      ],
    },
    {
      name: 'a lister named within a parent or a scope beats a creator (`list_joined_guilds`, `list_guild_rooms`)',
      code: 'tools:\n  - name: list_joined_guilds\n    description: Guilds the user is in.\n    inputSchema: {type: object, properties: {}}\n  - name: create_guild\n    description: Create a guild.\n    inputSchema: {type: object, properties: {}}\n  - name: list_guild_rooms\n    description: Rooms of a guild.\n    inputSchema: {type: object, properties: {guild_id: {type: string, description: The guild. From list_joined_guilds.}}, required: [guild_id]}\n  - name: create_room\n    description: Create a room.\n    inputSchema: {type: object, properties: {guild_id: {type: string, description: The guild. From list_joined_guilds.}}}\n  - name: rename_room\n    description: Rename a room.\n    inputSchema:\n      type: object\n      properties:\n        guild_id: {type: string, description: The guild.}\n        room_id: {type: string, description: The room.}\n',
      errors: [
        { messageId: 'missing', line: 19, parameter: 'guild_id', messageIncludes: '(`list_joined_guilds` or `create_guild` provides it)' },
        { messageId: 'missing', line: 20, parameter: 'room_id', messageIncludes: '(`list_guild_rooms` or `create_room` provides it)' },
      ],
    },
    {
      name: 'a qualified lister of another parent does not answer (`list_lobby_notes` for a note of a desk)',
      code: 'tools:\n  - name: list_desk_notes\n    description: Notes of a desk.\n    inputSchema: {type: object, properties: {desk_id: {type: string, description: Desk from `find_desks`.}}, required: [desk_id]}\n  - name: list_lobby_notes\n    description: Notes of a lobby.\n    inputSchema: {type: object, properties: {}}\n  - name: find_desks\n    description: Find desks.\n    inputSchema: {type: object, properties: {}}\n  - name: pin_desk_note\n    description: Pin a note of a desk.\n    inputSchema:\n      type: object\n      properties:\n        desk_id: {type: string, description: Desk from `find_desks`.}\n        note_id: {type: string, description: The note.}\n',
      errors: [{ messageId: 'missing', line: 17, parameter: 'note_id', messageIncludes: '(`list_desk_notes` provides it)' }],
    },
    {
      name: 'a read named in the plural lists; the lister needing no other identifier comes first',
      code: 'tools:\n  - name: get_all_parcels\n    description: Every parcel.\n    inputSchema: {type: object, properties: {}}\n  - name: list_parcels\n    description: Parcels of a depot.\n    inputSchema: {type: object, properties: {depot_id: {type: string, description: Depot from `get_depots`.}}, required: [depot_id]}\n  - name: get_depots\n    description: Depots.\n    inputSchema: {type: object, properties: {}}\n  - name: get_parcels_by_codes\n    description: Look parcels up by code.\n    inputSchema: {type: object, properties: {codes: {type: array, items: {type: string}, description: Codes.}}}\n  - name: create_parcel\n    description: Create a parcel.\n    inputSchema: {type: object, properties: {}}\n  - name: track_parcel\n    description: Track a parcel.\n    inputSchema:\n      type: object\n      properties:\n        parcel_id: {type: string, description: The parcel.}\n',
      errors: [{ messageId: 'missing', line: 22, parameter: 'parcel_id', messageIncludes: '(`get_all_parcels` or `create_parcel` provides it)' }],
    },
    {
      name: 'MXCP tools in one folder form one server',
      filename: 'tools/cancel_order.yml',
      code: mxcp('cancel_order', 'Cancel an order.', '    - name: order_id\n      type: string\n      description: The order to cancel.\n'),
      others: [{ filename: 'tools/list_orders.yml', code: mxcp('list_orders', 'List orders.', '    - name: status\n      type: string\n      description: Order status.\n      default: open\n') }],
      errors: [
        {
          messageId: 'missing',
          line: 6,
          column: 13,
          parameter: 'order_id',
          suggestionOutputs: [mxcp('cancel_order', 'Cancel an order.', '    - name: order_id\n      type: string\n      description: The order to cancel. Get it from `list_orders`.\n')],
        },
      ],
    },
    {
      name: 'with `scope: catalog`, producers of other folders count',
      filename: 'a/tools.yaml',
      options: { scope: 'catalog' },
      code: 'tools:\n  - name: execute_tests\n    description: Execute tests.\n    inputSchema:\n      type: object\n      properties:\n        endpoint_id: {type: string, description: Target endpoint}\n',
      others: [{ filename: 'b/tools.yaml', code: `tools:\n${listEndpoints}` }],
      errors: [
        {
          messageId: 'missing',
          line: 7,
          parameter: 'endpoint_id',
          suggestionOutputs: ['tools:\n  - name: execute_tests\n    description: Execute tests.\n    inputSchema:\n      type: object\n      properties:\n        endpoint_id: {type: string, description: Target endpoint. Get it from `list_endpoints`.}\n'],
        },
      ],
    },
  ],
});

const fixtures = join(__dirname, '..', 'fixtures', 'seed000');

test('id-source-missing: seed 000 before.yaml reports every identifier without a source', () => {
  const { diagnostics } = runRule('id-source-missing', { code: readFileSync(join(fixtures, 'before.yaml'), 'utf8'), filename: 'before.yaml' });
  assert.deepEqual(
    diagnostics.map((d) => `${d.tool}.${d.parameter}`).sort(),
    [
      'create_test_configuration.endpoint_id',
      'create_test_configuration.test_set_id',
      'create_test_run.test_configuration_id',
      'execute_test_configuration.test_configuration_id',
      'execute_tests.endpoint_id',
      'execute_tests.test_id',
      'get_test_result.test_result_id',
      'get_test_run.test_run_id',
      'list_test_results.test_run_id',
    ],
  );
});

test('id-source-missing: seed 000 after.yaml is clean', () => {
  const { diagnostics } = runRule('id-source-missing', { code: readFileSync(join(fixtures, 'after.yaml'), 'utf8'), filename: 'after.yaml' });
  assert.deepEqual(diagnostics.map((d) => d.message), []);
});
