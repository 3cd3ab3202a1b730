// model-cycles.test.js: 1,000 model load → run → dispose cycles over all four architectures
// (seq2seq with its stepped decoder, transformer encoder-decoder with relative positions and
// decoder-only, classifier with HAN, memory-rnn LM) plus refused loads of broken files mixed in,
// must leave liveAllocations() (the wasm's count of live al_malloc blocks) and the wasm memory
// size where they were after a warm-up: nothing leaks, nothing grows. Run for both builds in this
// one process, each on its own instance (createAttnlab({ simd }): its own memory and counts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createAttnlab } from '../../wasm/index.js';

const fixture = (name) =>
  new Uint8Array(readFileSync(new URL(`../fixtures/${name}.safetensors`, import.meta.url)));

const CASES = [
  [
    'model_lstm_additive_bahdanau',
    (m) => {
      m.run('abcde');
      const d = m.startDecoding('abc');
      d.step();
      d.step();
      // one decoder left undisposed on purpose: disposing the model must free it
    },
  ],
  ['transformer_encdec_relative', (m) => m.run('abcd')],
  ['transformer_decoder_learned', (m) => m.run('abc')],
  ['classifier_han_bigru', (m) => m.run('the cat sat . the dog ran .')],
  ['memory_rnn_lm_lstmn', (m) => m.run('the cat sat on the mat .')],
];

function runCycles({ simd }) {
  test(`1,000 load/run/dispose cycles over every architecture return to the baseline (${simd ? 'SIMD' : 'scalar'} build)`, async () => {
    const lib = await createAttnlab({ simd });
    const { loadModel } = lib;
    assert.equal(lib.simd, simd);
    const files = CASES.map(([name]) => fixture(name));
    const broken = files[0].slice(0, files[0].length - 7); // truncated: refused with a message
    const cycle = async (i) => {
      const k = i % CASES.length;
      const m = await loadModel(files[k]);
      CASES[k][1](m);
      m.dispose();
      if (i % 10 === 0)
        await assert.rejects(
          loadModel(broken),
          (e) => e.code !== undefined && /loadModel/.test(e.message),
        );
    };
    for (let i = 0; i < 2 * CASES.length; i++) await cycle(i); // warm-up: memory reaches its high-water mark
    const live = lib.liveAllocations(),
      mem = lib.memoryBytes();
    for (let i = 0; i < 1000; i++) await cycle(i);
    assert.equal(lib.liveAllocations(), live, 'liveAllocations() back to its baseline');
    assert.equal(lib.memoryBytes(), mem, 'memoryBytes() unchanged');
  });
}

for (const simd of [false, true]) runCycles({ simd });
