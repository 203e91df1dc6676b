/** Where a rule's documentation lives (shipped in the package under docs/rules/). */
export const HOMEPAGE = 'https://github.com/mcp-tool-lint/mcp-tool-lint';

export function ruleDocsUrl(id: string): string {
  return `${HOMEPAGE}/blob/main/docs/rules/${id}.md`;
}
