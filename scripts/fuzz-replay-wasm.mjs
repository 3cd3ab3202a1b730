#!/usr/bin/env node
// Replay fuzz corpora through the wasm build under Node: every file must either load or throw
// AttnlabError (never another exception, a trap or a hang), and liveAllocations() must be back
// to 0 after each. The native fuzzer (make fuzz) runs the C loader under ASan; this checks the
// same inputs against the code that actually ships (wasm32: 32-bit size_t, 512 KB stack).
//
//   node scripts/fuzz-replay-wasm.mjs [dir ...]   # default: tests/fuzz/corpus/safetensors
//                                                 #   and build/fuzz/corpus/safetensors if present
// Exit status 0 when every file passed. tests/js/safetensors-replay.test.js runs it on the
// committed corpus.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { init, readSafetensors, AttnlabError } from '../wasm/index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_DIRS = [
  join(ROOT, 'tests/fuzz/corpus/safetensors'),
  join(ROOT, 'build/fuzz/corpus/safetensors'),
];

/**
 * Replay every file in dirs. Returns { files, loaded, refused, failures: [{ file, problem }] }.
 * @param {string[]} dirs
 */
export async function replay(dirs = DEFAULT_DIRS) {
  const lib = await init();
  const result = { files: 0, loaded: 0, refused: 0, codes: {}, failures: [] };
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      let bytes;
      try {
        if (!statSync(path).isFile()) continue;
        bytes = readFileSync(path);
      } catch (e) {
        if (e.code === 'ENOENT') continue; // a running fuzzer reduced it away
        throw e;
      }
      result.files++;
      try {
        const { tensors } = readSafetensors(bytes);
        for (const [k, t] of tensors) {
          const n = t.shape.reduce((a, b) => a * b, 1);
          if (t.data.length !== n) throw new Error(`tensor ${k}: ${t.data.length} values for shape ${t.shape}`);
          if (!t.data.every(Number.isFinite)) throw new Error(`tensor ${k}: a non-finite value was loaded`);
        }
        result.loaded++;
      } catch (e) {
        if (e instanceof AttnlabError && e.code !== 'AL_ERR_ARGUMENT' && e.message.length > 'readSafetensors: '.length) {
          result.refused++;
          result.codes[e.code] = (result.codes[e.code] ?? 0) + 1;
        } else {
          result.failures.push({ file: path, problem: `${e?.name}: ${e?.message}` });
        }
      }
      if (lib.liveAllocations() !== 0) {
        result.failures.push({ file: path, problem: `liveAllocations() is ${lib.liveAllocations()} afterwards` });
        break;
      }
    }
  }
  return result;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dirs = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_DIRS;
  const r = await replay(dirs);
  for (const f of r.failures) console.error(`FAIL ${f.file}: ${f.problem}`);
  console.log(`fuzz-replay-wasm: ${r.files} files, ${r.loaded} loaded, ${r.refused} refused ${JSON.stringify(r.codes)}, ${r.failures.length} failures`);
  process.exitCode = r.failures.length ? 1 : 0;
}
