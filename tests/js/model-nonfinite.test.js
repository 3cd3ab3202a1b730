// model-nonfinite.test.js: the results policy for models whose weights are finite but huge
// (docs/reliability.md, fuzzer finding 6): every model call whose results would contain NaN or
// ±inf fails with AL_ERR_NONFINITE and a message saying why, never returns them with success,
// and the module keeps working (a sane model loaded afterwards gives its normal answer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, loadModel } from '../../wasm/index.js';

const FIXTURE = new URL('../fixtures/model_lstm_local_p.safetensors', import.meta.url);

/** The fixture with every weight replaced by ±3e38 (alternating): finite, so the loader accepts
 * it, but any dot product overflows. */
function hugeWeights(bytes) {
  const out = bytes.slice();
  const n = Number(new DataView(out.buffer).getBigUint64(0, true));
  const dv = new DataView(out.buffer, 8 + n);
  for (let i = 0; i + 4 <= dv.byteLength; i += 4)
    dv.setFloat32(i, (i / 4) % 2 ? -3e38 : 3e38, true);
  return out;
}

test('huge finite weights: run, score and stepping fail with AL_ERR_NONFINITE, never NaN results', async () => {
  const lib = await init();
  const liveAllocations = () => lib.liveAllocations();
  const bytes = new Uint8Array(readFileSync(FIXTURE));
  const before = liveAllocations();
  const good = await loadModel(bytes);
  const src = 'abcde';
  const expected = good.run(src);
  assert.ok(expected.logProbs.every(Number.isFinite));

  const bad = await loadModel(hugeWeights(bytes));
  const nonfinite = (e) => e.code === 'AL_ERR_NONFINITE' && /too large for float32/.test(e.message);
  assert.throws(() => bad.run(src), nonfinite);
  assert.throws(() => bad.run(src, { beamWidth: 3 }), nonfinite);
  assert.throws(() => bad.score(src, [3, 4, 2]), nonfinite);
  const dec = bad.startDecoding(src);
  assert.throws(() => dec.step(), nonfinite);
  dec.dispose();
  bad.dispose();

  // the module is unharmed: the sane model answers exactly as before
  assert.deepEqual(good.run(src), expected);
  good.dispose();
  assert.equal(liveAllocations(), before);
});
