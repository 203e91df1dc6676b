/**
 * Hostile inputs (test/fixtures/hostile/inputs.ts) through load → lint → fix → re-lint: each gets
 * its finding, in bounded time, with no exception, ranges inside the file and fixes that converge.
 * Time bounds are generous (shared machines); docs/ROBUSTNESS.md records measured times.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOSTILE } from '../fixtures/hostile/inputs';
import { pipeline, violations } from '../fixtures/hostile/pipeline';
import { parseConfig, loadConfigFile, ConfigError } from '../../server/src/engine/config';
import { safeRegExp } from '../../server/src/engine/util/ajv';

const BOUND_MS = 10_000;

for (const h of HOSTILE) {
  test(`hostile: ${h.name}`, () => {
    const r = pipeline(h.path, h.make(), h.opts);
    assert.ok(r.ms < BOUND_MS, `took ${r.ms.toFixed(0)} ms`);
    assert.deepEqual(violations(r), []);
    if (h.expect) {
      const hit = r.diagnostics.find((d) => d.rule === h.expect!.rule && h.expect!.message.test(d.message));
      assert.ok(hit, `expected ${h.expect.rule} matching ${h.expect.message}; got ${JSON.stringify(r.diagnostics.map((d) => `${d.rule}: ${d.message.slice(0, 120)}`))}`);
    } else {
      assert.deepEqual(r.diagnostics.filter((d) => d.rule === 'parse-error').map((d) => d.message), []);
    }
    if (h.path === 'bom.yaml') assert.ok(r.fixed.startsWith('\ufeff'));
    if (h.path === 'crlf.yaml') assert.ok(!/(^|[^\r])\n/.test(r.fixed));
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype was polluted');
  });
}

test('hostile: a remote `$ref` is never fetched', () => {
  const saved = globalThis.fetch;
  let fetched = 0;
  globalThis.fetch = (async () => {
    fetched++;
    throw new Error('no network');
  }) as typeof fetch;
  try {
    const h = HOSTILE.find((x) => x.path === 'remote.yaml')!;
    const r = pipeline(h.path, h.make());
    assert.deepEqual(violations(r), []);
  } finally {
    globalThis.fetch = saved;
  }
  assert.equal(fetched, 0);
});

test('hostile: catastrophic patterns run in linear time or are not applied', () => {
  const t0 = performance.now();
  assert.equal(safeRegExp('^(a+)+$', 'u').test('a'.repeat(10_000) + '!'), false);
  assert.equal(safeRegExp('^(a+)+$', 'u').test('aaaa'), true);
  // A backreference cannot run in linear time: the pattern is skipped (every value passes).
  assert.equal(safeRegExp('^(a+)\\1+$', 'u').test('a'.repeat(10_000) + '!'), true);
  // Safe patterns keep the native engine and the `u` flag.
  assert.equal(safeRegExp('^.$', 'u').test('😀'), true);
  assert.ok(performance.now() - t0 < BOUND_MS);
});

test('hostile config: malformed YAML gets a ConfigError with a position', () => {
  assert.throws(() => parseConfig('rules: {a: [\n', '/x/.mcp-tool-lint.yaml'), (e: unknown) => e instanceof ConfigError && /invalid YAML/.test((e as Error).message));
});

test('hostile config: unknown rules are reported, not ignored', () => {
  assert.throws(() => parseConfig('rules:\n  no-such-rule: error\n', '/x/.mcp-tool-lint.yaml'), (e: unknown) => e instanceof ConfigError && /no-such-rule/.test((e as Error).message));
});

test('hostile config: a config pointing at code is never executed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mtl-hostile-'));
  const marker = join(dir, 'executed');
  writeFileSync(join(dir, 'evil.js'), `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x');\nmodule.exports = { rules: {} };\n`);
  for (const [name, text] of [
    ['.mcp-tool-lint.yaml', 'extends: ./evil.js\n'],
    ['.mcp-tool-lint.json', '{"extends": ["./evil.js"], "plugins": ["./evil.js"]}'],
  ]) {
    writeFileSync(join(dir, name), text);
    assert.throws(() => loadConfigFile(join(dir, name)), (e: unknown) => e instanceof ConfigError && /never loaded|unknown key/.test((e as Error).message));
  }
  assert.equal(existsSync(marker), false);
});

test('hostile config: `__proto__` in a config does not pollute', () => {
  try {
    parseConfig('rules:\n  __proto__: {polluted: yes}\n', '/x/.mcp-tool-lint.yaml');
  } catch (e) {
    assert.ok(e instanceof ConfigError);
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
