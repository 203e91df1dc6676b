import { defineRule } from './api';
import { toolNameLoc } from './util';

const DEFAULT_PATTERN = '^[a-zA-Z0-9_-]{1,64}$';

export default defineRule<{ pattern: string; maxLength: number }>({
  meta: {
    id: 'tool-name-invalid',
    description: 'Require tool names that every major model API accepts',
    severity: 'error',
    recommended: true,
    fixable: 'never',
    hasSuggestions: true,
    scope: 'tool',
    messages: {
      empty: 'Tool name is empty',
      tooLong: 'Tool name `{{name}}` is {{length}} characters long; model APIs reject names over {{max}}',
      chars: 'Tool name `{{name}}` contains {{chars}}; model APIs accept only letters, digits, `_` and `-`',
      pattern: 'Tool name `{{name}}` does not match `{{pattern}}`',
    },
    options: {
      schema: { type: 'object', properties: { pattern: { type: 'string', minLength: 1 }, maxLength: { type: 'integer', minimum: 1 } }, additionalProperties: false },
      defaults: { pattern: DEFAULT_PATTERN, maxLength: 64 },
    },
    docs: {
      what: 'Reports a tool name that is empty, longer than 64 characters, or has characters outside `a-z A-Z 0-9 _ -` (the pattern `^[a-zA-Z0-9_-]{1,64}$`, configurable).',
      why: 'OpenAI, Anthropic and Gemini validate tool names against this pattern and reject the whole request when one name fails, so one bad name takes every tool of the server away from the agent.',
      fix: 'Suggests a name with the invalid characters replaced by `_` and cut to the length limit (a suggestion: callers and evals that use the old name must change too).',
      options: '- `pattern` (default `^[a-zA-Z0-9_-]{1,64}$`): the pattern names must match.\n- `maxLength` (default `64`).',
    },
  },
  checkTool(tool, ctx) {
    const name = tool.name;
    if (name === null) return;
    const max = ctx.options.maxLength;
    let re: RegExp;
    try {
      re = new RegExp(ctx.options.pattern);
    } catch {
      re = new RegExp(DEFAULT_PATTERN);
    }
    const loc = toolNameLoc(tool);
    if (name.length === 0) {
      ctx.report({ messageId: 'empty', tool, loc });
      return;
    }
    const sanitized = name.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, max) || 'tool';
    const suggestions =
      tool.nameTarget === 'value' && sanitized !== name ? [{ title: `Rename the tool to \`${sanitized}\``, ops: [{ op: 'set' as const, path: tool.namePath, value: sanitized }] }] : [];
    if (name.length > max) {
      ctx.report({ messageId: 'tooLong', data: { name, length: name.length, max }, tool, loc, suggestions });
      return;
    }
    if (ctx.options.pattern === DEFAULT_PATTERN) {
      const bad = [...new Set(name.replace(/[a-zA-Z0-9_-]/g, ''))];
      if (bad.length > 0) {
        const chars = bad.map((c) => (c === ' ' ? 'a space' : c.charCodeAt(0) < 32 || c.charCodeAt(0) > 126 ? `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : `\`${c}\``)).join(', ');
        ctx.report({ messageId: 'chars', data: { name, chars }, tool, loc, suggestions });
      }
      return;
    }
    if (!re.test(name)) ctx.report({ messageId: 'pattern', data: { name, pattern: ctx.options.pattern }, tool, loc, suggestions });
  },
});
