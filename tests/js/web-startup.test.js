// web-startup.test.js: the page's critical path stays declared. web/index.html and web/embed.html
// list every module their entry (main.js, embed-page.js) imports statically as
// <link rel="modulepreload"> (so the browser fetches them in parallel instead of as a waterfall of
// imports), but the one a <script type="module" src> loads, and nothing else; the views that are not the first view (heads, pooling, reading,
// forgetting, the lab's view) stay out of the static graph (they are import()ed on first use); the wasm is
// fetched by first-model.js, not preloaded (WebKit never reuses a preload as=fetch).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
const IMPORT_MAP = { attnlab: path.resolve(WEB, '../wasm/index.js') };

/** The static import specifiers of a module (import … from, export … from, bare import). */
function staticImports(file) {
  const src = readFileSync(file, 'utf8');
  const out = [];
  for (const m of src.matchAll(
    /^\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm,
  )) {
    const spec = m[1] ?? m[2];
    out.push(IMPORT_MAP[spec] ?? path.resolve(path.dirname(file), spec));
  }
  return out;
}

/** Every module reachable from entry by static imports (entry included), as paths relative to web/. */
function closure(entry) {
  const seen = new Set();
  const walk = (f) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const d of staticImports(f)) walk(d);
  };
  walk(path.join(WEB, entry));
  return [...seen].map((f) => path.relative(WEB, f).split(path.sep).join('/')).sort();
}

function preloads(html, rel) {
  return [...html.matchAll(new RegExp(`<link rel="${rel}" href="([^"]+)"([^>]*)>`, 'g'))].map(
    (m) => ({ href: m[1], attrs: m[2] }),
  );
}

for (const [page, entry] of [
  ['index.html', 'main.js'],
  ['embed.html', 'embed-page.js'],
]) {
  test(`${page}: modulepreload lists exactly the static imports of ${entry}`, () => {
    const html = readFileSync(path.join(WEB, page), 'utf8');
    const listed = preloads(html, 'modulepreload')
      .map((l) => l.href)
      .sort();
    // a module the page loads with <script type="module" src> is fetched by that element already:
    // a modulepreload of it is redundant, and Firefox fires error on it (tests/engines/)
    const scripts = [...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => m[1]);
    const graph = closure(entry).filter((m) => !scripts.includes(m));
    assert.deepEqual(
      listed,
      graph,
      `${page}: missing ${graph.filter((m) => !listed.includes(m))}; stale ${listed.filter((m) => !graph.includes(m))} (node scripts/preloads.mjs rewrites the list)`,
    );
    for (const lazy of [
      'views/heads-view.js',
      'views/pooling-view.js',
      'views/reading-view.js',
      'views/forgetting-view.js',
      'lab/lab-view.js',
    ]) {
      assert.ok(
        !graph.includes(lazy),
        `${lazy} is imported on first use, not on the critical path`,
      );
    }
    // the wasm and the first model: fetched by first-model.js and handed on, never preloaded
    // (WebKit never reuses a <link rel="preload" as="fetch">; tests/engines/ counts the requests)
    assert.deepEqual(preloads(html, 'preload'), [], `${page}: no <link rel="preload">`);
    assert.match(
      html,
      /<script src="first-model\.js" defer fetchpriority="high"><\/script>/,
      `${page} starts first-model.js`,
    );
    // defer, before the module scripts: it runs before them (document order), so the page code finds its fetches
    assert.ok(
      html.indexOf('src="first-model.js"') < html.indexOf('type="module"'),
      `${page}: first-model.js before the module code`,
    );
    const map = html.indexOf('type="importmap"');
    if (map >= 0)
      assert.ok(
        map < html.indexOf('rel="modulepreload"'),
        'the import map comes before any module load',
      );
  });
}
