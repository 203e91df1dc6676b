/**
 * What makes a tool destructive, and where its format records that: the evidence in its name,
 * description or HTTP method, and the annotation, metadata key or approval flag that says so.
 * Shared by the annotation rules.
 */
import { isObject, type JsonObject, type Tool } from './model';
import type { JsonPath } from './types';
import { splitWords, verbAction } from './vocab';
import type { Fix } from './rules/api';
import { perList } from './util/memo';
/**
 * Verbs that destroy or irreversibly change what they act on, by the form a name or a
 * description's leading verb takes (`delete`, `deletes`), mapped to the base form shown in messages.
 * Reversible state changes (`cancel`, `archive`, `disable`, `close`) and process control (`kill`,
 * `terminate`) are not data loss and are left out.
 */
export const DESTROY_BASE = ['delete', 'remove', 'drop', 'purge', 'destroy', 'erase', 'revoke', 'wipe', 'truncate', 'overwrite', 'expunge', 'shred'];
export const DESTROY = new Map<string, string>();
for (const b of DESTROY_BASE) {
  DESTROY.set(b, b);
  DESTROY.set(/(s|sh|ch|x|z)$/.test(b) ? b + 'es' : b + 's', b);
}
DESTROY.set('del', 'delete');
DESTROY.set('rm', 'remove');

/** Verbs that undo a removal: a name led by one restores data (`undo_delete`, `restore_item`). */
export const REVERSAL = new Set(['undo', 'undelete', 'restore', 'recover', 'revert', 'rollback', 'unremove', 'reinstate', 'retrieve']);

/** Words that start with `un` but are not reversing verbs (`unique_id`, `unread_count`). */
export const NOT_UN_VERB = new Set(['under', 'until', 'unless', 'unique', 'unit', 'units', 'union', 'unicode', 'universal', 'universe', 'unix', 'unknown', 'unread', 'unseen', 'unused', 'unlimited', 'unsafe', 'unsigned', 'unstable', 'unstructured', 'unsorted', 'unresolved', 'unassigned', 'unanswered', 'unreviewed', 'unpaid', 'unverified', 'unicorn']);

/** A reversing verb in `un-` form (`untrash`, `unpin`, `unset`, `unprotect`): it takes something away but loses nothing. */
export function isUnVerb(w: string): boolean {
  return /^un[a-z]{3,}$/.test(w) && !NOT_UN_VERB.has(w);
}

/** Verbs the shared vocabulary does not list but that lead names (`send_fax`, `run_sprocket`): a name led by one is not a deletion. */
export const OTHER_VERBS = new Set(['send', 'run', 'execute', 'start', 'stop', 'restart', 'deploy', 'install', 'apply', 'build', 'compile', 'convert', 'render', 'translate', 'analyze', 'analyse', 'summarize', 'extract', 'parse', 'validate', 'verify', 'test', 'compare', 'calculate', 'compute', 'reply', 'forward', 'share', 'invoke', 'trigger', 'open', 'navigate', 'click', 'type', 'press', 'upgrade', 'refresh', 'reload', 'reset', 'format', 'crop', 'resize', 'rotate', 'strip', 'clean', 'cleanup', 'filter', 'sort', 'dedupe', 'deduplicate', 'trim', 'compress', 'encode', 'decode', 'encrypt', 'decrypt', 'sign',
  // Dry runs and questions: `preview_…`, `simulate_…`, `can_…`, `is_…` only say what would happen.
  'preview', 'simulate', 'plan', 'estimate', 'dry', 'explain', 'suggest', 'recommend', 'diff', 'lint', 'can', 'is', 'has', 'should', 'may', 'must', 'would']);

/**
 * Leading words that are verbs in the shared vocabulary but usually nouns in a name
 * (`post_delete`, `tag_remove`, `status_clear`): a destroying verb after one still leads.
 */
export const NOUNISH = new Set(['post', 'tag', 'label', 'status', 'info', 'details', 'detail', 'new', 'book', 'count', 'view', 'link', 'pin', 'lock', 'mark', 'set', 'check', 'schedule', 'filter', 'sort', 'type', 'test', 'format', 'share', 'sign', 'build', 'open']);

