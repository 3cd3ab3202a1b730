// Every op family has an entry everywhere docs/adding-a-kernel.md says it must: a family is a
// src/api/<family>.exports file (one exported C name a line); <kebab> is its name with '-' for
// '_'. The families that are not ops (models, the safetensors reader, training) have their own
// glue (wasm/model.js, wasm/io.js, wasm/train.js) and are left out. Each check names the file to
// add or the line to write, so a new family that forgets one fails here with the fix. (The
// hostile-input table, tests/js/hostile-helpers.js, checks its own completeness.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';

const ROOT = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, ROOT), 'utf8');
const exists = (path) => existsSync(new URL(path, ROOT));

const NOT_OPS = new Set(['model', 'safetensors', 'train']);
const FAMILIES = readdirSync(new URL('src/api/', ROOT))
  .filter((f) => f.endsWith('.exports'))
  .map((f) => f.slice(0, -'.exports'.length))
  .filter((f) => !NOT_OPS.has(f));
const exportsOf = (family) => read(`src/api/${family}.exports`).split('\n').filter(Boolean);
const kebab = (family) => family.replace(/_/g, '-');

// every glue module of the ops, read once: an exported name may be called from any of them
// (ops/sdpa.js calls al_sdpa_backward of transformer_attention)
const OPS_GLUE = readdirSync(new URL('wasm/ops/', ROOT))
  .filter((f) => f.endsWith('.js'))
  .map((f) => read(`wasm/ops/${f}`))
  .join('\n');

test('the op families are found', () => {
  assert.ok(FAMILIES.length >= 6, `found ${FAMILIES.join(', ')}`);
});

for (const family of FAMILIES) {
  const k = kebab(family);
  const names = exportsOf(family);

  test(`${family}: C entry points, header, tests, fuzz table`, () => {
    for (const path of [`src/api/${family}.h`, `src/api/${family}.c`, `tests/c/test_${family}.c`])
      assert.ok(exists(path), `add ${path}`);
    assert.match(
      read('src/attnlab.h'),
      new RegExp(`#include "api/${family}\\.h"`),
      'src/attnlab.h includes it',
    );
    const h = read(`src/api/${family}.h`);
    const c = read(`src/api/${family}.c`);
    const fuzz = read('tests/fuzz/fuzz_ops.c');
    for (const n of names) {
      assert.match(h, new RegExp(`\\b${n}\\(`), `src/api/${family}.h declares ${n}`);
      assert.match(c, new RegExp(`^\\w.*\\b${n}\\(`, 'm'), `src/api/${family}.c defines ${n}`);
      assert.match(fuzz, new RegExp(`\\b${n}\\(`), `tests/fuzz/fuzz_ops.c calls ${n} (OP_TABLE)`);
    }
  });

  test(`${family}: PyTorch fixtures`, () => {
    const script = `scripts/fixture_modules/${family}.py`;
    assert.ok(exists(script), `add ${script}`);
    for (const [, name] of read(script).matchAll(/@fixture\("([^"]+)"\)/g))
      assert.ok(
        exists(`tests/fixtures/${name}.safetensors`),
        `run scripts/gen_fixtures.py ${name}`,
      );
  });

  test(`${family}: every exported name is in the .wasm and used by the glue`, async () => {
    for (const file of ['attnlab.wasm', 'attnlab-scalar.wasm']) {
      const module = await WebAssembly.compile(readFileSync(new URL(`wasm/${file}`, ROOT)));
      const built = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
      for (const n of names) assert.ok(built.has(n), `wasm/${file} exports ${n}: run make wasm`);
    }
    for (const n of names) {
      // called as x.al_name(...), or named in a table of entry points ('al_name')
      const used = new RegExp(`\\.${n}\\(|'${n}'`).test(OPS_GLUE);
      assert.ok(used, `a wasm/ops/*.js module calls x.${n}`);
    }
  });

  test(`${family}: wasm/ops/${k}.js, its types, the op table, tests and docs`, async () => {
    for (const path of [
      `wasm/ops/${k}.js`,
      `wasm/ops/${k}.d.ts`,
      `tests/js/${k}.test.js`,
      `docs/${k}.md`,
    ])
      assert.ok(exists(path), `add ${path}`);
    assert.match(
      read('wasm/ops/index.js'),
      new RegExp(`from '\\./${k}\\.js'`),
      'wasm/ops/index.js spreads it',
    );
    assert.match(
      read('wasm/index.d.ts'),
      new RegExp(`'\\./ops/${k}\\.js'`),
      'wasm/index.d.ts re-exports its types',
    );
    const ops = Object.keys(await import(new URL(`wasm/ops/${k}.js`, ROOT).href));
    assert.ok(ops.length > 0, `wasm/ops/${k}.js exports its ops`);
    const dts = read(`wasm/ops/${k}.d.ts`);
    const tests = read(`tests/js/${k}.test.js`);
    const doc = read(`docs/${k}.md`);
    for (const op of ops) {
      assert.match(dts, new RegExp(`\\b${op}\\b`), `wasm/ops/${k}.d.ts types ${op}`);
      assert.match(tests, new RegExp(`\\b${op}\\b`), `tests/js/${k}.test.js tests ${op}`);
      assert.match(doc, new RegExp(`\\b${op}\\b`), `docs/${k}.md documents ${op}`);
    }
  });
}
