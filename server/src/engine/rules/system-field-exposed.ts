import type { Tool } from '../model';
import { keywordInSource, keywordLoc, type Loc, type SchemaVisit, walkSchema } from '../schema';
import { ServerManagedClassifier, type ServerManagedOptions } from '../server-managed';
import type { JsonPath } from '../types';
import { defineRule, type EditOp, type Fix } from './api';
import { paramLoc } from './util';

export default defineRule<ServerManagedOptions>({
  meta: {
    id: 'system-field-exposed',
    description: 'Disallow input properties that the server assigns',
    severity: 'warning',
    recommended: true,
    fixable: 'sometimes',
    hasSuggestions: false,
    scope: 'tool',
    messages: {
      hidden: '`{{param}}` starts with `.`, which marks a hidden parameter that must not reach the model',
      readOnly: '`{{param}}` is `readOnly` but is offered to the model as an input',
      described: '`{{param}}` is offered to the model although its description says to leave it out ("{{cue}}")',
      toolDescribed: '`{{param}}` is named as server-managed in the tool description but is offered to the model as an input',
      configured: '`{{param}}` is configured as a server-managed field but is offered to the model as an input',
      ownId: '`{{param}}` is the new record\'s own identifier, which the server assigns',
      audit: '`{{param}}` is a timestamp or audit field, which the server stamps on the record',
      ownership: '`{{param}}` is ownership, tenancy or status that the server fills from the caller\'s session',
    },
    options: {
      schema: {
        type: 'object',
        properties: {
          fields: { type: 'array', items: { type: 'string' } },
          ignore: { type: 'array', items: { type: 'string' } },
        },
        additionalProperties: false,
      },
      defaults: { fields: [], ignore: [] },
    },
    docs: {
      what:
        'Reports an input property the server assigns, so the model should never see it: the new record\'s own `id` / `nano_id` and its timestamps and audit fields (`created_at`, `updated_by`…) on tools that create records; ownership, tenancy and status (`user_id`, `owner_id`, `organization_id`, `assignee_id`, `status_id`…) on tools that create or update records, when the field is optional, its description does not explain what to send, and no tool of the catalogue lets the model look the value up; parameters whose names start with `.` (hidden by convention); properties marked `readOnly: true`; and any property whose description tells the model to omit it ("Omit.", "server-managed", "do not send"). A field that is the tool\'s target (the `user_id` of a tool that updates users, the `assignee_id` of a tool that assigns) is not reported, nor are fields inside filter or query objects. Names match in any style (`ownerId`, `owner-id`).',
      why:
        'An agent fills every field it is shown. Given `id`, `user_id` or `organization_id` on a create tool, it invents a value, sends `""` or `null`, or stops to ask the user for something nobody knows; validation fails, or worse, the record is written under a made-up owner. Each exposed field also costs tokens on every call.',
      fix: 'Removes the property and its entry in the parent\'s `required` list (for argument lists, the list entry). No fix for REST-style parameter maps, which often only annotate a schema built elsewhere: hide the field where the schema is built.',
      options:
        '- `fields` (default `[]`): more names to treat as server-managed on tools that create or update records (e.g. `[workspace_id]`; `tenant_id` is built in). They are reported whatever their description says, unless they are the tool\'s target.\n- `ignore` (default `[]`): names never reported (e.g. `[id]`).\n\nNames match in any naming style: `tenantId` matches `tenant_id`.',
    },
  },
  checkTool(tool, ctx) {
    const classifier = new ServerManagedClassifier(tool, ctx.catalog, ctx.options);
    walkSchema(tool, (v) => {
      const { reason, cue, descend } = classifier.classify(v);
      if (!reason) return descend ? undefined : false;
      const param = v.param ?? v.name ?? '';
      ctx.report({
        messageId: reason,
        data: { param, cue: cue.length > 60 ? cue.slice(0, 57) + '…' : cue },
        tool,
        parameter: param,
        loc: locOf(tool, v),
        fix: removalFix(tool, v, param),
      });
      // The whole subtree goes with the property.
      return false;
    });
  },
});

/**
 * Where the finding points. Object-valued entries of a parameter map carry no origin, so the
 * schema walk guesses a `properties` path that is not in the source: point at the map key.
 */
function locOf(tool: Tool, v: SchemaVisit): Loc {
  if (tool.schemaStyle === 'param-map' && !tool.origins.has(v.schema) && v.parent?.via === 'root' && v.name !== null) {
    return { path: [...v.parent.origin.path, v.name], target: 'key' };
  }
  return paramLoc(v);
}

/** Remove the property and its `required` (and `visible`) entries; none for parameter maps. */
function removalFix(tool: Tool, v: SchemaVisit, param: string): Fix | null {
  if (tool.schemaStyle === 'param-map' || !v.parent || v.name === null) return null;
  const ops: EditOp[] = [{ op: 'remove', path: v.origin.path }];
  const parent = v.parent;
  for (const kw of ['required', 'visible']) {
    const list = parent.schema[kw];
    if (!Array.isArray(list) || !list.includes(v.name) || !keywordInSource(parent.origin, kw)) continue;
    const at: JsonPath = keywordLoc(parent.origin, kw).path;
    ops.push({ op: 'removeItemValue', path: at, value: v.name });
  }
  return { title: `Remove \`${param}\``, ops };
}
