/** The one module that imports `jsonc-parser`: JSON text to our source tree, with offsets. */
import { parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { type ChildIndex, jsonShape, locateJson, readStrictJson, STRICT_MAX_DEPTH } from './fast-json';
import type { ParsedDoc, ParseProblem, ParseResult, SNode } from './tree';
import { duplicateKey, findNode, keyOf, nodeToValue } from './tree';

const MESSAGES: Record<string, string> = {
  InvalidSymbol: 'Invalid character',
  InvalidNumberFormat: 'Invalid number',
  PropertyNameExpected: 'Expected a property name in double quotes',
  ValueExpected: 'Expected a value',
  ColonExpected: 'Expected `:` after the property name',
  CommaExpected: 'Expected `,` between members',
  CloseBraceExpected: 'Expected `}`',
  CloseBracketExpected: 'Expected `]`',
  EndOfFileExpected: 'Expected the end of the file',
  InvalidCommentToken: 'Comments are not allowed in JSON',
  UnexpectedEndOfComment: 'Unterminated comment',
  UnexpectedEndOfString: 'Unterminated string',
  UnexpectedEndOfNumber: 'Unterminated number',
  InvalidUnicode: 'Invalid unicode escape',
  InvalidEscapeCharacter: 'Invalid escape character',
  InvalidCharacter: 'Invalid character in string',
};

export interface JsonParseOptions {
  /**
   * Build the source tree only when something first asks for it (`ParsedDoc.root`). A one-shot
   * run reads every file's data, but needs ranges only where a finding points (and where rules
   * quote text): on files with nothing to report, building the tree is most of the parse and of
   * the garbage collector's work. Only for valid JSON without duplicate keys, whose tree can
   * hold no problem to report.
   */
  lazyTree?: boolean;
}

export function parseJson(text: string, opts: JsonParseOptions = {}): ParseResult {
  if (opts.lazyTree) {
    const lazy = lazyJson(text);
    if (lazy) return lazy;
  }
  // Valid JSON (nearly every file) is read by the strict reader; anything else by jsonc-parser,
  // which explains what is wrong.
  const fast = readStrictJson(text);
  if (fast) {
    const problems: ParseProblem[] = [];
    findDuplicates(fast, problems, 0);
    return { lang: 'json', docs: [{ root: fast, data: JSON.parse(text) }], problems };
  }
  return parseJsonFull(text);
}

/** The text through `jsonc-parser`: every error reported, the tree recovered as far as it goes. */
export function parseJsonFull(text: string): ParseResult {
  const errors: ParseError[] = [];
  const problems: ParseProblem[] = [];
  let root: SNode | undefined;
  try {
    root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true }) as SNode | undefined;
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    problems.push({ kind: 'parse-error', message: 'Nesting is too deep to lint', offset: 0, length: 0, doc: 0 });
    return { lang: 'json', docs: [], problems };
  }
  // The parser recovers and reports follow-on errors at the same place; the first one explains it.
  const seenAt = new Set<number>();
  for (const e of errors) {
    if (seenAt.has(e.offset)) continue;
    seenAt.add(e.offset);
    const code = printParseErrorCode(e.error);
    problems.push({ kind: 'parse-error', message: MESSAGES[code] ?? code, offset: e.offset, length: e.length, doc: 0 });
  }
  if (root) findDuplicates(root, problems, 0);
  let data: unknown = null;
  if (root) {
    if (errors.length === 0) {
      try {
        data = JSON.parse(text);
      } catch {
        data = nodeToValue(root);
      }
    } else {
      data = nodeToValue(root);
    }
  }
  return { lang: 'json', docs: [{ root, data }], problems };
}

function findDuplicates(node: SNode, problems: ParseProblem[], depth: number): void {
  const kids = node.children;
  if (!kids || depth > 2000) return;
  if (node.type === 'object' && kids.length > 1) {
    const report = (p: SNode, k: string): void => {
      const kn = p.children![0];
      problems.push(duplicateKey(k, kn.offset, kn.length));
    };
    if (kids.length <= 8) {
      // Small objects (most of them): comparing keys pairwise beats building a set.
      for (let i = 1; i < kids.length; i++) {
        const k = keyOf(kids[i]);
        for (let j = 0; j < i; j++) {
          if (keyOf(kids[j]) === k) {
            report(kids[i], k);
            break;
          }
        }
      }
    } else {
      const seen = new Set<string>();
      for (const p of kids) {
        const k = keyOf(p);
        if (seen.has(k)) report(p, k);
        seen.add(k);
      }
    }
  }
  for (const c of kids) if (c.children) findDuplicates(c, problems, depth + 1);
}

/**
 * The text's data, with its tree left to be built on first use; null when the text is not valid
 * JSON, nests deeper than the strict reader goes, or repeats a key (the eager path reports that).
 */
function lazyJson(text: string): ParseResult | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const shape = jsonShape(text);
  // `JSON.parse` keeps the last of repeated keys: fewer keys than members written means a repeat.
  if (shape.depth > STRICT_MAX_DEPTH || countKeys(data, 0) !== shape.members) return null;
  return { lang: 'json', docs: [new LazyJsonDoc(text, data)], problems: [] };
}

/** A document whose tree is read from its text the first time it is asked for. */
export class LazyJsonDoc implements ParsedDoc {
  private tree: SNode | undefined;
  private text: string | null;

  constructor(
    text: string,
    readonly data: unknown,
  ) {
    this.text = text;
  }

  get root(): SNode | undefined {
    if (this.text !== null) {
      const text = this.text;
      this.text = null;
      // From now on `find` searches the tree: what was skimmed is of no more use.
      this.index = null;
      this.tree = readStrictJson(text) ?? parseJsonFull(text).docs[0]?.root;
    }
    return this.tree;
  }

  /** Whether the tree has been built (tests and measurements). */
  get built(): boolean {
    return this.text === null;
  }

  private index: Map<number, ChildIndex> | null = null;

  /**
   * `findNode(this.root, path, wantProperty)`, without building the tree while it is not built:
   * the node is read alone from the text (see `locateJson`; it has no `parent`). A run that
   * reports a few findings in a large file reads those nodes, not the whole file.
   */
  find(path: readonly (string | number)[], wantProperty: boolean): SNode | undefined {
    if (this.text === null) return findNode(this.tree, path, wantProperty);
    return locateJson(this.text, path, wantProperty, (this.index ??= new Map()));
  }
}

/** Keys of every object in a JSON value. */
function countKeys(v: unknown, depth: number): number {
  if (typeof v !== 'object' || v === null || depth > STRICT_MAX_DEPTH) return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) n += countKeys(v[i], depth + 1);
    return n;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) n += 1 + countKeys(o[k], depth + 1);
  return n;
}
