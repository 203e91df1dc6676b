/** Comparing two versions of a catalogue: `mcp-tool-lint diff OLD NEW`. */
export * from './compare';
export * from './render';
