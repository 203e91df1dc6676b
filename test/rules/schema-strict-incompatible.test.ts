import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixText, ruleTester, runRule } from '../helpers/rule-tester';

const strictYaml = `name: find_flights
description: Find flights between two airports.
inputSchema:
  type: object
  properties:
    origin: {type: string, description: IATA code of the departure airport.}
    cabin:
      type: [string, "null"]
      enum: [economy, business, null]
      description: Cabin class; null for any.
    legs:
      type: array
      items:
        type: object
        properties:
          date: {type: string, format: date}
        required: [date]
        additionalProperties: false
  required: [origin, cabin, legs]
  additionalProperties: false
`;

ruleTester('schema-strict-incompatible', {
  valid: [
    { name: 'a strict schema (YAML)', code: strictYaml },
    {
      name: 'a strict schema (JSON), nullable through anyOf',
      filename: 'tool.json',
      code: '{"name": "find_flights", "description": "d", "inputSchema": {"type": "object", "properties": {"origin": {"type": "string"}, "via": {"anyOf": [{"type": "string"}, {"type": "null"}]}}, "required": ["origin", "via"], "additionalProperties": false}}',
    },
    {
      name: 'an OpenAI function definition in strict form',
      filename: 'functions.json',
      code: '[{"type": "function", "function": {"name": "find_flights", "description": "d", "strict": true, "parameters": {"type": "object", "properties": {"origin": {"type": "string"}}, "required": ["origin"], "additionalProperties": false}}}]',
    },
    { name: 'a tool with no parameters, closed', code: 'name: ping_server\ndescription: d\ninputSchema: {type: object, properties: {}, additionalProperties: false}\n' },
    {
      name: 'definitions and references are supported',
      code: 'name: plan_trip\ndescription: d\ninputSchema:\n  type: object\n  properties:\n    stop: {$ref: "#/$defs/stop"}\n  required: [stop]\n  additionalProperties: false\n  $defs:\n    stop:\n      type: object\n      properties: {city: {type: string}}\n      required: [city]\n      additionalProperties: false\n',
    },
    { name: 'keywords listed only for fine-tuned models are not reported', code: 'name: tag_photo\ndescription: d\ninputSchema: {type: object, properties: {tag: {type: string, minLength: 2, pattern: "^[a-z]+$"}}, required: [tag], additionalProperties: false}\n' },
    {
      name: 'parameter lists get their schema from the server at run time',
      filename: 'tool.yml',
      code: 'mxcp: 1\ntool:\n  name: archive_note\n  description: d\n  parameters:\n    - name: note\n      type: string\n      description: The note.\n    - name: reason\n      type: string\n      description: Why.\n      default: null\n',
    },
  ],
  invalid: [
    {
      name: 'optional properties and a missing additionalProperties (YAML), fixed',
      code: `name: find_flights
description: Find flights between two airports.
inputSchema:
  type: object
  properties:
    origin:
      type: string
      description: IATA code of the departure airport.
    # Optional: any cabin when left out.
    cabin:
      type: string
      enum: [economy, business]
    max_stops:
      type: [integer]
    via:
      anyOf:
        - {type: string}
        - {type: array, items: {type: string}}
  required:
    - origin
`,
      errors: [
        { messageId: 'additionalProperties', line: 3, column: 1, parameter: null, messageIncludes: 'Input schema has no `additionalProperties: false`' },
        { messageId: 'optional', line: 10, column: 5, parameter: 'cabin', messageIncludes: 'Property `cabin` is optional' },
        { messageId: 'optional', line: 13, column: 5, parameter: 'max_stops' },
        { messageId: 'optional', line: 15, column: 5, parameter: 'via' },
      ],
      output: `name: find_flights
description: Find flights between two airports.
inputSchema:
  type: object
  properties:
    origin:
      type: string
      description: IATA code of the departure airport.
    # Optional: any cabin when left out.
    cabin:
      type: [string, "null"]
      enum: [economy, business, null]
    max_stops:
      type: [integer, "null"]
    via:
      anyOf:
        - {type: string}
        - {type: array, items: {type: string}}
        - type: "null"
  required:
    - origin
    - cabin
    - max_stops
    - via
  additionalProperties: false
`,
    },
    {
      name: 'nested objects (JSON), no required list yet, fixed',
      filename: 'tool.json',
      code: `{
  "name": "find_flights",
  "description": "d",
  "inputSchema": {
    "type": "object",
    "properties": {
      "origin": {"type": "string"},
      "filter": {
        "type": "object",
        "properties": {"airline": {"type": "string"}}
      }
    }
  }
}
`,
      errors: [
        { messageId: 'additionalProperties', line: 4, column: 3, parameter: null },
        { messageId: 'optional', line: 7, column: 7, parameter: 'origin' },
        { messageId: 'optional', line: 8, column: 7, parameter: 'filter' },
        { messageId: 'additionalProperties', line: 8, column: 7, parameter: 'filter', messageIncludes: 'Object `filter` has no' },
        { messageId: 'optional', line: 10, column: 24, parameter: 'filter.airline' },
      ],
      output: `{
  "name": "find_flights",
  "description": "d",
  "inputSchema": {
    "type": "object",
    "properties": {
      "origin": {"type": ["string","null"]},
      "filter": {
        "type": ["object","null"],
        "properties": {"airline": {"type": ["string","null"]}},
        "additionalProperties": false,
        "required": ["airline"]
      }
    },
    "additionalProperties": false,
    "required": ["origin","filter"]
  }
}
`,
    },
    {
      name: 'an OpenAI function definition',
      filename: 'functions.json',
      code: '[{"type": "function", "function": {"name": "find_flights", "description": "d", "parameters": {"type": "object", "properties": {"origin": {"type": "string"}}, "additionalProperties": false}}}]',
      errors: [{ messageId: 'optional', line: 1, column: 128, parameter: 'origin' }],
      output: '[{"type": "function", "function": {"name": "find_flights", "description": "d", "parameters": {"type": "object", "properties": {"origin": {"type": ["string","null"]}}, "additionalProperties": false, "required": ["origin"]}}}]',
    },
    {
      name: 'what the fix leaves alone: a $ref, a const, a free-form object (only made nullable), an open map',
      code: `name: plan_trip
description: d
inputSchema:
  type: object
  properties:
    stop: {$ref: "#/$defs/stop"}
    kind: {const: round}
    notes: {type: object}
    prices: {type: object, properties: {}, additionalProperties: {type: number}}
  required: [prices]
  additionalProperties: false
  $defs:
    stop: {type: object, properties: {city: {type: string}}, required: [city], additionalProperties: false}
`,
      errors: [
        { messageId: 'optional', line: 6, column: 5, parameter: 'stop' },
        { messageId: 'optional', line: 7, column: 5, parameter: 'kind' },
        { messageId: 'optional', line: 8, column: 5, parameter: 'notes' },
        { messageId: 'openObject', line: 8, column: 5, parameter: 'notes', messageIncludes: 'Object `notes` accepts keys it does not declare' },
        { messageId: 'openObject', line: 9, column: 44, parameter: 'prices' },
      ],
      output: `name: plan_trip
description: d
inputSchema:
  type: object
  properties:
    stop: {$ref: "#/$defs/stop"}
    kind: {const: round}
    notes: {type: [object, "null"]}
    prices: {type: object, properties: {}, additionalProperties: {type: number}}
  required: [prices, notes]
  additionalProperties: false
  $defs:
    stop: {type: object, properties: {city: {type: string}}, required: [city], additionalProperties: false}
`,
    },
    {
      name: 'unsupported keywords and a root anyOf',
      code: `name: book_room
description: d
inputSchema:
  type: object
  anyOf:
    - {required: [room]}
    - {required: [suite]}
  properties:
    room: {type: string}
    suite: {type: string}
    guests:
      allOf:
        - {type: integer}
        - {minimum: 1}
    size:
      oneOf: [{type: string}, {type: integer}]
  required: [room, suite, guests, size]
  additionalProperties: false
  if: {properties: {suite: {const: yes}}}
  then: {required: [guests]}
`,
      errors: [
        { messageId: 'rootCombinator', line: 5, column: 3, parameter: null },
        { messageId: 'keyword', line: 12, column: 7, parameter: 'guests', messageIncludes: '`allOf` is not supported in OpenAI strict mode' },
        { messageId: 'keyword', line: 16, column: 7, parameter: 'size', messageIncludes: '`oneOf`' },
        { messageId: 'keyword', line: 19, column: 3, parameter: null, messageIncludes: '`if`' },
        { messageId: 'keyword', line: 20, column: 3, parameter: null, messageIncludes: '`then`' },
      ],
    },
    {
      name: 'many optional properties are fixed in one pass',
      code: manyOptional(12, false),
      errors: Array.from({ length: 12 }, (_, i) => ({ messageId: 'optional', line: 6 + i, parameter: `p${i}` })),
      output: manyOptional(12, true),
    },
    {
      name: 'a root without `type`, fixed',
      code: 'name: ping_host\ndescription: d\ninputSchema:\n  properties:\n    host: {type: string}\n  required: [host]\n  additionalProperties: false\n',
      errors: [{ messageId: 'rootType', line: 3, column: 1, parameter: null }],
      output: 'name: ping_host\ndescription: d\ninputSchema:\n  properties:\n    host: {type: string}\n  required: [host]\n  additionalProperties: false\n  type: object\n',
    },
    {
      name: 'the root is not an object',
      code: 'name: echo_text\ndescription: d\ninputSchema: {type: string}\n',
      errors: [{ messageId: 'rootType', line: 3, column: 21, parameter: null }],
    },
    {
      name: 'nesting deeper than 10 objects below the root',
      code: `name: deep_tree\ndescription: d\ninputSchema: ${nest(11)}\n`,
      errors: [{ messageId: 'depth', parameter: 'n.n.n.n.n.n.n.n.n.n.n', messageIncludes: 'is nested 11 objects deep, over the limit of 10 levels' }],
    },
    {
      name: 'more than 1000 enum values',
      code: `name: pick_code\ndescription: d\ninputSchema: {type: object, properties: {a: {type: integer, enum: [${range(600)}]}, b: {type: integer, enum: [${range(401)}]}}, required: [a, b], additionalProperties: false}\n`,
      errors: [{ messageId: 'limit', line: 3, column: 1, messageIncludes: 'Input schema has 1001 enum values, over the limit of 1000' }],
    },
    {
      name: 'a long string enum over 15,000 characters',
      code: `name: pick_word\ndescription: d\ninputSchema: {type: object, properties: {w: {type: string, enum: [${Array.from({ length: 300 }, (_, i) => 'w'.repeat(50) + i).join(', ')}]}}, required: [w], additionalProperties: false}\n`,
      errors: [{ messageId: 'limit', line: 3, column: 60, parameter: 'w', messageIncludes: 'characters in one enum of 300 values, over the limit of 15000' }],
    },
  ],
});

