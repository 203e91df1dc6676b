import type { Catalog, Tool } from '../model';
import { approxTokens, renderTool, toolsListJson } from '../render';
import { serverManagedPredicate } from '../server-managed';
import { defineRule } from './api';
import { toolNameLoc } from './util';
import { servers, serverLabel } from '../servers';

interface Options {
  budget: number;
  layout: 'markdown' | 'tools-list';
  scope: 'server' | 'catalog';
}

const DEFAULT_BUDGET = 10_000;
/** Tools named in the message as the ones to trim first. */
const NAMED = 3;

export default defineRule<Options>({
  meta: {
    id: 'token-budget-exceeded',
    description: 'Limit the prompt tokens that the tool definitions of one server take',
    severity: 'warning',
    recommended: false,
    fixable: 'never',
    hasSuggestions: false,
    scope: 'catalog',
    messages: {
      over: 'Tool definitions of {{server}} take ≈ {{tokens}} tokens, over the budget of {{budget}}; the biggest: {{biggest}}',
    },
    options: {
      schema: {
        type: 'object',
        properties: {
          budget: { type: 'integer', minimum: 1 },
          layout: { enum: ['markdown', 'tools-list'] },
          scope: { enum: ['server', 'catalog'] },
        },
        additionalProperties: false,
      },
      defaults: { budget: DEFAULT_BUDGET, layout: 'markdown', scope: 'server' },
    },
    docs: {
      what:
        'Renders the tools of each server the way `mcp-tool-lint preview` does (the engine\'s prompt renderer, with server-managed fields left out), counts its tokens (about four characters a token) and reports the first tool at which the running total passes `budget`. The message names the three biggest tools, the ones worth trimming first. A server is one entry of a multi-server dump, otherwise the tools of one folder.\n\n' +
        'No provider documents a hard token limit for tool definitions; they count against the context window and are billed as input tokens on every request. The default budget of 10,000 tokens follows Anthropic\'s Agent SDK docs (read 2026-11-21, https://code.claude.com/docs/en/agent-sdk/tool-search): "Tool definitions can consume large portions of the context window (50 tools can use 10-20K tokens)", the point at which they recommend loading tools on demand.',
      why: 'Every request carries every tool definition. A catalogue that takes tens of thousands of tokens crowds out the conversation and the task, costs that many input tokens on each turn, and makes the model worse at picking the right tool; clients that load several servers add their budgets up.',
      options:
        '- `budget` (default `10000`): tokens the tools of one server may take.\n' +
        '- `layout` (default `markdown`): what is measured. `markdown` is the prompt layout of `preview` (name, description, one line per parameter, server-managed fields hidden); `tools-list` is the MCP `tools/list` JSON with full input schemas, closer to what a model API receives.\n' +
        '- `scope` (default `server`): `server` measures each server on its own; `catalog` measures every tool of the run together.',
    },
  },
  checkCatalog(catalog, ctx) {
    const budget = typeof ctx.options.budget === 'number' && ctx.options.budget > 0 ? ctx.options.budget : DEFAULT_BUDGET;
    const scope = ctx.options.scope === 'catalog' ? 'catalog' : 'server';
    const render = renderer(catalog, ctx.options.layout === 'tools-list' ? 'tools-list' : 'markdown');
    for (const tools of servers(catalog, scope).values()) {
      const { text, ends } = render(tools);
      const total = approxTokens(text);
      if (total <= budget) continue;
      // The first tool whose end in the rendering passes the budget.
      const at = ends.findIndex((end) => approxTokens(text.slice(0, end)) > budget);
      const crossing = tools[at >= 0 ? at : tools.length - 1];
      const sizes = tools.map((tool, i) => ({ tool, tokens: approxTokens(text.slice(i === 0 ? 0 : ends[i - 1], ends[i])) }));
      const biggest = sizes
        .sort((a, b) => b.tokens - a.tokens)
        .slice(0, NAMED)
        .map((s) => `\`${s.tool.name ?? '(unnamed)'}\` (≈ ${s.tokens})`)
        .join(', ');
      const server = scope === 'catalog' ? 'the catalogue' : serverLabel(crossing);
      ctx.report({ messageId: 'over', data: { server, tokens: total, budget, biggest }, tool: crossing, loc: toolNameLoc(crossing) });
    }
  },
});

/**
 * The rendering of a server's tools (the same text `preview` prints) and where each tool's part
 * of it ends. In the `tools-list` layout each tool is measured as a list of its own, so the ends
 * are close to, not exactly at, the items of the whole list.
 */
function renderer(catalog: Catalog, layout: 'markdown' | 'tools-list'): (tools: Tool[]) => { text: string; ends: number[] } {
  if (layout === 'tools-list') {
    const wrapper = toolsListJson([]).length;
    return (tools) => {
      const text = toolsListJson(tools);
      let end = 0;
      const ends = tools.map((t) => (end += toolsListJson([t]).length - wrapper));
      return { text, ends: ends.map((e) => Math.min(e, text.length)) };
    };
  }
  const hide = serverManagedPredicate(catalog);
  return (tools) => {
    const parts = tools.map((t) => renderTool(t, { hide }));
    // `renderCatalog` joins the same parts with a blank line.
    const text = parts.join('\n\n');
    let end = -2;
    const ends = parts.map((p) => (end += p.length + 2));
    return { text, ends };
  };
}
