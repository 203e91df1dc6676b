/**
 * Defaults of live-server linting that commands print in their help. Kept apart from `live.ts`,
 * which loads the MCP client: importing a constant must not load the client at start-up.
 */
export const DEFAULT_LIVE_TIMEOUT_MS = 30_000;
