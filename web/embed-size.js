// embed-size.js: tell the page that holds this iframe how tall its content is, so that page can
// size the iframe to fit (docs/embedding.md, "Sizing the iframe to its content": ten lines for any
// LMS page).
//
//   window.parent.postMessage({ type: 'attnlab:height', height, id }, '*')
//
// height: the document's content height in CSS pixels, rounded up (the <html> box: not the
// viewport, so an iframe taller than its content can shrink back); id: the iframe URL's `id`
// parameter (1–64 letters, digits, '-', '_', '.', ':'), else null, for a parent that prefers a
// name to checking event.source. Sent when the page loads and whenever the height changes
// (ResizeObserver: a new view, the model card opened, rows decoded, an error shown). The target is
// '*' because a sandboxed iframe cannot know its parent's origin, and the message holds nothing
// but a number and the id the parent gave. A classic script, like load-guard.js, so the height of
// an error message is sent too when no module could load. Does nothing outside an iframe.

(function embedSize() {
  'use strict';
  if (window.parent === window) return;
  var raw = new URLSearchParams(location.search).get('id');
  var id = raw !== null && /^[\w.:-]{1,64}$/.test(raw) ? raw : null;
  var last = -1;

  function post(/** @type {boolean} */ always) {
    var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last && !always) return;
    last = height;
    window.parent.postMessage({ type: 'attnlab:height', height: height, id: id }, '*');
  }

  new ResizeObserver(function () {
    post(false);
  }).observe(document.documentElement);
  addEventListener('load', function () {
    post(true);
  }); // a parent that listens late still hears it
})();
