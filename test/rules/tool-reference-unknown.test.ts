import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester, runRule } from '../helpers/rule-tester';

/** A snake_case, verb-first catalogue about orders; `desc` goes into `cancel_order`. */
const orders = (desc: string, extra = ''): string =>
  `tools:\n  - name: list_orders\n    description: List orders.\n    inputSchema: {type: object, properties: {list_mode: {type: string, enum: [compact, get_all_items], description: Layout.}}}\n  - name: create_order\n    description: Create an order.\n    inputSchema: {type: object, properties: {}}\n  - name: cancel_order\n    description: ${desc}\n    inputSchema: {type: object, properties: {${extra}}}\n`;

const mx = (name: string, desc: string): string => `mxcp: 1\ntool:\n  name: ${name}\n  description: ${desc}\n  parameters: []\n`;

ruleTester('tool-reference-unknown', {
  valid: [
    { name: 'an existing tool', code: orders('Cancel an order. Find it with list_orders first.') },
    { name: 'a parameter name of the catalogue', code: orders('Cancel an order. Set list_mode in list_orders to compact.') },
    { name: 'an enum value of the catalogue', code: orders('Cancel an order. Use get_all_items to see them all.') },
    { name: 'a field of the response', code: orders('Cancel an order. Read the create_order_time field of the result.') },
    { name: 'a file name, a path, a key=value pair and an option', code: orders('"Cancel an order. See cancel_orders.py, /api/get_order/1, create_order_item=1 and --list-orders."') },
    { name: 'a list of quoted values', code: orders('"Cancel an order. Mode: (\'list_order_items\', \'get_order_items\')."') },
    { name: 'another naming style is not a tool name of this catalogue', code: orders('Cancel an order. Then call listOrderItems.') },
    { name: 'words the catalogue never uses', code: orders('Cancel an order. Then call send_email to notify the customer.') },
    { name: 'one of a list of identifiers that are not tools', code: orders('"Cancel an order. The result has id, get_order_total, order_status."') },
    {
      name: 'a run of whole words inside an existing name',
      code: 'tools:\n  - name: list_orders\n    description: List orders.\n    inputSchema: {type: object, properties: {}}\n  - name: create_order_refund\n    description: Refund an order.\n    inputSchema: {type: object, properties: {}}\n  - name: cancel_order\n    description: Cancel an order, or use create_order to refund it.\n    inputSchema: {type: object, properties: {}}\n',
    },
    { name: 'a template placeholder and a URL', code: orders('"Cancel an order at https://example.com/get_order_items/ or {get_order_items}."') },
    {
      name: 'a server too small to learn its naming shape from',
      code: 'tools:\n  - name: list_orders\n    description: List orders. Then call get_order_items.\n    inputSchema: {type: object, properties: {}}\n  - name: create_order\n    description: Create an order.\n    inputSchema: {type: object, properties: {}}\n',
    },
    {
      name: 'a catalogue with no dominant naming style',
      code: 'tools:\n  - name: list_orders\n    description: List orders. Then call get_order_items.\n    inputSchema: {type: object, properties: {}}\n  - name: createOrder\n    description: Create an order.\n    inputSchema: {type: object, properties: {}}\n  - name: cancel-order\n    description: Cancel an order.\n    inputSchema: {type: object, properties: {}}\n',
    },
  ],
  invalid: [
    {
      name: 'a renamed tool (YAML)',
      code: orders('Cancel an order. Then call delete_order to remove it.'),
      errors: [
        {
          messageId: 'unknown',
          line: 9,
          column: 18,
          tool: 'cancel_order',
          parameter: null,
          messageIncludes: '`delete_order` is not a tool of this catalogue (did you mean `cancel_order`?)',
          suggestionOutputs: [orders('Cancel an order. Then call cancel_order to remove it.')],
        },
      ],
    },
    {
      name: 'in a parameter description',
      code: orders('Cancel an order.', 'order_id: {type: string, description: From get_orders.}'),
      errors: [
        {
          messageId: 'unknown',
          line: 10,
          parameter: 'order_id',
          messageIncludes: '`get_orders`',
          suggestionOutputs: [orders('Cancel an order.', 'order_id: {type: string, description: From list_orders.}')],
        },
      ],
    },
    {
      name: 'a folded block keeps its layout',
      code: 'tools:\n  - name: list_test_configurations\n    description: List test configurations.\n    inputSchema: {type: object, properties: {}}\n  - name: execute_test_configuration\n    description: Run a test configuration.\n    inputSchema: {type: object, properties: {}}\n  - name: create_test_configuration\n    description: >\n      Create a test configuration.\n      Then call run_test_configuration\n      with the returned ID (run_test_configuration runs it).\n    inputSchema: {type: object, properties: {}}\n',
      errors: [
        {
          messageId: 'unknown',
          line: 9,
          column: 18,
          messageIncludes: '(did you mean `execute_test_configuration`?)',
          suggestionOutputs: [
            'tools:\n  - name: list_test_configurations\n    description: List test configurations.\n    inputSchema: {type: object, properties: {}}\n  - name: execute_test_configuration\n    description: Run a test configuration.\n    inputSchema: {type: object, properties: {}}\n  - name: create_test_configuration\n    description: >\n      Create a test configuration.\n      Then call execute_test_configuration\n      with the returned ID (execute_test_configuration runs it).\n    inputSchema: {type: object, properties: {}}\n',
          ],
        },
      ],
    },
    {
      name: 'kebab-case names with the action last (JSON)',
      filename: 'tools.json',
      code: '{"feature-flag-get-all": {"description": "List flags.", "inputSchema": {"type": "object"}}, "feature-flag-create": {"description": "Create a flag.", "inputSchema": {"type": "object"}}, "experiment-create": {"description": "Create an experiment. Search flags with \'feature-flags-get-all\' first.", "inputSchema": {"type": "object"}}}',
      errors: [
        {
          messageId: 'unknown',
          line: 1,
          pointer: '/experiment-create/description',
          tool: 'experiment-create',
          messageIncludes: '(did you mean `feature-flag-get-all`?)',
          suggestionOutputs: [
            '{"feature-flag-get-all": {"description": "List flags.", "inputSchema": {"type": "object"}}, "feature-flag-create": {"description": "Create a flag.", "inputSchema": {"type": "object"}}, "experiment-create": {"description": "Create an experiment. Search flags with \'feature-flag-get-all\' first.", "inputSchema": {"type": "object"}}}',
          ],
        },
      ],
    },
    {
      name: 'APP__ACTION names; "the X tool" names a tool whatever its shape',
      filename: 'functions.json',
      code: '[{"name": "TRACKER__LIST_ISSUES", "description": "List issues.", "parameters": {"type": "object", "properties": {}}}, {"name": "TRACKER__CREATE_ISSUE", "description": "Create an issue.", "parameters": {"type": "object", "properties": {}}}, {"name": "TRACKER__CLOSE_ISSUE", "description": "Close an issue. Find it with TRACKER__SEARCH_ISSUES or the TRACKER__ISSUE_DETAIL tool.", "parameters": {"type": "object", "properties": {}}}]',
      errors: [
        { messageId: 'unknown', line: 1, tool: 'TRACKER__CLOSE_ISSUE', messageIncludes: '`TRACKER__SEARCH_ISSUES` is not a tool of this catalogue (did you mean `TRACKER__LIST_ISSUES`?)', suggestionOutputs: [
          '[{"name": "TRACKER__LIST_ISSUES", "description": "List issues.", "parameters": {"type": "object", "properties": {}}}, {"name": "TRACKER__CREATE_ISSUE", "description": "Create an issue.", "parameters": {"type": "object", "properties": {}}}, {"name": "TRACKER__CLOSE_ISSUE", "description": "Close an issue. Find it with TRACKER__LIST_ISSUES or the TRACKER__ISSUE_DETAIL tool.", "parameters": {"type": "object", "properties": {}}}]',
        ] },
        { messageId: 'unknown', line: 1, messageIncludes: '`TRACKER__ISSUE_DETAIL`' },
      ],
    },
    {
      name: 'MXCP tools of one folder',
      filename: 'tools/cancel_order.yml',
      code: mx('cancel_order', 'Cancel an order found with search_orders.'),
      others: [
        { filename: 'tools/list_orders.yml', code: mx('list_orders', 'List orders.') },
        { filename: 'tools/create_order.yml', code: mx('create_order', 'Create an order.') },
      ],
      errors: [{ messageId: 'unknown', line: 4, column: 16, messageIncludes: '(did you mean `list_orders`?)', suggestionOutputs: [mx('cancel_order', 'Cancel an order found with list_orders.')] }],
    },
  ],
});

const fixtures = join(__dirname, '..', 'fixtures', 'seed000');

test('tool-reference-unknown: seed 000 before.yaml names run_test_configuration', () => {
  const { diagnostics } = runRule('tool-reference-unknown', { code: readFileSync(join(fixtures, 'before.yaml'), 'utf8'), filename: 'before.yaml' });
  assert.deepEqual(
    diagnostics.map((d) => `${d.tool}: ${d.message}`),
    ['create_test_configuration: `run_test_configuration` is not a tool of this catalogue (did you mean `execute_test_configuration`?)'],
  );
});

test('tool-reference-unknown: seed 000 after.yaml is clean', () => {
  const { diagnostics } = runRule('tool-reference-unknown', { code: readFileSync(join(fixtures, 'after.yaml'), 'utf8'), filename: 'after.yaml' });
  assert.deepEqual(diagnostics.map((d) => d.message), []);
});
