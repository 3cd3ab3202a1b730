// heatmap-fallback.js: the export buttons of <attn-heatmap> (attention-heatmap.js) in a sandboxed
// iframe. A browser refuses a download in an iframe whose sandbox lacks allow-downloads and says
// so only in its console; here the element says it, names the flag, and offers the file another
// way: the text (SVG, CSV, JSON) in a field with a Copy button, the PNG as an image to copy or
// save from its context menu.
//
//   exportAs(heatmap, 'csv', shadowRoot);   // download, and in a sandboxed frame the panel too
//
// Where the frame can read its sandbox attribute (a same-origin parent) and downloads are refused,
// nothing is downloaded and the panel says so; in a cross-origin sandboxed frame, where no API
// tells, the download is tried and the panel says what to do if no file arrived
// (shared/sandbox.js). Outside a sandbox: the download alone, as before. Deliberately holds no
// file format (heatmap-export.js) and no strings (i18n.js).

import { clipboardAllowed, copyText, frameSandbox } from '../shared/sandbox.js';
import { t } from '../shared/i18n.js';
import { el } from './heatmap-data.js';
import { download, exportFile } from './heatmap-export.js';

const FALLBACK_STYLE = `
.export-fallback { margin: 0.5rem 0 0; padding: 0.5rem 0.75rem; border-radius: var(--al-radius, 6px);
  border: 1px solid var(--al-line, color-mix(in srgb, currentColor 25%, transparent));
  background: var(--al-surface, transparent); display: grid; gap: 0.4rem; }
.export-fallback p { margin: 0; font-size: var(--al-text-sm, 0.875rem); }
.export-fallback textarea { width: 100%; min-height: 7rem; font-family: var(--al-mono, ui-monospace, monospace);
  font-size: var(--al-text-xs, 0.75rem); resize: vertical; box-sizing: border-box; }
.export-fallback img { max-width: 100%; height: auto; justify-self: start;
  border: 1px solid var(--al-line, color-mix(in srgb, currentColor 25%, transparent)); }
.export-fallback .row { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; }
.export-fallback button { font: inherit; font-size: 0.8125rem; min-height: 2rem; padding: 0.25rem 0.6rem; }
.export-fallback .copy-status { font-size: var(--al-text-sm, 0.875rem); color: var(--al-muted, inherit); }
`;

/** The panel's nodes in heatmap's shadow root, made on first use: { node, note, field, image,
 * copy, close, status, data }; it goes once the map shows other data than the file's. */
function panelOf(root, heatmap) {
  /** @type {any} */ const host = root;
  if (host.exportFallback) return host.exportFallback;
  const p = {
    note: el('p', { class: 'why' }),
    field: el('textarea', { readonly: '', spellcheck: 'false', rows: '7', hidden: '' }),
    image: el('img', { hidden: '' }),
    copy: el('button', { type: 'button', class: 'copy' }),
    close: el('button', { type: 'button', class: 'close' }),
    status: el('span', { class: 'copy-status', role: 'status' }),
    url: '',
    data: null, // the heatmap's data when the file was made
  };
  p.node = el(
    'div',
    { class: 'export-fallback', part: 'export-fallback', role: 'group', hidden: '' },
    [p.note, p.field, p.image, el('div', { class: 'row' }, [p.copy, p.close, p.status])],
  );
  p.field.setAttribute('aria-label', 'export');
  root.append(el('style', { text: FALLBACK_STYLE }), p.node);
  heatmap.addEventListener('heatmap-render', () => {
    if (!p.node.hidden && /** @type {any} */ (heatmap).data !== p.data) hidePanel(p);
  });
  host.exportFallback = p;
  return p;
}

/** Hide the panel (and free the PNG's object URL). */
function hidePanel(p) {
  p.node.hidden = true;
  if (p.url) URL.revokeObjectURL(p.url);
  p.url = '';
  p.image.removeAttribute('src');
}

/**
 * Export heatmap as kind ('png', 'svg', 'csv', 'json'): outside a sandboxed frame, download it;
 * in one, show the panel (shadow root root) with the reason, the flag that allows the download,
 * and the file to copy; where the sandbox is known to refuse downloads, download nothing.
 * Resolves to the file (heatmap-export.js exportFile).
 * @param {HTMLElement & { label: string }} heatmap @param {string} kind @param {ShadowRoot} root
 */
export async function exportAs(heatmap, kind, root) {
  const { downloads } = frameSandbox();
  const file =
    downloads === false ? await exportFile(heatmap, kind) : await download(heatmap, kind);
  if (downloads === true) {
    if (root instanceof ShadowRoot && /** @type {any} */ (root).exportFallback)
      hidePanel(/** @type {any} */ (root).exportFallback);
    return file;
  }
  const lang = heatmap.getAttribute('lang') ?? 'en';
  const p = panelOf(root, heatmap);
  hidePanel(p);
  p.data = /** @type {any} */ (heatmap).data;
  const what = kind.toUpperCase();
  p.note.textContent = t(lang, downloads === false ? 'export.blocked' : 'export.maybeBlocked', {
    file: file.name,
    kind: what,
  });
  p.field.hidden = file.text === null;
  p.field.value = file.text ?? '';
  p.field.setAttribute('aria-label', t(lang, 'export.text', { kind: what }));
  p.image.hidden = file.text !== null;
  if (file.text === null) {
    p.url = URL.createObjectURL(file.blob);
    p.image.src = p.url;
    p.image.alt = t(lang, 'export.image', { name: file.name });
  }
  p.copy.textContent = t(lang, 'export.copy', { kind: what });
  p.close.textContent = t(lang, 'export.close');
  p.status.textContent = '';
  p.copy.onclick = async () => {
    p.status.textContent = '';
    let copied = false;
    if (file.text !== null) copied = await copyText(file.text, p.field);
    else {
      try {
        if (clipboardAllowed())
          await navigator.clipboard.write([new ClipboardItem({ 'image/png': file.blob })]);
        copied = clipboardAllowed();
      } catch {
        copied = false;
      }
    }
    p.status.textContent = t(
      lang,
      copied ? 'export.copied' : file.text !== null ? 'export.copyManual' : 'export.imageManual',
    );
  };
  p.close.onclick = () => {
    hidePanel(p);
    /** @type {HTMLElement | null} */ (
      root.querySelector(`button[data-export="${kind}"]`)
    )?.focus();
  };
  p.node.onkeydown = (e) => {
    if (e.key === 'Escape') p.close.click();
  };
  p.node.setAttribute('aria-label', t(lang, 'export.fallback'));
  p.node.hidden = false;
  p.copy.focus();
  return file;
}
