// readme-package.test.js: the Node quickstarts of the README and docs/api.md, as written, against
// the package a user installs. `npm pack` of this tree, `npm install --offline` of the tarball into
// an empty project (no "type" in its package.json, so the README's "save it as .mjs" is what makes
// them run), then every block of README.md or docs/*.md marked `<!-- npm-test: <name>.mjs -->`
// (packed.js readmeBlocks) saved as <name>.mjs there and run
// with node, its output checked. And what the package must hold for the elements to work from it
// (every module web/elements.js and the iframe page reach, the files they find beside themselves,
// every trained model and card, no bare import specifier), its exports (import.meta.resolve of
// each entry) and its element types (tsc on a page that imports 'attnlab/elements' through the
// package's own "exports" and "types"). The browser half, the elements served from a second
// origin: tests/browser/package.test.js.

import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ALL_MODELS } from '../../web/shared/models.js';
import { ROOT, importSpecifiers, importsOf, urlsOf } from './import-graph.js';
import { packAndInstall, readmeBlocks } from './packed.js';

const BLOCKS = readmeBlocks();
let pkg;

before(() => {
  pkg = packAndInstall(); // a project without "type": Node's default
});

after(() => pkg?.remove());

/** The numbers of the first `Float32Array(n) [ … ]` Node printed. */
function float32Printed(stdout) {
  const m = /Float32Array\(\d+\) \[([^\]]*)\]/.exec(stdout);
  assert.ok(m, `no Float32Array in the output:\n${stdout}`);
  return m[1].split(',').map(Number);
}

/** What each marked block must print, checked on its stdout. */
const EXPECT = {
  'quickstart.mjs': (out) => {
    assert.match(out, /^\[ 2, 2 \] Float32Array\(6\)/, out);
    // causal: query 0 sees key 0; query 1 sees keys 0 and 1 with scores [0, 1] / √2
    const w = Math.exp(Math.SQRT1_2) / (1 + Math.exp(Math.SQRT1_2));
    float32Printed(out).forEach((v, i) =>
      assert.ok(Math.abs(v - [1, 0, 0, 1 - w, w, 0][i]) < 1e-6, `weights[${i}] = ${v}`),
    );
  },
  'dates.mjs': (out) => assert.deepEqual(out.split('\n'), ['2026-11-22', '[ 11, 24 ]', '']),
  'classify.mjs': (out) => {
    const [first, tokens, unknown] = out.split('\n');
    const [label, p] = first.split(' ');
    assert.equal(label, 'negative');
    assert.ok(Number(p) >= 0.9 && Number(p) < 1, `p = ${p} (docs/api.md prints 0.9…)`);
    assert.equal(tokens, 'the soup was cold and the waiter was rude .');
    assert.equal(unknown, "[ 'zorblaxian' ]");
  },
};

test('the README and docs mark the quickstarts this test runs, and each is checked', () => {
  const node = [...BLOCKS.keys()].filter((name) => name.endsWith('.mjs'));
  assert.deepEqual(
    node.sort(),
    Object.keys(EXPECT).sort(),
    'a marked .mjs block without a check here, or a check without its block',
  );
  assert.ok(BLOCKS.get('dates.mjs').includes('loadModel('), 'a quickstart loads a packaged model');
});

for (const name of Object.keys(EXPECT)) {
  test(`README ${name}, verbatim, in a project that installed the tarball`, () => {
    writeFileSync(path.join(pkg.app, name), BLOCKS.get(name));
    EXPECT[name](pkg.run(name));
  });
}

test('the older-Node form in dates.mjs (a URL into node_modules) loads the same model', () => {
  const code = BLOCKS.get('dates.mjs');
  const resolve = /import\.meta\.resolve\('attnlab\/models\/dates-additive\.safetensors'\)/;
  const older =
    /^\/\/ (new URL\('\.\/node_modules\/attnlab\/web\/models\/dates-additive\.safetensors', import\.meta\.url\))$/m.exec(
      code,
    );
  assert.ok(resolve.test(code) && older, `dates.mjs names both forms:\n${code}`);
  writeFileSync(path.join(pkg.app, 'dates-older.mjs'), code.replace(resolve, older[1]));
  EXPECT['dates.mjs'](pkg.run('dates-older.mjs'));
});