/** An object schema with `levels` nested objects under the root, each closed and required. */
function nest(levels: number): string {
  let s = '{type: object, properties: {}, additionalProperties: false}';
  for (let i = 0; i < levels; i++) s = `{type: object, properties: {n: ${s}}, required: [n], additionalProperties: false}`;
  return s;
}

function range(n: number): string {
  return Array.from({ length: n }, (_, i) => String(i)).join(', ');
}

/** A closed object with `n` optional string properties, or the same after the fix. */
function manyOptional(n: number, fixed: boolean): string {
  const props = Array.from({ length: n }, (_, i) => `    p${i}: {type: ${fixed ? '[string, "null"]' : 'string'}}\n`).join('');
  const names = ['id', ...Array.from({ length: n }, (_, i) => `p${i}`)];
  return `name: bulk_update\ndescription: d\ninputSchema:\n  type: object\n  properties:\n${props}    id: {type: string}\n  required:\n${(fixed ? names : ['id']).map((x) => `    - ${x}\n`).join('')}  additionalProperties: false\n`;
}

test('schema-strict-incompatible: seed 000 was not written for strict mode; --fix leaves only its free-form object', () => {
  const read = (f: string): string => readFileSync(join(__dirname, '..', 'fixtures', 'seed000', f), 'utf8');
  for (const f of ['before.yaml', 'after.yaml']) assert.ok(runRule('schema-strict-incompatible', { code: read(f), filename: f }).diagnostics.some((d) => d.messageId === 'optional'), f);
  const code = read('after.yaml');
  const fixed = fixText('schema-strict-incompatible', { code, filename: 'after.yaml' }, code).text;
  const left = runRule('schema-strict-incompatible', { code: fixed, filename: 'after.yaml' }).diagnostics;
  assert.deepEqual(left.map((d) => `${d.messageId} ${d.parameter}`), ['openObject attributes']);
});
