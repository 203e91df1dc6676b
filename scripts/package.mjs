// `npm run package`: builds, then packs the VS Code extension with `vsce package --no-dependencies`
// into `mcp-tool-lint-<version>.vsix` (or `-o FILE`). Works offline.
//
// vsce refuses a `.vscodeignore` beside a package.json `files` list, and `files` is the npm
// package's (the CLI's) list. So the extension is packed from a staging folder holding the files
// that `.vscodeignore` lets through and the manifest without the npm-only fields; `.vscodeignore`
// stays the one list of what ships.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import picomatch from 'picomatch';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const oi = args.findIndex((a) => a === '-o' || a === '--out');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const out = resolve(oi >= 0 ? args[oi + 1] : join(root, `${pkg.name}-${pkg.version}.vsix`));

if (!args.includes('--no-build')) {
  const b = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

/** The `.vscodeignore` rules, read the way vsce reads them: later lines win, `!` re-includes. */
const rules = readFileSync(join(root, '.vscodeignore'), 'utf8')
  .split(/\r?\n/)
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => (l.startsWith('!') ? { keep: true, match: picomatch(l.slice(1), { dot: true }) } : { keep: false, match: picomatch(l, { dot: true }) }));
const shipped = (rel) => rules.reduce((keep, r) => (r.match(rel) ? r.keep : keep), true);

function walk(dir, outList) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === '.git' || e.name === '.cache') continue;
    const abs = join(dir, e.name);
    if (e.isDirectory()) walk(abs, outList);
    else if (e.isFile()) outList.push(relative(root, abs).split('\\').join('/'));
  }
  return outList;
}

const stage = mkdtempSync(join(tmpdir(), 'mcp-tool-lint-vsix-'));
try {
  for (const rel of walk(root, [])) {
    if (rel === 'package.json' || !shipped(rel)) continue;
    mkdirSync(dirname(join(stage, rel)), { recursive: true });
    cpSync(join(root, rel), join(stage, rel));
  }
  cpSync(join(root, '.vscodeignore'), join(stage, '.vscodeignore'));
  // The npm package's fields: its file list, CLI, scripts and build-time dependencies.
  const manifest = { ...pkg };
  for (const k of ['files', 'bin', 'scripts', 'devDependencies', 'dependencies']) delete manifest[k];
  writeFileSync(join(stage, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');

  mkdirSync(dirname(out), { recursive: true });
  const vsce = join(root, 'node_modules/@vscode/vsce/vsce');
  // The README's relative links and images (docs/, screenshots) are not shipped: point them at the
  // project's home, the one the rule docs links use.
  const home = /HOMEPAGE = '([^']+)'/.exec(readFileSync(join(root, 'server/src/engine/docs-url.ts'), 'utf8'))?.[1];
  const links = home ? ['--baseContentUrl', `${home}/blob/main`, '--baseImagesUrl', `${home}/raw/main`] : ['--no-rewrite-relative-links'];
  const r = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', ...links, '--out', out], { cwd: stage, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) process.exit(r.status ?? 1);
  if (!statSync(out).isFile()) process.exit(1);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
