// boot.js: load the page code, and say so plainly if it cannot load.
//
// main.js imports 'attnlab' statically, like user code; if that import fails (wasm/index.js
// not built, a 404, a syntax error) the whole module graph fails before any page code runs,
// and the page would sit at "Loading…" forever. This file has no imports, so it runs whenever a
// module can, and turns such a failure into a visible message (load-guard.js's, which names the
// file; where even this module cannot run, file:// or no CORS, load-guard.js says so itself).
// (index.html preloads the modules and the wasm; first-model.js, the first view's model.)
// Deliberately does nothing else.

const status = document.getElementById('status');
const progress = document.getElementById('load-progress');
const error = document.getElementById('error');
const app = document.getElementById('app');
const views = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.view'));

import('./main.js').catch((err) => {
  console.error(err);
  // load-guard.js (a classic script, so it runs even when this file cannot) finds the file that
  // failed and says why and the fix, in the page's language; this is the fallback without it.
  const told = !window.dispatchEvent(
    new CustomEvent('attnlab-load-failed', {
      cancelable: true,
      detail: { url: new URL('main.js', import.meta.url).href },
    }),
  );
  if (told) return;
  for (const view of views) view.hidden = true;
  if (app) app.dataset.state = 'error';
  if (progress) progress.hidden = true;
  if (status) status.textContent = 'Not running.';
  if (error) {
    error.textContent =
      `Could not load the page code: ${err && err.message ? err.message : err}. ` +
      'If wasm/index.js is missing, build it with `make wasm` and serve the repository root ' +
      '(`node scripts/serve.mjs`), then reload.';
    error.hidden = false;
  }
});