/** What a removal takes out of content it transforms, not a stored record (`remove_background`). */
export const CONTENT_PARTS = new Set(['background', 'backgrounds', 'bg', 'watermark', 'watermarks', 'noise', 'whitespace', 'whitespaces', 'duplicate', 'duplicates', 'blank', 'blanks', 'silence', 'artifact', 'artifacts', 'punctuation', 'stopword', 'stopwords', 'accent', 'accents', 'diacritics', 'markup', 'formatting', 'blur', 'shadow', 'shadows', 'glare', 'redeye', 'html', 'ansi', 'emoji', 'emojis', 'exif']);

/** What other destroying verbs act on when they transform content or place things (`truncate_text`, `drop_pin`). */
export const VERB_OBJECTS: Record<string, Set<string>> = {
  truncate: new Set(['text', 'string', 'strings', 'output', 'response', 'summary', 'title', 'number', 'decimal', 'decimals']),
  drop: new Set(['pin', 'pins', 'marker', 'markers', 'anchor', 'anchors', 'shadow', 'down']),
};

/** Objects of "removes the need to…", "drops you into…": the verb is a figure of speech. */
export const NOT_DATA = new Set(['need', 'needs', 'hassle', 'burden', 'complexity', 'friction', 'boilerplate', 'guesswork', 'overhead', 'limitation', 'limitations', 'barrier', 'barriers', 'headache', 'headaches', 'requirement', 'bottleneck', 'bottlenecks', 'you', 'users', 'me', 'us']);

/** Words after a leading destroying word that show it is a noun or adjective ("Delete operations are not supported"). */
export const NOUN_USE = new Set(['is', 'are', 'was', 'were', 'will', 'can', 'cannot', 'must', 'should', 'may', 'operation', 'operations', 'request', 'requests', 'endpoint', 'endpoints', 'button', 'buttons', 'permission', 'permissions', 'access', 'right', 'rights', 'method', 'methods', 'protection', 'mode', 'flag', 'option', 'options', 'support', 'policy', 'policies', 'event', 'events', 'status', 'marker', 'markers']);

export const ARTICLES = new Set(['the', 'a', 'an', 'any', 'all', 'one', 'some', 'this', 'that', 'these', 'those', 'its', 'their', 'your', 'my', 'our', 'specified', 'given', 'selected', 'existing']);
export const MODIFIERS = new Set(['soft', 'hard', 'bulk', 'batch', 'force', 'mass', 'safely']);
export const CONNECTORS = new Set(['and', 'or', 'and/or', '&', '/', '+']);

export type EvidenceKind = 'name' | 'description' | 'method' | 'self' | 'overwrite';

export interface Evidence {
  kind: EvidenceKind;
  /** The word or phrase, as written, that says so. */
  word: string;
  /** The tool's main action destroys (its name, its first verb, its HTTP method, or its own word for itself), not one operation among several. */
  primary: boolean;
}

/** The leading verb of a name: the first word that is a verb, after any `namespace__` prefix. */
export function nameVerb(name: string): { word: string; index: number; words: string[] } | null {
  const parts = name.split('__');
  const words = splitWords(parts[parts.length - 1] || name);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (DESTROY.has(w) || REVERSAL.has(w) || isUnVerb(w) || OTHER_VERBS.has(w) || verbAction(w) !== 'other') return { word: w, index: i, words };
  }
  return { word: '', index: -1, words };
}

/** Whether the words right after a destroying verb name content it transforms or a figure of speech. */
export function notDataObject(verb: string, words: string[]): boolean {
  const rest = words.filter((w) => !ARTICLES.has(w)).slice(0, 3);
  if (rest.length === 0) return false;
  if (NOT_DATA.has(rest[0])) return true;
  return rest.some((w) => CONTENT_PARTS.has(w) || VERB_OBJECTS[verb]?.has(w));
}

/** The destroying verb that leads the name, if any. */
export function fromName(name: string): Evidence | 'reversal' | 'other' | null {
  const v = nameVerb(name);
  if (!v || v.index < 0) return null;
  let at = v.index;
  if (NOUNISH.has(v.word)) {
    const later = v.words.findIndex((w, i) => i > at && DESTROY.has(w));
    if (later > at) at = later;
  }
  const w = v.words[at];
  if (REVERSAL.has(w) || isUnVerb(w)) return 'reversal';
  if (!DESTROY.has(w)) return 'other';
  if (notDataObject(DESTROY.get(w)!, v.words.slice(at + 1))) return 'other';
  return { kind: 'name', word: w, primary: true };
}

