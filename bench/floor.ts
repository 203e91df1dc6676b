/**
 * The parse floor: read and parse the given files, each with the fastest parser that keeps source
 * offsets for its format (`yaml`'s parseDocument; jsonc-parser's parseTree for JSON and `.snap`),
 * and do nothing else. A linter that must point at lines cannot go below this.
 *
 * Arguments are files, or `@list` for a file listing one path a line. Prints the elapsed ms.
 * The bench bundles this with esbuild so it starts like the CLI does (no tsx in the process).
 */
import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { parseTree, type ParseError } from 'jsonc-parser';

const start = performance.now();
const files: string[] = [];
for (const a of process.argv.slice(2)) {
  if (a.startsWith('@')) files.push(...readFileSync(a.slice(1), 'utf8').split('\n').filter(Boolean));
  else files.push(a);
}
let nodes = 0;
for (const f of files) {
  const text = readFileSync(f, 'utf8');
  if (/\.ya?ml$/i.test(f)) {
    const doc = parseDocument(text, { keepSourceTokens: false });
    if (doc.contents) nodes++;
  } else {
    const errors: ParseError[] = [];
    const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
    if (tree) nodes++;
  }
}
console.log(JSON.stringify({ files: files.length, parsed: nodes, ms: Math.round(performance.now() - start) }));
