#!/usr/bin/env node
// scripts/build-web.mjs: the production copy of the page, in dist/ (`make dist`). The
// development page (web/, unbundled, an import map, no build step) stays the source; this is
// what a static host should serve for a fast first plot on a slow network (docs/hosting.md).
//
//   node scripts/build-web.mjs [--out dist]        # then: node scripts/serve.mjs --root dist --compress
//   node scripts/build-web.mjs --precompress       # also f.gz and f.br beside each text file and .wasm,
//                                                  # for hosts that serve precompressed files (GitLab
//                                                  # Pages, nginx gzip_static, Caddy precompressed)
//
// dist/ keeps the repository's layout, so every URL the code computes from import.meta.url
// (the .wasm beside wasm/loader.js, the models under web/models/, the lab's workers, embed.html)
// still points at a real file:
//   dist/web/index.html, embed.html   the two pages, their modulepreload lists rewritten to the bundle's
//   dist/web/{boot,main,embed-page}.js                 entries, bundled and minified by esbuild
//   dist/web/lab/{lab,shard,pairs}-worker.js          the lab's workers, likewise
//   dist/web/elements.js              the course page's elements (<attn-demo> and the others: the
//                                     Embed dialog's element code), an entry of its own with chunks
//                                     of its own; dist/web/elements-loader.js, the classic script
//                                     that import()s it, minified, its list of modules to probe
//                                     when that fails rewritten to elements.js's chunks. No page
//                                     of the build loads them, so the service worker does not
//                                     precache them (it controls pages under web/ only)
//   dist/web/chunk-*.js               code shared by entries, or import()ed on first use (the
//                                     views other than the first stay lazy: code splitting)
//   dist/web/sw.js                    the service worker, its cache named after the build's hash
//   dist/web/{controls.css, style.css, favicon.svg, load-guard.js, embed-size.js, models/}   copied
//   dist/wasm/*.wasm                  the committed builds, copied (never rebuilt here)
// In the bundle one output file holds many source modules, so each source's import.meta.url is
// rewritten to the URL that module had in the repository (new URL('shared/models.js',
// import.meta.url) for web/shared/models.js): every output file lives in dist/web/, which stands
// where web/ stood. Compresses nothing unless asked (--precompress): most hosts compress on the fly
// (docs/hosting.md; serve.mjs --compress does what they do).

