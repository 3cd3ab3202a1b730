#!/usr/bin/env node
// Replay fuzz corpora through the wasm build under Node: every file must either load or throw
// AttnlabError (never another exception, a trap or a hang), and liveAllocations() must be back
// to 0 after each. The native fuzzer (make fuzz) runs the C loader under ASan; this checks the
// same inputs against the code that actually ships (wasm32: 32-bit size_t, 512 KB stack).
//
//   node scripts/fuzz-replay-wasm.mjs [dir ...]   # default: tests/fuzz/corpus/safetensors
//                                                 #   and build/fuzz/corpus/safetensors if present
//   node scripts/fuzz-replay-wasm.mjs --models [dir ...]   # fuzz_models inputs (16 control
//                                                 #   bytes, then a model file): tests/fuzz/corpus/models
// Models: loadModel on the file, then a run of its architecture (generation, stepping, forward,
// classification, LM scoring) on ids from the control bytes, then dispose: each step succeeds or
// throws AttnlabError. Exit status 0 when every file passed. tests/js/safetensors-replay.test.js
// runs both on the committed corpora.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { init, loadModel, readSafetensors, AttnlabError } from '../wasm/index.js';

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
          if (t.data.length !== n)
            throw new Error(`tensor ${k}: ${t.data.length} values for shape ${t.shape}`);
          if (!t.data.every(Number.isFinite))
            throw new Error(`tensor ${k}: a non-finite value was loaded`);
        }
        result.loaded++;
      } catch (e) {
        if (
          e instanceof AttnlabError &&
          e.code !== 'AL_ERR_ARGUMENT' &&
          e.message.length > 'readSafetensors: '.length
        ) {
          result.refused++;
          result.codes[e.code] = (result.codes[e.code] ?? 0) + 1;
        } else {
          result.failures.push({ file: path, problem: `${e?.name}: ${e?.message}` });
        }
      }
      if (lib.liveAllocations() !== 0) {
        result.failures.push({
          file: path,
          problem: `liveAllocations() is ${lib.liveAllocations()} afterwards`,
        });
        break;
      }
    }
  }
  return result;
}

export const DEFAULT_MODEL_DIRS = [
  join(ROOT, 'tests/fuzz/corpus/models'),
  join(ROOT, 'build/fuzz/corpus/models'),
];

/** A run of whatever loaded: token ids from the control bytes (in range), one call per form. */
function exercise(m, ctl) {
  const V = m.srcVocabSize ?? m.config?.tokenizer?.vocab?.length ?? 4;
  const n = 1 + (ctl[0] % 8);
  const ids = Array.from({ length: n }, (_, i) => ctl[(i + 1) % ctl.length] % Math.max(1, V));
  m.run(ids);
  if (m.architecture === 'seq2seq') {
    const d = m.startDecoding(ids);
    d.step();
    d.dispose();
  }
}

/**
 * Replay fuzz_models inputs: { files, loaded, refused, ran, failed, codes, failures }. A file
 * must load or be refused with AttnlabError; a loaded model's run must succeed or throw
 * AttnlabError (e.g. AL_ERR_NONFINITE for huge weights); liveAllocations() back to 0 after each.
 */
export async function replayModels(dirs = DEFAULT_MODEL_DIRS) {
  const lib = await init();
  const result = { files: 0, loaded: 0, refused: 0, ran: 0, failed: 0, codes: {}, failures: [] };
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      let data;
      try {
        if (!statSync(path).isFile()) continue;
        data = readFileSync(path);
      } catch (e) {
        if (e.code === 'ENOENT') continue;
        throw e;
      }
      result.files++;
      const ctl = new Uint8Array(16);
      ctl.set(data.subarray(0, 16));
      let m = null;
      try {
        m = await loadModel(new Uint8Array(data.subarray(16)));
        result.loaded++;
      } catch (e) {
        if (e instanceof AttnlabError && /^loadModel: ./.test(e.message)) {
          result.refused++;
          result.codes[e.code] = (result.codes[e.code] ?? 0) + 1;
        } else {
          result.failures.push({ file: path, problem: `load: ${e?.name}: ${e?.message}` });
        }
      }
      if (m) {
        try {
          exercise(m, ctl);
          result.ran++;
        } catch (e) {
          if (e instanceof AttnlabError) result.failed++;
          else result.failures.push({ file: path, problem: `run: ${e?.name}: ${e?.message}` });
        }
        m.dispose();
      }
      if (lib.liveAllocations() !== 0) {
        result.failures.push({
          file: path,
          problem: `liveAllocations() is ${lib.liveAllocations()} afterwards`,
        });
        break;
      }
    }
  }
  return result;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const models = process.argv[2] === '--models';
  const args = process.argv.slice(models ? 3 : 2);
  const dirs = args.length ? args : models ? DEFAULT_MODEL_DIRS : DEFAULT_DIRS;
  const r = models ? await replayModels(dirs) : await replay(dirs);
  for (const f of r.failures) console.error(`FAIL ${f.file}: ${f.problem}`);
  const ran = models ? `, ${r.ran} ran, ${r.failed} runs refused` : '';
  console.log(
    `fuzz-replay-wasm: ${r.files} files, ${r.loaded} loaded, ${r.refused} refused ${JSON.stringify(r.codes)}${ran}, ${r.failures.length} failures`,
  );
  process.exitCode = r.failures.length ? 1 : 0;
}
