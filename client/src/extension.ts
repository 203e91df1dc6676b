/**
 * The VS Code client: it starts the language server, once the workspace shows a tool or eval
 * file, and wires the few editor features the protocol has no place for (the prompt preview
 * document, the workflow graph view and the status bar item). Everything else comes from the server through LSP.
 *
 * Beside Red Hat's YAML extension: this client claims no language, contributes no schema and no
 * formatter; it is one more diagnostics, hover and code-action source on the same documents.
 */
import { open } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { COMMANDS, PREVIEW_REQUEST, STATUS_NOTIFICATION } from '../../server/src/lsp/commands';
import { GraphView, SHOW_GRAPH_COMMAND } from './graphView';
import { CANDIDATE_GLOB, CONFIG_GLOB, EXCLUDE_GLOB, looksLikeToolText, SCAN, scanOrder } from './toolFiles';

const PREVIEW_WORKSPACE_COMMAND = 'mcpToolLint.previewWorkspacePrompt';
const PREVIEW_SCHEME = 'mcp-tool-lint-preview';
/** Context key for `when` clauses: the server runs, so its commands exist. */
const ACTIVE_CONTEXT = 'mcpToolLint.active';

type Layout = 'markdown' | 'json';
interface Status {
  files: number;
  tools: number;
  errors: number;
  warnings: number;
}

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  // Created here rather than by the client, so the wait for a tool file is logged too.
  const output = vscode.window.createOutputChannel('MCP Tool Lint', { log: true });
  context.subscriptions.push(output);
  const status = vscode.window.createStatusBarItem('mcpToolLint.status', vscode.StatusBarAlignment.Left, 0);
  status.name = 'MCP Tool Lint';
  status.command = 'workbench.actions.view.problems';
  context.subscriptions.push(status);

  const preview = new PreviewDocuments(() => client);
  context.subscriptions.push(
    preview,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, preview),
    vscode.commands.registerCommand(PREVIEW_WORKSPACE_COMMAND, () => preview.show(null, 'markdown')),
  );
  const graph = new GraphView(() => client);
  context.subscriptions.push(graph, vscode.commands.registerCommand(SHOW_GRAPH_COMMAND, () => graph.show()));

  let starting: Promise<void> | undefined;
  const start = (): Promise<void> => (starting ??= startClient(context, output, status, preview, graph));

  // Idle until the workspace shows a tool or eval file: no server process for other workspaces.
  const gate = new ActivationGate(start);
  context.subscriptions.push(gate);
  void gate
    .check()
    .then((started) => {
      if (!started) output.info('No tool or eval file in this workspace yet: the language server starts when one is opened.');
    })
    .catch(() => undefined);
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  await c?.stop().catch(() => undefined);
}

async function startClient(context: vscode.ExtensionContext, output: vscode.LogOutputChannel, status: vscode.StatusBarItem, preview: PreviewDocuments, graph: GraphView): Promise<void> {
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    outputChannel: output,
    // The server decides which of these are tool files; any other YAML or JSON gets nothing.
    documentSelector: [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'file', language: 'json' },
      { scheme: 'file', pattern: '**/*.snap' },
    ],
    // Settings are also pulled per resource through `workspace/configuration` (the client's default
    // handler); these are the defaults for documents the server has not asked about yet.
    initializationOptions: { settings: plainSettings() },
    // With a section, a settings change is pushed as `{mcpToolLint: {...}}`. File events need no
    // `synchronize.fileEvents`: the server registers its own watchers, and two would double them.
    synchronize: { configurationSection: 'mcpToolLint' },
    middleware: {
      // The server lists the preview command (its code lenses use it); its answer is text, which
      // only the client can show, so the command opens the preview document instead.
      executeCommand: (command, args, next) => {
        if (command !== COMMANDS.preview) return next(command, args);
        const [uri, layout] = args as [string | null | undefined, Layout | undefined];
        return preview.show(uri === undefined ? activeDocumentUri() : uri, layout === 'json' ? 'json' : 'markdown');
      },
    },
  };
  // The id makes `mcpToolLint.trace.server` the trace setting.
  const c = new LanguageClient('mcpToolLint', 'MCP Tool Lint', serverOptions, clientOptions);
  context.subscriptions.push(
    c.onNotification(STATUS_NOTIFICATION, (s: Status) => {
      showStatus(status, s);
      preview.refresh();
      graph.refresh();
    }),
  );
  client = c;
  try {
    await c.start();
    await vscode.commands.executeCommand('setContext', ACTIVE_CONTEXT, true);
  } catch (e) {
    // The client has already written the cause to its output channel.
    void vscode.window.showErrorMessage(`MCP Tool Lint: the language server did not start (${(e as Error).message}).`);
  }
}

function plainSettings(): unknown {
  return JSON.parse(JSON.stringify(vscode.workspace.getConfiguration('mcpToolLint')));
}

function activeDocumentUri(): string | null {
  const doc = vscode.window.activeTextEditor?.document;
  return doc && doc.uri.scheme === 'file' ? doc.uri.toString() : null;
}

