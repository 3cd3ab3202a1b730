// python/js/notebook.js: what attnlab.show() (python/attnlab/show.py) puts in a notebook output
// cell, bundled by scripts/build-python-assets.mjs into python/attnlab/assets/notebook.js (one
// classic script, an IIFE setting the global attnlabNotebook: no import, no module script, no
// network). show(weights) uses the smaller heatmap.js (global attnlabHeatmap), without the wasm.
//
//   <div class="attnlab-output" id="attnlab-…">
//     <script type="application/json" class="attnlab-data">{ kind: 'heatmap' | 'model', … }</script>
//     <div class="attnlab-mount"></div>
//   </div>
//   <script>…this bundle…</script>
//   <script>…attnlabNotebook.mount(document.getElementById('attnlab-…'))…</script>
//
// kind 'heatmap': { weights (base64 float32 LE, row-major), rows, cols, rowLabels, colLabels,
//   label, min, max, colormap, cellSize } → one <attn-heatmap>.
// kind 'model': { wasmGzip (base64 of attnlab.wasm gzipped), model (base64 of a .safetensors), input,
//   title } → the live view: an input box; every edit re-runs the model in this page's own
//   attnlab instance (createAttnlab from the inlined bytes) and redraws the view the page draws
//   that architecture in (live-views.js, the page's web/shared/architectures.js viewFor): a
//   seq2seq model <attn-demo>'s alignment view (the output, the map, the explanation of the
//   hovered cell); a transformer the heads view (layers × heads, the kind of an encoder-decoder's
//   maps), a classifier the pooling view (label, calibrated confidence, "unsure"), a memory-RNN
//   language model the reading view, each driven as the page drives it (live-page.js). A file of
//   another architecture: an error naming it and the ones drawn (show.py refuses it first).
//
// Each output works alone (nbconvert's HTML, Colab and VS Code render outputs in isolation):
// everything it needs is in its own cell. Several outputs on one page (Jupyter Notebook,
// JupyterLab) share nothing but the custom-element registry (<attn-heatmap> is defined once; the
// same code) and the bundle's global (each output's script sets it again, then mounts). The root
// gets data-attnlab-state = 'ready' after each drawn view, 'error' (and the message shown) when
// it cannot draw: tests/browser/notebook.test.js waits on it.

import { createAttnlab } from '../../wasm/index.js';
import { ALIGNMENT_STYLE, AlignmentView } from '../../web/views/alignment-view.js';
import { VIEW_STYLE, el } from '../../web/shared/view-kit.js';
import { inputHint } from '../../web/shared/app-state.js';
import { familyOf } from '../../web/shared/architectures.js';
import { PAGE_VIEWS, PAGE_VIEWS_STYLE, drivePageView } from './live-page.js';
import { liveFamiliesText, liveView } from './live-views.js';
import { fromBase64, heatmap, mounter } from './output.js';

/** The longest input the live view runs (as <attn-demo>'s MAX_INPUT). */
const MAX_INPUT = 64;

/** What the live view adds to output.js's styles. */
const LIVE_STYLE = `
label { font-weight: 600; display: block; }
input[type="text"] { font: 1rem ui-monospace, monospace; width: 100%; max-width: 28rem; min-height: 2.25rem;
  padding: 0.25rem 0.4rem; }
.about, .status { color: #5c5c66; font-size: 0.8125rem; margin: 0.25rem 0; }
${VIEW_STYLE}${ALIGNMENT_STYLE}${PAGE_VIEWS_STYLE}`;

/**
 * attnlab.wasm from an output's data (base64 of its gzip: 87 KB instead of 199 KB), compiled.
 * DecompressionStream: Chrome 80, Firefox 113, Safari 16.4 (which SIMD128 needs anyway).
 */
async function compileWasm(b64) {
  if (typeof DecompressionStream !== 'function') {
    throw new Error(
      'this browser cannot unpack the inlined attnlab.wasm (DecompressionStream: Chrome 80, Firefox 113, Safari 16.4 or later)',
    );
  }
  const stream = new Blob([fromBase64(b64)]).stream().pipeThrough(new DecompressionStream('gzip'));
  return WebAssembly.compile(await new Response(stream).arrayBuffer());
}

/** Draw the output whose root element is root (the div holding its JSON data), once. */
export const mount = mounter({ heatmap, model: live }, { model: LIVE_STYLE });

