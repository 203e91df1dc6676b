/**
 * The client's cheap guess at whether a workspace holds tool or eval files, made before any
 * server runs so that other workspaces never start one. It only has to be generous: the server
 * detects formats for real, and a false guess costs an idle server process, nothing on screen.
 * No `vscode` import, so tests run it directly.
 */

/** Files the server may treat as tool or eval files (it skips the rest of the workspace). */
export const CANDIDATE_GLOB = '**/*.{yaml,yml,json,snap}';
export const CONFIG_GLOB = '**/.mcp-tool-lint.{yaml,yml,json}';
/** Folders the scan skips: dependencies, build output, caches (the server's walk skips them too). */
export const EXCLUDE_GLOB = '**/{node_modules,.git,dist,out,build,coverage,.cache,.venv,venv,__pycache__,.next,test-results,.terraform,.yarn}/**';

/** Bounds of the activation scan, so a huge workspace costs at most a moment. */
export const SCAN = { maxFound: 2000, maxRead: 300, headBytes: 64 * 1024, headLines: 2000, budgetMs: 3000 } as const;

/**
 * Keys that tool catalogues and eval suites have and other YAML/JSON rarely does: MCP's
 * `inputSchema`, function-calling `parameters`, argument lists, `tools:` wrappers, MXCP files.
 * Kubernetes' `annotations:` is too common in YAML to count there; in JSON it marks tool maps.
 */
const MARKERS = [
  /\b(?:inputSchema|input_schema)\b/,
  /^[ \t-]*(?:mxcp|tools|functions|parameters|arguments)[ \t]*:/m,
  /"(?:tools|functions|parameters|arguments|annotations)"[ \t]*:/,
];

export function looksLikeToolText(text: string): boolean {
  return MARKERS.some((re) => re.test(text));
}

/** Well-known files that are never catalogues: reading them would only spend the scan's budget. */
const NEVER = new Set(['package.json', 'package-lock.json', 'tsconfig.json', 'jsconfig.json', 'composer.json', 'pnpm-lock.yaml', 'renovate.json', '.pre-commit-config.yaml', 'docker-compose.yml', 'docker-compose.yaml', 'mkdocs.yml', 'codecov.yml', '.travis.yml', '.gitlab-ci.yml']);

/** The scan's reading order: likely names first (`tools.yaml`, `*.snap`, `evals/…`), the rest after. */
export function scanOrder(paths: string[]): string[] {
  const likely = /(?:tool|mcp|function|eval|\.snap$)/i;
  const base = (p: string) => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
  const kept = paths.filter((p) => !NEVER.has(base(p)));
  const score = (p: string) => (likely.test(base(p)) ? 0 : likely.test(p) ? 1 : 2);
  return kept
    .map((p, i) => ({ p, i, s: score(p) }))
    .sort((a, b) => a.s - b.s || a.i - b.i)
    .map((x) => x.p);
}
