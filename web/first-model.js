// first-model.js: start fetching the first view's model at once, while the page code loads, so
// it arrives with the code instead of after it (issue #17). A classic script with no import:
// web/index.html loads it async with fetchpriority="high" (it never holds up the parser, and is
// not queued behind the page's sixty modules); the production build
// (scripts/build-web.mjs) puts it inline in the page's <head>, so the model's request starts as the
// HTML is parsed, before any script has arrived.
//
// The model: the one of the view the URL hash names, for the alignment or over-time view of a
// dates model, or the default view (alignment, dates-additive) when the hash names none; as a
// <link rel="preload" as="fetch" crossorigin>, which models.js's fetch() reuses (the same cors,
// same-origin-credentials request). Other views fetch their own models later: a preload left
// unused would be a console warning. Relative to the page (document.baseURI: web/ in both copies).
// Deliberately does nothing else.

(function preloadFirstModel() {
  'use strict';
  var raw = location.hash.slice(1);
  var params = new URLSearchParams(raw);
  var playground = /(^|&)(n|m|d|seed|causal|scale)=/.test(raw);
  var view = params.get('view') || (playground ? 'playground' : 'alignment');
  var model = params.get('model') || 'dates-additive';
  if ((view !== 'alignment' && view !== 'time') || !/^dates-(additive|dot|general|concat|local-p|none)$/.test(model)) return;
  var link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'fetch';
  link.crossOrigin = 'anonymous';
  link.href = new URL('models/' + model + '.safetensors', document.baseURI).href;
  document.head.append(link);
})();
