import { defineRule } from './api';

export default defineRule({
  meta: {
    id: 'duplicate-key',
    description: 'Disallow the same key twice in one mapping',
    severity: 'error',
    recommended: true,
    fixable: 'never',
    hasSuggestions: false,
    scope: 'file',
    messages: { duplicate: '{{message}}' },
    docs: {
      what: 'Reports a key that appears twice in the same YAML mapping or JSON object.',
      why: 'Parsers keep only one of the two values (most keep the last), so what the agent sees is not what the author reads at the top of the file. A duplicated `description` or `properties` block silently drops half of the tool.',
    },
  },
  checkFile(file, ctx) {
    for (const p of file.parsed.problems) {
      if (p.kind !== 'duplicate-key') continue;
      ctx.report({ messageId: 'duplicate', data: { message: p.message }, file, doc: p.doc, loc: { path: [], target: 'key' }, span: { offset: p.offset, length: p.length } });
    }
  },
});
