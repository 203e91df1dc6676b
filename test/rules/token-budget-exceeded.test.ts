import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadText } from '../../server/src/engine/load';
import { buildCatalog } from '../../server/src/engine/model';
import { approxTokens, renderCatalog } from '../../server/src/engine/render';
import { serverManagedPredicate } from '../../server/src/engine/server-managed';
import { ruleTester, runRule } from '../helpers/rule-tester';

const shelf = `tools:
  - name: find_books
    description: Find books by title or author.
    inputSchema:
      type: object
      properties:
        query: {type: string, description: Title or author words.}
  - name: add_book
    description: Add a book to the shelf, with its title, author and year of publication.
    inputSchema:
      type: object
      properties:
        title: {type: string, description: Title of the book.}
        author: {type: string, description: Who wrote it.}
        year: {type: integer, description: Year of first publication.}
        organization_id: {type: string, description: Server-managed; omit.}
  - name: drop_book
    description: Remove a book.
    inputSchema: {type: object, properties: {title: {type: string}}}
`;

const shelfJson = JSON.stringify(
  {
    tools: [
      { name: 'find_books', description: 'Find books by title or author.', inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'Title or author words.' } } } },
      { name: 'add_book', description: 'Add a book to the shelf, with its title, author and year of publication.', inputSchema: { type: 'object', properties: { title: { type: 'string' } } } },
    ],
  },
  null,
  2,
);

/** `n` tools whose descriptions take about `chars` characters each. */
const big = (n: number, chars: number): string =>
  'tools:\n' + Array.from({ length: n }, (_, i) => `  - name: step_${i}\n    description: ${'Does one more careful thing. '.repeat(Math.ceil(chars / 29)).trim()}\n    inputSchema: {type: object}\n`).join('');

ruleTester('token-budget-exceeded', {
  valid: [
    { name: 'a small catalogue under the default budget', code: shelf },
    { name: 'exactly at the budget: server-managed fields are not counted (the preview hides them)', code: shelf, options: { budget: 94 } },
    { name: 'the markdown layout is shorter than the JSON one', code: shelf, options: { budget: 200 } },
    {
      name: 'two folders are two servers',
      filename: 'a/tools.yaml',
      code: big(5, 1000),
      others: [{ filename: 'b/tools.yaml', code: big(5, 1000) }],
      options: { budget: 1500 },
    },
  ],
  invalid: [
    {
      name: 'over the budget (YAML): the crossing tool, the biggest named',
      code: shelf,
      options: { budget: 50 },
      errors: [
        {
          messageId: 'over',
          line: 8,
          column: 11,
          tool: 'add_book',
          parameter: null,
          messageIncludes: 'Tool definitions of this folder take ≈ 94 tokens, over the budget of 50; the biggest: `add_book` (≈ 54), `find_books` (≈ 25), `drop_book` (≈ 16)',
        },
      ],
    },
    {
      name: 'JSON',
      filename: 'tools.json',
      code: shelfJson,
      options: { budget: 30 },
      errors: [{ messageId: 'over', line: 17, column: 15, tool: 'add_book', messageIncludes: 'over the budget of 30' }],
    },
    {
      name: 'the tools-list layout measures the full JSON schemas',
      code: shelf,
      options: { budget: 200, layout: 'tools-list' },
      errors: [{ messageId: 'over', tool: 'add_book', messageIncludes: '≈ 311 tokens, over the budget of 200' }],
    },
    {
      name: 'the default budget of 10,000 tokens',
      code: big(42, 1000),
      errors: [{ messageId: 'over', tool: 'step_38', messageIncludes: 'over the budget of 10000' }],
    },
    {
      name: 'a server of a multi-server dump',
      code: `- name: library\n  tools:\n${shelf.split('\n').slice(1).map((l) => (l ? '  ' + l : l)).join('\n')}- name: other\n  tools:\n    - {name: ping, description: Ping.}\n`,
      options: { budget: 50 },
      errors: [{ messageId: 'over', tool: 'add_book', messageIncludes: 'Tool definitions of server `library` of `tools.yaml` take' }],
    },
  ],
});

test('token-budget-exceeded counts what `preview` prints', () => {
  const file = loadText('tools.yaml', shelf);
  const text = renderCatalog(file.tools, { hide: serverManagedPredicate(buildCatalog([file])) });
  assert.ok(!text.includes('organization_id'));
  const d = runRule('token-budget-exceeded', { code: shelf, options: { budget: 1 } }).diagnostics[0];
  assert.ok(d.message.includes(`≈ ${approxTokens(text)} tokens`), d.message);
});

test('token-budget-exceeded: seed 000 (before and after) stays quiet: its catalogue is within every provider\'s limits', () => {
  for (const f of ['before.yaml', 'after.yaml']) {
    const code = readFileSync(join(__dirname, '..', 'fixtures', 'seed000', f), 'utf8');
    assert.deepEqual(runRule('token-budget-exceeded', { code, filename: f }).diagnostics.map((d) => d.message), [], f);
  }
});