import { build, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import {
  cpSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib, { brotliCompressSync, gzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB = path.join(ROOT, 'web');

/**
 * The entries, one esbuild run each, so no run splits code between unrelated entries (a chunk per
 * combination of entries would put a dozen files on the first plot's path, and an HTTP/1.1 host
 * sends six at a time): main.js and embed-page.js split off only what they import() on first
 * use; the worker is one file; boot.js stays one small file that import()s main.js.
 */
const ENTRIES = [
  { entry: 'main.js', splitting: true },
  { entry: 'embed-page.js', splitting: true },
  { entry: 'lab/lab-worker.js', splitting: false }, // the lab's workers (web/lab/run.js, engine-model.js start them)
  { entry: 'lab/shard-worker.js', splitting: false },
  { entry: 'lab/pairs-worker.js', splitting: false }, // the lab's pairs parser (pairs-client.js)
  { entry: 'boot.js', splitting: false, external: ['./main.js'] },
  // the course page's elements (the Embed dialog's element code: elements-loader.js import()s
  // it); run on their own, so the page's first plot and the elements' each stay two files
  { entry: 'elements.js', splitting: true },
];
/** The entry no page of the build loads: its own files are left out of the service worker's
 * precache (the worker controls pages under web/ only; a course page elsewhere never asks it). */
const FOREIGN = 'elements.js';
/** The two pages and the entry whose static imports are each one's critical path (index.html's
 * module script, boot.js, import()s main.js at once; embed.html's is embed-page.js itself). */
export const PAGES = Object.freeze([
  ['index.html', 'main.js'],
  ['embed.html', 'embed-page.js'],
]);
/** Files copied as they are (classic scripts, styles, icon); the models and .wasm are copied as folders. */
const COPIED = ['controls.css', 'style.css', 'favicon.svg', 'load-guard.js', 'embed-size.js'];

/**
 * esbuild plugin: each module's import.meta.url as the URL it had beside web/ (see the header);
 * and each module import()ed on first use (lazy) made to import, for nothing, every module of the
 * entry's critical path (shared). esbuild puts a module in the chunk of the set of entries that
 * reach it; the lazy views each share a different part of the critical path, which would cut it
 * into a chunk per combination (nine for main.js). Reached from every lazy module, the whole
 * critical path but the entry's own code is one chunk: two files on the first plot's path, and
 * the lazy modules still load on first use (what they import for nothing is loaded already).
 */
function pagePlugin({ lazy = new Set(), shared = [] } = {}, base = WEB) {
  return {
    name: 'attnlab-page',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, (args) => {
        // relative to where the bundle lands (an entry in web/lab/ lands in dist/web/lab/)
        const rel = path.relative(base, args.path).split(path.sep).join('/');
        let code = readFileSync(args.path, 'utf8').replace(
          /\bimport\.meta\.url\b/g,
          `new URL(${JSON.stringify(rel)}, import.meta.url).href`,
        );
        if (lazy.has(args.path))
          code += shared.map((f) => `\nimport ${JSON.stringify(f)};`).join('');
        return { contents: code, loader: 'js' };
      });
    },
  };
}

/** An entry's modules, from a first esbuild pass: { lazy: import()ed paths, shared: the static
 * closure but the entry itself } (absolute paths). */
export async function entryGraph(entry, options) {
  const { metafile } = await build({
    ...options,
    entryPoints: [entry],
    write: false,
    splitting: false,
    outdir: '/nonexistent',
    sourcemap: false,
  });
  const abs = (p) => path.resolve(ROOT, p);
  const lazy = new Set();
  for (const input of Object.values(metafile.inputs))
    for (const i of input.imports)
      if (i.kind === 'dynamic-import' && !i.external) lazy.add(abs(i.path));
  const seen = new Set();
  const walk = (p) => {
    if (seen.has(p)) return;
    seen.add(p);
    for (const i of metafile.inputs[p]?.imports ?? [])
      if (i.kind === 'import-statement' && !i.external) walk(i.path);
  };
  walk(path.relative(ROOT, entry).split(path.sep).join('/'));
  return { lazy, shared: [...seen].map(abs).filter((f) => f !== entry) };
}

/** Every output module an entry imports statically, transitively (its critical path), entry first. */
function staticClosure(metafile, outdir, entry) {
  const seen = [];
  const walk = (file) => {
    if (seen.includes(file)) return;
    seen.push(file);
    for (const imp of metafile.outputs[file].imports)
      if (imp.kind === 'import-statement' && !imp.external) walk(imp.path);
  };
  walk(path.relative(ROOT, path.join(outdir, entry)).split(path.sep).join('/'));
  return seen.map((f) => path.relative(path.relative(ROOT, outdir), f).split(path.sep).join('/'));
}

/** A classic script, minified, for inlining (no '</script' can end it early). */
async function inlineScript(file) {
  const { code } = await transform(readFileSync(path.join(WEB, file), 'utf8'), {
    minify: true,
    target: 'es2020',
    charset: 'utf8',
    legalComments: 'none',
  });
  if (/<\/script/i.test(code))
    throw new Error(`build-web: ${file} cannot be inlined (it contains '</script')`);
  return `<script>${code.trim()}</script>`;
}

/**
 * page.html for the production build: the import map gone (nothing is left to map); the
 * modulepreload list replaced by the bundle's critical path (preloads); the first requests put
 * first, for a slow network: (inline, so they cost no request) first-model.js, which starts the
 * fetches of the .wasm and the first model, and load-guard.js, both before the stylesheet (an
 * inline script waits for the stylesheets above it). inline: { 'first-model.js': '<script>…' }.
 */
export function rewritePage(html, preloads, inline = {}) {
  // not a module a <script type="module" src> of the page loads: that element fetches it already,
  // and Firefox fires error on a modulepreload of it (tests/engines/)
  const scripts = [...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => m[1]);
  const links = preloads
    .filter((href) => !scripts.includes(href))
    .map((href) => `<link rel="modulepreload" href="${href}">`)
    .join('\n    ');
  let out = html.replace(/\s*<!--[^]*?-->\s*<script type="importmap">[^]*?<\/script>/, '');
  const early = [];
  for (const [file, script] of Object.entries(inline)) {
    out = out.replace(
      new RegExp(`[ \\t]*<script src="${file.replace('.', '\\.')}"[^>]*></script>\\n`),
      () => {
        early.push(script);
        return '';
      },
    );
  }
  if (early.length !== Object.keys(inline).length)
    throw new Error('build-web: the page lacks a script to inline');
  out = out.replace(/[ \t]*<!--[^]*?-->\n?/g, ''); // the development page's notes (this file's header says what changed)
  out = out.replace(
    /([ \t]*)<link rel="stylesheet"/,
    (m, indent) => `${early.map((e) => indent + e).join('\n')}\n${m}`,
  );
  let placed = false;
  out = out.replace(/(?:[ \t]*<link rel="modulepreload" href="[^"]+">\n)+/, () => {
    placed = true;
    return `    ${links}\n`;
  });
  if (!placed) throw new Error('build-web: found no modulepreload list to replace');
  return out;
}

