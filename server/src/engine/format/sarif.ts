/**
 * SARIF 2.1.0, for GitHub code scanning and other SARIF viewers: one run whose driver lists every
 * rule with its documentation, and a result per finding with a file-relative location.
 */
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, LintResult } from '../diagnostic';
import { HOMEPAGE, ruleDocsUrl } from '../docs-url';
import { allRules } from '../rules';
import type { Rule } from '../rules/api';
import type { Severity } from '../types';
import { displayPath, isOutside, unattachedInternalErrors, type FormatOptions } from './common';

type Level = 'error' | 'warning' | 'note';

const LEVEL: Record<Severity, Level> = { error: 'error', warning: 'warning', info: 'note' };

const SRCROOT = '%SRCROOT%';

/** Ids the runner reports that are not rules of the registry. */
const BUILT_IN: Record<string, { description: string; level: Level }> = {
  'internal-error': { description: 'Report a rule that failed while checking a file', level: 'error' },
  'unused-disable-directive': { description: 'Report a suppression comment that suppresses nothing', level: 'warning' },
};

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription?: { text: string };
  helpUri?: string;
  help?: { text: string; markdown: string };
  defaultConfiguration: { level: Level };
  properties?: Record<string, unknown>;
}

export function formatSarif(result: LintResult, opts: FormatOptions): string {
  const rules: SarifRule[] = allRules().map(registeredRule);
  const index = new Map(rules.map((r, i) => [r.id, i]));
  // Findings of unregistered ids still need a descriptor, or viewers show them without a rule.
  for (const r of result.results) {
    for (const d of r.diagnostics) {
      if (index.has(d.rule)) continue;
      index.set(d.rule, rules.length);
      rules.push(builtInRule(d.rule, d.severity));
    }
  }

  const seen = new Map<string, number>();
  const results = result.results.flatMap((r) => {
    const path = displayPath(r.file.path, opts.cwd);
    return r.diagnostics.map((d) => sarifResult(d, path, index.get(d.rule)!, seen));
  });

  const internal = unattachedInternalErrors(result);
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'mcp-tool-lint',
            version: opts.toolVersion,
            informationUri: HOMEPAGE,
            rules,
          },
        },
        invocations: [
          {
            executionSuccessful: result.internalErrors.length === 0,
            toolExecutionNotifications: internal.map((m) => ({ level: 'error', message: { text: m } })),
          },
        ],
        originalUriBaseIds: { [SRCROOT]: { uri: dirUri(opts.cwd) } },
        // The engine counts columns in UTF-16 code units, as editors do; say so rather than rely on the default.
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

function registeredRule(rule: Rule): SarifRule {
  const m = rule.meta;
  const url = ruleDocsUrl(m.id);
  return {
    id: m.id,
    name: pascalCase(m.id),
    shortDescription: { text: m.description },
    fullDescription: { text: m.docs.what || m.description },
    helpUri: url,
    help: { text: helpText(rule, url), markdown: helpMarkdown(rule, url) },
    defaultConfiguration: { level: LEVEL[m.severity] },
    properties: { fixable: m.fixable, recommended: m.recommended, scope: m.scope },
  };
}

function builtInRule(id: string, severity: Severity): SarifRule {
  const known = BUILT_IN[id];
  return {
    id,
    name: pascalCase(id),
    shortDescription: { text: known?.description ?? id },
    defaultConfiguration: { level: known?.level ?? LEVEL[severity] },
  };
}

function sarifResult(d: Diagnostic, path: string, ruleIndex: number, seen: Map<string, number>) {
  const outside = isOutside(path);
  return {
    ruleId: d.rule,
    ruleIndex,
    level: LEVEL[d.severity],
    message: { text: d.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: outside ? { uri: pathToFileURL(path).href } : { uri: encodePath(path), uriBaseId: SRCROOT },
          region: {
            startLine: d.range.start.line,
            startColumn: d.range.start.column,
            endLine: d.range.end.line,
            endColumn: d.range.end.column,
          },
        },
      },
    ],
    partialFingerprints: { 'mcpToolLint/v1': fingerprint(d, path, seen) },
    properties: { tool: d.tool, parameter: d.parameter, test: d.test, pointer: d.pointer },
  };
}

/**
 * A fingerprint that survives edits elsewhere in the file (no line numbers in it), so code
 * scanning keeps tracking one alert as lines move. Identical findings get an occurrence suffix
 * so they stay distinct.
 */
function fingerprint(d: Diagnostic, path: string, seen: Map<string, number>): string {
  const hash = createHash('sha256').update([d.rule, path, d.pointer, d.message].join('\u0000')).digest('hex').slice(0, 32);
  const n = (seen.get(hash) ?? 0) + 1;
  seen.set(hash, n);
  return `${hash}:${n}`;
}

/** A relative path as a URI reference: each segment percent-encoded (spaces, `#`, and a `:` that would read as a scheme). */
function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function dirUri(dir: string): string {
  const href = pathToFileURL(dir).href;
  return href.endsWith('/') ? href : href + '/';
}

export function pascalCase(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

function helpText(rule: Rule, url: string): string {
  const { what, why } = rule.meta.docs;
  return [what, why, `Documentation: ${url}`].filter(Boolean).join('\n\n');
}

function helpMarkdown(rule: Rule, url: string): string {
  const { what, why, fix } = rule.meta.docs;
  const parts: string[] = [];
  if (what) parts.push(`## What it does\n\n${what}`);
  if (why) parts.push(`## Why is this bad?\n\n${why}`);
  if (fix) parts.push(`## Fix\n\n${fix}`);
  parts.push(`[Rule documentation, with an example](${url})`);
  return parts.join('\n\n');
}

