/**
 * Whether an input property is assigned by the server, so an agent should never see it. The
 * `system-field-exposed` rule reports such properties and the prompt renderer leaves them out,
 * so what the linter says and what the preview shows agree by construction.
 */
import { isObject, type Catalog, type SourceFile, type Tool } from './model';
import { walkSchema, type SchemaVisit } from './schema';
import { idParam, singular, splitWords, toolParts } from './vocab';
import { StringMemo } from './util/memo';
import { folderOf } from './servers';

export interface ServerManagedOptions {
  fields: string[];
  ignore: string[];
}

/** The new record's own identifier, on tools that create records. */
const OWN_ID = new Set(['id', 'uuid', 'guid', 'nano_id', 'nanoid', 'short_id']);
/** Identifier forms that are always generated, never chosen (`nano_id`), whatever the description. */
const GENERATED_ID = new Set(['nano_id', 'nanoid']);

/** Timestamps and audit fields the server stamps on a new record. */
const AUDIT = new Set([
  'created_at', 'created_on', 'created_time', 'created_date', 'create_time', 'create_date', 'creation_date', 'creation_time', 'date_created',
  'updated_at', 'updated_on', 'updated_time', 'updated_date', 'update_time', 'date_updated', 'last_updated', 'last_updated_at',
  'modified_at', 'modified_on', 'modified_time', 'date_modified', 'last_modified', 'last_modified_at', 'inserted_at',
  'deleted_at', 'deleted_on', 'delete_time',
  'created_by', 'updated_by', 'modified_by', 'deleted_by', 'last_modified_by', 'inserted_by',
]);

/** Ownership, tenancy and workflow state that the server fills from the caller's session. */
const OWNERSHIP = new Set([
  'user_id', 'owner_id', 'organization_id', 'organisation_id', 'org_id', 'tenant_id', 'assignee_id', 'status_id',
  'creator_id', 'author_id', 'created_by_id', 'updated_by_id', 'modified_by_id', 'deleted_by_id',
]);

/**
 * Which catalogue entities would let the model look an ownership value up: a catalogue with a
 * tool that lists users gives the model a way to fill `assignee_id` on purpose.
 */
const PEOPLE = ['user', 'member', 'person', 'people', 'owner', 'assignee', 'collaborator', 'participant', 'attendee', 'invitee', 'recipient', 'reviewer', 'watcher', 'follower', 'subscriber', 'contact', 'organizer', 'host', 'guest', 'sender', 'employee', 'customer', 'me', 'self', 'profile', 'whoami', 'account'];
const SOURCES: [RegExp, string[]][] = [
  [/^(user|owner|assignee|creator|author|created_by|updated_by|modified_by|deleted_by)_id$/, PEOPLE],
  [/^(organi[sz]ation|org|tenant)_id$/, ['organization', 'organisation', 'org', 'tenant']],
  [/^status_id$/, ['status', 'state', 'transition', 'workflow']],
];

/** Subtrees that describe which records to match, not the record written. */
const CRITERIA = new Set(['filter', 'filters', 'query', 'where', 'criteria', 'criterion', 'search', 'match', 'condition', 'conditions', 'selector']);

/** Words that say nothing beyond "this is an identifier". */
const FILLER_WORDS = new Set([
  'the', 'a', 'an', 'of', 'for', 'to', 'this', 'that', 'its', 'it', 'is', 'in', 'on', 'by', 'and', 'or', 'which', 'who', 'whose',
  'record', 'entity', 'object', 'resource', 'item', 'id', 'ids', 'identifier', 'uuid', 'guid', 'unique', 'optional', 'string', 'field', 'value',
  'new', 'current', 'related', 'associated', 'nullable', 'null', 'format', 'e', 'g',
  'when', 'was', 'were', 'be', 'been', 'has', 'have', 'had', 'will', 'at', 'as', 'with', 'from', 'last', 'time', 'date', 'datetime', 'timestamp', 'iso', 'utc',
]);

