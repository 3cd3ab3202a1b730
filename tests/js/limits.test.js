// The glue's copies of the C library's limits against the C constants themselves, read through
// al_model_limit() from each of the four shipped .wasm files: the per-call limits (wasm/limits.js,
// src/api/model.h) and the config caps (wasm/config-limits.js, src/models/config_limits.h). A
// limit changed on one side and not the other fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import * as limits from '../../wasm/limits.js';
import { CONFIG_LIMITS } from '../../wasm/config-limits.js';

const FILES = [
  'attnlab.wasm',
  'attnlab-scalar.wasm',
  'attnlab-train.wasm',
  'attnlab-train-scalar.wasm',
];
// AL_MODEL_LIMIT_* (src/api/model.h) → the glue's name
const LIMITS = [
  ['ERR_CAP', 0],
  ['MAX_SOURCE', 1],
  ['MAX_STEPS', 2],
  ['MAX_BEAM', 3],
];
// AL_MODEL_LIMIT_* from 4 on (src/api/model.h, in its order) → every CONFIG_LIMITS entry it bounds
const CONFIG = [
  [
    'S2S_DIM',
    [
      'seq2seq.embeddingSize',
      'seq2seq.hiddenSize',
      'seq2seq.attentionSize',
      'seq2seq.positionSize',
      'seq2seq.keySize',
      'seq2seq.valueSize',
    ],
  ],
  ['S2S_LAYERS', ['seq2seq.numLayers']],
  ['S2S_VOCAB', ['seq2seq.vocab']],
  ['S2S_WINDOW', ['seq2seq.window']],
  ['S2S_LENGTH', ['seq2seq.maxLength']],
  ['TF_DIM', ['transformer.embeddingSize', 'transformer.feedforwardSize']],
  ['TF_HEADS', ['transformer.numHeads']],
  ['TF_LAYERS', ['transformer.numLayers']],
  ['TF_LAYERS_ED', ['transformer.numLayersEncoderDecoder']],
  ['TF_LAYERS_ED_REL', ['transformer.numLayersEncoderDecoderRelative']],
  ['TF_VOCAB', ['transformer.vocab']],
  ['TF_POSITIONS', ['transformer.maxPositions', 'transformer.maxRelativePosition']],
  ['TF_LENGTH', ['transformer.maxLength']],
  [
    'CLF_DIM',
    [
      'classifier.embeddingSize',
      'classifier.hiddenSize',
      'classifier.attentionSize',
      'classifier.sentenceHiddenSize',
      'classifier.sentenceAttentionSize',
    ],
  ],
  ['CLF_LAYERS', ['classifier.numLayers']],
  ['CLF_HOPS', ['classifier.hops']],
  ['CLF_VOCAB', ['classifier.vocab']],
  ['CLF_LABELS', ['classifier.labels']],
  ['CLF_PENALTY', ['classifier.penaltyCoefficient']],
  ['MRNN_DIM', ['memory-rnn.embeddingSize', 'memory-rnn.hiddenSize', 'memory-rnn.attentionSize']],
  ['MRNN_VOCAB', ['memory-rnn.vocab']],
  ['MRNN_LABELS', ['memory-rnn.labels']],
  ['CLF_TEMPERATURE', ['classifier.temperature']],
];

async function exportsOf(file) {
  const module = await WebAssembly.compile(
    readFileSync(new URL(`../../wasm/${file}`, import.meta.url)),
  );
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    imports[imp.module] ??= {};
    imports[imp.module][imp.name] = () => {};
  }
  return (await WebAssembly.instantiate(module, imports)).exports;
}

for (const file of FILES) {
  test(`wasm/limits.js equals al_model_limit() of ${file}`, async () => {
    const x = await exportsOf(file);
    assert.equal(typeof x.al_model_limit, 'function', 'al_model_limit is exported');
    for (const [name, which] of LIMITS) assert.equal(limits[name], x.al_model_limit(which), name);
    CONFIG.forEach(([name, paths], i) => {
      const c = x.al_model_limit(LIMITS.length + i);
      for (const path of paths) {
        const [arch, key] = path.split('.');
        assert.equal(CONFIG_LIMITS[arch][key], c, `CONFIG_LIMITS.${path} = AL_${name}`);
      }
    });
    assert.equal(x.al_model_limit(LIMITS.length + CONFIG.length), -1, 'an unknown limit is -1');
    assert.deepEqual(
      Object.entries(CONFIG_LIMITS)
        .flatMap(([arch, keys]) => Object.keys(keys).map((k) => `${arch}.${k}`))
        .sort(),
      CONFIG.flatMap(([, paths]) => paths).sort(),
      'every config limit is checked',
    );
    assert.deepEqual(
      Object.keys(limits).sort(),
      LIMITS.map(([n]) => n).sort(),
      'every glue limit is checked',
    );
  });
}
