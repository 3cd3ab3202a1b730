// embed-dialog.js: "Embed this view" on the demo page (web/main.js): a dialog with the code that
// puts the view shown, as it is now, on another page, in the two forms docs/embedding.md
// documents: the iframe (embed.html and its query, with the sandbox flags its buttons need) and
// the element (elements-loader.js and one <attn-demo> with the same settings as attributes), each
// with a Copy button.
//
//   const codes = embedCodes('https://host/attnlab/web/embed.html?view=alignment&model=…');
//   codes.iframe, codes.element            // the two snippets, as text
//   openEmbedDialog(embedUrl, 'zh', opener)   // the dialog; focus goes back to opener on close
//
// A modal <dialog>: Tab stays inside, Escape closes it. Copying uses the clipboard, else selects
// the code for the person to copy (shared/sandbox.js copyText). Imported on the first click, so
// the page's first view never loads it. Deliberately holds no state of the page (it is given the
// embed URL main.js already keeps in step) and no strings (i18n.js). Text is set as textContent
// or a field's value, never parsed as HTML.

import { t } from './shared/i18n.js';
import { copyText } from './shared/sandbox.js';

/** The <attn-demo> attributes, in the order written, that an embed query may carry. */
const ATTRIBUTES = ['view', 'model', 'input', 'layer', 'head', 'kind', 'step', 'a', 'b', 'gold'];

/** The sandbox flags the iframe needs: run, download the exports, open the link (docs/embedding.md). */
export const IFRAME_SANDBOX =
  'allow-scripts allow-downloads allow-popups allow-popups-to-escape-sandbox';

/** Text as an HTML attribute value (between double quotes). */
const attr = (text) =>
  String(text)
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

/**
 * The two snippets for the view at embedUrl (an absolute URL of embed.html with its query):
 * { iframe, element }. The element's script is elements-loader.js beside embed.html.
 * @param {string} embedUrl
 */
export function embedCodes(embedUrl) {
  const url = new URL(embedUrl);
  const query = url.searchParams;
  const model = query.get('model') ?? '';
  const iframe =
    `<iframe src="${attr(url.href)}"\n` +
    `        sandbox="${IFRAME_SANDBOX}"\n` +
    `        width="720" height="880" style="border:0" title="${attr(`Attention: ${model}`)}"></iframe>`;
  const attributes = [...ATTRIBUTES, 'lang']
    .filter((name) => query.has(name))
    .map((name) => ` ${name}="${attr(query.get(name))}"`)
    .join('');
  const loader = new URL('elements-loader.js', url).href;
  const element =
    `<script src="${attr(loader)}" async></script>\n` + `<attn-demo${attributes}></attn-demo>`;
  return { iframe, element };
}

/** The dialog's nodes, made once: { dialog, title, lede, close, forms: { iframe, element } }. */
let made = null;

function make() {
  const node = (tag, props = {}, children = []) => {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) n.setAttribute(k, v);
    n.append(...children);
    return n;
  };
  const form = (name) => {
    const heading = node('h3', { id: `embed-${name}-title` });
    const field = node('textarea', {
      id: `embed-${name}-code`,
      class: 'embed-code',
      readonly: '',
      spellcheck: 'false',
      rows: name === 'iframe' ? '5' : '4',
      'aria-labelledby': `embed-${name}-title`,
      'aria-describedby': `embed-${name}-note`,
    });
    const copy = node('button', { type: 'button', class: 'embed-copy', 'data-form': name });
    const status = node('span', { class: 'note embed-status', role: 'status' });
    const note = node('p', { class: 'note', id: `embed-${name}-note` });
    const section = node('section', { class: 'embed-form', 'data-form': name }, [
      heading,
      field,
      node('div', { class: 'embed-actions' }, [copy, status]),
      note,
    ]);
    return { section, heading, field, copy, status, note };
  };
  const title = node('h2', { id: 'embed-title' });
  const lede = node('p', { class: 'lede' });
  const close = node('button', { type: 'button', class: 'embed-close' });
  const forms = { iframe: form('iframe'), element: form('element') };
  const dialog = node(
    'dialog',
    { id: 'embed-dialog', class: 'embed-dialog', 'aria-labelledby': 'embed-title' },
    [
      node('div', { class: 'embed-head' }, [title, close]),
      lede,
      forms.iframe.section,
      forms.element.section,
    ],
  );
  close.addEventListener('click', () => dialog.close());
  // a click on the backdrop (outside the dialog's box) closes it too
  dialog.addEventListener('click', (e) => {
    if (e.target === dialog) {
      const r = dialog.getBoundingClientRect();
      const inside =
        e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
      if (!inside) dialog.close();
    }
  });
  document.body.append(dialog);
  return { dialog, title, lede, close, forms };
}

/**
 * Show the dialog for the view at embedUrl (absolute embed.html URL with its query), in lang;
 * when it closes, the focus returns to opener.
 * @param {string} embedUrl @param {string} lang @param {HTMLElement | null} [opener]
 */
export function openEmbedDialog(embedUrl, lang, opener = null) {
  made ??= make();
  const { dialog, title, lede, close, forms } = made;
  const codes = embedCodes(embedUrl);
  dialog.lang = lang === 'zh' ? 'zh-Hans' : 'en';
  title.textContent = t(lang, 'embed.title');
  lede.textContent = t(lang, 'embed.lede');
  close.textContent = t(lang, 'embed.close');
  for (const [name, f] of Object.entries(forms)) {
    f.heading.textContent = t(lang, `embed.${name}`);
    f.note.textContent = t(lang, `embed.${name}Note`);
    f.copy.textContent = t(lang, name === 'iframe' ? 'embed.copyIframe' : 'embed.copyElement');
    f.field.value = codes[name];
    f.status.textContent = '';
    f.copy.onclick = async () => {
      f.status.textContent = '';
      const copied = await copyText(codes[name], f.field);
      f.status.textContent = t(lang, copied ? 'export.copied' : 'export.copyManual');
    };
  }
  dialog.onclose = () => opener?.focus();
  if (!dialog.open) dialog.showModal();
  forms.iframe.copy.focus();
  return dialog;
}
