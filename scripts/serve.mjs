#!/usr/bin/env node
// serve.mjs: a tiny static file server for the demo page and the browser tests.
//
//   node scripts/serve.mjs [port]          # or PORT=8080 node scripts/serve.mjs; port 0 = any free
//                                          # a taken port: one line, `port 8080 is in use: try
//                                          # PORT=8081 make demo`, and exit status 1
//   node scripts/serve.mjs --root dist --compress [port]   # the production page (make dist), gzip'd
//   import { startServer } from './scripts/serve.mjs';
//   const { url, close } = await startServer({ root, port: 0 });   // url: 'http://127.0.0.1:PORT'
//   startServer({ ..., maxStreams: 64 })   // cap on file bodies sent at once to ONE client (one
//                                          // remote address; default 64), not to all of them
//   startServer({ ..., stallTimeout: 30000 }) // ms a body may wait on a client that reads nothing
//   startServer({ ..., compress: 'gzip' }) // or 'br': as a static host compresses (below)
//
// Holds: GET/HEAD of files under one root on 127.0.0.1 with the MIME types the page needs
// (application/wasm for instantiateStreaming), '/' redirected to '/web/', index.html for a
// directory. Each body is piped with stream.pipeline, so a client that leaves mid-download (a
// browser closing the tab while a model loads) closes its file at once instead of leaking the
// descriptor, and a client that reads slowly slows only its own body (back-pressure: the file is
// read as fast as that socket drains, never buffered whole). At most maxStreams bodies are sent
// at once to one remote address; beyond that, or when the process is out of descriptors, that
// GET gets 503 with Retry-After: 1 rather than a queue (a queue would hold a socket per waiting
// request and grow without bound; one page loads at most six files at a time from one host
// anyway), while other clients are served as usual. A body whose client has read nothing for
// stallTimeout ms is dropped, which gives its slot back. Paths: runs of '/' are collapsed and the
// client redirected (301) to the collapsed path, so no Location ever starts with '//' (a
// protocol-relative URL: another host); an encoded '/' (%2F) or any backslash is a 404. Range:
// one byte range of an uncompressed body is answered (206 + Content-Range; 416 + 'bytes */size'
// when it starts past the end); several ranges, a malformed one, If-Range, or a compressed body:
// the Range header is ignored and the whole file sent (200), as RFC 9110 allows. Deliberately
// does not list directories, serve dotfiles ('.git'), follow a path or symlink out of the root,
// cache or listen on anything but loopback: it is a development server, not a production one
// (docs/reliability.md, "The dev server"). No dependencies beyond node:.
// compress (off by default) does what a static host that compresses does (gzip, or br where the
// host offers brotli), for the first-plot measurement (scripts/first-plot.mjs): the text types
// and the .wasm are sent compressed to a client that accepts it (Content-Encoding, Vary:
// Accept-Encoding), each file compressed once, on libuv's thread pool (zlib's async calls: the
// event loop keeps serving other requests while a big file compresses; one compression per file
// at a time, however many ask) and kept in memory while it is unchanged; brotli at quality 11 up
// to 1 MiB (as a build step pre-compresses the page's files), 5 above (as a host compressing on
// the fly does); above 64 MiB sent as it is. The models (application/octet-stream, int8 weights
// that gzip by 6 %) and images go as they are, as those hosts send them.

