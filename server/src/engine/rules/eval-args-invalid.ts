import { isObject, type Schema, type Tool } from '../model';
import type { JsonPath } from '../types';
import { checkValue, draftOf } from '../util/ajv';
import { closestName } from '../util/text';
import { defineRule, type Fix } from './api';

export default defineRule({
  meta: {
    id: 'eval-args-invalid',
    description: "Require `must_call` arguments to be valid against the tool's input schema",
    severity: 'error',
    recommended: true,
    fixable: 'never',
    hasSuggestions: true,
    scope: 'eval',
    messages: {
      invalid: 'Argument `{{arg}}` of `{{tool}}`: {{value}} {{reason}}',
      unknown: '`{{tool}}` has no parameter `{{arg}}`{{hint}}',
    },
    docs: {
      what:
        "Checks the `args` of each `assertions.must_call` entry against the input schema of the tool it names, with ajv: each argument given must be a parameter of the tool, and its value must be valid for that parameter (type, `enum`, `format`, bounds, pattern, nested items and properties). Only the arguments written are checked: seed 003's matching is partial, so a required parameter left out of `args` is fine. A `null` value is accepted for a parameter whose default is `null`. Works for every tool format the linter loads (an MXCP parameter list is checked as the JSON Schema it stands for). Tools the catalogue does not have are `eval-tool-unknown`'s to report; a tool whose schema allows extra properties (`additionalProperties`, `patternProperties`) or cannot be compiled on its own is not checked for names or values it cannot judge.",
      why:
        "The model only ever calls a tool with arguments its schema allows, and seed 003's runner compares values exactly (case-sensitive, with types). An expected `limit: \"10\"` for an integer parameter, `order: Ascending` for an enum of `asc`/`desc`, or an argument the tool does not have can never match a real call, so the test fails on every run and points at the wrong culprit: the tool's description looks bad when the eval is wrong.",
      fix: 'Suggests the value the schema accepts when one is obvious (the enum value that differs only in case, `"10"` → `10`, `"true"` → `true`, `42` → `"42"`), and renames an unknown argument to the closest parameter name.',
    },
  },
  checkEval(suite, ctx) {
    const tests = suite.data.tests;
    if (!Array.isArray(tests)) return;
    tests.forEach((t, i) => {
      if (!isObject(t) || !isObject(t.assertions) || !Array.isArray(t.assertions.must_call)) return;
      const test = typeof t.name === 'string' ? t.name : null;
      t.assertions.must_call.forEach((c, j) => {
        if (!isObject(c) || typeof c.tool !== 'string' || !isObject(c.args)) return;
        const tools = (ctx.catalog.byName.get(c.tool) ?? []).filter((x) => isObject(x.inputSchema));
        if (tools.length === 0) return;
        const argsPath: JsonPath = [...suite.path, 'tests', i, 'assertions', 'must_call', j, 'args'];
        for (const [arg, value] of Object.entries(c.args)) {
          const path = [...argsPath, arg];
          // The finding sits in the eval file (an explicit `file` wins) but names the tool it is about.
          const base = { file: suite.file, doc: suite.doc, test, parameter: arg, tool: tools[0] };
          const found = tools.map((tool) => ({ tool, ...paramOf(tool, arg) }));
          // A same-named tool that takes any argument accepts this one, whatever its value.
          if (found.some((f) => f.open && f.schema === null)) continue;
          const withParam = found.filter((f): f is typeof f & { schema: Schema } => f.schema !== null);
          if (withParam.length === 0) {
            const params = [...new Set(found.flatMap((f) => f.names))];
            const taken = Object.keys(c.args);
            const near = closestName(arg, params.filter((p) => !taken.includes(p)));
            const hint = near ? ` (did you mean \`${near}\`?)` : params.length === 0 ? '; it takes no parameters' : `; it takes ${list(params)}`;
            const suggestions: Fix[] = near ? [{ title: `Rename to \`${near}\``, ops: [{ op: 'renameKey', path, key: near }] }] : [];
            ctx.report({ ...base, messageId: 'unknown', data: { tool: c.tool, arg, hint }, loc: { path, target: 'key' }, suggestions });
            continue;
          }
          const reasons = withParam.map((f) => judge(f.tool, f.schema, value));
          if (reasons.some((r) => r === null)) continue;
          const reason = reasons[0]!;
          const better = repair(value, withParam.map((f) => ({ tool: f.tool, schema: f.schema })));
          const suggestions: Fix[] = better === undefined ? [] : [{ title: `Write ${short(better)}`, ops: [{ op: 'set', path, value: better }] }];
          ctx.report({ ...base, messageId: 'invalid', data: { tool: c.tool, arg, value: short(value), reason }, loc: { path, target: 'value' }, suggestions });
        }
      });
    });
  },
});

