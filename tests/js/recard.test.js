// tests/js/recard.test.js: scripts/recard.mjs and the card functions the families' train() share
// with it (scripts/train/<family>.mjs): re-measured on the committed I8 files, the cards are the
// committed ones exactly (training block, float32 figures and extra storage keys kept: the
// shipped cards were written this way); the CLI writes them into another folder; loadShipped and
// storedDtype read a file's dtype and refuse a float32 one.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { init, createModel, saveModel } from '../../wasm/index.js';
import { loadShipped, storedDtype, MODELS_DIR } from '../../scripts/train/common.mjs';
import { recard } from '../../scripts/recard.mjs';

await init();
const committed = (name) => readFileSync(path.join(MODELS_DIR, `${name}.json`), 'utf8');

test('recard: the committed cards are what the card functions measure on the committed files', async () => {
  // one of each kind that is quick to evaluate: a transformer, a seq2seq dates model, a
  // classifier (its storage record carries float32Natural)
  for (const name of ['tf-induction', 'dates-none', 'clf-reviews-structured']) {
    const { old, card } = await recard(name);
    assert.equal(`${JSON.stringify(card, null, 2)}\n`, committed(name), name);
    assert.deepEqual(card.training, old.training);
    assert.equal(card.storage.dtype, 'I8');
  }
  const { card } = await recard('clf-reviews-structured');
  assert.equal(typeof card.storage.float32Natural, 'number');
});

test('node scripts/recard.mjs --dir: writes the card beside the file, as committed', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'attnlab-recard-'));
  try {
    for (const ext of ['json', 'safetensors'])
      copyFileSync(
        path.join(MODELS_DIR, `tf-induction.${ext}`),
        path.join(dir, `tf-induction.${ext}`),
      );
    const script = fileURLToPath(new URL('../../scripts/recard.mjs', import.meta.url));
    const r = spawnSync(process.execPath, [script, 'tf-induction', '--dir', dir], {
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      /^tf-induction: I8 file, \d+ bytes \(card said I8, \d+\); heldout\.repeatedHalf /,
    );
    assert.equal(
      readFileSync(path.join(dir, 'tf-induction.json'), 'utf8'),
      committed('tf-induction'),
    );
    const bad = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /usage: node scripts\/recard\.mjs/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('storedDtype and loadShipped: I8, F16, and a float32 file refused', async () => {
  const m = await createModel(
    {
      architecture: 'classifier',
      cell: 'gru',
      embeddingSize: 8,
      hiddenSize: 32,
      numLayers: 1,
      bidirectional: false,
      pooling: 'attention',
      labels: ['a', 'b'],
      tokenizer: { type: 'word', vocab: ['<pad>', '<unk>', 'x'], unk: '<unk>', pad: '<pad>' },
    },
    { seed: 3 },
  );
  try {
    const [f32, f16, i8] = ['F32', 'F16', 'I8'].map((dtype) => saveModel(m, { dtype }));
    assert.deepEqual([storedDtype(f32), storedDtype(f16), storedDtype(i8)], ['F32', 'F16', 'I8']);
    const s = await loadShipped(i8, f32.length);
    assert.deepEqual([s.dtype, s.bytes, s.float32Bytes], ['I8', i8, f32.length]);
    assert.equal(s.trainer.evaluate([{ src: 'x', label: 'a' }]).accuracy >= 0, true);
    s.dispose();
    await assert.rejects(loadShipped(f32, f32.length), /stored as F32, not F16 or I8/);
  } finally {
    m.dispose();
  }
});
