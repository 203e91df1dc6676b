/**
 * ESLint-RuleTester-style checks for one rule: valid and invalid cases written inline.
 * An invalid case states each finding's messageId and position, and the text after fixes;
 * the tester checks that fixes re-parse, converge in one pass, and match the rule's meta.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadText } from '../../server/src/engine/load';
import { lint } from '../../server/src/engine/runner';
import { ruleSettings, defaultConfig, type Config } from '../../server/src/engine/config';
import { getRule } from '../../server/src/engine/rules';
import { parseText } from '../../server/src/engine/parse';
import { applyFixesToText } from '../../server/src/engine/fix/apply';
import { opsToEdits } from '../../server/src/engine/fix/edits';
import { applyEdits } from '../../server/src/engine/fix/apply';
import type { Diagnostic } from '../../server/src/engine/diagnostic';
import type { SourceFile } from '../../server/src/engine/model';

export interface Case {
  name?: string;
  code: string;
  filename?: string;
  options?: Record<string, unknown>;
  /** Other files of the same catalogue. */
  others?: { filename: string; code: string }[];
}

export interface ExpectedFinding {
  messageId: string;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  parameter?: string | null;
  tool?: string | null;
  pointer?: string;
  severity?: 'error' | 'warning' | 'info';
  /** Expected text after applying the suggestion with this index. */
  suggestionOutputs?: string[];
  messageIncludes?: string;
}

export interface InvalidCase extends Case {
  errors: ExpectedFinding[];
  /** Text after `--fix` (omit when the rule has no fix for this case). */
  output?: string;
}

export function runRule(ruleId: string, c: Case): { diagnostics: Diagnostic[]; file: SourceFile } {
  const rule = getRule(ruleId);
  assert.ok(rule, `unknown rule ${ruleId}`);
  const cfg: Config = { ...defaultConfig(), extends: [], rules: { [ruleId]: { severity: rule.meta.severity, options: c.options } } };
  const filename = c.filename ?? 'tools.yaml';
  const file = loadText(filename, c.code, { explicit: true });
  const others = (c.others ?? []).map((o) => loadText(o.filename, o.code, { explicit: true }));
  const res = lint([file, ...others], { settingsFor: () => ruleSettings(cfg, null) });
  assert.deepEqual(res.internalErrors, [], 'the rule threw');
  const diagnostics = res.results.find((r) => r.file === file)!.diagnostics.filter((d) => d.rule === ruleId);
  return { diagnostics, file };
}

export function fixText(ruleId: string, c: Case, text: string): { text: string; applied: number } {
  return applyFixesToText(c.filename ?? 'tools.yaml', text, (t) => {
    const { diagnostics, file } = runRule(ruleId, { ...c, code: t });
    return { file, fixes: diagnostics.filter((d) => d.fix).map((d) => ({ doc: d.doc, ops: d.fix!.ops })) };
  });
}