import { open, readFile, realpath, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotliAsync = promisify(zlib.brotliCompress);
const gzipAsync = promisify(zlib.gzip);

const HOST = '127.0.0.1';
const DEFAULT_PORT = 8080;
const DEFAULT_MAX_STREAMS = 64;
const DEFAULT_STALL_TIMEOUT = 30000;
const BROTLI_MAX_QUALITY_SIZE = 1 << 20; // quality 11 up to this size, 5 above
const COMPRESS_MAX_SIZE = 64 << 20; // larger files are sent as they are
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Content types by extension; anything else is served as application/octet-stream. */
export const MIME_TYPES = Object.freeze({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8', // index.d.ts, for reading in the browser
  '.wasm': 'application/wasm',
  '.safetensors': 'application/octet-stream',
});

export function mimeType(filePath) {
  return MIME_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file-system path for a URL path under root, or null when the URL path is malformed or
 * tries to leave the root: bad percent-encoding, NUL, backslashes, '..' or dotfile segments.
 */
export function resolveUrlPath(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return null;
  // An empty segment after decoding is an encoded '/' (%2F): no link of the page needs one.
  if (decoded.includes('//')) return null;
  const segments = decoded.split('/');
  // '.' and '..' are refused outright rather than normalised: no legitimate link needs them.
  if (segments.some((s) => s === '..' || s === '.' || s.startsWith('.'))) return null;
  const resolved = path.resolve(root, '.' + decoded);
  if (resolved !== root && !resolved.startsWith(root + path.sep)) return null;
  return resolved;
}

function send(res, status, message, headers = {}) {
  const body = `${status} ${message}\n`;
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

/** Types a static host compresses: text, JSON, SVG and WebAssembly (docs/hosting.md: check yours). */
const COMPRESSIBLE = /^(text\/|application\/(json|wasm)|image\/svg\+xml)/;

/** The encoding to send (compress: 'gzip' or 'br', what the server offers), or null. */
function pickEncoding(compress, accept, type) {
  if (!compress || !COMPRESSIBLE.test(type)) return null;
  const offered = String(accept ?? '')
    .split(',')
    .map((s) => s.trim().split(';')[0]);
  if (compress === 'br' && offered.includes('br')) return 'br';
  return offered.includes('gzip') ? 'gzip' : null;
}

/**
 * A file's compressed bytes, made once per (path, encoding, size, mtime) on the thread pool;
 * concurrent requests for the same file share one compression (the cache holds the promise).
 */
function compressed(packed, filePath, info, encoding) {
  const key = `${encoding}\u0000${filePath}`;
  const hit = packed.cache.get(key);
  if (hit && hit.size === info.size && hit.mtimeMs === info.mtimeMs) return hit.body;
  const body = (async () => {
    const raw = await readFile(filePath);
    packed.pending++;
    try {
      if (encoding === 'gzip') return await gzipAsync(raw, { level: 9 });
      const quality = raw.length <= BROTLI_MAX_QUALITY_SIZE ? 11 : 5;
      return await brotliAsync(raw, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      });
    } finally {
      packed.pending--;
    }
  })();
  packed.cache.set(key, { size: info.size, mtimeMs: info.mtimeMs, body });
  body.catch(() => {
    if (packed.cache.get(key)?.body === body) packed.cache.delete(key);
  });
  return body;
}

/**
 * A Range header against a body of size bytes: { start, end } (inclusive) for one satisfiable
 * range, 'unsatisfiable' for one that starts past the end, null for anything to ignore
 * (malformed, several ranges, a unit other than bytes): the whole body is then sent.
 */
export function parseRange(header, size) {
  const m = /^bytes=(\d*)-(\d*)$/.exec(String(header).trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const last = m[2] === '' ? Number.MAX_SAFE_INTEGER : Number(m[2]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(last) || last < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(last, size - 1) };
}

/** A Location that can only name a path on this host: one leading '/', never '//' or '/\\'. */
function sameHost(location) {
  if (!location.startsWith('/') || /^\/[/\\]/.test(location))
    throw new Error(`serve.mjs: refusing to redirect to ${location}`);
  return location;
}

async function handle({ root, streams, compress, packed }, req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return send(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
  // The request target is split by hand, not by new URL(): that reads '//host/…' and '/\\host'
  // as another host. Only the origin form ('/path?query') is served.
  const target = req.url;
  if (!target.startsWith('/')) return send(res, 400, 'Bad Request');
  const q = target.indexOf('?');
  const rawPath = q < 0 ? target : target.slice(0, q);
  const search = q < 0 ? '' : target.slice(q);
  const pathname = rawPath.replace(/\/{2,}/g, '/');
  if (pathname === '/') return send(res, 302, 'Found', { Location: '/web/' });
  let filePath = resolveUrlPath(root, pathname);
  if (filePath === null) return send(res, 404, 'Not Found');
  let info;
  try {
    info = await stat(filePath);
    const canonical = info.isDirectory() && !pathname.endsWith('/') ? `${pathname}/` : pathname;
    if (canonical !== rawPath)
      return send(res, 301, 'Moved Permanently', { Location: sameHost(canonical + search) });
    if (info.isDirectory()) {
      filePath = path.join(filePath, 'index.html');
      info = await stat(filePath);
    }
    // A symlink inside the root may point out of it; the real path must stay inside too.
    const real = await realpath(filePath);
    if (real !== root && !real.startsWith(root + path.sep)) return send(res, 404, 'Not Found');
  } catch {
    return send(res, 404, 'Not Found');
  }
  if (!info.isFile()) return send(res, 404, 'Not Found');
  const type = mimeType(filePath);
  const encoding =
    info.size <= COMPRESS_MAX_SIZE && pickEncoding(compress, req.headers['accept-encoding'], type);
  if (encoding) {
    const body = await compressed(packed, filePath, info, encoding);
    if (res.destroyed) return undefined; // the client left while the file compressed
    res.writeHead(200, {
      'Content-Type': type,
      'Content-Encoding': encoding,
      'Content-Length': body.length,
      Vary: 'Accept-Encoding',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Access-Control-Allow-Origin': '*',
    });
    return res.end(req.method === 'HEAD' ? undefined : body);
  }
  const range =
    req.headers.range === undefined || req.headers['if-range'] !== undefined
      ? null
      : parseRange(req.headers.range, info.size);
  if (range === 'unsatisfiable')
    return send(res, 416, 'Range Not Satisfiable', { 'Content-Range': `bytes */${info.size}` });
  let file = null;
  const client = req.socket.remoteAddress ?? '';
  if (req.method === 'GET') {
    // Take the slot before any await, so concurrent requests cannot all pass the check.
    if ((streams.byClient.get(client) ?? 0) >= streams.max)
      return send(res, 503, 'Service Unavailable', { 'Retry-After': '1' });
    streams.take(client);
    try {
      file = await open(filePath, 'r');
    } catch (err) {
      streams.give(client);
      if (err.code === 'EMFILE' || err.code === 'ENFILE')
        return send(res, 503, 'Service Unavailable', { 'Retry-After': '1' });
      return send(res, 404, 'Not Found'); // removed since the stat, or unreadable
    }
  }
  res.writeHead(range ? 206 : 200, {
    'Content-Type': type,
    'Content-Length': range ? range.end - range.start + 1 : info.size,
    ...(range ? { 'Content-Range': `bytes ${range.start}-${range.end}/${info.size}` } : {}),
    'Accept-Ranges': 'bytes',
    ...(compress && COMPRESSIBLE.test(type) ? { Vary: 'Accept-Encoding' } : {}),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    // A page in <iframe sandbox="allow-scripts"> has the opaque origin "null": its module
    // scripts, the .wasm and the models are cross-origin fetches and need CORS, as on any CDN.
    'Access-Control-Allow-Origin': '*',
  });
  if (req.method === 'HEAD') return res.end();
  // The stream owns the handle (autoClose) and emits 'close' once it is closed, whether the
  // body was sent, the client left (pipeline destroys the stream) or a read failed (pipeline
  // destroys the response): the one place the slot is given back.
  const body = file.createReadStream(range ? { start: range.start, end: range.end } : {});
  body.once('close', () => streams.give(client));
  // A client that reads nothing for stallTimeout ms: the socket sees no activity (its buffers
  // are full, so no write completes); drop it, which closes the file and frees the slot.
  res.setTimeout(streams.stallTimeout, () => res.destroy());
  pipeline(body, res, () => {});
}

/**
 * Serve root (default: the repository) on 127.0.0.1:port (0 picks a free port), sending at
 * most maxStreams file bodies at once to one remote address, dropping a body whose client has
 * read nothing for stallTimeout ms, compressed as compress says (null, 'gzip' or 'br'). Resolves
 * to { url: 'http://127.0.0.1:PORT', port, close(): Promise<void>, activeStreams(): number (all
 * clients), pendingCompressions(): number }.
 */
export async function startServer({
  root = REPO_ROOT,
  port = DEFAULT_PORT,
  maxStreams = DEFAULT_MAX_STREAMS,
  stallTimeout = DEFAULT_STALL_TIMEOUT,
  compress = null,
} = {}) {
  if (!Number.isInteger(maxStreams) || maxStreams < 1)
    throw new RangeError(`serve.mjs: maxStreams must be a positive integer, got ${maxStreams}.`);
  if (!Number.isInteger(stallTimeout) || stallTimeout < 1)
    throw new RangeError(
      `serve.mjs: stallTimeout must be a positive integer (ms), got ${stallTimeout}.`,
    );
  if (![null, 'gzip', 'br'].includes(compress))
    throw new RangeError(`serve.mjs: compress must be null, 'gzip' or 'br', got ${compress}.`);
  const realRoot = await realpath(path.resolve(root));
  const streams = {
    active: 0,
    max: maxStreams,
    stallTimeout,
    byClient: new Map(), // remote address -> bodies being sent to it
    take(client) {
      this.active++;
      this.byClient.set(client, (this.byClient.get(client) ?? 0) + 1);
    },
    give(client) {
      this.active--;
      const n = this.byClient.get(client) - 1;
      if (n > 0) this.byClient.set(client, n);
      else this.byClient.delete(client);
    },
  };
  const packed = { cache: new Map(), pending: 0 }; // compressed bodies, by encoding and path
  const server = createServer((req, res) => {
    handle({ root: realRoot, streams, compress, packed }, req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'Internal Server Error');
      else res.destroy();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = server.address().port;
  return {
    url: `http://${HOST}:${actualPort}`,
    port: actualPort,
    activeStreams: () => streams.active,
    pendingCompressions: () => packed.pending,
    close() {
      server.closeAllConnections?.(); // keep-alive sockets would hold close() open
      return new Promise((resolve, reject) =>
        server.close((err) => (err ? reject(err) : resolve())),
      );
    },
  };
}

function parsePort(text) {
  if (text === undefined || text === '') return DEFAULT_PORT;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535)
    throw new Error(`serve.mjs: port must be an integer 0–65535, got '${text}'.`);
  return port;
}

/** argv: [--root DIR] [--compress[=gzip|br]] [port]. */
export function parseArgs(argv) {
  const out = { root: REPO_ROOT, compress: null, port: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--root') out.root = path.resolve(argv[++i] ?? '');
    else if (a === '--compress') out.compress = 'gzip';
    else if (a.startsWith('--compress=')) out.compress = a.slice('--compress='.length);
    else if (a.startsWith('--'))
      throw new Error(`serve.mjs: unknown option ${a} (--root DIR, --compress[=gzip|br], port)`);
    else out.port = a;
  }
  if (![null, 'gzip', 'br'].includes(out.compress))
    throw new Error(`serve.mjs: --compress takes gzip or br, got '${out.compress}'.`);
  return out;
}

async function main() {
  let port, args;
  try {
    args = parseArgs(process.argv.slice(2));
    port = parsePort(args.port ?? process.env.PORT);
  } catch (err) {
    console.error(err.message);
    process.exit(2);
  }
  let server;
  try {
    server = await startServer({ port, root: args.root, compress: args.compress });
  } catch (err) {
    // a taken port is the usual case (a second `make demo`): one line that says what to type
    if (err.code === 'EADDRINUSE')
      console.error(`port ${port} is in use: try PORT=${port < 65535 ? port + 1 : 0} make demo`);
    else console.error(`serve.mjs: cannot listen on ${HOST}:${port}: ${err.message}`);
    process.exit(1);
  }
  console.log(`attnlab demo: ${server.url}/web/`);
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => server.close().then(() => process.exit(0)));
}

const invokedDirectly =
  process.argv[1] &&
  import.meta.url ===
    pathToFileURL(await realpath(process.argv[1]).catch(() => process.argv[1])).href;
if (invokedDirectly) await main();
