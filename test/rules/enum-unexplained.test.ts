import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleTester, runRule } from '../helpers/rule-tester';

const tool = (props: string, description = 'Create a metric.'): string =>
  `name: create_metric\ndescription: ${description}\ninputSchema:\n  type: object\n  properties:\n${props}`;

ruleTester('enum-unexplained', {
  valid: [
    { name: 'values listed in the own description', code: tool('    score_type:\n      type: string\n      enum: [numeric, categorical]\n      description: \'One of: "numeric", "categorical".\'\n') },
    { name: 'values listed in the tool description', code: tool('    score_type:\n      type: string\n      enum: [numeric, categorical]\n      description: Score type.\n', 'Create a metric; score_type is numeric or categorical.') },
    { name: 'values listed case-insensitively as whole words', code: tool('    score_type:\n      type: string\n      enum: [numeric, categorical]\n      description: Numeric or Categorical scores.\n') },
    {
      name: 'enum inside anyOf, listed in the enclosing property description',
      code: tool('    scope:\n      anyOf:\n        - type: array\n          items: {type: string, enum: [Single-Turn, Multi-Turn]}\n        - type: "null"\n      description: \'["Single-Turn"] and/or ["Multi-Turn"].\'\n'),
    },
    { name: 'a single value is a constant', code: tool('    kind:\n      type: string\n      enum: [metric]\n      description: Always metric.\n') },
    { name: 'booleans and null are not values to explain', code: tool('    flag:\n      enum: [true, false, null]\n      description: A flag.\n    mode:\n      type: string\n      enum: ["true", "false"]\n      description: Whether to do it.\n') },
    {
      name: 'opaque symbols each next to their meaning',
      code: tool('    op:\n      anyOf:\n        - {type: string, enum: ["=", "<", ">=", "!="]}\n        - type: "null"\n      description: \'How a score compares with the threshold: "=" equal, "<" less than, ">=" at least, "!=" not equal.\'\n'),
    },
    { name: 'numeric codes with `n = meaning`', code: tool('    priority:\n      type: integer\n      enum: [1, 2, 3]\n      description: 1 = low, 2 = medium, 3 = high.\n') },
    { name: 'numeric codes with `n (meaning)` and `n-meaning`', code: tool('    priority:\n      type: integer\n      enum: [1, 2]\n      description: Priority, 1 (low) or 2 (high).\n    walk:\n      type: string\n      enum: ["0", "1"]\n      description: "Include walking steps: 0-no, 1-yes"\n') },
    { name: 'symbols explained as `meaning (symbol)`', code: tool('    op:\n      type: string\n      enum: [">", "<"]\n      description: greater than (>) or less than (<).\n') },
    { name: 'quantities are their own meaning', code: tool('    page_size:\n      type: integer\n      enum: [10, 25, 50]\n      description: Rows per page, 10, 25 or 50.\n') },
    { name: 'common words listed next to each other', code: tool('    state:\n      type: string\n      enum: [open, closed, all]\n      description: Issue state, open, closed or all.\n') },
    {
      name: 'enums longer than maxValues are skipped',
      code: tool(`    country:\n      type: string\n      enum: [${Array.from({ length: 21 }, (_, i) => 'C' + String.fromCharCode(65 + i)).join(', ')}]\n      description: ISO 3166 country code.\n`),
    },
    { name: 'maxValues option', options: { maxValues: 3 }, code: tool('    color:\n      type: string\n      enum: [red, green, blue, black]\n      description: Color.\n') },
    { name: 'opaque option off', options: { opaque: false }, code: tool('    op:\n      type: string\n      enum: ["<", ">"]\n      description: \'One of "<", ">".\'\n') },
    { name: 'enums under $defs are left to the property that references them', code: tool('    x: {$ref: "#/$defs/k", description: The kind.}\n  $defs:\n    k: {type: string, enum: [a1x, b2y]}\n') },
    { name: 'letter-digit codes explained with `for`', code: tool('    priority:\n      type: string\n      enum: [P1, P2]\n      description: P1 for urgent work, P2 for the rest.\n') },
    { name: 'an enum beside a free string branch names common values, not the valid ones', code: tool('    unit:\n      anyOf:\n        - {type: string, enum: [cm, inch]}\n        - {type: string}\n      description: Unit.\n') },
    { name: 'codes followed by what they stand for are listed (`0-default`)', code: tool('    route:\n      type: string\n      enum: ["0", "3"]\n      description: "Route preference: 0-default route, 3-route without tolls"\n') },
    {
      name: 'the default alone needs no listing: leaving the parameter out gives it',
      code: tool('    packing:\n      type: string\n      enum: [loose, tight]\n      default: loose\n      description: Switch the packing to tight.\n    lens:\n      anyOf:\n        - {type: string, enum: [wide, narrow, either], default: either}\n        - type: "null"\n      description: Restrict to wide or narrow lenses.\n'),
    },
    { name: 'an unlisted default code is not reported as listed but unexplained', code: tool('    speed:\n      type: string\n      enum: ["0", "1", "2"]\n      default: "0"\n      description: Speed, 1 = slow or 2 = fast.\n') },
    { name: 'deprecated parameters are skipped', code: tool('    old:\n      type: string\n      enum: [left, right]\n      deprecated: true\n      description: Old.\n') },
  ],
  invalid: [
    {
      name: 'values in the schema only (YAML), suggestion appends to the description',
      code: tool('    score_type: {type: string, enum: [numeric, categorical], description: Score type.}\n'),
      errors: [
        {
          messageId: 'undescribed',
          line: 6,
          column: 5,
          endColumn: 15,
          parameter: 'score_type',
          tool: 'create_metric',
          messageIncludes: '`numeric`, `categorical`',
          suggestionOutputs: [tool('    score_type: {type: string, enum: [numeric, categorical], description: "Score type. One of: \\"numeric\\", \\"categorical\\"."}\n')],
        },
      ],
    },
    {
      name: 'no description at all: the suggestion creates one',
      code: tool('    sort:\n      type: string\n      enum: [asc, desc]\n'),
      errors: [
        {
          messageId: 'undescribed',
          line: 6,
          column: 5,
          parameter: 'sort',
          suggestionOutputs: [tool('    sort:\n      type: string\n      enum: [asc, desc]\n      description: "One of: \\"asc\\", \\"desc\\"."\n')],
        },
      ],
    },
    {
      name: 'description without a final period',
      code: tool('    sort:\n      type: string\n      enum: [asc, desc]\n      description: Sort direction\n'),
      errors: [
        {
          messageId: 'undescribed',
          parameter: 'sort',
          suggestionOutputs: [tool('    sort:\n      type: string\n      enum: [asc, desc]\n      description: "Sort direction. One of: \\"asc\\", \\"desc\\"."\n')],
        },
      ],
    },
    {
      name: 'opaque symbols inside anyOf (JSON): points at the property, appends to its description',
      filename: 'tools.json',
      code: '{"tools": [{"name": "create_metric", "description": "Create a metric.", "inputSchema": {"type": "object", "properties": {\n  "threshold_operator": {"anyOf": [{"type": "string", "enum": ["=", "<", ">=", "!="]}, {"type": "null"}], "description": "Threshold operator."}\n}}}]}',
      errors: [
        {
          messageId: 'undescribedOpaque',
          line: 2,
          column: 3,
          parameter: 'threshold_operator',
          pointer: '/tools/0/inputSchema/properties/threshold_operator',
          suggestionOutputs: [
            '{"tools": [{"name": "create_metric", "description": "Create a metric.", "inputSchema": {"type": "object", "properties": {\n  "threshold_operator": {"anyOf": [{"type": "string", "enum": ["=", "<", ">=", "!="]}, {"type": "null"}], "description": "Threshold operator. One of: \\"=\\", \\"<\\", \\">=\\", \\"!=\\"."}\n}}}]}',
          ],
        },
      ],
    },
    {
      name: 'enum in array items inside anyOf',
      code: tool('    metric_scope:\n      anyOf:\n        - type: array\n          items: {type: string, enum: [Single-Turn, Multi-Turn]}\n        - type: "null"\n      description: Scope of the metric.\n'),
      errors: [
        {
          messageId: 'undescribed',
          line: 6,
          column: 5,
          parameter: 'metric_scope',
          suggestionOutputs: [
            tool('    metric_scope:\n      anyOf:\n        - type: array\n          items: {type: string, enum: [Single-Turn, Multi-Turn]}\n        - type: "null"\n      description: "Scope of the metric. One or more of: \\"Single-Turn\\", \\"Multi-Turn\\"."\n'),
          ],
        },
      ],
    },
    {
      name: 'enum in a nested object inside array items',
      code: tool('    tests:\n      type: array\n      items:\n        type: object\n        properties:\n          kind: {type: string, enum: [unit, e2e], description: The kind.}\n'),
      errors: [{ messageId: 'undescribed', line: 11, column: 11, parameter: 'tests[].kind' }],
    },
    {
      name: 'opaque values listed but not explained',
      code: tool('    op:\n      type: string\n      enum: [gte, lte, eq]\n      description: Comparison, one of gte, lte, eq.\n'),
      errors: [{ messageId: 'opaque', line: 6, column: 5, parameter: 'op', messageIncludes: '`gte`, `lte`, `eq`', suggestionOutputs: [] }],
    },
    {
      name: 'some opaque values explained, one not',
      code: tool('    priority:\n      type: integer\n      enum: [1, 2, 3]\n      description: Priority 1, 2 or 3 where 1 = low and 3 = high.\n'),
      errors: [{ messageId: 'opaque', parameter: 'priority', messageIncludes: 'list `2` but never say what it means' }],
    },
    {
      name: 'letter-digit codes listed, one explained only as the default',
      code: tool('    priority:\n      type: string\n      enum: [P1, P2]\n      description: "One of P1, P2. Default: P2"\n'),
      errors: [{ messageId: 'opaque', parameter: 'priority', messageIncludes: 'list `P1`, `P2` but never say what they mean' }],
    },
    {
      name: 'block scalar description: the sentence goes on a line of its own',
      code: tool('    kind:\n      type: string\n      enum: [alpha, beta]\n      description: >\n        The kind of\n        thing\n    other: {type: string}\n'),
      errors: [{ messageId: 'undescribed', parameter: 'kind', suggestionOutputs: [tool('    kind:\n      type: string\n      enum: [alpha, beta]\n      description: >\n        The kind of\n        thing\n        One of: "alpha", "beta".\n    other: {type: string}\n')] }],
    },
    {
      name: 'numeric codes in the schema only',
      code: tool('    force:\n      type: string\n      enum: ["0", "1"]\n      description: Force a new deployment.\n'),
      errors: [{ messageId: 'undescribedOpaque', parameter: 'force', suggestionOutputs: [tool('    force:\n      type: string\n      enum: ["0", "1"]\n      description: "Force a new deployment. One of: \\"0\\", \\"1\\"."\n')] }],
    },
    {
      name: 'values only partly listed (examples)',
      code: tool('    period:\n      type: string\n      enum: [1d, 5d, 1mo, 1y]\n      description: Period, e.g. "1d" or "1y".\n'),
      errors: [{ messageId: 'undescribed', parameter: 'period', messageIncludes: 'lists `5d`, `1mo`' }],
    },
    {
      name: 'the default is still required in the list when another value is missing too',
      code: tool('    packing:\n      type: string\n      enum: [loose, tight, dense]\n      default: loose\n      description: Switch the packing to tight.\n'),
      errors: [{ messageId: 'undescribed', parameter: 'packing', messageIncludes: 'lists `loose`, `dense`' }],
    },
    {
      name: 'a common word in prose is not a listed value',
      code: tool('    state:\n      type: string\n      enum: [open, closed, all]\n      description: Returns all issues in the given state; open or closed.\n'),
      errors: [{ messageId: 'undescribed', parameter: 'state', messageIncludes: 'lists `all`' }],
    },
    {
      name: 'a value inside a hyphenated word is not listed',
      code: tool('    mode:\n      type: string\n      enum: [single, multi]\n      description: Single-turn or multi-turn mode.\n'),
      errors: [{ messageId: 'undescribed', parameter: 'mode', messageIncludes: 'lists them' }],
    },
    {
      name: 'MXCP parameter list',
      filename: 'tool.yml',
      code: 'mxcp: 1\ntool:\n  name: list_orders\n  description: List orders.\n  parameters:\n    - name: status\n      type: string\n      enum: [pending, shipped]\n      description: Order status.\n  source: {code: "SELECT 1"}\n',
      errors: [
        {
          messageId: 'undescribed',
          line: 6,
          column: 13,
          parameter: 'status',
          suggestionOutputs: ['mxcp: 1\ntool:\n  name: list_orders\n  description: List orders.\n  parameters:\n    - name: status\n      type: string\n      enum: [pending, shipped]\n      description: "Order status. One of: \\"pending\\", \\"shipped\\"."\n  source: {code: "SELECT 1"}\n'],
        },
      ],
    },
    {
      name: 'argument list with `desc`: the suggestion appends to `desc`',
      filename: 'tools.json',
      code: '[{"name": "a", "description": "d", "arguments": [{"name": "fmt", "type": "string", "enum": ["json", "xml"], "desc": "Output format"}]}]',
      errors: [
        {
          messageId: 'undescribed',
          parameter: 'fmt',
          pointer: '/0/arguments/0/name',
          suggestionOutputs: ['[{"name": "a", "description": "d", "arguments": [{"name": "fmt", "type": "string", "enum": ["json", "xml"], "desc": "Output format. One of: \\"json\\", \\"xml\\"."}]}]'],
        },
      ],
    },
  ],
});

test('enum-unexplained: seed 000 failures in before.yaml, nothing in after.yaml', () => {
  const dir = join(__dirname, '..', 'fixtures', 'seed000');
  const before = runRule('enum-unexplained', { code: readFileSync(join(dir, 'before.yaml'), 'utf8'), filename: 'before.yaml' });
  const found = before.diagnostics.map((d) => `${d.tool} ${d.parameter} ${d.messageId}`).sort();
  assert.deepEqual(found, ['create_metric metric_scope undescribed', 'create_metric score_type undescribed', 'create_metric threshold_operator undescribedOpaque']);
  const after = runRule('enum-unexplained', { code: readFileSync(join(dir, 'after.yaml'), 'utf8'), filename: 'after.yaml' });
  assert.deepEqual(after.diagnostics.map((d) => d.message), []);
});
