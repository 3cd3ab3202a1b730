// import-graph.js: what a module of web/ or wasm/ imports, read from its source (not a test file
// itself; tests/js/web-imports.test.js walks it for cycles, tests/js/readme-package.test.js for
// what the npm package must hold).
//
//   importSpecifiers(file)    // ['../shared/i18n.js', 'attnlab', './heads-view.js', …] as written
//   importsOf(file)           // the same as absolute paths ('attnlab' by the page's import map)
//   urlsOf(file)              // new URL('…', import.meta.url) targets, as absolute paths
//
// Static imports (import … from, export … from, a bare import '…') and dynamic import('…') with a
// literal specifier. Comments are stripped first, so a JSDoc type such as import('./index.d.ts')
// or a usage line in a header is not an edge.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** web/index.html's import map: the demo page (web/main.js) imports the library as 'attnlab'. */
export const IMPORT_MAP = Object.freeze({ attnlab: path.join(ROOT, 'wasm/index.js') });

/** Source without comments: line comments (// after a line start or a space), then blocks. */
function stripComments(src) {
  return src.replace(/(^|\s)\/\/.*$/gm, '$1').replace(/\/\*[\s\S]*?\*\//g, '');
}

/** The specifiers file imports, as written (static and literal dynamic imports). */
export function importSpecifiers(file) {
  const src = stripComments(readFileSync(file, 'utf8'));
  const specs = [];
  for (const m of src.matchAll(
    /^\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm,
  ))
    specs.push(m[1] ?? m[2]);
  for (const m of src.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]);
  return specs;
}

/** The modules file imports, as absolute paths; bare specifiers outside IMPORT_MAP are left out. */
export function importsOf(file) {
  const out = [];
  for (const spec of importSpecifiers(file)) {
    if (IMPORT_MAP[spec]) out.push(IMPORT_MAP[spec]);
    else if (spec.startsWith('.') || spec.startsWith('/'))
      out.push(path.resolve(path.dirname(file), spec));
  }
  return out;
}

/** The files a module finds beside itself: new URL('<literal>', import.meta.url), absolute
 * (a folder, a literal ending in '/', is left out). */
export function urlsOf(file) {
  const src = stripComments(readFileSync(file, 'utf8'));
  return [...src.matchAll(/new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g)]
    .filter((m) => !m[1].endsWith('/'))
    .map((m) => path.resolve(path.dirname(file), m[1]));
}

/** Every file reachable from the seeds (absolute paths) through imports and new URL(…) targets:
 * the modules, workers and files a page with those entry points can request. */
export function reachable(seeds) {
  const seen = new Set();
  const stack = [...seeds];
  while (stack.length) {
    const file = stack.pop();
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    if (/\.m?js$/.test(file)) stack.push(...importsOf(file), ...urlsOf(file));
  }
  return seen;
}

/** The page's entry points: the scripts web/index.html and web/embed.html load, the element
 * entries, the service worker and the library's entry. */
export function pageEntries() {
  const seeds = [
    'web/elements.js',
    'web/elements-loader.js',
    'web/embed.js',
    'web/attention-heatmap.js',
    'web/sw.js',
    'wasm/index.js',
  ].map((p) => path.join(ROOT, p));
  for (const html of ['web/index.html', 'web/embed.html']) {
    const src = readFileSync(path.join(ROOT, html), 'utf8');
    for (const m of src.matchAll(/<script[^>]*\ssrc="([^"]+)"/g))
      seeds.push(path.resolve(ROOT, path.dirname(html), m[1]));
  }
  return seeds;
}