/** First sentence of a description, without leading markup, tags and "This tool…" preambles. */
export function leadSentence(desc: string): string {
  let s = desc.trim().replace(/^(?:[^A-Za-z[(]+|\[[^\]]{0,40}\]|\([^)]{0,40}\))+/, '');
  s = s.split(/(?<=[.!?。！])\s|\n/)[0] ?? '';
  s = s.replace(/^(?:this (?:tool|function|endpoint|operation|command|action|method|api)(?: will| can| lets you| allows you to)?|(?:a )?tool (?:to|that|for|which)|use (?:this|it)(?: tool)? to|(?:it )?allows? (?:you |the user |users |the agent |agents )?to|lets? (?:you |the user |users )?|used to|helps? (?:you )?(?:to )?|can be used to|you can)\s+/i, '');
  return s;
}

/** Destroying verbs among the description's leading verbs ("Update and delete…", "Add or remove…"). */
export function fromDescription(desc: string): Evidence | null {
  const tokens = leadSentence(desc).split(/\s+/).filter(Boolean).slice(0, 16);
  const chain: { raw: string; lower: string }[] = [];
  let expectVerb = true;
  let i = 0;
  for (; i < tokens.length; i++) {
    const tok = tokens[i];
    const trailingComma = /,$/.test(tok);
    const raw = tok.replace(/[,;:]+$/, '');
    const lower = raw.toLowerCase();
    if (expectVerb) {
      if (/^[a-z]+ly$/.test(lower) || MODIFIERS.has(lower)) continue;
      if (CONNECTORS.has(lower) && chain.length === 0) continue;
      if (!/^[a-z]+$/.test(lower)) break;
      chain.push({ raw, lower });
      expectVerb = trailingComma;
      if (/[;:]$/.test(tok)) {
        i++;
        break;
      }
      continue;
    }
    if (CONNECTORS.has(lower)) {
      expectVerb = true;
      continue;
    }
    break;
  }
  const k = chain.findIndex((c) => DESTROY.has(c.lower));
  if (k < 0) return null;
  const object = tokens.slice(i).map((t) => t.toLowerCase().replace(/[^a-z-]/g, ''));
  if (chain.length === 1 && NOUN_USE.has(object[0] ?? '')) return null;
  if (notDataObject(DESTROY.get(chain[k].lower)!, object)) return null;
  return { kind: 'description', word: chain[k].raw, primary: k === 0 };
}

export const NEGATION = /\b(?:not|never|no|without|cannot|avoid\w*|prevent\w*|instead|rather|unless|except|non)\b|n't\b|\bnon-$/i;

/** "Overwrites…", "replaces all…", "full replacement": the tool writes over existing data. */
export function fromOverwrite(desc: string): Evidence | null {
  const re = /\b(overwrit(?:e|es|ing|ten)|replaces? (?:all|the (?:entire|whole))\b(?! (?:occurrences|instances|matches|mentions|references))|fully replac(?:e|es|ing)|completely replac(?:e|es|ing)|full replacement)\b/gi;
  for (const sentence of desc.split(/(?<=[.!?。！])\s+|\n+/)) {
    for (const m of sentence.matchAll(re)) {
      // Negation before it in the sentence ("never overwrites", "must not … overwriting"), or a noun use ("overwrite protection").
      if (NEGATION.test(sentence.slice(0, m.index))) continue;
      const next = sentence.slice(m.index + m[0].length).trim().split(/\s+/)[0]?.toLowerCase().replace(/[^a-z]/g, '') ?? '';
      if (NOUN_USE.has(next)) continue;
      return { kind: 'overwrite', word: m[1], primary: false };
    }
  }
  return null;
}

/**
 * The description calls the tool destructive: "is destructive", "(destructive operation)",
 * "permanently deletes". Mentions of destructive things it refuses or avoids do not count.
 */
export function fromSelf(desc: string): Evidence | null {
  const re = /\b(?:(?:is|are|be|considered)(?: to be)?(?: an?)?(?: potentially| highly| very)? (destructive)\b|(destructive) (?:operation|action|change|command|tool|call)s?\b|\(\s*(destructive)\s*\)|^\W*(destructive)\b|(permanently (?:delete|remove|destroy|erase|purge)[sd]?)\b)/gi;
  for (const m of desc.matchAll(re)) {
    const word = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5];
    const before = desc.slice(Math.max(0, m.index - 16), m.index);
    if (NEGATION.test(before) || /\bnon-?\s*$/i.test(before)) continue;
    return { kind: 'self', word, primary: true };
  }
  return null;
}

