// build-web.test.js: the production build (scripts/build-web.mjs) as files, without a browser
// (tests/browser/dist.test.js runs it): the pages lose the import map and preload the bundle's
// critical path only (main.js and one chunk; embed-page.js's chunk, its module script loading it),
// first the inline first-model.js (which fetches the .wasm and the model) and load-guard.js; the lazy views are not in those chunks; every file the
// code finds by import.meta.url exists in the build; the service worker's cache is named after the
// build's content (the same sources give the same name, a changed file another) and precaches
// every file of the page's code that exists, no source map and no model. And the development
// pages' modulepreload lists are the ones scripts/preloads.mjs writes from the module graph.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { buildWeb } from '../../scripts/build-web.mjs';
import { pagePreloads } from '../../scripts/preloads.mjs';

let tmp;
let dist;
let version;

before(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'attnlab-build-'));
  dist = path.join(tmp, 'dist');
  ({ version } = await buildWeb({ outRoot: dist, log: () => {} }));
});

after(() => rmSync(tmp, { recursive: true, force: true }));

const read = (f) => readFileSync(path.join(dist, f), 'utf8');
const preloads = (html) =>
  [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);

test('the pages: no import map; the wasm, the first model and the guard first; the critical modules preloaded', () => {
  for (const [page, entry] of [
    ['web/index.html', 'main.js'],
    ['web/embed.html', 'embed-page.js'],
  ]) {
    const html = read(page);
    assert.ok(!html.includes('importmap'), `${page}: no import map`);
    const list = preloads(html);
    // the entry and its one chunk; embed.html's entry is its module script, which fetches it
    const script = html.includes(`<script type="module" src="${entry}"></script>`);
    assert.equal(
      list[0] === entry,
      !script,
      `${page}: ${entry} preloaded unless a module script loads it`,
    );
    assert.equal(list.length, script ? 1 : 2, `${page}: ${list.join(', ')}`);
    for (const f of list) assert.ok(existsSync(path.join(dist, 'web', f)), f);
    // no preload of the .wasm (WebKit never reuses one): the inline first-model.js fetches it
    assert.ok(!html.includes('rel="preload"'), `${page}: no <link rel="preload">`);
    const early = html.indexOf('attnlabEarly');
    assert.ok(
      early > 0 &&
        early < html.indexOf('rel="stylesheet"') &&
        html.includes('../wasm/attnlab.wasm'),
      `${page}: the inline fetch of the .wasm before the stylesheet`,
    );
    assert.ok(
      html.indexOf('<script>') > 0 && html.indexOf('<script>') < html.indexOf('rel="stylesheet"'),
      `${page}: inline scripts before the stylesheet`,
    );
    assert.ok(!html.includes('src="load-guard.js"'), `${page}: load-guard.js inline`);
  }
  const index = read('web/index.html');
  assert.ok(
    !index.includes('src="first-model.js"') && index.includes('models/'),
    'first-model.js inline',
  );
  assert.ok(index.includes('<script type="module" src="boot.js"></script>'));
});

test("the lazy views stay out of the first plot's chunks, in chunks of their own", () => {
  const critical = ['web/index.html', 'web/embed.html']
    .flatMap((page) => preloads(read(page)))
    .map((f) => read(`web/${f}`))
    .join('\n');
  // string literals that only one lazy module holds (minification keeps strings)
  for (const [file, literal] of [
    ['heads-view.js', 'distance-map'],
    ['reading-view.js', 'READING_STYLE'],
    ['forgetting-view.js', 'FORGETTING_STYLE'],
  ]) {
    const src = readFileSync(new URL(`../../web/views/${file}`, import.meta.url), 'utf8');
    const text = literal.endsWith('_STYLE')
      ? src.match(new RegExp(`${literal} = \`\\s*([^\\n]{12,})`))[1].trim()
      : literal;
    assert.ok(
      !critical.includes(text),
      `${file}'s ${JSON.stringify(text)} is not on the first plot's path`,
    );
    const lazy = readdirSync(path.join(dist, 'web')).filter(
      (n) => /^chunk-.*\.js$/.test(n) && read(`web/${n}`).includes(text),
    );
    assert.equal(
      lazy.length,
      2,
      `${file}: in a lazy chunk of each page's build (index.html's, embed.html's)`,
    );
  }
  const main = read('web/main.js');
  assert.match(
    main,
    /import\("\.\/chunk-[A-Z0-9]+\.js"\)/,
    'main.js import()s the lesson and the lab on first use',
  );
  const registry = critical.match(/import\("\.\/chunk-[A-Z0-9]+\.js"\)/g) ?? [];
  assert.ok(
    registry.length >= 4,
    `the heads, pooling, reading and forgetting views are import()ed (${registry.length} dynamic imports)`,
  );
  for (const m of registry) assert.ok(existsSync(path.join(dist, 'web', m.slice(10, -2))), m);
});

