/**
 * `npm run package` writes a .vsix that ships only what runs: the two bundles, the grammars, the
 * manifest, README, CHANGELOG, LICENSE and the icon; and everything the manifest points at.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readZip } from './zip';

const root = join(__dirname, '..', '..');

test('npm run package ships only what runs', { timeout: 180_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-tool-lint-vsix-test-'));
  try {
    const out = join(dir, 'ext.vsix');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['run', '--silent', 'package', '--', '-o', out], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.equal(r.status, 0, `npm run package failed:\n${r.stdout}\n${r.stderr}`);

    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const entries = readZip(out);
    const names = entries.map((e) => e.name).sort();
    const grammars: string[] = pkg.contributes.grammars.map((g: { path: string }) => 'extension/' + g.path.replace(/^\.\//, ''));
    const expected = [
      '[Content_Types].xml',
      'extension.vsixmanifest',
      'extension/package.json',
      'extension/readme.md',
      'extension/changelog.md',
      'extension/LICENSE.txt',
      'extension/dist/extension.js',
      'extension/dist/server.js',
      'extension/' + pkg.icon,
      ...grammars,
    ].sort();
    assert.deepEqual(names, expected);

    const file = (n: string) => entries.find((e) => e.name === n)!.read();
    const manifest = JSON.parse(file('extension/package.json').toString('utf8'));
    assert.equal(manifest.name, 'mcp-tool-lint');
    assert.equal(manifest.main, './dist/extension.js');
    assert.equal(manifest.engines.vscode, '^1.91.0');
    for (const k of ['files', 'bin', 'devDependencies', 'scripts']) assert.ok(!(k in manifest), `the npm-only field \`${k}\` is not shipped`);
    assert.deepEqual(manifest.contributes, pkg.contributes);

    const vsixManifest = file('extension.vsixmanifest').toString('utf8');
    assert.match(vsixManifest, /<Identity Language="en-US" Id="mcp-tool-lint" Version="[^"]+" Publisher="mcp-tool-lint"/);

    // The bundles need nothing that is not shipped: only Node built-ins and the editor's `vscode`.
    // (A `require` right after a quote is text, such as ajv's code-generation templates.)
    const allowed = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'vscode']);
    for (const bundle of ['extension/dist/extension.js', 'extension/dist/server.js']) {
      const text = file(bundle).toString('utf8');
      const required = [...text.matchAll(/(?<![`'"\w.$])require\((["'])([^"']+)\1\)/g)].map((m) => m[2]);
      const missing = [...new Set(required.filter((m) => !allowed.has(m)))];
      assert.deepEqual(missing, [], `${bundle} requires modules that are not in the .vsix`);
    }
    assert.ok(statSync(out).size < 2 * 1024 * 1024, `the .vsix stays small (${statSync(out).size} bytes)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
