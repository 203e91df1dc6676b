/** Command ids and custom messages the server and the clients share. */
export const COMMANDS = {
  preview: 'mcpToolLint.previewPrompt',
  showRuleDocs: 'mcpToolLint.showRuleDocs',
} as const;

/** Custom requests/notifications (beyond LSP). */
export const PREVIEW_REQUEST = 'mcpToolLint/preview';
export const STATUS_NOTIFICATION = 'mcpToolLint/status';
/** The workflow graph with each tool's location: params `{uri?: string | null}` (null: the whole workspace). */
export const GRAPH_REQUEST = 'mcpToolLint/graph';
