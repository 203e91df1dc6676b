/**
 * "Show Tool Workflow Graph": a webview panel with the workflow graph drawn as SVG. The server
 * answers `mcpToolLint/graph` (the engine's graph, each node with where its tool's name is
 * written); this side lays it out (`graphLayout`), draws it (`graphSvg`) and opens a tool's
 * definition when its node is clicked.
 *
 * The panel follows the active tool file (its tools and their direct neighbours), or shows the
 * whole workspace; it refreshes when the server reports a new lint state and when the active
 * editor changes, only while visible, and posts nothing when the picture is unchanged.
 *
 * Offline by construction: no local resource roots, and the page (`graphPage`) names no URL and
 * lets in only its own style element and script.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { GRAPH_REQUEST } from '../../server/src/lsp/commands';
import type { EditorGraph } from '../../server/src/lsp/graph';
import { pageHtml } from './graphPage';
import { mergeLinks, renderGraphSvg, type DrawNode } from './graphSvg';

export const SHOW_GRAPH_COMMAND = 'mcpToolLint.showGraph';
const VIEW_TYPE = 'mcpToolLint.graph';
/** Status notifications come with every lint pass (every keystroke while typing): wait for a pause. */
const REFRESH_DELAY_MS = 250;

type Scope = 'document' | 'workspace';

/** Messages from the page. The page names a node by id; where it is written stays on this side. */
type FromPage = { type: 'ready' } | { type: 'open'; id: string } | { type: 'toggle' };

interface Picture {
  type: 'graph';
  title: string;
  summary: string;
  /** Label of the scope button, or '' to hide it. */
  toggle: string;
  svg: string;
  /** Shown instead of a picture. */
  empty: string;
}

