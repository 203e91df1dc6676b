/**
 * `.mcp-tool-lint.yaml`: discovery (walking up from each linted file), validation with the
 * file, line and key of every mistake, presets, per-glob overrides and ignores.
 * A config is data only: nothing in it is ever loaded as code.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { isObject, SourceFile } from '../model';
import { parseText, detectLang } from '../parse';
import { resolveLoc } from '../resolve';
import type { JsonPath, SeverityOrOff } from '../types';
import { allRules, getRule } from '../rules';
import { compile } from '../util/ajv';
import { closestName } from '../util/text';

export const CONFIG_NAMES = ['.mcp-tool-lint.yaml', '.mcp-tool-lint.yml', '.mcp-tool-lint.json'];
const SEVERITIES = ['off', 'info', 'warning', 'error'];
const TOP_KEYS = ['extends', 'rules', 'ignore', 'overrides', 'maxFileSize', 'toolFiles', 'root'];
const OVERRIDE_KEYS = ['files', 'excludedFiles', 'rules'];

export class ConfigError extends Error {
  constructor(message: string, readonly file: string | null = null, readonly line = 0, readonly column = 0) {
    super(file ? `${file}${line ? `:${line}:${column}` : ''}: ${message}` : message);
  }
}

export interface RuleSetting {
  severity: SeverityOrOff;
  options: Record<string, unknown>;
}

type RawRules = Record<string, { severity: SeverityOrOff; options?: Record<string, unknown> }>;

export interface Config {
  /** The config file, or null for built-in defaults. */
  path: string | null;
  dir: string;
  extends: string[];
  rules: RawRules;
  ignore: string[];
  overrides: { files: string[]; excludedFiles: string[]; rules: RawRules }[];
  maxFileSize: number | null;
  toolFiles: string[];
}

export interface Preset {
  name: string;
  description: string;
  rules(): RawRules;
}

export const PRESETS: Record<string, Preset> = {
  recommended: {
    name: 'recommended',
    description: 'Every rule that is right on almost every catalogue, at its default severity.',
    // Only its own rules: presets compose in any order (`extends: [openai, recommended]`).
    rules: () => Object.fromEntries(allRules().filter((r) => r.meta.recommended).map((r) => [r.meta.id, { severity: r.meta.severity }])),
  },
  all: {
    name: 'all',
    description: 'Every rule, at its default severity.',
    rules: () => Object.fromEntries(allRules().map((r) => [r.meta.id, { severity: r.meta.severity }])),
  },
  strict: {
    name: 'strict',
    description: 'Every rule, with warnings raised to errors (for CI gates).',
    rules: () => Object.fromEntries(allRules().map((r) => [r.meta.id, { severity: r.meta.severity === 'warning' ? 'error' : r.meta.severity }])),
  },
  // Provider profiles: only the rules about one API's limits, so they stack on `recommended`.
  // Each names its provider in the rules' `providers` option; `tool-name-invalid`'s default
  // pattern is already OpenAI's and Anthropic's.
  openai: {
    name: 'openai',
    description: 'OpenAI function calling: tool names, at most 128 tools, `type: object` input schemas, strict-mode (Structured Outputs) schemas and a token budget.',
    rules: () => ({
      'tool-name-invalid': { severity: 'error' },
      'tool-count-exceeded': { severity: 'warning', options: { providers: ['openai'] } },
      'token-budget-exceeded': { severity: 'warning' },
      'schema-provider-unsupported': { severity: 'warning', options: { providers: ['openai'] } },
      'schema-strict-incompatible': { severity: 'warning' },
    }),
  },
  anthropic: {
    name: 'anthropic',
    description: 'Anthropic tool use: tool names, `type: object` input schemas without a top-level `anyOf`/`oneOf`/`allOf`, and a token budget.',
    rules: () => ({
      'tool-name-invalid': { severity: 'error' },
      'token-budget-exceeded': { severity: 'warning' },
      'schema-provider-unsupported': { severity: 'warning', options: { providers: ['anthropic'] } },
    }),
  },
  gemini: {
    name: 'gemini',
    description: "Gemini function calling: tool names that start with a letter or `_`, at most 128 tools, the API's OpenAPI schema subset, and a token budget.",
    rules: () => ({
      // Gemini also takes `.` and `:` in names, the other APIs do not: the preset only tightens.
      'tool-name-invalid': { severity: 'error', options: { pattern: '^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$', maxLength: 64 } },
      'tool-count-exceeded': { severity: 'warning', options: { providers: ['gemini'] } },
      'token-budget-exceeded': { severity: 'warning' },
      'schema-provider-unsupported': { severity: 'warning', options: { providers: ['gemini'] } },
    }),
  },
};

