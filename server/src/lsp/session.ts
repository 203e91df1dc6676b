/**
 * Language server session: wires LSP requests to feature modules over the workspace. Every
 * handler is guarded: a failure is logged to the output channel and the request gets an empty
 * answer; the server keeps serving.
 */
import {
  CodeActionKind,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getCodeActions, FIX_ALL_KIND } from './codeActions';
import { getCodeLenses } from './codeLens';
import { getCompletions, COMPLETION_TRIGGERS } from './completion';
import { documentDiagnostics, toLspDiagnostic } from './diagnostics';
import type { Diagnostic as EngineDiagnostic } from '../engine/diagnostic';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import { documentGraph, EMPTY_GRAPH } from './graph';
import { getHover } from './hover';
import { getDefinition, getReferences } from './navigation';
import { previewDocument, type PreviewLayout } from './preview';
import { coerceSettings, DEFAULT_SETTINGS, type Settings } from './settings';
import { getDocumentSymbols } from './symbols';
import { uriToPath } from './uri';
import { Workspace } from './workspace';
import { ruleDocsUrl } from '../engine/docs-url';
import { COMMANDS, GRAPH_REQUEST, PREVIEW_REQUEST, STATUS_NOTIFICATION } from './commands';

export { COMMANDS, GRAPH_REQUEST, PREVIEW_REQUEST, STATUS_NOTIFICATION } from './commands';

export interface ServerHandle {
  workspace: Workspace;
  documents: TextDocuments<TextDocument>;
}

