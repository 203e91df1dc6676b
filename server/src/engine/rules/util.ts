/** Small helpers shared by rules. */
import type { Tool } from '../model';
import { keywordLoc, selfLoc, type Loc, type SchemaVisit } from '../schema';

/** Where a finding about a parameter (its schema) points: its key or its list entry's name. */
export function paramLoc(v: SchemaVisit): Loc {
  return selfLoc(v.origin);
}

export function kwLoc(v: SchemaVisit, keyword: string, target: 'key' | 'value' = 'key'): Loc {
  return keywordLoc(v.origin, keyword, target);
}

export function toolNameLoc(tool: Tool): Loc {
  return { path: tool.namePath, target: tool.nameTarget };
}

/** Human label of a parameter for messages. */
export function paramLabel(v: SchemaVisit): string {
  return v.param ?? 'input schema';
}

/** Type of a JSON value in JSON Schema terms. */
export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

export function backtick(s: string): string {
  return '`' + s + '`';
}
