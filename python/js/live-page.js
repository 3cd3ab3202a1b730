// python/js/live-page.js: the live view (notebook.js) of a model the page draws in a view of its
// own other than the alignment: the page's view itself (web/views/heads-view.js for a
// transformer, pooling-view.js for a classifier, reading-view.js for a memory-RNN language
// model), driven as <attn-demo> drives it (web/elements/attn-demo.js #render): every draw is one
// view.update(ctx) on a context of the output's own (views/view-context.js ViewContext: the
// settings, the loaded model), and the view's events answer it.
//
//   const draw = drivePageView({ root, view: PAGE_VIEWS.heads(), viewName: 'heads', model, name,
//     ui, lib });
//   draw(input);   // next frame: runs the model in the output's wasm and redraws (every edit)
//
//   view-change   a setting the view changed (a thumbnail: { layer, head }; { kind }; the reading
//                 view's { step }; { gold }): kept, and the view drawn again
//   view-refresh  drawn again; view-status: the status line; view-error: the error line
//   view-blank    the message alone (empty input, longer than the model's positions, a failed
//                 run), the view hidden, as on the page
//   view-done     the root's data-attnlab-state = 'ready' (and -input, -output: the output, the
//                 label or the text read), the words the model did not know under the status
// Holds: the context and the event wiring. Deliberately holds no drawing (the views do) and no
// table of architectures (live-views.js reads the page's).

import { HeadsView } from '../../web/views/heads-view.js';
import { PoolingView } from '../../web/views/pooling-view.js';
import { READING_STYLE, ReadingView } from '../../web/views/reading-view.js';
import { OUTPUT_CONFIDENCE_STYLE } from '../../web/shared/output-confidence.js';

/** The page's views the live view makes, by the name live-views.js gives (alignment: notebook.js). */
export const PAGE_VIEWS = Object.freeze({
  heads: () => new HeadsView(),
  pooling: () => new PoolingView(),
  reading: () => new ReadingView(),
});

/** What these views add to the live view's styles (view-kit.js VIEW_STYLE holds the rest). */
export const PAGE_VIEWS_STYLE = `${READING_STYLE}${OUTPUT_CONFIDENCE_STYLE}
.reading-controls button, .buttons button { font: inherit; min-height: 2rem; padding: 0.2rem 0.6rem; }
.note { color: #5c5c66; font-size: 0.875rem; }
.index-note { display: none; } /* the page's note on its links' counting: an output has no links */`;

/** A notebook has no model cards (no threshold to read, nothing to fetch): every ask answers so. */
const NO_CARDS = Object.freeze({
  card: () => new Error('a notebook output reads no model card'),
});

/**
 * Wire view (made by PAGE_VIEWS) to model in the output whose root is root; ui: notebook.js's
 * { status, error } lines; lib: the output's attnlab instance (for the status line's build).
 * Returns draw(input): run and draw input (the view runs the model itself, in update).
 */
export function drivePageView({ root, view, viewName, model, name, ui, lib }) {
  const state = {
    view: viewName,
    model: name,
    input: '',
    layer: 0,
    head: 0,
    lang: 'en',
    hide: [],
    a: null,
    b: null,
    kind: null,
    step: null,
    gold: false,
  };
  let blanked = false;
  let frame = 0;
  const error = (message) => {
    ui.error.textContent = message;
    ui.error.hidden = !message;
  };
  const render = () => {
    frame = 0;
    blanked = false;
    view.node.hidden = false;
    view.update({
      state: { ...state },
      model,
      name,
      models: NO_CARDS,
      refused: '',
      started: performance.now(),
    });
  };
  const schedule = () => {
    root.dataset.attnlabState = 'pending';
    frame ||= requestAnimationFrame(render);
  };
  const on = (type, fn) => view.node.addEventListener(type, (e) => fn(e.detail));
  on('view-change', (patch) => {
    Object.assign(state, patch);
    schedule();
  });
  on('view-refresh', schedule);
  on('view-status', (text) => {
    ui.status.textContent = `Ran in your browser (attnlab ${lib.simd ? 'SIMD128' : 'scalar'} build): ${text}`;
  });
  on('view-error', error);
  on('view-blank', (message) => {
    blanked = true;
    error(message);
    ui.status.textContent = '';
    view.node.hidden = true;
  });
  on('view-done', ({ result, extra = {}, unknown = [], corrected = [] }) => {
    if (result && !blanked) {
      const notes = [
        unknown.length ? `Not in the vocabulary: ${unknown.join(' ')}.` : '',
        corrected.length
          ? `Read as a vocabulary word: ${corrected.map(([a, b]) => `${a} → ${b}`).join(', ')}.`
          : '',
      ].filter(Boolean);
      if (notes.length) ui.status.textContent += ` ${notes.join(' ')}`;
    }
    root.dataset.attnlabInput = state.input;
    root.dataset.attnlabOutput = result ? String(extra.output ?? extra.label ?? '') : '';
    root.dataset.attnlabState = 'ready';
  });
  return (input) => {
    // a new input: the reading view starts from its first word again, as on the page
    Object.assign(state, { input, step: null });
    schedule();
  };
}
