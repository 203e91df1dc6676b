/**
 * Array parameters as the two empty-array rules see them: each array "slot" (a property whose
 * schema is, or has a branch that is, an array), whether an empty list is settled by the schema
 * or explained in prose, and where `minItems` goes.
 */
import { isObject, type Origin, type Schema, type Tool } from './model';
import type { JsonPath } from './types';
import { keywordInSource, keywordLoc, schemaTypes, walkSchema, type SchemaVisit } from './schema';
import { mentions, singular, splitWords, toolParts } from './vocab';
import type { EditOp } from './rules/api';

/**
 * An input property that takes a list: `type: array`, `type: [array, null]`, or an
 * `anyOf`/`oneOf` with one array branch (and usually a null branch).
 */
export interface ArraySlot {
  /** The property (where findings point, where its description lives). */
  visit: SchemaVisit;
  /** The array schema: the property itself, or its array branch. */
  array: Schema;
  /** Source location of the array schema (where `minItems` goes). */
  arrayOrigin: Origin;
  /** `null` is accepted besides a list. */
  nullable: boolean;
}

/**
 * Every array-valued property of a tool's input, with the cases that already settle the
 * empty list left out: `minItems ≥ 1`, `contains`, `enum`/`const`, `maxItems: 0`. REST
 * parameter maps carry no types and are skipped.
 */
export function arraySlots(tool: Tool, cb: (slot: ArraySlot) => void): void {
  if (tool.schemaStyle === 'param-map' || tool.schemaStyle === 'none') return;
  walkSchema(tool, (v) => {
    if (v.via === 'defs') return false;
    if (v.via !== 'properties') return;
    const s = v.schema;
    let array: Schema | null = null;
    let arrayOrigin: Origin | null = null;
    let nullable = schemaTypes(s).includes('null') || s.nullable === true;
    if (schemaTypes(s).includes('array')) {
      array = s;
      arrayOrigin = v.origin;
    } else {
      const branches: { schema: Schema; origin: Origin }[] = [];
      for (const comb of ['anyOf', 'oneOf'] as const) {
        const list = s[comb];
        if (!Array.isArray(list)) continue;
        list.forEach((b, i) => {
          if (!isObject(b)) return;
          const types = schemaTypes(b);
          if (types.includes('null') || b.const === null) nullable = true;
          if (types.includes('array')) {
            const path = [...v.origin.path, comb, i];
            branches.push({ schema: b, origin: tool.origins.get(b) ?? { path, self: path, selfTarget: 'value' } });
          }
        });
      }
      // Two list branches (a list of strings or of objects): no single place for `minItems`.
      if (branches.length !== 1) return;
      ({ schema: array, origin: arrayOrigin } = branches[0]);
      if (schemaTypes(array).includes('null') || array.nullable === true) nullable = true;
    }
    if (!array || !arrayOrigin || emptySettled(s) || (array !== s && emptySettled(array)) || oneValue(array, v.name)) return;
    cb({ visit: v, array, arrayOrigin, nullable });
  });
}

/** The schema itself rules out (or pins down) the empty list. */
function emptySettled(s: Schema): boolean {
  if (typeof s.minItems === 'number' && s.minItems >= 1) return true;
  if (s.maxItems === 0 || 'contains' in s || 'const' in s || Array.isArray(s.enum)) return true;
  if (Array.isArray(s.allOf) && s.allOf.some((b) => isObject(b) && emptySettled(b))) return true;
  return false;
}

/** Mass nouns: a list of numbers under these names is a collection, not one value. */
const MASS = new Set(['data', 'series', 'media', 'content', 'info', 'history']);

/**
 * A tuple: one value written as a list (`items` as a list, `prefixItems`, or numbers under a
 * singular name: `color: [255, 0, 0]`, `view_range: [1, 40]`). An empty one is malformed, not
 * "none", and the fitting bound is its length, not `minItems: 1`.
 */
function oneValue(array: Schema, name: string | null): boolean {
  if (Array.isArray(array.items) || 'prefixItems' in array) return true;
  const items = array.items;
  if (!name || !isObject(items)) return false;
  const numeric = (x: Schema): boolean => {
    const t = schemaTypes(x);
    if (t.length > 0) return t.every((y) => y === 'number' || y === 'integer');
    const alts = Array.isArray(x.anyOf) ? x.anyOf : Array.isArray(x.oneOf) ? x.oneOf : null;
    return !!alts && alts.length > 0 && alts.every((b) => isObject(b) && numeric(b));
  };
  if (!numeric(items)) return false;
  // The head noun comes before a preposition: `days_of_week` is plural.
  const words = splitWords(name);
  const cut = words.findIndex((w, i) => i > 0 && (w === 'of' || w === 'per' || w === 'for' || w === 'in' || w === 'by'));
  const last = (cut > 0 ? words[cut - 1] : words[words.length - 1]) ?? '';
  return !MASS.has(last) && singular(last) === last && !last.endsWith('s');
}

