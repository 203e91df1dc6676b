/**
 * The injection grammars, tokenized the way VS Code does it (vscode-textmate + oniguruma) over
 * VS Code's own YAML and JSON grammars (copies in test/fixtures/grammars, see its NOTICE).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import { INITIAL, parseRawGrammar, Registry, type IGrammar, type StateStack } from 'vscode-textmate';

const root = join(__dirname, '..', '..');
const fixtures = join(root, 'test', 'fixtures', 'grammars');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const contributed: { scopeName: string; path: string; injectTo: string[] }[] = pkg.contributes.grammars;

const hostGrammars: Record<string, string> = {
  'source.yaml': 'yaml.tmLanguage.json',
  'source.yaml.1.0': 'yaml-1.0.tmLanguage.json',
  'source.yaml.1.1': 'yaml-1.1.tmLanguage.json',
  'source.yaml.1.2': 'yaml-1.2.tmLanguage.json',
  'source.yaml.1.3': 'yaml-1.3.tmLanguage.json',
  'source.yaml.embedded': 'yaml-embedded.tmLanguage.json',
  'source.json': 'JSON.tmLanguage.json',
};

let registry: Registry | undefined;
async function grammar(scope: string): Promise<IGrammar> {
  if (!registry) {
    const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    registry = new Registry({
      onigLib: Promise.resolve({ createOnigScanner: (p) => new oniguruma.OnigScanner(p), createOnigString: (s) => new oniguruma.OnigString(s) }),
      loadGrammar: async (name) => {
        const own = contributed.find((g) => g.scopeName === name);
        const file = own ? join(root, own.path) : hostGrammars[name] ? join(fixtures, hostGrammars[name]) : null;
        return file ? parseRawGrammar(readFileSync(file, 'utf8'), file) : null;
      },
      // As VS Code does from `injectTo`.
      getInjections: (name) => contributed.filter((g) => g.injectTo.includes(name)).map((g) => g.scopeName),
    });
  }
  const g = await registry.loadGrammar(scope);
  assert.ok(g, `grammar ${scope} loads`);
  return g;
}

interface Token {
  text: string;
  scopes: string[];
}

/** Tokens of each line of a document. */
async function tokenize(scope: string, text: string): Promise<Token[][]> {
  const g = await grammar(scope);
  let state: StateStack = INITIAL;
  return text.split('\n').map((line) => {
    const r = g.tokenizeLine(line, state);
    state = r.ruleStack;
    return r.tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes }));
  });
}

/** Scopes of the token that holds `needle` on the line that contains it (the `nth` occurrence line). */
function scopesOf(lines: Token[][], source: string, needle: string, nth = 0): string[] {
  const rows = source.split('\n');
  const li = rows.map((r, i) => (r.includes(needle) ? i : -1)).filter((i) => i >= 0)[nth];
  assert.ok(li !== undefined, `sample contains ${needle}`);
  const col = rows[li].indexOf(needle);
  let at = 0;
  for (const t of lines[li]) {
    if (col >= at && col < at + t.text.length) {
      assert.ok(t.text.includes(needle) || needle.includes(t.text), `"${needle}" is one token (got "${t.text}")`);
      return t.scopes;
    }
    at += t.text.length;
  }
  throw new Error(`no token at ${needle}`);
}

const has = (scopes: string[], prefix: string) => scopes.some((s) => s === prefix || s.startsWith(prefix + '.'));

test('package.json contributes each grammar file under its own scope name', () => {
  assert.ok(contributed.length >= 2);
  for (const g of contributed) {
    const file = join(root, g.path);
    assert.ok(existsSync(file), `${g.path} exists`);
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(raw.scopeName, g.scopeName);
    assert.match(raw.injectionSelector, /^L:/, 'injections take precedence over the host grammar (L:)');
    assert.ok(g.injectTo.includes('source.yaml'));
  }
});

