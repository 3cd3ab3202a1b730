// attnlab/wasm/ops/pooling.js: (in progress)
