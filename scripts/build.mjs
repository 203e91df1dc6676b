// Bundles the CLI, the language server and the VS Code client with esbuild.
// The CLI bundle must not contain LSP code: a test checks it.
import { createHash } from 'node:crypto';
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

const watch = process.argv.includes('--watch');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  minify: process.argv.includes('--minify'),
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  legalComments: 'none',
  // jsonc-parser's UMD build requires its modules dynamically, which a bundle cannot follow.
  mainFields: ['module', 'main'],
  define: { __VERSION__: JSON.stringify(pkg.version) },
};

// `--version` or `--help` alone is answered before the bundle's modules are evaluated (a CommonJS
// module may `return` at its top level). The help text is lifted from `cli.ts` only while it is a
// plain template (no `${}` or escapes); otherwise `--help` takes the normal path. The directive is
// repeated first so the bundle stays in strict mode.
const help = /^const HELP = `([^`$\\]*)`;$/m.exec(readFileSync('server/src/cli.ts', 'utf8'))?.[1];
const FAST_ANSWERS = { '--version': pkg.version + '\n', '-v': pkg.version + '\n', ...(help ? { '--help': help + '\n', '-h': help + '\n' } : {}) };
const FAST_PATH = `"use strict";
if (require.main === module && process.argv.length === 3) {
  const answers = ${JSON.stringify(FAST_ANSWERS)};
  if (Object.prototype.hasOwnProperty.call(answers, process.argv[2])) {
    process.stdout.write(answers[process.argv[2]]);
    return;
  }
}`;

mkdirSync('dist', { recursive: true });
const t0 = Date.now();
await Promise.all([
  build({ ...common, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli-main.js' }),
  build({ ...common, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js' }),
  build({ ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] }),
]);
// The entry `dist/cli.js`: the fast answers, then the bundle loaded with a V8 code cache.
const bundleHash = createHash('sha256').update(readFileSync('dist/cli-main.js')).digest('hex').slice(0, 16);
const loader = readFileSync('scripts/cli-loader.js', 'utf8')
  .replace("'use strict';\n__FAST_PATH__;", FAST_PATH)
  .replace('${__VERSION__}', pkg.version)
  .replace('${__BUNDLE_HASH__}', bundleHash);
if (/__(FAST_PATH|VERSION|BUNDLE_HASH)__/.test(loader)) throw new Error('scripts/cli-loader.js: placeholders not replaced');
writeFileSync('dist/cli.js', loader);
rmSync('dist/cli.js.map', { force: true });
if (!watch) console.log(`built dist/ in ${Date.now() - t0} ms`);
