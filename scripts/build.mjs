// Bundles the CLI, the language server and the VS Code client with esbuild.
// The CLI bundle must not contain LSP code: a test checks it.
import { build } from 'esbuild';
import { mkdirSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

const watch = process.argv.includes('--watch');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  minify: process.argv.includes('--minify'),
  logLevel: 'warning',
  legalComments: 'none',
  // jsonc-parser's UMD build requires its modules dynamically, which a bundle cannot follow.
  mainFields: ['module', 'main'],
  define: { __VERSION__: JSON.stringify(pkg.version) },
};

mkdirSync('dist', { recursive: true });
const t0 = Date.now();
await Promise.all([
  build({ ...common, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli.js' }),
  build({ ...common, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js' }),
  build({ ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] }),
]);
if (!watch) console.log(`built dist/ in ${Date.now() - t0} ms`);
