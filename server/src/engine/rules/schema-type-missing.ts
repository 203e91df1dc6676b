import { isObject } from '../model';
import { walkSchema, keywordInSource } from '../schema';
import { defineRule, type Fix } from './api';
import { jsonType, paramLoc } from './util';

const TYPED_BY = ['type', 'enum', 'const', '$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'if'];

export default defineRule({
  meta: {
    id: 'schema-type-missing',
    description: 'Require a `type` on every parameter',
    severity: 'warning',
    recommended: true,
    fixable: 'never',
    hasSuggestions: true,
    scope: 'tool',
    messages: { missing: 'Parameter `{{param}}` has no `type`; the agent has to guess what kind of value to send' },
    docs: {
      what: 'Reports a parameter (a property, or the items of an array) whose schema says nothing about its type: no `type`, `enum`, `const`, `$ref` or combinator. Catalogues whose format carries no types at all (REST parameter maps that get their schema at run time) are left alone.',
      why: 'Without a type an agent sends what looks natural in the prose: `"5"` for a number, `"true"` for a flag, a comma-separated string for a list. The server rejects it, and the agent loops on validation errors.',
      fix: 'When a `default`, `examples` or `enum` shows the type, suggests adding it.',
    },
  },
  checkTool(tool, ctx) {
    if (tool.schemaStyle === 'param-map' || tool.schemaStyle === 'none') return;
    walkSchema(tool, (v) => {
      if (v.via !== 'properties' && v.via !== 'items') return v.via === 'defs' ? undefined : undefined;
      const s = v.schema;
      if (TYPED_BY.some((k) => k in s)) return;
      const inferred = inferType(s);
      const suggestions: Fix[] = [];
      if (inferred && keywordInSource(v.origin, 'type')) suggestions.push({ title: `Add \`type: ${inferred}\``, ops: [{ op: 'set', path: [...v.origin.path, 'type'], value: inferred }] });
      ctx.report({ messageId: 'missing', data: { param: v.param ?? '' }, tool, parameter: v.param, loc: paramLoc(v), suggestions });
    });
  },
});

function inferType(s: Record<string, unknown>): string | null {
  const samples: unknown[] = [];
  if ('default' in s && s.default !== null) samples.push(s.default);
  if (Array.isArray(s.examples)) samples.push(...s.examples.filter((x) => x !== null));
  if (samples.length === 0) return isObject(s.properties) ? 'object' : 'items' in s ? 'array' : null;
  const types = new Set(samples.map(jsonType));
  if (types.size === 1) return [...types][0];
  if (types.size === 2 && types.has('integer') && types.has('number')) return 'number';
  return null;
}
