/**
 * Text analysis for the intent ranker: words of names and prose, a light suffix stemmer, stop
 * words and a small synonym map of general software vocabulary. Nothing here knows any tool or
 * any catalogue: the same analysis runs on every catalogue and every intent.
 */
import { singular, splitWords } from '../vocab';

/**
 * Function words and request phrasing ("I want to…", "help me…", "please") that say nothing
 * about which tool serves an intent.
 */
export const STOP_WORDS = new Set([
  'a', 'an', 'the', 'of', 'to', 'for', 'in', 'on', 'at', 'by', 'with', 'from', 'into', 'onto', 'about', 'as', 'per', 'via', 'up', 'out', 'off', 'down', 'over', 'under',
  'and', 'or', 'nor', 'but', 'if', 'then', 'than', 'so', 'not', 'no',
  'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'has', 'have', 'had', 'having', 'do', 'does', 'did', 'doing', 'done',
  'will', 'would', 'shall', 'should', 'can', 'could', 'may', 'might', 'must',
  'i', 'me', 'my', 'mine', 'we', 'us', 'our', 'ours', 'you', 'your', 'yours', 'he', 'him', 'his', 'she', 'her', 'hers', 'it', 'its', 'they', 'them', 'their', 'theirs',
  'this', 'that', 'these', 'those', 'there', 'here', 'which', 'who', 'whom', 'whose', 'what', 'when', 'where', 'why', 'how',
  'all', 'any', 'some', 'each', 'every', 'both', 'either', 'neither', 'other', 'another', 'such', 'same', 'own', 'only', 'also', 'just', 'very', 'too', 'more', 'most', 'less', 'least', 'much', 'many', 'few',
  'please', 'want', 'wants', 'need', 'needs', 'like', 'help', 'let', 'lets', 'try', 'able', 'using', 'use', 'used', 'e', 'g', 'eg', 'ie', 'etc', 'via',
  'one', 'ones', 'thing', 'things', 'something', 'anything', 'everything', 'nothing', 'someone', 'anyone', 'everyone',
  'tool', 'tools', 'mcp',
]);

/** Particles that join the word before them into one (`log in` ~ `login`, `set up` ~ `setup`). */
const PARTICLES = new Set(['in', 'up', 'out', 'on', 'off', 'down', 'back', 'over']);

/** Irregular forms, mapped to the form the stemmer then reduces. */
const IRREGULAR: Record<string, string> = {
  people: 'person', children: 'child', men: 'man', women: 'woman', data: 'data', media: 'media', criteria: 'criterion', indices: 'index',
  sent: 'send', made: 'make', got: 'get', gotten: 'get', found: 'find', built: 'build', ran: 'run', bought: 'buy', paid: 'pay', wrote: 'write', written: 'write',
  gave: 'give', given: 'give', took: 'take', taken: 'take', chose: 'choose', chosen: 'choose', kept: 'keep', left: 'leave', lost: 'lose', sold: 'sell', told: 'tell',
  began: 'begin', begun: 'begin', saw: 'see', seen: 'see', spent: 'spend', shown: 'show', froze: 'freeze', frozen: 'freeze', hidden: 'hide', hid: 'hide',
};

/** `-ing` words that are nouns of their own, not a verb's form (`setting` is not `set`). */
const ING_NOUNS = new Set(['setting', 'string', 'thing', 'warning', 'morning', 'evening', 'ceiling', 'sibling', 'during', 'nothing', 'something', 'anything', 'everything', 'spring', 'swing', 'sling']);

const VOWEL = /[aeiouy]/;

/** Derivational suffixes, longest first, each with the shortest stem it may leave. */
const SUFFIXES: [string, string, number][] = [
  ['ization', 'iz', 4],
  ['isation', 'iz', 4],
  ['ation', '', 4],
  ['ition', '', 4],
  ['ment', '', 4],
  ['able', '', 4],
  ['ible', '', 4],
  ['ity', '', 4],
  ['ion', '', 4],
  ['ate', '', 4],
  // Agent nouns: `reviewer` ~ `review`, `owner` ~ `own`, `container` ~ `contain`.
  ['er', '', 4],
];

/** Words ending in `-er` that are not agent nouns of a shorter word in software vocabulary. */
const NOT_AGENT = new Set(['customer', 'engineer', 'volunteer', 'career', 'pioneer']);