export function defaultConfig(dir = process.cwd()): Config {
  return { path: null, dir, extends: ['recommended'], rules: {}, ignore: [], overrides: [], maxFileSize: null, toolFiles: [] };
}

/** Nearest config file at or above `dir`. */
export function findConfigFile(dir: string): string | null {
  let d = resolve(dir);
  for (;;) {
    const p = configFileIn(d);
    if (p) return p;
    const up = dirname(d);
    if (up === d) return null;
    d = up;
  }
}

/** The config file of a folder itself (not of its parents), if it has one. */
export function configFileIn(dir: string): string | null {
  for (const n of CONFIG_NAMES) {
    const p = join(dir, n);
    if (existsSync(p)) return p;
  }
  return null;
}

export function loadConfigFile(path: string): Config {
  let text: string;
  try {
    if (!statSync(path).isFile()) throw new ConfigError('not a file', path);
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(`cannot read the config file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, path);
  }
  return parseConfig(text, path);
}

export function parseConfig(text: string, path: string): Config {
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lang = detectLang(path, clean);
  const parsed = parseText(clean, lang);
  const file = new SourceFile(path, clean, lang, parsed, false);
  const err = (msg: string, p: JsonPath, target: 'key' | 'value' = 'key'): ConfigError => {
    const r = resolveLoc(file, 0, p, target);
    return new ConfigError(msg, path, r.range.start.line, r.range.start.column);
  };
  const syntax = parsed.problems.find((p) => p.kind === 'parse-error');
  if (syntax) {
    const pos = file.lines.position(syntax.offset);
    throw new ConfigError(`invalid ${lang.toUpperCase()}: ${syntax.message}`, path, pos.line, pos.column);
  }
  const data = parsed.docs[0]?.data ?? {};
  if (data === null) return { ...defaultConfig(dirname(path)), path };
  if (!isObject(data)) throw err('the config must be a mapping of keys (extends, rules, ignore, overrides)', [], 'value');
  const cfg: Config = { ...defaultConfig(dirname(resolve(path))), path, extends: [] };
  for (const k of Object.keys(data)) {
    if (!TOP_KEYS.includes(k)) throw err(`unknown key \`${k}\`; allowed: ${TOP_KEYS.filter((x) => x !== 'root').join(', ')}`, [k]);
  }
  if ('extends' in data) {
    const ex = typeof data.extends === 'string' ? [data.extends] : data.extends;
    if (!Array.isArray(ex)) throw err('`extends` must be a preset name or a list of them', ['extends'], 'value');
    ex.forEach((name, i) => {
      if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(PRESETS, name)) {
        const looksLikeCode = typeof name === 'string' && /[/\\]|\.(c|m)?[jt]s$/.test(name);
        throw err(
          `unknown preset ${JSON.stringify(name)}${looksLikeCode ? ' (configs are data: paths and modules are never loaded)' : ''}; allowed: ${Object.keys(PRESETS).join(', ')}`,
          typeof data.extends === 'string' ? ['extends'] : ['extends', i],
          'value',
        );
      }
      cfg.extends.push(name);
    });
  } else cfg.extends = ['recommended'];
  if ('rules' in data) cfg.rules = parseRules(data.rules, ['rules'], err);
  if ('ignore' in data) cfg.ignore = stringList(data.ignore, ['ignore'], err);
  if ('toolFiles' in data) cfg.toolFiles = stringList(data.toolFiles, ['toolFiles'], err);
  if ('maxFileSize' in data) {
    const v = data.maxFileSize;
    if (typeof v !== 'number' || !(v > 0)) throw err('`maxFileSize` must be a positive number of bytes', ['maxFileSize'], 'value');
    cfg.maxFileSize = v;
  }
  if ('overrides' in data) {
    if (!Array.isArray(data.overrides)) throw err('`overrides` must be a list of `{files, rules}`', ['overrides'], 'value');
    data.overrides.forEach((o, i) => {
      if (!isObject(o)) throw err('each override must be a mapping with `files` and `rules`', ['overrides', i], 'value');
      for (const k of Object.keys(o)) if (!OVERRIDE_KEYS.includes(k)) throw err(`unknown key \`${k}\` in an override; allowed: ${OVERRIDE_KEYS.join(', ')}`, ['overrides', i, k]);
      if (!('files' in o)) throw err('an override needs `files` (a list of globs)', ['overrides', i], 'value');
      cfg.overrides.push({
        files: stringList(o.files, ['overrides', i, 'files'], err),
        excludedFiles: 'excludedFiles' in o ? stringList(o.excludedFiles, ['overrides', i, 'excludedFiles'], err) : [],
        rules: 'rules' in o ? parseRules(o.rules, ['overrides', i, 'rules'], err) : {},
      });
    });
  }
  return cfg;
}