export const METHOD_KEYS = ['method', 'httpMethod', 'http_method', 'verb'];

export function fromMethod(raw: JsonObject): Evidence | null {
  for (const k of METHOD_KEYS) {
    const v = raw[k];
    if (typeof v === 'string' && v.trim().toUpperCase() === 'DELETE') return { kind: 'method', word: v.trim(), primary: true };
  }
  return null;
}

/**
 * Why a tool destroys data, judged by its name, its description and its HTTP method; null when
 * nothing says so. A name led by a reversing verb (`undo_delete`, `untrash`) or by another verb
 * (`update_…`) is trusted over its description's leading verb, except when the description lists
 * a destroying verb among several ("Update and delete…") or says it overwrites.
 */
export function destructiveEvidence(tool: Tool): Evidence | null {
  const desc = tool.description ?? '';
  const method = fromMethod(tool.raw);
  if (method) return method;
  const byName = tool.name ? fromName(tool.name) : null;
  if (byName && typeof byName === 'object') return byName;
  const self = desc ? fromSelf(desc) : null;
  if (self && byName !== 'reversal') return self;
  if (desc && byName !== 'reversal') {
    const d = fromDescription(desc);
    if (d && (byName === null || !d.primary)) return byName === null ? d : { ...d, primary: false };
  }
  return desc ? fromOverwrite(desc) : null;
}

/** Top-level booleans some formats use instead of MCP annotations (`dangerous`, `requires_approval`, `requires_confirmation`). */
export const FLAG_KEY = /^(?:is_?)?(?:dangerous|destructive)$|^(?:requires?|needs?)_?(?:approval|confirmation)$|^(?:confirmation|approval)_?required$/i;

/** A flag's value as a boolean; YAML 1.1 files write `yes` / `no`, which YAML 1.2 reads as strings. */
export function flagValue(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') return null;
  if (/^(?:yes|y|true|on)$/i.test(v.trim())) return true;
  if (/^(?:no|n|false|off)$/i.test(v.trim())) return false;
  return null;
}

export function confirmationFlags(raw: JsonObject): string[] {
  return Object.keys(raw).filter((k) => FLAG_KEY.test(k) && flagValue(raw[k]) !== null);
}

/** The object a tool's fields sit in (under `function` for `{type: function, function: {…}}`). */
export function toolBase(tool: Tool): JsonPath {
  return tool.nameTarget === 'value' ? tool.namePath.slice(0, -1) : tool.path;
}

/** Whether the annotations are `{value}` metadata (`toolMetadata: {destructive: {value: true}}`) rather than MCP `annotations`. */
export function isMetadataStyle(tool: Tool): boolean {
  const p = tool.annotationsPath;
  return !!p && p[p.length - 1] !== 'annotations';
}

/** The `{value}` metadata object as written, or null for MCP annotations. */
export function metadataObject(tool: Tool): JsonObject | null {
  const p = tool.annotationsPath;
  if (!p || !isMetadataStyle(tool)) return null;
  const meta = tool.raw[String(p[p.length - 1])];
  return isObject(meta) ? meta : null;
}

/** The key of `{value}` metadata that holds a hint (`destructiveHint` or its short form `destructive`), when written. */
export function metadataKey(tool: Tool, hint: string, short: string): string | null {
  const meta = metadataObject(tool);
  if (!meta) return null;
  if (hint in meta) return hint;
  if (short in meta) return short;
  return null;
}

/** Where a hint's value is written, or null when it is not. */
export function hintValuePath(tool: Tool, hint: string, short: string): JsonPath | null {
  const p = tool.annotationsPath;
  if (!p) return null;
  if (!isMetadataStyle(tool)) return isObject(tool.raw.annotations) && hint in tool.raw.annotations ? [...p, hint] : null;
  const key = metadataKey(tool, hint, short);
  if (!key) return null;
  const entry = metadataObject(tool)![key];
  return isObject(entry) ? ('value' in entry ? [...p, key, 'value'] : null) : [...p, key];
}

/** Whether some tool of the file writes MCP annotations or `{value}` metadata. */
export function fileUses(tool: Tool, what: 'annotations' | 'flags'): string | boolean {
  // Asked once per tool, answered from all the file's tools: computed once per file.
  const u = usesOf(tool.file.tools);
  return what === 'annotations' ? u.annotations : u.flags;
}

