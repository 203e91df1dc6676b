import { isObject, type Tool } from '../model';
import { keywordInSource, keywordLoc, selfLoc, walkSchema, type Loc, type SchemaVisit } from '../schema';
import { defineRule, type Fix } from './api';

type Provider = 'openai' | 'anthropic' | 'gemini';

interface Options {
  providers: Provider[];
}

const LABEL: Record<Provider, string> = { openai: 'OpenAI', anthropic: 'Anthropic', gemini: 'Gemini' };
const PROVIDERS = Object.keys(LABEL) as Provider[];

/** Providers that reject an input schema whose root is not `type: object`. */
const ROOT_OBJECT: Provider[] = ['openai', 'anthropic', 'gemini'];
/** Providers that reject `anyOf`, `oneOf` or `allOf` at the root of an input schema. */
const ROOT_COMBINATOR: Provider[] = ['anthropic'];
const COMBINATORS = ['anyOf', 'oneOf', 'allOf'];

/**
 * The fields of the Gemini API's `Schema` (the OpenAPI 3.0 subset that function declarations'
 * `parameters` take), as its API reference lists them (read 2026-11-21). Any other key is an
 * "Unknown name" and fails the request.
 */
const GEMINI_FIELDS = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'items', 'maxItems', 'minItems', 'properties', 'required',
  'minProperties', 'maxProperties', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf',
  'propertyOrdering', 'default',
]);
/**
 * A catalogue's own keyword that lists the properties the model sees (see `walkSchema`): the
 * catalogue's runtime strips it, with the hidden properties, before any model API sees the schema.
 */
