// init() in its source forms (default file beside index.js, bytes, URL, Response, compiled Module,
// and a promise of one),
// the SIMD probe, and calls made before init resolves. init() is once per process, so each
// case runs in its own child Node process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const INDEX = new URL('../../wasm/index.js', import.meta.url).href;
const WASM = fileURLToPath(new URL('../../wasm/attnlab.wasm', import.meta.url));

function run(body) {
  const src =
    `import * as al from ${JSON.stringify(INDEX)};\nimport { readFileSync } from 'node:fs';\n` +
    `const out = (x) => process.stdout.write(JSON.stringify(x));\n${body}`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', src], { encoding: 'utf8' }),
  );
}

const SDPA = `const r = al.ops.scaledDotProductAttention([[1, 0]], [[1, 0], [0, 1]], [[1, 2], [3, 4]], { scale: 1, returnWeights: true });`;
// softmax([1, 0]) = [e/(1+e), 1/(1+e)]; output = w0·[1,2] + w1·[3,4]
const W0 = Math.E / (1 + Math.E);
const EXPECTED = [W0 * 1 + (1 - W0) * 3, W0 * 2 + (1 - W0) * 4];

for (const [name, setup] of [
  ['the default file beside index.js', 'const lib = await al.init();'],
  ['bytes', `const lib = await al.init({ wasm: readFileSync(${JSON.stringify(WASM)}) });`],
  [
    'a file URL',
    `const lib = await al.init({ wasm: new URL('file://' + ${JSON.stringify(WASM)}) });`,
  ],
  [
    'a Response',
    `const lib = await al.init({ wasm: new Response(readFileSync(${JSON.stringify(WASM)})) });`,
  ],
  // compiled while it streams (compileStreaming: the server's content type says application/wasm)
  [
    'a Response labelled application/wasm',
    `const lib = await al.init({ wasm: new Response(readFileSync(${JSON.stringify(WASM)}), { headers: { 'content-type': 'application/wasm' } }) });`,
  ],
  // a fetch a page started before the library loaded (web/first-model.js), handed on unresolved
  [
    'a promise of a Response',
    `const lib = await al.init({ wasm: Promise.resolve(new Response(readFileSync(${JSON.stringify(WASM)}), { headers: { 'content-type': 'application/wasm' } })) });`,
  ],
  [
    'a promise of bytes',
    `const lib = await al.init({ wasm: Promise.resolve(readFileSync(${JSON.stringify(WASM)})) });`,
  ],
  [
    'a compiled WebAssembly.Module',
    `const lib = await al.init({ wasm: await WebAssembly.compile(readFileSync(${JSON.stringify(WASM)})) });`,
  ],
  ['the scalar build', 'const lib = await al.init({ simd: false });'],
]) {
  test(`init from ${name}`, () => {
    const got = run(
      `${setup}\n${SDPA}\nout({ simd: lib.simd, out: [...r.output.data], live: lib.liveAllocations() });`,
    );
    assert.equal(got.live, 0);
    assert.ok(
      Math.abs(got.out[0] - EXPECTED[0]) < 1e-6 && Math.abs(got.out[1] - EXPECTED[1]) < 1e-6,
      JSON.stringify(got),
    );
  });
}

test('simdSupported() is true in Node 20 and the default build is SIMD', () => {
  const got = run(
    'const lib = await al.init(); out({ probe: al.simdSupported(), simd: lib.simd });',
  );
  assert.deepEqual(got, { probe: true, simd: true });
});

test('prepare() before init is a clear AttnlabError', () => {
  const got = run(`
    try { al.prepare([[1, 2]]); out('prepared'); } catch (e) { out({ name: e.name, code: e.code, message: e.message }); }`);
  assert.deepEqual(got, {
    name: 'AttnlabError',
    code: 'AL_ERR_ARGUMENT',
    message: 'prepare: attnlab is not initialised; await init() first',
  });
});

