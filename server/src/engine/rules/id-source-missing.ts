import { isObject, type Catalog, type Schema, type Tool } from '../model';
import { keywordLoc, schemaTypes, type SchemaVisit, walkSchema } from '../schema';
import type { JsonPath } from '../types';
import { idParam, singular, splitWords, toolParts } from '../vocab';
import { defineRule, perView, type Fix } from './api';
import { paramLoc } from './util';
import { ID_OF, QUALIFIERS, RANK, SCOPES, TOKEN, arrayItems, contextWords, core, pluralEntity, sameWords, uuidFormat } from '../graph/producers';
import { neighbourhood } from '../servers';
import { compareLocale } from '../util/text';

interface Options {
  scope: 'server' | 'catalog';
}

/** A tool that hands out an entity's identifiers, ranked: listing beats creating beats reading. */
interface Producer {
  name: string;
  rank: number;
  /** The entity it hands out, singular (`team channel` for `list_team_channels`). */
  entity: string[];
  /** Identifiers it needs before it can run: the fewer, the better a first step. */
  needs: number;
}

/** The producers of one neighbourhood, by entity key, and every lister for qualified matches. */
interface Hood {
  byEntity: Map<string, Producer[]>;
  listers: Producer[];
  /** Listers by the last word of their entity (a qualified lister ends with the wanted entity). */
  listersByLast: Map<string, Producer[]>;
}

/**
 * Provenance wording: the description says where the value comes from, with or without naming a
 * tool ("returned by", "from the … response", "obtained from", "use … to find", "in the URL").
 */
