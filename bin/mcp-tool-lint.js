#!/usr/bin/env node
'use strict';
// `--version` alone needs no engine: answer it without loading the bundle.
if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-v')) {
  process.stdout.write(require('../package.json').version + '\n');
} else {
  require('../dist/cli.js').run();
}
