// registry.js: the views of <attn-demo>, one module each, and how the element makes them.
//
//   import { VIEW_MODULES, VIEWS_STYLE } from '../views/registry.js';
//   const { view, style } = VIEW_MODULES.time.make(host);          // the critical-path views
//   const { view, style } = await VIEW_MODULES.heads.load(host);   // the others, on first use
//
// alignment, time and compare are imported statically, so the first view of a page never waits
// for an import; heads, pooling, reading and forgetting are import()ed on first use, so the first
// view never waits for them either. host: the element's callbacks (onSelect, onKind, onInput,
// onStep, onPair, onGold, refresh, current, error; see attn-demo.js #host). Every view has node, heatmaps,
// clear() and update(ctx) (attn-demo.js #context).
// Holds: the list, and the CSS of the critical-path views. Deliberately holds no view and no
// wiring: the element picks one, the view draws.

import { VIEW_STYLE } from '../shared/view-kit.js';
import { ALIGNMENT_STYLE, AlignmentView } from './alignment-view.js';
import { COMPARE_STYLE, CompareView } from './compare-view.js';
import { TimeView } from './time-view.js';

/**
 * Every view: make(host) → { view, style } (style: extra CSS for the shadow root), at once for the
 * views on the critical path, or load(host) → a Promise of it for the views imported on first
 * use. one: the view draws the element's one current model (compare and forgetting load their
 * own); keep: its maps stay when the current model fails to load (compare draws every model, not that one).
 * @typedef {{ view: any, style?: string }} ViewMade
 * @typedef {{ one?: boolean, keep?: boolean, make?: (host: any) => ViewMade,
 *   load?: (host: any) => Promise<ViewMade> }} ViewModule
 * @type {Readonly<Record<string, ViewModule>>}
 */
export const VIEW_MODULES = Object.freeze({
  alignment: {
    one: true,
    make: (host) => ({ view: new AlignmentView({ onGold: host.onGold, refresh: host.refresh }) }),
  },
  time: {
    one: true,
    make: (host) => ({
      view: new TimeView({
        onStep: host.onStep,
        current: host.current,
        error: host.error,
        onGold: host.onGold,
        refresh: host.refresh,
      }),
    }),
  },
  compare: {
    keep: true,
    make: (host) => ({
      view: new CompareView({ onPair: host.onPair, onGold: host.onGold, refresh: host.refresh }),
    }),
  },
  heads: {
    one: true,
    load: (host) =>
      import('./heads-view.js').then((m) => ({
        view: new m.HeadsView({
          onSelect: host.onSelect,
          onKind: host.onKind,
          onGold: host.onGold,
          refresh: host.refresh,
        }),
      })),
  },
  pooling: {
    one: true,
    load: () => import('./pooling-view.js').then((m) => ({ view: new m.PoolingView() })),
  },
  reading: {
    one: true,
    load: (host) =>
      import('./reading-view.js').then((m) => ({
        view: new m.ReadingView({ onStep: host.onStep }),
        style: m.READING_STYLE,
      })),
  },
  forgetting: {
    load: (host) =>
      import('./forgetting-view.js').then((m) => ({
        view: new m.ForgettingView({ onInput: host.onInput }),
        style: m.FORGETTING_STYLE,
      })),
  },
});
/** The critical-path views' styles (and those every view shares), for the shadow root. */
export const VIEWS_STYLE = `${VIEW_STYLE}${ALIGNMENT_STYLE}${COMPARE_STYLE}`;
