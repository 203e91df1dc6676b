/**
 * The extension in a real VS Code: code-server in headless Chromium, driven by Playwright, with
 * the packaged .vsix installed. Everything is checked from the screen: the squiggle and Problems
 * row of an exposed server-managed field, the prompt preview in the hover, the quick fix that
 * removes the field, the status bar, the prompt preview document, and the workflow graph view
 * (an SVG in a webview: its nodes open the tools' definitions).
 *
 * Screenshots go to test-results/vscode/ (CI keeps them as artifacts). With UPDATE_SCREENSHOTS=1,
 * or when they are missing, the hover, quick-fix and graph ones are also copied to docs/images/
 * for the README. The first run installs Chromium, Node 24 and code-server (scripts/e2e/setup-vscode.sh);
 * later runs reuse the cache and take about half a minute.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { openVsCode, packageVsix, removeDir, ROOT, scratchDir, setupTools, until, type Session, type Tools } from './vscode-harness';

const SHOTS = join(ROOT, 'test-results', 'vscode');
const README_IMAGES = join(ROOT, 'docs', 'images');
const FILE = 'recipes.tools.yaml';
/** The other tool file of the workspace: tools that consume the recipes' ids. */
const PLANS = 'meal-plans.tools.yaml';
const LANGUAGE_SERVER = /\/dist\/server\.js\b/;

/** Tools and the packaged .vsix, made once for both tests. A string is a reason to skip. */
let prepared: { tools: Tools; vsix: string; dir: string } | string | undefined;
function prepare(): { tools: Tools; vsix: string; dir: string } | string {
  if (prepared === undefined) {
    const tools = setupTools();
    if (typeof tools === 'string') prepared = tools;
    else {
      const dir = scratchDir();
      prepared = { tools, vsix: packageVsix(dir), dir };
    }
  }
  return prepared;
}
after(() => {
  if (typeof prepared === 'object') removeDir(prepared.dir);
});

