import { isObject } from '../model';
import { walkSchema, keywordInSource } from '../schema';
import { levenshtein } from '../util/text';
import { defineRule, type Fix } from './api';

export default defineRule({
  meta: {
    id: 'schema-required-undefined',
    description: 'Disallow `required` names that are not defined in `properties`',
    severity: 'error',
    recommended: true,
    fixable: 'never',
    hasSuggestions: true,
    scope: 'tool',
    messages: { undefined: '`{{name}}` is required but not defined in `properties`{{hint}}' },
    docs: {
      what: 'Reports a name in an object schema\'s `required` list that is not one of its `properties`.',
      why: 'The agent is shown the properties, not the `required` list alone, so it never sends a property it was not told about. Validation then fails on every call, and the agent cannot recover because nothing tells it what is missing. Usually the name is a typo or a leftover from a renamed property.',
      fix: 'Suggests the closest defined property name, or removing the name from `required`.',
    },
  },
  checkTool(tool, ctx) {
    walkSchema(tool, (v) => {
      const s = v.schema;
      const req = s.required;
      if (!Array.isArray(req) || !keywordInSource(v.origin, 'required')) return;
      const props = isObject(s.properties) ? s.properties : null;
      if (!props && ('additionalProperties' in s || 'patternProperties' in s || 'allOf' in s || 'anyOf' in s || 'oneOf' in s || '$ref' in s)) return;
      if (props && ('allOf' in s || 'anyOf' in s || 'oneOf' in s)) return;
      const names = props ? Object.keys(props) : [];
      req.forEach((name, i) => {
        if (typeof name !== 'string' || (props && Object.prototype.hasOwnProperty.call(props, name))) return;
        const at = [...v.origin.path, 'required', i];
        const close = closest(name, names);
        const suggestions: Fix[] = [];
        if (close) suggestions.push({ title: `Change it to \`${close}\``, ops: [{ op: 'set', path: at, value: close }] });
        suggestions.push({ title: `Remove \`${name}\` from \`required\``, ops: [{ op: 'remove', path: at }] });
        ctx.report({
          messageId: 'undefined',
          data: { name, hint: close ? ` (did you mean \`${close}\`?)` : '' },
          tool,
          parameter: v.param ? `${v.param}.${name}` : name,
          loc: { path: at, target: 'value' },
          suggestions,
        });
      });
    });
  },
});

function closest(name: string, names: string[]): string | null {
  const norm = (s: string): string => s.toLowerCase().replace(/[_-]/g, '');
  let best: string | null = null;
  let bestD = Infinity;
  for (const n of names) {
    const d = norm(n) === norm(name) ? 0 : levenshtein(name, n);
    if (d < bestD) [best, bestD] = [n, d];
  }
  return best !== null && bestD <= Math.max(1, Math.floor(name.length / 4)) ? best : null;
}
