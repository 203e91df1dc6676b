import { walkSchema } from '../schema';
import { defineRule } from './api';
import { paramLoc, toolNameLoc } from './util';

export default defineRule({
  meta: {
    id: 'description-missing',
    description: 'Require a description on every tool and parameter',
    severity: 'warning',
    recommended: true,
    fixable: 'never',
    hasSuggestions: false,
    scope: 'tool',
    messages: {
      tool: 'Tool `{{name}}` has no description; the agent sees only its name',
      toolEmpty: 'Tool `{{name}}` has an empty description; the agent sees only its name',
      parameter: 'Parameter `{{param}}` has no description; the agent must guess what to send',
    },
    options: {
      schema: { type: 'object', properties: { parameters: { type: 'boolean' }, nested: { type: 'boolean' } }, additionalProperties: false },
      defaults: { parameters: true, nested: true },
    },
    docs: {
      what: 'Reports a tool with no (or an empty) description, and an input parameter with no description. A parameter described through `$ref` is left alone: its description lives with the definition.',
      why: 'An agent chooses a tool from its name and description alone, and fills each argument from the parameter\'s name and description. Without them it guesses, and a wrong guess is a failed call or, worse, a call that succeeds with the wrong data.',
      options: '- `parameters` (default `true`): also check parameters.\n- `nested` (default `true`): also check properties nested inside objects and array items.',
    },
  },
  checkTool(tool, ctx) {
    const name = tool.name ?? '(unnamed)';
    if (tool.description === null) {
      ctx.report({ messageId: 'tool', data: { name }, tool, loc: toolNameLoc(tool) });
    } else if (tool.description.trim() === '') {
      ctx.report({ messageId: 'toolEmpty', data: { name }, tool, loc: tool.descriptionPath ? { path: tool.descriptionPath, target: 'value' } : toolNameLoc(tool) });
    }
    if (ctx.options.parameters === false) return;
    walkSchema(tool, (v) => {
      if (v.via !== 'properties') return v.via === 'defs' ? false : undefined;
      if (v.depth > 1 && ctx.options.nested === false) return false;
      const s = v.schema;
      if ('$ref' in s) return;
      const d = s.description;
      if (typeof d === 'string' && d.trim() !== '') return;
      if (typeof s.title === 'string' && s.title.trim() !== '') return;
      ctx.report({ messageId: 'parameter', data: { param: v.param ?? '' }, tool, parameter: v.param, loc: paramLoc(v) });
    });
  },
});