/** A property description that tells the model to leave the field alone. */
const DESC_CUES: RegExp[] = [
  // "Omit." / "Omit this field." / "Omit — set by the server" (but not "Omit unless…", "Omit to keep…").
  /(?:^|[.!?;]\s+|\n\s*)(?:please\s+)?omit(?:\s+(?:this|it))?(?:\s+(?:field|parameter|param|argument|property|value))?\s*(?:[.!;)]|$|\s[-–—(]|,\s*(?:the\s+)?(?:server|system|backend|api)\b)/i,
  /\bserver[- ](?:managed|assigned|generated|populated|controlled|set)\b/i,
  /\b(?:set|assigned|generated|populated|filled(?:\s+in)?|managed|computed|stamped|derived|taken|inferred)\s+(?:automatically\s+)?(?:by|from)\s+(?:the\s+)?(?:server|backend|database|system|platform|session|request|auth(?:entication)?\s+(?:context|token))\b/i,
  /\b(?:do\s+not|don'?t|never|must\s+not|should\s+not)\s+(?:send|set|provide|pass|include|fill(?:\s+in)?|specify|supply|populate)(?:\s+(?:this|it))?(?:\s+(?:field|parameter|param|argument|property|value))?\s*(?:[.!;,)]|$|\s[-–—(]|\s+(?:manually|yourself|directly|explicitly)\b)/i,
  /\b(?:must|should|does|do|is)\s+not\s+(?:to\s+)?be\s+(?:set|sent|provided|passed|specified|supplied|included|filled(?:\s+in)?|populated)(?:\s+(?:manually|directly|explicitly|by\s+(?:the\s+)?(?:client|caller|user|model|agent|llm|assistant)))?\s*(?:[.!;,)]|$)/i,
  /\b(?:for|reserved\s+for)\s+internal\s+use\b|\binternal\s+use\s+only\b/i,
  /(?:^|[.!?;]\s+)\(?read[- ]only\)?\s*(?:[.!;]|$)|\((?:read[- ]only|output[- ]only|server[- ]only)\)|^\s*this\s+(?:field|property|value)\s+is\s+(?:read[- ]only|output[- ]only)\b/i,
];
/** A sentence that makes the omission conditional: the model may send the field. */
const CONDITIONAL = /\b(?:if|unless|when|whenever|otherwise|by\s+default|defaults?|optional(?:ly)?|override|overrides|overridden|instead)\b/i;

/** A tool description sentence that names the server-managed fields. */
const TOOL_CUE = /\bserver[- ](?:managed|assigned|generated|set)\b|\b(?:set|assigned|generated|managed|filled(?:\s+in)?|populated)\s+(?:automatically\s+)?by\s+the\s+(?:server|backend|system)\b/i;

export type Reason = 'hidden' | 'readOnly' | 'described' | 'toolDescribed' | 'configured' | 'ownId' | 'audit' | 'ownership';


export interface Verdict {
  reason: Reason | null;
  /** The description words that say so, for the message. */
  cue: string;
  /** Whether to look inside the property (false: its whole subtree is settled). */
  descend: boolean;
}

/** Classifies the properties of one tool (create one per tool; it caches look-ups). */
export class ServerManagedClassifier {
  private readonly ignore: Set<string>;
  private readonly extra: Set<string>;
  private readonly parts: ReturnType<typeof toolParts>;
  private readonly creates: boolean;
  private readonly writes: boolean;
  private readonly toolWords: string[];
  private readonly toolNamed: ReadonlySet<string>;
  private readonly sources = new Map<string, boolean>();

  constructor(
    private readonly tool: Tool,
    private readonly catalog: Catalog,
    opts: Partial<ServerManagedOptions> = {},
  ) {
    this.ignore = new Set((opts.ignore ?? []).map(norm));
    this.extra = new Set((opts.fields ?? []).map(norm));
    this.parts = toolParts(tool);
    const action = this.parts.action;
    this.creates = action === 'create' || action === 'upsert';
    this.writes = this.creates || action === 'update';
    this.toolWords = splitWords(tool.name ?? '');
    this.toolNamed = namedFieldsOf(tool);
  }

