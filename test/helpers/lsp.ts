/**
 * An in-process LSP client connected to the real server session over streams: requests and
 * notifications go through JSON-RPC exactly as with an editor, but without spawning a process.
 */
import { PassThrough } from 'node:stream';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createConnection, createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-languageserver/node';
import { startServer, type ServerHandle } from '../../server/src/lsp/session';

export interface TestClient {
  rpc: MessageConnection;
  server: ServerHandle;
  root: string;
  uri(rel: string): string;
  /** Diagnostics last pushed per URI (push mode). */
  pushed: Map<string, { version?: number; diagnostics: unknown[] }>;
  notifications: { method: string; params: unknown }[];
  open(rel: string, text: string, languageId?: string): Promise<void>;
  change(rel: string, text: string, version: number): Promise<void>;
  /** An incremental change, as editors send them: `text` replaces the range (0-based lines and characters). */
  edit(rel: string, range: { start: { line: number; character: number }; end: { line: number; character: number } }, text: string, version: number): Promise<void>;
  close(rel: string): Promise<void>;
  request<T>(method: string, params: unknown): Promise<T>;
  /** Poll until `check` returns a value (never sleep a fixed time). */
  until<T>(check: () => T | undefined | null | false | Promise<T | undefined | null | false>, what: string, timeoutMs?: number): Promise<T>;
  dispose(): Promise<void>;
}

export interface ClientOptions {
  files?: Record<string, string>;
  /** Use pull diagnostics (client capability). */
  pull?: boolean;
  settings?: Record<string, unknown>;
}

export async function startClient(opts: ClientOptions = {}): Promise<TestClient> {
  const root = mkdtempSync(join(tmpdir(), 'mtl-lsp-'));
  for (const [rel, text] of Object.entries(opts.files ?? {})) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  }
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const conn = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  const server = startServer(conn);
  const rpc = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  const pushed = new Map<string, { version?: number; diagnostics: unknown[] }>();
  const notifications: { method: string; params: unknown }[] = [];
  rpc.onNotification((method: string, params: unknown) => {
    notifications.push({ method, params });
    if (method === 'textDocument/publishDiagnostics') {
      const p = params as { uri: string; version?: number; diagnostics: unknown[] };
      pushed.set(p.uri, { version: p.version, diagnostics: p.diagnostics });
    }
  });
  rpc.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => opts.settings ?? {}));
  rpc.onRequest('client/registerCapability', () => null);
  rpc.onRequest('workspace/diagnostic/refresh', () => null);
  rpc.onRequest('window/showDocument', () => ({ success: true }));
  rpc.listen();
  const uri = (rel: string) => pathToFileURL(join(root, rel)).href;
  await rpc.sendRequest('initialize', {
    processId: null,
    rootUri: pathToFileURL(root).href,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'test' }],
    capabilities: {
      textDocument: { ...(opts.pull ? { diagnostic: { dynamicRegistration: false } } : {}), hover: { contentFormat: ['markdown', 'plaintext'] }, codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source'] } } }, documentSymbol: { hierarchicalDocumentSymbolSupport: true } },
      workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true }, workspaceEdit: { documentChanges: true } },
    },
    initializationOptions: { settings: opts.settings ?? {} },
  });
  await rpc.sendNotification('initialized', {});
  const versions = new Map<string, number>();
  const client: TestClient = {
    rpc,
    server,
    root,
    uri,
    pushed,
    notifications,
    async open(rel, text, languageId) {
      versions.set(rel, 1);
      await rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: uri(rel), languageId: languageId ?? (rel.endsWith('.json') ? 'json' : 'yaml'), version: 1, text } });
    },
    async change(rel, text, version) {
      versions.set(rel, version);
      await rpc.sendNotification('textDocument/didChange', { textDocument: { uri: uri(rel), version }, contentChanges: [{ text }] });
    },
    async edit(rel, range, text, version) {
      versions.set(rel, version);
      await rpc.sendNotification('textDocument/didChange', { textDocument: { uri: uri(rel), version }, contentChanges: [{ range, text }] });
    },
    async close(rel) {
      await rpc.sendNotification('textDocument/didClose', { textDocument: { uri: uri(rel) } });
    },
    request: (method, params) => rpc.sendRequest(method, params),
    async until(check, what, timeoutMs = 5000) {
      const start = Date.now();
      for (;;) {
        const v = await check();
        if (v !== undefined && v !== null && v !== false) return v as never;
        if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setImmediate(r));
      }
    },
    async dispose() {
      // Shut down first, as an editor does: the server then sends nothing more.
      await rpc.sendRequest('shutdown').catch(() => undefined);
      rpc.dispose();
      conn.dispose();
      toServer.end();
      toClient.end();
    },
  };
  return client;
}
