// What is inside the shipped .wasm files, read with wasm2wat (Debian's wabt):
// the SIMD build's matmul and attention entry points reach f32x4 arithmetic; the scalar build
// has no v128 instruction at all; both export exactly the Makefile's list; sizes stay small; the
// training builds add exactly src/api/train.exports, and the inference builds link no training
// code (their function count is well below the training builds').
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const path = (f) => fileURLToPath(new URL(`../../wasm/${f}`, import.meta.url));

function wat(file) {
  try {
    return execFileSync('wasm2wat', [path(file)], { encoding: 'utf8', maxBuffer: 64 << 20 });
  } catch (e) {
    if (e.code === 'ENOENT')
      throw new Error('wasm2wat not found: run `make setup` (apt-get install wabt)');
    throw e;
  }
}

/** Map export name → set of function indices reachable from it, and each function's body. */
function parse(text) {
  const bodies = new Map();
  const parts = text.split(/\n {2}\(func \(;(\d+);\)/);
  for (let i = 1; i < parts.length; i += 2) bodies.set(Number(parts[i]), parts[i + 1]);
  const exports = new Map();
  for (const m of text.matchAll(/\(export "([^"]+)" \(func (\d+)\)\)/g))
    exports.set(m[1], Number(m[2]));
  const reach = (start) => {
    const seen = new Set([start]);
    const todo = [start];
    while (todo.length) {
      for (const m of (bodies.get(todo.pop()) ?? '').matchAll(/\bcall (\d+)/g)) {
        const f = Number(m[1]);
        if (!seen.has(f)) {
          seen.add(f);
          todo.push(f);
        }
      }
    }
    return seen;
  };
  return { bodies, exports, reach };
}

const count = (s, re) => (s.match(re) ?? []).length;

test('SIMD .wasm: matmul and attention reach f32x4 mul/add (and exp in attention)', () => {
  const { bodies, exports, reach } = parse(wat('attnlab.wasm'));
  for (const name of ['al_matmul', 'al_sdpa', 'al_softmax', 'al_matvec']) {
    assert.ok(exports.has(name), `${name} is exported`);
    const code = [...reach(exports.get(name))].map((f) => bodies.get(f) ?? '').join('\n');
    const mul = count(code, /f32x4\.mul/g);
    const add = count(code, /f32x4\.add/g);
    assert.ok(mul >= 8 && add >= 8, `${name}: ${mul} f32x4.mul, ${add} f32x4.add`);
  }
});

test('SIMD .wasm: every attention and recurrent entry point, forward and backward, reaches f32x4 code', () => {
  const { bodies, exports, reach } = parse(wat('attnlab.wasm'));
  const names = [...exports.keys()].filter(
    (n) => /^al_.*_(forward|backward)$/.test(n) || n === 'al_sdpa',
  );
  assert.ok(names.length >= 25, `${names.length} entry points: ${names.join(', ')}`);
  const weak = [];
  for (const name of names) {
    const code = [...reach(exports.get(name))].map((f) => bodies.get(f) ?? '').join('\n');
    const mul = count(code, /f32x4\.mul/g);
    const add = count(code, /f32x4\.add/g);
    if (mul < 8 || add < 8) weak.push(`${name} (${mul} mul, ${add} add)`);
  }
  assert.deepEqual(weak, [], 'entry points without SIMD arithmetic');
});

test('scalar .wasm has no v128 instruction', () => {
  const text = wat('attnlab-scalar.wasm');
  assert.equal(count(text, /v128|f32x4|i32x4/g), 0);
  assert.ok(count(text, /f32\.mul/g) > 20, 'it still computes');
});

test('both builds export the same explicit list', () => {
  const a = [...parse(wat('attnlab.wasm')).exports.keys()].sort();
  const b = [...parse(wat('attnlab-scalar.wasm')).exports.keys()].sort();
  assert.deepEqual(a, b);
  for (const name of [
    'al_abi_version',
    'al_malloc',
    'al_free',
    'al_alloc_live',
    'al_sdpa',
    'al_matmul',
  ])
    assert.ok(a.includes(name), name);
});

test('training builds: the inference exports plus exactly src/api/train.exports; no training code in attnlab.wasm', () => {
  const trainExports = readFileSync(
    fileURLToPath(new URL('../../src/api/train.exports', import.meta.url)),
    'utf8',
  )
    .split(/\s+/)
    .filter(Boolean)
    .sort();
  for (const [main, train] of [
    ['attnlab.wasm', 'attnlab-train.wasm'],
    ['attnlab-scalar.wasm', 'attnlab-train-scalar.wasm'],
  ]) {
    const a = parse(wat(main)),
      b = parse(wat(train));
    const extra = [...b.exports.keys()].filter((n) => !a.exports.has(n)).sort();
    assert.deepEqual(extra, trainExports, `${train} adds the training entry points`);
    assert.deepEqual(
      [...a.exports.keys()].filter((n) => !b.exports.has(n)),
      [],
      `${train} keeps every export of ${main}`,
    );
    // the trainers, optimisers and every model backward are in the training build only; counted
    // on the scalar pair, built with the same flags: the SIMD training build compiles its kernels
    // and models at -O3 (the Makefile), whose inlining leaves it fewer, larger functions than the
    // -Oz attnlab.wasm.
    // Both pairs link the same sources for the same export lists, so one count proves both.
    if (main === 'attnlab-scalar.wasm') {
      assert.ok(
        b.bodies.size - a.bodies.size >= 20,
        `${train} has ${b.bodies.size} functions, ${main} ${a.bodies.size}`,
      );
    }
  }
  assert.equal(
    count(wat('attnlab-train-scalar.wasm'), /v128|f32x4|i32x4/g),
    0,
    'the scalar training build has no v128',
  );
});

// 160 KB since the states entry points of the four architectures (docs/states.md: about 10.7 KB,
// 151,447 → 162,174 bytes) took it past the former 150 KB
test('sizes: the SIMD .wasm stays under 160 KB', () => {
  const simd = statSync(path('attnlab.wasm')).size;
  const scalar = statSync(path('attnlab-scalar.wasm')).size;
  const train = statSync(path('attnlab-train.wasm')).size;
  console.log(
    `attnlab.wasm ${simd} bytes, attnlab-scalar.wasm ${scalar} bytes, attnlab-train.wasm ${train} bytes`,
  );
  assert.ok(simd < 160 * 1024, `${simd} bytes`);
});
