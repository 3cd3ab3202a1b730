// architectures.test.js: the one table of architectures (wasm/model/architectures.js, the
// library's half; web/shared/architectures.js, the page's) against everything that must agree
// with it: the C enum and the loader's list (src/models/model.h AL_ARCH_*, src/models/model.c
// ARCH_NAMES), al_model_info's switch (src/api/model.c), the training table
// (src/models/train_registry.c), the glue's architecture modules (wasm/model/<name>.js), the
// page's families, the views of <attn-demo> (web/views/registry.js), the i18n names and hints,
// the Python modules (python/attnlab/torch/) and docs/adding-a-model-family.md. A new
// architecture missing from any of them fails here, naming the file.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ARCHITECTURES } from '../../wasm/model/architectures.js';
import { FAMILIES, VIEW_FAMILY, drawsIn, viewFor } from '../../web/shared/architectures.js';
import { VIEWS, inputHint } from '../../web/shared/app-state.js';
import { keys } from '../../web/shared/i18n.js';

const read = (rel) => readFileSync(new URL(`../../${rel}`, import.meta.url), 'utf8');
const constant = (name) => `AL_ARCH_${name.toUpperCase().replace(/-/g, '_')}`;

test('the glue table matches the C enum AL_ARCH_* and the loader (src/models/)', () => {
  const header = read('src/models/model.h');
  const body = header.match(/enum\s*\{([^}]*AL_ARCH_[^}]*)\}/)?.[1];
  assert.ok(body, 'src/models/model.h defines the AL_ARCH_* enum');
  const cEnum = [...body.matchAll(/(AL_ARCH_\w+)\s*=\s*(\d+)/g)].map((m) => [m[1], Number(m[2])]);
  assert.deepEqual(
    cEnum,
    ARCHITECTURES.map((a) => [constant(a.name), a.id]),
    'wasm/model/architectures.js lists the enum of src/models/model.h, in order',
  );
  ARCHITECTURES.forEach((a, i) => assert.equal(a.id, i, `${a.name}: its id is its index`));
  const names = read('src/models/model.c').match(/ARCH_NAMES\[\]\s*=\s*\{([^}]*)\}/)?.[1];
  assert.deepEqual(
    [...names.matchAll(/"([^"]+)"/g)].map((m) => m[1]),
    ARCHITECTURES.map((a) => a.name),
    "src/models/model.c ARCH_NAMES: the table's names, in enum order",
  );
});

test('every architecture has its C switch cases, its training hooks and its glue module', async () => {
  const info = read('src/api/model.c');
  const train = read('src/models/train_registry.c');
  for (const a of ARCHITECTURES) {
    const c = constant(a.name);
    assert.match(info, new RegExp(`case ${c}:`), `src/api/model.c al_model_info: case ${c}`);
    assert.match(train, new RegExp(`\\[${c}\\]`), `src/models/train_registry.c: [${c}]`);
    const mod = await import(`../../wasm/model/${a.name}.js`);
    assert.equal(mod.name, a.name, `wasm/model/${a.name}.js exports name '${a.name}'`);
  }
});

test("every architecture has the page's entry, a view, an input hint and i18n names", () => {
  const registry = read('web/views/registry.js');
  const made = [...registry.matchAll(/^ {2}(\w+): \{/gm)].map((m) => m[1]);
  assert.deepEqual(made, VIEWS, 'web/views/registry.js VIEW_MODULES: one entry per view, in order');
  assert.deepEqual(Object.keys(VIEW_FAMILY), VIEWS);
  const en = new Set(keys('en'));
  const zh = new Set(keys('zh'));
  for (const a of ARCHITECTURES) {
    const f = FAMILIES[a.name];
    assert.ok(f, `web/shared/architectures.js FAMILIES has '${a.name}'`);
    assert.equal(f.architecture, a.name);
    assert.ok(f.views.length, `${a.name}: at least one view shows its models`);
  }
  for (const [family, f] of Object.entries(FAMILIES)) {
    assert.ok(
      ARCHITECTURES.some((a) => a.name === f.architecture),
      `${family}: a library one`,
    );
    if (f.head !== null) {
      const heads = ARCHITECTURES.find((a) => a.name === f.architecture).heads;
      assert.ok(heads.includes(f.head), `${family}: head '${f.head}' is one of ${heads}`);
    }
    for (const k of [`family.${family}`, f.hint, ...f.views.map((v) => `view.${v}`)]) {
      assert.ok(en.has(k), `web/shared/i18n/en.js has '${k}'`);
      assert.ok(zh.has(k), `web/shared/i18n/zh.js has '${k}'`);
    }
    assert.equal(inputHint('en', family, undefined), inputHint('en', family, undefined).trim());
    for (const v of f.opens) assert.ok(f.views.includes(v), `${family}: opens in its own views`);
  }
});

test('viewFor and drawsIn follow the families', () => {
  assert.equal(viewFor('seq2seq', undefined, 'compare'), 'alignment');
  assert.equal(viewFor('seq2seq', undefined, 'time'), 'time');
  assert.equal(viewFor('transformer', undefined, 'time'), 'heads');
  assert.equal(viewFor('memory-rnn', 'classifier', 'reading'), null);
  assert.equal(viewFor('toString', undefined, 'alignment'), null);
  assert.ok(drawsIn('seq2seq', undefined, 'time'));
  assert.ok(drawsIn('memory-rnn', 'lm', 'reading'));
  assert.ok(!drawsIn('memory-rnn', 'classifier', 'reading'));
  assert.ok(!drawsIn('transformer', undefined, 'pooling'));
});

test('every architecture has its Python module and its line in docs/adding-a-model-family.md', () => {
  const torch = read('python/attnlab/torch/__init__.py');
  const doc = read('docs/adding-a-model-family.md');
  for (const a of ARCHITECTURES) {
    const file = `python/attnlab/torch/${a.name.replace(/-/g, '_')}.py`;
    assert.ok(existsSync(new URL(`../../${file}`, import.meta.url)), `${file} exists`);
    assert.match(
      torch,
      new RegExp(`"${a.name}":`),
      `python/attnlab/torch ARCHITECTURES["${a.name}"]`,
    );
    assert.ok(doc.includes(`\`${a.name}\``), `docs/adding-a-model-family.md names \`${a.name}\``);
  }
  // every file the doc names exists
  for (const m of doc.matchAll(
    /`((?:src|wasm|web|python|tests|docs)\/[\w./-]+\.(?:c|h|js|py|md))`/g,
  ))
    assert.ok(existsSync(new URL(`../../${m[1]}`, import.meta.url)), `the doc's ${m[1]} exists`);
});
