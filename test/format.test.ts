import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { loadText } from '../server/src/engine/load';
import { lint } from '../server/src/engine/runner';
import { defaultConfig, ruleSettings } from '../server/src/engine/config';
import { summarize, type Diagnostic, type LintResult } from '../server/src/engine/diagnostic';
import { allRules } from '../server/src/engine/rules';
import { ruleDocsUrl } from '../server/src/engine/docs-url';
import { FORMATS, formatResult, type FormatName } from '../server/src/engine/format';
import { escapeData, escapeProperty } from '../server/src/engine/format/github';

const CWD = resolve('/ws');
const OPTS = { color: false, cwd: CWD, toolVersion: '1.2.3' };

// A tool with no description, and a parameter whose type is not a JSON Schema type.
const YAML_TOOLS = `tools:
  - name: search_orders
    inputSchema:
      type: object
      properties:
        status:
          type: str
          description: "Status, e.g. shipped"
`;
// One tool whose parameter has no description; a directive that suppresses nothing.
const JSON_TOOLS = '{"tools":[{"name":"get_order","description":"Get one order.","inputSchema":{"type":"object","properties":{"id":{"type":"string"}}}}]}';
const YAML_UNUSED = `# mcp-tool-lint-disable-next-line tool-name-invalid
name: list_orders
description: List orders.
inputSchema:
  type: object
`;

function run(files: { path: string; text: string; explicit?: boolean }[], unused = false): LintResult {
  const loaded = files.map((f) => loadText(join(CWD, f.path), f.text, { explicit: f.explicit }));
  return lint(loaded, { settingsFor: () => ruleSettings(defaultConfig(), null), reportUnusedDisableDirectives: unused });
}

function sample(): LintResult {
  return run(
    [
      { path: 'tools/a.yaml', text: YAML_TOOLS },
      { path: 'tools/b.json', text: JSON_TOOLS },
      { path: 'tools/c.yaml', text: YAML_UNUSED },
      { path: 'notes.yaml', text: 'just: notes\n', explicit: true },
    ],
    true,
  );
}

function all(result: LintResult): Diagnostic[] {
  return result.results.flatMap((r) => r.diagnostics);
}

/** A copy of `result` with extra diagnostics on its first file (findings no rule of the registry makes). */
function withExtra(result: LintResult, extra: (base: Diagnostic) => Diagnostic[], internalErrors: string[] = []): LintResult {
  const [first, ...rest] = result.results;
  const results = [{ file: first!.file, diagnostics: [...first!.diagnostics, ...extra(first!.diagnostics[0]!)] }, ...rest];
  return { results, summary: summarize(results), internalErrors: [...result.internalErrors, ...internalErrors] };
}

test('the engine gives the findings these tests are built on', () => {
  const got = all(sample()).map((d) => `${d.file.path.slice(CWD.length + 1)} ${d.rule} ${d.severity}`);
  assert.deepEqual(got, [
    'tools/a.yaml description-missing warning',
    'tools/a.yaml schema-invalid error',
    'tools/b.json description-missing warning',
    'tools/c.yaml unused-disable-directive warning',
  ]);
});

test('FORMATS lists every format, and each formats an empty result', () => {
  assert.deepEqual(FORMATS, ['stylish', 'json', 'sarif', 'github', 'junit']);
  const empty = run([]);
  for (const f of FORMATS) assert.equal(typeof formatResult(f, empty, OPTS), 'string', f);
});

