import type { Catalog, Tool } from '../model';
import { walkSchema } from '../schema';
import { folderOf, neighbourhood } from '../servers';
import { levenshtein } from '../util/text';
import { splitWords, verbAction } from '../vocab';
import { defineRule, perView, type RuleContext } from './api';
import { type ModelText, modelTexts, quote, textSpan, type TextKind, whereLabel } from '../model-text';

/** Prose the model reads (names and values are not instructions). */
const SCANNED: ReadonlySet<TextKind> = new Set(['description', 'title', 'paramDescription', 'paramTitle']);

/** Verbs tool names are built on, beyond the record verbs of the vocabulary. */
const ACTIONS = new Set([
  'run', 'execute', 'exec', 'invoke', 'call', 'send', 'reply', 'forward', 'fetch', 'open', 'read', 'write', 'edit', 'browse', 'navigate', 'click',
  'fill', 'submit', 'upload', 'download', 'search', 'transfer', 'pay', 'sign', 'deploy', 'install', 'start', 'stop', 'launch', 'eval', 'save',
  'store', 'share', 'publish', 'notify', 'commit', 'push', 'pull', 'scrape', 'crawl', 'summarize', 'summarise', 'translate', 'convert', 'generate',
]);

/** Words right after an identifier that make it a field or a value, not a tool. */
const NOT_TOOL_NEXT = /^[`'"]?\s*(?:field|fields|parameter|parameters|param|params|argument|arguments|arg|args|property|properties|column|columns|attribute|attributes|key|keys|option|options|flag|flags|value|values|variable|variables|header|headers|setting|settings|scope|scopes|permission|permissions|event|events|table|file|files|folder|directory|package|module|library|class|method|endpoint|url|env|environment|filter|filters|query|queries|expression|clause|operator|syntax|format|type|types|eq|ne|gt|lt|ge|le|co|sw|in|and|or)\b|^\s*(?:[=<>!]=?|:)/i;

/** What may stand between a phrase and the name: an article, "also present", quotes. */
const TAIL = String.raw`\s+(?:the\s+)?(?:also\s+present\s+|available\s+|existing\s+|other\s+|built-?in\s+)?[\`'"]?$`;
/**
 * Phrases that rewire the tool named right after them: "when you call X", "before calling X",
 * "a side effect on X", "change the recipient of X", "overrides X".
 */
const REWIRE_BEFORE = new RegExp(
  String.raw`(?:\bwhen(?:ever)?\s+(?:you\s+|the\s+(?:user|model|assistant|agent|llm)\s+)?(?:call|use|invoke|run|execute|trigger)s?|\b(?:before|after|while)\s+(?:calling|using|invoking|running|executing|triggering)|\bside[\s-]effects?\s+(?:on|of|for|to)(?:\s+(?:the|also|present|available|existing|other))*|\b(?:change|changes|modify|modifies|override|overrides|replace|replaces|alter|alters|intercept|intercepts|redirect|redirects|wrap|wraps|hijack|hijacks)\s+(?:the\s+)?(?:behaviou?r|arguments?|parameters?|inputs?|outputs?|results?|calls?|recipients?|destination)\s+(?:of|to|for|in)|\b(?:replaces|supersedes|overrides|shadows|takes\s+precedence\s+over))${TAIL}`,
  'i',
);
/** Phrases that steer the model away from the tool named after them: "instead of X", "never use X", "prefer this over X". */
const STEER_BEFORE = new RegExp(
  String.raw`(?:\b(?:instead\s+of|rather\s+than|in\s+place\s+of)(?:\s+(?:calling|using|invoking|running|executing))?|\b(?:do\s+not|don'?t|never|avoid|stop)\s+(?:use|call|invoke|run|execute|using|calling|invoking|running)|\b(?:is\s+preferred\s+over|has\s+priority\s+over)|\bprefer\s+(?:this|it)(?:\s+tool)?\s+(?:over|to))${TAIL}`,
  'i',
);
/** "X is called", "X must send…": said of the tool right before them. */
const REWIRE_AFTER = new RegExp(
  String.raw`^[\`'"]?(?:\s+(?:tool|function|command))?\s+(?:(?:is|are|gets?)\s+(?:called|invoked|used|run|executed|triggered)\b|(?:must|should|shall|has\s+to|needs\s+to)\s+(?:always\s+|never\s+|only\s+|also\s+|now\s+|first\s+)?(?:not\s+)?(?!be\b|have\b|contain\b|match\b|equal\b|exist\b)[a-z]+)`,
  'i',
);
/** "X is deprecated", "X is not safe". */
const STEER_AFTER = /^[`'"]?(?:\s+(?:tool|function|command))?\s+(?:is|has\s+been)\s+(?:deprecated|broken|disabled|unsafe|insecure|unavailable|replaced|not\s+(?:available|safe|working|to\s+be\s+used))\b/i;
/** A condition before "X is called": when, whenever, if, once, each time. */
const CONDITION = /\b(?:when(?:ever)?|if|once|each\s+time|every\s+time|as\s+soon\s+as|after|before)\s+(?:the\s+)?[`'"]?$/i;
/** Milder: the text tells the model to call or use the tool ("call X", "use X", "via X", "X tool"). */
const BEFORE_MILD = /\b(?:call|calls|calling|invoke|invokes|invoking|use|uses|using|run|running|execute|executing|trigger|triggering|via|through|then|first|prefer)\s+(?:the\s+)?(?:[\w-]+\s+)?(?:server'?s?\s+)?[`'"]?$/i;
const AFTER_MILD = /^[`'"]?(?:\s+(?:tool|function)\b|\()/i;
const TOOL_WORD_AFTER = /^[`'"]?\s+(?:tool|function)\b/i;
const TOOL_WORD_BEFORE = /\b(?:tool|function)\s+[`'"]?$/i;

interface Hood {
  key: string;
  label: string;
  names: Set<string>;
  /** Names without case and separators. */
  norms: Set<string>;
  /** Parameter and property names, enum values and other words of the server that are not tools. */
  known: Set<string>;
}

function norm(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Tools shipped together (`neighbourhood`), and how a message names them. */
function hoodOf(tool: Tool): { key: string; label: string } {
  return { key: neighbourhood(tool), label: tool.group !== null ? `\`${tool.group}\`` : `\`${folderOf(tool.file.path)}/\`` };
}

/** What a tool adds to its server's view: its server, its name, and its non-tool words. */
interface Contribution {
  key: string;
  label: string;
  name: string | null;
  known: string[];
}

const contributions = new WeakMap<Tool, Contribution>();

/** Tools do not change once loaded, so a tool's contribution is computed once. */
function contribution(t: Tool): Contribution {
  let c = contributions.get(t);
  if (!c) contributions.set(t, (c = computeContribution(t)));
  return c;
}

function computeContribution(t: Tool): Contribution {
  const { key, label } = hoodOf(t);
  const known: string[] = [];
  walkSchema(t, (v) => {
    if (v.name) known.push(v.name);
    const s = v.schema;
    if (Array.isArray(s.enum)) for (const e of s.enum) if (typeof e === 'string') known.push(e);
    for (const k of ['const', 'default', 'title'] as const) if (typeof s[k] === 'string') known.push(s[k] as string);
  });
  return { key, label, name: t.name, known };
}

/** The servers of the catalogue, built from the tools' contributions only. */
interface Hoods {
  hoods: Map<string, Hood>;
  byName: Map<string, Hood[]>;
  /**
   * Tool names of several words written as one plain word (`HTTPServer`): the only names a plain,
   * unquoted word of a text can be reported as (a one-word name needs quotes and "tool").
   */
  plainCompound: Set<string>;
}

/** A token written with separators or in camelCase. */
const SEVERAL = /[_.:-]|[a-z0-9][A-Z]/;

function buildHoods(catalog: Catalog): Hoods {
  const hoods = new Map<string, Hood>();
  for (const t of catalog.tools) {
    const { key, label, name, known } = contribution(t);
    let h = hoods.get(key);
    if (!h) hoods.set(key, (h = { key, label, names: new Set(), norms: new Set(), known: new Set() }));
    if (name) {
      h.names.add(name);
      h.norms.add(norm(name));
    }
    for (const w of known) h.known.add(w);
  }
  const byName = new Map<string, Hood[]>();
  for (const h of hoods.values()) {
    for (const n of h.names) {
      const list = byName.get(n);
      if (list) list.push(h);
      else byName.set(n, [h]);
    }
  }
  const plainCompound = new Set<string>();
  for (const n of byName.keys()) if (!SEVERAL.test(n) && compound(n)) plainCompound.add(n);
  return { hoods, byName, plainCompound };
}

/** A name of several words: `verb_object`, `server.verb`, `verbObject`, `verb-object`. */
function compound(name: string): boolean {
  return splitWords(name).length >= 2;
}

function isAction(w: string): boolean {
  return verbAction(w) !== 'other' || ACTIONS.has(w);
}

/** Last words of field names (`start_date`, `run_id`): such a name is data, not a tool. */
const FIELD_TAIL = new Set(['id', 'ids', 'uuid', 'key', 'keys', 'name', 'names', 'date', 'time', 'at', 'on', 'url', 'uri', 'path', 'type', 'count', 'status', 'code', 'number', 'token', 'mode', 'size', 'limit', 'offset', 'index', 'flag', 'value']);

/** Shaped like a tool: an action word first or last (`verb_object`, `object_verb`), not a field. */
function toolShaped(name: string): boolean {
  const w = splitWords(name);
  return w.length >= 2 && !FIELD_TAIL.has(w[w.length - 1]) && (isAction(w[0]) || isAction(w[w.length - 1]));
}

/**
 * The names a token may stand for: itself, and what follows a namespace (`server.tool`,
 * `server__tool`, `server:tool`, `mcp_tool_send_x` → `send_x`).
 */
function candidates(token: string): string[] {
  const out = [token];
  for (const m of token.matchAll(/\.|::|:|__/g)) out.push(token.slice(m.index + m[0].length));
  const ns = /^(?:mcp|tools?|functions?|server)_(?:(?:mcp|tools?|functions?|server)_)*/i.exec(token);
  if (ns && ns[0].length < token.length) out.push(token.slice(ns[0].length));
  return [...new Set(out.filter((c) => c.length > 0))];
}

interface Finding {
  name: string;
  other: Hood | null;
  start: number;
  end: number;
  quote: [number, number];
  strong: boolean;
}

const QUOTES = new Set(['`', "'", '"']);

function scan(text: string, own: Hood, { byName, plainCompound }: Hoods): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  const tokenRe = /(?<![\w$@\\/.-])[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::|:|-|__)[A-Za-z_][A-Za-z0-9_]*)*(?![\w\\/-]|\.\w|:\w)/g;
  for (const m of text.matchAll(tokenRe)) {
    const token = m[0];
    const start = m.index;
    const end = start + token.length;
    const quoted = QUOTES.has(text[start - 1]) && text[end] === text[start - 1];
    const several = SEVERAL.test(token);
    // Cheap exit first: most tokens are plain words, and a plain unquoted word is only ever
    // reported as another server's tool whose name is several words written as one.
    if (!several && !quoted && !plainCompound.has(token)) continue;
    if (own.names.has(token) || own.known.has(token)) continue;
    const cands = several ? candidates(token) : [token];
    if (cands.some((c) => seen.has(c) || own.names.has(c) || own.norms.has(norm(c)))) continue;
    // Another server's tool, named as written or after a namespace (single words need quotes and "tool").
    const otherName = cands.find((c) => byName.has(c));
    if (!otherName && several && !quoted && !toolShaped(cands[cands.length - 1])) continue;
    const before = text.slice(Math.max(0, start - 80), start);
    const after = text.slice(end, end + 80);
    const toolWord = TOOL_WORD_AFTER.test(after) || TOOL_WORD_BEFORE.test(before);
    if (otherName && !compound(otherName) && !(quoted && toolWord)) continue;
    if (!otherName && !several && !quoted) continue;
    if (NOT_TOOL_NEXT.test(after) && !toolWord) continue;
    const rewireBefore = REWIRE_BEFORE.exec(before);
    const steerBefore = rewireBefore ? null : STEER_BEFORE.exec(before);
    const afterRewire = REWIRE_AFTER.exec(after);
    // "X is called" needs a condition before it ("when X is called"); "X must …" does not.
    const rewireAfter = afterRewire && (!/^[`'"]?(?:\s+(?:tool|function|command))?\s+(?:is|are|gets?)\s+(?:called|invoked|used|run|executed|triggered)/i.test(after) || CONDITION.test(before)) ? afterRewire : null;
    const steerAfter = rewireAfter ? null : STEER_AFTER.exec(after);
    const condBefore = rewireAfter && CONDITION.exec(before);
    const mildBefore = BEFORE_MILD.exec(before);
    const phraseBefore = rewireBefore ?? steerBefore;
    const phraseAfter = rewireAfter ?? steerAfter;
    // Rewiring another tool is strong evidence; steering away from it or naming it as a step is weak.
    const strong = !!(rewireBefore || rewireAfter);
    const shadowing = strong || !!(steerBefore || steerAfter);
    const mild = !!(mildBefore || AFTER_MILD.test(after));
    if (!shadowing && !mild) continue;
    const qs = phraseBefore ? start - phraseBefore[0].length : condBefore ? start - condBefore[0].length : mildBefore ? start - mildBefore[0].length : start;
    const qe = phraseAfter ? end + phraseAfter[0].length : quoted ? end + 1 : end;
    if (otherName) {
      for (const c of cands) seen.add(c);
      out.push({ name: otherName, other: byName.get(otherName)![0], start, end, quote: [qs, qe], strong });
      continue;
    }
    // Not a tool of the run: only a shadowing phrase about something shaped like a tool counts.
    if (!shadowing || (!several && !(quoted && toolWord))) continue;
    if (!toolShaped(cands[cands.length - 1]) && !toolWord) continue;
    // A near miss of one of the server's own names is a stale reference (tool-reference-unknown).
    const n = norm(token);
    if ([...own.norms].some((o) => Math.abs(o.length - n.length) <= 2 && levenshtein(o, n) <= 2)) continue;
    for (const c of cands) seen.add(c);
    out.push({ name: token, other: null, start, end, quote: [qs, qe], strong });
  }
  return out;
}

export default defineRule({
  meta: {
    id: 'tool-shadowing',
    description: 'Disallow descriptions that tell the model how to use another server\'s tools',
    severity: 'error',
    recommended: true,
    fixable: 'never',
    hasSuggestions: false,
    scope: 'catalog',
    messages: {
      other: '{{where}} tells the model how to use `{{name}}`, a tool of another server ({{server}}): "{{quote}}"',
      foreign: '{{where}} tells the model how to use `{{name}}`, which is not a tool of this server: "{{quote}}"',
    },
    docs: {
      what:
        'Reports a tool or parameter description that instructs the model about a tool that is not its own server\'s. Two kinds of evidence count. (1) A tool name of another server in the workspace — another entry of a multi-server dump, or a tool file in another folder — named as a tool to call or use ("call `x`", "via `x`", "the `x` tool"), also behind a namespace (`server.x`, `server__x`, `mcp_tool_x`). (2) A shadowing phrase about a tool-shaped name (an identifier of several words with an action word first or last, not a field such as `run_id`, or one the text calls a tool) that no server of the run defines — typically a client\'s built-in tool or a well-known tool of another server. Phrases that rewire the other tool are reported at the rule\'s severity: "when `x` is called, …", "before calling `x`", "`x` must send …", "a side effect on `x`", "changes the recipient of `x`", "overrides `x`". Phrases that only steer away from it ("instead of `x`", "never use `x`", "prefer this over `x`", "`x` is deprecated"), and another server\'s tool named as a step ("then use `x` to …"), are reported one level lower. Tools of the same server are never reported: telling the model to call a sibling first is workflow context. Names written as a parameter, property or enum value of the server, names followed by "field", "parameter", "filter" and the like, and near misses of the server\'s own names (stale references, reported by `tool-reference-unknown`) are left alone.',
      why: 'Every connected server\'s descriptions share one context, so a description can steer how the model uses tools it does not own: redirect another server\'s `send` tool to a new recipient, make the model prefer a look-alike, or chain into a tool the user never meant this server to reach. Such cross-server instructions are how tool shadowing works, and even honest ones break when the other server is not installed.',
    },
  },
  contribution,
  checkCatalog(catalog, ctx) {
    const views = perView(ctx, buildHoods, () => buildHoods(catalog));
    const { hoods } = views;
    for (const tool of catalog.tools) {
      if (ctx.only && !ctx.only.has(tool)) continue;
      const own = hoods.get(contribution(tool).key)!;
      for (const t of modelTexts(tool)) {
        if (!SCANNED.has(t.kind)) continue;
        report(tool, t, scan(t.text, own, views), ctx.report);
      }
    }
  },
});

function report(tool: Tool, t: ModelText, found: Finding[], sink: RuleContext['report']): void {
  for (const f of found) {
    const span = textSpan(tool.file, t.node, f.start, f.end);
    sink({
      messageId: f.other ? 'other' : 'foreign',
      data: { where: whereLabel(t), name: f.name, server: f.other?.label ?? '', quote: quote(t.text.slice(f.quote[0], f.quote[1])) },
      tool,
      parameter: t.param,
      loc: t.loc,
      span: span ?? undefined,
      weak: !f.strong,
    });
  }
}
