import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ruleTester, runRule } from '../helpers/rule-tester';
import { loadText } from '../../server/src/engine/load';
import { rankTools } from '../../server/src/engine/discover';

// A catalogue of eight tools: six about a customer's invoices, and one whose description is in
// accounting jargon (it never says "refund").
const CATALOG = `tools:
  - name: list_invoices
    description: List a customer's invoices, newest first.
    inputSchema: {type: object, properties: {customer_id: {type: string}}}
  - name: get_invoice
    description: Get one invoice with its line items and the customer it bills.
    inputSchema: {type: object, properties: {invoice_id: {type: string}}}
  - name: create_invoice
    description: Create a draft invoice for a customer.
    inputSchema: {type: object, properties: {customer_id: {type: string}}}
  - name: send_invoice
    description: Email an invoice to the customer's billing contact.
    inputSchema: {type: object, properties: {invoice_id: {type: string}}}
  - name: void_invoice
    description: Void an unpaid invoice so that the customer no longer owes it.
    inputSchema: {type: object, properties: {invoice_id: {type: string}}}
  - name: get_customer
    description: Get a customer with their billing address and balance.
    inputSchema: {type: object, properties: {customer_id: {type: string}}}
  - name: issue_credit_note
    description: Post a ledger adjustment against a settled invoice.
    inputSchema: {type: object, properties: {invoice_id: {type: string}, amount: {type: number}}}
  - name: rotate_api_key
    description: Rotate the signing key of the account.
    inputSchema: {type: object, properties: {}}
`;
const CLEAR = CATALOG.replace('Post a ledger adjustment against a settled invoice.', 'Refund a customer for a paid invoice by issuing a credit note against it.');
const others = (code = CATALOG) => [{ filename: 'tools.yaml', code }];

const suite = (prompt: string, mustCall: string) => `mxcp: 1
suite: billing
description: Billing requests
tests:
  - name: the_test
    description: What the test checks
    prompt: ${JSON.stringify(prompt)}
    assertions:
${mustCall}`;

const REFUND = suite('Refund the customer for invoice INV-1001; they were charged twice.', '      must_call:\n        - tool: issue_credit_note\n          args: {}\n');

