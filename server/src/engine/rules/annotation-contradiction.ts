import type { Tool } from '../model';
import type { JsonPath } from '../types';
import { verbAction } from '../vocab';
import { defineRule, type Fix } from './api';
import { hintValuePath, isMetadataStyle, metadataKey, nameVerb } from '../annotations';

/**
 * Leading verbs of a name that say the tool changes something: it creates, updates, deletes,
 * sends, installs or deploys. Verbs that often only compute or look up (`generate`, `run`,
 * `execute`, `apply`, `resolve`, `sync`, `export`) are left out: a read-only tool may well be
 * led by one.
 */
const WRITES = new Set([
  'create', 'add', 'insert', 'register', 'upload', 'provision', 'publish', 'invite', 'enroll', 'subscribe', 'import', 'submit', 'clone', 'copy', 'duplicate', 'fork', 'schedule', 'book', 'post',
  'update', 'edit', 'modify', 'patch', 'set', 'put', 'change', 'rename', 'move', 'assign', 'replace', 'save', 'toggle', 'enable', 'disable', 'archive', 'restore', 'close', 'reopen', 'approve', 'reject', 'merge', 'configure', 'link', 'unlink', 'attach', 'detach', 'tag', 'lock', 'unlock', 'pin', 'unpin', 'mark', 'upsert', 'write', 'overwrite',
  'delete', 'del', 'remove', 'rm', 'drop', 'purge', 'destroy', 'erase', 'revoke', 'cancel', 'clear', 'truncate', 'wipe', 'unregister', 'unsubscribe', 'terminate', 'kill', 'expunge',
  'send', 'reply', 'forward', 'share', 'deploy', 'install', 'uninstall', 'push', 'commit', 'trigger', 'star', 'unstar', 'transfer', 'invalidate', 'rotate',
]);

/** Leading words that are more often nouns (`label_list`, `post_search`): a later verb leads instead. */
const NOUNISH = new Set(['post', 'tag', 'label', 'status', 'info', 'details', 'detail', 'new', 'book', 'count', 'view', 'link', 'pin', 'lock', 'mark', 'set', 'check', 'schedule', 'share', 'copy', 'star', 'commit', 'push', 'transfer', 'rotate']);

/** The verb that leads the tool's name and says it writes, or null. */
export function writeVerb(name: string): string | null {
  const v = nameVerb(name);
  if (!v || v.index < 0) return null;
  let w = v.word;
  if (NOUNISH.has(w)) {
    const later = v.words.find((x, i) => i > v.index && (verbAction(x) !== 'other' || WRITES.has(x)) && !NOUNISH.has(x));
    if (later) w = later;
    else if (v.index > 0) return null;
  }
  return WRITES.has(w) ? w : null;
}

/** The key of a hint as written (`readOnlyHint`, or `readOnly` in `{value}` metadata). */
function hintLabel(tool: Tool, hint: string, short: string): string {
  return isMetadataStyle(tool) ? (metadataKey(tool, hint, short) ?? short) : hint;
}

export default defineRule({
  meta: {
    id: 'annotation-contradiction',
    description: 'Disallow `readOnlyHint: true` on tools that are marked destructive or whose name says they write',
    severity: 'error',
    recommended: true,
    fixable: 'never',
    hasSuggestions: true,
    scope: 'tool',
    messages: {
      destructive: '`{{readOnly}}: true` contradicts `{{destructive}}: true` on tool `{{name}}`: a read-only tool cannot be destructive',
      writes: '`{{readOnly}}: true` contradicts the name `{{name}}`, whose verb `{{verb}}` says the tool changes data',
    },
    docs: {
      what:
        'Reports `readOnlyHint: true` on a tool that is also marked `destructiveHint: true`, and on a tool whose name is led by a verb that changes data: `create`, `add`, `update`, `set`, `write`, `delete`, `remove`, `send`, `install`, `deploy`… (in any naming style: `create_sprocket`, `sprocketCreate`, `sprocket-write`). Verbs that often only compute or look things up (`generate`, `run`, `execute`, `apply`, `export`) are not taken as writes. The same holds for `{value}` metadata (`toolMetadata: {readOnly: {value: true}, destructive: {value: true}}`).',
      why:
        'Clients run read-only tools without asking and may call them freely in parallel or while planning; they ask before destructive ones. A tool that claims both cannot be handled correctly: a client that trusts `readOnlyHint` skips the confirmation the destructive hint asked for, and one named `delete_…` or `send_…` that claims to be read-only runs without the user ever being asked. MCP ignores `destructiveHint` when `readOnlyHint` is true, so the read-only claim wins.',
      fix: 'No automatic fix: which side is wrong is a judgement. Suggestions: set `readOnlyHint` to `false` (the tool writes), or remove `destructiveHint` (the tool only reads). When the annotations are right and the name misleads, rename the tool.',
    },
  },
  checkTool(tool, ctx) {
    if (tool.annotations.readOnlyHint !== true) return;
    const roPath = hintValuePath(tool, 'readOnlyHint', 'readOnly');
    if (!roPath) return;
    const name = tool.name ?? '(unnamed)';
    const readOnly = hintLabel(tool, 'readOnlyHint', 'readOnly');
    const setReadOnlyFalse: Fix = { title: `Set \`${readOnly}\` to \`false\``, ops: [{ op: 'set', path: roPath, value: false }] };
    if (tool.annotations.destructiveHint === true) {
      const dPath = hintValuePath(tool, 'destructiveHint', 'destructive');
      const destructive = hintLabel(tool, 'destructiveHint', 'destructive');
      const suggestions: Fix[] = [setReadOnlyFalse];
      if (dPath) suggestions.push(dropDestructive(tool, dPath, destructive));
      ctx.report({ messageId: 'destructive', data: { name, readOnly, destructive }, tool, parameter: null, loc: { path: roPath, target: 'value' }, suggestions });
      return;
    }
    const verb = tool.name ? writeVerb(tool.name) : null;
    if (!verb) return;
    ctx.report({ messageId: 'writes', data: { name, readOnly, verb }, tool, parameter: null, loc: { path: roPath, target: 'value' }, suggestions: [setReadOnlyFalse] });
  },
});

/** Remove `destructiveHint` (MCP: ignored on a read-only tool anyway), or set `{value}` metadata to false, which cannot be removed without losing its description. */
function dropDestructive(tool: Tool, path: JsonPath, label: string): Fix {
  if (isMetadataStyle(tool)) return { title: `Set \`${label}\` to \`false\``, ops: [{ op: 'set', path, value: false }] };
  return { title: `Remove \`${label}\``, ops: [{ op: 'remove', path }] };
}
