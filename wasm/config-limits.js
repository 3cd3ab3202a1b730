// attnlab/wasm/config-limits.js: the caps of a model config (src/models/config_limits.h), the one
// copy the JS keeps: per architecture, each integer config key's upper bound (every size is at
// least 1), plus `vocab` (entries of each vocabulary) and `labels` (class names).
// tests/js/limits.test.js checks it against al_model_limit() of every shipped .wasm, and
// tests/js/config-limits-python.test.js against Python's copy (python/attnlab/limits.py).
// Deliberately not here: the per-call limits (limits.js), enumerations and defaults
// (docs/models.md), any check: the C loader checks configs, this is for forms and messages.

/** @type {Readonly<Record<'seq2seq' | 'transformer' | 'classifier' | 'memory-rnn', Readonly<Record<string, number>>>>} */
export const CONFIG_LIMITS = Object.freeze({
  seq2seq: Object.freeze({
    embeddingSize: 4096,
    hiddenSize: 4096,
    attentionSize: 4096,
    positionSize: 4096,
    keySize: 4096,
    valueSize: 4096,
    numLayers: 8,
    window: 1024,
    maxLength: 1024,
    vocab: 1048576,
  }),
  transformer: Object.freeze({
    embeddingSize: 4096,
    feedforwardSize: 4096,
    numHeads: 64,
    numLayers: 16, // encoder, decoder
    numLayersEncoderDecoder: 8, // per stack
    numLayersEncoderDecoderRelative: 7, // per stack, positions "relative"
    maxPositions: 4096,
    maxRelativePosition: 4096,
    maxLength: 1024,
    vocab: 1048576,
  }),
  classifier: Object.freeze({
    embeddingSize: 4096,
    hiddenSize: 4096,
    attentionSize: 4096,
    sentenceHiddenSize: 4096,
    sentenceAttentionSize: 4096,
    numLayers: 8,
    hops: 64,
    penaltyCoefficient: 10000, // a number in [0, 10000]
    temperature: 1000, // a number in (0, 1000]
    vocab: 1048576,
    labels: 65536,
  }),
  'memory-rnn': Object.freeze({
    embeddingSize: 4096,
    hiddenSize: 4096,
    attentionSize: 4096,
    vocab: 1048576,
    labels: 65536,
  }),
});