/**
 * A compact Porter-style stemmer: plurals (through the shared `singular`), `-ing`/`-ed`, a few
 * derivational suffixes (`-ation`, `-ment`, `-ity`, `-er`, …) and a final `e`. Its output is a key, not
 * a word: `create`, `creates`, `created`, `creating`, `creation` all become `creat`.
 */
export function stem(input: string): string {
  let w = input.toLowerCase();
  if (IRREGULAR[w]) w = IRREGULAR[w];
  if (w.length <= 3 || /\d/.test(w)) return w;
  w = singular(w);
  let inflected = false;
  if (w.endsWith('ing') && !ING_NOUNS.has(w)) {
    const root = w.slice(0, -3);
    if (root.length >= 3 && VOWEL.test(root)) {
      w = root;
      inflected = true;
    }
  } else if (w.endsWith('ed') && !w.endsWith('eed')) {
    const root = w.slice(0, -2);
    if (root.length >= 3 && VOWEL.test(root)) {
      w = root;
      inflected = true;
    }
  }
  if (inflected) {
    if (/(at|bl|iz)$/.test(w)) w += 'e';
    else if (/([^aeiouylsz])\1$/.test(w) && w.length > 3) w = w.slice(0, -1);
    else if (w.endsWith('i')) w = w.slice(0, -1) + 'y';
  }
  for (const [suffix, repl, min] of SUFFIXES) {
    if (w.endsWith(suffix) && !(suffix === 'er' && NOT_AGENT.has(w))) {
      const root = w.slice(0, -suffix.length) + repl;
      if (root.length >= min && VOWEL.test(root)) {
        w = root;
        break;
      }
    }
  }
  if (w.length > 3 && w.endsWith('e') && !w.endsWith('ee')) w = w.slice(0, -1);
  return w;
}

/**
 * Synonym groups: general software vocabulary (what users say beside what catalogues write).
 * A word may sit in more than one group (`show` reads one thing and lists many). Multi-word
 * forms (`pull request`) become the term the analyser makes of those two words side by side.
 */
const SYNONYM_GROUPS: string[][] = [
  ['get', 'fetch', 'retrieve', 'read', 'show', 'view', 'display', 'see', 'look', 'inspect', 'describe'],
  ['list', 'show', 'browse', 'enumerate'],
  ['search', 'find', 'query', 'lookup', 'look', 'locate', 'filter', 'discover'],
  ['create', 'add', 'new', 'make', 'insert', 'register', 'generate'],
  ['delete', 'remove', 'drop', 'destroy', 'erase', 'purge', 'discard'],
  ['update', 'edit', 'change', 'modify', 'patch', 'alter', 'amend', 'set'],
  ['send', 'notify', 'deliver', 'dispatch'],
  ['run', 'execute', 'invoke', 'trigger', 'launch', 'start'],
  ['stop', 'cancel', 'abort', 'halt', 'terminate', 'kill'],
  ['download', 'export'],
  ['upload', 'import'],
  ['copy', 'duplicate', 'clone'],
  ['move', 'transfer', 'relocate'],
  ['close', 'resolve', 'complete', 'finish'],
  ['approve', 'accept'],
  ['reject', 'decline', 'deny'],
  ['assign', 'allocate'],
  ['summary', 'summarize', 'overview'],
  ['count', 'total', 'tally'],
  ['issue', 'ticket', 'bug'],
  ['user', 'account', 'member', 'person', 'profile'],
  ['customer', 'client'],
  ['team', 'group'],
  ['organization', 'org', 'company'],
  ['file', 'document', 'doc', 'attachment'],
  ['folder', 'directory', 'dir'],
  ['repository', 'repo'],
  ['configuration', 'config', 'configure', 'setting', 'settings', 'preference', 'option'],
  ['message', 'msg'],
  ['email', 'mail'],
  ['comment', 'note', 'reply'],
  ['tag', 'label'],
  ['permission', 'access', 'privilege', 'role'],
  ['error', 'exception', 'failure', 'fail'],
  ['statistic', 'stats', 'metric', 'analytics'],
  ['event', 'meeting', 'appointment'],
  ['image', 'picture', 'photo'],
  ['link', 'url'],
  ['database', 'db'],
  ['identifier', 'id'],
  ['information', 'info', 'detail', 'details'],
  ['application', 'app'],
  ['environment', 'env'],
  ['log in', 'sign in', 'authenticate', 'auth'],
  ['log out', 'sign out'],
  ['pull request', 'merge request', 'pr'],
  ['price', 'cost'],
  ['remind', 'reminder'],
];

