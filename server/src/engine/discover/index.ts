/** Discoverability (seed 004): the intent ranker, the categorised tool map and the zero-result report. */
export { rankTools, buildIndex, intentTerms, queryUnits, type QueryUnit, FIELD_WEIGHTS, SYNONYM_WEIGHT, COMPOUND_WEIGHT, type Ranked, type RankOptions, type ToolIndex, type Field } from './rank';
export { buildToolMap, renderToolMapMarkdown, parseIntents, intentReport, renderIntentReportMarkdown, type ToolMap, type MapEntry, type IntentReport, type IntentResult } from './map';
export { toolCategory, toolSummary, firstSentence, SUMMARY_MAX } from './tool-info';
export { analyze, stem, synonymsOf, isAction, STOP_WORDS } from './text';
