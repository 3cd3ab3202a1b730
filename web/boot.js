// boot.js: load the page code, and say so plainly if it cannot load.
//
// main.js imports 'attnlab' statically, like user code; if that import fails (wasm/index.js
// not built, a 404, a syntax error) the whole module graph fails before any page code runs,
// and the page would sit at "Loading…" forever. This file has no imports, so it always runs,
// and turns such a failure into a visible message. Deliberately does nothing else.

const status = document.getElementById('status');
const progress = document.getElementById('load-progress');
const error = document.getElementById('error');
const app = document.getElementById('app');
const views = document.querySelectorAll('.view');

import('./main.js').catch((err) => {
  if (progress) progress.hidden = true;
  if (status) status.textContent = 'Not running.';
  if (error) {
    error.textContent =
      `Could not load the page code: ${err && err.message ? err.message : err}. ` +
      'If wasm/index.js is missing, build it with `make wasm` and serve the repository root ' +
      '(`node scripts/serve.mjs`), then reload.';
    error.hidden = false;
  }
  for (const view of views) view.hidden = true;
  if (app) app.dataset.state = 'error';
  console.error(err);
});
