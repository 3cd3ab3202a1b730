// attnlab/wasm/source.js: the one reader of the bytes a caller names: a model file for
// loadModel() and loadTrainableModel(), the .wasm for init(). Bytes, an ArrayBuffer, a Response,
// a URL (fetched), a file: URL or a plain path (read from disk in Node).
//
//   const bytes = await readSource(source, 'loadModel');        // Uint8Array, at most 1 GiB
//
// What it guarantees: every failure is an AttnlabError that names the caller and the source
// (a missing file, a network failure, an HTTP status, a directory or a device, a body over the
// limit), never a raw ENOENT or "fetch failed"; nothing reads without bound: /dev/zero, a FIFO or a
// never-ending response body is refused or cut at the limit, not read until memory runs out.
// What it does not do: parse anything (the C loader decides what a valid file is) or cache.

import { AttnlabError, isDetached, kindOf, typedArrayType } from './core.js';

/** The largest source read (a model or a .wasm); wasm memory itself stops at 2 GiB. */
export const MAX_SOURCE_BYTES = 2 ** 30;

const mib = (n) => `${(n / 2 ** 20).toFixed(1)} MiB`;

function tooLarge(what, name, bytes) {
  return new AttnlabError(
    `${what}: ${name} is ${bytes === undefined ? 'over' : mib(bytes) + ','} the limit of ${mib(MAX_SOURCE_BYTES)}`,
    'AL_ERR_NOMEM',
  );
}

/** A caller's bytes as a plain Uint8Array over the same memory (its own `length` may lie). */
export function bytesOf(source, what) {
  // buffer, byteOffset and byteLength from the intrinsic accessors, not from the object
  const proto =
    source instanceof ArrayBuffer
      ? null
      : typedArrayType(source)
        ? Object.getPrototypeOf(Uint8Array.prototype)
        : DataView.prototype;
  const get = (k) => Object.getOwnPropertyDescriptor(proto, k).get.call(source);
  const buffer = proto ? get('buffer') : source;
  if (isDetached(buffer)) {
    throw new AttnlabError(
      `${what}: the bytes' ArrayBuffer has been detached (transferred); pass a live buffer`,
    );
  }
  const view = proto
    ? new Uint8Array(buffer, get('byteOffset'), get('byteLength'))
    : new Uint8Array(buffer);
  if (view.byteLength > MAX_SOURCE_BYTES) throw tooLarge(what, 'the byte array', view.byteLength);
  return view;
}

/** A response body, read chunk by chunk and refused as soon as it passes the limit. */
async function readBody(response, what, name) {
  const declared = Number(response.headers?.get?.('content-length'));
  if (Number.isFinite(declared) && declared > MAX_SOURCE_BYTES)
    throw tooLarge(what, name, declared);
  try {
    const reader = response.body?.getReader?.();
    if (!reader) {
      const all = new Uint8Array(await response.arrayBuffer());
      if (all.byteLength > MAX_SOURCE_BYTES) throw tooLarge(what, name, all.byteLength);
      return all;
    }
    const chunks = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > MAX_SOURCE_BYTES) {
        reader.cancel().catch(() => {});
        throw tooLarge(what, name);
      }
      chunks.push(value);
    }
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  } catch (e) {
    if (e instanceof AttnlabError) throw e;
    throw new AttnlabError(`${what}: reading ${name} failed: ${e?.message ?? e}`);
  }
}

/** A file from disk: regular files only (a device or FIFO would never end), size-checked first. */
async function readPath(path, what) {
  const fs = await import('node:fs/promises');
  const { constants } = await import('node:fs');
  const name = String(path);
  let handle;
  try {
    const st = await fs.stat(path); // before opening: opening a FIFO would block
    if (!st.isFile()) {
      throw new AttnlabError(
        `${what}: ${name} is ${st.isDirectory() ? 'a directory' : 'not a regular file (a device, FIFO or socket)'}; give a file`,
      );
    }
    if (st.size > MAX_SOURCE_BYTES) throw tooLarge(what, name, st.size);
    handle = await fs.open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const now = await handle.stat(); // the file opened may not be the one stat()ed
    if (!now.isFile() || now.size > MAX_SOURCE_BYTES) throw tooLarge(what, name, now.size);
    const out = new Uint8Array(now.size);
    let at = 0;
    while (at < out.byteLength) {
      const { bytesRead } = await handle.read(out, at, out.byteLength - at, at);
      if (bytesRead === 0) break; // shrank while read: what is there
      at += bytesRead;
    }
    return at === out.byteLength ? out : out.subarray(0, at);
  } catch (e) {
    if (e instanceof AttnlabError) throw e;
    const why =
      e?.code === 'ENOENT'
        ? 'no such file'
        : e?.code === 'EACCES'
          ? 'permission denied'
          : (e?.message ?? String(e));
    throw new AttnlabError(`${what}: cannot read ${name}: ${why}${e?.code ? ` (${e.code})` : ''}`);
  } finally {
    await handle?.close().catch(() => {});
  }
}

/** fetch() with its failures ("fetch failed", bad URLs, CORS) as AttnlabError naming the URL. */
export async function fetchChecked(url, what) {
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    const cause = e?.cause?.code ?? e?.cause?.message;
    throw new AttnlabError(
      `${what}: fetching ${url} failed: ${e?.message ?? e}${cause ? ` (${cause})` : ''}`,
    );
  }
  if (!response.ok)
    throw new AttnlabError(`${what}: fetching ${url} failed with HTTP ${response.status}`);
  return response;
}

/** A string or URL as a URL when it is one (relative strings resolve against the page). */
export function sourceUrl(source) {
  try {
    return new URL(source);
  } catch {
    if (typeof globalThis.location?.href === 'string')
      return new URL(source, globalThis.location.href);
    return null; // a plain path (Node)
  }
}

/**
 * The bytes of `source` (see the file comment) as a Uint8Array, at most MAX_SOURCE_BYTES.
 * Bytes given are not copied.
 */
export async function readSource(source, what) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return bytesOf(source, what);
  if (
    source !== null &&
    typeof source === 'object' &&
    typeof source.arrayBuffer === 'function' &&
    'ok' in source
  ) {
    if (!source.ok)
      throw new AttnlabError(`${what}: the response failed with HTTP ${source.status}`);
    return readBody(source, what, 'the response body');
  }
  if (typeof source !== 'string' && !(source instanceof URL)) {
    throw new AttnlabError(`${what}: expected a URL, a path or bytes, got ${kindOf(source)}`);
  }
  if (typeof source === 'string' && (source.length === 0 || source.includes('\0'))) {
    throw new AttnlabError(
      `${what}: the path ${JSON.stringify(source.slice(0, 80))} is ${source.length === 0 ? 'empty' : 'not a valid path (it holds a NUL)'}`,
    );
  }
  const url = source instanceof URL ? source : sourceUrl(source);
  if (url === null || url.protocol === 'file:') return readPath(url ?? source, what);
  return readBody(await fetchChecked(url, what), what, String(url));
}
