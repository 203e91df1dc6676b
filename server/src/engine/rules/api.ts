/**
 * The rule API. A rule is one file named by its id, exporting `meta` and one or more `check*`
 * functions. Rules report JSON paths (`Loc`), never ranges: the runner resolves ranges, so a
 * rule works the same on YAML and JSON and on every format's normalised schema.
 */
import type { Catalog, EvalSuite, SourceFile, Tool } from '../model';
import type { Loc } from '../schema';
import type { JsonPath, Severity } from '../types';

export type Fixable = 'never' | 'sometimes' | 'always';
export type Scope = 'file' | 'tool' | 'catalog' | 'eval';

/**
 * Prose docs of a rule. Its Example (a whole tool file that triggers the rule) and Use-instead
 * (the same file, fixed) live in `docs/rules/examples/<id>.yaml` and `<id>.fixed.yaml`, so that
 * rule code names no tools at all; the docs generator and a test read them from there.
 */
export interface RuleDocs {
  /** What the rule finds (one paragraph). */
  what: string;
  /** Why an agent fails when this is left in. */
  why: string;
  /** What the fix or suggestion does, if any. */
  fix?: string;
  /** Options, as Markdown. */
  options?: string;
}

export interface RuleMeta {
  id: string;
  /** Imperative: "Require …", "Disallow …". */
  description: string;
  severity: Severity;
  /** In the `recommended` preset. */
  recommended: boolean;
  fixable: Fixable;
  hasSuggestions: boolean;
  scope: Scope;
  /** Messages by id, with `{{placeholders}}`. */
  messages: Record<string, string>;
  /** JSON Schema of the options object, and the defaults. */
  options?: { schema: Record<string, unknown>; defaults: Record<string, unknown> };
  docs: RuleDocs;
}

/** A declarative edit, resolved to text edits by `fix/edits.ts` against the file's source. */
export type EditOp =
  | { op: 'remove'; path: JsonPath }
  | { op: 'removeItemValue'; path: JsonPath; value: unknown }
  | { op: 'set'; path: JsonPath; value: unknown }
  | { op: 'appendText'; path: JsonPath; text: string }
  | { op: 'addItem'; path: JsonPath; value: unknown }
  | { op: 'renameKey'; path: JsonPath; key: string }
  | { op: 'replaceString'; path: JsonPath; value: string }
  /** A raw text edit (offsets into the file's text); for findings on comments. */
  | { op: 'text'; start: number; end: number; text: string };

export interface Fix {
  /** Imperative title ("Add `minItems: 1`"). */
  title: string;
  ops: EditOp[];
}

export interface Report {
  messageId: string;
  data?: Record<string, string | number>;
  loc: Loc;
  /** The tool concerned (sets the file, document and `tool` field). */
  tool?: Tool | null;
  /** For findings not tied to a tool. */
  file?: SourceFile;
  doc?: number;
  parameter?: string | null;
  test?: string | null;
  /** A safe fix (applied by `--fix`). */
  fix?: Fix | null;
  /** Changes that need a human's judgement (quick fixes only). */
  suggestions?: Fix[];
  /** A raw text span, for findings that have no JSON path (syntax errors, comments). */
  span?: { offset: number; length: number };
  /** Lower the configured severity for weak evidence (never raises it). */
  weak?: boolean;
}

export interface RuleContext<O = Record<string, unknown>> {
  catalog: Catalog;
  options: O;
  report(r: Report): void;
  /**
   * Catalogue rules with a `contribution`: the tools whose findings are wanted. The rule still
   * builds its view of the catalogue from every tool, and reports only on these (every report
   * naming its `tool`). Absent: report on every tool.
   */
  only?: ReadonlySet<Tool>;
  /**
   * With `only`: an id of the catalogue view (every tool's contribution, in order, and the
   * options). Equal ids mean equal views, so what a rule builds from the contributions alone can
   * be kept from one run to the next (`perView`).
   */
  view?: number;
}

const views = new WeakMap<object, { view: number; value: unknown }>();

/**
 * What `build` makes from the tools' contributions (and the options), kept while the view stays
 * the same. `owner` names the rule's index (any object of the rule's module). The value must not
 * hold `Tool` objects: an edited tool is a new object with the same contribution.
 */
export function perView<T>(ctx: RuleContext<any>, owner: object, build: () => T): T {
  if (ctx.view === undefined) return build();
  const hit = views.get(owner);
  if (hit && hit.view === ctx.view) return hit.value as T;
  const value = build();
  views.set(owner, { view: ctx.view, value });
  return value;
}

export interface Rule<O = Record<string, unknown>> {
  meta: RuleMeta;
  checkFile?(file: SourceFile, ctx: RuleContext<O>): void;
  checkTool?(tool: Tool, ctx: RuleContext<O>): void;
  checkCatalog?(catalog: Catalog, ctx: RuleContext<O>): void;
  /**
   * For a catalogue rule whose findings are each about one tool: everything the rule reads of
   * `tool` to judge the *other* tools (names, servers, vocabularies), as JSON-able data, and
   * nothing else. The rule builds its catalogue-wide view from these values only. An editor can
   * then keep a tool's findings while neither the tool nor any contribution changed, and re-check
   * only edited tools (`RuleContext.only`).
   */
  contribution?(tool: Tool, options: O): unknown;
  checkEval?(suite: EvalSuite, ctx: RuleContext<O>): void;
}

export function defineRule<O = Record<string, unknown>>(rule: Rule<O>): Rule<O> {
  return rule;
}

export function formatMessage(template: string, data: Record<string, string | number> | undefined): string {
  if (!data) return template;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, k: string) => (k in data ? String(data[k]) : m));
}
