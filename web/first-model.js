// first-model.js: start fetching the wasm and the first view's model at once, while the page code
// loads, so they arrive with the code instead of after it (issue #17). A classic script with no
// import: web/index.html and web/embed.html load it with defer and fetchpriority="high" (it never
// holds up the parser, is not queued behind the page's sixty modules, and, placed before the
// module scripts, runs before them: deferred and module scripts run in document order, so the
// page code always finds the fetches started; async raced embed-page.js in WebKit); the
// production build (scripts/build-web.mjs) puts it inline in the pages' <head>, so the requests
// start as the HTML is parsed, before any script has arrived.
//
// Each request is a plain fetch() whose promise is handed on in window.attnlabEarly (a Map:
// absolute URL → Promise of the Response, or of null when the fetch failed), which the page
// code takes once (shared/models.js takeEarly): main.js and embed-page.js pass the wasm's to
// init({ wasm }), fetchModel uses the model's. Not <link rel="preload" as="fetch">: WebKit
// (Safari) never hands a preloaded response to fetch(), whatever its mode and credentials, so
// every file was downloaded twice there (tests/engines/ counts each URL once in every engine).
// A fetch nobody takes costs its download, as an unused preload did, and logs no warning.
//
// The wasm: the SIMD128 build, init()'s choice in every current browser (main.js takes it only
// where the engine validates SIMD128). The model: the one of the view the page's settings name
// (the URL hash; embed.html's query string), for the alignment or over-time view of a dates
// model, or the default view (alignment, dates-additive) when they name none. Relative to the
// page (document.baseURI: web/ in both copies). Deliberately does nothing else.

(function fetchEarly() {
  'use strict';
  /** @type {Map<string, Promise<Response | null>>} */
  var early = new Map();
  /** @param {string} href */
  function start(href) {
    var url = new URL(href, document.baseURI).href;
    early.set(
      url,
      fetch(url).catch(function () {
        return null;
      }),
    );
  }
  // @ts-ignore: the page's one handoff to its module code
  window.attnlabEarly = early;
  start('../wasm/attnlab.wasm');
  var embed = /\/embed\.html$/.test(location.pathname);
  var raw = (embed ? location.search : location.hash).slice(1);
  var params = new URLSearchParams(raw);
  var playground = !embed && /(^|&)(n|m|d|seed|causal|scale)=/.test(raw);
  var view = params.get('view') || (playground ? 'playground' : 'alignment');
  var model = params.get('model') || 'dates-additive';
  if (
    (view !== 'alignment' && view !== 'time') ||
    !/^dates-(additive|dot|general|concat|local-p|none)$/.test(model)
  )
    return;
  start('models/' + model + '.safetensors');
})();