ruleTester('tool-undiscoverable', {
  valid: [
    { name: 'the expected tool ranks first once its description says what users say', code: REFUND, filename: 'evals/billing.yml', others: others(CLEAR) },
    { name: 'an outranked tool within a larger k', code: REFUND, filename: 'evals/billing.yml', others: others(), options: { k: 10 } },
    { name: 'a tool the catalogue does not define is left to eval-tool-unknown', code: suite('Refund the customer', '      must_call: [refund_payment]\n'), filename: 'e.yml', others: others() },
    { name: 'a test without a prompt, or without must_call', code: 'mxcp: 1\nsuite: s\ntests:\n  - name: a\n    assertions: {must_call: [issue_credit_note]}\n  - name: b\n    prompt: Refund the customer\n    assertions: {must_not_call: [void_invoice]}\n', filename: 'e.yml', others: others() },
    { name: 'must_not_call is not about discoverability', code: suite('Refund the customer for an invoice', '      must_not_call: [issue_credit_note]\n'), filename: 'e.yml', others: others() },
    { name: 'the plain shorthand entry, ranking first', code: suite('List the invoices of customer C-7', '      must_call:\n        - list_invoices\n'), filename: 'e.yml', others: others() },
    {
      name: 'two tools tied at the top both count as first',
      code: suite('archive the widget', '      must_call: [zeta_tool]\n'),
      filename: 'e.yml',
      others: [{ filename: 't.yaml', code: 'tools:\n  - {name: alpha_tool, description: Archive the widget., inputSchema: {type: object}}\n  - {name: zeta_tool, description: Archive the widget., inputSchema: {type: object}}\n' }],
      options: { k: 1 },
    },
    {
      name: 'a tool written in two files counts once',
      code: suite('Refund the customer for an invoice', '      must_call: [issue_credit_note]\n'),
      filename: 'e.yml',
      others: [...others(CLEAR), { filename: 'old.yaml', code: CLEAR }],
      options: { k: 1 },
    },
    {
      name: 'a JSON eval suite',
      code: JSON.stringify({ mxcp: 1, suite: 's', tests: [{ name: 't', prompt: 'Email the invoice to the customer', assertions: { must_call: [{ tool: 'send_invoice', args: {} }] } }] }, null, 2),
      filename: 'evals/s.json',
      others: others(),
    },
  ],
  invalid: [
    {
      name: 'an expected tool outranked by six others (object entry)',
      code: REFUND,
      filename: 'evals/billing.yml',
      others: others(),
      errors: [{ messageId: 'outranked', line: 10, column: 17, endColumn: 34, parameter: null, tool: 'issue_credit_note', pointer: '/tests/0/assertions/must_call/0/tool', severity: 'warning', messageIncludes: 'Tool `issue_credit_note` ranks 7 for this prompt, outside the top 5, behind `create_invoice`, `list_invoices`, `send_invoice` and 3 more; it never mentions `customer`' }],
    },
    {
      name: 'a shorthand entry, and the option k',
      code: suite('Show the billing address of customer C-7', '      must_call:\n        - get_customer\n        - list_invoices\n'),
      filename: 'e.yml',
      others: others(),
      options: { k: 1 },
      errors: [{ messageId: 'outranked', line: 11, column: 11, tool: 'list_invoices', pointer: '/tests/0/assertions/must_call/1', messageIncludes: 'ranks 2 for this prompt, outside the top 1, behind `get_customer`; it never mentions `billing` or `address`' }],
    },
    {
      name: 'an expected tool that shares no word with the prompt',
      code: suite('Regenerate the signing secret', '      must_call: [rotate_api_key, send_invoice]\n'),
      filename: 'e.yml',
      others: others(),
      errors: [{ messageId: 'unmatched', line: 9, column: 35, tool: 'send_invoice', messageIncludes: 'Tool `send_invoice` matches no word of this prompt but its verbs, unlike `rotate_api_key`; it never mentions `signing`' }],
    },
    {
      name: 'a prompt no tool matches',
      code: suite('Book a flight to Lisbon', '      must_call: [get_invoice]\n'),
      filename: 'e.yml',
      others: others(),
      errors: [{ messageId: 'unmatchedAlone', line: 9, column: 19, tool: 'get_invoice', messageIncludes: "Tool `get_invoice` matches none of this prompt's words (`book`, `flight` or `lisbon`), and no other tool does either" }],
    },
    {
      name: 'a prompt that shares only a verb with the tool',
      code: suite('Create a spaceship', '      must_call: [create_invoice]\n'),
      filename: 'e.yml',
      others: others(),
      errors: [{ messageId: 'unmatchedAlone', line: 9, column: 19 }],
    },
    {
      name: 'a JSON eval suite (the finding points into the JSON)',
      code: JSON.stringify({ mxcp: 1, suite: 's', tests: [{ name: 't', prompt: 'Refund the customer for invoice INV-1', assertions: { must_call: ['issue_credit_note'] } }] }, null, 2),
      filename: 'evals/s.json',
      others: others(),
      errors: [{ messageId: 'outranked', line: 10, column: 11, pointer: '/tests/0/assertions/must_call/0' }],
    },
    {
      name: 'one multi-document file: the suite, then the catalogue',
      code: REFUND + '---\n' + CATALOG,
      filename: 'billing.yaml',
      errors: [{ messageId: 'outranked', line: 10, column: 17, tool: 'issue_credit_note' }],
    },
  ],
});

test('the finding names the eval test and lives in the eval file', () => {
  const { diagnostics, file } = runRule('tool-undiscoverable', { code: REFUND, filename: 'evals/billing.yml', others: others() });
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0].test, 'the_test');
  assert.equal(diagnostics[0].file, file);
  assert.equal(diagnostics[0].file.path, 'evals/billing.yml');
});

test('several tests of one suite are each ranked', () => {
  const code = `mxcp: 1
suite: billing
tests:
  - name: refund
    prompt: Refund the customer
    assertions: {must_call: [issue_credit_note]}
  - name: email
    prompt: Email the invoice to the customer
    assertions: {must_call: [send_invoice]}
  - name: rotate
    prompt: Rotate the signing key
    assertions: {must_call: [{tool: rotate_api_key}]}
`;
  const { diagnostics } = runRule('tool-undiscoverable', { code, filename: 'e.yml', others: others() });
  assert.deepEqual(diagnostics.map((d) => [d.test, d.messageId]), [['refund', 'unmatched']]);
});

test('tools that win on the same words are no sign of missing words', () => {
  // Six short tools and the expected one all carry the prompt's one word; the expected tool's
  // longer description ranks it last by score, but nothing outranks it for a word it lacks.
  const short = ['a', 'b', 'c', 'd', 'e', 'f'].map((x) => `  - {name: widget_${x}, description: Handle a widget., inputSchema: {type: object}}\n`).join('');
  const code = `tools:\n${short}  - {name: widget_list, description: 'Lists every widget of the account, oldest first, fifty to a page, with its size, colour and owner.', inputSchema: {type: object}}\n`;
  const ranked = rankTools(loadText('t.yaml', code).tools, 'what widgets are there?');
  assert.equal(ranked[ranked.length - 1].tool.name, 'widget_list');
  const { diagnostics } = runRule('tool-undiscoverable', { code: suite('what widgets are there?', '      must_call: [widget_list]\n'), filename: 'e.yml', others: [{ filename: 't.yaml', code }] });
  assert.deepEqual(diagnostics.map((d) => d.message), []);
});
