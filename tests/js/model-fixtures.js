// model-fixtures.js: the set-up the whole-model suites share (model.test.js,
// transformer-model.test.js, classifier.test.js, memory-rnn-model.test.js; not a test file).
//
// Each suite compares one architecture's models with a PyTorch reference file
// tests/fixtures/<reference>.safetensors at the model tolerances (STYLE.md), once per build in
// one process, and prints the worst |diff| per quantity once its tests ran. fixtureSuite()
// registers the hooks (an instance of the asked build from createAttnlab, and that summary line)
// and returns the reference, a close() that records the worst differences, the build's name for
// test names, and that instance's loaders (api, and loadModel() and friends bound to it).
// writeSafetensors() builds the small hand-made (often malformed) model files those suites and
// train.test.js load.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createAttnlab } from '../../wasm/index.js';
import { loadFixture, assertClose } from './fixtures.js';

export const TOL = { atol: 1e-5, rtol: 1e-4 }; // whole model vs PyTorch fixture (STYLE.md)
const FIXTURES = new URL('../fixtures/', import.meta.url);
/** The model file of fixture case c. */
export const modelUrl = (c) => new URL(c.file, FIXTURES);
/** A fixture tensor of token ids as Int32Array. */
export const ids = (t) => Int32Array.from(t.data, Math.round);

/**
 * { api (after the before hook), build, ref, close(what, actual, expected, c), byName(name),
 * loadModel, readSafetensors, createModel, loadTrainableModel } for the reference file
 * `reference` (tol: assertClose's { atol, rtol }, the whole-model TOL unless given); the after hook logs "<label> (simd|scalar): worst |diff| vs PyTorch: {...}".
 */
export function fixtureSuite({ simd, reference, label, tol = TOL }) {
  const ref = loadFixture(reference);
  const worst = {};
  const fx = {
    api: null,
    build: simd ? 'simd128' : 'scalar',
    ref,
    close(what, actual, expected, c) {
      const { maxAbsDiff } = assertClose(actual, expected, { ...tol, label: `${c.name} ${what}` });
      worst[what] = Math.max(worst[what] ?? 0, maxAbsDiff);
    },
    byName: (name) => ref.cases.find((c) => c.name === name),
    // this build's instance, made by the before hook, so tests (which run after it) use these
    loadModel: (source) => fx.api.loadModel(source),
    readSafetensors: (bytes) => fx.api.readSafetensors(bytes),
    createModel: (config, opts) => fx.api.createModel(config, opts),
    loadTrainableModel: (source) => fx.api.loadTrainableModel(source),
  };

  test.before(async () => {
    fx.api = await createAttnlab({ simd });
    assert.equal(fx.api.simd, simd);
  });

  test.after(() => {
    console.log(
      `${label} (${simd ? 'simd' : 'scalar'}): worst |diff| vs PyTorch: ${JSON.stringify(worst)}`,
    );
  });
  return fx;
}

/** A safetensors file from Map name -> { data: Float32Array, shape } and metadata {str: str}. */
export function writeSafetensors(tensors, metadata) {
  const header = {};
  if (metadata) header.__metadata__ = metadata;
  let off = 0;
  for (const [name, t] of tensors) {
    header[name] = { dtype: 'F32', shape: t.shape, data_offsets: [off, off + t.data.length * 4] };
    off += t.data.length * 4;
  }
  let text = JSON.stringify(header);
  while ((8 + new TextEncoder().encode(text).length) % 8) text += ' ';
  const h = new TextEncoder().encode(text);
  const out = new Uint8Array(8 + h.length + off);
  new DataView(out.buffer).setBigUint64(0, BigInt(h.length), true);
  out.set(h, 8);
  let p = 8 + h.length;
  for (const t of tensors.values()) {
    out.set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.length * 4), p);
    p += t.data.length * 4;
  }
  return out;
}

/** (states-*.test.js) The plain result's fields, states left out, as comparable plain data. */
export function plainOf(r) {
  const { states, ...rest } = r;
  void states;
  return JSON.parse(
    JSON.stringify(rest, (k, v) => (ArrayBuffer.isView(v) ? ['typed', ...Array.from(v)] : v)),
  );
}

/** Fixture tensor `key` of case c; scores get back their -Infinity entries (stored as 0 with a
 * U8 mask `<key>_unread`, since F32 fixtures are finite). */
export function wantMasked(c, key) {
  const t = c.tensors[key];
  const unread = c.tensors[`${key}_unread`];
  if (!unread) return t;
  return { shape: t.shape, data: t.data.map((v, i) => (unread.data[i] ? -Infinity : v)) };
}

export const sameBits = (a, b) =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );
