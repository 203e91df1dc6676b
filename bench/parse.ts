/**
 * YAML parsing alone, in one warm process: `yaml`'s `parseDocument` (the floor's parser) against
 * the engine's reader (`parseYaml`: the fast reader for plain block YAML, else the full parser).
 * Prints one JSON line per file: medians of `runs` parses each, and whether the fast path took it.
 *
 *   node --import tsx bench/parse.ts FILE... [--runs N]
 */
import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { parseYaml } from '../server/src/engine/parse/yaml';
import { readPlainYaml } from '../server/src/engine/parse/fast-yaml';
import { median } from './stats';

const args = process.argv.slice(2);
const at = args.indexOf('--runs');
const runs = at >= 0 ? Number(args[at + 1]) : 5;
const files = args.filter((a, i) => a !== '--runs' && (at < 0 || i !== at + 1));
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const time = (f: () => unknown): number => {
    f(); // warm-up
    const xs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      f();
      xs.push(performance.now() - t);
    }
    return Math.round(median(xs) * 10) / 10;
  };
  const floor = time(() => parseDocument(text, { keepSourceTokens: false }));
  const ours = time(() => parseYaml(text));
  console.log(JSON.stringify({ file, bytes: text.length, parseDocument: floor, ours, fast: readPlainYaml(text) !== null }));
}
