/**
 * Language server session: documents in, diagnostics out. Every open tool or eval file is linted
 * as part of one catalogue with the other open documents; other YAML/JSON gets nothing.
 */
import { TextDocuments, type Connection, type Diagnostic as LspDiagnostic, DiagnosticSeverity, TextDocumentSyncKind } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI_TO_PATH } from './uri';
import { loadText } from '../engine/load';
import type { SourceFile } from '../engine/model';
import { lint, ToolResultCache } from '../engine/runner';
import { defaultConfig, findConfigFile, loadConfigFile, ruleSettings, type Config } from '../engine/config';
import type { Diagnostic } from '../engine/diagnostic';
import { ruleDocsUrl } from '../engine/docs-url';
import { dirname } from 'node:path';

export function toLspDiagnostic(d: Diagnostic): LspDiagnostic {
  return {
    range: {
      start: { line: d.range.start.line - 1, character: d.range.start.column - 1 },
      end: { line: d.range.end.line - 1, character: d.range.end.column - 1 },
    },
    severity: d.severity === 'error' ? DiagnosticSeverity.Error : d.severity === 'warning' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Information,
    code: d.rule,
    codeDescription: { href: ruleDocsUrl(d.rule) },
    source: 'mcp-tool-lint',
    message: d.message,
  };
}

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const cache = new ToolResultCache();
  const parsed = new Map<string, SourceFile>();
  const configs = new Map<string, Config>();

  const configFor = (path: string | null): Config => {
    if (!path) return defaultConfig();
    const dir = dirname(path);
    let c = configs.get(dir);
    if (!c) {
      try {
        const p = findConfigFile(dir);
        c = p ? loadConfigFile(p) : defaultConfig(dir);
      } catch (e) {
        connection.console.error(`mcp-tool-lint: ${(e as Error).message}`);
        c = defaultConfig(dir);
      }
      configs.set(dir, c);
    }
    return c;
  };

  const fileOf = (doc: TextDocument): SourceFile => {
    const prev = parsed.get(doc.uri);
    if (prev && prev.version === doc.version) return prev;
    const f = loadText(URI_TO_PATH(doc.uri) ?? doc.uri, doc.getText(), { version: doc.version });
    parsed.set(doc.uri, f);
    return f;
  };

  const validateAll = (): void => {
    const docs = documents.all();
    const files = docs.map(fileOf);
    const paths = new Map(files.map((f, i) => [f, URI_TO_PATH(docs[i].uri)]));
    try {
      const result = lint(files, { settingsFor: (f) => ruleSettings(configFor(paths.get(f) ?? null), paths.get(f) ?? null), cache });
      result.results.forEach((r) => {
        const i = files.indexOf(r.file);
        const show = r.file.kind !== 'unknown';
        void connection.sendDiagnostics({ uri: docs[i].uri, version: docs[i].version, diagnostics: show ? r.diagnostics.map(toLspDiagnostic) : [] });
      });
    } catch (e) {
      connection.console.error(`mcp-tool-lint: linting failed: ${(e as Error)?.stack ?? e}`);
    }
  };

  connection.onInitialize(() => ({
    capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental },
    serverInfo: { name: 'mcp-tool-lint' },
  }));
  documents.onDidChangeContent(() => validateAll());
  documents.onDidClose((e) => {
    parsed.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
    validateAll();
  });
  documents.listen(connection);
  connection.listen();
}
