import { walkSchema } from '../schema';
import { checkValue, draftOf } from '../util/ajv';
import { defineRule } from './api';
import { kwLoc } from './util';

export default defineRule({
  meta: {
    id: 'schema-default-invalid',
    description: 'Require every `default` to be valid against its own schema',
    severity: 'warning',
    recommended: true,
    fixable: 'never',
    hasSuggestions: false,
    scope: 'tool',
    messages: {
      invalid: 'The `default` of `{{param}}` ({{value}}) {{reason}}',
      nullDefault: 'The `default` of `{{param}}` is null but the schema does not allow null; agents copy defaults, so make it nullable or drop the default',
    },
    docs: {
      what: 'Validates each `default` against the schema of the parameter it belongs to (with ajv), and reports one that the schema itself would reject. A `null` default on a non-nullable parameter is reported at a lower severity: it is a common way to say "not set".',
      why: 'Agents copy defaults into their calls. A default that fails validation (`"10"` for an integer, a value outside the enum) makes the agent send it and fail, and it also tells the model the wrong type.',
    },
  },
  checkTool(tool, ctx) {
    if (!tool.inputSchema) return;
    const { draft } = draftOf(tool.inputSchema);
    walkSchema(tool, (v) => {
      if (v.via === 'root' || !('default' in v.schema)) return;
      const value = v.schema.default;
      const reason = checkValue(v.schema, value, draft);
      if (!reason) return;
      const param = v.param ?? 'input';
      if (value === null) {
        ctx.report({ messageId: 'nullDefault', data: { param }, tool, parameter: v.param, loc: kwLoc(v, 'default', 'value'), weak: true });
      } else {
        ctx.report({ messageId: 'invalid', data: { param, value: short(value), reason }, tool, parameter: v.param, loc: kwLoc(v, 'default', 'value') });
      }
    });
  },
});

function short(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? s.slice(0, 37) + '…' : s;
}
