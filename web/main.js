// main.js: wiring for the demo page. Controls and URL hash -> state -> inputs -> attnlab ->
// heatmap.
//
// Holds: the glue between the DOM, state.js (the view in the URL hash), data.js (seeded Q, K,
// V), the library and <attn-heatmap>. Deliberately holds no maths, no drawing and no parsing:
// those live in the modules it imports, which are testable on their own. The view never calls
// the library: this file hands it plain typed arrays.

import { init, ops } from 'attnlab';
import { define } from './attention-heatmap.js';
import { axisLabels, makeQKV } from './data.js';
import { formatValue } from './draw.js';
import { LIMITS, effectiveScale, formatHash, normalizeState, parseHash } from './state.js';

define();

const $ = (id) => document.getElementById(id);
const ui = {
  app: $('app'),
  view: $('sdpa-view'),
  status: $('status'),
  progress: $('load-progress'),
  error: $('error'),
  form: $('controls'),
  n: $('n'),
  m: $('m'),
  d: $('d'),
  seed: $('seed'),
  reseed: $('reseed'),
  causal: $('causal'),
  scale: $('scale'),
  scaleOut: $('scale-out'),
  scaleAuto: $('scale-auto'),
  heatmap: $('heatmap'),
  readout: $('readout'),
  info: $('info'),
  permalink: $('permalink'),
};

let state = parseHash(location.hash);
let frame = 0; // pending compute (one per animation frame, however many inputs fired)
let readoutActive = false; // a cell has been read; keep the readout in step with new data

function showError(message) {
  ui.error.textContent = message;
  ui.error.hidden = !message;
}

/** Put state into the controls, except the one being edited (so typing is not overwritten). */
function writeControls(s, editing = null) {
  for (const key of ['n', 'm', 'd']) {
    if (ui[key] !== editing) ui[key].value = String(s[key]);
    $(`${key}-out`).textContent = String(s[key]);
  }
  if (ui.seed !== editing) ui.seed.value = String(s.seed);
  ui.causal.checked = s.causal;
  const scale = effectiveScale(s);
  if (ui.scale !== editing) ui.scale.value = String(Math.log10(scale));
  ui.scaleOut.textContent = s.scale === null ? `${formatValue(scale)} (1/√d)` : formatValue(scale);
  ui.scaleAuto.disabled = s.scale === null;
}

/** Adopt a new state: normalise it, mirror it in the URL and the controls, recompute. */
function setState(next, { editing = null } = {}) {
  state = normalizeState(next);
  const hash = formatHash(state);
  if (location.hash !== hash) history.replaceState(null, '', hash);
  writeControls(state, editing);
  if (!frame) frame = requestAnimationFrame(compute);
}

function compute() {
  frame = 0;
  const s = state;
  const { q, k, v } = makeQKV(s);
  const scale = effectiveScale(s);
  let result;
  const t0 = performance.now();
  try {
    result = ops.scaledDotProductAttention(q, k, v, { causal: s.causal, scale, returnWeights: true });
  } catch (err) {
    showError(`attnlab could not compute this view (${err.code ?? err.name}): ${err.message}`);
    return;
  }
  const ms = performance.now() - t0;
  const weights = result.weights;
  if (!weights || weights.shape.length !== 2 || weights.shape[0] !== s.n || weights.shape[1] !== s.m) {
    showError(`attnlab returned weights of shape [${weights?.shape}], expected [${s.n}, ${s.m}].`);
    return;
  }
  showError('');
  ui.heatmap.data = { weights: weights.data, rows: s.n, cols: s.m, ...axisLabels(s.n, s.m) };
  ui.info.textContent =
    `${s.n} × ${s.m} weights, d = ${s.d}, scale ${formatValue(scale)}${s.causal ? ', causal' : ''}; ` +
    `computed in ${ms.toFixed(2)} ms.`;
  const hash = formatHash(s);
  ui.permalink.href = hash;
  if (readoutActive) updateReadout(ui.heatmap.focusedCell);
  ui.heatmap.whenRendered().then(() => {
    ui.app.dataset.rendered = hash; // for tests and screenshots: this view is on screen
  });
}

function updateReadout(cell) {
  if (!cell) return;
  readoutActive = true;
  ui.readout.textContent = `Query ${cell.rowLabel} gives key ${cell.colLabel} the weight ${formatValue(cell.value)}.`;
}

function wireControls() {
  for (const key of ['n', 'm', 'd']) {
    const [lo, hi] = LIMITS[key];
    Object.assign(ui[key], { min: String(lo), max: String(hi) });
    ui[key].addEventListener('input', () => setState({ ...state, [key]: ui[key].valueAsNumber }, { editing: ui[key] }));
  }
  Object.assign(ui.seed, { min: String(LIMITS.seed[0]), max: String(LIMITS.seed[1]) });
  ui.seed.addEventListener('input', () => {
    const seed = ui.seed.valueAsNumber; // NaN while the field holds no number yet: wait
    if (Number.isFinite(seed)) setState({ ...state, seed }, { editing: ui.seed });
  });
  ui.seed.addEventListener('change', () => writeControls(state)); // show the clamped value
  ui.reseed.addEventListener('click', () => {
    setState({ ...state, seed: crypto.getRandomValues(new Uint32Array(1))[0] });
  });
  ui.causal.addEventListener('change', () => setState({ ...state, causal: ui.causal.checked }));
  const [lo, hi] = LIMITS.scale;
  Object.assign(ui.scale, { min: String(Math.log10(lo)), max: String(Math.log10(hi)) });
  ui.scale.addEventListener('input', () => {
    setState({ ...state, scale: 10 ** ui.scale.valueAsNumber }, { editing: ui.scale });
  });
  ui.scaleAuto.addEventListener('click', () => setState({ ...state, scale: null }));
  ui.form.addEventListener('submit', (event) => event.preventDefault());
  ui.heatmap.addEventListener('heatmap-focus', (event) => updateReadout(event.detail));
  // Back/forward or an edited URL: the hash is the source of truth.
  window.addEventListener('hashchange', () => setState(parseHash(location.hash)));
}

async function main() {
  ui.status.textContent = 'Loading the WebAssembly module…';
  let lib;
  try {
    if (typeof WebAssembly !== 'object') throw new Error('this browser has no WebAssembly');
    lib = await init();
  } catch (err) {
    ui.progress.hidden = true;
    ui.status.textContent = 'Not running.';
    showError(
      `Could not start the attnlab WebAssembly module: ${err.message}. ` +
        'Serve the repository root over http (node scripts/serve.mjs) after building with ' +
        '`make wasm`; pages opened as file:// cannot fetch .wasm files.',
    );
    ui.view.hidden = true;
    ui.app.dataset.state = 'error';
    console.error(err);
    return;
  }
  ui.progress.hidden = true;
  ui.app.dataset.simd = String(lib.simd);
  ui.status.textContent = lib.simd
    ? 'Running the SIMD128 build of attnlab.'
    : 'Running the scalar build of attnlab (this browser has no WebAssembly SIMD128).';
  wireControls();
  setState(state);
  ui.view.inert = false;
  ui.view.removeAttribute('aria-busy');
  ui.app.dataset.state = 'ready';
}

main();
