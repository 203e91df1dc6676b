/**
 * The normalised catalogue. Every format is loaded into these shapes; rules see only these.
 * Each tool keeps the JSON paths back into its file, and each schema object of its input
 * schema has an `Origin` saying where it (and each of its keywords) stands in the source, so a
 * finding on a synthesised schema (an MXCP parameter list, a REST parameter map) still points
 * at the user's text.
 */
import { findNode, settleTree, type Lang, type ParseResult, type SNode } from './parse/tree';
import { LazyJsonDoc } from './parse/json';
import type { JsonPath } from './types';
import type { RequiredPolicy } from './load/normalize';
import { LineIndex } from './util/lines';

export type JsonObject = Record<string, unknown>;
export type Schema = JsonObject;

export type FileKind = 'tools' | 'eval' | 'unknown';

export type SchemaStyle = 'json-schema' | 'param-list' | 'param-map' | 'none';

export interface Origin {
  /** Path of the source entry that holds this schema (what a removal deletes). */
  path: JsonPath;
  /** Path a finding about the schema itself points at, and whether at its key or its value. */
  self: JsonPath;
  selfTarget: 'key' | 'value';
  /** Keywords whose source path is not `path + [keyword]`; `null` means synthesised (no source). */
  keys?: Record<string, JsonPath | null>;
}

export class SourceFile {
  format = 'unknown';
  kind: FileKind = 'unknown';
  /** Why the file is not a tool or eval file. */
  reason: string | null = null;
  tools: Tool[] = [];
  evalSuite: EvalSuite | null = null;
  /** Set when the file was named explicitly (not found by searching a folder). */
  explicit = false;
  /** How the file's parameter lists mark required entries (set when tools were found). */
  requiredPolicy: RequiredPolicy | null = null;
  private _lines: LineIndex | undefined;

  constructor(
    readonly path: string,
    readonly text: string,
    readonly lang: Lang,
    readonly parsed: ParseResult,
    readonly bom: boolean,
    /** Editor version of the text (language server), or 0. */
    readonly version = 0,
  ) {}

  get lines(): LineIndex {
    return (this._lines ??= new LineIndex(this.text));
  }

  /** The line index when it is already known (an incremental edit derives it from the old one). */
  get knownLines(): LineIndex | undefined {
    return this._lines;
  }

  adoptLines(lines: LineIndex): void {
    if (lines.text !== this.text) throw new Error('line index of another text');
    this._lines = lines;
  }

  root(doc = 0): SNode | undefined {
    return this.parsed.docs[doc]?.root;
  }

  /**
   * `findNode(this.root(doc), path, wantProperty)`, except that a JSON document whose tree is not
   * built yet reads the one node from its text (without a `parent`): for what only needs a node's
   * place and value (a finding's range, a quoted span).
   */
  find(doc: number, path: JsonPath, wantProperty = false): SNode | undefined {
    const d = this.parsed.docs[doc];
    if (d instanceof LazyJsonDoc) return d.find(path, wantProperty);
    return findNode(d?.root, path, wantProperty);
  }

  /**
   * Every node of the file's trees in place (see `SNode.lag`), before something reads them freely.
   * A tree not built yet has nothing to move, and is not built for this.
   */
  settle(): void {
    for (const d of this.parsed.docs) if (!(d instanceof LazyJsonDoc) || d.built) settleTree(d.root);
  }

  /** Whether the document has a tree (built or to be built): false for an empty or unreadable one. */
  hasTree(doc = 0): boolean {
    const d = this.parsed.docs[doc];
    return d instanceof LazyJsonDoc || d?.root !== undefined;
  }
}

export interface Tool {
  file: SourceFile;
  doc: number;
  /** Index of the tool in its file. */
  index: number;
  /** Path of the tool object. */
  path: JsonPath;
  name: string | null;
  /** Where the name is written: a `name` value, or a map key (keyed catalogues). */
  namePath: JsonPath;
  nameTarget: 'key' | 'value';
  description: string | null;
  /** Path of the description value (or where one would go: the tool object). */
  descriptionPath: JsonPath | null;
  /** Normalised JSON Schema of the input, or null when the format has none. */
  inputSchema: Schema | null;
  schemaStyle: SchemaStyle;
  /** Key under which the schema is written (`inputSchema`, `parameters`, …), or null. */
  schemaKey: string | null;
  annotations: JsonObject;
  annotationsPath: JsonPath | null;
  category: string | null;
  /** Server or group a multi-server dump files the tool under. */
  group: string | null;
  /** The raw tool object as written. */
  raw: JsonObject;
  /** Where each schema object comes from. */
  origins: Map<object, Origin>;
}

export interface EvalSuite {
  file: SourceFile;
  doc: number;
  path: JsonPath;
  name: string | null;
  data: JsonObject;
}

export interface Catalog {
  files: SourceFile[];
  tools: Tool[];
  /** Tools by name (several when a name is duplicated). */
  byName: Map<string, Tool[]>;
  evals: EvalSuite[];
}

export function buildCatalog(files: SourceFile[]): Catalog {
  const tools: Tool[] = [];
  const byName = new Map<string, Tool[]>();
  const evals: EvalSuite[] = [];
  for (const f of files) {
    for (const t of f.tools) {
      tools.push(t);
      if (t.name !== null) {
        const list = byName.get(t.name);
        if (list) list.push(t);
        else byName.set(t.name, [t]);
      }
    }
    if (f.evalSuite) evals.push(f.evalSuite);
  }
  return { files, tools, byName, evals };
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
