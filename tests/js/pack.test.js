// The published package as a user gets it: `npm pack`, install the tarball into an empty
// folder, and `import { init, ops } from 'attnlab'` there, with one attention call. (The README's
// quickstarts and the elements from a second origin: tests/js/readme-package.test.js and
// tests/browser/package.test.js.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packAndInstall } from './packed.js';

test('npm pack + install into an empty folder + import + scaledDotProductAttention', () => {
  const pkg = packAndInstall({ type: 'module' });
  try {
    const { files, app } = pkg;
    for (const f of [
      'package.json',
      'wasm/index.js',
      'wasm/index.d.ts',
      'wasm/attnlab.wasm',
      'wasm/attnlab-scalar.wasm',
      'wasm/attnlab-train.wasm',
      'wasm/attnlab-train-scalar.wasm',
    ]) {
      assert.ok(files.includes(f), `the tarball holds ${f}: ${files.join(', ')}`);
    }
    assert.ok(
      !files.some((f) => f.startsWith('src/') || f.startsWith('tests/')),
      'no sources or tests in the tarball',
    );
    writeFileSync(
      join(app, 'main.js'),
      `
      import { init, ops } from 'attnlab';
      const lib = await init();
      const { output, weights } = ops.scaledDotProductAttention(
        [[1, 0], [0, 1]], [[1, 0], [0, 1], [1, 1]], [[1, 2], [3, 4], [5, 6]],
        { causal: true, scale: 1, returnWeights: true });
      // training loads the separate training build (attnlab-train.wasm) from the package too
      const { createModel, createTrainer } = await import('attnlab');
      const model = await createModel({ architecture: 'classifier', cell: 'gru', embeddingSize: 4,
        hiddenSize: 4, numLayers: 1, bidirectional: false, pooling: 'attention', attentionSize: 4,
        labels: ['no', 'yes'], tokenizer: { type: 'word', vocab: ['<pad>', '<unk>', 'a', 'b'], unk: '<unk>', pad: '<pad>' } }, { seed: 1 });
      const trainer = createTrainer(model, { lr: 0.05 });
      const batch = [{ src: 'a a', label: 'no' }, { src: 'b b', label: 'yes' }];
      const first = trainer.step(batch);
      let last = first;
      for (let i = 0; i < 20; i++) last = trainer.step(batch);
      console.log(JSON.stringify({ simd: lib.simd, output: [...output.data], weights: [...weights.data], first, last }));
    `,
    );
    const got = JSON.parse(pkg.run('main.js'));
    assert.equal(got.simd, true);
    assert.ok(
      got.last < got.first / 2,
      `training from the installed package lowers the loss: ${got.first} → ${got.last}`,
    );
    // row 0 sees key 0 only; row 1 sees keys 0 and 1 with scores [0, 1]
    const w = Math.E / (1 + Math.E);
    const expected = [1, 2, (1 - w) * 1 + w * 3, (1 - w) * 2 + w * 4];
    got.output.forEach((v, i) =>
      assert.ok(Math.abs(v - expected[i]) < 1e-6, `output[${i}] ${v} vs ${expected[i]}`),
    );
    assert.deepEqual(
      got.weights.map((v) => Math.round(v * 1e6) / 1e6),
      [1, 0, 0, Math.round((1 - w) * 1e6) / 1e6, Math.round(w * 1e6) / 1e6, 0],
    );
  } finally {
    pkg.remove();
  }
});
