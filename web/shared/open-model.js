// open-model.js: a model file of the visitor's own (a picked or dropped file, <attn-demo>'s
// modelFile property or a blob: URL model attribute), read without surprises, and its inspector.
//
//   import { localSource, droppedFile, readLocal, viewFor, renderInspector } from './open-model.js';
//   const got = droppedFile(event.dataTransfer);   // { source } or { problem } (several files, a folder, text)
//   const src = localSource(el.modelFile);          // { source } or { problem }, each value read once
//   const { bytes, inspect } = await readLocal(src.source, readSafetensors);  // or throws LocalFileError
//   const view = viewFor(model.architecture, model.config.head, 'time');      // 'time', or null: no view draws it
//
// Holds: the checks that come before the loader (one file, not a folder, not empty, at most
// MAX_MODEL_BYTES, not a .json or an image), the brand-checked reading of a File, Blob,
// ArrayBuffer or Uint8Array (getters, Proxies and look-alikes are refused, never called), which
// view draws which architecture, and the inspector (config, tensors and shapes, parameter count,
// the card a file's metadata carries) drawn with textContent only: a file is data, never markup.
// Deliberately does not parse safetensors itself: readSafetensors (the C loader, passed in) is the
// one parser that decides what a valid file is, and its message is the one shown.

import { errorDetail, t } from './i18n.js';
import { cardSummary, renderCard } from './model-card.js';
import { el, PHONE_WIDTH } from './view-kit.js';

/** The view that draws a model file (architectures.js). */
export { viewFor } from './architectures.js';

/**
 * The largest model file the page opens: 64 MiB. The loader copies the file into wasm memory and
 * the inspector reads every tensor out as float32 (an I8 file four times its size), so a larger
 * file would cost a phone hundreds of MB; every model this project ships is under 1 MB.
 */
export const MAX_MODEL_BYTES = 64 * 1024 * 1024;
/** Longest file name kept (longer ones are cut, with '…'). */
const MAX_NAME = 96;
/** Config values longer than this are cut in the inspector (a vocabulary of 5,000 words). */
const MAX_VALUE = 240;

/** A problem found before or while reading a file: `key` names the i18n sentence, `params` fills it. */
export class LocalFileError extends Error {
  constructor(key, params = {}) {
    super(t('en', key, params));
    this.name = 'LocalFileError';
    this.key = key;
    this.params = params;
  }
}

/** The intrinsic accessors, taken once: a caller's object can override none of them. */
const get = (proto, key) => Object.getOwnPropertyDescriptor(proto, key).get;
const BLOB_SIZE = get(Blob.prototype, 'size');
const BLOB_TYPE = get(Blob.prototype, 'type');
const BLOB_BYTES = Blob.prototype.arrayBuffer;
const FILE_NAME = typeof File === 'function' ? get(File.prototype, 'name') : null;
const AB_LENGTH = get(ArrayBuffer.prototype, 'byteLength');
const TYPED = Object.getPrototypeOf(Uint8Array.prototype);
const TYPED_TAG = get(TYPED, Symbol.toStringTag);
const TYPED_BUFFER = get(TYPED, 'buffer');
const TYPED_OFFSET = get(TYPED, 'byteOffset');
const TYPED_LENGTH = get(TYPED, 'byteLength');

/** fn.call(value), or undefined when value is not what fn's brand check wants (it throws). */
function tryCall(fn, value) {
  try {
    return fn.call(value);
  } catch {
    return undefined;
  }
}