  classify(v: SchemaVisit): Verdict {
    const skip: Verdict = { reason: null, cue: '', descend: false };
    const pass: Verdict = { reason: null, cue: '', descend: true };
    if (v.via === 'defs') return skip;
    if (v.via !== 'properties' || v.name === null) return pass;
    const name = v.name;
    const key = norm(name);
    if (this.ignore.has(key) || this.ignore.has(name)) return skip;
    const desc = typeof v.schema.description === 'string' ? v.schema.description : '';
    const ctxInfo = context(v);
    const { tool, parts, toolWords } = this;
    const action = parts.action;
    let reason: Reason | null = null;
    let cue = '';
    if (name.startsWith('.')) reason = 'hidden';
    else if (v.schema.readOnly === true) reason = 'readOnly';
    else if ((cue = describedCue(desc))) reason = 'described';
    else if (ctxInfo.criteria) return pass;
    else if (this.creates && AUDIT.has(key)) reason = !v.required && isBare(desc, key, toolWords) ? 'audit' : null;
    else if (isTarget(key, [...toolWords, ...ctxInfo.holder], parts.entity)) return pass;
    else if (this.writes && this.extra.has(key)) reason = 'configured';
    else if (this.toolNamed.has(name) && !v.required) reason = 'toolDescribed';
    else if (v.required) return pass;
    else if (action === 'create' && ctxInfo.topLevel && OWN_ID.has(key) && ownIdSignal(key, v, parts.entity, desc) && isBare(desc, key, toolWords)) reason = 'ownId';
    else if (this.writes && OWNERSHIP.has(key) && isBare(desc, key, toolWords) && !sourceable(key, tool, this.catalog, this.sources)) reason = 'ownership';
    if (!reason) return pass;
    return { reason, cue, descend: false };
  }
}

function norm(n: string): string {
  return splitWords(n).join('_');
}

/** A predicate for the renderer: true for properties the server assigns. */
export function serverManagedPredicate(catalog: Catalog, opts: Partial<ServerManagedOptions> = {}): (tool: Tool, v: SchemaVisit) => boolean {
  const byTool = new Map<Tool, ServerManagedClassifier>();
  return (tool, v) => {
    let c = byTool.get(tool);
    if (!c) {
      c = new ServerManagedClassifier(tool, catalog, opts);
      byTool.set(tool, c);
    }
    return c.classify(v).reason !== null;
  };
}

/** Names of the properties of a tool that the server assigns (top level and nested). */
export function serverManagedParams(tool: Tool, catalog: Catalog, opts: Partial<ServerManagedOptions> = {}): string[] {
  const c = new ServerManagedClassifier(tool, catalog, opts);
  const out: string[] = [];
  walkSchema(tool, (v) => {
    const r = c.classify(v);
    if (r.reason) out.push(v.param ?? v.name ?? '');
    return r.descend ? undefined : false;
  });
  return out;
}

/** Whether the property sits at the record's top level, and whether it is inside filter criteria. */
function context(v: SchemaVisit): { topLevel: boolean; criteria: boolean; holder: string[] } {
  let topLevel = true;
  let criteria = false;
  let holder: string[] | null = null;
  for (let p = v.parent; p; p = p.parent) {
    if (p.via === 'properties' || p.via === 'items' || p.via === 'additionalProperties' || p.via === 'defs') topLevel = false;
    // The nearest enclosing property names what the nested object is: `members[].user_id` picks a member.
    if (p.via === 'properties' && p.name && holder === null) holder = splitWords(p.name).map(singular);
    if (p.via === 'properties' && p.name && splitWords(p.name).some((w) => CRITERIA.has(w))) criteria = true;
  }
  return { topLevel, criteria, holder: holder ?? [] };
}

/** The first sentence of a property description that tells the model to leave the field alone. */
function describedCue(desc: string): string {
  // Depends on the description alone, and catalogues repeat descriptions across tools.
  return cueCache.get(desc);
}