test('json: the contract shape, keys in order, ranges and every file', () => {
  const rep = JSON.parse(formatResult('json', sample(), OPTS));
  assert.deepEqual(Object.keys(rep), ['version', 'files', 'summary']);
  assert.equal(rep.version, 1);
  assert.deepEqual(rep.files.map((f: { path: string }) => f.path), ['tools/a.yaml', 'tools/b.json', 'tools/c.yaml', 'notes.yaml']);
  const [a, b, c, notes] = rep.files;
  assert.deepEqual(Object.keys(a), ['path', 'format', 'tools', 'reason', 'diagnostics']);
  assert.equal(a.format, 'mcp-yaml');
  assert.equal(a.tools, 1);
  assert.equal(a.reason, null);
  assert.equal(b.format, 'mcp-json');

  const [missing, invalid] = a.diagnostics;
  assert.deepEqual(Object.keys(missing), ['rule', 'severity', 'message', 'tool', 'parameter', 'test', 'pointer', 'range', 'fixable', 'suggestions', 'docs']);
  assert.deepEqual(missing, {
    rule: 'description-missing',
    severity: 'warning',
    message: 'Tool `search_orders` has no description; the agent sees only its name',
    tool: 'search_orders',
    parameter: null,
    test: null,
    pointer: '/tools/0/name',
    // `search_orders` on line 2: columns 11 to 24, end exclusive.
    range: { start: { line: 2, column: 11 }, end: { line: 2, column: 24 } },
    fixable: false,
    suggestions: 0,
    docs: ruleDocsUrl('description-missing'),
  });
  assert.equal(invalid.rule, 'schema-invalid');
  assert.equal(invalid.severity, 'error');
  assert.equal(invalid.pointer, '/tools/0/inputSchema/properties/status/type');
  assert.deepEqual(invalid.range, { start: { line: 7, column: 17 }, end: { line: 7, column: 20 } }); // `str`

  const param = b.diagnostics[0];
  assert.equal(param.parameter, 'id');
  assert.equal(param.tool, 'get_order');
  const idAt = JSON_TOOLS.indexOf('"id"') + 1;
  assert.deepEqual(param.range, { start: { line: 1, column: idAt }, end: { line: 1, column: idAt + 4 } });

  const unused = c.diagnostics[0];
  assert.equal(unused.rule, 'unused-disable-directive');
  assert.equal(unused.fixable, true);
  assert.equal(unused.docs, null, 'no docs page for an id outside the registry');

  assert.equal(notes.format, 'unknown');
  assert.equal(notes.tools, 0);
  assert.match(notes.reason, /no tool objects/);
  assert.deepEqual(notes.diagnostics, []);
  assert.deepEqual(rep.summary, { files: 4, tools: 3, errors: 1, warnings: 3, infos: 0 });
});

test('json: paths use forward slashes and may climb out of cwd', () => {
  const rep = JSON.parse(formatResult('json', sample(), { ...OPTS, cwd: join(CWD, 'tools') }));
  assert.deepEqual(rep.files.map((f: { path: string }) => f.path), ['a.yaml', 'b.json', 'c.yaml', '../notes.yaml']);
});

test('github: one annotation line per finding, levels and positions', () => {
  const result = sample();
  const out = formatResult('github', result, OPTS);
  const lines = out.trimEnd().split('\n');
  assert.equal(lines.length, all(result).length);
  assert.equal(lines[0], '::warning file=tools/a.yaml,line=2,col=11,endLine=2,endColumn=24,title=description-missing::Tool `search_orders` has no description; the agent sees only its name');
  assert.match(lines[1]!, /^::error file=tools\/a\.yaml,line=7,col=17,endLine=7,endColumn=20,title=schema-invalid::`type` must be/);
  const info = withExtra(result, (d) => [{ ...d, severity: 'info' }]);
  assert.match(formatResult('github', info, OPTS), /^::notice file=tools\/a\.yaml,line=2,/m);
  assert.equal(formatResult('github', run([{ path: 'ok.yaml', text: YAML_UNUSED.split('\n').slice(1).join('\n') }]), OPTS), '');
});

test('github: escaping of messages and property values', () => {
  assert.equal(escapeData('50% done\r\nnext: a,b'), '50%25 done%0D%0Anext: a,b');
  assert.equal(escapeProperty('a:b,c%d\n'), 'a%3Ab%2Cc%25d%0A');
  // A tool name with a newline, `%`, `,` and `:`, in a file whose path has `,` and `:`.
  const yaml = 'name: "odd%name,x:\\ny"\ninputSchema:\n  type: object\n';
  const out = formatResult('github', run([{ path: 'we,ird:dir/t.yaml', text: yaml }]), OPTS);
  const lines = out.trimEnd().split('\n');
  assert.equal(lines.length, all(run([{ path: 'we,ird:dir/t.yaml', text: yaml }])).length, 'a newline in a message never splits a command');
  for (const l of lines) assert.match(l, /^::(error|warning|notice) file=we%2Cird%3Adir\/t\.yaml,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=[a-z-]+::/);
  const missing = lines.find((l) => l.includes('title=description-missing'))!;
  assert.ok(missing.endsWith('::Tool `odd%25name,x:%0Ay` has no description; the agent sees only its name'), missing);
});

test('github and stylish report internal errors that no file carries', () => {
  const broken = withExtra(sample(), () => [], ['rule `x` failed: boom']);
  assert.match(formatResult('github', broken, OPTS), /^::error title=internal-error::rule `x` failed: boom$/m);
  assert.match(formatResult('stylish', broken, OPTS), /internal error {2}rule `x` failed: boom/);
});

