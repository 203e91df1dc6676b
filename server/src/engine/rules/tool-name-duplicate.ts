import { resolveLoc } from '../resolve';
import { defineRule } from './api';
import { toolNameLoc } from './util';

export default defineRule({
  meta: {
    id: 'tool-name-duplicate',
    description: 'Disallow two tools with the same name in one catalogue',
    severity: 'error',
    recommended: true,
    fixable: 'never',
    hasSuggestions: false,
    scope: 'catalog',
    messages: {
      duplicate: 'Tool `{{name}}` is defined again; the first definition is at {{where}}',
    },
    docs: {
      what: 'Reports a tool whose name is already used by another tool of the same catalogue (all files of one run). Tools that a multi-server dump files under different servers are not duplicates: clients prefix them with their server.',
      why: 'A client keeps one tool per name: the other is dropped or shadows it, depending on load order. The agent then calls a tool whose schema is not the one its author tested.',
    },
  },
  checkCatalog(catalog, ctx) {
    for (const [name, tools] of catalog.byName) {
      if (tools.length < 2) continue;
      const firstByGroup = new Map<string | null, (typeof tools)[number]>();
      for (const t of tools) {
        const first = firstByGroup.get(t.group);
        if (!first) {
          firstByGroup.set(t.group, t);
          continue;
        }
        const at = resolveLoc(first.file, first.doc, first.namePath, first.nameTarget).range.start;
        const where = first.file === t.file ? `line ${at.line}` : `${first.file.path}:${at.line}`;
        ctx.report({ messageId: 'duplicate', data: { name, where }, tool: t, loc: toolNameLoc(t) });
      }
    }
  },
});
