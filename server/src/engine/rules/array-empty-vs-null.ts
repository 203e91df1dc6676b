import { isObject, type Tool } from '../model';
import type { SchemaVisit } from '../schema';
import { mentions, toolParts } from '../vocab';
import { defineRule, type EditOp, type Fix } from './api';
import { arraySlots, descriptionLoc, explainsEmpty, minItemsOp, writesListState, type ArraySlot } from '../arrays';
import { paramLoc } from './util';
import { perList } from '../util/memo';

const OMIT = 'Omit it instead of sending an empty list.';
const KEEP = 'Omit it to keep the current list; send [] to clear it.';

export default defineRule({
  meta: {
    id: 'array-empty-vs-null',
    description: 'Require an optional or nullable array to say how `[]` differs from `null` or omission',
    severity: 'warning',
    recommended: true,
    fixable: 'never',
    hasSuggestions: true,
    scope: 'tool',
    messages: {
      nullable: 'Array `{{param}}` accepts `[]`, `null` and omission without saying how they differ',
      nullableRequired: 'Array `{{param}}` accepts both `[]` and `null` without saying how they differ',
      state: 'Optional array `{{param}}` does not say whether `[]` clears the current list or acts like omitting it',
      defaulted: 'Array `{{param}}` defaults to a non-empty list without saying what `[]` means',
    },
    docs: {
      what:
        'Reports an array parameter for which an empty list and "nothing" are different inputs the schema accepts alike, when the schema does not rule out `[]` (`minItems: 1`) and neither its description nor a sentence of the tool description that names it says what an empty list means ("empty", "non-empty", "`[]`", "at least one", "one or more", "left blank"). Three cases count:\n\n' +
        '1. A **nullable** array (`type: [array, "null"]`, `nullable: true`, or `anyOf`/`oneOf` with an array and a null branch), optional or not, on a tool that is not a read or list tool: `[]`, `null` and omission are three ways to say "none", and servers treat them differently (seed 000: `[]` for `categories` was rejected where `null` was expected).\n' +
        '2. An optional, non-nullable array on a tool that **updates** records (update or upsert verb), outside another list\'s items: omitting the list usually keeps the stored one while `[]` clears it. Lists named as changes (`add_labels`, `removeIds`, `include_fields`, "labels to add"), batches of edits (object items that name what they change: `{field_id, value}`) and lists of the targets (`ids`, `order_ids` on a tool acting on orders) are left alone: for them empty and omitted mean the same.\n' +
        '3. An optional array whose `default` is a non-empty list: omission gives the default, so `[]` must mean something else (reported at lower severity on read and list tools).\n\n' +
        'On read and list tools an empty filter usually means the same as no filter, and on create tools an omitted optional list usually means an empty one: those are not reported unless case 3 applies. Tuples (`items` as a list, `prefixItems`, or numbers under a singular name such as `color`) are one value, not a list, and are skipped; `default: []` on a non-nullable array already says that omission is the empty list. Required non-nullable arrays are `array-required-empty`\'s. Nothing is reported when the description already says what omitting the list or sending `null` does ("otherwise omit it", "defaults to all"), nor for tools that replace the whole record (a `replace` verb, or "replaces the entire …"), where omission keeps nothing.',
      why:
        'An agent asked to leave a list out does one of three things: omits the key, sends `null`, or sends `[]`. When the server treats these differently the agent cannot tell from the schema: an update that was meant to leave the labels alone clears them, or a create call fails with "[] is not valid" and the agent loops, trying variations. One sentence (or `minItems: 1`) settles it.',
      fix:
        'Suggests adding `minItems: 1` to the array schema (for `anyOf`/`oneOf`, the array branch) and appending "Omit it instead of sending an empty list." to the description (creating one when there is none). On a tool that updates records it also suggests documenting the usual meaning instead: "Omit it to keep the current list; send [] to clear it." Both need a human to check what the server really does.',
    },
  },
  checkTool(tool, ctx) {
    const action = toolParts(tool).action;
    const reads = action === 'read' || action === 'list';
    const replaces = replacesWhole(tool);
    arraySlots(tool, (slot) => {
      const v = slot.visit;
      const s = v.schema;
      const required = v.required || requiredByFileConvention(tool, v);
      const def = 'default' in s ? s.default : slot.array.default;
      let messageId: string;
      let weak = false;
      if (Array.isArray(def) && def.length > 0 && !required) {
        messageId = 'defaulted';
        weak = reads;
      } else if (Array.isArray(def) && def.length === 0 && !slot.nullable) {
        // `default: []` says omission is the empty list.
        return;
      } else if (slot.nullable) {
        if (reads) return;
        messageId = required ? 'nullableRequired' : 'nullable';
      } else if (!required && !replaces && writesListState(tool, slot)) {
        messageId = 'state';
      } else {
        return;
      }
      if (explainsEmpty(tool, slot)) return;
      // Saying what leaving it out (or `null`) does tells the agent how to say "none".
      if (messageId !== 'defaulted' && explainsOmission(tool, slot)) return;
      const suggestions: Fix[] = [];
      const omit = omitFix(slot);
      if (omit) suggestions.push(omit);
      if (messageId === 'state') {
        const keep = textOp(slot, KEEP);
        if (keep) suggestions.push({ title: 'Say that omitting keeps the list and `[]` clears it', ops: [keep] });
      }
      ctx.report({ messageId, data: { param: v.param ?? '' }, tool, parameter: v.param, loc: paramLoc(v), suggestions, weak });
    });
  },
});