const INTERNAL = new Set(['visible']);
/** Keywords reported on their own, so a node that has one needs no `type` finding as well. */
const REPORTED_ELSEWHERE = ['$ref', 'const', 'oneOf', 'allOf', 'not', 'if'];
/** What `schema-type-missing` already reports: a parameter typed by nothing at all. */
const TYPED_BY = ['type', 'enum', 'const', '$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'if'];

export default defineRule<Options>({
  meta: {
    id: 'schema-provider-unsupported',
    description: 'Disallow schema constructs that a model API rejects in tool definitions',
    severity: 'warning',
    recommended: false,
    fixable: 'sometimes',
    hasSuggestions: false,
    scope: 'tool',
    messages: {
      rootType: 'Input schema is not `type: object`, which {{who}} require{{s}}',
      rootCombinator: '`{{keyword}}` at the root of the input schema is rejected by {{who}}',
      keyword: '`{{keyword}}` is not a field of {{who}}\'s function schema and fails the request',
      typeList: '`type` lists several types; {{who}} takes one type per schema (`nullable: true` for null)',
      typeMissing: '`{{param}}` has no `type`, which {{who}} requires on every schema',
      branchType: 'A branch of `anyOf` in {{where}} has no `type`, which {{who}} requires on every schema',
      enumType: 'Enum value `{{value}}` of `{{param}}` is not a string; {{who}} takes string enum values only',
      tuple: '`items` of `{{param}}` is a list; {{who}} takes one schema for `items`',
    },
    options: {
      schema: {
        type: 'object',
        properties: { providers: { type: 'array', items: { enum: PROVIDERS }, uniqueItems: true } },
        additionalProperties: false,
      },
      defaults: { providers: PROVIDERS },
    },
    docs: {
      what:
        'Reports what the model APIs in `providers` reject in a tool\'s input schema (written as JSON Schema; parameter lists and REST parameter maps get their schema from the server at run time and are skipped). OpenAI\'s strict mode has its own rule, `schema-strict-incompatible`. Sources, read 2026-11-21:\n\n' +
        '- **All three**: the input schema must be `type: object`. OpenAI: "The parameters the functions accepts, described as a JSON Schema object", with `{"type": "object", "properties": {}}` for no parameters (API reference, https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools); a schema without it fails with "schema must be a JSON Schema of \'type: \\"object\\"\'". Anthropic: "`input_schema`: A JSON Schema object defining the expected parameters for the tool" (https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools), whose `type` is the required literal `"object"` in the Messages API spec (`ToolParam.input_schema` in Anthropic\'s SDKs, generated from it). Gemini: the parameters schema "must describe an object where the properties are the parameters to the function" (`FunctionDeclaration.parametersJsonSchema`, https://ai.google.dev/api/caching#FunctionDeclaration).\n' +
        '- **Anthropic**: `anyOf`, `oneOf` or `allOf` at the root fail with "input_schema does not support oneOf, allOf, or anyOf at the top level". This comes from the API\'s error message (seen in many client bug reports, e.g. anthropics/claude-code#5973); the tool use docs (https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools) do not state it. Tool names (`^[a-zA-Z0-9_-]{1,64}$`, same page) are checked by `tool-name-invalid`.\n' +
        '- **Gemini** (function declarations\' `parameters`: the `Schema` of the API reference, https://ai.google.dev/api/caching#Schema, "a select subset of an OpenAPI 3.0 schema object", read as reproduced in Google\'s generated client data models): the only fields are `type`, `format`, `title`, `description`, `nullable`, `enum`, `items`, `minItems`, `maxItems`, `properties`, `required`, `minProperties`, `maxProperties`, `minimum`, `maximum`, `minLength`, `maxLength`, `pattern`, `example`, `anyOf`, `propertyOrdering` and `default`; the reference marks `additionalProperties`, `ref` and `defs` "not supported in the Gemini Developer API". Any other key (`$ref`, `$defs`, `$schema`, `additionalProperties`, `oneOf`, `allOf`, `const`, `examples`, `exclusiveMinimum`, …) fails with "Invalid JSON payload received. Unknown name". `type` is one value ("Required. Data type."), so a list of types fails ("Proto field is not repeating, cannot start list") and a branch of `anyOf` without `type` is invalid; `enum` is a list of strings, so numbers fail ("Invalid value … (TYPE_STRING)", e.g. google-gemini/gemini-cli#2031); `items` is one schema.\n\n' +
        'Clients that send the schema through Gemini\'s newer `parametersJsonSchema` field accept more of JSON Schema; the Gemini checks describe the `parameters` field, which most clients and SDK helpers fill.',
      why: 'The API validates every tool definition of the request before the model sees any of them. One construct it does not take fails the whole request, so a single tool written for one provider makes the whole server unusable on another, and the agent has no tools at all.',
      fix: 'Adds `type: object` to an input schema that has no `type`. Other constructs need a rewrite that changes what other providers see (inlining `$ref`s, `nullable` instead of a type list), so they are left to you.',
      options: '- `providers` (default all: `openai`, `anthropic`, `gemini`): whose restrictions apply. The provider presets set this to their own provider.',
    },
  },
  checkTool(tool, ctx) {
    if (tool.schemaStyle !== 'json-schema') return;
    const chosen = new Set((Array.isArray(ctx.options.providers) ? ctx.options.providers : PROVIDERS).filter((p) => p in LABEL));
    const whoOf = (list: Provider[]): string | null => {
      const hit = list.filter((p) => chosen.has(p));
      const names = hit.map((p) => LABEL[p]);
      return names.length === 0 ? null : names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
    };
    const report = (v: SchemaVisit, messageId: string, who: string, data: Record<string, string>, loc: Loc, fix: Fix | null = null): void => {
      ctx.report({ messageId, data: { who, s: who.includes(' and ') ? '' : 's', ...data }, tool, parameter: v.param, loc, fix });
    };
    const gemini = whoOf(['gemini']);
    walkSchema(tool, (v) => {
      const s = v.schema;
      if (v.via === 'root') checkRoot(tool, v, whoOf, report);
      if (gemini === null) return false;
      // Below a field Gemini does not know, the whole subtree goes with it: one finding is enough.
      if (v.via === 'defs' || v.via === 'oneOf' || v.via === 'allOf' || v.via === 'additionalProperties') return false;
      const param = v.param ?? 'input schema';
      for (const key of Object.keys(s)) {
        if (GEMINI_FIELDS.has(key) || INTERNAL.has(key) || !keywordInSource(v.origin, key)) continue;
        report(v, 'keyword', gemini, { keyword: key }, keywordLoc(v.origin, key));
      }
      if (Array.isArray(s.type) && keywordInSource(v.origin, 'type')) report(v, 'typeList', gemini, {}, keywordLoc(v.origin, 'type', 'value'));
      if (Array.isArray(s.items) && keywordInSource(v.origin, 'items')) report(v, 'tuple', gemini, { param }, keywordLoc(v.origin, 'items'));
      if (needsType(v)) report(v, v.via === 'anyOf' ? 'branchType' : 'typeMissing', gemini, { param, where: v.param === null ? 'the input schema' : `\`${v.param}\`` }, selfLoc(v.origin));
      if (Array.isArray(s.enum) && keywordInSource(v.origin, 'enum')) {
        const i = s.enum.findIndex((x) => typeof x !== 'string');
        if (i >= 0) report(v, 'enumType', gemini, { value: JSON.stringify(s.enum[i]), param }, { path: [...v.origin.path, 'enum', i], target: 'value' });
      }
    });
  },
});

type Report = (v: SchemaVisit, messageId: string, who: string, data: Record<string, string>, loc: Loc, fix?: Fix | null) => void;

function checkRoot(tool: Tool, v: SchemaVisit, whoOf: (list: Provider[]) => string | null, report: Report): void {
  const s = v.schema;
  const combinators = whoOf(ROOT_COMBINATOR);
  if (combinators !== null) {
    for (const kw of COMBINATORS) if (kw in s && keywordInSource(v.origin, kw)) report(v, 'rootCombinator', combinators, { keyword: kw }, keywordLoc(v.origin, kw));
  }
  const who = whoOf(ROOT_OBJECT);
  if (who === null || s.type === 'object') return;
  if ('type' in s) {
    report(v, 'rootType', who, {}, keywordLoc(v.origin, 'type', 'value'));
    return;
  }
  // Tool arguments are always an object, so saying so changes nothing for a valid call.
  const fix: Fix | null = keywordInSource(v.origin, 'type') ? { title: 'Add `type: object`', ops: [{ op: 'set', path: [...v.origin.path, 'type'], value: 'object' }] } : null;
  report(v, 'rootType', who, {}, selfLoc(v.origin), fix);
}

/**
 * A schema Gemini cannot type: a branch of `anyOf` without `type`, or a parameter typed only by
 * `enum`. Parameters typed by nothing are `schema-type-missing`'s; `$ref` and the
 * other combinators are reported as unknown fields.
 */
function needsType(v: SchemaVisit): boolean {
  const s = v.schema;
  if ('type' in s || 'anyOf' in s || REPORTED_ELSEWHERE.some((k) => k in s)) return false;
  if (v.via === 'anyOf') return true;
  if (v.via !== 'properties' && v.via !== 'items') return false;
  return TYPED_BY.some((k) => k in s) && isObject(s);
}
