/**
 * The graph view's page: a header (title, summary, scope button, legend), the drawing area, one
 * style element and one small script, both admitted by nonce under a Content-Security-Policy of
 * `default-src 'none'`: the page loads nothing, so it works offline and cannot reach the network.
 * The script only swaps in the SVG the extension sends and posts which node was clicked.
 * No `vscode` import, so tests check the page directly.
 */
import { randomBytes } from 'node:crypto';
import { legendSvg } from './graphSvg';

/** The page: header, an empty drawing area, the stylesheet and the script, both by nonce. */
export function pageHtml(nonce = randomBytes(16).toString('base64')): string {
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Tool Workflow Graph</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<header>
<span id="title">Tool workflow graph</span>
<span id="summary"></span>
<button id="scope" type="button" hidden></button>
<span class="legend" aria-label="Legend">${legendSvg()}</span>
</header>
<main id="graph"><p class="empty">Loading…</p></main>
<script nonce="${nonce}">${SCRIPT}</script>
</body>
</html>`;
}

const STYLE = `
body { margin: 0; padding: 0; color: var(--vscode-foreground); background: var(--vscode-editor-background); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
header { position: sticky; top: 0; left: 0; z-index: 1; display: flex; flex-wrap: wrap; align-items: center; gap: 6px 14px; padding: 8px 12px; background: var(--vscode-editor-background); border-bottom: 1px solid var(--vscode-panel-border, transparent); }
#title { font-weight: 600; }
#summary, .legend, .empty { color: var(--vscode-descriptionForeground); }
button { font: inherit; color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); border: 1px solid var(--vscode-button-border, transparent); border-radius: 2px; padding: 2px 8px; cursor: pointer; }
button:hover { background: var(--vscode-button-secondaryHoverBackground); }
button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 12px; font-size: 0.9em; }
.legend-item { display: inline-flex; align-items: center; gap: 4px; }
.legend .node { cursor: default; }
main { padding: 4px; }
.empty { padding: 8px; }
svg text { font-family: var(--vscode-editor-font-family, monospace); dominant-baseline: central; text-anchor: middle; }
.node { cursor: pointer; outline: none; }
.node .shape { fill: var(--vscode-editorWidget-background); stroke: var(--vscode-editorWidget-border, var(--vscode-foreground)); stroke-width: 1.5; }
.node.read .shape { stroke: var(--vscode-charts-blue); }
.node.create .shape { stroke: var(--vscode-charts-green); }
.node.act .shape { stroke: var(--vscode-charts-purple); }
.node text { fill: var(--vscode-editor-foreground); font-size: 13px; }
.node.neighbour { opacity: 0.65; }
.node:hover .shape { fill: var(--vscode-list-hoverBackground); }
.node:focus-visible .shape { stroke: var(--vscode-focusBorder); stroke-width: 2.5; }
.edge { fill: none; stroke: var(--vscode-editorLineNumber-foreground); stroke-width: 1.3; }
.edge.optional { stroke-dasharray: 5 4; }
.arrowhead { fill: var(--vscode-editorLineNumber-foreground); }
.edge-label rect { fill: var(--vscode-editor-background); }
.edge-label text { fill: var(--vscode-descriptionForeground); font-size: 11px; }
`;

const SCRIPT = `
(() => {
  const vscode = acquireVsCodeApi();
  const el = (id) => document.getElementById(id);
  window.addEventListener('message', (event) => {
    const m = event.data;
    if (!m || m.type !== 'graph') return;
    el('title').textContent = m.title;
    el('summary').textContent = m.summary;
    el('scope').textContent = m.toggle;
    el('scope').hidden = !m.toggle;
    const main = el('graph');
    if (m.svg) {
      main.innerHTML = m.svg;
      fit();
    } else {
      const p = document.createElement('p');
      p.className = 'empty';
      p.textContent = m.empty;
      main.replaceChildren(p);
    }
  });
  // Shrink a drawing a little to fit the panel's width; past that it keeps its size and scrolls.
  const MIN_SCALE = 0.7;
  const fit = () => {
    const svg = document.querySelector('svg.graph');
    if (!svg) return;
    const w = Number(svg.getAttribute('data-width'));
    const h = Number(svg.getAttribute('data-height'));
    const scale = Math.min(1, (el('graph').clientWidth - 8) / w);
    const s = scale >= MIN_SCALE ? scale : 1;
    svg.setAttribute('width', String(Math.floor(w * s)));
    svg.setAttribute('height', String(Math.floor(h * s)));
  };
  window.addEventListener('resize', fit);
  const open = (target) => {
    const node = target && target.closest ? target.closest('[data-node]') : null;
    if (node) vscode.postMessage({ type: 'open', id: node.getAttribute('data-node') });
  };
  document.addEventListener('click', (event) => open(event.target));
  document.addEventListener('keydown', (event) => {
    if ((event.key === 'Enter' || event.key === ' ') && document.activeElement && document.activeElement.closest('[data-node]')) {
      event.preventDefault();
      open(document.activeElement);
    }
  });
  el('scope').addEventListener('click', () => vscode.postMessage({ type: 'toggle' }));
  vscode.postMessage({ type: 'ready' });
})();
`;
