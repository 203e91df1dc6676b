import { walkSchema } from '../schema';
import { checkValue, draftOf } from '../util/ajv';
import { defineRule } from './api';
import { kwLoc } from './util';

export default defineRule({
  meta: {
    id: 'schema-example-invalid',
    description: 'Require every example value to be valid against its own schema',
    severity: 'warning',
    recommended: true,
    fixable: 'never',
    hasSuggestions: false,
    scope: 'tool',
    messages: { invalid: 'Example {{value}} of `{{param}}` {{reason}}' },
    docs: {
      what: 'Validates each entry of `examples` (and an OpenAPI-style `example`) against the schema of the parameter it belongs to, with ajv.',
      why: 'Examples are the strongest hint an agent gets: it imitates them. An example that the schema rejects teaches the agent to send exactly the value that fails.',
    },
  },
  checkTool(tool, ctx) {
    if (!tool.inputSchema) return;
    const { draft } = draftOf(tool.inputSchema);
    walkSchema(tool, (v) => {
      if (v.via === 'root') return;
      const s = v.schema;
      const param = v.param ?? 'input';
      if (Array.isArray(s.examples)) {
        s.examples.forEach((ex, i) => {
          const reason = checkValue(s, ex, draft);
          if (reason) ctx.report({ messageId: 'invalid', data: { value: short(ex), param, reason }, tool, parameter: v.param, loc: { path: [...kwLoc(v, 'examples').path, i], target: 'value' } });
        });
      }
      if ('example' in s && !('examples' in s)) {
        const reason = checkValue(s, s.example, draft);
        if (reason) ctx.report({ messageId: 'invalid', data: { value: short(s.example), param, reason }, tool, parameter: v.param, loc: kwLoc(v, 'example', 'value') });
      }
    });
  },
});

function short(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? s.slice(0, 37) + '…' : s;
}
