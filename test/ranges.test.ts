/**
 * Every finding's range underlines the offending key or value, in YAML and JSON alike, with
 * positions as an editor computes them (checked with vscode-languageserver-textdocument, an
 * implementation independent of the engine's line index).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { loadText } from '../server/src/engine/load';
import { lint } from '../server/src/engine/runner';
import { defaultConfig, ruleSettings } from '../server/src/engine/config';
import { parseText } from '../server/src/engine/parse';
import type { Diagnostic } from '../server/src/engine/diagnostic';

const CATALOG_YAML = `tools:
  - name: list customers
    inputSchema:
      type: object
      properties:
        query:
          type: string
        limit:
          type: integer
          description: "How many (1-100)."
          default: "25"
  - name: create_order
    description: Create an order.
    inputSchema:
      type: object
      properties:
        items:
          type: array
          description: Line items.
        priority:
          type: integer
          description: Priority.
          examples: [1, "High"]
        note:
          type: str
      required: [items, shipping_adress]
  - name: create_order
    description: Again.
    inputSchema:
      type: bogus
`;

function valueAt(data: unknown, pointer: string): unknown {
  let v = data as Record<string, unknown>;
  for (const seg of pointer.split('/').slice(1)) v = (v as Record<string, unknown>)[seg.replace(/~1/g, '/').replace(/~0/g, '~')] as Record<string, unknown>;
  return v;
}

function underlined(text: string, d: Diagnostic): string {
  const doc = TextDocument.create('file:///x', 'yaml', 1, text);
  const start = doc.offsetAt({ line: d.range.start.line - 1, character: d.range.start.column - 1 });
  const end = doc.offsetAt({ line: d.range.end.line - 1, character: d.range.end.column - 1 });
  assert.equal(start, d.offset, `${d.rule}: line/column and offset disagree`);
  return text.slice(start, end);
}

function check(path: string, text: string): Diagnostic[] {
  const file = loadText(path, text);
  const res = lint([file], { settingsFor: () => ruleSettings(defaultConfig(), null) });
  const diags = res.results[0].diagnostics;
  const data = parseText(text, file.lang).docs[0].data;
  for (const d of diags) {
    const shown = underlined(text, d);
    assert.ok(shown.length > 0, `${d.rule} at ${d.pointer}: empty range`);
    const segs = d.pointer.split('/');
    const last = segs[segs.length - 1];
    const unq = shown.replace(/^"|"$/g, '');
    const value = valueAt(data, d.pointer);
    const isKey = unq === last;
    const isValue = !isKey && JSON.stringify(parseText(shown, file.lang).docs[0]?.data) === JSON.stringify(value);
    assert.ok(isKey || isValue, `${path} ${d.rule} ${d.pointer}: underlines ${JSON.stringify(shown)}, neither the key "${last}" nor the value ${JSON.stringify(value)}`);
  }
  return diags;
}

test('YAML and JSON versions of one catalogue get the same findings, each on its key or value', () => {
  const data = parseText(CATALOG_YAML, 'yaml').docs[0].data;
  const yaml = check('tools.yaml', CATALOG_YAML);
  const json = check('tools.json', JSON.stringify(data, null, 2) + '\n');
  const sig = (ds: Diagnostic[]) => ds.map((d) => `${d.rule} ${d.pointer} ${d.tool} ${d.parameter}`).sort();
  assert.ok(yaml.length >= 9, `expected many findings, got ${yaml.length}`);
  assert.deepEqual(sig(json), sig(yaml));
  const compact = check('compact.json', JSON.stringify(data));
  assert.deepEqual(sig(compact), sig(yaml));
});

test('CRLF line breaks, tabs in JSON and a BOM keep editor positions', () => {
  const crlf = CATALOG_YAML.replace(/\n/g, '\r\n');
  const a = check('crlf.yaml', crlf);
  const b = check('lf.yaml', CATALOG_YAML);
  assert.deepEqual(
    a.map((d) => [d.range.start, d.range.end]),
    b.map((d) => [d.range.start, d.range.end]),
  );
  const data = parseText(CATALOG_YAML, 'yaml').docs[0].data;
  const tabbed = JSON.stringify(data, null, '\t');
  check('tabs.json', tabbed);
  const withBom = loadText('bom.yaml', '\ufeff' + CATALOG_YAML);
  const res = lint([withBom], { settingsFor: () => ruleSettings(defaultConfig(), null) });
  assert.deepEqual(
    res.results[0].diagnostics.map((d) => [d.range.start, d.range.end]),
    b.map((d) => [d.range.start, d.range.end]),
    'a BOM does not shift columns (editors hide it)',
  );
});

test('findings inside multi-line block scalars and flow collections', () => {
  const yaml = 'name: t\ndescription: |\n  Multi-line\n  text.\ninputSchema: {type: object, properties: {a: {type: strin}, b: {type: array}}}\n';
  const ds = check('flow.yaml', yaml);
  assert.deepEqual(
    ds.map((d) => d.rule),
    ['description-missing', 'schema-invalid', 'description-missing', 'schema-array-items-missing'],
  );
});