test('every URL the code builds from import.meta.url names a file of the build', () => {
  const web = path.join(dist, 'web');
  for (const f of readdirSync(web).filter(
    (n) => n.endsWith('.js') && !['load-guard.js', 'embed-size.js', 'sw.js'].includes(n),
  )) {
    const code = read(`web/${f}`);
    for (const m of code.matchAll(
      /new URL\("([^"]+)",new URL\("([^"]+)",import\.meta\.url\)\.href\)/g,
    )) {
      const target = new URL(m[1], new URL(m[2], 'http://x/web/')).pathname;
      if (/\$|\{/.test(m[1])) continue; // a template (the models/ folder)
      assert.ok(existsSync(path.join(dist, target)), `${f}: ${m[1]} from ${m[2]} → ${target}`);
    }
  }
  assert.ok(
    existsSync(path.join(dist, 'wasm', 'attnlab.wasm')) &&
      existsSync(path.join(dist, 'wasm', 'attnlab-train.wasm')),
  );
  assert.ok(existsSync(path.join(dist, 'web', 'models', 'dates-additive.safetensors')));
});

test('the service worker: named after the content, precaching the code (no map, no model)', async () => {
  const sw = read('web/sw.js');
  assert.match(sw, new RegExp(`const VERSION = "${version}";`));
  assert.match(version, /^[0-9a-f]{12}$/);
  const precache = JSON.parse(sw.match(/const PRECACHE = (\[.*\]);/)[1]);
  const chunks = readdirSync(path.join(dist, 'web')).filter((n) => /^chunk-.*\.js$/.test(n));
  for (const c of chunks) assert.ok(precache.includes(c), `${c} precached`);
  for (const p of precache) {
    assert.ok(!p.endsWith('.map') && !p.includes('models/') && p !== 'sw.js', p);
    assert.ok(existsSync(path.join(dist, 'web', p === './' ? 'index.html' : p)), `${p} exists`);
  }
  assert.ok(
    precache.includes('./') &&
      precache.includes('embed.html') &&
      precache.includes('../wasm/attnlab.wasm'),
  );
  // the name is a hash of every other file of the build (its path and bytes): a release that
  // changes any file gets a new cache; the same sources, the same name
  const walk = (d) =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)],
    );
  const files = walk(dist)
    .map((f) => path.relative(dist, f).split(path.sep).join('/'))
    .filter((f) => f !== 'web/sw.js')
    .sort();
  const hash = createHash('sha256');
  for (const f of files) hash.update(f).update(readFileSync(path.join(dist, f)));
  assert.equal(hash.digest('hex').slice(0, 12), version);
  const again = await buildWeb({ outRoot: dist, log: () => {} });
  assert.equal(again.version, version);
});

test('the development pages preload the critical path scripts/preloads.mjs writes', async () => {
  for (const { page, html, want } of await pagePreloads()) {
    assert.deepEqual(
      preloads(html),
      preloads(want),
      `web/${page}'s modulepreload list is stale: run node scripts/preloads.mjs`,
    );
    assert.equal(html, want, `web/${page}: only the list differs; run node scripts/preloads.mjs`);
  }
});
