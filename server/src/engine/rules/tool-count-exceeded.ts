import { defineRule } from './api';
import { toolNameLoc } from './util';
import { servers, serverLabel } from '../servers';

type Provider = 'openai' | 'anthropic' | 'gemini';

interface Options {
  providers: Provider[];
  /** A maximum of your own (an agent framework's, a gateway's); overrides the providers' limits. */
  max: number | null;
  scope: 'server' | 'catalog';
}

/**
 * Tools one request may carry, as each provider documents it (read 2026-11-21). `null`: the
 * provider documents no limit, so none is applied.
 */
const LIMITS: Record<Provider, { label: string; max: number | null }> = {
  // API reference, `tools` of a chat completion request: "A max of 128 functions are supported."
  openai: { label: 'OpenAI', max: 128 },
  // The tool use docs and the Messages API reference state no number of tools per request.
  anthropic: { label: 'Anthropic', max: null },
  // Vertex AI `Tool.functionDeclarations`: "Maximum 128 function declarations can be provided."
  gemini: { label: 'Gemini', max: 128 },
};

const PROVIDERS = Object.keys(LIMITS) as Provider[];

export default defineRule<Options>({
  meta: {
    id: 'tool-count-exceeded',
    description: 'Limit the number of tools of one server to what a model API accepts in one request',
    severity: 'warning',
    recommended: false,
    fixable: 'never',
    hasSuggestions: false,
    scope: 'catalog',
    messages: {
      tooMany: '{{count}} tools in {{server}}, over the limit of {{max}} tools per request ({{who}})',
    },
    options: {
      schema: {
        type: 'object',
        properties: {
          providers: { type: 'array', items: { enum: PROVIDERS }, uniqueItems: true },
          max: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
          scope: { enum: ['server', 'catalog'] },
        },
        additionalProperties: false,
      },
      defaults: { providers: PROVIDERS, max: null, scope: 'server' },
    },
    docs: {
      what:
        'Counts the tools of each server and reports the first tool past the smallest limit of the providers in `providers` (or past `max`). A server is one entry of a multi-server dump, otherwise the tools of one folder, as an MCP client loads them. Limits, as documented by each provider (read 2026-11-21):\n\n' +
        '| provider | tools per request | source |\n|---|---|---|\n' +
        '| OpenAI | 128 | API reference, Chat Completions `tools`: "A max of 128 functions are supported." (https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools; the same text is in OpenAI\'s SDKs generated from it) |\n' +
        '| Gemini | 128 | Vertex AI API reference, `Tool.functionDeclarations`: "Maximum 128 function declarations can be provided." (https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Tool). The Gemini Developer API reference (https://ai.google.dev/api/caching#Tool) states no number; the limit documented for the same models on Vertex AI is applied. |\n' +
        '| Anthropic | none documented | The tool use docs (https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools) state no limit, nor does the `tools` parameter in Anthropic\'s SDKs (generated from the API spec), so none is applied. The Agent SDK docs note that tool selection accuracy degrades with more than 30–50 tools loaded at once (https://code.claude.com/docs/en/agent-sdk/tool-search): a guideline, not a limit. |',
      why: 'A client sends every tool of the servers it is connected to in each request. When one server alone exceeds the API\'s limit the request is rejected, or the client silently drops tools, and the agent either fails outright or never sees the tools past the cut. Long before the hard limit, picking the right tool among many gets less reliable.',
      options:
        '- `providers` (default all: `openai`, `anthropic`, `gemini`): whose limits apply; the smallest wins. The provider presets set this to their own provider.\n' +
        '- `max` (default none): a limit of your own (an agent framework\'s or a gateway\'s), used instead of the providers\' limits.\n' +
        '- `scope` (default `server`): `server` counts each server (a multi-server dump\'s entry, otherwise a folder) on its own; `catalog` counts every tool of the run together, for an agent that is connected to all of them at once.',
    },
  },
  checkCatalog(catalog, ctx) {
    const { max, who } = effectiveLimit(ctx.options);
    if (max === null) return;
    const scope = ctx.options.scope === 'catalog' ? 'catalog' : 'server';
    for (const tools of servers(catalog, scope).values()) {
      if (tools.length <= max) continue;
      const over = tools[max];
      const server = scope === 'catalog' ? 'the catalogue' : serverLabel(over);
      ctx.report({ messageId: 'tooMany', data: { count: tools.length, server, max, who }, tool: over, loc: toolNameLoc(over) });
    }
  },
});

function effectiveLimit(o: Partial<Options>): { max: number | null; who: string } {
  if (typeof o.max === 'number') return { max: o.max, who: 'configured `max`' };
  const chosen = (Array.isArray(o.providers) ? o.providers : PROVIDERS).filter((p) => p in LIMITS);
  const limited = chosen.filter((p) => LIMITS[p].max !== null);
  if (limited.length === 0) return { max: null, who: '' };
  const max = Math.min(...limited.map((p) => LIMITS[p].max!));
  const who = limited.filter((p) => LIMITS[p].max === max).map((p) => LIMITS[p].label);
  return { max, who: who.join(' and ') };
}
