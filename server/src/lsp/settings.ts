/**
 * Settings under `mcpToolLint.` (scope: resource). Values from the client are coerced with safe
 * defaults: a bad value never breaks the server, and nothing is kept in globals.
 */
import type { SeverityOrOff } from '../engine/types';

export interface Settings {
  enable: boolean;
  run: 'onType' | 'onSave';
  /** Rule severity overrides, on top of the workspace config file. */
  rules: Record<string, SeverityOrOff>;
  /** Globs of files that count as tool files even when content detection says otherwise. */
  toolFiles: string[];
  trace: 'off' | 'messages' | 'verbose';
}

export const DEFAULT_SETTINGS: Settings = { enable: true, run: 'onType', rules: {}, toolFiles: [], trace: 'off' };

const SEVERITIES = new Set(['off', 'info', 'warning', 'error']);

export function coerceSettings(raw: unknown): Settings {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const rules: Record<string, SeverityOrOff> = {};
  if (r.rules && typeof r.rules === 'object' && !Array.isArray(r.rules)) {
    for (const [k, v] of Object.entries(r.rules as Record<string, unknown>)) if (typeof v === 'string' && SEVERITIES.has(v)) rules[k] = v as SeverityOrOff;
  }
  const trace = (r.trace && typeof r.trace === 'object' ? (r.trace as Record<string, unknown>).server : r.trace) as unknown;
  return {
    enable: typeof r.enable === 'boolean' ? r.enable : DEFAULT_SETTINGS.enable,
    run: r.run === 'onSave' ? 'onSave' : 'onType',
    rules,
    toolFiles: Array.isArray(r.toolFiles) ? r.toolFiles.filter((x): x is string => typeof x === 'string') : [],
    trace: trace === 'messages' || trace === 'verbose' ? trace : 'off',
  };
}
