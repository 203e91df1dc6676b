/** The workflow graph: which tools produce the identifiers other tools consume, and in what order to call them. */
export { buildGraph, type GraphEdge, type GraphNode, type GraphOptions, type WorkflowGraph, type Evidence } from './build';
export { creationOrder, renderOrderMarkdown, leafParam, type CreationOrder, type OrderStep, type OrderCycle, type StepKind } from './order';
export { renderGraph, renderMermaid, renderDot, renderGraphJson, type GraphFormat } from './render';
