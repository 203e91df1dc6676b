import { defineRule, type EditOp, type Fix } from './api';
import { PROSE, charName, decodeTags, hiddenChars, identifierOps, mixedScriptWords, modelTexts, originalIndex, quote, removalOps, removeAt, textSpan, whereLabel, type HiddenKind } from '../model-text';

export default defineRule({
  meta: {
    id: 'description-hidden-chars',
    description: 'Disallow invisible characters and look-alike letters in the text a model reads',
    severity: 'error',
    recommended: true,
    fixable: 'sometimes',
    hasSuggestions: true,
    scope: 'tool',
    messages: {
      invisible: '{{where}} contains {{count}} invisible character{{s}} ({{chars}}) that the model reads but a reviewer does not see',
      bidi: '{{where}} contains {{count}} bidirectional control character{{s}} ({{chars}}) that can make the text display in a different order than the model reads it',
      tag: '{{where}} hides text in Unicode tag characters: "{{hidden}}"',
      mixed: '{{where}} mixes {{base}} and {{intruder}} letters in `{{word}}` ({{letters}}{{hint}})',
    },
    docs: {
      what:
        'Reports characters in a tool\'s name, title, description, parameter names and descriptions, enum values, `const`, `default` and `examples` that a reviewer does not see but the model reads: zero-width characters (U+200B–U+200D, U+2060, U+FEFF), bidirectional controls (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069, U+061C), Unicode tag characters (U+E0000–U+E007F, which can spell out a whole hidden instruction: the message decodes it), and other invisible format characters. A zero-width joiner inside an emoji sequence and a joiner between letters of scripts that spell with it (Persian, Indic) are text, not hidden. Also reports a word that mixes Latin with Cyrillic or Greek letters where the letters of one script are all look-alikes of the other\'s (`pаypal` with a Cyrillic `а`); a word written wholly in one script, or mixed notation such as `Δt`, is fine. Characters written as escapes (`\\u200b` in JSON or YAML double quotes) count like raw ones.',
      why: 'Tool text goes straight into the model\'s context. Invisible characters let a description carry instructions nobody reviewing the file can see (tag characters spell ASCII text that models read), bidirectional controls make the text display in a different order than the model reads it, and a name with a look-alike letter passes for another tool or parameter while matching nothing the user types.',
      fix: 'Removes the invisible characters from titles and descriptions (a safe fix: the edit removes exactly those characters, raw or escaped). In names, enum values and other values the same removal is a suggestion, because the server may rely on the exact string. For look-alike letters, suggests the plain Latin spelling when every look-alike letter has a Latin twin.',
    },
  },
  checkTool(tool, ctx) {
    for (const t of modelTexts(tool)) {
      const where = whereLabel(t);
      const hidden = hiddenChars(t.text);
      if (hidden.length > 0) {
        const kind: HiddenKind = hidden.some((h) => h.kind === 'tag') ? 'tag' : hidden.some((h) => h.kind === 'bidi') ? 'bidi' : 'invisible';
        const cleaned = removeAt(t.text, hidden);
        const span = textSpan(tool.file, t.node, hidden[0].i, hidden[0].i + hidden[0].n);
        const names = [...new Set(hidden.map((h) => (h.kind === 'tag' ? 'tag characters' : charName(h.cp))))];
        const listed = kind === 'bidi' ? [...new Set(hidden.filter((h) => h.kind === 'bidi').map((h) => charName(h.cp)))] : names;
        const count = kind === 'bidi' ? hidden.filter((h) => h.kind === 'bidi').length : hidden.length;
        const data: Record<string, string | number> = {
          where,
          count,
          s: count === 1 ? '' : 's',
          chars: listed.slice(0, 3).join(', ') + (listed.length > 3 ? ', …' : ''),
          hidden: kind === 'tag' ? quote(decodeTags(t.text), 80) : '',
        };
        const title = 'Remove the invisible characters';
        const ops = PROSE.has(t.kind) ? removalOps(tool, t, hidden, cleaned) : identifierOps(tool, t, cleaned);
        const fix: Fix | null = ops && PROSE.has(t.kind) ? { title, ops } : null;
        const suggestions: Fix[] = ops && !PROSE.has(t.kind) ? [{ title, ops }] : [];
        ctx.report({ messageId: kind, data, tool, parameter: t.param, loc: t.loc, span: span ?? undefined, fix, suggestions });
      }
      // Look-alike letters are judged on the text as displayed (hidden characters removed).
      const visible = hidden.length ? removeAt(t.text, hidden) : t.text;
      const words = mixedScriptWords(visible);
      if (words.length === 0) continue;
      const w = words[0];
      const startInText = hidden.length ? originalIndex(t.text, hidden, w.index) : w.index;
      const endInText = hidden.length ? originalIndex(t.text, hidden, w.index + w.word.length - 1) + 1 : w.index + w.word.length;
      const span = textSpan(tool.file, t.node, startInText, endInText);
      const letters = w.letters.map((c) => `\`${c}\` is ${w.intruder}`).join(', ');
      let suggestions: Fix[] = [];
      let hint = '';
      if (w.latin !== null) {
        let fixedText = visible;
        for (const x of words) if (x.latin !== null) fixedText = fixedText.slice(0, x.index) + x.latin + fixedText.slice(x.index + x.word.length);
        hint = `; it reads as \`${w.latin}\``;
        const ops = PROSE.has(t.kind) ? [{ op: 'replaceString', path: t.loc.path, value: fixedText } as EditOp] : identifierOps(tool, t, fixedText);
        if (ops) suggestions = [{ title: `Spell it \`${w.latin}\` in Latin letters`, ops }];
      }
      ctx.report({
        messageId: 'mixed',
        data: { where, base: w.base, intruder: w.intruder, word: w.word, letters, hint },
        tool,
        parameter: t.param,
        loc: t.loc,
        span: span ?? undefined,
        suggestions,
      });
    }
  },
});
