// forgetting-data.js: the plain data of the Forgetting view (forgetting-view.js): where the
// length curve was measured, the curve checked, an output compared with the reversal, the
// reversal pair of a model, the nearest measured length, the curve as CSV, a random held-out
// input.
//
//   const curve = checkCurve(await (await fetch(url)).json());   // throws, naming the problem
//   compareReversal(output, input)   // { chars: [{ char, expected, ok, index }], right, total, accuracy }
//
// Holds: pure functions (tested in Node, tests/js/web-reading-forgetting.test.js; sourceNodes
// makes text nodes and <code>). Deliberately holds no view state and no chart (forgetting-chart.js).

import { generateSequences } from '../data/sequences.js';
import { csvField } from '../shared/draw.js';
import { t } from '../shared/i18n.js';
import { findModel, modelsFor } from '../shared/models.js';
import { el } from '../shared/view-kit.js';

/**
 * Where the curve was measured, in lang: "Measured on 20 held-out strings of every length from 5
 * to 60:" and the call that made them as code (curve.heldout is the card's English,
 * 'lengthStratified({ seed: 2024, perLength: 20 }): 20 held-out strings …'); a heldout of
 * another form is shown whole, as code.
 */
export function sourceNodes(curve, lang) {
  const call = /^[\w.]+\([^()]*\)/.exec(curve.heldout)?.[0];
  const count = /perLength:\s*(\d+)/.exec(curve.heldout)?.[1];
  const code = (text) => el('code', { translate: 'no', text });
  if (call && count)
    return [
      t(lang, 'forgetting.sourceSet', { count, min: curve.lengths[0], max: curve.lengths.at(-1) }),
      ' ',
      code(call),
    ];
  const [before, after = ''] = t(lang, 'forgetting.source', { heldout: '\u0000' }).split('\u0000');
  return [before, code(curve.heldout), after];
}

/**
 * The length curve, validated: { what, heldout, symbols, lengths, models: [{ name, attention,
 * hiddenSize, parameters, tokenAccuracy, exactMatch }] }. Throws an Error naming the problem.
 */
export function checkCurve(doc) {
  if (!doc || typeof doc !== 'object') throw new Error('the curve is not a JSON object');
  const { lengths, models } = doc;
  if (
    !Array.isArray(lengths) ||
    lengths.length < 2 ||
    !lengths.every((n) => Number.isInteger(n) && n > 0)
  ) {
    throw new Error('"lengths" must hold at least two positive integers');
  }
  for (let i = 1; i < lengths.length; i++)
    if (lengths[i] <= lengths[i - 1]) throw new Error('"lengths" must increase');
  if (!Array.isArray(models) || models.length === 0)
    throw new Error('"models" must be a non-empty array');
  const unit = (v) => typeof v === 'number' && v >= 0 && v <= 1;
  const out = models.map((m, i) => {
    if (!m || typeof m.name !== 'string') throw new Error(`models[${i}] has no "name"`);
    for (const k of ['tokenAccuracy', 'exactMatch']) {
      if (!Array.isArray(m[k]) || m[k].length !== lengths.length || !m[k].every(unit)) {
        throw new Error(`models[${i}].${k} must hold ${lengths.length} numbers in [0, 1]`);
      }
    }
    return {
      name: m.name,
      attention: typeof m.attention === 'string' ? m.attention : null,
      hiddenSize: Number.isInteger(m.hiddenSize) ? m.hiddenSize : null,
      parameters: Number.isInteger(m.parameters) ? m.parameters : null,
      tokenAccuracy: m.tokenAccuracy.slice(),
      exactMatch: m.exactMatch.slice(),
    };
  });
  const symbols = Number.isInteger(doc.symbols) && doc.symbols > 1 ? doc.symbols : null;
  return {
    what: String(doc.what ?? ''),
    heldout: String(doc.heldout ?? ''),
    symbols,
    lengths: lengths.slice(),
    models: out,
  };
}

/**
 * One output against the reversal of input, position by position (as scoreByLength of
 * web/data/sequences.js): { expected, chars: [{ index, char (null: missing), expected (null:
 * extra), ok }], right, total, accuracy }; accuracy = right / total (total = expected length).
 */
export function compareReversal(output, input) {
  const exp = Array.from(input).reverse();
  const out = Array.from(output ?? '');
  const chars = [];
  let right = 0;
  for (let i = 0; i < Math.max(exp.length, out.length); i++) {
    const ok = i < exp.length && out[i] === exp[i];
    if (ok) right++;
    chars.push({ index: i, char: out[i] ?? null, expected: exp[i] ?? null, ok });
  }
  return {
    expected: exp.join(''),
    chars,
    right,
    total: exp.length,
    accuracy: exp.length ? right / exp.length : 0,
  };
}

/**
 * The pair a model belongs to: { attention, none, curve } (registry names and the curve file,
 * relative to web/; null where unknown). A same-origin path or a model without a partner is
 * `attention` alone, with the offered pair's curve.
 */
export function reversePair(name) {
  const entry = findModel(name);
  const offered = modelsFor('reverse');
  const curve = entry?.curve ?? offered[0]?.curve ?? null;
  if (!entry || !entry.partner) return { attention: name, none: null, curve };
  return entry.attention === 'none'
    ? { attention: entry.partner, none: entry.name, curve }
    : { attention: entry.name, none: entry.partner, curve };
}

/** The index of the curve length nearest to length (ties: the shorter). */
export function nearestLength(lengths, length) {
  let best = 0;
  for (let i = 1; i < lengths.length; i++)
    if (Math.abs(lengths[i] - length) < Math.abs(lengths[best] - length)) best = i;
  return best;
}

/** The curve's numbers as CSV: length, then tokenAccuracy and exactMatch of each model. */
export function curveCSV(curve) {
  const head = [
    'length',
    ...curve.models.flatMap((m) => [`${m.name} tokenAccuracy`, `${m.name} exactMatch`]),
  ].map(csvField);
  const rows = curve.lengths.map((n, j) =>
    [n, ...curve.models.flatMap((m) => [m.tokenAccuracy[j], m.exactMatch[j]])]
      .map(csvField)
      .join(','),
  );
  return `${[head.join(','), ...rows].join('\r\n')}\r\n`;
}

/** A held-out reversal input of 5–60 symbols a–t for a seed (never a training string). */
export function randomReversalInput(seed) {
  return generateSequences({ seed, count: 1, split: 'heldout', task: 'reverse' })[0].src;
}
