/**
 * Which tools hand out an entity's identifiers, and which entity a parameter identifies.
 *
 * The matching follows the `id-source-missing` rule (whose helpers are private to the rule
 * file): producers are the tools that list, create or read an entity, matched across naming
 * styles, plurals and qualifiers, per neighbourhood (a server entry of a multi-server dump,
 * else a folder). It adds two kinds of reference the rule does not need: numbers that
 * identify a record (`issue_number` when a tool lists issues) and values that name one
 * (`behavior: "Behavior name"` when a tool lists behaviors).
 * This module is meant to become the shared home of that logic, so the rule and the graph
 * agree on what produces what.
 */
import { isObject, type Schema, type Tool } from '../model';
import { schemaTypes, walkSchema } from '../schema';
import { idParam, QUANTITY_WORDS, singular, splitWords, toolParts, type Action } from '../vocab';
import { neighbourhood } from '../servers';

/** A tool that hands out an entity's identifiers, ranked: listing beats creating beats reading. */
export interface Producer {
  tool: Tool;
  name: string;
  rank: number;
  /** The entity it hands out, singular (`team channel` for `list_team_channels`). */
  entity: string[];
  /** Identifiers it needs before it can run: the fewer, the better a first step. */
  needs: number;
}

/** The producers of one neighbourhood, by entity key, and every lister for qualified matches. */
export interface Hood {
  byEntity: Map<string, Producer[]>;
  listers: Producer[];
  /** Every producer, in catalogue order. */
  all: Producer[];
  /** Tool names of the neighbourhood, lower-cased, to the name as written. */
  names: Map<string, string>;
  /** Tools of the neighbourhood by name (the first of a duplicated name). */
  tools: Map<string, Tool>;
}

export const RANK: Partial<Record<Action, number>> = { list: 0, create: 1, upsert: 1, read: 2 };

/** Words that say which one, not what (`parent_bin_id` identifies a bin). */
export const QUALIFIERS = new Set([
  'parent', 'target', 'source', 'destination', 'dest', 'src', 'dst', 'base', 'head', 'root', 'related', 'linked', 'default', 'current', 'primary',
  'secondary', 'external', 'original', 'new', 'old', 'from', 'to', 'main', 'child', 'upstream', 'downstream', 'selected', 'existing', 'other',
  'previous', 'next', 'first', 'last', 'specific', 'specified', 'given', 'associated', 'referenced', 'public', 'unique', 'internal', 'global',
]);

/**
 * Words that narrow a listing to a subset of the same entity (`list_joined_teams`,
 * `list_user_chats`, `list_shared_files`): such a tool still lists that entity.
 */
export const SCOPES = new Set([
  'joined', 'my', 'own', 'owned', 'user', 'shared', 'recent', 'available', 'accessible', 'active', 'followed', 'subscribed', 'starred', 'favorite',
  'favourite', 'visible', 'open', 'pending', 'archived', 'deleted', 'installed', 'enabled',
]);