const usesOf = perList((tools: readonly Tool[]) => ({ annotations: tools.some((t) => !!t.annotationsPath), flags: firstFlag(tools) }));

function firstFlag(tools: readonly Tool[]): string | false {
  for (const t of tools) {
    const f = confirmationFlags(t.raw);
    if (f.length) return f[0];
  }
  return false;
}

interface Target {
  /** Field named in the message. */
  field: string;
  /** Where its value is (explicit false), or null. */
  valuePath: JsonPath | null;
  value: unknown;
  fix: Fix | null;
}

export const IS_ROXYGEN = (tool: Tool): boolean => tool.file.format === 'roxygen-yaml';

/** The field that marks this tool destructive in its own format, its current value and the fix that sets it. */
export function targetOf(tool: Tool): Target {
  const base = toolBase(tool);
  const ann = tool.annotationsPath;
  if (ann && isMetadataStyle(tool)) {
    const key = metadataKey(tool, 'destructiveHint', 'destructive');
    const valuePath = hintValuePath(tool, 'destructiveHint', 'destructive');
    const field = key ?? 'destructive';
    const fixOps = valuePath ? [{ op: 'set' as const, path: valuePath, value: true }] : key ? null : [{ op: 'set' as const, path: [...ann, 'destructive'], value: { value: true } }];
    const title = valuePath ? `Set \`${field}\` to \`true\`` : `Add \`${field}: {value: true}\``;
    return { field, valuePath, value: tool.annotations.destructiveHint, fix: fixOps ? { title, ops: fixOps } : null };
  }
  if (ann) {
    const valuePath = hintValuePath(tool, 'destructiveHint', 'destructive');
    return { field: 'destructiveHint', valuePath, value: tool.annotations.destructiveHint, fix: { title: valuePath ? 'Set `destructiveHint: true`' : 'Add `destructiveHint: true`', ops: [{ op: 'set', path: [...ann, 'destructiveHint'], value: true }] } };
  }
  const flags = confirmationFlags(tool.raw);
  if (flags.length) {
    // An explicit flag that is false (a true one means the tool is marked already).
    const k = flags.find((f) => flagValue(tool.raw[f]) === false) ?? flags[0];
    return { field: k, valuePath: [...base, k], value: flagValue(tool.raw[k]), fix: { title: `Set \`${k}: true\``, ops: [{ op: 'set', path: [...base, k], value: true }] } };
  }
  if (IS_ROXYGEN(tool)) return { field: 'dangerous', valuePath: null, value: undefined, fix: { title: 'Add `dangerous: true`', ops: [{ op: 'set', path: [...base, 'dangerous'], value: true }] } };
  const siblingFlag = fileUses(tool, 'annotations') ? false : fileUses(tool, 'flags');
  if (typeof siblingFlag === 'string') return { field: siblingFlag, valuePath: null, value: undefined, fix: { title: `Add \`${siblingFlag}: true\``, ops: [{ op: 'set', path: [...base, siblingFlag], value: true }] } };
  return { field: 'destructiveHint', valuePath: null, value: undefined, fix: { title: 'Add `annotations: {destructiveHint: true}`', ops: [{ op: 'set', path: [...base, 'annotations'], value: { destructiveHint: true } }] } };
}

/** Whether the tool is marked destructive (or as needing approval) in any way its format knows. */
export function isMarked(tool: Tool): boolean {
  if (tool.annotations.destructiveHint === true) return true;
  return confirmationFlags(tool.raw).some((k) => flagValue(tool.raw[k]) === true);
}

/**
 * Whether the tool's format can carry annotations: not plain function-calling definitions
 * (`{name, description, parameters}` for a model API, where extra keys are rejected), unless the
 * file already carries annotations or approval flags.
 */
export function formatCarriesAnnotations(tool: Tool): boolean {
  if (!tool.file.format.startsWith('function-')) return true;
  return !!fileUses(tool, 'annotations') || !!fileUses(tool, 'flags');
}

export function describe(e: Evidence): string {
  if (e.kind === 'name') return `its name says \`${e.word}\``;
  if (e.kind === 'method') return `its HTTP method is \`${e.word}\``;
  return `its description says \`${e.word}\``;
}
