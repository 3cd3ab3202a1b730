// The committed fuzz corpora (tests/fuzz/corpus/safetensors/ and models/) replayed through the
// wasm build by scripts/fuzz-replay-wasm.mjs: each file loads or throws AttnlabError, a loaded
// model runs or throws AttnlabError, and nothing leaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';

import { replay, replayModels } from '../../scripts/fuzz-replay-wasm.mjs';

test('fuzz corpus replays cleanly through the wasm build', async () => {
  const dir = fileURLToPath(new URL('../fuzz/corpus/safetensors/', import.meta.url));
  const r = await replay([dir]);
  assert.deepEqual(r.failures, []);
  assert.ok(r.files >= 10, `only ${r.files} corpus files`);
  assert.ok(r.loaded >= 5 && r.refused >= 5, `loaded ${r.loaded}, refused ${r.refused}`);
});

test('fuzz_models corpus (every architecture) replays cleanly through the wasm build', async () => {
  const dir = fileURLToPath(new URL('../fuzz/corpus/models/', import.meta.url));
  const r = await replayModels([dir]);
  assert.deepEqual(r.failures, []);
  assert.ok(r.files >= 20, `only ${r.files} corpus files`);
  assert.ok(
    r.loaded >= 15 && r.ran >= 10,
    `loaded ${r.loaded}, ran ${r.ran}, refused ${r.refused}, failed ${r.failed}`,
  );
});