export function startServer(connection: Connection): ServerHandle {
  const documents = new TextDocuments(TextDocument);
  /** Set once the client shuts down or the connection fails: from then on nothing is sent. */
  let closed = false;
  const logError = (m: string): void => {
    if (!closed) send(() => connection.console.error(m));
  };
  const ws = new Workspace({ log: (m) => !closed && send(() => connection.console.log(m)), error: logError });
  const settings = new Map<string, Settings>();
  let pull = false;
  let configurationCapable = false;
  let watchCapable = false;
  let documentChanges = false;
  let configChangeRegistrable = false;
  /** What was last pushed per document, so identical diagnostics are not sent again. */
  const lastPushed = new Map<string, { version: number | undefined; diagnostics: LspDiagnostic[] }>();
  let pending: NodeJS.Immediate | null = null;
  /** The last pull-diagnostics answer per document (its result id and items). */
  const lastReport = new Map<string, { resultId: string; items: LspDiagnostic[]; source: EngineDiagnostic[] | null }>();
  /** Last results shown per document when running on save. */
  const onSaveSnapshot = new Map<string, ReturnType<typeof documentDiagnostics>>();

  /** Sending can fail once the client has gone; that must never become an unhandled rejection. */
  const send = (fn: () => Promise<unknown> | void): void => {
    if (closed) return;
    try {
      const p = fn();
      if (p && typeof (p as Promise<unknown>).catch === 'function')
        (p as Promise<unknown>).catch(() => {
          closed = true;
        });
    } catch {
      closed = true;
    }
  };

  const safe = <T>(name: string, fn: () => T, fallback: T): T => {
    try {
      return fn();
    } catch (e) {
      logError(`mcp-tool-lint: ${name} failed: ${(e as Error)?.stack ?? String(e)}`);
      return fallback;
    }
  };

  /**
   * Editor features read trees freely: every node is put in place first (after an edit, the
   * nodes of later tools move on demand; see `SNode.lag`). Linting does not need it.
   */
  const feature = <T>(name: string, fn: () => T, fallback: T): T =>
    safe(name, () => {
      ws.settle();
      return fn();
    }, fallback);

  ws.settingsFor = (uri) => settings.get(uri) ?? settings.get('') ?? DEFAULT_SETTINGS;

  const fetchSettings = async (uri: string): Promise<void> => {
    if (!configurationCapable) return;
    try {
      const raw = await connection.workspace.getConfiguration({ scopeUri: uri, section: 'mcpToolLint' });
      settings.set(uri, coerceSettings(raw));
    } catch (e) {
      if (/disposed/i.test((e as Error).message)) closed = true;
      else logError(`mcp-tool-lint: reading settings failed: ${(e as Error).message}`);
    }
  };

  const diagnosticsFor = (uri: string) =>
    safe('diagnostics', () => {
      if (!ws.isToolDocument(uri)) return [];
      if (ws.settingsFor(uri).run === 'onSave') return onSaveSnapshot.get(uri) ?? documentDiagnostics(ws, uri);
      return documentDiagnostics(ws, uri);
    }, []);

  const sendStatus = (): void => {
    safe('status', () => {
      let errors = 0;
      let warnings = 0;
      for (const uri of ws.openUris()) {
        const r = ws.lintResult(uri);
        for (const d of r?.diagnostics ?? []) if (d.severity === 'error') errors++;
        else if (d.severity === 'warning') warnings++;
      }
      send(() => connection.sendNotification(STATUS_NOTIFICATION, { ...ws.size, errors, warnings }));
    }, undefined);
  };

  /**
   * Findings of other files depend on this one: refresh every open document. After an edit of
   * `edited`, a pull client asks for that document itself, so a refresh is only asked for when
   * other documents are open (with one document open, typing costs one pull, not two).
   */
  let refreshAll = false;
  const refresh = (edited?: string): void => {
    if (edited === undefined || ws.openUris().some((u) => u !== edited)) refreshAll = true;
    if (pending) return;
    pending = setImmediate(() => {
      pending = null;
      const all = refreshAll;
      refreshAll = false;
      if (pull) {
        if (all) send(() => connection.languages.diagnostics.refresh());
      } else {
        for (const uri of ws.openUris()) {
          const version = ws.file(uri)?.version;
          const diagnostics = diagnosticsFor(uri);
          const last = lastPushed.get(uri);
          if (last && last.version === version && sameDiagnostics(last.diagnostics, diagnostics)) continue;
          lastPushed.set(uri, { version, diagnostics });
          send(() => connection.sendDiagnostics({ uri, version, diagnostics }));
        }
      }
      sendStatus();
    });
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const caps = params.capabilities;
    pull = !!caps.textDocument?.diagnostic;
    configurationCapable = !!caps.workspace?.configuration;
    watchCapable = !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration;
    documentChanges = !!caps.workspace?.workspaceEdit?.documentChanges;
    configChangeRegistrable = !!caps.workspace?.didChangeConfiguration?.dynamicRegistration;
    settings.set('', coerceSettings(params.initializationOptions?.settings));
    const folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    for (const f of folders) {
      const p = uriToPath(f);
      if (p) safe('indexing', () => ws.indexFolder(p), 0);
    }
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        diagnosticProvider: pull ? { interFileDependencies: true, workspaceDiagnostics: false } : undefined,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND], resolveProvider: false },
        hoverProvider: true,
        documentSymbolProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        completionProvider: { triggerCharacters: COMPLETION_TRIGGERS, resolveProvider: false },
        codeLensProvider: { resolveProvider: false },
        executeCommandProvider: { commands: [COMMANDS.preview, COMMANDS.showRuleDocs] },
      },
      serverInfo: { name: 'mcp-tool-lint' },
    };
  });

  connection.onInitialized(() => {
    if (configurationCapable && configChangeRegistrable) void connection.client.register(DidChangeConfigurationNotification.type, undefined).catch(() => undefined);
    if (watchCapable) {
      void connection.client
        .register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*.{yaml,yml,json,snap}' }, { globPattern: '**/.mcp-tool-lint.{yaml,yml,json}' }] })
        .catch(() => undefined);
    }
    sendStatus();
  });

  documents.onDidOpen((e) => {
    safe('open', () => ws.open(e.document.uri, e.document.getText(), e.document.version), undefined);
    void fetchSettings(e.document.uri).then(() => {
      ws.invalidate();
      onSaveSnapshot.set(e.document.uri, documentDiagnostics(ws, e.document.uri));
      refresh();
    });
    refresh();
  });
  documents.onDidChangeContent((e) => {
    safe('change', () => ws.change(e.document.uri, e.document.getText(), e.document.version), undefined);
    refresh(e.document.uri);
  });
  documents.onDidSave((e) => {
    onSaveSnapshot.set(e.document.uri, safe('save', () => documentDiagnostics(ws, e.document.uri), []));
    refresh();
  });
  documents.onDidClose((e) => {
    safe('close', () => ws.close(e.document.uri), undefined);
    onSaveSnapshot.delete(e.document.uri);
    settings.delete(e.document.uri);
    lastPushed.delete(e.document.uri);
    lastReport.delete(e.document.uri);
    if (!pull) send(() => connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] }));
    refresh();
  });

  connection.onDidChangeConfiguration((change) => {
    settings.clear();
    settings.set('', coerceSettings((change.settings as Record<string, unknown> | undefined)?.mcpToolLint));
    void Promise.all(ws.openUris().map(fetchSettings)).then(() => {
      ws.invalidate();
      refresh();
    });
  });

  connection.onDidChangeWatchedFiles((p) => {
    safe('watch', () => {
      for (const c of p.changes) ws.diskChanged(c.uri, c.type === FileChangeType.Deleted);
    }, undefined);
    refresh();
  });

  // Pull diagnostics with result ids: when the client's previous answer still holds (typing that
  // changed no finding), the answer is `unchanged` and thousands of diagnostics are not re-sent.
  let nextResultId = 1;
  connection.languages.diagnostics.on((params) => {
    const uri = params.textDocument.uri;
    const last = lastReport.get(uri);
    const held = last && params.previousResultId === last.resultId ? last : null;
    // Linted live: the engine's own list is compared first, so typing that changed no finding is
    // answered without converting thousands of diagnostics.
    const source = safe('diagnostics', () => (ws.isToolDocument(uri) && ws.settingsFor(uri).run !== 'onSave' ? (ws.lintResult(uri)?.diagnostics ?? null) : null), null);
    // Both engine lists: that comparison decides (the LSP form is made of the fields it compares).
    const bothLive = !!(held?.source && source);
    if (held && bothLive && sameEngineDiagnostics(held.source!, source!)) return { kind: 'unchanged', resultId: held.resultId };
    const items = source ? safe('diagnostics', () => source.map(toLspDiagnostic), []) : diagnosticsFor(uri);
    if (held && !bothLive && sameDiagnostics(held.items, items)) {
      held.source = source;
      return { kind: 'unchanged', resultId: held.resultId };
    }
    const resultId = String(nextResultId++);
    lastReport.set(uri, { resultId, items, source });
    return { kind: 'full', resultId, items };
  });

  const offsetOf = (uri: string, pos: { line: number; character: number }): number | null => {
    const f = ws.file(uri);
    if (!f) return null;
    return f.lines.offset({ line: pos.line + 1, column: pos.character + 1 });
  };

  connection.onHover((p) =>
    feature('hover', () => {
      if (!ws.isToolDocument(p.textDocument.uri)) return null;
      const off = offsetOf(p.textDocument.uri, p.position);
      return off === null ? null : getHover(ws, p.textDocument.uri, off);
    }, null),
  );
  connection.onCodeAction((p) =>
    feature('codeAction', () => (ws.isToolDocument(p.textDocument.uri) ? getCodeActions(ws, p, { documentChanges, onError: (e) => logError(`mcp-tool-lint: code action failed: ${(e as Error)?.stack ?? e}`) }) : []), []),
  );
  connection.onDocumentSymbol((p) => feature('documentSymbol', () => (ws.isToolDocument(p.textDocument.uri) ? getDocumentSymbols(ws, p.textDocument.uri) : []), []));
  connection.onDefinition((p) =>
    feature('definition', () => {
      const off = offsetOf(p.textDocument.uri, p.position);
      return off === null || !ws.isToolDocument(p.textDocument.uri) ? null : getDefinition(ws, p.textDocument.uri, off);
    }, null),
  );
  connection.onReferences((p) =>
    feature('references', () => {
      const off = offsetOf(p.textDocument.uri, p.position);
      return off === null || !ws.isToolDocument(p.textDocument.uri) ? [] : getReferences(ws, p.textDocument.uri, off, p.context.includeDeclaration);
    }, []),
  );
  connection.onCompletion((p) =>
    feature('completion', () => {
      const off = offsetOf(p.textDocument.uri, p.position);
      return off === null || !ws.isToolDocument(p.textDocument.uri) ? [] : getCompletions(ws, p.textDocument.uri, off);
    }, []),
  );
  connection.onCodeLens((p) => feature('codeLens', () => (ws.isToolDocument(p.textDocument.uri) ? getCodeLenses(ws, p.textDocument.uri) : []), []));

  connection.onRequest(PREVIEW_REQUEST, (p: { uri?: string | null; layout?: PreviewLayout }) => feature('preview', () => previewDocument(ws, p?.uri ?? null, p?.layout ?? 'markdown'), ''));
  connection.onRequest(GRAPH_REQUEST, (p: { uri?: string | null } | null) => feature('graph', () => documentGraph(ws, p?.uri ?? null), EMPTY_GRAPH));

  connection.onExecuteCommand(async (p) => {
    try {
      ws.settle();
      if (p.command === COMMANDS.preview) {
        const [uri, layout] = (p.arguments ?? []) as [string | undefined, PreviewLayout | undefined];
        return previewDocument(ws, uri ?? null, layout ?? 'markdown');
      }
      if (p.command === COMMANDS.showRuleDocs) {
        const [rule] = (p.arguments ?? []) as [string];
        const url = ruleDocsUrl(String(rule));
        await connection.window.showDocument({ uri: url, external: true }).catch(() => undefined);
        return url;
      }
    } catch (e) {
      logError(`mcp-tool-lint: command ${p.command} failed: ${(e as Error)?.stack ?? e}`);
    }
    return null;
  });

  connection.onShutdown(() => {
    closed = true;
  });
  documents.listen(connection);
  connection.listen();
  return { workspace: ws, documents };
}