/** Build dist/ (outRoot) from web/ and wasm/; resolves to { files, bytes, version }. */
export async function buildWeb({
  outRoot = path.join(ROOT, 'dist'),
  precompress = false,
  log = console.log,
} = {}) {
  rmSync(outRoot, { recursive: true, force: true });
  const outdir = path.join(outRoot, 'web');
  const metafile = { inputs: {}, outputs: {} };
  const owned = new Map(); // output file (dist-relative) → the entries whose run wrote it
  for (const { entry, splitting, external = [] } of ENTRIES) {
    const options = {
      absWorkingDir: ROOT, // the metafile's paths relative to the repository, whatever the cwd
      outdir,
      outbase: WEB,
      bundle: true,
      splitting,
      format: 'esm',
      minify: true,
      target: 'es2022',
      charset: 'utf8', // the Chinese strings as UTF-8, not \u escapes (smaller)
      legalComments: 'none',
      sourcemap: 'linked',
      chunkNames: 'chunk-[hash]',
      external: ['node:*', ...external], // wasm/source.js reads files in Node only, behind a dynamic import
      metafile: true,
      logLevel: 'warning',
      ignoreAnnotations: true, // package.json "sideEffects" must not drop the lazy modules' imports of the critical path
    };
    const file = path.join(WEB, entry);
    const graph = splitting ? await entryGraph(file, { ...options, plugins: [pagePlugin()] }) : {};
    const result = await build({
      ...options,
      entryPoints: [file],
      plugins: [pagePlugin(graph, path.dirname(file))],
    });
    Object.assign(metafile.outputs, result.metafile.outputs);
    for (const out of Object.keys(result.metafile.outputs)) {
      const f = path.relative(outRoot, path.resolve(ROOT, out)).split(path.sep).join('/');
      owned.set(f, [...(owned.get(f) ?? []), entry]);
    }
  }
  for (const f of COPIED) cpSync(path.join(WEB, f), path.join(outdir, f));
  writeFileSync(
    path.join(outdir, 'elements-loader.js'),
    await elementsLoader(staticClosure(metafile, outdir, FOREIGN).slice(1)),
  );
  cpSync(path.join(WEB, 'models'), path.join(outdir, 'models'), { recursive: true });
  mkdirSync(path.join(outRoot, 'wasm'));
  for (const f of readdirSync(path.join(ROOT, 'wasm')).filter((n) => n.endsWith('.wasm'))) {
    cpSync(path.join(ROOT, 'wasm', f), path.join(outRoot, 'wasm', f));
  }
  for (const [page, entry] of PAGES) {
    const html = readFileSync(path.join(WEB, page), 'utf8');
    const inline = {};
    for (const f of ['first-model.js', 'load-guard.js'])
      if (html.includes(`<script src="${f}"`)) inline[f] = await inlineScript(f);
    writeFileSync(
      path.join(outdir, page),
      rewritePage(html, staticClosure(metafile, outdir, entry), inline),
    );
  }
  // The service worker's cache is named after everything it may serve, so a new build (a
  // release) replaces it; it precaches the page and its code (not the models: those once seen).
  const files = walk(outRoot)
    .map((f) => path.relative(outRoot, f).split(path.sep).join('/'))
    .sort();
  const hash = createHash('sha256');
  for (const f of files) hash.update(f).update(readFileSync(path.join(outRoot, f)));
  const version = hash.digest('hex').slice(0, 12);
  const shell = files
    .filter(
      (f) =>
        f.startsWith('web/') &&
        !f.startsWith('web/models/') &&
        !f.endsWith('.map') &&
        f !== 'web/sw.js' &&
        f !== 'web/elements-loader.js' &&
        owned.get(f)?.join() !== FOREIGN,
    )
    .map((f) => (f === 'web/index.html' ? './' : path.posix.relative('web', f)))
    .concat(['../wasm/attnlab.wasm']);
  writeFileSync(path.join(outdir, 'sw.js'), serviceWorker(version, shell));
  if (precompress) {
    for (const f of walk(outRoot).filter((p) => /\.(html|js|css|json|svg|wasm)$/.test(p))) {
      const raw = readFileSync(f);
      writeFileSync(`${f}.gz`, gzipSync(raw, { level: 9 }));
      writeFileSync(
        `${f}.br`,
        brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
      );
    }
  }
  const all = walk(outRoot);
  const bytes = all.reduce((a, f) => a + statSync(f).size, 0);
  log(
    `build-web: ${path.relative(ROOT, outRoot)}/ (${all.length} files, ${(bytes / 1024).toFixed(0)} KB), cache ${version}`,
  );
  return { files: all.length, bytes, version };
}

