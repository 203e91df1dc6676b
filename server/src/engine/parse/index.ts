import { parseJson, type JsonParseOptions } from './json';
import { parseYaml } from './yaml';
import type { Lang, ParseResult } from './tree';

export * from './tree';

/** Language from the file name, falling back to the content's first significant character. */
export function detectLang(path: string, text: string): Lang {
  const lower = path.toLowerCase();
  if (lower.endsWith('.json') || lower.endsWith('.snap') || lower.endsWith('.jsonc')) return 'json';
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml';
  const m = /^\s*(\S)/.exec(text);
  return m && (m[1] === '{' || m[1] === '[') ? 'json' : 'yaml';
}

export function parseText(text: string, lang: Lang, opts: JsonParseOptions = {}): ParseResult {
  return lang === 'json' ? parseJson(text, opts) : parseYaml(text);
}