/** A small, strict reader for the XML we write: elements, attributes, entity references, text. */
interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}
function parseXml(xml: string): XmlNode {
  const decode = (s: string): string => {
    assert.doesNotMatch(s, /&(?!(amp|lt|gt|quot|apos|#\d+);)/, `bare & in ${JSON.stringify(s)}`);
    return s.replace(/&(amp|lt|gt|quot|apos|#\d+);/g, (_, e: string) =>
      e[0] === '#' ? String.fromCodePoint(Number(e.slice(1))) : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e]!,
    );
  };
  const body = xml.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n/, '');
  assert.notEqual(body, xml, 'XML declaration');
  const root: XmlNode = { name: '#root', attrs: {}, children: [], text: '' };
  const stack = [root];
  const re = /<(\/?)([A-Za-z]+)((?:\s+[A-Za-z]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let pos = 0;
  while ((m = re.exec(body))) {
    pos = re.lastIndex;
    const top = stack[stack.length - 1]!;
    if (m[5] !== undefined) {
      assert.doesNotMatch(m[5], />/, 'raw > in text');
      top.text += decode(m[5]);
      continue;
    }
    if (m[1]) {
      assert.equal(m[2], top.name, `closing </${m[2]}> matches <${top.name}>`);
      stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of m[3]!.matchAll(/([A-Za-z]+)="([^"]*)"/g)) attrs[a[1]!] = decode(a[2]!);
    const node: XmlNode = { name: m[2]!, attrs, children: [], text: '' };
    top.children.push(node);
    if (!m[4]) stack.push(node);
  }
  assert.equal(pos, body.length, `well-formed up to the end (stopped at ${JSON.stringify(body.slice(pos, pos + 40))})`);
  assert.equal(stack.length, 1, 'every element closed');
  assert.equal(root.children.length, 1, 'one document element');
  return root.children[0]!;
}

test('junit: well-formed, one suite per file, counts add up', () => {
  const result = sample();
  const doc = parseXml(formatResult('junit', result, OPTS));
  assert.equal(doc.name, 'testsuites');
  assert.equal(doc.children.length, 4);
  const [a, b, , notes] = doc.children;
  assert.deepEqual(a!.attrs, { name: 'tools/a.yaml', tests: '2', failures: '2', errors: '0', skipped: '0' });
  const [c1, c2] = a!.children;
  assert.equal(c1!.attrs.name, 'description-missing: search_orders');
  assert.equal(c1!.attrs.classname, 'tools/a.yaml');
  const f1 = c1!.children[0]!;
  assert.equal(f1.name, 'failure');
  assert.equal(f1.attrs.type, 'warning');
  assert.equal(f1.attrs.message, 'Tool `search_orders` has no description; the agent sees only its name');
  assert.equal(f1.text, '2:11 Tool `search_orders` has no description; the agent sees only its name');
  assert.equal(c2!.children[0]!.attrs.type, 'error');
  assert.equal(b!.children[0]!.attrs.name, 'description-missing: get_order/id');
  // A file with no findings still shows up: a skipped case here, as it is not a tool file.
  assert.deepEqual(notes!.attrs, { name: 'notes.yaml', tests: '1', failures: '0', errors: '0', skipped: '1' });
  assert.match(notes!.children[0]!.children[0]!.attrs.message!, /^not a tool file: /);
  const total = (k: string) => doc.children.reduce((n, s) => n + Number(s.attrs[k]), 0);
  assert.equal(Number(doc.attrs.tests), total('tests'));
  assert.equal(Number(doc.attrs.failures), all(result).length);
  assert.equal(Number(doc.attrs.failures), total('failures'));
  const clean = parseXml(formatResult('junit', run([{ path: 'ok.json', text: '{"name":"ok","description":"Fine.","inputSchema":{"type":"object"}}' }]), OPTS));
  assert.deepEqual(clean.children[0]!.children.map((c) => [c.name, c.children.length]), [['testcase', 0]], 'one passing case');
});

test('junit: escapes markup and drops characters XML 1.0 cannot hold', () => {
  const nasty = `a <b> & "c" 'd' \u0000\u0001\u0008\u000b\u001f\ud800 e\tf\ng`;
  const result = withExtra(sample(), (d) => [{ ...d, message: nasty, tool: '<t&>' }], ['rule `z` failed: <oops> & "more"']);
  const out = formatResult('junit', result, OPTS);
  assert.doesNotMatch(out, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  const doc = parseXml(out);
  const cases = doc.children[0]!.children;
  const last = cases[cases.length - 1]!;
  assert.equal(last.attrs.name, 'description-missing: <t&>');
  assert.equal(last.children[0]!.attrs.message, `a <b> & "c" 'd'  e\tf\ng`, 'attribute keeps tabs and newlines');
  const internal = doc.children[doc.children.length - 1]!;
  assert.deepEqual(internal.attrs, { name: 'mcp-tool-lint', tests: '1', failures: '0', errors: '1', skipped: '0' });
  assert.equal(internal.children[0]!.children[0]!.name, 'error');
  assert.equal(doc.attrs.errors, '1');
});

test('stylish: rule ids, aligned columns, header and summary; no colour when off', () => {
  const out = formatResult('stylish', sample(), OPTS);
  assert.doesNotMatch(out, /\u001b\[/);
  assert.match(out, /^tools\/a\.yaml {2}\(mcp-yaml, 1 tool\)$/m);
  assert.match(out, /^tools\/b\.json {2}\(mcp-json, 1 tool\)$/m);
  for (const id of ['description-missing', 'schema-invalid', 'unused-disable-directive']) assert.match(out, new RegExp(`  ${id}$`, 'm'));
  assert.match(out, /^ {2}2:11 {2}warning {2}Tool `search_orders` has no description/m);
  assert.match(out, /^ {2}7:17 {2}error {4}`type` must be/m);
  // Within a file block, the severity, message and rule columns start at the same place on every row.
  const block = out.trim().split('\n\n').find((b) => b.startsWith('tools/a.yaml'))!;
  const rows = block.split('\n').slice(1);
  assert.equal(rows.length, 2);
  const ruleAt = rows.map((r) => r.search(/\S+$/));
  assert.equal(ruleAt[0], ruleAt[1]);
  assert.equal(rows[0]!.indexOf('Tool'), rows[1]!.indexOf('`type`'));
  assert.match(out, /^notes\.yaml\n {2}not a tool file: no tool objects found/m);
  assert.match(out, /^✖ 4 problems \(1 error, 3 warnings, 0 infos\)$/m);
  assert.match(out, /^ {2}0 errors and 1 warning potentially fixable with the `--fix` option\.$/m);
  assert.ok(out.endsWith('\n'));
});

test('stylish: colour when on; silent when there is nothing to say', () => {
  const coloured = formatResult('stylish', sample(), { ...OPTS, color: true });
  assert.match(coloured, /\u001b\[31merror {2}\u001b\[39m/);
  assert.match(coloured, /\u001b\[4mtools\/a\.yaml\u001b\[24m/);
  const clean = run([{ path: 'ok.json', text: '{"name":"ok","description":"Fine.","inputSchema":{"type":"object"}}' }]);
  assert.equal(formatResult('stylish', clean, OPTS), '');
  // A non-tool file found by searching a folder is not worth a word; one named explicitly is.
  assert.equal(formatResult('stylish', run([{ path: 'notes.yaml', text: 'a: 1\n' }]), OPTS), '');
  const named = formatResult('stylish', run([{ path: 'notes.yaml', text: 'a: 1\n', explicit: true }]), OPTS);
  assert.match(named, /not a tool file/);
  assert.doesNotMatch(named, /✖/);
  assert.doesNotMatch(formatResult('stylish', withExtra(sample(), (d) => [{ ...d, message: 'bad\u001b[2Jname\nhere' }]), OPTS), /\u001b|bad.*\n.*here/);
});

function sarifValidator() {
  const schema = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'sarif-schema-2.1.0.json'), 'utf8'));
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

test('sarif: valid against the SARIF 2.1.0 schema', () => {
  const validate = sarifValidator();
  const cases: [string, LintResult][] = [
    ['sample', sample()],
    ['empty', run([])],
    ['internal errors', withExtra(sample(), (d) => [{ ...d, rule: 'internal-error', severity: 'error', message: 'Internal error: rule `y` failed' }], ['rule `y` failed', 'rule `z` failed'])],
    ['odd paths', run([{ path: 'a dir/we#ird:name.yaml', text: YAML_TOOLS }])],
  ];
  for (const [name, result] of cases) {
    const log = JSON.parse(formatResult('sarif', result, OPTS));
    assert.ok(validate(log), `${name}: ${JSON.stringify(validate.errors, null, 2)}`);
  }
  // The schema is not a pushover: a broken log fails it.
  const broken = JSON.parse(formatResult('sarif', sample(), OPTS));
  broken.runs[0].results[0].level = 'fatal';
  delete broken.runs[0].tool.driver.name;
  assert.equal(validate(broken), false);
});

test('sarif: driver rules, results, locations and fingerprints', () => {
  const result = sample();
  const log = JSON.parse(formatResult('sarif', result, OPTS));
  assert.equal(log.$schema, 'https://json.schemastore.org/sarif-2.1.0.json');
  assert.equal(log.version, '2.1.0');
  assert.equal(log.runs.length, 1);
  const run0 = log.runs[0];
  const driver = run0.tool.driver;
  assert.equal(driver.name, 'mcp-tool-lint');
  assert.equal(driver.version, '1.2.3');
  assert.match(driver.informationUri, /^https:\/\//);
  const ids = driver.rules.map((r: { id: string }) => r.id);
  assert.deepEqual(ids.slice(0, allRules().length), allRules().map((r) => r.meta.id));
  assert.ok(ids.includes('unused-disable-directive'), 'an unregistered id gets a descriptor');
  const dm = driver.rules.find((r: { id: string }) => r.id === 'description-missing');
  assert.equal(dm.name, 'DescriptionMissing');
  assert.equal(dm.helpUri, ruleDocsUrl('description-missing'));
  assert.equal(dm.defaultConfiguration.level, 'warning');
  assert.match(dm.help.markdown, /## Why is this bad\?/);
  assert.match(dm.help.markdown, /\[Rule documentation, with an example\]\(https:\/\//);
  assert.equal(driver.rules.find((r: { id: string }) => r.id === 'schema-invalid').defaultConfiguration.level, 'error');
  assert.equal(run0.originalUriBaseIds['%SRCROOT%'].uri.slice(-1), '/');
  assert.match(run0.originalUriBaseIds['%SRCROOT%'].uri, /^file:\/\//);

  assert.equal(run0.results.length, all(result).length);
  for (const r of run0.results) assert.equal(driver.rules[r.ruleIndex].id, r.ruleId);
  const [missing, invalid] = run0.results;
  assert.equal(missing.level, 'warning');
  assert.equal(invalid.level, 'error');
  assert.deepEqual(invalid.locations[0].physicalLocation, {
    artifactLocation: { uri: 'tools/a.yaml', uriBaseId: '%SRCROOT%' },
    region: { startLine: 7, startColumn: 17, endLine: 7, endColumn: 20 },
  });
  assert.deepEqual(invalid.properties, { tool: 'search_orders', parameter: 'status', test: null, pointer: '/tools/0/inputSchema/properties/status/type' });
  const prints = run0.results.map((r: { partialFingerprints: Record<string, string> }) => Object.values(r.partialFingerprints)[0]);
  assert.equal(new Set(prints).size, prints.length, 'fingerprints are distinct');
  const again = JSON.parse(formatResult('sarif', sample(), OPTS)).runs[0].results.map((r: { partialFingerprints: Record<string, string> }) => Object.values(r.partialFingerprints)[0]);
  assert.deepEqual(again, prints, 'and stable across runs');

  const info = JSON.parse(formatResult('sarif', withExtra(result, (d) => [{ ...d, severity: 'info' }]), OPTS));
  assert.deepEqual(info.runs[0].results.map((r: { level: string }) => r.level), ['warning', 'error', 'note', 'warning', 'warning']);
  const odd = JSON.parse(formatResult('sarif', run([{ path: 'a dir/we#ird:name.yaml', text: YAML_TOOLS }]), OPTS));
  assert.equal(odd.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri, 'a%20dir/we%23ird%3Aname.yaml');
});

test('sarif: internal errors get a rule entry and an execution notification', () => {
  const broken = withExtra(sample(), (d) => [{ ...d, rule: 'internal-error', severity: 'error', message: 'Internal error: rule `y` failed on a.yaml: boom' }], ['rule `y` failed on a.yaml: boom', 'rule `z` failed: bang']);
  const run0 = JSON.parse(formatResult('sarif', broken, OPTS)).runs[0];
  const rule = run0.tool.driver.rules.find((r: { id: string }) => r.id === 'internal-error');
  assert.equal(rule.defaultConfiguration.level, 'error');
  assert.equal(rule.name, 'InternalError');
  const inv = run0.invocations[0];
  assert.equal(inv.executionSuccessful, false);
  // The one a diagnostic already carries is not repeated.
  assert.deepEqual(inv.toolExecutionNotifications.map((n: { message: { text: string } }) => n.message.text), ['rule `z` failed: bang']);
});

test('every format names the files relative to cwd', () => {
  const result = sample();
  for (const f of FORMATS.filter((x): x is Exclude<FormatName, 'stylish'> => x !== 'stylish')) {
    const out = formatResult(f, result, OPTS);
    assert.ok(!out.includes(CWD + '/tools'), `${f} leaks absolute paths`);
    assert.match(out, /tools\/a\.yaml/, f);
  }
});