interface Param {
  /** The parameter's schema, or null when the tool has no such parameter. */
  schema: Schema | null;
  /** Whether the tool takes arguments it does not name (nothing can be said about names). */
  open: boolean;
  /** The parameter names the tool declares. */
  names: string[];
}

/**
 * The schema of parameter `name`, from `properties` of the root and of its `allOf`/`anyOf`/
 * `oneOf` branches. A schema that declares no `properties` at all, or admits more
 * (`additionalProperties`, `patternProperties`, a `$ref`), is open: nothing is said about names.
 */
function paramOf(tool: Tool, name: string): Param {
  const out: Param = { schema: null, open: false, names: [] };
  let declared = false;
  const visit = (s: Schema, depth: number): void => {
    if (typeof s.$ref === 'string' || isObject(s.patternProperties) || s.additionalProperties === true || isObject(s.additionalProperties) || depth > 4) out.open = true;
    if (isObject(s.properties)) {
      declared = true;
      for (const [k, v] of Object.entries(s.properties)) {
        if (!out.names.includes(k)) out.names.push(k);
        if (k === name && out.schema === null) out.schema = isObject(v) ? v : {};
      }
    }
    for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[k])) for (const b of s[k] as unknown[]) if (isObject(b)) visit(b, depth + 1);
  };
  visit(tool.inputSchema!, 0);
  if (!declared) out.open = true;
  return out;
}

/**
 * Why `value` is not valid for the parameter: a reason, or null when it is valid or cannot be
 * checked. Local `$ref`s resolve against the tool's `$defs`/`definitions`.
 */
function judge(tool: Tool, schema: Schema, value: unknown): string | null {
  if (value === null && (schema.default === null || schema.nullable === true)) return null;
  const root = tool.inputSchema!;
  const { draft } = draftOf(root);
  const withDefs: Schema = { ...schema };
  for (const k of ['$defs', 'definitions']) if (isObject(root[k]) && !(k in withDefs)) withDefs[k] = root[k];
  return checkValue(withDefs, value, draft) ?? null;
}

/** A value the schema accepts that is plainly what was meant, or undefined. */
function repair(value: unknown, params: { tool: Tool; schema: Schema }[]): unknown {
  const candidates: unknown[] = [];
  if (typeof value === 'string') {
    const t = value.trim();
    if (/^[-+]?\d+(\.\d+)?$/.test(t)) candidates.push(Number(t));
    if (/^(true|false)$/i.test(t)) candidates.push(t.toLowerCase() === 'true');
    for (const p of params) {
      if (Array.isArray(p.schema.enum)) for (const e of p.schema.enum) if (typeof e === 'string' && e.toLowerCase() === t.toLowerCase()) candidates.push(e);
    }
  } else if (typeof value === 'number' || typeof value === 'boolean') {
    candidates.push(String(value));
  }
  return candidates.find((c) => c !== value && params.some((p) => judge(p.tool, p.schema, c) === null));
}

function list(names: string[]): string {
  const shown = names.slice(0, 8).map((n) => '`' + n + '`');
  return shown.join(', ') + (names.length > 8 ? `, … (${names.length} in all)` : '');
}

function short(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? s.slice(0, 37) + '…' : s;
}
