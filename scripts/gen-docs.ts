/**
 * Generates docs/rules/<id>.md and the rule table in README.md from rule meta.
 * `npm run docs` writes them; `--check` (used by the tests) fails when they are stale.
 */
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { allRules } from '../server/src/engine/rules';
import type { Rule } from '../server/src/engine/rules/api';
import { PRESETS } from '../server/src/engine/config';
import { ruleExamples } from './rule-examples';

const ROOT = join(__dirname, '..');

export function rulePage(rule: Rule): string {
  const m = rule.meta;
  const fixLine = m.fixable !== 'never' ? `Fixable: yes (\`--fix\`, ${m.fixable})` : m.hasSuggestions ? 'Fixable: suggestions only (quick fixes in the editor)' : 'Fixable: no';
  const presets = Object.values(PRESETS)
    .filter((p) => (p.rules()[m.id]?.severity ?? 'off') !== 'off')
    .map((p) => `\`${p.name}\``)
    .join(', ');
  const ex = ruleExamples(m.id) ?? { example: '(missing: docs/rules/examples/' + m.id + '.yaml)', useInstead: '' };
  const parts = [
    `# ${m.id}`,
    '',
    `${m.description}.`,
    '',
    `- Default severity: \`${m.severity}\``,
    `- In presets: ${presets || 'none'}`,
    `- ${fixLine}`,
    '',
    '## What it does',
    '',
    m.docs.what,
    '',
    '## Why is this bad?',
    '',
    m.docs.why,
    '',
    '## Example',
    '',
    '```yaml',
    ex.example.trimEnd(),
    '```',
    '',
    'Use instead:',
    '',
    '```yaml',
    ex.useInstead.trimEnd(),
    '```',
    '',
  ];
  if (m.docs.fix) parts.push('## Fix', '', m.docs.fix, '');
  if (m.docs.options) parts.push('## Options', '', m.docs.options, '');
  parts.push('## Suppressing it', '', 'In YAML, on the line before the finding:', '', '```yaml', `# mcp-tool-lint-disable-next-line ${m.id} -- reason`, '```', '', 'Or in `.mcp-tool-lint.yaml`:', '', '```yaml', 'rules:', `  ${m.id}: off`, '```', '');
  return parts.join('\n');
}

export function ruleTable(): string {
  const rows = allRules().map((r) => {
    const m = r.meta;
    const fix = m.fixable !== 'never' ? 'fix' : m.hasSuggestions ? 'suggestion' : '';
    return `| [\`${m.id}\`](docs/rules/${m.id}.md) | ${m.description} | ${m.recommended ? m.severity : 'off'} | ${fix} |`;
  });
  return ['| rule | what it checks | recommended | fixes |', '|---|---|---|---|', ...rows].join('\n');
}

const START = '<!-- rules:start -->';
const END = '<!-- rules:end -->';

export function expectedFiles(): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of allRules()) out.set(join(ROOT, 'docs', 'rules', `${r.meta.id}.md`), rulePage(r));
  const readmePath = join(ROOT, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a >= 0 && b > a) out.set(readmePath, readme.slice(0, a + START.length) + '\n' + ruleTable() + '\n' + readme.slice(b));
  return out;
}

if (require.main === module) {
  const check = process.argv.includes('--check');
  let stale = 0;
  mkdirSync(join(ROOT, 'docs', 'rules'), { recursive: true });
  for (const [path, text] of expectedFiles()) {
    const cur = existsSync(path) ? readFileSync(path, 'utf8') : null;
    if (cur === text) continue;
    stale++;
    if (check) console.error(`stale: ${path}`);
    else writeFileSync(path, text);
  }
  if (check && stale) {
    console.error('Run `npm run docs` to regenerate.');
    process.exit(1);
  }
  if (!check) console.log(stale ? `wrote ${stale} file(s)` : 'docs up to date');
}
