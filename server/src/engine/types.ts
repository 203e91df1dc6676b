/** Shared value types of the engine. Nothing here knows about an editor. */

export type Severity = 'error' | 'warning' | 'info';
export type SeverityOrOff = Severity | 'off';

export type PathSegment = string | number;
/** A JSON path into one document's data (the value a JSON/YAML parser would produce). */
export type JsonPath = readonly PathSegment[];

/** 1-based line and column (UTF-16 code units, as editors count them). */
export interface Position {
  line: number;
  column: number;
}

/** End-exclusive range. */
export interface Range {
  start: Position;
  end: Position;
}

/** A text edit on the file's text (offsets into the BOM-less text). */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}
