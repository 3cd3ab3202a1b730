// elements-loader.js: the one line for a course page that says why when it cannot run. A classic
// script that imports elements.js beside it (which registers <attn-demo>, <attn-heatmap> and
// <attn-lab>), and, when that import fails, puts the reason in an error box in each of those
// elements, in its language, instead of leaving them blank:
//
//   <script src="https://your.host/attnlab/web/elements-loader.js" async></script>
//   <attn-demo model="dates-additive" view="alignment" input="22 Nov 2026"></attn-demo>
//
// A module script (elements.js itself) is fetched with CORS: from a host that sends no
// Access-Control-Allow-Origin it is refused, and a page that loads it with
// <script type="module"> stays blank, with the reason only in the browser's console. A classic
// script is fetched without CORS, so this file loads from such a host and can say it. The reason
// is found as web/load-guard.js finds it for the iframe page (the entry, else the first of the
// modules it imports that fails: HTTP 404, refused for want of the header, no answer, file://),
// with the same sentences (copies of i18n.js's load.* strings: tests/js/web-load-guard.test.js
// keeps them equal). The elements' own errors (the .wasm or a model refused) are theirs
// (attn-demo.js, fetch-problem.js). Deliberately does nothing else, and nothing more than the
// import when it succeeds.

(function elementsLoader() {
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
  var TAGS = ['attn-demo', 'attn-heatmap', 'attn-lab'];
  var script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  var base = script && script.src ? script.src : location.href;
  var entry = new URL('elements.js', base).href;
  /** What elements.js imports first, in order: probed when the entry itself can be fetched. */
  var modules = ['embed.js', 'elements/attn-demo.js', '../wasm/index.js'].map(function (p) {
    return new URL(p, base).href;
  });

  /** @param {Element} node the language of an element: its lang, else the page's */
  function langOf(node) {
    var lang = node.getAttribute('lang') || document.documentElement.lang || 'en';
    return /^zh\b/i.test(lang) ? 'zh' : 'en';
  }

  /** @param {string} lang @param {string} key @param {Record<string, string | number>} [params] */
  function t(lang, key, params) {
    var table = /** @type {Record<string, string>} */ (STRINGS[lang]);
    return table[key].replace(/\{(\w+)\}/g, function (m, name) {
      return params && Object.prototype.hasOwnProperty.call(params, name)
        ? String(params[name])
        : m;
    });
  }

  /** Why url could not be had: 'http' (with status), 'cors', 'unreachable' or 'ok' (load-guard.js probe). */
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

  /** The message in lang for the first failing file (null: none found), as load-guard.js words it. */
  function message(
    lang,
    /** @type {{ url: string, kind: string, status: number } | null} */ first,
  ) {
    var why;
    if (location.protocol === 'file:') why = [t(lang, 'load.file', { url: entry })];
    else if (!first) why = [t(lang, 'load.broken', { url: entry })];
    else if (first.kind === 'http')
      why = [
        t(lang, 'load.http', { url: first.url, status: first.status }),
        t(
          lang,
          first.status === 404 || first.status === 410 ? 'load.missing.code' : 'load.http.other',
        ),
      ];
    else why = [t(lang, 'load.' + first.kind, { url: first.url })];
    return [t(lang, 'load.code')].concat(why).join(lang === 'zh' ? '' : ' ');
  }

  /** Each attnlab element on the page (and any added later) shows the message in its own box. */
  function show(/** @type {{ url: string, kind: string, status: number } | null} */ first) {
    var STYLE =
      ':host { display: block; } .error { padding: 0.4rem 0.6rem; border-radius: 6px; margin: 0.5rem 0;' +
      ' background: var(--attn-demo-error-bg, #fdecea); color: var(--attn-demo-error-text, #8c1d18);' +
      ' overflow-wrap: anywhere; }';
    TAGS.forEach(function (tag) {
      if (customElements.get(tag)) return; // registered by something else: left as it is
      customElements.define(
        tag,
        class extends HTMLElement {
          connectedCallback() {
            if (this.shadowRoot) return;
            var root = this.attachShadow({ mode: 'open' });
            var style = document.createElement('style');
            style.textContent = STYLE;
            var box = document.createElement('p');
            box.className = 'error demo-error';
            box.setAttribute('role', 'alert');
            box.textContent = message(langOf(this), first);
            var status = document.createElement('p');
            status.className = 'status';
            status.textContent = t(langOf(this), 'status.notRunning');
            root.append(style, box, status);
            this.dataset.state = 'error';
          }
        },
      );
    });
  }

  /** The entry, then the modules it imports first: the first that cannot be had, or null. */
  async function firstFailing() {
    var urls = [entry].concat(modules);
    for (var i = 0; i < urls.length; i++) {
      var got = await probe(urls[i]);
      if (got.kind !== 'ok') return { url: urls[i], kind: got.kind, status: got.status };
    }
    return null;
  }

  import(entry).catch(function () {
    if (location.protocol === 'file:') return show(null);
    firstFailing().then(show);
  });
})();
