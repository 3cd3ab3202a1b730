// A C entry point's scratch of 4 GiB or more on wasm32: the size is counted in double
// (al_alloc_floats, src/toolbox.h), so it is refused with AL_ERR_NOMEM. Before, the transformer
// attention and layer entry points computed sizeof(float) · n in 32-bit size_t, allocated the
// wrapped (tiny) block and wrote past it: multiHeadAttention without weights on 32,768 tokens
// trapped with "memory access out of bounds".
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { init, AttnlabError } from '../../wasm/index.js';

const lib = await init();
const ops = lib.ops ?? lib;

const T = (shape, v) => ({ data: new Float32Array(shape.reduce((a, b) => a * b)).fill(v), shape });
const params = {
  in_proj_weight: T([3, 1], 0.1),
  in_proj_bias: T([3], 0.2),
  'out_proj.weight': T([1, 1], 0.3),
  'out_proj.bias': T([1], 0.4),
};

test('multiHeadAttention without weights, 32,768 tokens (scratch of 2^30 floats): AL_ERR_NOMEM, and the module keeps working', () => {
  const n = 32768;
  const x = T([n, 1], 0.5);
  assert.throws(
    () => ops.multiHeadAttention(x, x, x, params, { numHeads: 1, needWeights: false }),
    (e) => e instanceof AttnlabError && e.code === 'AL_ERR_NOMEM',
  );
  assert.equal(lib.liveAllocations(), 0);
  // afterwards: a small call gives the known answer (one key: its value projected, out_proj'd)
  const small = T([2, 1], 0.5);
  const r = ops.multiHeadAttention(small, small, small, params, { numHeads: 1 });
  const v = 0.1 * 0.5 + 0.2; // in_proj's value row · x + its bias
  for (const y of r.output.data) assert.ok(Math.abs(y - (0.3 * v + 0.4)) < 1e-6, `${y}`);
  assert.equal(lib.liveAllocations(), 0);
});
