import { defineRule } from './api';

export default defineRule({
  meta: {
    id: 'parse-error',
    description: 'Report YAML and JSON syntax errors at their position',
    severity: 'error',
    recommended: true,
    fixable: 'never',
    hasSuggestions: false,
    scope: 'file',
    messages: { syntax: '{{message}}' },
    docs: {
      what: 'Reports text that is not valid YAML or JSON, at the position where the parser gave up. The rest of the file is still linted where the parser could recover.',
      why: 'A tool file that does not parse is not served at all, or is served half-read: the agent silently loses tools or parameters.',
    },
  },
  checkFile(file, ctx) {
    for (const p of file.parsed.problems) {
      if (p.kind !== 'parse-error') continue;
      ctx.report({ messageId: 'syntax', data: { message: p.message }, file, doc: p.doc, loc: { path: [], target: 'value' }, span: { offset: p.offset, length: p.length } });
    }
  },
});
