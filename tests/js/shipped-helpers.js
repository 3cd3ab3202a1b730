// Shared by tests/js/shipped-*.test.js: the card and file of a shipped model (web/models/), with
// the checks every card gets (file under 500 KB unless the family's budget says otherwise, the
// card's parameter and byte counts are the file's, the card names its command, seeds and
// training time, the file is stored I8 as its storage record says).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { countParams, F16_TOLERANCE_POINTS } from '../../scripts/train/common.mjs';
import { I8_SCALE_SUFFIX, storedAsI8 } from '../../wasm/i8.js';
import { readDate } from './dates-reader.js';

export const MODELS_DIR = new URL('../../web/models/', import.meta.url);

/** { card, bytes } of web/models/<name>.{json,safetensors}, after the common checks; maxBytes:
 * the family's budget (the review classifiers, with a 5,000-word vocabulary: 2 MB as float32). */
export function shipped(name, { maxBytes = 500 * 1024 } = {}) {
  const card = JSON.parse(readFileSync(new URL(`${name}.json`, MODELS_DIR), 'utf8'));
  assert.equal(card.name, name);
  const bytes = new Uint8Array(readFileSync(new URL(card.file, MODELS_DIR)));
  assert.ok(
    bytes.length < maxBytes,
    `${name}: ${bytes.length} bytes (limit ${maxBytes / 1024} KB)`,
  );
  assert.equal(card.architecture.bytes, bytes.length, `${name}: the card's byte count`);
  assert.equal(
    card.architecture.parameters,
    countParams(bytes),
    `${name}: the card's parameter count`,
  );
  assert.match(card.training.command, new RegExp(`^node scripts/train\\.mjs ${name}`));
  assert.ok(
    card.training.seconds > 0 && Number.isInteger(card.training.initSeed),
    `${name}: training time and seed`,
  );
  if (card.storage) {
    // stored as I8 (scripts/train/common.mjs shipI8, wasm/i8.js): the matrices of at least
    // I8_MIN_ELEMENTS weights int8 with their F32 per-row scales, every other tensor F16; the
    // card's sizes; at most F16_TOLERANCE_POINTS lost against the float32 model
    const n = Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true));
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
    assert.equal(card.storage.dtype, 'I8');
    let int8 = 0;
    for (const [k, t] of Object.entries(header)) {
      if (k === '__metadata__') continue;
      if (k.endsWith(I8_SCALE_SUFFIX)) {
        const w = header[k.slice(0, -I8_SCALE_SUFFIX.length)];
        assert.equal(w?.dtype, 'I8', `${name}: ${k} scales an I8 tensor`);
        assert.deepEqual([t.dtype, t.shape], ['F32', [w.shape[0]]], `${name}: ${k}`);
        continue;
      }
      assert.equal(
        t.dtype,
        storedAsI8(t.shape) ? 'I8' : 'F16',
        `${name}: ${k} ${JSON.stringify(t.shape)}`,
      );
      if (t.dtype === 'I8') int8 += t.shape[0] * t.shape[1];
    }
    assert.ok(
      int8 > 0.5 * card.architecture.parameters,
      `${name}: ${int8} of ${card.architecture.parameters} parameters int8`,
    );
    assert.equal(card.storage.bytes, bytes.length);
    assert.ok(
      card.storage.float32Bytes > 3 * (bytes.length - 8 - n),
      `${name}: I8 stores the float32 tensor bytes in under a third`,
    );
    assert.ok(
      100 * (card.storage.float32 - card.storage.int8) <= F16_TOLERANCE_POINTS,
      `${name}: ${card.storage.metric} ${card.storage.int8} as I8 vs ${card.storage.float32}`,
    );
  }
  return { card, bytes };
}

/**
 * A rate measured on the card's test sample equals the card's, within `slack` (e.g. one example
 * in `count`): the SIMD and scalar builds round differently, so a borderline case may flip.
 */
export function assertNear(name, what, measured, expected, slack) {
  assert.ok(
    Math.abs(measured - expected) <= slack + 1e-9,
    `${name}: ${what} ${measured} on the test sample vs the card's ${expected} (slack ${slack})`,
  );
}

/**
 * The checks of a shipped dates model (seq2seq or transformer, web/data/dates.js): on the card's
 * 200-date test samples (named formats and variations) it reaches the card's exact match, within
 * one date; the card's held-out numbers meet the targets (99% named, 95% variations; `bound`
 * false for a model the targets do not bind, the one without attention); raw text with capitals
 * and extra spaces gives the same output as its normalised form; the card states the year range,
 * the pivot, the normalisation and its examples, and the model answers its best examples right.
 */
export function checkDatesModel(
  name,
  card,
  model,
  { generateDates, YEAR_MIN, YEAR_MAX, DATES_TOKENIZER },
  { bound = true } = {},
) {
  const t = card.metrics.testSample;
  for (const set of ['named', 'variations']) {
    const { seed, count, exactMatch } = t[set];
    let right = 0;
    for (const p of generateDates({ seed, count, split: 'heldout', set }))
      if (model.run(p.src).output === p.tgt) right++;
    assertNear(name, `${set} exact match`, right / count, exactMatch, 1 / count);
  }
  assert.equal(t.exactMatch, t.named.exactMatch);
  const h = card.metrics.heldout;
  assert.equal(h.exactMatch, h.named.exactMatch);
  assert.ok(h.named.count >= 2000 && h.variations.count >= 2000);
  if (bound) {
    assert.ok(
      h.named.exactMatch >= 0.99,
      `${name}: held-out exact match on the named formats ${h.named.exactMatch} (target 0.99)`,
    );
    assert.ok(
      h.variations.exactMatch >= 0.95,
      `${name}: held-out exact match on the variations ${h.variations.exactMatch} (target 0.95)`,
    );
  }
  assert.deepEqual(card.data.years, [YEAR_MIN, YEAR_MAX]);
  assert.match(card.data.twoDigitYears, /69-99 -> 1969-1999, 00-68 -> 2000-2068/);
  assert.deepEqual(card.data.normalize, DATES_TOKENIZER.normalize);
  assert.deepEqual(model.config.tokenizer.normalize, DATES_TOKENIZER.normalize);
  // raw text as typed and its normalised form read the same
  const raws = generateDates({ seed: 99, count: 40, split: 'heldout', set: 'variations' })
    .map((p) => p.src)
    .concat(['  SUNDAY,   22  NOVEMBER 2026  ', 'tHe 3Rd   oF sEPT.  1999', '\t11/22/2026\n']);
  for (const raw of raws) {
    const norm = raw.toLowerCase().replace(/\s+/g, ' ').trim();
    assert.equal(model.normalize(raw), norm);
    const a = model.run(raw),
      b = model.run(norm);
    assert.equal(a.output, b.output, `${name}: '${raw}' vs '${norm}'`);
    assert.deepEqual(a.ids, b.ids);
  }
  const ex = card.examples;
  assert.equal(ex.best.length, 3);
  for (const src of ex.best)
    assert.equal(model.run(src).output, readDate(src), `${name}: best example '${src}'`);
  assert.equal(typeof ex.limit, 'string');
  assert.equal(model.run(ex.limit).output, ex.limitOutput, `${name}: the limit example's output`);
  if (ex.limitExpected !== null) assert.notEqual(ex.limitOutput, ex.limitExpected);
  assert.equal(model.run('22 Nov 2026').output, '2026-11-22', `${name}: the page's default input`);
}