test('suppression comments: directive keyword, rule ids and reason', async () => {
  const src = [
    'tools:',
    '  # mcp-tool-lint-disable-next-line tool-name-invalid, enum-implicit -- kept for old clients',
    '  - name: search orders  # mcp-tool-lint-disable-next-line description-missing',
    '# mcp-tool-lint-disable system-field-exposed',
    '#mcp-tool-lint-enable',
    '# see mcp-tool-lint-disable in the docs',
    '# mcp-tool-lint-disabled is not a directive',
  ].join('\n');
  const lines = await tokenize('source.yaml', src);
  const kw = 'keyword.control.directive.suppression.mcp-tool-lint';
  const id = 'entity.name.type.rule-id.mcp-tool-lint';

  const k1 = scopesOf(lines, src, 'mcp-tool-lint-disable-next-line tool');
  assert.ok(has(k1, 'comment.line.number-sign.yaml') && k1.includes(kw), k1.join(' '));
  assert.ok(scopesOf(lines, src, 'tool-name-invalid').includes(id));
  assert.ok(scopesOf(lines, src, 'enum-implicit').includes(id));
  assert.ok(scopesOf(lines, src, ',').includes('punctuation.separator.comma.mcp-tool-lint'));
  assert.ok(scopesOf(lines, src, '--').includes('punctuation.separator.reason.mcp-tool-lint'));
  const reason = scopesOf(lines, src, 'kept for old clients');
  assert.ok(reason.includes('meta.reason.mcp-tool-lint') && !reason.includes(id), 'the reason is prose, not rule ids');

  // After a value, on the same line.
  assert.ok(scopesOf(lines, src, 'mcp-tool-lint-disable-next-line description').includes(kw));
  assert.ok(scopesOf(lines, src, 'description-missing').includes(id));
  assert.ok(scopesOf(lines, src, 'mcp-tool-lint-disable system').includes(kw));
  assert.ok(scopesOf(lines, src, 'mcp-tool-lint-enable').includes(kw), 'no space after # is fine');

  // Only at the start of the comment, and only the exact directive words.
  assert.ok(!scopesOf(lines, src, 'mcp-tool-lint-disable in').includes(kw));
  assert.ok(!scopesOf(lines, src, 'mcp-tool-lint-disabled').includes(kw));
});

test('a directive inside a string or a block scalar is text', async () => {
  const src = [
    'description: "# mcp-tool-lint-disable enum-implicit"',
    'notes: |',
    '  # mcp-tool-lint-disable-next-line enum-implicit',
    '  more text',
  ].join('\n');
  const lines = await tokenize('source.yaml', src);
  for (const needle of ['mcp-tool-lint-disable enum', 'mcp-tool-lint-disable-next-line']) {
    const s = scopesOf(lines, src, needle);
    assert.ok(has(s, 'string.quoted.double.yaml') || has(s, 'string.unquoted.block.yaml'), `${needle}: ${s.join(' ')}`);
    assert.ok(!s.includes('keyword.control.directive.suppression.mcp-tool-lint'));
  }
});

test('placeholders in YAML strings and block scalars, not in keys, comments or flow maps', async () => {
  const src = [
    'tools:',
    '  - name: get_order',
    '    description: Returns the order {order_id} for {{customer.name}}.',
    "    title: 'Order ${ORDER_ID}'",
    '    summary: "Fetch {id}"',
    '    long: |',
    '      Calls /orders/{status}/list',
    '    meta: {region}',
    '    # a comment about {nothing}',
    '    plain: no {braces here} and {} nor {1x}',
  ].join('\n');
  const lines = await tokenize('source.yaml', src);
  const v = 'variable.other.placeholder.mcp-tool-lint';
  const begin = 'punctuation.definition.placeholder.begin.mcp-tool-lint';
  for (const [needle, nth] of [['order_id', 0], ['customer.name', 0], ['ORDER_ID', 0], ['id}"', 0], ['status', 0]] as const) {
    const s = scopesOf(lines, src, needle.replace(/}"$/, ''), nth);
    assert.ok(s.includes(v), `${needle}: ${s.join(' ')}`);
    assert.ok(has(s, 'string'), `${needle} stays inside the string scope`);
  }
  assert.ok(scopesOf(lines, src, '{{').includes(begin));
  assert.ok(scopesOf(lines, src, '${').includes(begin));
  assert.ok(!scopesOf(lines, src, 'region').includes(v), 'a flow mapping is not a placeholder');
  assert.ok(!scopesOf(lines, src, 'nothing').includes(v), 'comments are left alone');
  assert.ok(!scopesOf(lines, src, 'braces here').includes(v));
  assert.ok(!scopesOf(lines, src, '1x').includes(v));
});

test('placeholders in JSON string values, not in keys', async () => {
  const src = ['{', '  "description": "Fetch {order_id} for {{user}}",', '  "{key}": 1', '}'].join('\n');
  const lines = await tokenize('source.json', src);
  const v = 'variable.other.placeholder.mcp-tool-lint';
  assert.ok(scopesOf(lines, src, 'order_id').includes(v));
  assert.ok(scopesOf(lines, src, 'user').includes(v));
  const key = scopesOf(lines, src, 'key');
  assert.ok(!key.includes(v) && key.includes('support.type.property-name.json'), key.join(' '));
});