async function live(root, shadow, d) {
  const ui = {
    title: el('p', { class: 'title' }),
    about: el('p', { class: 'about' }),
    label: el('label', { for: 'input', text: 'Input' }),
    input: el('input', {
      id: 'input',
      type: 'text',
      maxlength: String(MAX_INPUT),
      autocomplete: 'off',
      spellcheck: 'false',
      autocapitalize: 'off',
    }),
    hint: el('p', { class: 'about' }),
    status: el('p', { class: 'status', role: 'status', text: 'Loading attnlab…' }),
    error: el('p', { class: 'error', role: 'alert', hidden: '' }),
  };
  shadow.append(
    ui.title,
    ui.about,
    el('div', {}, [ui.label, ui.input]),
    ui.hint,
    ui.status,
    ui.error,
  );
  ui.input.value = String(d.input ?? '').slice(0, MAX_INPUT);

  const lib = await createAttnlab({ wasm: await compileWasm(d.wasmGzip) });
  const model = await lib.loadModel(fromBase64(d.model));
  const config = /** @type {any} each architecture's config */ (model.config);
  const viewName = liveView(model.architecture, config.head);
  if (!viewName) {
    throw new Error(
      `the live view draws ${liveFamiliesText()}; this file is ${JSON.stringify(model.architecture)}${config.head ? ` with head "${config.head}"` : ''}`,
    );
  }
  ui.title.textContent = d.title || config.name || 'attnlab model';
  if (viewName !== 'alignment') return livePage(root, shadow, d, { ui, lib, model, viewName });
  const view = new AlignmentView();
  view.texts('en');
  shadow.append(view.node);
  ui.about.textContent = [
    config.description,
    `${model.architecture}, ${config.cell ?? ''} cell, ${config.attention ?? ''} attention`,
  ]
    .filter(Boolean)
    .join(' · ');
  const unit = model.tokenizer.type === 'word' ? 'word' : 'character';
  ui.hint.textContent = `Each row of the map is one ${unit} the model wrote; the columns are the input it read.`;

  let frame = 0;
  const draw = () => {
    frame = 0;
    const t0 = performance.now();
    const input = ui.input.value;
    const fail = (message) => {
      ui.error.textContent = message;
      ui.error.hidden = false;
      view.clear();
      root.dataset.attnlabState = 'ready';
      root.dataset.attnlabInput = input;
    };
    if (!input || model.encode(input).length === 0)
      return fail('Type an input to run the model on.');
    let result;
    try {
      result = model.run(input);
    } catch (err) {
      return fail(`The model could not run on this input: ${err.message}`);
    }
    ui.error.hidden = true;
    const { rows, cols } = view.render({ result, config, layer: 0, head: 0, lang: 'en' });
    const unknown = result.unknownWords?.length
      ? ` Not in the vocabulary: ${result.unknownWords.join(' ')}.`
      : '';
    ui.status.textContent = `Ran in your browser (attnlab ${lib.simd ? 'SIMD128' : 'scalar'} build): ${rows} output × ${cols} input tokens, ${(performance.now() - t0).toFixed(1)} ms.${unknown}`;
    view.heatmaps[0].flush();
    root.dataset.attnlabInput = input;
    root.dataset.attnlabOutput = result.output;
    root.dataset.attnlabState = 'ready';
  };
  ui.input.addEventListener('input', () => {
    root.dataset.attnlabState = 'pending';
    frame ||= requestAnimationFrame(draw);
  });
  draw();
}

/** What the about line says of a model the page draws in another view than the alignment. */
function aboutLine(model, viewName) {
  const c = /** @type {any} */ (model.config);
  const count = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;
  if (viewName === 'heads')
    return `transformer (${c.variant}), ${count(c.numLayers, 'layer')} × ${count(c.numHeads, 'head')}, ${c.positions} positions: the heads view`;
  if (viewName === 'pooling')
    return `classifier: ${c.bidirectional ? 'bidirectional ' : ''}${c.cell} encoder, ${c.pooling} pooling, labels ${model.labels.join(', ')}: the pooling view`;
  return `memory-RNN language model: ${c.cell} cell${c.cell === 'lstm' ? ' (no attention)' : ''}: the reading view`;
}

/** The live view of a transformer, classifier or memory-RNN language model: the page's view. */
function livePage(root, shadow, d, { ui, lib, model, viewName }) {
  const config = /** @type {any} */ (model.config);
  const name = config.name || 'model';
  ui.about.textContent = [config.description, aboutLine(model, viewName)]
    .filter(Boolean)
    .join(' · ');
  ui.hint.textContent = inputHint(
    'en',
    familyOf(model.architecture, config.head),
    config.tokenizer,
  );
  const view = PAGE_VIEWS[viewName]();
  view.texts?.('en');
  shadow.append(view.node);
  const draw = drivePageView({ root, view, viewName, model, name, ui, lib });
  ui.input.addEventListener('input', () => draw(ui.input.value));
  draw(ui.input.value);
}
