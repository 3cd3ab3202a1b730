// attnlab/wasm/ops/transformer-attention.js: (in progress)
