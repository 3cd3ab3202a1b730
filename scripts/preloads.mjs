#!/usr/bin/env node
// scripts/preloads.mjs: writes the <link rel="modulepreload"> lists of the development pages
// (web/index.html, web/embed.html) from the module graph, so that nobody keeps them by hand. Each
// list is the entry's critical path: the entry (main.js for index.html, embed-page.js for
// embed.html; PAGES in build-web.mjs) and every module it imports statically, transitively, in
// the order esbuild meets them, but a module the page's own <script type="module" src> loads
// (that element fetches it already, and Firefox fires error on a modulepreload of it). With the
// list the browser fetches the ~60 modules in parallel, not as a waterfall of imports.
//
//   node scripts/preloads.mjs            # rewrite the lists in place (after adding, moving or
//                                        # removing a module the first view imports statically)
//   node scripts/preloads.mjs --check    # exit 1, naming each stale page, when one is out of date
//   import { pagePreloads } from './scripts/preloads.mjs';   // tests/js/build-web.test.js
//
// Not here: the production page's list (build-web.mjs writes the bundle's own critical path into
// dist/); which modules stay off the critical path (tests/js/web-startup.test.js says that).

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGES, entryGraph } from './build-web.mjs';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../web');
const LIST = /(?:[ \t]*<link rel="modulepreload" href="[^"]+">\n)+/;

/** The preload hrefs page (a file of web/) should list, relative to web/, in import order. */
export async function criticalPath(page) {
  const entry = path.join(WEB, PAGES.find(([p]) => p === page)[1]);
  const { shared } = await entryGraph(entry, {
    bundle: true,
    format: 'esm',
    metafile: true,
    logLevel: 'silent',
    external: ['node:*'],
  });
  const html = readFileSync(path.join(WEB, page), 'utf8');
  const scripts = [...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => m[1]);
  return [entry, ...shared]
    .map((f) => path.relative(WEB, f).split(path.sep).join('/'))
    .filter((href) => !scripts.includes(href));
}

/** { page, html: as it is, want: with the list criticalPath gives } for each page. */
export async function pagePreloads() {
  const out = [];
  for (const [page] of PAGES) {
    const html = readFileSync(path.join(WEB, page), 'utf8');
    const indent = html.match(LIST)?.[0].match(/^[ \t]*/)[0];
    if (indent === undefined) throw new Error(`preloads: web/${page} has no modulepreload list`);
    const links = (await criticalPath(page)).map(
      (href) => `${indent}<link rel="modulepreload" href="${href}">\n`,
    );
    out.push({ page, html, want: html.replace(LIST, () => links.join('')) });
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const stale = (await pagePreloads()).filter(({ html, want }) => html !== want);
  if (process.argv.includes('--check')) {
    for (const { page } of stale) console.error(`preloads: web/${page} is stale`);
    process.exit(stale.length ? 1 : 0);
  }
  for (const { page, want } of stale) writeFileSync(path.join(WEB, page), want);
  console.log(
    `preloads: ${stale.length ? stale.map((s) => `web/${s.page}`).join(', ') : 'nothing'} rewritten`,
  );
}
