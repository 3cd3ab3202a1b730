// registry.js: the views of <attn-demo>, one module each, and how the element makes them.
//
//   import { VIEW_MODULES, VIEWS_STYLE } from '../views/registry.js';
//   const { view, style } = VIEW_MODULES.time.make();          // the critical-path views
//   const { view, style } = await VIEW_MODULES.heads.load();   // the others, on first use
//
// alignment, time and compare are imported statically, so the first view of a page never waits
// for an import; mechanism, heads, pooling, reading and forgetting are import()ed on first use, so the first
// view never waits for them either. Every view has node, heatmaps, clear() and update(ctx): it
// reads a context (view-context.js ViewContext) and answers with events on its node
// (view-context.js: view-change, view-refresh, view-status, view-error, view-blank, view-done);
// it calls nothing of the element. Which family each view shows is web/shared/architectures.js's.
// Holds: the list, and the CSS of the critical-path views. Deliberately holds no view and no
// wiring: the element picks one, the view draws.

import { VIEW_STYLE } from '../shared/view-kit.js';
import { OUTPUT_CONFIDENCE_STYLE } from '../shared/output-confidence.js';
import { ALIGNMENT_STYLE, AlignmentView } from './alignment-view.js';
import { COMPARE_STYLE, CompareView } from './compare-view.js';
import { TimeView } from './time-view.js';

/**
 * Every view, in tab order (app-state.js VIEWS; tests/js/architectures.test.js): make() →
 * { view, style } (style: extra CSS for the shadow root), at once for the views on the critical
 * path, or load() → a Promise of it for the views imported on first use. one: the view draws the
 * element's one current model (compare and forgetting load their own); keep: its maps stay when
 * the current model fails to load (compare draws every model, not that one).
 * @typedef {{ view: any, style?: string }} ViewMade
 * @typedef {{ one?: boolean, keep?: boolean, make?: () => ViewMade,
 *   load?: () => Promise<ViewMade> }} ViewModule
 * @type {Readonly<Record<string, ViewModule>>}
 */
export const VIEW_MODULES = Object.freeze({
  alignment: { one: true, make: () => ({ view: new AlignmentView() }) },
  time: { one: true, make: () => ({ view: new TimeView() }) },
  compare: { keep: true, make: () => ({ view: new CompareView() }) },
  mechanism: {
    one: true,
    load: () =>
      import('./mechanism-view.js').then((m) => ({
        view: new m.MechanismView(),
        style: m.MECHANISM_STYLE,
      })),
  },
  heads: {
    one: true,
    load: () => import('./heads-view.js').then((m) => ({ view: new m.HeadsView() })),
  },
  pooling: {
    one: true,
    load: () => import('./pooling-view.js').then((m) => ({ view: new m.PoolingView() })),
  },
  reading: {
    one: true,
    load: () =>
      import('./reading-view.js').then((m) => ({
        view: new m.ReadingView(),
        style: m.READING_STYLE,
      })),
  },
  forgetting: {
    load: () =>
      import('./forgetting-view.js').then((m) => ({
        view: new m.ForgettingView(),
        style: m.FORGETTING_STYLE,
      })),
  },
});
/** The critical-path views' styles (and those every view shares), for the shadow root. */
export const VIEWS_STYLE = `${VIEW_STYLE}${ALIGNMENT_STYLE}${COMPARE_STYLE}${OUTPUT_CONFIDENCE_STYLE}`;
