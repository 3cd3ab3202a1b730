// The glue's copy of the C library's per-call limits (wasm/limits.js) against the C constants
// themselves, read through al_model_limit() from each of the four shipped .wasm files: a limit
// changed in src/api/model.h and not in the glue (or the reverse) fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import * as limits from '../../wasm/limits.js';

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
    assert.equal(x.al_model_limit(LIMITS.length), -1, 'an unknown limit is -1');
    assert.deepEqual(
      Object.keys(limits).sort(),
      LIMITS.map(([n]) => n).sort(),
      'every glue limit is checked',
    );
  });
}