const PROVENANCE: RegExp[] = [
  /\b(?:returned|obtained|retrieved|fetched|gotten|got|taken|found|available|listed|shown|provided|produced|generated|output|given|received|reported|exposed|visible|displayed|extracted|copied)\s+(?:by|from|in|via|with|using|through|on)\b/i,
  /\bas\s+(?:returned|listed|shown|given|provided|reported)\b/i,
  /\bfrom\s+(?:a|an|the|any|your|each)?\s*(?:previous|prior|earlier|preceding|former|original)\b/i,
  /\bfrom\s+(?:(?:a|an|the|any|your|its|their)\s+)?(?:[\w`'".-]+\s+){0,4}?(?:response|responses|result|results|output|call|calls|list|listing|lookup|search|query|tool|endpoint|url|link|page|dashboard|console|ui|settings|catalog(?:ue)?)\b/i,
  /\b(?:use|call|run|invoke|see|try|query|using|via)\s+(?:[\w`'".-]+\s+){0,5}?to\s+(?:find|get|look\s*up|list|discover|obtain|retrieve|search|fetch|browse|see|locate|resolve|identify|choose|pick|select|enumerate)\b/i,
  /\b(?:can|may|could)\s+be\s+(?:found|obtained|retrieved|fetched|listed|looked\s*up|discovered|seen|located|resolved|enumerated)\b/i,
  /\b(?:get|find|look\s*up|obtain|retrieve|discover|fetch|locate|resolve|list)\s+(?:it|this|them|these|those|one|ids?|uuids?|the\s+(?:id|ids|uuid|uuids|identifier|identifiers|value|values))\s+(?:with|via|using|from|by|through|in|on)\b/i,
  /\b(?:see|check|consult)\s+[`'"]/i,
  /\bfrom\s+[`'"]?[A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+|[a-z0-9][A-Z][a-z0-9]+)+/,
  /\bby\s+(?:listing|searching|calling|querying|running|invoking|browsing|looking\s+up)\b/i,
  /\b(?:use|take|copy|pass)\s+(?:the\s+)?(?:\w+\s+){0,2}?(?:number|id|ids|uuid|value|identifier|sha|key)\s+(?:from|returned|shown|of\s+(?:a|an|the)\s+(?:\w+\s+){0,2}?(?:returned|listed|found))\b/i,
  /(?:->|→|=>)/,
];

/** The description tells the model to leave the value alone, so there is nothing to look up. */
const LEAVE_ALONE = /(?:^|[.!?;]\s+)omit\b|\b(?:do\s+not|don'?t|never)\s+(?:send|set|provide|pass|fill|specify)\b|\bserver[- ](?:managed|assigned|generated|set)\b|\b(?:set|assigned|generated|filled|populated)\s+automatically\b|\bauto[- ]?(?:generated|assigned|populated|filled)\b|\bread[- ]only\b|\binternal\s+use\b/i;

const META_DESC = 'description';

/** The value may be left out and a sensible one is used ("uses the current presentation if not provided"). */
const FALLBACK = /\b(?:defaults?\s+to|falls?\s+back\s+to|uses?|otherwise)\s+(?:the\s+)?(?:current|active|authenticated|primary|default|latest|caller'?s?|your\s+own|own|logged[- ]in)\b/i;

export default defineRule<Options>({
  meta: {
    id: 'id-source-missing',
    description: 'Require an identifier parameter to say which tool provides its value',
    severity: 'warning',
    recommended: true,
    fixable: 'never',
    hasSuggestions: true,
    scope: 'catalog',
    messages: {
      missing: '`{{param}}` does not say where its {{entity}} ID comes from (`{{producers}}` provides it)',
    },
    options: {
      schema: { type: 'object', properties: { scope: { enum: ['server', 'catalog'] } }, additionalProperties: false },
      defaults: { scope: 'server' },
    },
    docs: {
      what:
        'Reports a parameter that carries another entity\'s identifier (named `*_id`, `*Id`, `*_ids`, `*Ids`, typed `format: uuid`, or described as "ID of the …") when the catalogue has a tool that lists, creates or reads that entity, and neither the parameter\'s description nor the tool\'s description says where the value comes from. Entities are matched across naming styles, plurals and qualifiers (`parentBinId` and `list_bins`, `price_list_id` and `create_price_list_batch`). A description says where the value comes from when it names a tool of the catalogue (with or without underscores: "from list test runs" counts), or uses provenance wording ("returned by", "from the … response", "obtained from", "use … to find", "in the URL"). Parameters the description tells the model to leave alone ("Omit", "server-managed") are skipped, and so is a filter of a tool that lists the same entity (`parent_bin_id` of `list_bins`), whose values come from that tool\'s own output. When no tool lists the entity by its own name, a lister whose name ends with it counts (`list_team_channels` for `channel_id`) as long as each extra word narrows the list or appears in the calling tool; among listers, the one that needs the fewest other identifiers is named first.',
      why: 'A model cannot invent an identifier. When the description only says "The warehouse", it guesses a value, asks the user, or sends a name where a UUID is expected, and the call fails. Naming the tool that returns the identifier turns the guess into a two-step plan the model follows reliably.',
      fix: 'Suggests appending "Get it from `<tool>`." to the parameter\'s description (creating one when there is none), naming the best producers: a tool that lists the entity first, then one that creates it, then one that reads it.',
      options:
        '- `scope` (default `server`): where producers are looked for. `server` keeps to the tool\'s own server: the same server entry of a multi-server dump, otherwise the tools of the same folder, so unrelated catalogues linted in one run do not answer for each other. `catalog` uses every tool of the run.',
    },
  },
  contribution: (tool, options) => contribution(tool, options.scope === 'catalog' ? 'catalog' : 'server'),
  checkCatalog(catalog, ctx) {
    const scope = ctx.options.scope === 'catalog' ? 'catalog' : 'server';
    const { names, producers } = perView(ctx, indexProducers, () => ({ names: toolNameSet(catalog), producers: indexProducers(catalog, scope) }));
    for (const tool of catalog.tools) {
      if (ctx.only && !ctx.only.has(tool)) continue;
      const key = scope === 'catalog' ? '' : neighbourhood(tool);
      const hood = producers.get(key);
      if (!hood) continue;
      const byEntity = hood.byEntity;
      const self = toolParts(tool);
      let context: Set<string> | null = null;
      const toolDesc = tool.description ?? '';
      walkSchema(tool, (v) => {
        if (v.via === 'defs') return false;
        if (v.via !== 'properties' || v.name === null) return;
        const s = v.schema;
        if (s.readOnly === true || 'const' in s || Array.isArray(s.enum) || !carriesValue(s)) return;
        const desc = typeof s.description === 'string' ? s.description : '';
        const id = identifierOf(v.name, s, desc, byEntity);
        if (!id) return;
        // A filter of a tool that lists the same entity: its values come from that tool's own output.
        if (self.action === 'list' && (sameWords(self.entity, id.entity) || sameWords(core(self.entity), id.core))) return;
        // The new record's own identifier on a tool that creates it: server-assigned, not looked up.
        if ((self.action === 'create' || self.action === 'upsert') && sameWords(self.entity, id.entity)) return;
        let found = (byEntity.get(id.entity.join(' ')) ?? byEntity.get(id.core.join(' ')) ?? []).filter((p) => p.name !== tool.name);
        // No tool lists the entity by its own name: one may list it within a parent or a scope
        // (`list_team_channels`, `list_joined_teams`); without it the best producer would be a creator.
        if (!found.some((p) => p.rank === 0)) {
          context ??= contextWords(tool);
          found = [...found, ...qualifiedListers(hood, id.core, context).filter((p) => p.name !== tool.name)];
        }
        if (found.length === 0) return;
        if (LEAVE_ALONE.test(desc) || FALLBACK.test(desc)) return;
        if (saysWhere(desc, names, found)) return;
        if (toolDescSaysWhere(toolDesc, v.name, id, names, found)) return;
        const best = bestProducers(found);
        const entityLabel = id.core.join(' ');
        const fix = suggestion(v, desc, best, id.plural);
        ctx.report({
          messageId: 'missing',
          data: { param: v.param ?? v.name, entity: entityLabel, producers: best.join('` or `') },
          tool,
          parameter: v.param,
          loc: paramLoc(v),
          suggestions: fix ? [fix] : [],
        });
      });
    }
  },
});

interface IdOf {
  entity: string[];
  /** The entity without qualifiers (`parent folder` → `folder`). */
  core: string[];
  plural: boolean;
}

/** The entity whose identifier the parameter carries: by its name, its items' format, or "ID of the …". */
function identifierOf(name: string, s: Schema, desc: string, byEntity: Map<string, Producer[]>): IdOf | null {
  const items = arrayItems(s);
  const id = idParam(name, uuidFormat(s) ? { ...s, format: 'uuid' } : undefined) ?? (items && uuidFormat(items) ? idParam(name, { format: 'uuid' }) : null);
  if (id) return { entity: id.entity, core: core(id.entity), plural: id.plural || items !== null };
  // "ID of the test set", "UUID of the parent folder": only entities some tool produces.
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

/** Whether the parameter holds a scalar identifier (or a list of them), not a flag or an object. */
function carriesValue(s: Schema): boolean {
  const types = new Set<string>(schemaTypes(s));
  for (const k of ['anyOf', 'oneOf'] as const) {
    const list = s[k];
    if (Array.isArray(list)) for (const b of list) if (isObject(b)) for (const t of schemaTypes(b)) types.add(t);
  }
  types.delete('null');
  if (types.size === 0) return true;
  if (types.has('boolean') || types.has('object')) return false;
  if (types.has('array')) {
    const items = arrayItems(s);
    return !items || !schemaTypes(items).some((t) => t === 'object' || t === 'boolean' || t === 'array');
  }
  return true;
}

/** What a tool adds to its server's view: its name and server, and what it produces (if anything). */
interface Contribution {
  name: string | null;
  hood: string;
  produces: { rank: number; entity: string[]; needs: number } | null;
}

const contributions = new WeakMap<Tool, Contribution>();

/** Tools do not change once loaded, so a tool's contribution is computed once (per scope). */
function contribution(tool: Tool, scope: 'server' | 'catalog'): Contribution {
  let c = contributions.get(tool);
  if (!c) contributions.set(tool, (c = { name: tool.name, hood: neighbourhood(tool), produces: produces(tool) }));
  return scope === 'catalog' ? { ...c, hood: '' } : c;
}

function produces(tool: Tool): Contribution['produces'] {
  if (tool.name === null) return null;
  const parts = toolParts(tool);
  // A read named with the entity in the plural (`get_widgets`, `get_all_widgets`) lists it;
  // `get_widgets_by_names` looks some up.
  const lists = parts.action === 'read' && !parts.words.includes('by') && pluralEntity(parts.words, parts.verbAt, parts.entity);
  const rank = lists ? RANK.list : RANK[parts.action];
  if (rank === undefined || parts.entity.length === 0) return null;
  // `get_x_by_id`, `get_xs_by_ids`: looked up by the identifier, so it hands none out.
  const by = parts.words.indexOf('by');
  if (by >= 0 && parts.words.slice(by + 1).some((w) => /^(?:id|ids|uuid|uuids|key|keys)$/.test(w))) return null;
  if (takesOwnId(tool, parts.entity, parts.action === 'read')) return null;
  return { rank, entity: parts.entity, needs: requiredIds(tool) };
}

/** The producers of each server, built from the tools' contributions only. */
function indexProducers(catalog: Catalog, scope: 'server' | 'catalog'): Map<string, Hood> {
  const out = new Map<string, Hood>();
  for (const tool of catalog.tools) {
    const c = contribution(tool, scope);
    if (c.name === null) continue;
    let hood = out.get(c.hood);
    if (!hood) out.set(c.hood, (hood = { byEntity: new Map(), listers: [], listersByLast: new Map() }));
    if (!c.produces) continue;
    const p: Producer = { name: c.name, ...c.produces };
    if (p.rank === RANK.list) {
      hood.listers.push(p);
      const last = p.entity[p.entity.length - 1];
      const same = hood.listersByLast.get(last);
      if (same) same.push(p);
      else hood.listersByLast.set(last, [p]);
    }
    for (const k of new Set([p.entity.join(' '), core(p.entity).join(' ')])) {
      const list = hood.byEntity.get(k);
      if (list) list.push(p);
      else hood.byEntity.set(k, [p]);
    }
  }
  return out;
}

/**
 * Listers of the entity within a parent or a scope (`list_team_channels` for `channel_id`,
 * `list_joined_teams` for `team_id`): each word before the entity must narrow the listing
 * (`joined`, `user`) or name something the consuming tool also works with (its name or its
 * other parameters mention a team), so `list_chat_messages` never answers for a channel message.
 */
function qualifiedListers(hood: Hood, entity: string[], context: Set<string>): Producer[] {
  const n = entity.length;
  // Only listers whose entity ends with the same word can match (all of them when there is none).
  const listers = n > 0 ? (hood.listersByLast.get(entity[n - 1]) ?? []) : hood.listers;
  return listers.filter((p) => {
    if (p.entity.length <= n || p.entity.slice(-n).join(' ') !== entity.join(' ')) return false;
    return p.entity.slice(0, -n).every((w) => SCOPES.has(w) || QUALIFIERS.has(w) || context.has(w));
  });
}

/** How many identifiers a tool requires (`list_widgets(project_id)` needs one). */
function requiredIds(tool: Tool): number {
  let n = 0;
  walkSchema(tool, (v) => {
    if (v.via === 'defs') return false;
    if (v.via !== 'properties' || v.name === null) return;
    if (!v.required) return false;
    if (idParam(v.name, uuidFormat(v.schema) ? { format: 'uuid' } : undefined)) n++;
    return v.depth < 3;
  });
  return n;
}

/**
 * A tool that needs the entity's identifier to run (`get_x(x_id)`) hands none out: a read
 * taking it at all, a list or create requiring it.
 */
function takesOwnId(tool: Tool, entity: string[], anyUse: boolean): boolean {
  let found = false;
  walkSchema(tool, (v) => {
    if (found || v.via === 'defs') return false;
    if (v.via !== 'properties' || v.name === null) return;
    if (!anyUse && !v.required) return;
    const id = idParam(v.name, uuidFormat(v.schema) ? { format: 'uuid' } : undefined);
    if (id && (sameWords(id.entity, entity) || sameWords(core(id.entity), entity))) found = true;
    const d = typeof v.schema.description === 'string' ? ID_OF.exec(v.schema.description) : null;
    if (d && core(splitWords(d[1]).map(singular)).slice(0, entity.length).join(' ') === entity.join(' ')) found = true;
    return v.depth < 2;
  });
  return found;
}

function toolNameSet(catalog: Catalog): Set<string> {
  const out = new Set<string>();
  for (const t of catalog.tools) {
    const n = contribution(t, 'server').name;
    if (n !== null) out.add(n.toLowerCase());
  }
  return out;
}

/**
 * Best producers: one that lists the entity and one that creates it, else one that reads it;
 * within each, the one needing the fewest other identifiers, then the shortest name.
 */
function bestProducers(found: Producer[]): string[] {
  const byRank = (r: number): string[] => [
    ...new Set(
      found
        .filter((p) => p.rank === r)
        .sort((a, b) => a.needs - b.needs || a.name.length - b.name.length || compareLocale(a.name, b.name))
        .map((p) => p.name),
    ),
  ];
  const list = byRank(0);
  const create = byRank(1);
  const out = [list[0], create[0]].filter((x): x is string => !!x);
  return out.length ? out : byRank(2).slice(0, 1);
}

/** The description names a tool of the catalogue, names a producer by its words, or uses provenance wording. */
function saysWhere(text: string, names: Set<string>, found: Producer[]): boolean {
  if (!text.trim()) return false;
  if (namesTool(text, names)) return true;
  if (namesProducerWords(text, found)) return true;
  return PROVENANCE.some((re) => re.test(text));
}

function namesTool(text: string, names: Set<string>): boolean {
  for (const m of text.matchAll(TOKEN)) {
    const t = m[0].toLowerCase();
    if (names.has(t)) {
      // A one-word tool name is also an English word: count it only when marked as code.
      if (/[_.:/-]|[a-z][A-Z]/.test(m[0]) || /[`'"]/.test(text[m.index - 1] ?? '')) return true;
    }
    // `server.tool_name` / `tool_name()` forms.
    const tail = t.split(/[.:/]/).pop()!;
    if (tail !== t && names.has(tail) && /[_-]/.test(tail)) return true;
  }
  return false;
}

/** "from list test runs", "the List Endpoints tool": a producer's name written as words. */
function namesProducerWords(text: string, found: Producer[]): boolean {
  const words = ' ' + splitWords(text).join(' ') + ' ';
  return found.some((p) => {
    const w = splitWords(p.name);
    return w.length > 1 && words.includes(' ' + w.join(' ') + ' ');
  });
}

/**
 * The tool's description speaks about the parameter's source: it names one of the entity's
 * producers, or a sentence that mentions the parameter names a tool or uses provenance wording.
 */
function toolDescSaysWhere(desc: string, name: string, id: IdOf, names: Set<string>, found: Producer[]): boolean {
  if (!desc.trim()) return false;
  const lower = desc.toLowerCase();
  if (found.some((p) => mentionsName(lower, p.name.toLowerCase()))) return true;
  if (namesProducerWords(desc, found)) return true;
  const entityWords = id.core.join(' ');
  for (const sentence of desc.split(/(?<=[.!?])\s+|\n+/)) {
    const sl = sentence.toLowerCase();
    const aboutIt = mentionsName(sl, name.toLowerCase()) || (' ' + splitWords(sentence).map(singular).join(' ') + ' ').includes(` ${entityWords} id`);
    if (!aboutIt) continue;
    if (namesTool(sentence, names) || FALLBACK.test(sentence) || PROVENANCE.some((re) => re.test(sentence))) return true;
  }
  return false;
}

function mentionsName(text: string, name: string): boolean {
  let i = text.indexOf(name);
  while (i >= 0) {
    const before = text[i - 1] ?? ' ';
    const after = text[i + name.length] ?? ' ';
    if (!/[a-z0-9_]/.test(before) && !/[a-z0-9_]/.test(after)) return true;
    i = text.indexOf(name, i + 1);
  }
  return false;
}

function suggestion(v: SchemaVisit, desc: string, producers: string[], plural: boolean): Fix | null {
  const list = producers.map((p) => '`' + p + '`').join(' or ');
  const sentence = `Get ${plural ? 'them' : 'it'} from ${list}.`;
  const title = `Say that the value comes from ${list}`;
  const s = v.schema;
  if (typeof s[META_DESC] === 'string' && desc.trim() !== '') {
    const at: JsonPath = keywordLoc(v.origin, META_DESC, 'value').path;
    const sep = /[.!?:;]$/.test(desc.trimEnd()) ? ' ' : '. ';
    return { title, ops: [{ op: 'appendText', path: at, text: sep + sentence }] };
  }
  const at: JsonPath = typeof s[META_DESC] === 'string' ? keywordLoc(v.origin, META_DESC, 'value').path : [...v.origin.path, META_DESC];
  return { title, ops: [{ op: 'set', path: at, value: sentence }] };
}
