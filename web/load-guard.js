// load-guard.js: say why the page code could not load, in the page's own error box and language,
// when no module can run: a page opened as file:// (Chromium refuses module scripts there), a
// sandboxed iframe on a host that sends no Access-Control-Allow-Origin (its modules are
// cross-origin fetches), or a module missing on the server. Without it such a page sits at
// "Loading page code…" forever, or stays blank in its iframe.
//
//   <script src="load-guard.js" defer></script>      before the page's <script type="module">
//     (deferred scripts and module scripts run in document order, a failed module's error event
//     at its turn, so this runs first without holding up the parser)
//   <p id="error" class="error" role="alert" hidden></p>   the box it writes in (also #status,
//                                                          #load-progress, #app, .view if present)
//
// A classic script on purpose (no import, no export): classic scripts load from file:// and, as
// no-cors requests, from a server without CORS, where modules cannot. It listens (capture phase,
// on window) for the error event of the page's module script, and for 'attnlab-load-failed'
// (boot.js: main.js could not be imported; detail { url }), then finds the file (the entry, else
// the first of the modulepreload links that fails) and why, as fetch-problem.js does (a page on
// file:// fetches nothing; a refused request still succeeds as 'no-cors'; a missing file answers
// 404), and writes what failed, why and the fix.
// The language is the URL's lang parameter (query or hash), as app-state.js reads it. The
// strings are copies of i18n.js's (tests/js/web-load-guard.test.js keeps them equal): this file
// cannot import i18n.js. Deliberately does nothing else, and nothing at all when the code loads.

