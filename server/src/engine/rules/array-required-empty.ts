import { isObject, type Tool } from '../model';
import { schemaTypes, type SchemaVisit } from '../schema';
import { toolParts } from '../vocab';
import { arraySlots, explainsEmpty, minItemsOp, writesListState, type ArraySlot } from '../arrays';
import { defineRule, type Fix } from './api';
import { paramLoc } from './util';

export default defineRule({
  meta: {
    id: 'array-required-empty',
    description: 'Require a required array to rule out the empty list or say what `[]` means',
    severity: 'warning',
    recommended: true,
    fixable: 'sometimes',
    hasSuggestions: true,
    scope: 'tool',
    messages: {
      empty: 'Required array `{{param}}` accepts an empty list without saying what `[]` means',
    },
    docs: {
      what:
        'Reports a required array parameter that accepts an empty list (no `minItems` of 1 or more, no `contains`, `enum` or `const`) when neither its description nor a sentence of the tool description that names it says what an empty list means ("empty", "non-empty", "`[]`", "at least one", "one or more", "exactly two", "left blank"). A nullable required array is left to `array-empty-vs-null`; a tuple (`items` as a list, `prefixItems`, or numbers under a singular name such as `color` or `view_range`) is one value rather than a list and is skipped, and so are REST parameter maps, which have no types. In MXCP parameter lists a parameter without a `default` is required. Left alone as well: the only required list of an update tool that replaces the stored list (there `[]` plainly means "clear"), and a list beside a sibling list that is already bounded with `minItems` (the author chose to leave this one open).',
      why:
        'Marking an array required only forces the key to be present: `[]` still validates. An agent that is unsure what to put in a list, or that retries after a validation error with fewer fields, sends `[]` and the call "succeeds" with nothing in it: a test set with no tests, an email with no recipients, a batch that does nothing. Nothing in the schema tells it this is wrong, so it never learns. `minItems: 1` makes the validator say so at once; if an empty list does mean something (clear all labels), the description must say it.',
      fix:
        'Adds `minItems: 1` to the array schema (for `anyOf`/`oneOf`, to the array branch), or raises a `minItems: 0`. This is applied by `--fix` only where an empty list cannot be a sensible request: the list is what the tool acts on (not a list inside another list\'s items, and not one of several required lists, like a graph\'s `edges` beside its `nodes`), and the tool does not update records (where `[]` may clear a stored list of labels or attendees). Elsewhere it is a suggestion: decide whether `[]` should be allowed, and if it should, say in the description what it does.',
    },
  },
  checkTool(tool, ctx) {
    arraySlots(tool, (slot) => {
      const v = slot.visit;
      if (!v.required || slot.nullable || explainsEmpty(tool, slot)) return;
      if (siblingBounded(v) || replacesStoredList(tool, slot)) return;
      const op = minItemsOp(slot);
      const add: Fix | null = op ? { title: 'Add `minItems: 1`', ops: [op] } : null;
      const safe = !writesListState(tool, slot, false) && !(v.param ?? '').includes('[]') && !hasRequiredListSibling(v);
      ctx.report({
        messageId: 'empty',
        data: { param: v.param ?? '' },
        tool,
        parameter: v.param,
        loc: paramLoc(v),
        fix: safe ? add : null,
        suggestions: !safe && add ? [add] : [],
      });
    });
  },
});

/**
 * Another required list beside this one (`nodes` and `edges`): then this list may be the
 * secondary one, which can well be empty (a graph without edges).
 */
function hasRequiredListSibling(v: SchemaVisit): boolean {
  const parent = v.parent?.schema;
  const props = parent?.properties;
  if (!parent || !isObject(props) || !Array.isArray(parent.required)) return false;
  return parent.required.some((n) => {
    if (n === v.name || typeof n !== 'string') return false;
    const p = props[n];
    if (!isObject(p)) return false;
    const alts = [p, ...(Array.isArray(p.anyOf) ? p.anyOf : []), ...(Array.isArray(p.oneOf) ? p.oneOf : [])];
    return alts.some((b) => isObject(b) && schemaTypes(b).includes('array'));
  });
}

/**
 * Another list beside this one already rules out `[]` (`nodes` with `minItems: 1` beside
 * `edges`): the author thought about empty lists and left this one open on purpose.
 */
function siblingBounded(v: SchemaVisit): boolean {
  const props = v.parent?.schema.properties;
  if (!isObject(props)) return false;
  return Object.entries(props).some(([n, p]) => {
    if (n === v.name || !isObject(p)) return false;
    const alts = [p, ...(Array.isArray(p.anyOf) ? p.anyOf : []), ...(Array.isArray(p.oneOf) ? p.oneOf : [])];
    return alts.some((b) => isObject(b) && schemaTypes(b).includes('array') && typeof b.minItems === 'number' && b.minItems >= 1);
  });
}

/** "Replaces the current labels with the provided list", "This replaces all environment variables". */
const REPLACES_STORED = /\b(?:replac|overwrit)(?:e|es|ed|ing)\b[^.;]*\b(?:current|existing|all)\b/i;

/**
 * A tool that updates records and says it replaces the stored list with the one given: when
 * this is its only list (not inside another list's items, no other required list beside it),
 * `[]` plainly means "none" (unassign everyone, clear the labels), a legitimate request.
 */
function replacesStoredList(tool: Tool, slot: ArraySlot): boolean {
  const a = toolParts(tool).action;
  if (a !== 'update' && a !== 'upsert') return false;
  const v = slot.visit;
  if ((v.param ?? '').includes('[]') || hasRequiredListSibling(v)) return false;
  const texts = [tool.description, v.schema.description, slot.array.description];
  return texts.some((t) => typeof t === 'string' && t.split(/(?<=[.!?;])\s+|\n/).some((sentence) => REPLACES_STORED.test(sentence)));
}
