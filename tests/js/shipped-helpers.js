// Shared by tests/js/shipped-*.test.js: the card and file of a shipped model (web/models/), with
// the checks every card gets (file under 500 KB unless a test names its own limit, the card's parameter and byte counts are the
// file's, the card names its command, seeds and training time).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { countParams } from '../../scripts/train/common.mjs';

export const MODELS_DIR = new URL('../../web/models/', import.meta.url);

/** { card, bytes } of web/models/<name>.{json,safetensors}, after the common checks. */
export function shipped(name, { maxBytes = 500 * 1024 } = {}) {
  const card = JSON.parse(readFileSync(new URL(`${name}.json`, MODELS_DIR), 'utf8'));
  assert.equal(card.name, name);
  const bytes = new Uint8Array(readFileSync(new URL(card.file, MODELS_DIR)));
  assert.ok(bytes.length < maxBytes, `${name}: ${bytes.length} bytes (limit ${maxBytes / 1024} KB)`);
  assert.equal(card.architecture.bytes, bytes.length, `${name}: the card's byte count`);
  assert.equal(card.architecture.parameters, countParams(bytes), `${name}: the card's parameter count`);
  assert.match(card.training.command, new RegExp(`^node scripts/train\\.mjs ${name}`));
  assert.ok(card.training.seconds > 0 && Number.isInteger(card.training.initSeed), `${name}: training time and seed`);
  return { card, bytes };
}

/**
 * A rate measured on the card's test sample equals the card's, within `slack` (e.g. one example
 * in `count`): the SIMD and scalar builds round differently, so a borderline case may flip.
 */
export function assertNear(name, what, measured, expected, slack) {
  assert.ok(Math.abs(measured - expected) <= slack + 1e-9, `${name}: ${what} ${measured} on the test sample vs the card's ${expected} (slack ${slack})`);
}
