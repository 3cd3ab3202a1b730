// attnlab/wasm/ops/memory-rnn.js: (in progress)
