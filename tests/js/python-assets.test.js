// python/attnlab/assets/ (what attnlab.show() inlines into a notebook cell) against its sources:
// the committed bundles and .wasm copy must be what scripts/build-python-assets.mjs builds now
// (`make python-assets` rewrites them), as check-wasm does for the .wasm. And what a sandboxed
// output cell cannot have: a module import, a URL it would fetch, a '</script' that would end
// the inline script early. And the live view's way in (python/js/notebook.js): an instance of its
// own from the compiled bytes, the model from bytes, the same numbers as loadModel(path).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildAssets } from '../../scripts/build-python-assets.mjs';
import { createAttnlab, loadModel } from '../../wasm/index.js';

const ASSETS = fileURLToPath(new URL('../../python/attnlab/assets/', import.meta.url));

test('the committed python/attnlab/assets are what their sources build (else: make python-assets)', async () => {
  const built = await buildAssets();
  assert.deepEqual(Object.keys(built).sort(), [
    'attnlab.wasm',
    'heatmap.js',
    'live-views.json',
    'notebook.js',
  ]);
  for (const [name, bytes] of Object.entries(built)) {
    const committed = readFileSync(ASSETS + name);
    assert.ok(
      Buffer.compare(committed, Buffer.from(bytes)) === 0,
      `python/attnlab/assets/${name} (${committed.length} bytes) differs from a rebuild (${bytes.length} bytes): run make python-assets`,
    );
  }
  assert.deepEqual(
    readFileSync(ASSETS + 'attnlab.wasm'),
    readFileSync(new URL('../../wasm/attnlab.wasm', import.meta.url)),
  );
});

test('the bundles are classic scripts that fetch nothing and cannot end their <script> early', () => {
  for (const [name, global] of [
    ['notebook.js', 'attnlabNotebook'],
    ['heatmap.js', 'attnlabHeatmap'],
  ]) {
    const js = readFileSync(ASSETS + name, 'utf8');
    assert.match(
      js,
      new RegExp(`^var ${global}=\\(\\(\\)=>\\{`),
      `${name}: an IIFE setting ${global}`,
    );
    assert.doesNotMatch(js, /<\/script/i, name);
    assert.doesNotMatch(js, /<!--/, name);
    assert.doesNotMatch(js, /^\s*(import|export)\s/m, `${name}: no static import or export`);
    // the one URL is the SVG namespace (toSVG()); the only import() is Node's file reader, never run in a page
    const urls = [...js.matchAll(/https?:\/\/[^"'`\s)]*/g)].map((m) => m[0]);
    assert.deepEqual([...new Set(urls)], ['http://www.w3.org/2000/svg'], name);
    const imports = [...js.matchAll(/import\(\s*["'`]([^"'`]*)/g)].map((m) => m[1]);
    assert.ok(
      imports.every((s) => s.startsWith('node:')),
      `${name}: import() of ${imports}`,
    );
  }
});

test("the live view's way in: createAttnlab from the asset's compiled bytes, loadModel from bytes", async () => {
  const file = fileURLToPath(
    new URL('../../web/models/dates-additive.safetensors', import.meta.url),
  );
  const lib = await createAttnlab({
    wasm: await WebAssembly.compile(readFileSync(ASSETS + 'attnlab.wasm')),
  });
  assert.equal(lib.simd, true);
  const mine = await lib.loadModel(new Uint8Array(readFileSync(file)));
  const reference = await loadModel(file);
  for (const input of ['22 Nov 2026', 'March 3, 1999']) {
    const a = mine.run(input);
    const b = reference.run(input);
    assert.equal(a.output, b.output);
    assert.deepEqual(a.attention[0].weights.shape, b.attention[0].weights.shape);
    assert.deepEqual(
      Array.from(a.attention[0].weights.data),
      Array.from(b.attention[0].weights.data),
      input,
    );
  }
  mine.dispose();
  reference.dispose();
  assert.equal(lib.liveAllocations(), 0);
});

test("the live view's families are the page's relation (architectures.js viewFor), each view made", async () => {
  const { LIVE_VIEW_NAMES, liveFamilies, liveView } = await import('../../python/js/live-views.js');
  const { FAMILIES, viewFor } = await import('../../web/shared/architectures.js');
  const committed = JSON.parse(readFileSync(ASSETS + 'live-views.json', 'utf8'));
  assert.deepEqual(committed, liveFamilies());
  assert.deepEqual(
    committed.map((f) => [f.architecture, f.view]),
    [
      ['seq2seq', 'alignment'],
      ['transformer', 'heads'],
      ['classifier', 'pooling'],
      ['memory-rnn', 'reading'],
    ],
  );
  for (const f of Object.values(FAMILIES)) {
    const v = viewFor(f.architecture, f.head ?? undefined);
    if (v) assert.equal(liveView(f.architecture, f.head ?? undefined), v, f.architecture);
  }
  assert.equal(liveView('memory-rnn', 'classifier'), null); // the page draws 'lm' heads only
  assert.equal(liveView('graph-net', undefined), null);
  // every view but the alignment (notebook.js's own) is one live-page.js makes
  const source = readFileSync(new URL('../../python/js/live-page.js', import.meta.url), 'utf8');
  const made = [...source.matchAll(/^ {2}(\w+): \(\) => new \w+View\(\),$/gm)].map((m) => m[1]);
  assert.deepEqual(
    made,
    LIVE_VIEW_NAMES.filter((v) => v !== 'alignment'),
  );
});
