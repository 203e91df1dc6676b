import { isObject, type Schema, type Tool } from '../model';
import { keywordInSource, type SchemaVisit, walkSchema } from '../schema';
import type { JsonPath } from '../types';
import { defineRule, type Fix, type Report } from './api';
import { paramLoc } from './util';
import { escapeRegExp } from '../util/text';

type Claim = 'required' | 'optional';

/** A sentence that makes the claim conditional: "required when…", "only if…". */
const CONDITIONAL = /\b(?:if|when|whenever|unless|only|except|otherwise|depending|once|until|in\s+case)\b/i;

/** The claim word is negated: "not required", "no longer mandatory". */
const NEGATED = /\b(?:not|n't|never|no\s+longer|nor)\s+(?:\w+\s+)?(?:required|mandatory|needed)\b|\bNOT\s+REQUIRED\b/i;

/** Claims a parameter's own description makes about it. */
const SELF_REQUIRED: RegExp[] = [
  /^\s*[([]?\s*(?:required|mandatory)\s*[)\]]?\s*(?:[.:;,!\-–—)]|$)/i,
  /[([]\s*(?:required|mandatory)\s*[)\]]/i,
  /(?<!\bNOT\s)\bREQUIRED\b(?!\s+(?:fields?|keys?|properties|parameters?|params?|arguments?|items?|attributes?|values?|columns?)\b)/,
  /\b(?:this|it|this\s+(?:field|parameter|param|argument|value|property|option|input))\s+is\s+(?:always\s+)?(?:required|mandatory)\b(?!\s+(?:for|by|to|in|with|on|when|if)\b)/i,
  /\balways\s+(?:include|provide|pass|send|specify|supply|set|fill\s+in)\b(?:\s+(?:this|it|this\s+(?:field|parameter|value|argument)|a\s+value))?\s*(?:[.!;]|$|\s+as\b)/i,
  /(?:^|[.!;]\s+)(?:this\s+(?:field|parameter|value|argument)\s+|it\s+)?must\s+(?:always\s+)?be\s+(?:provided|specified|supplied|included|given|passed|sent|present)\s*(?:[.!;]|$)/i,
  /(?:^|[.!;]\s+)(?:you\s+)?must\s+(?:always\s+)?(?:provide|include|specify|supply|pass|send)\s+(?:this|it)\b/i,
];
const SELF_OPTIONAL: RegExp[] = [
  /^\s*[([]?\s*optional\b/i,
  /[([]\s*optional\s*[)\],;]/i,
  /\bOPTIONAL\b/,
  /\b(?:this|it|this\s+(?:field|parameter|param|argument|value|property|option|input))\s+is\s+optional\b/i,
  /\b(?:can|may)\s+be\s+(?:omitted|left\s+(?:out|empty|blank|unset))\b/i,
];

/** Names a list claim may introduce ("Required fields: a, b"). */
const LIST_HEAD = String.raw`(?:fields?|parameters?|params?|arguments?|args?|inputs?|properties|keys?|attributes?)`;

interface Found {
  claim: Claim;
  /** The prose that says so (for the message). */
  quote: string;
}

export default defineRule({
  meta: {
    id: 'required-mismatch',
    description: 'Require the prose and the schema to agree on which parameters are required',
    severity: 'warning',
    recommended: true,
    fixable: 'never',
    hasSuggestions: true,
    scope: 'tool',
    messages: {
      proseRequired: '`{{param}}` is described as required ("{{quote}}") but {{why}}',
      proseOptional: '`{{param}}` is described as optional ("{{quote}}") but {{why}}',
    },
    docs: {
      what:
        'Reports a parameter whose description, or the description of the tool or object holding it, says it is required ("REQUIRED", "(required)", "Always include this.", "Required fields: a, b, c", "The \'x\' array is REQUIRED") while the schema leaves it optional, and one the prose calls optional ("Optional.", "(optional)", "can be omitted") while the schema requires it. Conditional wording ("required when…", "only if…") and negations are left alone, and so is an optional claim on a nullable parameter (strict schemas require every property and mark the optional ones nullable). Schemas that cannot say "required" are skipped: REST parameter maps carry no `required` list by design. In an MXCP parameter list a parameter is required exactly when it has no `default`, so a REQUIRED parameter with a default, or an optional one without, is reported too.',
      why: 'The agent sees both the schema and the prose. When they disagree it follows one of them: it leaves out a field the server needs and the call fails, or it is forced to invent a value for a field that was meant to be optional. Seed failures show agents dropping exactly the field the prose says to "always include" once the schema marks it optional.',
      fix: 'For a parameter the prose calls required, suggests adding it to the `required` list (created when absent), setting `required: true` or `optional: false` in a flagged parameter list, or removing the `default` of an MXCP parameter. For one the prose calls optional, suggests removing it from `required` (or the flag). Which side is right is a judgement, so these are suggestions, not fixes.',
    },
  },
  checkTool(tool, ctx) {
    if (!tool.inputSchema || tool.schemaStyle === 'param-map' || tool.schemaStyle === 'none') return;
    const mxcp = tool.file.format === 'mxcp-tool';
    // Claims the holder's description makes about each property, per object schema.
    const listed = new Map<object, Map<string, Found>>();
    walkSchema(tool, (v) => {
      if (v.via === 'defs') return false;
      if (v.via !== 'properties' || v.name === null || !v.parent) return;
      const parent = v.parent;
      const props = parent.schema.properties as Record<string, unknown>;
      let claims = listed.get(parent.schema);
      if (!claims) listed.set(parent.schema, (claims = fromHolder(holderText(tool, parent), Object.keys(props))));
      const name = v.name;
      const ps = v.schema;
      const own = typeof ps.description === 'string' ? fromOwn(ps.description, nestedNames(ps)) : null;
      const other = claims.get(name) ?? null;
      // The prose contradicts itself: nothing to compare.
      if (own && other && own.claim !== other.claim) return;
      const found = own ?? other;
      if (!found) return;
      const req = Array.isArray(parent.schema.required) ? parent.schema.required : [];
      const isReq = req.includes(name) || ps.required === true;
      const kind: Kind = tool.schemaStyle === 'param-list' ? (mxcp ? 'mxcp' : 'list') : keywordInSource(parent.origin, 'required') ? 'schema' : 'flags';
      if (found.claim === 'required' && !isReq) {
        report(ctx, tool, v, name, found, 'proseRequired', kind, parent);
      } else if (found.claim === 'optional' && isReq) {
        if (nullable(ps) && kind !== 'mxcp') return;
        report(ctx, tool, v, name, found, 'proseOptional', kind, parent);
      }
    });
  },
});

type Kind = 'schema' | 'flags' | 'list' | 'mxcp';

function report(
  ctx: { report: (r: Report) => void },
  tool: Tool,
  child: SchemaVisit,
  name: string,
  found: Found,
  messageId: 'proseRequired' | 'proseOptional',
  kind: Kind,
  parent: SchemaVisit,
): void {
  const entry: JsonPath = child.origin.path;
  const suggestions: Fix[] = [];
  let why: string;
  if (messageId === 'proseRequired') {
    if (kind === 'mxcp') {
      why = 'it has a `default`, which makes it optional';
      suggestions.push({ title: `Remove the \`default\` of \`${name}\``, ops: [{ op: 'remove', path: [...entry, 'default'] }] });
    } else if (kind === 'list') {
      why = 'the parameter list leaves it optional';
      const raw = rawEntry(tool, entry);
      if (raw && 'optional' in raw) suggestions.push({ title: `Set \`optional: false\` on \`${name}\``, ops: [{ op: 'set', path: [...entry, 'optional'], value: false }] });
      else suggestions.push({ title: `Set \`required: true\` on \`${name}\``, ops: [{ op: 'set', path: [...entry, 'required'], value: true }] });
    } else if (kind === 'flags') {
      why = 'the schema leaves it optional';
      suggestions.push({ title: `Set \`required: true\` on \`${name}\``, ops: [{ op: 'set', path: [...entry, 'required'], value: true }] });
    } else {
      why = 'the schema leaves it optional';
      suggestions.push({ title: `Add \`${name}\` to \`required\``, ops: [{ op: 'addItem', path: [...parent.origin.path, 'required'], value: name }] });
    }
  } else {
    if (kind === 'mxcp') {
      why = 'it has no `default`, which makes it required';
    } else if (kind === 'list') {
      why = 'the parameter list requires it';
      const raw = rawEntry(tool, entry);
      if (raw && 'required' in raw) suggestions.push({ title: `Set \`required: false\` on \`${name}\``, ops: [{ op: 'set', path: [...entry, 'required'], value: false }] });
      else suggestions.push({ title: `Set \`optional: true\` on \`${name}\``, ops: [{ op: 'set', path: [...entry, 'optional'], value: true }] });
    } else if (kind === 'flags') {
      why = 'the schema requires it';
      suggestions.push({ title: `Remove \`required: true\` from \`${name}\``, ops: [{ op: 'remove', path: [...entry, 'required'] }] });
    } else {
      why = 'the schema requires it';
      suggestions.push({ title: `Remove \`${name}\` from \`required\``, ops: [{ op: 'removeItemValue', path: [...parent.origin.path, 'required'], value: name }] });
    }
  }
  ctx.report({ messageId, data: { param: child.param ?? name, quote: found.quote, why }, tool, parameter: child.param, loc: paramLoc(child), suggestions });
}

/** The raw list entry of a parameter list (to see which flag it uses). */
function rawEntry(tool: Tool, path: JsonPath): Record<string, unknown> | null {
  let node: unknown = tool.file.parsed.docs[tool.doc]?.data;
  for (const seg of path) {
    if (Array.isArray(node)) node = node[Number(seg)];
    else if (isObject(node)) node = node[String(seg)];
    else return null;
  }
  return isObject(node) ? node : null;
}

function nullable(s: Schema): boolean {
  if (s.nullable === true || s.type === 'null') return true;
  if (Array.isArray(s.type) && s.type.includes('null')) return true;
  for (const k of ['anyOf', 'oneOf'] as const) {
    const list = s[k];
    if (Array.isArray(list) && list.some((b) => isObject(b) && (b.type === 'null' || (Array.isArray(b.type) && b.type.includes('null'))))) return true;
  }
  return false;
}

/**
 * The text that speaks for an object's properties: the tool's description for the input
 * schema, else the description of the parameter holding the object (through `items` and
 * `anyOf`/`oneOf`/`allOf` branches).
 */
function holderText(tool: Tool, v: SchemaVisit): string {
  const own = typeof v.schema.description === 'string' ? v.schema.description : '';
  if (v.via === 'root') return [tool.description ?? '', own].join('\n');
  let cur: SchemaVisit = v;
  for (;;) {
    const d = cur.schema.description;
    if (typeof d === 'string' && d.trim()) return d;
    if (cur.via === 'properties' || !cur.parent) return '';
    if (cur.parent.via === 'root' && cur.via !== 'items') return tool.description ?? '';
    cur = cur.parent;
  }
}

/** Property names of an object parameter (or of its items), whose claims are not the parameter's own. */
function nestedNames(s: Schema): string[] {
  const out: string[] = [];
  const visit = (x: unknown, depth: number): void => {
    if (!isObject(x) || depth > 3) return;
    if (isObject(x.properties)) out.push(...Object.keys(x.properties));
    visit(x.items, depth + 1);
    for (const k of ['anyOf', 'oneOf', 'allOf'] as const) if (Array.isArray(x[k])) for (const b of x[k] as unknown[]) visit(b, depth + 1);
  };
  visit(s, 0);
  return out;
}

function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=[A-Z(*"'`-])|\n\s*\n|\n\s*(?=[-*•]\s)|\n(?=\s*\w+\s*[:(])/).map((s) => s.trim()).filter(Boolean);
}

function short(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 60 ? t.slice(0, 57).trimEnd() + '…' : t;
}

const CLAIM_WORD = /required|mandatory|optional|always|must/i;

/** What a parameter's own description says about it (sentences about its nested fields aside). */
function fromOwn(desc: string, nested: string[]): Found | null {
  let out: Found | null = null;
  if (!CLAIM_WORD.test(desc)) return null;
  const aboutNested = nested.length ? new RegExp(String.raw`(?<![\w-])(?:${nested.map(escapeRegExp).join('|')})(?![\w-])`) : null;
  for (const sentence of sentences(desc)) {
    if (NEGATED.test(sentence) || aboutNested?.test(sentence)) continue;
    if (SELF_REQUIRED.some((re) => re.test(sentence)) && !CONDITIONAL.test(sentence) && !/\brequired\s+(?:for|by|to|in|with|on)\b/i.test(sentence)) {
      if (out && out.claim !== 'required') return null;
      out = { claim: 'required', quote: short(sentence) };
    } else if (SELF_OPTIONAL.some((re) => re.test(sentence)) && !/\boptional(?:ly)?\s+(?:if|when|unless|for)\b/i.test(sentence)) {
      if (out && out.claim !== 'optional') return null;
      out = { claim: 'optional', quote: short(sentence) };
    }
  }
  return out;
}

/**
 * What the holder's description says about each property: lists ("Required fields: a, b") and
 * per-name claims ("- x (required): …", "The 'x' array is REQUIRED", "x: always provide …").
 */
function fromHolder(text: string, names: string[]): Map<string, Found> {
  const out = new Map<string, Found>();
  const conflict = new Set<string>();
  if (!CLAIM_WORD.test(text)) return out;
  const put = (name: string, f: Found): void => {
    const prev = out.get(name);
    if (prev && prev.claim !== f.claim) conflict.add(name);
    else if (!prev) out.set(name, f);
  };
  const nameSet = new Set(names);
  const listRe = new RegExp(String.raw`\b(required|mandatory|optional)\s*(?:${LIST_HEAD})?\s*(?:\([^)]*\))?\s*:\s*([^\n]*(?:\n\s*[-*•]\s[^\n]*)*)`, 'gi');
  for (const m of text.matchAll(listRe)) {
    const claim: Claim = /optional/i.test(m[1]) ? 'optional' : 'required';
    // The list runs to the end of its sentence, or over the bullet lines that follow the colon.
    const body = m[2].trim() === '' ? '' : m[2];
    const head = m[0].slice(0, m[0].length - m[2].length);
    const sentence = body.split(/(?<=[^.\d])\.(?:\s|$)/)[0];
    const bullets = /^\s*$/.test(m[2].split('\n')[0]) ? m[2].split('\n').slice(1).map((l) => l.replace(/^\s*[-*•]\s*/, '')) : null;
    // "Required: a or b" asks for one of them, which a `required` list cannot say.
    if (!bullets && /\bor\b|\beither\b|\bone\s+of\b/i.test(sentence.replace(/\([^)]*\)/g, ''))) continue;
    const items = bullets ?? sentence.split(/,|;|\band\b/);
    const context = text.slice(Math.max(0, m.index - 40), m.index);
    if (CONDITIONAL.test(context.split(/[.!?\n]/).pop() ?? '')) continue;
    for (const item of items) {
      const id = /^[\s`'"*]*([A-Za-z_$][\w$.-]*)/.exec(item)?.[1];
      if (id && nameSet.has(id)) put(id, { claim, quote: short(head + item.trim()) });
    }
  }
  // Each per-name pattern needs one of its claim words in the text (reqAfter and optAfter are
  // case-sensitive, reqBefore is not): a pattern whose words are absent cannot match and is not built.
  const canReqAfter = /required|REQUIRED|mandatory|always/.test(text);
  const canReqBefore = /always/i.test(text);
  const canOptAfter = /optional|OPTIONAL/.test(text);
  for (const name of names) {
    if (!text.includes(name)) continue;
    const n = escapeRegExp(name);
    const q = String.raw`[\`'"*]*`;
    const noun = String.raw`(?:\s+(?:array|field|parameter|param|argument|property|list|object|value|string|key|input|option|flag|id))?`;
    const patterns: [RegExp, Claim][] = [];
    // The "after" patterns need the name (exact case) followed, past any quotes or `*`, by `(`,
    // `[`, `:` or a space: a name seen only inside longer words is skipped without a regex.
    const after = (canReqAfter || canOptAfter) && claimMayFollow(text, name);
    if (canReqAfter && after) patterns.push([new RegExp(String.raw`(?<![\w.-])${q}${n}${q}${noun}\s*(?:\(\s*(?:required|mandatory)\s*[,;)]|\[\s*required\s*\]|\s+(?:is|are)\s+(?:always\s+)?(?:required|REQUIRED|mandatory)\b|:\s*(?:REQUIRED|required)\b|\s+REQUIRED\b|:\s*always\s+(?:include|provide|pass|send|specify|set|supply)\b)`, 'g'), 'required']);
    if (canReqBefore) patterns.push([new RegExp(String.raw`\balways\s+(?:include|provide|pass|send|specify|supply)\s+(?:the\s+|a\s+|an\s+)?${q}${n}${q}(?![\w-])`, 'gi'), 'required']);
    if (canOptAfter && after) patterns.push([new RegExp(String.raw`(?<![\w.-])${q}${n}${q}${noun}\s*(?:\(\s*optional\s*[,;)]|\[\s*optional\s*\]|\s+(?:is|are)\s+optional\b|:\s*optional\b|\s+OPTIONAL\b)`, 'g'), 'optional']);
    for (const [re, claim] of patterns) {
      for (const m of text.matchAll(re)) {
        if (NEGATED.test(m[0]) || /\bnot\s*$/i.test(text.slice(Math.max(0, m.index - 5), m.index))) continue;
        // Only the part of the sentence that bears on this name decides whether it is conditional.
        const tail = text.slice(m.index, m.index + m[0].length + 40).split(/[.!?\n]/)[0];
        if (claim === 'required' && (CONDITIONAL.test(tail) || /\brequired\s+(?:for|by|to|in|with|on)\b/i.test(tail))) continue;
        // "one of body or reaction is required": an alternative, not this name alone.
        const lead = text.slice(Math.max(0, m.index - 60), m.index).split(/[.!?\n]/).pop() ?? '';
        if (/\b(?:or|either|one\s+of|any\s+of|and\/or|at\s+least)\b[^,;:]*$/i.test(lead) || /^\S*\s+(?:or|and\/or)\b/i.test(text.slice(m.index + name.length, m.index + name.length + 12))) continue;
        if (claim === 'optional' && /\boptional(?:ly)?\s+(?:if|when|unless|for)\b/i.test(tail)) continue;
        put(name, { claim, quote: short(m[0].replace(/[`'"*]/g, '')) });
      }
    }
  }
  for (const c of conflict) out.delete(c);
  return out;
}

/** Whether some occurrence of `name` is followed, past quotes and `*`, by `(`, `[`, `:` or whitespace. */
function claimMayFollow(text: string, name: string): boolean {
  // An empty name occurs everywhere (and would not advance the search): let the patterns decide.
  if (name === '') return true;
  for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) {
    let j = i + name.length;
    while (j < text.length && (text[j] === '`' || text[j] === "'" || text[j] === '"' || text[j] === '*')) j++;
    const c = text[j];
    if (c === '(' || c === '[' || c === ':' || (c !== undefined && /\s/.test(c))) return true;
  }
  return false;
}