function omitFix(slot: ArraySlot): Fix | null {
  // The text first: when the description is the last member of the array's flow mapping, both
  // edits insert at one offset, and they are applied in op order.
  const ops: EditOp[] = [];
  const text = textOp(slot, OMIT);
  if (text) ops.push(text);
  const min = minItemsOp(slot);
  if (min) ops.push(min);
  if (ops.length === 0) return null;
  return { title: min ? 'Add `minItems: 1` and say to omit it instead of sending `[]`' : 'Say to omit it instead of sending `[]`', ops };
}

/** Append a sentence to the property's description, or create the description. */
function textOp(slot: ArraySlot, sentence: string): EditOp | null {
  const at = descriptionLoc(slot);
  if (!at) return null;
  const cur = slot.visit.schema.description;
  if (!at.exists || typeof cur !== 'string' || cur.trim() === '') return { op: 'set', path: at.path, value: sentence };
  const trimmed = cur.trimEnd();
  // A block scalar puts the sentence on a line of its own: no joining punctuation there.
  const sep = /[.!?:;,]$/.test(trimmed) || trimmed !== cur ? ' ' : '. ';
  return { op: 'appendText', path: at.path, text: sep + sentence };
}

/**
 * Wording that says what omitting the parameter, or sending `null`, does: "omit it", "if not
 * provided", "default None for equal weights", "pass null to clear it".
 */
const SAYS_OMISSION = /\bomit(?:s|ted|ting)?\b|\bleave (?:it |this |them )?(?:out|unset)\b|\b(?:if|when|unless) (?:it is |they are )?(?:not |un)(?:provided|specified|set|given|supplied)\b|\bdefaults? (?:to |is |value is )?(?:none|null)\b|\b(?:none|null) (?:for|to|means|keeps|clears|leaves)\b|\b(?:pass|send|use|set (?:it )?to) (?:none|null)\b/i;

/** Whether the property's description, or a sentence of the tool description naming it, says what omission or `null` does. */
function explainsOmission(tool: Tool, slot: ArraySlot): boolean {
  const s = slot.visit.schema;
  const own = [s.description, slot.array !== s ? slot.array.description : undefined];
  if (own.some((d) => typeof d === 'string' && SAYS_OMISSION.test(d))) return true;
  const name = slot.visit.name;
  if (!name || !tool.description) return false;
  return tool.description.split(/(?<=[.!?;])\s+|\n/).some((sentence) => mentions(sentence, name) && SAYS_OMISSION.test(sentence));
}

/**
 * A tool that replaces the whole record (`replace_…`, "full replacement", "replaces the entire
 * page", "omitted fields revert to their defaults"): nothing is kept by omitting a list, so
 * whether `[]` clears the stored list or acts like omission is not a question.
 */
const WHOLE = /\bfull(?:y)? (?:replacement|replace|overwrite)\b|\b(?:replaces?|overwrites?) (?:the )?(?:entire|whole)\b|\bomitted\b[^.;]*\b(?:revert|reset|cleared|removed)\b|\b(?:revert|reset)s? to (?:its |their )?defaults? (?:if|when) omitted\b/i;

function replacesWhole(tool: Tool): boolean {
  const p = toolParts(tool);
  const verb = p.verbAt >= 0 ? p.words[p.verbAt] : '';
  if (verb === 'replace' || verb === 'overwrite') return true;
  return typeof tool.description === 'string' && WHOLE.test(tool.description);
}

/**
 * In catalogues of argument lists that mark optional parameters with `optional: true`, a
 * parameter without the flag is required, even in a tool whose list happens to carry no flag
 * at all (where the loader cannot tell). A finding about an optional list would be wrong there.
 */
function requiredByFileConvention(tool: Tool, v: SchemaVisit): boolean {
  if (tool.schemaStyle !== 'param-list' || !tool.schemaKey || v.parent?.via !== 'root') return false;
  if (flagged(tool) !== false) return false;
  // The tool itself is not flagged, so "another tool is" is "some tool of the file is": answered
  // once per file, not per parameter.
  return anyFlagged(tool.file.tools);
}

const anyFlagged = perList((tools: readonly Tool[]) => tools.some((t) => t.schemaStyle === 'param-list' && flagged(t) === true));

/** Whether a parameter-list tool marks entries `optional`/`required` (null when it has no list). */
function flagged(t: Tool): boolean | null {
  const list = t.schemaKey ? t.raw[t.schemaKey] : undefined;
  if (!Array.isArray(list)) return null;
  return list.some((e) => isObject(e) && ('optional' in e || 'required' in e));
}