test('the tarball holds everything the elements and the iframe page load, and no bare specifier', () => {
  const files = new Set(pkg.files);
  const rel = (p) => path.relative(ROOT, p).split(path.sep).join('/');
  // embed.html's scripts, preloads, stylesheet and icon, then every module they reach
  const html = readFileSync(path.join(ROOT, 'web/embed.html'), 'utf8');
  const linked = [...html.matchAll(/(?:src|href)="([^":?#]+)"/g)].map((m) =>
    path.resolve(ROOT, 'web', m[1]),
  );
  const queue = [
    path.join(ROOT, 'web/elements.js'),
    path.join(ROOT, 'web/elements-loader.js'), // the course page's one line (README)
    path.join(ROOT, 'web/embed.js'),
    ...linked,
  ];
  const seen = new Set();
  const bare = [];
  const beside = [];
  while (queue.length) {
    const f = queue.pop();
    if (seen.has(f)) continue;
    seen.add(f);
    if (!f.endsWith('.js')) continue;
    // node: builtins are imported only when running in Node (wasm/source.js reading a path)
    for (const spec of importSpecifiers(f))
      if (!/^(\.|\/|node:)/.test(spec)) bare.push(`${rel(f)} imports '${spec}'`);
    queue.push(...importsOf(f));
    for (const u of urlsOf(f)) beside.push([rel(f), u]);
  }
  assert.deepEqual(
    bare,
    [],
    'a module the elements load imports a bare specifier (only a page with an import map could resolve it)',
  );
  const missing = [...seen].map(rel).filter((f) => !files.has(f));
  assert.deepEqual(
    missing,
    [],
    'reached from web/elements.js or web/embed.html but left out of package.json "files"',
  );
  assert.ok(seen.size > 60, `${seen.size} files reached`);
  // the .wasm builds (loader.js) and embed.html (the element's link) found beside the modules
  for (const [from, u] of beside) {
    assert.ok(files.has(rel(u)), `${from} finds ${rel(u)} beside itself; the tarball lacks it`);
  }
  // every trained model of the registry, its card and the forgetting view's curve
  for (const m of ALL_MODELS.filter((e) => e.trained)) {
    for (const f of [m.file, m.card, m.curve].filter(Boolean))
      assert.ok(files.has(`web/${f}`), `${m.name}: web/${f} is not in the tarball`);
  }
  // and nothing a user does not run
  const dev = pkg.files.filter(
    (f) =>
      /^(src|tests|scripts|bench|docs|\.ci)\//.test(f) ||
      /^web\/(index\.html|main\.js|boot\.js)$/.test(f),
  );
  assert.deepEqual(dev, [], 'development files in the tarball');
  for (const f of [
    'LICENSE',
    'README.md',
    'CHANGELOG.md',
    'web/elements.d.ts',
    'web/embed.d.ts',
    'web/style.css',
  ])
    assert.ok(files.has(f), `the tarball holds ${f}`);
  const manifest = JSON.parse(readFileSync(path.join(pkg.installed, 'package.json'), 'utf8'));
  assert.deepEqual(
    [manifest.dependencies, manifest.peerDependencies, manifest.optionalDependencies],
    [undefined, undefined, undefined],
    'no runtime dependencies: `npm install --offline` and a CDN need nothing else',
  );
  const version = manifest.version;
  assert.match(
    readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8'),
    new RegExp(`^## ${version.replaceAll('.', '\\.')} `, 'm'),
    `CHANGELOG.md has an entry for ${version}`,
  );
});

test('the exports resolve to installed files (import.meta.resolve, as a user calls it)', () => {
  const names = [
    'attnlab',
    'attnlab/elements',
    'attnlab/embed',
    'attnlab/models/dates-additive.safetensors',
    'attnlab/models/dates-additive.json',
    'attnlab/wasm/attnlab.wasm',
    'attnlab/package.json',
  ];
  writeFileSync(
    path.join(pkg.app, 'resolve.mjs'),
    `console.log(JSON.stringify(${JSON.stringify(names)}.map((n) => import.meta.resolve(n))));\n`,
  );
  const got = JSON.parse(pkg.run('resolve.mjs'));
  const want = [
    'wasm/index.js',
    'web/elements.js',
    'web/embed.js',
    'web/models/dates-additive.safetensors',
    'web/models/dates-additive.json',
    'wasm/attnlab.wasm',
    'package.json',
  ];
  got.forEach((url, i) => {
    assert.equal(url, pathToFileURL(path.join(pkg.installed, want[i])).href, names[i]);
    assert.ok(existsSync(fileURLToPath(url)), `${names[i]} → ${url} exists`);
  });
});

test("TypeScript sees the element types through the package's exports (tsc, nodenext)", () => {
  writeFileSync(
    path.join(pkg.app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['es2022', 'dom', 'esnext.disposable'],
        types: [],
        skipLibCheck: false,
      },
      files: ['page.mts'],
    }),
  );
  writeFileSync(
    path.join(pkg.app, 'page.mts'),
    [
      "import 'attnlab/elements';",
      "import { define, type AttnDemoState } from 'attnlab/embed';",
      "import { loadModel, type Model } from 'attnlab';",
      "define({ demoTag: 'course-demo' });",
      "const demo = document.querySelector('attn-demo');",
      'const state: AttnDemoState | undefined = demo?.state;',
      "const heatmap = document.createElement('attn-heatmap');",
      'heatmap.data = { weights: new Float32Array(4), rows: 2, cols: 2 };',
      "demo?.addEventListener('demo-render', (e) => console.log(e.detail.ms, heatmap.data?.rows, state?.layer));",
      "const model: Model = await loadModel(import.meta.resolve('attnlab/models/dates-additive.safetensors'));",
      'model.dispose();',
      '',
    ].join('\n'),
  );
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(pkg.app, 'tsconfig.json')], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `tsc reported:\n${r.stdout}${r.stderr}`);
});