type ErrFn = (msg: string, p: JsonPath, target?: 'key' | 'value') => ConfigError;

function stringList(v: unknown, at: JsonPath, err: ErrFn): string[] {
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) throw err(`\`${at[at.length - 1]}\` must be a list of glob strings`, at, 'value');
  return list as string[];
}

function parseRules(v: unknown, at: JsonPath, err: ErrFn): RawRules {
  if (!isObject(v)) throw err('`rules` must map rule ids to a severity (off, info, warning, error) or [severity, {options}]', at, 'value');
  const out: RawRules = {};
  for (const [id, setting] of Object.entries(v)) {
    const rule = getRule(id);
    if (!rule) throw err(`unknown rule \`${id}\`${suggest(id, allRules().map((r) => r.meta.id))}; run \`mcp-tool-lint rules\` for the list`, [...at, id]);
    let sev: unknown = setting;
    let opts: unknown;
    if (Array.isArray(setting)) {
      [sev, opts] = setting;
      if (setting.length > 2) throw err(`\`${id}\` takes [severity] or [severity, {options}]`, [...at, id], 'value');
    }
    if (typeof sev !== 'string' || !SEVERITIES.includes(sev)) throw err(`invalid severity ${JSON.stringify(sev)} for \`${id}\`; allowed: ${SEVERITIES.join(', ')}`, [...at, id], 'value');
    const entry: RawRules[string] = { severity: sev as SeverityOrOff };
    if (opts !== undefined) {
      entry.options = validateOptions(id, opts, (m, sub) => err(m, [...at, id, 1, ...sub], 'key'));
    }
    out[id] = entry;
  }
  return out;
}

export function validateOptions(id: string, opts: unknown, err: (msg: string, sub: JsonPath) => Error): Record<string, unknown> {
  const rule = getRule(id)!;
  const schema = rule.meta.options?.schema;
  if (!schema) throw err(`rule \`${id}\` takes no options`, []);
  if (!isObject(opts)) throw err(`options of \`${id}\` must be a mapping`, []);
  const known = Object.keys((schema.properties as Record<string, unknown>) ?? {});
  for (const k of Object.keys(opts)) if (!known.includes(k)) throw err(`unknown option \`${k}\` for \`${id}\`; allowed: ${known.join(', ') || '(none)'}`, [k]);
  const validate = compile(schema);
  if (!validate(opts)) {
    const e = validate.errors![0];
    const sub = e.instancePath.split('/').filter(Boolean);
    throw err(`option \`${sub.join('.') || id}\` ${e.message}`, sub);
  }
  return opts;
}

function suggest(word: string, candidates: string[]): string {
  const best = closestName(word, candidates);
  return best ? ` (did you mean \`${best}\`?)` : '';
}

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