/** The description tells the model to leave the value alone: no value flows into it. */
export const LEAVE_ALONE =
  /(?:^|[.!?;]\s+)omit\b|\b(?:do\s+not|don'?t|never)\s+(?:send|set|provide|pass|fill|specify)\b|\bserver[- ](?:managed|assigned|generated|set)\b|\b(?:set|assigned|generated|filled|populated)\s+automatically\b|\bauto[- ]?(?:generated|assigned|populated|filled)\b|\bread[- ]only\b|\binternal\s+use\b/i;

/** "ID of the test set", "The unique identifier of the parent folder". */
export const ID_OF = /^\s*(?:the\s+)?(?:(?:unique|numeric|internal|string)\s+)?(?:id|ids|uuid|uuids|identifier|identifiers|key)\s+(?:of|for)\s+(?:the|a|an|each|one)?\s*([A-Za-z][\w\s-]{0,60})/i;

/** The value is a record's name, not free text ("Behavior name", "Name of the tag"). */
const NAMES_IT = /\b(?:name|names|title|slug|handle)\b/i;

export interface IdOf {
  entity: string[];
  /** The entity without qualifiers (`parent folder` → `folder`). */
  core: string[];
  plural: boolean;
}

/** How a parameter refers to a record: by identifier (`*_id`, uuid, `*_number`) or by name. */
export type RefKind = 'id' | 'name';

export function core(entity: string[]): string[] {
  let i = 0;
  while (i < entity.length - 1 && QUALIFIERS.has(entity[i])) i++;
  return entity.slice(i);
}

export function sameWords(a: string[], b: string[]): boolean {
  return a.length > 0 && a.join(' ') === b.join(' ');
}

export function uuidFormat(s: Schema): boolean {
  if (s.format === 'uuid') return true;
  for (const k of ['anyOf', 'oneOf'] as const) {
    const list = s[k];
    if (Array.isArray(list) && list.some((b) => isObject(b) && b.format === 'uuid')) return true;
  }
  return false;
}

export function arrayItems(s: Schema): Schema | null {
  if (isObject(s.items)) return s.items;
  for (const k of ['anyOf', 'oneOf'] as const) {
    const list = s[k];
    if (!Array.isArray(list)) continue;
    for (const b of list) if (isObject(b) && isObject(b.items)) return b.items;
  }
  return null;
}

/** Types of a schema and of its `anyOf`/`oneOf` branches, without `null`. */
function allTypes(s: Schema): Set<string> {
  const types = new Set<string>(schemaTypes(s));
  for (const k of ['anyOf', 'oneOf'] as const) {
    const list = s[k];
    if (Array.isArray(list)) for (const b of list) if (isObject(b)) for (const t of schemaTypes(b)) types.add(t);
  }
  types.delete('null');
  return types;
}

/** Whether the parameter holds a scalar identifier (or a list of them), not a flag or an object. */
export function carriesValue(s: Schema): boolean {
  const types = allTypes(s);
  if (types.size === 0) return true;
  if (types.has('boolean') || types.has('object')) return false;
  if (types.has('array')) {
    const items = arrayItems(s);
    return !items || !schemaTypes(items).some((t) => t === 'object' || t === 'boolean' || t === 'array');
  }
  return true;
}

/**
 * An identifier named in full (`test_set_identifier`), or a number that identifies a record
 * (`issue_number`, `projectNumber`): the number only when some tool of the neighbourhood
 * produces that entity (when `byEntity` is given), and never a quantity (`page_number`).
 */
function suffixId(name: string, byEntity?: Map<string, Producer[]>): IdOf | null {
  const words = splitWords(name);
  const last = words[words.length - 1];
  if (words.length < 2 || (last !== 'number' && last !== 'identifier' && last !== 'identifiers')) return null;
  const entity = words.slice(0, -1).map(singular);
  const c = core(entity);
  if (c.length === 0 || QUALIFIERS.has(c[c.length - 1])) return null;
  if (last !== 'number') return { entity, core: c, plural: last === 'identifiers' };
  if (QUANTITY_WORDS.has(c[c.length - 1])) return null;
  if (byEntity && !byEntity.has(entity.join(' ')) && !byEntity.has(c.join(' '))) return null;
  return { entity, core: c, plural: false };
}

/**
 * The entity whose identifier the parameter carries: by its name (`*_id`, `*Ids`, `*_number`),
 * its (items') uuid format, or a description starting "ID of the …" naming an entity some tool
 * of the neighbourhood produces.
 */
export function identifierOf(name: string, s: Schema, desc: string, byEntity: Map<string, Producer[]>): IdOf | null {
  const items = arrayItems(s);
  const id = idParam(name, uuidFormat(s) ? { ...s, format: 'uuid' } : undefined) ?? (items && uuidFormat(items) ? idParam(name, { format: 'uuid' }) : null);
  if (id) return { entity: id.entity, core: core(id.entity), plural: id.plural || items !== null };
  const num = suffixId(name, byEntity);
  if (num) return num;
  const m = ID_OF.exec(desc);
  if (!m) return null;
  const words = splitWords(m[1]).map(singular);
  for (let n = Math.min(4, words.length); n >= 1; n--) {
    const entity = words.slice(0, n);
    const c = core(entity);
    if (c.length === 0) continue;
    if (byEntity.has(entity.join(' ')) || byEntity.has(c.join(' '))) return { entity, core: c, plural: /^\s*(?:the\s+)?(?:ids|uuids|identifiers)\b/i.test(desc) || items !== null };
  }
  return null;
}

/**
 * The entity a scalar string parameter names (`behavior` described as "Behavior name"): its name,
 * singular, is an entity some tool of the neighbourhood lists, and its description says it is a
 * name. Lists of strings are left out: `categories` of a metric are labels, not category records.
 */
export function nameRefOf(name: string, s: Schema, desc: string, byEntity: Map<string, Producer[]>): IdOf | null {
  if (!NAMES_IT.test(desc) || Array.isArray(s.enum) || 'const' in s) return null;
  const types = allTypes(s);
  if (types.size !== 1 || !types.has('string')) return null;
  const words = splitWords(name);
  if (words.length === 0 || words.some((w) => singular(w) !== w)) return null;
  const c = core(words);
  const found = byEntity.get(c.join(' '));
  if (!found || !found.some((p) => p.rank === RANK.list && sameWords(p.entity, c))) return null;
  return { entity: words, core: c, plural: false };
}

/** Indexes the producers of every neighbourhood (or of the whole run with scope `catalog`). */
export function indexProducers(tools: readonly Tool[], scope: 'server' | 'catalog' = 'server'): Map<string, Hood> {
  const out = new Map<string, Hood>();
  for (const tool of tools) {
    if (tool.name === null) continue;
    const key = scope === 'catalog' ? '' : neighbourhood(tool);
    let hood = out.get(key);
    if (!hood) out.set(key, (hood = { byEntity: new Map(), listers: [], all: [], names: new Map(), tools: new Map() }));
    if (!hood.names.has(tool.name.toLowerCase())) hood.names.set(tool.name.toLowerCase(), tool.name);
    if (!hood.tools.has(tool.name)) hood.tools.set(tool.name, tool);
    const p = producerOf(tool);
    if (!p) continue;
    hood.all.push(p);
    if (p.rank === RANK.list) hood.listers.push(p);
    for (const k of new Set([p.entity.join(' '), core(p.entity).join(' ')])) {
      const list = hood.byEntity.get(k);
      if (list) list.push(p);
      else hood.byEntity.set(k, [p]);
    }
  }
  return out;
}

/** The tool as a producer of its entity's identifiers, or null when it hands none out. */
export function producerOf(tool: Tool): Producer | null {
  if (tool.name === null) return null;
  const parts = toolParts(tool);
  // A read named with the entity in the plural (`get_widgets`, `get_all_widgets`) lists it;
  // `get_widgets_by_names` looks some up.
  const lists = parts.action === 'read' && !parts.words.includes('by') && pluralEntity(parts.words, parts.verbAt, parts.entity);
  const rank = lists ? RANK.list : RANK[parts.action];
  if (rank === undefined || parts.entity.length === 0) return null;
  // `get_x_by_id`, `get_xs_by_ids`: looked up by the identifier, so it hands none out.
  const by = parts.words.indexOf('by');
  if (by >= 0 && parts.words.slice(by + 1).some((w) => /^(?:id|ids|uuid|uuids|key|keys|number|numbers)$/.test(w))) return null;
  // `add_x_to_y` links an existing x: taking x's identifier at all, it hands none out.
  const links = parts.verbAt >= 0 && parts.words.slice(parts.verbAt + 1).some((w) => w === 'to' || w === 'into');
  if (takesOwnId(tool, parts.entity, parts.action === 'read' || links)) return null;
  return { tool, name: tool.name, rank, entity: parts.entity, needs: requiredIds(tool) };
}

/** Whether the entity noun of a tool name is written in the plural (`get_all_widgets`). */
export function pluralEntity(words: string[], verbAt: number, entity: string[]): boolean {
  const last = entity[entity.length - 1];
  if (!last) return false;
  for (let i = words.length - 1; i > verbAt; i--) if (singular(words[i]) === last) return words[i] !== last;
  return false;
}

/**
 * Producers of the entity a parameter of `tool` identifies, matched by entity (as the rule
 * does), then refined:
 * - when no tool lists the entity by its own name, a lister whose name ends with it counts
 *   (`list_team_channels` for `channel_id`) when each extra word narrows the listing or names
 *   something the consuming tool also works with;
 * - a producer whose name carries words the consumer never uses (`add_note_to_draft_review`
 *   for the `note_id` of a tool about ticket notes) gives way to producers of the entity
 *   within something the consumer names (`add_ticket_note`), when there are some;
 * - tools that only read the entity count only when none lists or creates it.
 */
export function producersFor(tool: Tool, id: IdOf, hood: Hood): Producer[] {
  const notSelf = (p: Producer): boolean => p.tool !== tool && p.name !== tool.name;
  const context = contextWords(tool);
  let found = (hood.byEntity.get(id.entity.join(' ')) ?? hood.byEntity.get(id.core.join(' ')) ?? []).filter(notSelf);
  if (!found.some((p) => p.rank === RANK.list)) found = [...found, ...qualifiedListers(hood.listers, id.core, context).filter(notSelf)];
  const n = id.core.length;
  const specific = hood.all.filter(
    (p) =>
      notSelf(p) &&
      p.entity.length > n &&
      p.entity.slice(-n).join(' ') === id.core.join(' ') &&
      p.entity.slice(0, -n).every((w) => context.has(w)) &&
      p.entity.slice(0, -n).some((w) => !SCOPES.has(w) && !QUALIFIERS.has(w)),
  );
  if (specific.length > 0) {
    const weak = found.filter((p) => p.entity.length === n && extraWords(p).some((w) => !context.has(w)));
    if (weak.length > 0) found = [...found.filter((p) => !weak.includes(p)), ...specific];
  }
  if (found.some((p) => p.rank !== RANK.read)) found = found.filter((p) => p.rank !== RANK.read);
  return [...new Set(found)];
}

/** Little words of tool names that say nothing about what the tool is for. */
const MINOR = new Set(['to', 'from', 'by', 'for', 'of', 'in', 'on', 'with', 'the', 'a', 'an', 'and', 'or', 'all', 'bulk', 'batch', 'mcp', 'tool', 'api', 'my', 'new', 'multiple', 'many', 'single', 'one', 'info', 'details', 'detail', 'data']);

/** Words of a producer's name beyond its verb and its entity (`draft review` of `add_note_to_draft_review`). */
function extraWords(p: Producer): string[] {
  const parts = toolParts(p.tool);
  return parts.words
    .filter((w, i) => i !== parts.verbAt && !MINOR.has(w))
    .map(singular)
    .filter((w) => !p.entity.includes(w));
}

function qualifiedListers(listers: Producer[], entity: string[], context: Set<string>): Producer[] {
  const n = entity.length;
  return listers.filter((p) => {
    if (p.entity.length <= n || p.entity.slice(-n).join(' ') !== entity.join(' ')) return false;
    return p.entity.slice(0, -n).every((w) => SCOPES.has(w) || QUALIFIERS.has(w) || context.has(w));
  });
}

/** Singular words of a tool's name and of its parameters' names. */
export function contextWords(tool: Tool): Set<string> {
  const out = new Set(toolParts(tool).words.map(singular));
  walkSchema(tool, (v) => {
    if (v.via === 'defs') return false;
    if (v.name !== null) for (const w of splitWords(v.name)) out.add(singular(w));
    return v.depth < 3;
  });
  return out;
}

function paramId(name: string, s: Schema): IdOf | null {
  const id = idParam(name, uuidFormat(s) ? { format: 'uuid' } : undefined);
  return id ? { entity: id.entity, core: core(id.entity), plural: id.plural } : suffixId(name);
}

/** How many identifiers a tool requires (`list_widgets(project_id)` needs one). */
function requiredIds(tool: Tool): number {
  let n = 0;
  walkSchema(tool, (v) => {
    if (v.via === 'defs') return false;
    if (v.via !== 'properties' || v.name === null) return;
    if (!v.required) return false;
    if (paramId(v.name, v.schema)) n++;
    return v.depth < 3;
  });
  return n;
}

/**
 * A tool that needs the entity's identifier to run (`get_x(x_id)`, `read_x(x_number)`) hands none
 * out: a read taking it at all, a list or create requiring it.
 */
function takesOwnId(tool: Tool, entity: string[], anyUse: boolean): boolean {
  let found = false;
  walkSchema(tool, (v) => {
    if (found || v.via === 'defs') return false;
    if (v.via !== 'properties' || v.name === null) return;
    if (!anyUse && !v.required) return;
    const id = paramId(v.name, v.schema);
    if (id && (sameWords(id.entity, entity) || sameWords(id.core, entity))) found = true;
    const d = typeof v.schema.description === 'string' ? ID_OF.exec(v.schema.description) : null;
    if (d && core(splitWords(d[1]).map(singular)).slice(0, entity.length).join(' ') === entity.join(' ')) found = true;
    return v.depth < 2;
  });
  return found;
}

export const TOKEN = /[A-Za-z][A-Za-z0-9]*(?:[_.:/-]+[A-Za-z0-9]+)*/g;

/** The mention is a contrast, not a source ("call X instead", "not from X", "unlike X"). */
const CONTRAST_BEFORE = /\b(?:not|never|instead\s+of|rather\s+than|unlike|except|avoid|without)(?:\s+[\w'-]+){0,4}\s+[`'"(]*$/i;
const CONTRAST_AFTER = /^[`'")]*\s*(?:\w+\s+){0,2}instead\b/i;

export interface Mention {
  /** The tool's name as the catalogue writes it. */
  name: string;
  index: number;
  /** Where the mention ends in the text. */
  end: number;
}

/**
 * Tools of the neighbourhood a text names: `list_widgets`, `server.list_widgets`, a one-word
 * name only when marked as code (`` `widgets` ``). Contrasts ("use X instead") are left out.
 */
export function mentionedTools(text: string, names: Map<string, string>): Mention[] {
  const out: Mention[] = [];
  if (!text) return out;
  for (const m of text.matchAll(TOKEN)) {
    const t = m[0].toLowerCase();
    let hit: string | undefined;
    if (names.has(t) && (/[_.:/-]|[a-z][A-Z]/.test(m[0]) || /[`'"]/.test(text[m.index - 1] ?? ''))) hit = names.get(t);
    else {
      // `server.tool_name` / `server/tool_name` forms.
      const tail = t.split(/[.:/]/).pop()!;
      if (tail !== t && names.has(tail) && /[_-]/.test(tail)) hit = names.get(tail);
    }
    if (!hit) continue;
    const before = text.slice(Math.max(0, m.index - 40), m.index);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 30);
    if (CONTRAST_BEFORE.test(before) || CONTRAST_AFTER.test(after)) continue;
    out.push({ name: hit, index: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Provenance wording right before a mention ("from X", "returned by X", "use X to find it", "X or Y"). */
const SOURCE_BEFORE = /(?:\b(?:from|by|via|using|with|use|call|run|see|or|and)\b|,)\s+(?:(?:the|a|an|its|their)\s+)?[`'"(]*$/i;

/** Wording right before a mention that makes the tool a next step, not a source ("needed for X", "then call X", "pass it to X"). */
const NEXT_BEFORE = /\b(?:for|to|into|before|then|next|later|afterwards|after\s+that)\s+(?:(?:call|calling|use|using|run|invoke|the|a|an)\s+)*[`'"(]*$/i;

const NEXT_AFTER = /^[`'")]*\s*(?:\([^)]*\)\s*)?(?:next|afterwards|later|after\s+(?:this|that|it))\b/i;

/** Whether a mention names a step that comes after, not where a value comes from. */
export function mentionIsNext(text: string, m: Mention): boolean {
  return NEXT_BEFORE.test(text.slice(Math.max(0, m.index - 40), m.index)) || NEXT_AFTER.test(text.slice(m.end, m.end + 30));
}

/** Whether a mention at `index` reads as the value's source. */
export function mentionIsSource(text: string, index: number): boolean {
  return SOURCE_BEFORE.test(text.slice(Math.max(0, index - 40), index));
}

/** Sentences (and list items) of a description. */
export function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|\n+/).filter((s) => s.trim() !== '');
}