const cutName = (name) => (name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 1)}…` : name);

/**
 * A value handed to <attn-demo>'s modelFile: { source } with source { name, size, type, read() }
 * (read() → Promise<Uint8Array>, a copy), or { problem: LocalFileError } for anything else. Every
 * field is read here, once, through the intrinsic accessors: a Proxy, an object with a `size`
 * getter or a subclass's override is never asked anything.
 * @param {unknown} value a File, Blob, ArrayBuffer or Uint8Array
 */
export function localSource(value) {
  const size = value !== null && typeof value === 'object' ? tryCall(BLOB_SIZE, value) : undefined;
  if (typeof size === 'number') {
    const name = (FILE_NAME && tryCall(FILE_NAME, value)) || 'blob';
    const type = tryCall(BLOB_TYPE, value) ?? '';
    return {
      source: {
        name: cutName(String(name)),
        size,
        type: String(type),
        read: () => BLOB_BYTES.call(value).then((b) => new Uint8Array(b)),
      },
    };
  }
  const abLength =
    value !== null && typeof value === 'object' ? tryCall(AB_LENGTH, value) : undefined;
  if (typeof abLength === 'number') {
    return copied(() => new Uint8Array(/** @type {ArrayBuffer} */ (value), 0, abLength), abLength);
  }
  if (ArrayBuffer.isView(value) && tryCall(TYPED_TAG, value) === 'Uint8Array') {
    const length = TYPED_LENGTH.call(value);
    return copied(
      () => new Uint8Array(TYPED_BUFFER.call(value), TYPED_OFFSET.call(value), length),
      length,
    );
  }
  return { problem: new LocalFileError('open.badValue', { kind: kindOf(value) }) };
}

/**
 * The source of bytes handed over as an ArrayBuffer or Uint8Array (view(): a view of them),
 * copied now; too large for MAX_MODEL_BYTES: the size is kept and the bytes never copied (readLocal
 * says "too large"); a detached buffer (its bytes transferred to a worker) is refused with the
 * badValue message, never a TypeError.
 */
function copied(view, length) {
  if (length > MAX_MODEL_BYTES) {
    const read = async () => {
      throw new LocalFileError('open.unreadable', { name: 'bytes', message: 'too large' });
    };
    return { source: { name: 'bytes', size: length, type: '', read } };
  }
  let bytes;
  try {
    bytes = view().slice();
  } catch {
    return { problem: new LocalFileError('open.badValue', { kind: 'a detached ArrayBuffer' }) };
  }
  return { source: { name: 'bytes', size: bytes.length, type: '', read: async () => bytes } };
}

/** What a refused value is, for the message (never calls anything of it). */
function kindOf(value) {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  if (ArrayBuffer.isView(value)) return tryCall(TYPED_TAG, value) ?? 'DataView';
  return 'an object that is not a File, Blob, ArrayBuffer or Uint8Array';
}

/**
 * The one file of a drop (a DataTransfer): { source } as localSource gives it, or { problem }:
 * several files, a folder, or no file at all (text or a link dragged from a page).
 * @param {DataTransfer | null} dt
 */
export function droppedFile(dt) {
  const items = dt?.items ? [...dt.items] : [];
  const files = dt?.files ? [...dt.files] : [];
  if (files.length > 1 || items.filter((i) => i.kind === 'file').length > 1) {
    return {
      problem: new LocalFileError('open.several', { n: Math.max(files.length, items.length) }),
    };
  }
  if (files.length === 0) return { problem: new LocalFileError('open.notFile') };
  const entry = items.find((i) => i.kind === 'file')?.webkitGetAsEntry?.();
  if (entry?.isDirectory)
    return { problem: new LocalFileError('open.folder', { name: cutName(files[0].name) }) };
  return { ...localSource(files[0]), value: files[0] };
}

/**
 * The checks before reading: empty, too large, a .json (a model card?) or an image. Returns a
 * LocalFileError or null.
 * @param {{ name: string, size: number, type: string }} source
 */
export function checkSource({ name, size, type }) {
  if (size === 0) return new LocalFileError('open.empty', { name });
  if (size > MAX_MODEL_BYTES) {
    return new LocalFileError('open.tooLarge', {
      name,
      mb: (size / 1048576).toFixed(1),
      limit: MAX_MODEL_BYTES / 1048576,
    });
  }
  if (/\.json$/i.test(name) || type === 'application/json')
    return new LocalFileError('open.json', { name });
  if (/^image\//.test(type) || /\.(png|jpe?g|gif|webp|svg|bmp|avif)$/i.test(name))
    return new LocalFileError('open.image', { name });
  return null;
}

/**
 * Read a source and look inside it: { bytes, inspect } (inspectFile's). Throws LocalFileError
 * (checkSource's, or 'open.unreadable' when the browser cannot read it: a folder dropped as a
 * file, a file deleted since) or readSafetensors' AttnlabError (not safetensors, truncated, ...).
 * @param {{ name: string, size: number, type: string, read: () => Promise<Uint8Array> }} source
 * @param {(bytes: Uint8Array) => { metadata: Record<string, string>, tensors: Map<string, { shape: number[], dtype: string }> }} readSafetensors
 */
export async function readLocal(source, readSafetensors) {
  const problem = checkSource(source);
  if (problem) throw problem;
  let bytes;
  try {
    bytes = await source.read();
  } catch (err) {
    if (err instanceof LocalFileError) throw err;
    throw new LocalFileError('open.unreadable', {
      name: source.name,
      message: err?.message ?? String(err),
    });
  }
  // a blob: URL's size is known only now
  const late = checkSource({ ...source, size: bytes.length });
  if (late) throw late;
  return { bytes, inspect: inspectFile(readSafetensors(bytes)) };
}

/**
 * What the inspector shows of a parsed file: { config (the parsed object, or null), configError
 * (why not), tensors: [{ name, dtype, shape, count }] in header order, parameters (their sum),
 * scales (I8 row-scale tensors: the loader reads them with their matrix and does not list them),
 * card (cardSummary of metadata.card, null, or an Error) }.
 */
export function inspectFile({ metadata, tensors }) {
  const list = [...tensors].map(([name, { dtype, shape }]) => ({
    name,
    dtype,
    shape: [...shape],
    count: shape.reduce((a, b) => a * b, 1),
  }));
  let config = null;
  let configError = null;
  if (typeof metadata.config !== 'string') configError = 'no "config" in the file\'s __metadata__';
  else {
    try {
      config = JSON.parse(metadata.config);
    } catch (err) {
      configError = err.message;
    }
  }
  let card = null;
  if (typeof metadata.card === 'string') {
    try {
      card = cardSummary(JSON.parse(metadata.card));
    } catch (err) {
      card = err instanceof Error ? err : new Error(String(err));
    }
  }
  const scales = list.filter((x) => x.dtype === 'I8').length;
  return {
    config,
    configError,
    tensors: list,
    parameters: list.reduce((a, x) => a + x.count, 0),
    scales,
    card,
  };
}

/** A message for a local file's failure, in lang: LocalFileError's own sentence, else the loader's message. */
export function localError(lang, name, error) {
  if (error instanceof LocalFileError) return t(lang, error.key, error.params);
  return t(lang, 'open.failed', { name, message: errorDetail(lang, error) });
}

/** A config value as shown: JSON, cut at MAX_VALUE characters. */
function shownValue(v) {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > MAX_VALUE ? `${s.slice(0, MAX_VALUE - 1)}…` : s;
}

/** The count with thousands separators (the same in both languages). */
export const formatCount = (n) => n.toLocaleString('en-US');

/**
 * The inspector of a local file: a <section> with its name and size, the parameter count, the
 * config (top-level keys), the tensors (name, dtype, shape, count) and the card if it carries one.
 * @param {{ name: string, size: number, inspect: ReturnType<typeof inspectFile> }} local
 * @param {string} lang
 */
export function renderInspector(local, lang) {
  const { inspect: x } = local;
  const head = el('h3', {
    class: 'inspect-title',
    text: t(lang, 'inspect.title', { name: local.name, kb: (local.size / 1024).toFixed(1) }),
  });
  const summary = el('p', {
    class: 'inspect-summary',
    text: t(lang, 'inspect.summary', {
      tensors: formatCount(x.tensors.length),
      parameters: formatCount(x.parameters),
    }),
  });
  const parts = [head, summary];
  if (x.scales)
    parts.push(el('p', { class: 'note', text: t(lang, 'inspect.scales', { n: x.scales }) }));
  const configBlock = el('details', { class: 'inspect-config', open: '' }, [
    el('summary', { text: t(lang, 'inspect.config') }),
  ]);
  if (x.config && typeof x.config === 'object' && !Array.isArray(x.config)) {
    // the file's own keys and JSON values: code, never translated
    const dl = el('dl', { translate: 'no' });
    for (const [k, v] of Object.entries(x.config))
      dl.append(el('dt', { text: k }), el('dd', { text: shownValue(v) }));
    configBlock.append(dl);
  } else {
    configBlock.append(
      el('p', {
        class: 'note',
        text: t(lang, 'inspect.noConfig', { message: x.configError ?? shownValue(x.config) }),
      }),
    );
  }
  parts.push(configBlock);
  const rows = x.tensors.map((tensor) =>
    el('tr', {}, [
      el('td', { class: 'tensor-name', text: tensor.name }),
      el('td', { text: tensor.dtype }),
      el('td', { class: 'tensor-shape', text: `[${tensor.shape.join(', ')}]` }),
      el('td', { class: 'num', text: formatCount(tensor.count) }),
    ]),
  );
  const table = el('table', { class: 'inspect-tensors' }, [
    el('caption', { text: t(lang, 'inspect.tensors', { n: formatCount(x.tensors.length) }) }),
    el('thead', {}, [
      el(
        'tr',
        {},
        ['inspect.name', 'inspect.dtype', 'inspect.shape', 'inspect.count'].map((k) =>
          el('th', { scope: 'col', text: t(lang, k) }),
        ),
      ),
    ]),
    el('tbody', {}, rows),
  ]);
  parts.push(
    el(
      'div',
      {
        class: 'inspect-scroll',
        tabindex: '0',
        role: 'region',
        'aria-label': t(lang, 'inspect.tensors', { n: formatCount(x.tensors.length) }),
      },
      [table],
    ),
  );
  if (x.card instanceof Error)
    parts.push(
      el('p', { class: 'note', text: t(lang, 'inspect.badCard', { message: x.card.message }) }),
    );
  else if (x.card) parts.push(renderCard(x.card, lang, null));
  return el('section', { class: 'inspector', 'aria-label': t(lang, 'inspect.label') }, parts);
}

/** The inspector's CSS (the element's shadow root). */
export const INSPECTOR_STYLE = `
.open-row { display: flex; flex-wrap: wrap; gap: 0.25rem 0.75rem; align-items: center; margin-top: 0.5rem; }
.open-row .hint { margin: 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
:host([data-dragging]) { outline: 3px dashed var(--al-accent, Highlight); outline-offset: 4px; }
.inspector { margin: 0.75rem 0 0; font-size: 0.875rem; min-width: 0; }
.inspector h3 { font-size: 1rem; margin: 0 0 0.25rem; overflow-wrap: anywhere; }
.inspector p { margin: 0.25rem 0; }
.inspector dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 0.75rem; margin: 0.5rem 0; }
.inspector dt { font-weight: 600; }
.inspector dd { margin: 0; overflow-wrap: anywhere; font-family: ui-monospace, monospace; }
.inspect-scroll { overflow: auto; max-height: 24rem; max-width: 100%; margin-top: 0.5rem; }
.inspect-tensors { border-collapse: collapse; font-variant-numeric: tabular-nums; }
.inspect-tensors caption { text-align: start; font-weight: 600; padding-bottom: 0.25rem; }
.inspect-tensors th, .inspect-tensors td { text-align: start; padding: 0.1rem 0.6rem 0.1rem 0; vertical-align: top; }
.inspect-tensors td.num { text-align: end; }
.inspect-tensors .tensor-name { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
.inspect-tensors .tensor-shape { white-space: nowrap; }
@container (max-width: ${PHONE_WIDTH}px) { .inspector dl { grid-template-columns: 1fr; } .inspector dd { margin-bottom: 0.3rem; } }
`;