const CUE_CACHE_MAX = 20_000;
const cueCache = new StringMemo((desc) => findCue(desc), CUE_CACHE_MAX);

/** A word every pattern of DESC_CUES needs (in the order of the list): without one, no sentence can match. */
const DESC_CUE_WORD = /omit|server|backend|database|system|platform|session|request|auth|not|dont|don't|never|internal|only/i;

function findCue(desc: string): string {
  if (!desc.trim() || !DESC_CUE_WORD.test(desc)) return '';
  for (const s of sentences(desc)) {
    if (CONDITIONAL.test(s) && !/^\s*(?:please\s+)?omit\s*[.!]?\s*$/i.test(s)) continue;
    if (DESC_CUES.some((re) => re.test(s))) return s.trim();
  }
  return '';
}

function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?;])\s+(?=[A-Z("'`])/)
    .filter((s) => s.trim() !== '');
}

/** The fields a tool's description names as server-managed, computed once per description string. */
function namedFieldsOf(tool: Tool): ReadonlySet<string> {
  const desc = tool.description;
  if (!desc) return EMPTY;
  return namedCache.get(desc);
}

const EMPTY: ReadonlySet<string> = new Set();
// Shared between classifiers: they only read the sets.
const namedCache = new StringMemo<ReadonlySet<string>>((desc) => toolDescribedFields(desc), CUE_CACHE_MAX);

/** Property names a tool description lists in a sentence about server-managed fields. */
function toolDescribedFields(desc: string | null): Set<string> {
  const out = new Set<string>();
  if (!desc) return out;
  // A sentence is a piece of the text with its whitespace runs collapsed: with no match in the
  // whole collapsed text, none of its sentences can match.
  // Every alternative of TOOL_CUE names the server, backend or system: a cheaper first test.
  if (!/server|backend|system/i.test(desc) || !TOOL_CUE.test(desc.replace(/\s+/g, ' '))) return out;
  for (const s of sentences(desc)) {
    if (!TOOL_CUE.test(s) || CONDITIONAL.test(s)) continue;
    // Names written as code: quoted, in a parenthesised list, or snake/camel case.
    const quoted = [...s.matchAll(/[`'"]([^`'"\s]+)[`'"]/g)].map((m) => m[1]);
    const listed = [...s.matchAll(/\(([^()]*)\)/g)].flatMap((m) => m[1].split(/[\s,;/]+/));
    const coded = [...s.matchAll(/[A-Za-z0-9_.]+/g)].map((m) => m[0]).filter((w) => w.includes('_') || /[a-z][A-Z]/.test(w));
    for (const n of [...quoted, ...listed, ...coded]) if (n) out.add(n.replace(/^[.,:]+|[.,:]+$/g, ''));
  }
  return out;
}

/**
 * The tool's target is not server-managed: the id of the tool's own entity on an update, read or
 * delete tool, or a field whose words are in the tool's name (assign → `assignee_id`, status →
 * `status_id`, a user added to something → `user_id`).
 */
function isTarget(key: string, nameWords: string[], entity: string[]): boolean {
  const id = idParam(key);
  if (id && entity.length > 0 && id.entity.join(' ') === entity.join(' ')) return true;
  const words = splitWords(key).filter((w) => w !== 'id' && w !== 'ids' && w !== 'uuid' && w !== 'at' && w !== 'by');
  if (words.some((w) => nameWords.some((t) => sameStem(w, t)))) return true;
  // A tool (or nested list) about members or collaborators acts on that person's `user_id`.
  const family = SOURCES.find(([re]) => re.test(key))?.[1];
  return !!family && nameWords.some((t) => family.includes(singular(t)));
}

function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  const [s, l] = a.length <= b.length ? [a, b] : [b, a];
  return s.length >= 4 && l.startsWith(s);
}

/**
 * Whether an `id` on a create tool is the new record's own: a form that is always generated
 * (`nano_id`), a UUID, or a description that names the tool's entity ("Project ID.").
 */
function ownIdSignal(key: string, v: SchemaVisit, entity: string[], desc: string): boolean {
  if (GENERATED_ID.has(key)) return true;
  if (v.schema.format === 'uuid' || hasUuidBranch(v.schema)) return true;
  const words = new Set(splitWords(desc).map(stem));
  return entity.length > 0 && entity.some((w) => words.has(stem(w)));
}

function hasUuidBranch(s: Record<string, unknown>): boolean {
  for (const k of ['anyOf', 'oneOf'] as const) {
    const l = s[k];
    if (Array.isArray(l) && l.some((b) => isObject(b) && b.format === 'uuid')) return true;
  }
  return false;
}

/**
 * Whether a description adds nothing to the field's name: no purpose, no source, no choice for
 * the model to make ("Owner.", "Creating user.", "Organization ID"). A field meant for the model
 * says which value to send or where it comes from.
 */
function isBare(desc: string, key: string, toolWords: string[]): boolean {
  const known = new Set([...splitWords(key), ...toolWords].map(stem));
  const content = splitWords(desc).filter((w) => !FILLER_WORDS.has(w) && !known.has(stem(w)) && !/^\d+$/.test(w));
  return content.length <= 1;
}

function stem(w: string): string {
  return w.replace(/(?:ing|ed|er|ion|es|s|e)$/, '');
}

/**
 * Whether a tool of the same catalogue (same file and group; same folder for one-tool files)
 * lists or reads the entity an ownership id refers to, so the model can look the value up.
 */
function sourceable(key: string, tool: Tool, catalog: Catalog, cache: Map<string, boolean>): boolean {
  const family = SOURCES.findIndex(([re]) => re.test(key));
  if (family < 0) return false;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const found = sourcesNear(tool, catalog, family).some((t) => t !== tool);
  cache.set(key, found);
  return found;
}

/**
 * The catalogue's tools near `tool` (same file and group; same folder for one-tool files) that
 * list or read an entity of the family. Every tool of a neighbourhood gets the same list, so it is
 * computed once per neighbourhood, not once per tool (which made large files quadratic).
 */
function sourcesNear(tool: Tool, catalog: Catalog, family: number): readonly Tool[] {
  const oneToolFile = tool.file.tools.length === 1;
  let hoods = sourceHoods.get(catalog);
  if (!hoods) sourceHoods.set(catalog, (hoods = { byFile: new WeakMap(), byDir: new Map() }));
  // The neighbourhood's key: its folder for one-tool files, else its file and group.
  let lists: Map<string | null, Tool[][]>;
  let hoodKey: string | null;
  if (oneToolFile) {
    lists = hoods.byDir;
    hoodKey = folderOf(tool.file.path);
  } else {
    let m = hoods.byFile.get(tool.file);
    if (!m) hoods.byFile.set(tool.file, (m = new Map()));
    lists = m;
    hoodKey = tool.group;
  }
  let perFamily = lists.get(hoodKey);
  if (!perFamily) lists.set(hoodKey, (perFamily = []));
  let list = perFamily[family];
  if (!list) {
    const heads = new Set(SOURCES[family][1]);
    const dir = oneToolFile ? folderOf(tool.file.path) : '';
    list = catalog.tools.filter((t) => {
      const near = oneToolFile ? t.file.tools.length === 1 && folderOf(t.file.path) === dir : t.file === tool.file && t.group === tool.group;
      if (!near) return false;
      const p = toolParts(t);
      if (p.action !== 'list' && p.action !== 'read') return false;
      return p.entity.some((w) => heads.has(w)) || (p.entity.length === 0 && p.words.some((w) => heads.has(w)));
    });
    perFamily[family] = list;
  }
  return list;
}

const sourceHoods = new WeakMap<Catalog, { byFile: WeakMap<SourceFile, Map<string | null, Tool[][]>>; byDir: Map<string | null, Tool[][]> }>();
