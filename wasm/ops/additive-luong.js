// attnlab/wasm/ops/additive-luong.js: (in progress)
