// embed-page.js: wiring for web/embed.html, the iframe page. Query string -> <attn-demo>.
//
// Holds: reading and validating the query (app-state.js), creating the element with those
// settings, saying which parameters were refused, and keeping the query in step with what the
// person does (history.replaceState, which a sandboxed, opaque-origin iframe may refuse: then
// the element's own link still reproduces the view). Deliberately stores nothing (no cookies,
// no storage) and never puts URL text into HTML: attributes and textContent only.

import { formatModelParams, parseModelParams, refusedNotice } from './shared/app-state.js';
import { define } from './embed.js';
import { t } from './shared/i18n.js';
import { sampleInput } from './shared/models.js';

define();

// The URL's origin, not the document's: a sandboxed iframe's document origin is 'null'.
const origin = new URL(location.href).origin;
const query = new URLSearchParams(location.search);
const state = parseModelParams(query, origin);
if (state.seed !== null && !query.has('input')) state.input = sampleInput(state.seed, state.model);

document.documentElement.lang = state.lang === 'zh' ? 'zh-Hans' : 'en';
document.title = t(state.lang, 'page.embedTitle');
const app = document.getElementById('app');
const refused = document.getElementById('refused');
refused.textContent = refusedNotice(state.refused, state.lang); // the main page says it the same way
refused.hidden = !refused.textContent;

const demo = document.createElement('attn-demo');
for (const key of ['model', 'view', 'input', 'layer', 'head', 'lang']) demo.setAttribute(key, String(state[key]));
if (state.hide.length) demo.setAttribute('hide', state.hide.join(' '));
for (const key of ['a', 'b', 'kind', 'step']) if (state[key] !== null) demo.setAttribute(key, String(state[key]));
if (state.gold) demo.setAttribute('gold', '1');
app.append(demo);
demo.addEventListener('demo-render', (e) => {
  app.dataset.state = 'ready';
  app.dataset.rendered = /** @type {CustomEvent} */ (e).detail.key;
});
demo.addEventListener('demo-change', (e) => {
  const { lang } = /** @type {CustomEvent} */ (e).detail; // the element's own language picker
  document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';
  document.title = t(lang, 'page.embedTitle');
  // id (embed-size.js: the height messages' name) is kept, so a reload still sends it.
  const id = query.has('id') ? `&${new URLSearchParams({ id: query.get('id') })}` : '';
  const search = `?${formatModelParams({ .../** @type {CustomEvent} */ (e).detail, hide: state.hide, seed: null })}${id}`;
  try {
    if (location.search !== search) history.replaceState(null, '', search);
  } catch {
    // An opaque-origin document may not be allowed to rewrite its URL; the link still works.
  }
});
