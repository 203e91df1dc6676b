import type { Loc } from '../schema';
import { defineRule } from './api';
import { toolNameLoc } from './util';
import { describe, destructiveEvidence, formatCarriesAnnotations, isMarked, targetOf } from '../annotations';

export default defineRule({
  meta: {
    id: 'annotation-destructive-missing',
    description: 'Require `destructiveHint: true` on tools that delete or overwrite data',
    severity: 'warning',
    recommended: true,
    fixable: 'sometimes',
    hasSuggestions: true,
    scope: 'tool',
    messages: {
      missing: 'Tool `{{name}}` destroys data ({{evidence}}) but is not marked `{{field}}: true`',
      markedFalse: 'Tool `{{name}}` destroys data ({{evidence}}) but is marked `{{field}}: false`',
    },
    docs: {
      what:
        'Reports a tool that deletes, removes, drops, purges, revokes, erases, truncates or overwrites data but is not marked destructive: MCP `annotations.destructiveHint: true`, the `{value}` metadata some catalogues use (`toolMetadata: {destructive: {value: true}}`), or a format\'s own approval flag (`dangerous` / `requires_approval` in roxygen-generated tool files, `requires_confirmation` in REST catalogues). A tool destroys data when its name is led by such a verb (`delete_…`, `…_remove`, in any naming style), when its HTTP method is `DELETE`, when the leading verbs of its description include one ("Update and delete…", "Add or remove…"), when its description says it overwrites or replaces everything, or when it calls itself destructive ("(destructive operation)", "is considered destructive") or says it permanently deletes. A tool with no `annotations` at all is reported too; so is one marked `destructiveHint: false` when its main action destroys (an explicit `false` on a tool that only lists deletion among several operations is left to its author). Names led by a reversing verb (`undo_…`, `restore_…`, `untrash`) and removals from content being transformed (`remove_background`, "removes the need to…") are not reported, nor are read-only tools (`readOnlyHint: true`: see `annotation-contradiction`), nor plain function-calling definitions, whose format has no place for annotations.',
      why:
        'Clients use `destructiveHint` to decide when to stop and ask the user before a tool runs. The MCP specification makes `true` the default when `readOnlyHint` is false, but clients and gateways differ: many treat a missing hint as unknown and run the tool like any other, and a catalogue reviewed by eye gives no sign that one call can erase a repository. An agent that misreads an instruction, or is steered by injected text, then deletes data with nobody asked. `destructiveHint: false` on a deleting tool is worse: it tells the client that no confirmation is needed.',
      fix:
        'Adds `destructiveHint: true` to the tool\'s `annotations` (creating `annotations: {destructiveHint: true}` when the tool has none; under `tool:` in MXCP files), sets `destructive: {value: true}` in `{value}` metadata, or sets the format\'s own flag (`dangerous: true` in roxygen tool files, or the approval flag the file\'s other tools use). A tool explicitly marked `false` gets a suggestion to set it to `true`, since someone chose that value.',
    },
  },
  checkTool(tool, ctx) {
    if (tool.annotations.readOnlyHint === true) return;
    if (isMarked(tool)) return;
    if (!formatCarriesAnnotations(tool)) return;
    const evidence = destructiveEvidence(tool);
    if (!evidence) return;
    const target = targetOf(tool);
    const name = tool.name ?? '(unnamed)';
    const data = { name, evidence: describe(evidence), field: target.field };
    if (target.value === false && target.valuePath) {
      // Someone chose `false`: only a tool whose main action destroys is reported.
      if (!evidence.primary) return;
      const loc: Loc = { path: target.valuePath, target: 'value' };
      ctx.report({ messageId: 'markedFalse', data, tool, parameter: null, loc, suggestions: target.fix ? [target.fix] : [] });
      return;
    }
    ctx.report({ messageId: 'missing', data, tool, parameter: null, loc: toolNameLoc(tool), fix: target.fix });
  },
});