(function loadGuard() {
  'use strict';

  /** Copies of i18n.js's strings, by language (tests/js/web-load-guard.test.js). */
  var STRINGS = {
    en: {
      'load.code': 'The page code could not be loaded:',
      'load.file':
        '{url} cannot be fetched by a page opened as a file (file://). Serve it over http instead: run node scripts/serve.mjs in the attnlab folder, then open the address it prints.',
      'load.cors':
        '{url} was refused by the browser: it is on (or redirects to) another origin than this page, or this page is in a sandboxed iframe, and the server did not send Access-Control-Allow-Origin. The server must send that header for the .js, .wasm and model files (node scripts/serve.mjs does; on a static host, turn on CORS).',
      'load.unreachable':
        '{url} could not be fetched: the server did not answer. Check the address, and that the server is running.',
      'load.http': '{url} answered HTTP {status}.',
      'load.missing.code':
        'The file is missing: copy web/ and wasm/ side by side to the server, or check the path.',
      'load.http.other': 'Check the path, and the server’s log.',
      'load.broken':
        '{url}, or a module it imports, could not be run: the browser’s console names the file and the problem.',
      'status.notRunning': 'Not running.',
    },
    zh: {
      'load.code': '无法加载页面代码：',
      'load.file':
        '以文件（file://）打开的页面无法获取 {url}。请改用 http 提供此页面：在 attnlab 文件夹中运行 node scripts/serve.mjs，然后打开它显示的地址。',
      'load.cors':
        '浏览器拒绝了 {url}：它与本页面不同源（或重定向到其他源），或本页面位于沙盒 iframe 中，而服务器没有发送 Access-Control-Allow-Origin。服务器必须为 .js、.wasm 和模型文件发送这个响应头（node scripts/serve.mjs 会发送；在静态托管上请开启 CORS）。',
      'load.unreachable': '无法获取 {url}：服务器没有响应。请检查地址，以及服务器是否在运行。',
      'load.http': '{url} 返回 HTTP {status}。',
      'load.missing.code': '文件缺失：请把 web/ 和 wasm/ 并排复制到服务器上，或检查路径。',
      'load.http.other': '请检查路径和服务器日志。',
      'load.broken': '{url} 或它导入的某个模块无法运行：浏览器的控制台会指出是哪个文件、什么问题。',
      'status.notRunning': '未运行。',
    },
  };

  var query = new URLSearchParams(location.search);
  var hash = new URLSearchParams(location.hash.slice(1));
  var lang = (query.get('lang') ?? hash.get('lang')) === 'zh' ? 'zh' : 'en';
  var shown = false;

  /** @param {string} key @param {Record<string, string | number>} [params] */
  function t(key, params) {
    var table = /** @type {Record<string, string>} */ (STRINGS[lang]);
    return table[key].replace(/\{(\w+)\}/g, function (m, name) {
      return params && Object.prototype.hasOwnProperty.call(params, name)
        ? String(params[name])
        : m;
    });
  }

  /** @param {string[]} parts i18n.js sentences(): a space in English, nothing in Chinese */
  function sentences(parts) {
    return parts.join(lang === 'zh' ? '' : ' ');
  }

  /** Write the message in the page's box (once), and mark the page as not running. */
  function show(/** @type {string} */ text) {
    if (shown) return;
    shown = true;
    var box = document.getElementById('error');
    if (!box) return;
    box.textContent = text;
    box.hidden = false;
    var status = document.getElementById('status');
    if (status) status.textContent = t('status.notRunning');
    var progress = document.getElementById('load-progress');
    if (progress) progress.hidden = true;
    var app = document.getElementById('app');
    if (app) app.dataset.state = 'error';
    document.querySelectorAll('.view').forEach(function (view) {
      /** @type {HTMLElement} */ (view).hidden = true;
    });
    document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';
    var select = /** @type {HTMLSelectElement | null} */ (document.getElementById('lang')); // index.html's
    if (select) select.value = lang;
  }

  /** Why url could not be had: 'http' (with status), 'cors', 'unreachable' or 'ok' (fetch-problem.js diagnoseFetch). */
  async function probe(/** @type {string} */ url) {
    try {
      var response = await fetch(url, { cache: 'no-store' });
      return response.ok
        ? { kind: 'ok', status: response.status }
        : { kind: 'http', status: response.status };
    } catch (e) {
      // refused (CORS) or unreachable: an opaque answer means the server did answer
    }
    try {
      await fetch(url, { mode: 'no-cors', cache: 'no-store' });
      return { kind: 'cors', status: 0 };
    } catch (e) {
      return { kind: 'unreachable', status: 0 };
    }
  }

  /** The page code (entry, the module that failed) did not run: find the file and say why. */
  async function explain(/** @type {string} */ entry) {
    if (location.protocol === 'file:')
      return show(sentences([t('load.code'), t('load.file', { url: entry })]));
    // The entry itself, then every module the page preloads (the critical path's modules are all
    // listed there), the first failing one in document order. The modulepreload links' own error
    // events are no help: they may come after the entry's.
    var first = await firstFailing([entry]);
    if (!first) {
      var preloads = /** @type {NodeListOf<HTMLLinkElement>} */ (
        document.querySelectorAll('link[rel="modulepreload"]')
      );
      first = await firstFailing(
        Array.from(preloads, function (l) {
          return l.href;
        }),
      );
    }
    if (!first) return show(sentences([t('load.code'), t('load.broken', { url: entry })]));
    var why =
      first.kind === 'http'
        ? [
            t('load.http', { url: first.url, status: first.status }),
            t(
              first.status === 404 || first.status === 410
                ? 'load.missing.code'
                : 'load.http.other',
            ),
          ]
        : [t('load.' + first.kind, { url: first.url })];
    show(sentences([t('load.code')].concat(why)));
  }

  /** The first of urls (probed at once) that cannot be had: { url, kind, status }, or null. */
  async function firstFailing(/** @type {string[]} */ urls) {
    var got = await Promise.all(urls.map(probe));
    for (var i = 0; i < urls.length; i++)
      if (got[i].kind !== 'ok') return { url: urls[i], kind: got[i].kind, status: got[i].status };
    return null;
  }

  /** After the page's load event: the page's own requests first, then the probes. */
  function whenLoaded(/** @type {string} */ entry) {
    if (document.readyState === 'complete') explain(entry);
    else
      addEventListener(
        'load',
        function () {
          explain(entry);
        },
        { once: true },
      );
  }

  addEventListener(
    'error',
    function (event) {
      var node = event.target;
      if (node instanceof HTMLScriptElement && node.type === 'module' && node.src)
        whenLoaded(node.src);
    },
    true,
  );

  addEventListener('attnlab-load-failed', function (event) {
    var detail = /** @type {CustomEvent} */ (event).detail;
    if (!detail || typeof detail.url !== 'string') return;
    event.preventDefault(); // told: boot.js leaves the message to this file
    whenLoaded(detail.url);
  });

  // A page opened as file:// can fetch nothing it needs (no module, no .wasm, no model) in any
  // browser: say so as soon as the box exists, whatever the module scripts do.
  if (location.protocol === 'file:') {
    document.addEventListener('DOMContentLoaded', function () {
      var entry = document.querySelector('script[type="module"][src]');
      explain(entry ? /** @type {HTMLScriptElement} */ (entry).src : location.href);
    });
  }
})();
