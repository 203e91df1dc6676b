/** The Example and Use-instead files of a rule's docs (docs/rules/examples/). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const EXAMPLES_DIR = join(__dirname, '..', 'docs', 'rules', 'examples');

export function ruleExamples(id: string): { example: string; useInstead: string } | null {
  const bad = join(EXAMPLES_DIR, `${id}.yaml`);
  const good = join(EXAMPLES_DIR, `${id}.fixed.yaml`);
  if (!existsSync(bad) || !existsSync(good)) return null;
  return { example: readFileSync(bad, 'utf8'), useInstead: readFileSync(good, 'utf8') };
}
