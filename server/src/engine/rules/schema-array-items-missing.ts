import { walkSchema, schemaTypes } from '../schema';
import { defineRule, type Fix } from './api';
import { jsonType, kwLoc } from './util';

export default defineRule({
  meta: {
    id: 'schema-array-items-missing',
    description: 'Require `items` on every array',
    severity: 'warning',
    recommended: true,
    fixable: 'never',
    hasSuggestions: true,
    scope: 'tool',
    messages: { missing: 'Array `{{param}}` has no `items`; the agent cannot tell what goes in the list' },
    docs: {
      what: 'Reports a schema with `type: array` (alone or in a list of types) that has no `items` (or `prefixItems`).',
      why: 'An agent that does not know the element type sends strings where objects were meant, or one comma-separated string instead of a list. Some model APIs (OpenAI strict mode, Gemini) reject an array schema without `items` outright.',
      fix: 'When a `default` or `examples` shows the element type, suggests `items` with that type.',
    },
  },
  checkTool(tool, ctx) {
    if (tool.schemaStyle === 'none') return;
    walkSchema(tool, (v) => {
      const s = v.schema;
      if (!schemaTypes(s).includes('array')) return;
      if ('items' in s || 'prefixItems' in s || '$ref' in s) return;
      const suggestions: Fix[] = [];
      const t = elementType(s);
      if (t) suggestions.push({ title: `Add \`items: {type: ${t}}\``, ops: [{ op: 'set', path: [...v.origin.path, 'items'], value: { type: t } }] });
      ctx.report({ messageId: 'missing', data: { param: v.param ?? 'input' }, tool, parameter: v.param, loc: kwLoc(v, 'type'), suggestions });
    });
  },
});

function elementType(s: Record<string, unknown>): string | null {
  const lists: unknown[][] = [];
  if (Array.isArray(s.default)) lists.push(s.default);
  if (Array.isArray(s.examples)) for (const e of s.examples) if (Array.isArray(e)) lists.push(e);
  const types = new Set<string>();
  for (const l of lists) for (const x of l) types.add(jsonType(x));
  if (types.size === 1) return [...types][0];
  return null;
}
