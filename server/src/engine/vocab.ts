/**
 * The words of tool and parameter names, in any naming style: what a tool does (its verb),
 * what it acts on (its entity), and which parameters carry another entity's identifier.
 * Rules build on these principles, never on particular tool names.
 */
import type { Tool } from './model';
import { StringMemo } from './util/memo';
import { escapeRegExp } from './util/text';

/** Lower-case words of a name: snake_case, kebab-case, camelCase, PascalCase, dots, `__`, spaces. */
export function splitWords(name: string): string[] {
  // Rules split the same names and descriptions many times over: the words of a string are kept
  // (they depend on the string alone), and each caller gets its own copy to change as it likes.
  return wordsCache.get(name).slice();
}

/** Entries kept before the word cache is emptied (bounds its memory on huge catalogues). */
export const WORDS_CACHE_MAX = 50_000;
const wordsCache = new StringMemo((name) => computeWords(name), WORDS_CACHE_MAX);

/** Entries in the word cache (for tests). */
export function wordsCacheSize(): number {
  return wordsCache.size;
}

function computeWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const IRREGULAR: Record<string, string> = { people: 'person', children: 'child', indices: 'index', indexes: 'index', statuses: 'status', aliases: 'alias', analyses: 'analysis', data: 'data', media: 'media', series: 'series', criteria: 'criterion' };
const NOT_PLURAL = new Set(['status', 'address', 'class', 'process', 'access', 'alias', 'canvas', 'analysis', 'basis', 'axis', 'bus', 'news', 'series', 'species', 'business', 'progress', 'success', 'glass', 'bias', 'campus', 'virus', 'corpus', 'plus', 'gas', 'this', 'its', 'is', 'has', 'was', 'us', 'yes', 'ops', 'dns', 'aws', 'gps', 'os', 'sms', 'css', 'https', 'ssl', 'tls', 'stats']);

export function singular(w: string): string {
  // Called for every word of every name by several rules: kept by word (bounded like the words).
  return singularCache.get(w);
}

const singularCache = new StringMemo((w) => computeSingular(w), WORDS_CACHE_MAX);