const matcherCache = new Map<string, (p: string) => boolean>();
function matcher(glob: string): (p: string) => boolean {
  let m = matcherCache.get(glob);
  if (!m) {
    const full = picomatch(glob, { dot: true });
    const base = glob.includes('/') ? null : picomatch(glob, { dot: true, basename: true });
    const dirGlob = glob.endsWith('/**') ? null : picomatch(glob.replace(/\/$/, '') + '/**', { dot: true });
    m = (p: string) => full(p) || (base ? base(p) : false) || (dirGlob ? dirGlob(p) : false);
    matcherCache.set(glob, m);
  }
  return m;
}

/** Whether a file (absolute path) matches one of the globs, relative to the config's folder. */
export function matchesAny(cfg: Config, absPath: string, globs: string[]): boolean {
  if (globs.length === 0) return false;
  const rel = toPosix(relative(cfg.dir, absPath));
  return globs.some((g) => matcher(g.replace(/^\.\//, ''))(rel));
}

export function isIgnored(cfg: Config, absPath: string): boolean {
  return matchesAny(cfg, absPath, cfg.ignore);
}

/** Indexes of the config's `overrides` entries that apply to a file: the only part of its settings that depends on its path. */
export function matchingOverrides(cfg: Config, absPath: string): number[] {
  const out: number[] = [];
  cfg.overrides.forEach((o, i) => {
    if (matchesAny(cfg, absPath, o.files) && !matchesAny(cfg, absPath, o.excludedFiles)) out.push(i);
  });
  return out;
}

/** Effective rule settings for one file: presets, then `rules`, then matching overrides, then CLI `--rule`. */
export function ruleSettings(cfg: Config, absPath: string | null, cli: RawRules = {}): Map<string, RuleSetting> {
  const merged: RawRules = {};
  for (const p of cfg.extends) for (const [id, s] of Object.entries(PRESETS[p]?.rules() ?? {})) merged[id] = overPreset(merged[id], s);
  const apply = (rules: RawRules): void => {
    for (const [id, s] of Object.entries(rules)) {
      const prev = merged[id];
      merged[id] = { severity: s.severity, options: s.options ?? prev?.options };
    }
  };
  apply(cfg.rules);
  if (absPath) for (const i of matchingOverrides(cfg, absPath)) apply(cfg.overrides[i].rules);
  apply(cli);
  const out = new Map<string, RuleSetting>();
  for (const r of allRules()) {
    const s = merged[r.meta.id];
    const defaults = r.meta.options?.defaults ?? {};
    out.set(r.meta.id, { severity: s?.severity ?? 'off', options: { ...defaults, ...(s?.options ?? {}) } });
  }
  return out;
}

/**
 * A later preset's setting over an earlier one's: its severity, and its options key by key, with the
 * `providers` lists of the provider profiles united (`extends: [openai, gemini]` checks both). A
 * preset that sets no options keeps the earlier ones (`recommended` after `gemini` keeps Gemini's
 * name pattern).
 */
function overPreset(prev: RawRules[string] | undefined, next: RawRules[string]): RawRules[string] {
  if (!prev?.options) return next;
  if (!next.options) return { severity: next.severity, options: prev.options };
  const options: Record<string, unknown> = { ...prev.options, ...next.options };
  const a = prev.options.providers;
  const b = next.options.providers;
  if (Array.isArray(a) && Array.isArray(b)) options.providers = [...new Set([...a, ...b])];
  return { severity: next.severity, options };
}

/** Parse a CLI `--rule ID=SEVERITY`. */
export function parseCliRule(spec: string): [string, RawRules[string]] {
  const m = /^([\w-]+)\s*[=:]\s*(\w+)$/.exec(spec.trim());
  if (!m) throw new ConfigError(`--rule expects ID=off|info|warning|error, got ${JSON.stringify(spec)}`);
  const [, id, sev] = m;
  if (!getRule(id)) throw new ConfigError(`--rule: unknown rule \`${id}\`${suggest(id, allRules().map((r) => r.meta.id))}`);
  if (!SEVERITIES.includes(sev)) throw new ConfigError(`--rule: invalid severity \`${sev}\` for \`${id}\`; allowed: ${SEVERITIES.join(', ')}`);
  return [id, { severity: sev as SeverityOrOff }];
}

export type { RawRules };