test('ops before init, and during an in-flight init, throw a clear error; a bad source is named', () => {
  const got = run(`
    const errs = [];
    try { al.ops.softmax([1, 2]); } catch (e) { errs.push(e.message); }
    const p = al.init();
    try { al.ops.softmax([1, 2]); } catch (e) { errs.push(e.message); }
    await p;
    errs.push(al.ops.softmax([0, 0]).data[0]);
    out(errs);`);
  assert.match(got[0], /not initialised; await init\(\) first/);
  assert.match(got[1], /not initialised/);
  assert.equal(got[2], 0.5);
  const bad = run(`
    const errs = [];
    const failed = Promise.reject(new Error('network down'));
    failed.catch(() => {});
    const notFound = Promise.resolve(new Response('missing', { status: 404, headers: { 'content-type': 'application/wasm' } }));
    for (const wasm of [new Uint8Array([1, 2, 3]), 42, new URL('file:///nonexistent/attnlab.wasm'), failed, notFound]) {
      try { await al.init({ wasm }); errs.push('loaded'); } catch (e) { errs.push(e.message); }
    }
    const lib = await al.init();  // a failed init can be retried
    errs.push(lib.simd);
    out(errs);`);
  assert.match(bad[0], /./);
  assert.match(bad[1], /options\.wasm must be bytes, a URL, a Response or a WebAssembly\.Module/);
  assert.match(bad[2], /ENOENT|no such file/);
  assert.equal(bad[3], 'init: options.wasm (a promise) rejected: network down');
  assert.match(bad[4], /HTTP 404/);
  assert.equal(bad[5], true);
});

test('createAttnlab: independent instances in one realm, each with its own memory, ops, models and prepared tensors', async () => {
  const {
    createAttnlab,
    init: initDefault,
    ops: defaultOps,
    AttnlabError: Err,
  } = await import('../../wasm/index.js');
  const def = await initDefault();
  const scalar = await createAttnlab({ simd: false });
  const simd = await createAttnlab({ simd: true });
  assert.equal(scalar.simd, false);
  assert.equal(simd.simd, true);
  const x = [
    [0.5, -1, 2],
    [3, 0, -0.25],
  ];
  const want = x.map((r) => {
    const m = Math.max(...r);
    const e = r.map((v) => Math.exp(v - m));
    const s = e.reduce((a, b) => a + b);
    return e.map((v) => v / s);
  });
  for (const inst of [scalar, simd]) {
    const got = inst.ops.softmax(x).data;
    want
      .flat()
      .forEach((w, i) => assert.ok(Math.abs(got[i] - w) < 1e-6, `${inst.simd}: ${got[i]} vs ${w}`));
  }
  // every function hung on an op (.backward, relativePositionAttention.distances) runs in the instance too
  for (const [name, fn] of Object.entries(defaultOps))
    assert.deepEqual(Object.keys(scalar.ops[name]), Object.keys(fn), name);
  assert.deepEqual(
    Array.from(scalar.ops.relativePositionAttention.distances(3, 1).data),
    [0, 1, 1, -1, 0, 1, -1, -1, 0],
  );
  // a resident tensor lives in one memory: another instance refuses it by name
  const p = scalar.prepare([
    [1, 0],
    [0, 1],
  ]);
  assert.equal(scalar.liveAllocations(), 1);
  assert.equal(simd.liveAllocations(), 0, 'the other instance holds nothing');
  assert.deepEqual(Array.from(scalar.ops.matmul([[1, 2]], p).data), [1, 2]);
  assert.throws(
    () => simd.ops.matmul([[1, 2]], p),
    (e) => e instanceof Err && /prepared by another attnlab instance/.test(e.message),
  );
  assert.throws(
    () => defaultOps.matmul([[1, 2]], p),
    (e) => e instanceof Err && /prepared by another attnlab instance/.test(e.message),
  );
  p.dispose();
  // models and trainable models load into their own instance
  const url = new URL('../../web/models/dates-additive.safetensors', import.meta.url);
  const m = await scalar.loadModel(url);
  assert.equal(m.run('22 Nov 2026').output, '2026-11-22');
  assert.ok(scalar.liveAllocations() > 0);
  const baseDefault = def.liveAllocations();
  const t = await scalar.loadTrainableModel(url);
  assert.equal(def.liveAllocations(), baseDefault, 'the default instance is untouched');
  t.dispose();
  m.dispose();
  assert.equal(scalar.liveAllocations(), 0);
  // an op that throws inside an instance leaves the default instance in place for the next call
  assert.throws(() => scalar.ops.softmax([[NaN]]), Err);
  assert.deepEqual(Array.from(defaultOps.softmax([0, 0]).data), [0.5, 0.5]);
  // a trainer of an instance's model reads its gradients in its own memory: no default instance needed
  const alone = run(`
    const inst = await al.createAttnlab({ simd: false });
    const m = await inst.loadTrainableModel(new URL(${JSON.stringify(url.href)}));
    const { loss, gradients } = al.createTrainer(m).gradients([{ src: '22 Nov 2026', tgt: '2026-11-22' }]);
    let def = 'initialised';
    try { al.ops.softmax([1]); } catch (e) { def = e.message; }
    out({ loss, n: gradients.size, def });`);
  assert.ok(Number.isFinite(alone.loss) && alone.loss > 0, JSON.stringify(alone));
  assert.ok(alone.n > 0);
  assert.match(alone.def, /not initialised/);
});
