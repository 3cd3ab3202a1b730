// build-web.test.js: the production build (scripts/build-web.mjs) as files, without a browser
// (tests/browser/dist.test.js runs it): the pages lose the import map and preload the bundle's
// critical path only (main.js and one chunk; embed-page.js's chunk, its module script loading it),
// first the inline first-model.js (which fetches the .wasm and the model) and load-guard.js; the lazy views are not in those chunks; every file the
// code finds by import.meta.url exists in the build; the service worker's cache is named after the
// build's content (the same sources give the same name, a changed file another) and precaches
// every file of the pages' code that exists, no source map and no model. The course page's
// elements (the Embed dialog's element code): elements.js an entry of its own, two files to the
// first element, no heavier than the page's first plot, its lazy views apart, and none of its own
// files precached; elements-loader.js minified, probing elements.js's chunk, not source modules.
// And the development pages' modulepreload lists are the ones scripts/preloads.mjs writes from
// the module graph.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
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
/** The files of dist/web/ a module of it reaches, itself first: through its static imports, and
 * its import()s too when lazy (the bundle's imports are all "./…" specifiers). */
function reach(file, { lazy = false } = {}, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const imports = lazy
    ? /\b(?:from|import)\(?"\.\/([^"]+\.js)"/g
    : /\b(?:from|import)"\.\/([^"]+\.js)"/g;
  for (const m of read(`web/${file}`).matchAll(imports)) reach(m[1], { lazy }, seen);
  return seen;
}
const gzipOf = (files) =>
  [...files].reduce((a, f) => a + gzipSync(readFileSync(path.join(dist, 'web', f))).length, 0);

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
  const entries = ['main.js', 'embed-page.js', 'elements.js']; // index.html's, embed.html's, the elements'
  const critical = ['web/index.html', 'web/embed.html']
    .flatMap((page) => preloads(read(page)))
    .concat([...reach('elements.js')])
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
      `${file}'s ${JSON.stringify(text)} is not on the first plot's (or first element's) path`,
    );
    const lazy = readdirSync(path.join(dist, 'web')).filter(
      (n) => /^chunk-.*\.js$/.test(n) && read(`web/${n}`).includes(text),
    );
    assert.equal(lazy.length, entries.length, `${file}: in a lazy chunk of each entry's build`);
    for (const entry of entries) {
      const mine = [...reach(entry, { lazy: true })].filter((f) => lazy.includes(f));
      assert.equal(mine.length, 1, `${file}: one lazy chunk of ${entry}'s: ${mine}`);
    }
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
  const pages = new Set(['main.js', 'embed-page.js'].flatMap((e) => [...reach(e, { lazy: true })]));
  assert.ok(pages.size > 10, `the pages' code: ${[...pages].join(', ')}`);
  for (const c of pages) assert.ok(precache.includes(c), `${c} precached`);
  for (const f of [
    'boot.js',
    'lab/lab-worker.js',
    'lab/shard-worker.js',
    'lab/pairs-worker.js',
    'load-guard.js',
  ])
    assert.ok(precache.includes(f), `${f} precached`);
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

test("the course page's elements: an entry of its own, two files, not precached", () => {
  const critical = [...reach('elements.js')];
  assert.equal(critical.length, 2, `elements.js and one chunk: ${critical.join(', ')}`);
  assert.match(critical[1], /^chunk-[A-Z0-9]+\.js$/);
  const code = read('web/elements.js');
  for (const name of ['define', 'AttnDemo', 'AttentionHeatmap', 'AttnLab'])
    assert.match(code, new RegExp(`as ${name}[,}]`), `elements.js exports ${name}`);
  // the page's first plot is not the elements' (index.html preloads main.js and its own chunk)
  const page = reach('main.js');
  assert.ok(!page.has(critical[1]), "the elements' chunk is not on the page's path");
  const [mine, theirs] = [gzipOf(critical), gzipOf(page)];
  assert.ok(
    mine <= theirs,
    `the first element's code, ${mine} B gzip, is no more than the page's first plot's, ${theirs} B`,
  );
  // the heads view: a lazy chunk of the elements' own (the test above: on no first path)
  const all = reach('elements.js', { lazy: true });
  const lazy = [...all].filter((f) => read(`web/${f}`).includes('distance-map'));
  assert.equal(lazy.length, 1, `the heads view in one lazy chunk of the elements: ${lazy}`);
  // none of the elements' own files is precached (no page of the build loads them), nor the loader
  const precache = JSON.parse(read('web/sw.js').match(/const PRECACHE = (\[.*\]);/)[1]);
  const pages = new Set(['main.js', 'embed-page.js'].flatMap((e) => [...reach(e, { lazy: true })]));
  const own = [...all].filter((f) => !pages.has(f));
  assert.ok(own.includes('elements.js') && own.includes(lazy[0]), own.join(', '));
  for (const f of [...own, 'elements-loader.js'])
    assert.ok(!precache.includes(f), `${f} is not precached`);
});

test("elements-loader.js: minified, probing the bundle's chunk when the import fails", () => {
  const src = readFileSync(new URL('../../web/elements-loader.js', import.meta.url), 'utf8');
  const built = read('web/elements-loader.js');
  assert.ok(!built.startsWith('//') && built.length < src.length / 2, 'minified, no comments');
  assert.match(built, /new URL\("elements\.js",/);
  const list = built.match(/=(\["[^\]]*"\])\.map\(/);
  assert.ok(list, 'the list of modules to probe');
  assert.deepEqual(JSON.parse(list[1]), [...reach('elements.js')].slice(1));
  for (const f of ['embed.js', 'elements/attn-demo.js', '../wasm/index.js'])
    assert.ok(!built.includes(`"${f}"`), `${f}: a source module, not in the build`);
  // the strings are the source's (tests/js/web-load-guard.test.js holds those to i18n.js)
  for (const m of src.matchAll(/'load\.cors':\s*'([^']+)'/g))
    assert.ok(built.includes(m[1]), m[1].slice(0, 30));
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
