// attnlab/wasm/ops/recurrent.js: (in progress)