export class GraphView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private scope: Scope = 'document';
  /** The tool file the view follows (the last active file editor). */
  private followed: vscode.Uri | undefined;
  /** Column of the last active file editor: definitions open there, not over the panel. */
  private editorColumn: vscode.ViewColumn | undefined;
  private locations = new Map<string, vscode.Location>();
  private timer: NodeJS.Timeout | undefined;
  /** Answers older than the last request are dropped. */
  private generation = 0;
  private posted = '';
  private stale = false;

  constructor(private readonly getClient: () => LanguageClient | undefined) {
    this.subscriptions.push(vscode.window.onDidChangeActiveTextEditor((e) => this.activeEditorChanged(e)));
    this.noteEditor(vscode.window.activeTextEditor);
  }

  /** Opens (or reveals) the panel on the active file's neighbourhood, else the whole workspace. */
  async show(): Promise<void> {
    this.noteEditor(vscode.window.activeTextEditor);
    this.scope = this.followed ? 'document' : 'workspace';
    if (this.panel) this.panel.reveal(undefined, true);
    else this.panel = this.createPanel();
    await this.update();
  }

  /** The server has a new lint state. */
  refresh(): void {
    if (!this.panel) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), REFRESH_DELAY_MS);
  }

  private createPanel(): vscode.WebviewPanel {
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      'Tool Workflow Graph',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, enableForms: false, enableCommandUris: false, localResourceRoots: [], retainContextWhenHidden: false },
    );
    panel.webview.html = pageHtml();
    panel.webview.onDidReceiveMessage((m: FromPage) => void this.received(m), undefined, this.subscriptions);
    panel.onDidChangeViewState(() => {
      if (panel.visible && this.stale) void this.update();
    }, undefined, this.subscriptions);
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.posted = '';
      clearTimeout(this.timer);
    }, undefined, this.subscriptions);
    return panel;
  }

  private async received(m: FromPage): Promise<void> {
    if (m?.type === 'ready') {
      // A fresh page (first load, or shown again after being hidden): send the picture again.
      this.posted = '';
      await this.update();
    } else if (m?.type === 'toggle') {
      this.scope = this.scope === 'document' ? 'workspace' : 'document';
      await this.update();
    } else if (m?.type === 'open' && typeof m.id === 'string') {
      await this.reveal(m.id);
    }
  }

  private noteEditor(editor: vscode.TextEditor | undefined): boolean {
    if (!editor || editor.document.uri.scheme !== 'file') return false;
    this.editorColumn = editor.viewColumn ?? this.editorColumn;
    if (this.followed?.toString() === editor.document.uri.toString()) return false;
    this.followed = editor.document.uri;
    return true;
  }

  private activeEditorChanged(editor: vscode.TextEditor | undefined): void {
    // Focus moving to the panel (no active editor) or to another kind of document keeps the view.
    if (this.noteEditor(editor) && this.panel && this.scope === 'document') void this.update();
  }

  private async update(): Promise<void> {
    const panel = this.panel;
    if (!panel) return;
    if (!panel.visible) {
      this.stale = true;
      return;
    }
    this.stale = false;
    clearTimeout(this.timer);
    const generation = ++this.generation;
    const locations = new Map<string, vscode.Location>();
    let picture: Picture;
    try {
      picture = await this.picture(locations);
    } catch (e) {
      picture = { type: 'graph', title: 'Tool workflow graph', summary: '', toggle: '', svg: '', empty: `The graph could not be built: ${(e as Error).message}` };
    }
    if (generation !== this.generation || this.panel !== panel) return;
    this.locations = locations;
    const text = JSON.stringify(picture);
    if (text === this.posted) return;
    this.posted = text;
    await panel.webview.postMessage(picture);
  }

  /** The picture of the current scope; fills `locations` with where each drawn tool is defined. */
  private async picture(locations: Map<string, vscode.Location>): Promise<Picture> {
    const c = this.getClient();
    if (!c?.isRunning()) return { type: 'graph', title: 'Tool workflow graph', summary: '', toggle: '', svg: '', empty: 'The MCP Tool Lint language server is not running.' };
    const doc = this.scope === 'document' ? this.followed : undefined;
    let graph = await c.sendRequest<EditorGraph>(GRAPH_REQUEST, { uri: doc ? doc.toString() : null });
    let note = '';
    if (doc && graph.nodes.length === 0) {
      // Not a tool file: the workspace says more than an empty picture.
      note = ` (${path.posix.basename(doc.path)} has no tools)`;
      graph = await c.sendRequest<EditorGraph>(GRAPH_REQUEST, { uri: null });
    }
    const nodes: DrawNode[] = graph.nodes.map((n) => {
      const loc = n.location ? new vscode.Location(vscode.Uri.parse(n.location.uri), range(n.location.range)) : null;
      if (loc) locations.set(n.id, loc);
      const where = loc ? vscode.workspace.asRelativePath(loc.uri) : n.file;
      return { id: n.id, label: displayId(n.id, n.name), action: n.action, detail: loc ? `${where}:${loc.range.start.line + 1}` : where, own: graph.scope === 'document' ? !!loc && !!graph.uri && loc.uri.toString() === vscode.Uri.parse(graph.uri).toString() : undefined };
    });
    const documentScope = graph.scope === 'document';
    const title = documentScope ? `${path.posix.basename(doc!.path)} and its neighbours` : `Whole workspace${note}`;
    const toggle = documentScope ? 'Show whole workspace' : this.followed && !note ? `Show ${path.posix.basename(this.followed.path)} only` : '';
    if (nodes.length === 0) return { type: 'graph', title, summary: '', toggle, svg: '', empty: 'No tools found.' };
    const links = mergeLinks(graph.edges);
    const unlinked = nodes.length - new Set(links.flatMap((l) => [l.from, l.to])).size;
    const plural = (k: number, w: string) => `${k} ${w}${k === 1 ? '' : 's'}`;
    const summary = `${plural(nodes.length, 'tool')}, ${plural(links.length, 'link')}${unlinked > 0 ? ` (${unlinked} without any)` : ''}. Click a tool to go to its definition.`;
    return { type: 'graph', title, summary, toggle, svg: renderGraphSvg(nodes, graph.edges, `Tool workflow graph: ${title}`).svg, empty: '' };
  }

  private async reveal(id: string): Promise<void> {
    const loc = this.locations.get(id);
    if (!loc) {
      void vscode.window.showWarningMessage(`MCP Tool Lint: where \`${id}\` is defined is not known.`);
      return;
    }
    const panelColumn = this.panel?.viewColumn;
    const column =
      this.editorColumn && this.editorColumn !== panelColumn
        ? this.editorColumn
        : (vscode.window.visibleTextEditors.map((e) => e.viewColumn).find((c) => c !== undefined && c !== panelColumn) ?? (panelColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One));
    const doc = await vscode.workspace.openTextDocument(loc.uri);
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: column, selection: loc.range, preserveFocus: false, preview: false });
    editor.revealRange(loc.range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.panel?.dispose();
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}

/** A node id with a folder in it (a name several servers use) shows the folder relative to the workspace. */
function displayId(id: string, name: string): string {
  const place = id.startsWith(`${name} (`) && id.endsWith(')') ? id.slice(name.length + 2, -1) : null;
  return place && path.isAbsolute(place) ? `${name} (${vscode.workspace.asRelativePath(place)})` : id;
}

function range(r: { start: { line: number; character: number }; end: { line: number; character: number } }): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}
