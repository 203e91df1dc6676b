/**
 * The graph view's drawing and page, without an editor: the Mermaid legend's shapes, dashed
 * optional edges, escaped names, and a page that can load nothing from anywhere.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageHtml } from '../../client/src/graphPage';
import { renderGraphSvg, shapeOf } from '../../client/src/graphSvg';

const NODES = [
  { id: 'list_plans', action: 'list' },
  { id: 'create_plan', action: 'create' },
  { id: 'share_plan', action: 'other', detail: 'plans.yaml:12' },
  { id: 'get_<b>"x"</b>&', action: 'read' },
];
const EDGES = [
  { from: 'list_plans', to: 'share_plan', parameter: 'plan_id', required: true },
  { from: 'create_plan', to: 'share_plan', parameter: 'plan_id', required: true },
  { from: 'list_plans', to: 'get_<b>"x"</b>&', parameter: 'plan_id', required: false },
  { from: 'list_plans', to: 'get_<b>"x"</b>&', parameter: 'owner_id', required: false },
];

test('shapes as in the CLI’s Mermaid legend: rounded for lists and reads, boxes for creations, hexagons for the rest', () => {
  assert.deepEqual(
    ['list', 'read', 'create', 'upsert', 'update', 'delete', 'other'].map(shapeOf),
    ['read', 'read', 'create', 'create', 'act', 'act', 'act'],
  );
  const { svg } = renderGraphSvg(NODES, EDGES);
  const nodeMarkup = (id: string) => {
    const m = new RegExp(`<g class="([^"]*)" data-node="${id}"([^>]*)>([\\s\\S]*?)</g>`).exec(svg);
    assert.ok(m, id);
    return { cls: m[1], attrs: m[2], body: m[3] };
  };
  const list = nodeMarkup('list_plans');
  assert.equal(list.cls, 'node read');
  assert.match(list.body, /<rect class="shape" [^>]*rx="16"/, 'a stadium: the radius is half the height');
  assert.match(nodeMarkup('create_plan').body, /<rect class="shape" [^>]*rx="3"/);
  const share = nodeMarkup('share_plan');
  assert.equal(share.cls, 'node act');
  assert.match(share.body, /<polygon class="shape" points="(?:[\d.]+,[\d.]+ ){5}[\d.]+,[\d.]+"/, 'a hexagon');
  assert.match(share.body, /<title>share_plan\nother\nplans\.yaml:12<\/title>/);
  assert.match(share.attrs, /tabindex="0" role="button" aria-label="share_plan: go to definition"/, 'reachable by keyboard');
});

test('edges: one arrow per producer–consumer pair, labelled with every parameter, dashed when all are optional', () => {
  const { svg } = renderGraphSvg(NODES, EDGES);
  const paths = [...svg.matchAll(/<path class="(edge[^"]*)" data-from="([^"]*)" data-to="([^"]*)"[^>]*marker-end="url\(#arrow\)"/g)].map((m) => `${m[2]} -> ${m[3]} ${m[1]}`);
  assert.deepEqual(paths, ['list_plans -> share_plan edge', 'create_plan -> share_plan edge', 'list_plans -> get_&lt;b&gt;&quot;x&quot;&lt;/b&gt;&amp; edge optional']);
  const labels = [...svg.matchAll(/<g class="edge-label">.*?<text[^>]*>([^<]*)<\/text><\/g>/g)].map((m) => m[1]);
  assert.deepEqual(labels, ['plan_id', 'plan_id', 'plan_id, owner_id']);
});

test('names are escaped: the markup holds no tag or attribute from a tool file', () => {
  const { svg } = renderGraphSvg(NODES, EDGES);
  assert.ok(!svg.includes('<b>'));
  assert.match(svg, /data-node="get_&lt;b&gt;&quot;x&quot;&lt;\/b&gt;&amp;"/);
  assert.match(svg, />get_&lt;b&gt;&quot;x&quot;&lt;\/b&gt;&amp;<\/text>/);
  // No style attribute (the page's CSP allows none) and no script or link of any kind.
  assert.doesNotMatch(svg, /\sstyle=|<script|href=|\son\w+=/i);
});

test('an empty graph is an empty drawing', () => {
  const { svg, layout } = renderGraphSvg([], []);
  assert.equal(layout.nodes.length, 0);
  assert.match(svg, /^<svg [^>]*width="0" height="0"/);
});

test('the page loads nothing: no URL, and a CSP that admits only its own nonce-tagged style and script', () => {
  const html = pageHtml('TESTNONCE');
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(csp);
  assert.equal(csp[1], "default-src 'none'; style-src 'nonce-TESTNONCE'; script-src 'nonce-TESTNONCE';");
  // The only "http" is the SVG namespace name, which is never fetched.
  assert.deepEqual([...html.matchAll(/[a-z-]+:\/\/[^\s"'<>]*/gi)].map((m) => m[0]).filter((u) => u !== 'http://www.w3.org/2000/svg'), []);
  assert.doesNotMatch(html, /\s(?:src|href)=|@import|url\((?!#)/i);
  const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
  assert.deepEqual(scripts, [' nonce="TESTNONCE"']);
  const styles = [...html.matchAll(/<style([^>]*)>/g)].map((m) => m[1]);
  assert.deepEqual(styles, [' nonce="TESTNONCE"']);
  assert.doesNotMatch(html.replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/g, ''), /\sstyle=/, 'no inline style attribute');
  // A fresh nonce each time.
  assert.notEqual(/nonce-([^']+)/.exec(pageHtml())![1], /nonce-([^']+)/.exec(pageHtml())![1]);
});