/** Whether two lists hold the same items in the same order, item by item. */
function sameLists<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !same(a[i], b[i])) return false;
  return true;
}

/**
 * Whether two lists of engine diagnostics give the same LSP diagnostics: every field the
 * conversion reads (`toLspDiagnostic`) is compared.
 */
export function sameEngineDiagnostics(a: readonly EngineDiagnostic[], b: readonly EngineDiagnostic[]): boolean {
  return sameLists(a, b, (x, y) => {
    const rx = x.range;
    const ry = y.range;
    return (
      (rx === ry || (rx.start.line === ry.start.line && rx.start.column === ry.start.column && rx.end.line === ry.end.line && rx.end.column === ry.end.column)) &&
      x.severity === y.severity &&
      x.rule === y.rule &&
      x.message === y.message &&
      x.pointer === y.pointer &&
      x.tool === y.tool &&
      x.parameter === y.parameter
    );
  });
}

/** Whether two lists of LSP diagnostics are the same, field by field. */
export function sameDiagnostics(a: LspDiagnostic[], b: LspDiagnostic[]): boolean {
  return sameLists(a, b, (x, y) => {
    const rx = x.range;
    const ry = y.range;
    return (
      rx.start.line === ry.start.line &&
      rx.start.character === ry.start.character &&
      rx.end.line === ry.end.line &&
      rx.end.character === ry.end.character &&
      x.severity === y.severity &&
      x.code === y.code &&
      x.message === y.message &&
      x.source === y.source &&
      x.codeDescription?.href === y.codeDescription?.href &&
      JSON.stringify(x.data) === JSON.stringify(y.data)
    );
  });
}