function computeSingular(w: string): string {
  if (IRREGULAR[w]) return IRREGULAR[w];
  if (w.length <= 3 || NOT_PLURAL.has(w) || w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) return w;
  if (w.endsWith('ies') && w.length > 4) return w.slice(0, -3) + 'y';
  if (/(ches|shes|xes|zes|sses)$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s')) return w.slice(0, -1);
  return w;
}

export type Action = 'create' | 'update' | 'upsert' | 'delete' | 'read' | 'list' | 'other';

const VERBS: Record<Exclude<Action, 'other'>, string[]> = {
  create: ['create', 'add', 'new', 'insert', 'register', 'post', 'make', 'submit', 'generate', 'import', 'upload', 'provision', 'clone', 'copy', 'duplicate', 'fork', 'publish', 'invite', 'schedule', 'book', 'enroll', 'subscribe'],
  update: ['update', 'edit', 'modify', 'patch', 'set', 'put', 'change', 'rename', 'move', 'assign', 'configure', 'replace', 'save', 'toggle', 'enable', 'disable', 'archive', 'restore', 'mark', 'close', 'reopen', 'approve', 'reject', 'resolve', 'merge', 'transition', 'link', 'unlink', 'attach', 'detach', 'tag', 'label', 'lock', 'unlock', 'pin', 'unpin'],
  upsert: ['upsert', 'sync', 'write'],
  delete: ['delete', 'remove', 'drop', 'purge', 'destroy', 'erase', 'revoke', 'cancel', 'clear', 'truncate', 'wipe', 'unregister', 'unsubscribe', 'terminate', 'kill'],
  list: ['list', 'search', 'find', 'query', 'browse', 'enumerate', 'filter', 'lookup', 'discover', 'scan'],
  read: ['get', 'read', 'fetch', 'retrieve', 'show', 'describe', 'view', 'load', 'download', 'export', 'inspect', 'check', 'count', 'status', 'info', 'details', 'detail'],
};
const VERB_ACTION = new Map<string, Action>();
for (const [a, ws] of Object.entries(VERBS) as [Action, string[]][]) for (const w of ws) if (!VERB_ACTION.has(w)) VERB_ACTION.set(w, a);

export function verbAction(word: string): Action {
  return VERB_ACTION.get(word) ?? 'other';
}

/** Words that name the API or the tool layer, not the entity (`mcp`, `tool`, `api`, `bulk`…). */
const FILLER = new Set(['mcp', 'tool', 'tools', 'api', 'bulk', 'batch', 'all', 'by', 'for', 'of', 'to', 'from', 'in', 'on', 'the', 'a', 'an', 'and', 'or', 'with', 'new', 'my', 'multiple', 'many', 'single', 'one', 'info', 'details', 'detail', 'data', 'v1', 'v2', 'v3']);

export interface NameParts {
  words: string[];
  /** Index of the verb word, or -1. */
  verbAt: number;
  action: Action;
  /** Entity words (singular), without fillers: `create_widget_group_batch` → ['widget', 'group']. */
  entity: string[];
}

export function nameParts(name: string): NameParts {
  const words = splitWords(name);
  let verbAt = -1;
  for (let i = 0; i < words.length; i++) {
    if (VERB_ACTION.has(words[i])) {
      verbAt = i;
      break;
    }
  }
  const action = verbAt >= 0 ? verbAction(words[verbAt]) : 'other';
  let ent = verbAt >= 0 ? words.slice(verbAt + 1) : words;
  if (verbAt >= 0 && ent.filter((w) => !FILLER.has(w)).length === 0) ent = words.slice(0, verbAt);
  // Stop at a preposition: `list_widgets_by_owner` acts on widgets.
  const cut = ent.findIndex((w, i) => i > 0 && (w === 'by' || w === 'for' || w === 'from' || w === 'in' || w === 'with' || w === 'to' || w === 'on'));
  if (cut > 0) ent = ent.slice(0, cut);
  // A verb joined to the first one (`create_or_update_widget`) is not part of the entity; any other
  // word is, even when it can be a verb (`widget_set`, `post_tag`).
  const entity = ent.filter((w, i) => !FILLER.has(w) && !(VERB_ACTION.has(w) && (ent[i - 1] === 'or' || ent[i - 1] === 'and'))).map(singular);
  return { words, verbAt, action, entity };
}

const partsCache = new WeakMap<Tool, NameParts>();
export function toolParts(tool: Tool): NameParts {
  let p = partsCache.get(tool);
  if (!p) {
    p = nameParts(tool.name ?? '');
    if (p.action === 'other' && tool.description) {
      // Names without a verb (`widgets`, `widget_write`): the description's first word often is one.
      const first = splitWords(tool.description.trim().split(/\s+/)[0] ?? '')[0];
      const a = first ? verbAction(first.replace(/s$/, '')) : 'other';
      if (a !== 'other') p = { ...p, action: a };
      else if (p.words.includes('write')) p = { ...p, action: 'upsert' };
    }
    partsCache.set(tool, p);
  }
  return p;
}

/** Whether the tool creates records (or may: upserts). */
export function createsRecords(tool: Tool): boolean {
  const a = toolParts(tool).action;
  return a === 'create' || a === 'upsert';
}

export function writesRecords(tool: Tool): boolean {
  const a = toolParts(tool).action;
  return a === 'create' || a === 'update' || a === 'upsert';
}

export interface IdParam {
  /** Entity words of the identifier, singular: `parentFolderId` → ['parent', 'folder']. */
  entity: string[];
  /** The entity's head noun: `folder`. */
  head: string;
  plural: boolean;
}

/** Qualifiers that say which one, not what: `parent_folder_id` identifies a folder. */
const QUALIFIERS = new Set(['nano', 'short', 'public', 'unique', 'internal', 'global', 'record', 'object', 'entity', 'resource', 'parent', 'target', 'source', 'destination', 'dest', 'src', 'dst', 'base', 'head', 'root', 'related', 'linked', 'default', 'current', 'primary', 'secondary', 'external', 'original', 'new', 'old', 'from', 'to', 'main', 'child', 'upstream', 'downstream']);

/** Whether a parameter carries an entity's identifier, judged by its name (and schema format). */
export function idParam(name: string, schema?: Record<string, unknown>): IdParam | null {
  const words = splitWords(name);
  if (words.length === 0) return null;
  const last = words[words.length - 1];
  let plural = false;
  let ent: string[];
  if (last === 'id' || last === 'uuid' || last === 'guid' || last === 'key' && words.length > 1 && schema?.format === 'uuid') {
    ent = words.slice(0, -1);
  } else if (last === 'ids' || last === 'uuids') {
    ent = words.slice(0, -1);
    plural = true;
  } else if (schema && schema.format === 'uuid') {
    ent = words;
  } else {
    return null;
  }
  const entity = ent.map(singular);
  const heads = entity.filter((w) => !QUALIFIERS.has(w) && !FILLER.has(w));
  if (heads.length === 0) return null;
  return { entity, head: heads[heads.length - 1], plural };
}

/** Whether two word lists name the same entity (`widget_set` ~ `WidgetSet`, `folders` ~ `folder`). */
export function sameEntity(a: string[], b: string[]): boolean {
  if (a.length === 0 || b.length === 0) return false;
  return a.join(' ') === b.join(' ');
}

/** Whether `text` mentions `word` as a whole word (case-insensitive). */
export function mentions(text: string, word: string): boolean {
  if (!word) return false;
  return mentionRe.get(word).test(text);
}

/** The whole-word pattern of each word asked about (rules ask about the same names over and over). */
const mentionRe = new StringMemo((word) => {
  return new RegExp(`(^|[^A-Za-z0-9_])${escapeRegExp(word)}($|[^A-Za-z0-9_])`, 'i');
}, WORDS_CACHE_MAX);

/**
 * Name words of parameters whose numbers are quantities or measures, not codes: the number is its
 * own meaning (`page_size: [10, 25, 50]`).
 */
export const QUANTITY_WORDS = new Set([
  'limit', 'page', 'pages', 'count', 'counts', 'size', 'sizes', 'offset', 'skip', 'take', 'top', 'first', 'last', 'per',
  'hour', 'hours', 'minute', 'minutes', 'second', 'seconds', 'day', 'days', 'week', 'weeks', 'month', 'months', 'year', 'years', 'ms', 'millis', 'milliseconds', 'sec', 'secs', 'min', 'mins', 'max',
  'amount', 'quantity', 'qty', 'total', 'number', 'num', 'n', 'k', 'length', 'len', 'width', 'height', 'depth', 'duration', 'interval', 'timeout', 'ttl', 'delay', 'retries', 'retry', 'attempts', 'radius', 'distance',
  'version', 'port', 'dpi', 'zoom', 'rate', 'bitrate', 'resolution', 'bytes', 'kb', 'mb', 'gb', 'percent', 'percentage', 'ratio', 'price', 'cost', 'budget', 'temperature', 'seed', 'index', 'position', 'x', 'y', 'z', 'lat', 'lng', 'lon', 'latitude', 'longitude', 'precision', 'scale', 'step', 'steps', 'threads', 'workers', 'replicas', 'instances', 'capacity', 'quota', 'threshold',
]);