/**
 * Wording that says what an empty list means or that one is not allowed: "empty", "non-empty",
 * "[]", "at least one", "one or more", "exactly two", "left blank".
 */
const SAYS_EMPTY = /\bempty\b|\bnon-?empty\b|\bnonempty\b|\[\s*\]|\bat least (?:one|two|1|2|\d+|a single)\b|\b(?:one|two|three|1|2|3|\d+) or more\b|\bexactly (?:one|two|three|\d+)\b|\bmin(?:imum)?(?: of)? (?:one|1)\b|\bblank\b/i;

export function saysEmpty(text: unknown): boolean {
  return typeof text === 'string' && SAYS_EMPTY.test(text);
}

/**
 * Whether the property's description (or its list branch's), or a sentence of the tool's
 * description that names the property, says what an empty list means.
 */
export function explainsEmpty(tool: Tool, slot: ArraySlot): boolean {
  const s = slot.visit.schema;
  if (saysEmpty(s.description) || (slot.array !== s && saysEmpty(slot.array.description))) return true;
  const name = slot.visit.name;
  if (!name || !tool.description) return false;
  return tool.description.split(/(?<=[.!?;])\s+|\n/).some((sentence) => mentions(sentence, name) && saysEmpty(sentence));
}

/** The op that makes `minItems: 1` (inserting it, or raising a `minItems` below 1), or null. */
export function minItemsOp(slot: ArraySlot): EditOp | null {
  const cur = slot.array.minItems;
  if (cur !== undefined && typeof cur !== 'number') return null;
  if (!keywordInSource(slot.arrayOrigin, 'minItems')) return null;
  const mapped = slot.arrayOrigin.keys?.minItems;
  return { op: 'set', path: mapped ?? [...slot.arrayOrigin.path, 'minItems'], value: 1 };
}

/** Words of a list's name that make it a change to apply, not the list's new value. */
const DELTA_WORDS = new Set(['add', 'added', 'remove', 'removed', 'delete', 'append', 'prepend', 'insert', 'include', 'exclude', 'drop', 'unset', 'clear', 'extra', 'additional', 'more']);

/**
 * Whether the list is a record's state written by the tool (labels, attendees, tags), so that an
 * empty list plausibly clears it: the tool updates records, the list is not inside another list's
 * items, and its name is not a change (`add_labels`, `removeIds`) nor the targets of the action
 * (`ids`, `order_ids` on a tool acting on orders). With `batches`, a list of edits (object items
 * that name what they change: `{field, value}`) is not state either; that guess is too weak to
 * justify an automatic fix (`{key, value}` items are often the whole stored list), so the fix
 * decision leaves it out.
 */
export function writesListState(tool: Tool, slot: ArraySlot, batches = true): boolean {
  const a = toolParts(tool).action;
  if (a !== 'update' && a !== 'upsert') return false;
  const v = slot.visit;
  if (!v.name || (v.param ?? '').includes('[]')) return false;
  const words = splitWords(v.name);
  if (words.some((w) => DELTA_WORDS.has(w))) return false;
  const last = words[words.length - 1];
  if (last === 'ids' || last === 'uuids' || last === 'keys') {
    const entity = toolParts(tool).entity;
    if (words.length === 1 || entity.includes(singular(words[words.length - 2]))) return false;
  }
  if (batches && editBatch(slot.array)) return false;
  const d = [v.schema.description, slot.array.description].filter((x): x is string => typeof x === 'string').join(' ');
  return !/\b(?:to|will) (?:be )?(?:add|added|remove|removed|append|appended|insert|inserted|delete|deleted|update|updated|request)\b/i.test(d);
}

/** Words that locate what an item changes (`{field, value}`, `{range, values}`, `{id, …}`). */
const LOCATORS = new Set(['id', 'ids', 'uuid', 'key', 'field', 'range', 'path', 'index']);

/**
 * A list of edits: object items that each name what they change (a required `field`, `range`
 * or identifier). Sending none of them changes nothing, like omitting the list.
 */
function editBatch(array: Schema): boolean {
  const items = array.items;
  if (!isObject(items) || !isObject(items.properties)) return false;
  const names = Array.isArray(items.required) ? items.required.filter((n): n is string => typeof n === 'string') : Object.keys(items.properties);
  return names.some((n) => {
    const w = splitWords(n);
    return w.length > 0 && LOCATORS.has(w[w.length - 1]);
  });
}


/** Location of a property's description, for rules that edit it. */
export function descriptionLoc(slot: ArraySlot): { path: JsonPath; exists: boolean } | null {
  const o = slot.visit.origin;
  const d = slot.visit.schema.description;
  if (d === undefined) return { path: [...o.path, 'description'], exists: false };
  if (typeof d !== 'string' || !keywordInSource(o, 'description')) return null;
  return { path: keywordLoc(o, 'description').path, exists: true };
}
