/**
 * Report formatters: one `LintResult` in, the text of a report out. They write nothing
 * themselves; the CLI decides where the text goes. A non-empty report ends with a newline.
 */
import type { LintResult } from '../diagnostic';
import type { FormatOptions } from './common';
import { formatGithub } from './github';
import { formatJson } from './json';
import { formatJunit } from './junit';
import { formatSarif } from './sarif';
import { formatStylish } from './stylish';

export type { FormatOptions } from './common';

export type FormatName = 'stylish' | 'json' | 'sarif' | 'github' | 'junit';

export const FORMATS: FormatName[] = ['stylish', 'json', 'sarif', 'github', 'junit'];

const FORMATTERS: Record<FormatName, (result: LintResult, opts: FormatOptions) => string> = {
  stylish: formatStylish,
  json: formatJson,
  sarif: formatSarif,
  github: formatGithub,
  junit: formatJunit,
};

export function isFormatName(name: string): name is FormatName {
  return (FORMATS as string[]).includes(name);
}

export function formatResult(name: FormatName, result: LintResult, opts: FormatOptions): string {
  return FORMATTERS[name](result, opts);
}