test('VS Code: squiggle, Problems, hover preview, quick fix, status bar, prompt preview and workflow graph', { timeout: 15 * 60_000 }, async (t) => {
  rmSync(SHOTS, { recursive: true, force: true });
  mkdirSync(SHOTS, { recursive: true });
  const t0 = Date.now();
  const step = (what: string) => t.diagnostic(`${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);
  const ready = prepare();
  if (typeof ready === 'string') {
    t.skip(ready);
    return;
  }
  step('tools ready and the .vsix packaged');
  const scratch = scratchDir();
  let session: Session | undefined;
  try {
    session = await openVsCode(ready.tools, ready.vsix, join(ROOT, 'test', 'fixtures', 'e2e', 'workspace'), scratch);
    step('code-server is up and the workbench loaded');
    const { page } = session;
    const editor = page.locator('.part.editor .monaco-editor').first();
    const shot = async (name: string, clip?: Locator[]) => {
      const file = join(SHOTS, name);
      await page.screenshot({ path: file, clip: clip ? await union(clip) : undefined });
      return file;
    };

    // Open the tool file from the Explorer; the server's warning shows as a squiggle.
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: FILE }).click();
    await until('the squiggle under the exposed field', async () => (await editor.locator('.squiggly-warning').count()) > 0, 60_000);
    step('squiggle shown');
    const status = page.locator('.statusbar-item', { hasText: '7 tools' });
    await until('the status bar item with the catalogue size', async () => /7 tools in 2 files; 0 errors and 1 warning/.test((await status.getAttribute('aria-label')) ?? ''));
    await shot('01-squiggle.png');
    assert.ok(session.processes().some((p) => LANGUAGE_SERVER.test(p)), 'the language server runs from the installed .vsix');

    // The injected grammar colours a suppression directive and a {placeholder} apart from their text.
    const comment = await tokenClass(editor, 'The tools of a small recipe service');
    assert.notEqual(await tokenClass(editor, 'mcp-tool-lint-disable-next-line'), comment, 'the directive keyword has its own colour');
    assert.notEqual(await tokenClass(editor, 'enum-implicit'), comment, 'the rule id has its own colour');
    assert.notEqual(await tokenClass(editor, 'ingredient'), await tokenClass(editor, 'Text to match'), 'the placeholder has its own colour');

    // Code lenses over each tool (they also move the lines: wait for them before pointing at one).
    await until('a code lens per tool', async () => (await editor.locator('.codelens-decoration', { hasText: /tokens · preview/ }).count()) === 2);

    // Hovering the tool's name shows the prompt preview: its heading and parameter lines.
    const name = editor.locator('.view-line span', { hasText: /^create_recipe$/ }).first();
    const preview = page.locator('.monaco-hover:not(.hidden) .monaco-tokenized-source', { hasText: '### create_recipe' });
    await hoverUntil(page, name, 'the prompt preview in the hover', async () => (await preview.count()) > 0);
    const hoverText = await preview.first().innerText();
    assert.match(hoverText, /^### create_recipe$/m);
    assert.match(hoverText, /^- title \(required\) \[string\]: Recipe title, shown in lists\.$/m);
    assert.match(hoverText, /^- servings \[integer\]: How many people the recipe serves\.$/m);
    assert.doesNotMatch(hoverText, /organization_id/, 'the server-managed field is left out of the prompt');
    step('hover preview shown');
    const hoverShot = await shot('02-hover-preview.png', [page.locator('.part.editor')]);
    await page.keyboard.press('Escape');
    await page.mouse.move(2, 400);

    // The Problems panel lists the finding.
    await runCommand(page, 'View: Focus Problems', 'workbench.action.problems.focus');
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'organization_id' });
    await until('the Problems row', async () => (await row.count()) > 0);
    const rowText = await row.first().innerText();
    assert.match(rowText, /system-field-exposed/);
    assert.match(rowText, /mcp-tool-lint/);
    await shot('03-problems.png');
    step('Problems row shown');

    // From the row to the field, then the quick fix that removes it.
    await row.first().click();
    await page.keyboard.press('Enter');
    await until('the cursor on the field', async () => /Ln 33,/.test(await page.locator('.statusbar-item[id="status.editor.selection"]').innerText()));
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Remove `organization_id`' });
    // The code actions may not have arrived when the cursor lands: ask again until the menu shows them.
    let asked = 0;
    await until('the quick fix menu', async () => {
      if ((await fix.count()) > 0) return true;
      if (asked++ % 10 === 0) {
        await page.keyboard.press('Escape');
        await page.keyboard.press('Control+.');
      }
      return false;
    });
    await until('the menu to settle', async () => (await fix.first().boundingBox())?.height);
    const fixShot = await shot('04-quick-fix.png', [page.locator('.part.editor'), page.locator('.part.panel')]);
    step('quick fix menu shown');
    await fix.first().click();

    // The finding disappears everywhere: squiggle, Problems, status bar; the field is gone.
    await until('the squiggle to go', async () => (await editor.locator('.squiggly-warning').count()) === 0);
    await until('the Problems row to go', async () => (await row.count()) === 0);
    await until('the status bar to count no warning', async () => /0 errors and 0 warnings/.test((await status.getAttribute('aria-label')) ?? ''));
    const text = await textOf(editor.locator('.view-lines'));
    assert.doesNotMatch(text, /organization_id/);
    assert.match(text, /servings/);
    await shot('05-after-fix.png');
    step('quick fix applied; the finding is gone');

    // "Preview Agent Prompt" opens the prompt as a virtual document beside the file.
    await editor.click();
    await runCommand(page, 'MCP Tool Lint: Preview Agent Prompt', 'mcpToolLint.previewPrompt');
    const tab = page.locator('.tab', { hasText: 'agent prompt.md' });
    await until('the preview document tab', async () => (await tab.count()) > 0);
    const previewEditor = page.locator('[data-uri^="mcp-tool-lint-preview:"] .view-lines');
    await until('the preview text', async () => /### create_recipe/.test(await textOf(previewEditor)));
    const previewText = await textOf(previewEditor);
    assert.match(previewText, /### list_recipes/);
    // (Markdown wraps long lines in the editor.)
    assert.match(previewText, /mcp-tool-lint prompt preview \(document\)\s*: 2 tools/);
    await shot('06-prompt-preview.png');
    step('prompt preview document shown');

    // "Show Tool Workflow Graph": the recipe tools and their neighbours, drawn as SVG in a webview.
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    // (Room for the picture: no side bar, no panel.)
    await runCommand(page, 'View: Close Primary Side Bar', 'workbench.action.closeSidebar');
    await runCommand(page, 'View: Hide Panel', 'workbench.action.closePanel');
    await editor.click();
    await runCommand(page, 'MCP Tool Lint: Show Tool Workflow Graph', 'mcpToolLint.showGraph');
    const graph = webview(page);
    const node = (id: string) => graph.locator(`svg.graph g.node[data-node="${id}"]`);
    await until('the graph of the recipe tools', async () => (await node('create_recipe').count()) > 0, 60_000);
    assert.equal(await graph.locator('#title').innerText(), `${FILE} and its neighbours`);
    assert.deepEqual(await graph.locator('svg.graph g.node text').allTextContents(), ['add_recipe_to_meal_plan', 'list_recipes', 'create_recipe']);
    assert.equal(await graph.locator('svg.graph path.edge').count(), 2, 'list_recipes and create_recipe feed add_recipe_to_meal_plan');
    assert.equal(await node('list_recipes').getAttribute('class'), 'node read');
    assert.equal(await node('create_recipe').getAttribute('class'), 'node create');
    step('graph view shown');

    // Clicking a tool of the other file opens it with the tool's name selected; the view follows.
    await node('add_recipe_to_meal_plan').click();
    const plansTab = page.locator('.tab.active', { hasText: PLANS });
    await until('the meal plans file to open', async () => (await plansTab.count()) > 0);
    // The selection runs from the name's start to its end, where the status bar puts the cursor.
    const tool = 'add_recipe_to_meal_plan';
    const lines = readFileSync(join(ROOT, 'test', 'fixtures', 'e2e', 'workspace', PLANS), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.endsWith(`name: ${tool}`));
    const end = lines[line].length + 1;
    const selection = page.locator('.statusbar-item[id="status.editor.selection"]');
    await until('the tool name selected', async () => (await selection.innerText()).includes(`Ln ${line + 1}, Col ${end} (${tool.length} selected)`));
    assert.ok(await page.locator('.monaco-editor.focused .view-line', { hasText: 'name: add_recipe_to_meal_plan' }).isVisible(), 'the focused editor shows the tool');
    await until('the view to follow the meal plans file', async () => (await graph.locator('#title').innerText()) === `${PLANS} and its neighbours`);
    await until('the meal plan tools', async () => (await node('share_meal_plan').count()) > 0);
    step('a click on a node revealed the tool; the view followed');

    // The whole workspace: every tool, the optional parameter dashed.
    await graph.locator('#scope', { hasText: 'Show whole workspace' }).click();
    await until('the whole workspace', async () => (await graph.locator('#title').innerText()) === 'Whole workspace');
    await until('every tool drawn', async () => (await graph.locator('svg.graph g.node').count()) === 7);
    assert.equal(await graph.locator('svg.graph path.edge.optional').count(), 2, 'get_shopping_list takes meal_plan_id optionally');
    assert.equal(await node('share_meal_plan').getAttribute('class'), 'node act');
    const graphShot = await shot('08-graph.png', [page.locator('.part.editor')]);
    const offsite = requests.filter((u) => !/^(?:https?:\/\/127\.0\.0\.1[:/]|data:|blob:)/.test(u));
    assert.deepEqual(offsite, [], 'nothing is fetched from anywhere but the local code-server');
    step('whole-workspace graph shown');

    const update = process.env.UPDATE_SCREENSHOTS === '1';
    mkdirSync(README_IMAGES, { recursive: true });
    for (const [from, to] of [
      [hoverShot, 'hover-preview.png'],
      [fixShot, 'quick-fix.png'],
      [graphShot, 'graph.png'],
    ]) {
      if (update || !existsSync(join(README_IMAGES, to))) copyFileSync(from, join(README_IMAGES, to));
    }
  } catch (e) {
    if (session) {
      await session.page.screenshot({ path: join(SHOTS, 'failure.png') }).catch(() => undefined);
      t.diagnostic(`code-server log (end):\n${session.log().slice(-4000)}`);
      t.diagnostic(`extension logs:\n${session.logs(/MCP Tool Lint|exthost\.log$/).slice(-6000) || '(none)'}`);
    }
    throw e;
  } finally {
    await session?.dispose();
    removeDir(scratch);
    step('stopped and cleaned up');
  }
});

test('VS Code: a workspace without tool or eval files starts no language server', { timeout: 15 * 60_000 }, async (t) => {
  const ready = prepare();
  if (typeof ready === 'string') {
    t.skip(ready);
    return;
  }
  const scratch = scratchDir();
  let session: Session | undefined;
  try {
    session = await openVsCode(ready.tools, ready.vsix, join(ROOT, 'test', 'fixtures', 'e2e', 'plain'), scratch);
    const { page } = session;
    // Opening a YAML file loads the extension (onLanguage:yaml) whatever the workspace holds.
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'config.yaml' }).click();
    await until('the extension to decide the workspace has no tool file', () => /No tool or eval file in this workspace yet/.test(session!.logs(/MCP Tool Lint/)), 60_000);
    assert.deepEqual(session.processes().filter((p) => LANGUAGE_SERVER.test(p)), [], 'no language server process');
    assert.equal(await page.locator('.statusbar-item[id$="mcpToolLint.status"]').count(), 0, 'no status bar item');
    await page.screenshot({ path: join(SHOTS, '07-plain-workspace.png') });
  } catch (e) {
    if (session) {
      await session.page.screenshot({ path: join(SHOTS, 'failure-plain.png') }).catch(() => undefined);
      t.diagnostic(`extension logs:\n${session.logs(/MCP Tool Lint|exthost\.log$/).slice(-6000) || '(none)'}`);
    }
    throw e;
  } finally {
    await session?.dispose();
    removeDir(scratch);
  }
});

/** The document inside the (last opened) webview: VS Code nests it in a second iframe. */
function webview(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready >> nth=-1').frameLocator('#active-frame');
}

/** Rendered text, with the editor's non-breaking spaces as plain ones. */
async function textOf(target: Locator): Promise<string> {
  return (await target.innerText()).replace(/\u00a0/g, ' ');
}

async function union(parts: Locator[]): Promise<{ x: number; y: number; width: number; height: number }> {
  const boxes = (await Promise.all(parts.map((p) => p.boundingBox()))).filter((b) => b !== null);
  assert.ok(boxes.length > 0, 'something to capture');
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  return { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y };
}

/**
 * Monaco shows a hover after the mouse moves over a word. Points at the word (again every few
 * seconds, in case the layout moved it) until `check` holds.
 */
async function hoverUntil(page: Page, target: Locator, what: string, check: () => Promise<boolean>): Promise<void> {
  let next = 0;
  await until(
    what,
    async () => {
      if (await check()) return true;
      if (Date.now() < next) return false;
      next = Date.now() + 3000;
      const box = await target.boundingBox();
      if (!box) return false;
      await page.mouse.move(box.x + 2, box.y + box.height / 2);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
      return false;
    },
    30_000,
  );
}

/** Runs a command from the Command Palette (F1), picking the entry by its command id. */
async function runCommand(page: Page, search: string, id: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`>${search}`);
  const item = page.locator(`.quick-input-widget .quick-input-list-entry[data-quick-input-id="${id}"]`);
  await item.waitFor();
  await item.click();
}

/** The colour class of the rendered token that holds `text` (Monaco gives each colour an `mtkN`). */
async function tokenClass(editor: Locator, text: string): Promise<string> {
  const span = editor.locator('.view-line span span', { hasText: text }).first();
  await span.waitFor();
  return (await span.getAttribute('class')) ?? '';
}
