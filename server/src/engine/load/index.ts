/** Reading a file into a `SourceFile`: decode, parse, find and normalise its tools. */
import { SourceFile } from '../model';
import { detectLang, parseText, type ParseResult } from '../parse';
import { findTools, formatId } from './detect';
import { normalizeTool, usesOptionalFlags } from './normalize';

export interface LoadOptions {
  explicit?: boolean;
  version?: number;
  /** Files larger than this many bytes are not parsed (a finding says so). */
  maxBytes?: number;
  /**
   * Build a valid JSON file's source tree only when first asked for (see `parseJson`): for a
   * one-shot run, which needs ranges only where it reports. The editor keeps trees built.
   */
  lazyTree?: boolean;
}

export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

/** Decode bytes as UTF-8; binary (NUL bytes) and invalid UTF-8 are reported, not guessed. */
export function decode(bytes: Uint8Array): { text: string; problem?: string } {
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return { text: '', problem: 'a binary file (it contains NUL bytes)' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { text: '', problem: 'not valid UTF-8 text' };
  }
}

/** A file that could not be read as text, with a finding saying why. */
export function unreadableFile(path: string, why: string, opts: LoadOptions = {}): SourceFile {
  const lang = detectLang(path, '');
  const parsed: ParseResult = { lang, docs: [], problems: [{ kind: 'parse-error', message: `Cannot lint this file: ${why}`, offset: 0, length: 0, doc: 0 }] };
  const f = new SourceFile(path, '', lang, parsed, false, opts.version ?? 0);
  f.explicit = !!opts.explicit;
  f.reason = why;
  return f;
}

export function loadBytes(path: string, bytes: Uint8Array, opts: LoadOptions = {}): SourceFile {
  const max = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  if (bytes.length > max) return unreadableFile(path, tooLarge(bytes.length, max), opts);
  const { text, problem } = decode(bytes);
  if (problem) return unreadableFile(path, problem, opts);
  return loadText(path, text, opts);
}

function tooLarge(size: number, max: number): string {
  return `the file is ${formatSize(size)}, over the ${formatSize(max)} limit (raise \`maxFileSize\` in .mcp-tool-lint.yaml to lint it)`;
}

/** MB with one decimal from 1 MB up; KB or bytes below, so a small configured limit does not read "0.0 MB". */
function formatSize(n: number): string {
  if (n >= 1048576) return `${(n / 1048576).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

export function loadText(path: string, rawText: string, opts: LoadOptions = {}): SourceFile {
  const bom = rawText.charCodeAt(0) === 0xfeff;
  const text = bom ? rawText.slice(1) : rawText;
  const lang = detectLang(path, text);
  const max = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  if (text.length > max) return unreadableFile(path, tooLarge(text.length, max), opts);
  if (path.toLowerCase().endsWith('.snap') && !/^\s*[[{]/.test(text)) {
    const f = new SourceFile(path, text, lang, { lang, docs: [], problems: [] }, bom, opts.version ?? 0);
    f.explicit = !!opts.explicit;
    f.reason = 'a snapshot file that is not JSON';
    return f;
  }
  const parsed = parseText(text, lang, { lazyTree: opts.lazyTree });
  const file = new SourceFile(path, text, lang, parsed, bom, opts.version ?? 0);
  file.explicit = !!opts.explicit;
  const base = path.split(/[\\/]/).pop() ?? path;
  const reasons: string[] = [];
  parsed.docs.forEach((doc, di) => {
    const c = findTools(doc.data, base);
    if (c.kind === 'tools') {
      const policy = c.policy === 'flag' && usesOptionalFlags(c.sites) ? 'optional-flags' : c.policy;
      if (file.kind !== 'tools') {
        file.kind = 'tools';
        file.format = formatId(c.family, lang);
        file.requiredPolicy = policy;
      }
      for (const site of c.sites) file.tools.push(normalizeTool(file, di, file.tools.length, site, policy));
    } else if (c.kind === 'eval') {
      // A multi-document file may hold a catalogue and its eval suite: keep both.
      if (file.kind === 'unknown') {
        file.kind = 'eval';
        file.format = 'mxcp-eval';
      }
      if (!file.evalSuite) {
        const name = typeof c.data.suite === 'string' ? c.data.suite : null;
        file.evalSuite = { file, doc: di, path: c.path, name, data: c.data };
      }
    } else if (!(parsed.docs.length > 1 && c.reason === 'the file is empty')) {
      reasons.push(c.reason);
    }
  });
  if (file.kind === 'unknown') {
    const err = parsed.problems.find((p) => p.kind === 'parse-error');
    file.reason = err ? `it could not be parsed as ${lang.toUpperCase()} (${err.message})` : (reasons[0] ?? 'the file is empty');
  }
  return file;
}
