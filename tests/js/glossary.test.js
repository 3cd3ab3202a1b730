// glossary.test.js: web/shared/glossary.js names every symbol the page's equations use, in both
// languages (Node).
//
// Parses (notation.js) every equation of the lesson (lesson-steps.js) and of the alignment view's
// panel (explain.js EQUATIONS, for both styles, and panelEquations of every mechanism), and every
// symbol written with a sub- or superscript in the English and Chinese tables (the lesson's texts,
// the views' explanations): each must be a glossary entry. Every entry has a one-line meaning in
// English and in Chinese, a unique id, and a shown form whose own symbol is the entry.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CONTEXT_EQUATION,
  EQUATIONS,
  LOCAL_EQUATION,
  SOFTMAX_EQUATION,
  panelEquations,
  queryOf,
} from '../../web/shared/explain.js';
import { GLOSSARY, NAMED, glossaryEntry, symbolsOf } from '../../web/shared/glossary.js';
import { keys, t } from '../../web/shared/i18n.js';
import { LESSON_STEPS, equationSource } from '../../web/shared/lesson-steps.js';
import '../../web/shared/lesson-text.js'; // the lesson's strings join the tables
import { equationPieces, equationSymbols, toMarkup } from '../../web/shared/notation.js';

const MECHANISMS = Object.keys(EQUATIONS);

/** Every equation the lesson and the panel show. */
function allEquations() {
  const out = LESSON_STEPS.flatMap((s, i) =>
    s.equations.map((e) => [`step ${i + 1}`, equationSource(e)]),
  );
  for (const style of ['bahdanau', 'luong']) {
    for (const [k, e] of Object.entries(EQUATIONS))
      out.push([`EQUATIONS.${k} (${style})`, e.replaceAll('{q}', queryOf(style))]);
    for (const attention of MECHANISMS)
      for (const score of ['dot', 'general', 'concat'])
        for (const e of panelEquations({ attention, style, score, scaled: true }))
          out.push([`panel ${attention}/${score} (${style})`, e]);
  }
  out.push(['softmax', SOFTMAX_EQUATION], ['local', LOCAL_EQUATION], ['context', CONTEXT_EQUATION]);
  return out;
}

test('every symbol of the lesson and the panel is in the glossary', () => {
  const missing = [];
  let n = 0;
  for (const [where, e] of allEquations())
    for (const s of equationSymbols(e, NAMED)) {
      n++;
      if (!glossaryEntry(s)) missing.push(`${where}: ${s} in ${e}`);
    }
  assert.deepEqual(missing, []);
  assert.ok(n > 150, `${n} symbols parsed`);
  // the parser really finds the named forms and the function letters
  assert.deepEqual(equationSymbols('k_i = W_K h_i', NAMED), ['k', 'W_K', 'h']);
  assert.deepEqual(equationSymbols('s_t = f(s_{t−1}, y_{t−1})', NAMED), ['s', 'f()', 'y']);
  assert.deepEqual(equationSymbols('a^K_{ij} = w^K_{clip(j − i, kₘₐₓ)}', NAMED), ['a^K', 'w^K']);
  assert.deepEqual(equationSymbols('√d_k · Zq', NAMED), ['d_k', 'Zq']);
  assert.equal(glossaryEntry('Zq'), undefined, 'an unknown symbol is reported, not skipped');
});

test('every entry has a meaning in English and Chinese; ids are unique', () => {
  const ids = new Set();
  for (const e of GLOSSARY) {
    assert.ok(!ids.has(e.id), `duplicate ${e.id}`);
    ids.add(e.id);
    assert.ok(e.en && e.zh, `${e.id}: both languages`);
    assert.ok(/\p{Script=Han}/u.test(e.zh), `${e.id}: zh is Chinese: ${e.zh}`);
    assert.ok(!/\p{Script=Han}/u.test(e.en), `${e.id}: en has no Chinese`);
    assert.ok(e.en.length <= 110 && !/\.\s/.test(e.en), `${e.id}: one line: ${e.en}`);
    // the shown form's first symbol is the entry itself (h_i, h_t → h; W_{s1} → W_s1)
    const first = equationSymbols(e.sym.split(', ')[0], NAMED)[0];
    assert.equal(first, e.id, `${e.id} is shown as ${e.sym}`);
  }
  // the brief's list, at least
  for (const id of [
    'h',
    's',
    'e',
    'α',
    'c',
    'h̃',
    'p',
    'D',
    'σ',
    'Q',
    'K',
    'V',
    'd_k',
    'u',
    'u_w',
    'r',
    'A',
    'P',
  ])
    assert.ok(ids.has(id), id);
});

test('symbols written with a sub- or superscript in the texts are in the glossary', () => {
  const missing = new Set();
  let n = 0;
  for (const lang of ['en', 'zh'])
    for (const key of keys(lang)) {
      const text = t(lang, key);
      if (typeof text !== 'string' || !/[_^\u2080-\u209c\u1d62-\u1d6a\u2c7c\u1d40ᴷⱽ]/u.test(text))
        continue;
      // __metadata__ is a name in the file format, not maths
      const pieces = equationPieces(toMarkup(text.replace(/__\w+__/g, ' ')), NAMED);
      pieces.forEach((p, i) => {
        const next = pieces[i + 1]?.parts[0]?.[0];
        const indexed = p.parts.length > 1 || next === 'sub' || next === 'sup';
        if (!p.symbol || !indexed) return;
        n++;
        // a product written tight (AAᵀ, QKᵀ): each capital its own symbol
        const tight = /^\p{Lu}{2,}$/u.test(p.symbol) ? Array.from(p.symbol) : [p.symbol];
        for (const s of tight) if (!glossaryEntry(s)) missing.add(`${lang} ${key}: ${s}`);
      });
    }
  assert.deepEqual([...missing], []);
  assert.ok(n > 40, `${n} indexed symbols in the texts`);
});

test('symbolsOf keeps the order of first use', () => {
  assert.deepEqual(symbolsOf(['c_t = Σ_i α_{ti} h_i', 'α_{ti} = exp(e_{ti})']), [
    'c',
    'Σ',
    'α',
    'h',
    'exp',
    'e',
  ]);
});