/**
 * Verbs of action: the part of an intent that says what to do, not what to do it to. A tool
 * that matches only these (`create …` against every creating tool) does not serve an intent
 * that also names a thing. Words as often nouns or adjectives (`post`, `open`, `set`, `query`, `view`, `change`)
 * are left out: they may name the thing.
 */
const ACTION_WORDS = [
  'get', 'fetch', 'retrieve', 'read', 'show', 'display', 'see', 'look', 'inspect', 'describe', 'list', 'browse', 'enumerate',
  'search', 'find', 'lookup', 'locate', 'discover', 'create', 'add', 'new', 'make', 'insert', 'register', 'generate',
  'delete', 'remove', 'drop', 'destroy', 'erase', 'purge', 'discard', 'update', 'edit', 'modify', 'alter', 'amend',
  'manage', 'handle', 'give', 'provide', 'put', 'write', 'save', 'go', 'know', 'tell',
];

/** The term of a word, or of two words side by side (`pull request`), as `analyze` makes it. */
function termOf(words: string): string {
  const [a, b] = words.split(' ');
  return b === undefined ? stem(a) : stem(stem(a) + b);
}

const SYNONYMS = new Map<string, Set<string>>();
for (const group of SYNONYM_GROUPS) {
  const stems = group.map(termOf);
  for (const s of stems) {
    let set = SYNONYMS.get(s);
    if (!set) SYNONYMS.set(s, (set = new Set()));
    for (const o of stems) if (o !== s) set.add(o);
  }
}
const ACTIONS = new Set(ACTION_WORDS.map(stem));

/** Stems that mean the same as `s` in software vocabulary (never including `s` itself). */
export function synonymsOf(s: string): ReadonlySet<string> {
  return SYNONYMS.get(s) ?? EMPTY;
}
const EMPTY: ReadonlySet<string> = new Set();

/** Whether a stem is a verb of action rather than a thing acted on. */
export function isAction(s: string): boolean {
  return ACTIONS.has(s);
}

/** A term of a field or a query: a stemmed word, or two adjacent words joined (`pull request` → `pullrequest`). */
export interface Term {
  term: string;
  compound: boolean;
  /** The words as written (lower-case): `created`, or `pull requests` for a joined pair. */
  word: string;
}

/**
 * The raw words of a text or a name, lower-case, split in every naming style
 * (`listOpenIssues`, `list_open_issues`, `list-open-issues`, prose), in phrases: punctuation
 * between words (`.`, `,`, `;`, brackets, quotes) ends a phrase. Apostrophes vanish
 * (`user's` → `users`); pure numbers are dropped.
 */
export function phrases(text: string): string[][] {
  const out: string[][] = [];
  for (const part of text.replace(/['\u2019]/g, '').split(/[.,;:!?()[\]{}"<>|]+(?:\s|$)|[()[\]{}"<>|;!?]+/)) {
    const words: string[] = [];
    for (const token of part.split(/\s+/)) for (const w of splitWords(token)) if (!/^\d+$/.test(w)) words.push(w);
    if (words.length > 0) out.push(words);
  }
  return out;
}

/** All raw words of a text (see `phrases`). */
export function rawWords(text: string): string[] {
  return phrases(text).flat();
}

/**
 * Terms of a text: the stems of its words without stop words, plus each pair of adjacent words
 * of a phrase joined (so `GitHub` meets `github`, `pull request` meets `pullRequest` and `logged in`
 * meets `login`). A pair joins two content words, or a word and a particle.
 */
export function analyze(text: string): Term[] {
  const out: Term[] = [];
  for (const words of phrases(text)) {
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      const stop = STOP_WORDS.has(w);
      if (!stop && w.length > 1) out.push({ term: stem(w), compound: false, word: w });
      const next = words[i + 1];
      if (next === undefined || stop) continue;
      // The first word is stemmed before joining, so `logged in` meets `login`.
      if (!STOP_WORDS.has(next) || PARTICLES.has(next)) out.push({ term: stem(stem(w) + next), compound: true, word: `${w} ${next}` });
    }
  }
  return out;
}