/**
 * web/elements-loader.js for the build, minified: when the import of elements.js fails, it probes
 * the modules elements.js imports first to name the one that failed; in the bundle those are its
 * chunks (chunks: the bundle's static closure of elements.js, the entry left out), not the
 * source modules it lists.
 */
async function elementsLoader(chunks) {
  const src = readFileSync(path.join(WEB, 'elements-loader.js'), 'utf8');
  const out = src.replace(
    /^(\s*var modules = )\[[^\]\n]*\]/m,
    (m, head) => head + JSON.stringify(chunks),
  );
  if (out === src || !chunks.length)
    throw new Error('build-web: web/elements-loader.js has no `var modules = [...]` line to fill');
  const { code } = await transform(out, {
    minify: true,
    target: 'es2020',
    charset: 'utf8',
    legalComments: 'none',
  });
  return code;
}

/** web/sw.js with its version and precache list filled in (the development copy has neither). */
function serviceWorker(version, shell) {
  const src = readFileSync(path.join(WEB, 'sw.js'), 'utf8');
  const out = src
    .replace(/^const VERSION = 'dev';$/m, `const VERSION = ${JSON.stringify(version)};`)
    .replace(/^const PRECACHE = \[\];$/m, `const PRECACHE = ${JSON.stringify(shell)};`);
  if (out === src || !out.includes(version) || !out.includes('chunk-'))
    throw new Error('build-web: web/sw.js has no VERSION/PRECACHE line to fill');
  return out;
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

const args = process.argv.slice(2);
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = args.indexOf('--out');
  await buildWeb({
    outRoot: i >= 0 ? path.resolve(args[i + 1]) : undefined,
    precompress: args.includes('--precompress'),
  });
}