function showStatus(item: vscode.StatusBarItem, s: Status): void {
  if (!s || (s.files === 0 && s.tools === 0)) {
    item.hide();
    return;
  }
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  item.text = `$(checklist) ${plural(s.tools, 'tool')}  $(error) ${s.errors}  $(warning) ${s.warnings}`;
  item.tooltip = `MCP Tool Lint: ${plural(s.tools, 'tool')} in ${plural(s.files, 'file')}; ${plural(s.errors, 'error')} and ${plural(s.warnings, 'warning')} in open files. Click to show Problems.`;
  item.accessibilityInformation = { label: item.tooltip };
  item.show();
}

/**
 * "Preview agent prompt" documents: read-only, virtual, refreshed whenever the server reports a
 * new lint state, so the preview follows edits. The URI's query carries the request.
 */
class PreviewDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly getClient: () => LanguageClient | undefined) {}

  async show(uri: string | null, layout: Layout): Promise<void> {
    const name = uri ? path.posix.basename(vscode.Uri.parse(uri).path).replace(/\.[^.]+$/, '') : 'workspace';
    const target = vscode.Uri.from({
      scheme: PREVIEW_SCHEME,
      path: `/${name} agent prompt.${layout === 'json' ? 'json' : 'md'}`,
      query: JSON.stringify({ uri, layout }),
    });
    const doc = await vscode.workspace.openTextDocument(target);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: true });
  }

  async provideTextDocumentContent(target: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const c = this.getClient();
    if (!c?.isRunning()) return 'MCP Tool Lint: the language server is not running.';
    let params: { uri: string | null; layout: Layout };
    try {
      params = JSON.parse(target.query);
    } catch {
      return 'MCP Tool Lint: not a preview address.';
    }
    return c.sendRequest<string>(PREVIEW_REQUEST, params, token);
  }

  refresh(): void {
    for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === PREVIEW_SCHEME && !doc.isClosed) this.changed.fire(doc.uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/**
 * Starts the client once the workspace shows a tool or eval file: at activation a bounded scan
 * of the workspace (a config file, or a candidate file with tool markers in its head), later any
 * such document opened or typed, or a `mcpToolLint.toolFiles` setting.
 */
class ActivationGate implements vscode.Disposable {
  private readonly listeners: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private done = false;

  constructor(private readonly start: () => Promise<void>) {
    this.listeners.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.checkDocument(d)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (!isCandidate(e.document)) return;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => vscode.workspace.textDocuments.some((d) => this.checkDocument(d)), 500);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('mcpToolLint.toolFiles') && hasToolFilesSetting()) this.fire();
      }),
    );
  }

  /** Whether the server was started. */
  async check(): Promise<boolean> {
    if (!this.done && (hasToolFilesSetting() || vscode.workspace.textDocuments.some((d) => this.checkDocument(d)) || (await workspaceHasToolFiles()))) void this.fire();
    return this.done;
  }

  private checkDocument(doc: vscode.TextDocument): boolean {
    if (this.done || !isCandidate(doc)) return false;
    if (vscode.workspace.getConfiguration('mcpToolLint', doc.uri).get('enable') === false) return false;
    const head = doc.getText(new vscode.Range(0, 0, Math.min(doc.lineCount, SCAN.headLines), 0)).slice(0, SCAN.headBytes);
    if (!looksLikeToolText(head)) return false;
    void this.fire();
    return true;
  }

  private fire(): Promise<void> {
    if (this.done) return Promise.resolve();
    this.dispose();
    return this.start();
  }

  dispose(): void {
    this.done = true;
    clearTimeout(this.timer);
    for (const l of this.listeners.splice(0)) l.dispose();
  }
}

function isCandidate(doc: vscode.TextDocument): boolean {
  return doc.uri.scheme === 'file' && (doc.languageId === 'yaml' || doc.languageId === 'json' || doc.uri.path.endsWith('.snap'));
}

function hasToolFilesSetting(): boolean {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const scopes: (vscode.Uri | undefined)[] = folders.length ? folders.map((f) => f.uri) : [undefined];
  return scopes.some((s) => (vscode.workspace.getConfiguration('mcpToolLint', s).get<string[]>('toolFiles') ?? []).length > 0);
}

async function workspaceHasToolFiles(): Promise<boolean> {
  if (!vscode.workspace.workspaceFolders?.length) return false;
  if ((await vscode.workspace.findFiles(CONFIG_GLOB, EXCLUDE_GLOB, 1)).length > 0) return true;
  const found = await vscode.workspace.findFiles(CANDIDATE_GLOB, EXCLUDE_GLOB, SCAN.maxFound);
  const deadline = Date.now() + SCAN.budgetMs;
  for (const file of scanOrder(found.filter((u) => u.scheme === 'file').map((u) => u.fsPath)).slice(0, SCAN.maxRead)) {
    if (Date.now() > deadline) break;
    if (looksLikeToolText(await readHead(file))) return true;
  }
  return false;
}

async function readHead(file: string): Promise<string> {
  try {
    const fh = await open(file, 'r');
    try {
      const buf = Buffer.alloc(SCAN.headBytes);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      return buf.toString('utf8', 0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch {
    return '';
  }
}