export function ruleTester(ruleId: string, cases: { valid: (Case | string)[]; invalid: InvalidCase[] }): void {
  const rule = getRule(ruleId)!;
  cases.valid.forEach((raw, i) => {
    const c = typeof raw === 'string' ? { code: raw } : raw;
    test(`${ruleId} valid #${i + 1}${c.name ? `: ${c.name}` : ''}`, () => {
      const { diagnostics } = runRule(ruleId, c);
      assert.deepEqual(
        diagnostics.map((d) => `${d.range.start.line}:${d.range.start.column} ${d.message}`),
        [],
        'expected no findings',
      );
    });
  });
  cases.invalid.forEach((c, i) => {
    test(`${ruleId} invalid #${i + 1}${c.name ? `: ${c.name}` : ''}`, () => {
      const { diagnostics, file } = runRule(ruleId, c);
      assert.equal(diagnostics.length, c.errors.length, `expected ${c.errors.length} finding(s), got:\n${diagnostics.map((d) => `  ${d.range.start.line}:${d.range.start.column} ${d.messageId} ${d.message}`).join('\n')}`);
      c.errors.forEach((e, k) => {
        const d = diagnostics[k];
        assert.equal(d.messageId, e.messageId, `finding ${k + 1}: messageId (${d.message})`);
        if (e.line !== undefined) assert.equal(d.range.start.line, e.line, `finding ${k + 1}: line (${d.message})`);
        if (e.column !== undefined) assert.equal(d.range.start.column, e.column, `finding ${k + 1}: column`);
        if (e.endLine !== undefined) assert.equal(d.range.end.line, e.endLine, `finding ${k + 1}: end line`);
        if (e.endColumn !== undefined) assert.equal(d.range.end.column, e.endColumn, `finding ${k + 1}: end column`);
        if (e.parameter !== undefined) assert.equal(d.parameter, e.parameter, `finding ${k + 1}: parameter`);
        if (e.tool !== undefined) assert.equal(d.tool, e.tool, `finding ${k + 1}: tool`);
        if (e.pointer !== undefined) assert.equal(d.pointer, e.pointer, `finding ${k + 1}: pointer`);
        if (e.severity !== undefined) assert.equal(d.severity, e.severity, `finding ${k + 1}: severity`);
        if (e.messageIncludes !== undefined) assert.ok(d.message.includes(e.messageIncludes), `finding ${k + 1}: message "${d.message}" should include "${e.messageIncludes}"`);
        // Fixability must match the rule's meta.
        if (d.fix) assert.notEqual(rule.meta.fixable, 'never', 'a fix from a rule whose meta says fixable: never');
        if (d.suggestions.length) assert.ok(rule.meta.hasSuggestions, 'suggestions from a rule whose meta says hasSuggestions: false');
        if (e.suggestionOutputs) {
          assert.equal(d.suggestions.length, e.suggestionOutputs.length, `finding ${k + 1}: number of suggestions`);
          e.suggestionOutputs.forEach((expected, si) => {
            const edits = opsToEdits(file, d.doc, d.suggestions[si].ops);
            assert.ok(edits, `suggestion ${si + 1} (${d.suggestions[si].title}) could not be turned into edits`);
            const out = applyEdits(c.code, edits!);
            assert.equal(out, expected, `suggestion ${si + 1} (${d.suggestions[si].title}) output`);
            assert.equal(parseText(out, file.lang).problems.filter((p) => p.kind === 'parse-error').length, 0, 'suggestion output must parse');
            assertCommentsSurvive(c.code, out);
            const still = runRule(ruleId, { ...c, code: out }).diagnostics.filter((x) => x.messageId === d.messageId && x.pointer === d.pointer && x.message === d.message);
            assert.deepEqual(still.map((x) => x.message), [], `after suggestion ${si + 1} (${d.suggestions[si].title}) the finding is still there`);
          });
        }
      });
      if (c.output !== undefined) {
        const fixed = fixText(ruleId, c, c.code);
        assert.equal(fixed.text, c.output, 'output after --fix');
        assert.equal(parseText(fixed.text, file.lang).problems.filter((p) => p.kind === 'parse-error').length, 0, 'fixed output must parse');
        assertCommentsSurvive(c.code, fixed.text);
        const left = runRule(ruleId, { ...c, code: fixed.text }).diagnostics.filter((x) => x.fix);
        assert.deepEqual(left.map((x) => x.message), [], 'after --fix no fixable finding of this rule remains');
        const again = fixText(ruleId, c, fixed.text);
        assert.equal(again.text, fixed.text, 'a second --fix must change nothing');
      } else {
        assert.ok(diagnostics.every((d) => !d.fix), 'this case produces a fix: state its `output`');
      }
    });
  });
}

/** Every full-line comment of the input is still in the output (fixes never drop comments). */
function assertCommentsSurvive(before: string, after: string): void {
  const comments = before.split(/\r?\n/).filter((l) => /^\s*#/.test(l)).map((l) => l.trim());
  const kept = new Set(after.split(/\r?\n/).map((l) => l.trim()));
  for (const c of comments) assert.ok(kept.has(c), `comment lost: ${c}`);
}
