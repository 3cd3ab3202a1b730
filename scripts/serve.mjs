#!/usr/bin/env node
// serve.mjs: a tiny static file server for the demo page and the browser tests.
//
//   node scripts/serve.mjs [port]          # or PORT=8080 node scripts/serve.mjs; port 0 = any free
//                                          # a taken port: one line, `port 8080 is in use: try
//                                          # PORT=8081 make demo`, and exit status 1
//   node scripts/serve.mjs --root dist --compress [port]   # the production page (make dist), gzip'd
//   import { startServer } from './scripts/serve.mjs';
//   const { url, close } = await startServer({ root, port: 0 });   // url: 'http://127.0.0.1:PORT'
//   startServer({ ..., maxStreams: 64 })   // cap on file bodies being sent at once (default 64)
//   startServer({ ..., compress: 'gzip' }) // or 'br': as a static host compresses (below)
//
// Holds: GET/HEAD of files under one root on 127.0.0.1 with the MIME types the page needs
// (application/wasm for instantiateStreaming), '/' redirected to '/web/', index.html for a
// directory. Each body is piped with stream.pipeline, so a client that leaves mid-download (a
// browser closing the tab while a model loads) closes its file at once instead of leaking the
// descriptor. At most maxStreams bodies are sent at once; beyond that, or when the process is
// out of descriptors, a GET gets 503 with Retry-After: 1 rather than a queue: a queue would
// hold a socket (a descriptor) per waiting request and grow without bound, and one page loads
// at most six files at a time from one host anyway. Deliberately does not list directories,
// serve dotfiles ('.git'), follow a path or symlink out of the root, cache or listen on anything
// but loopback: it is a development server, not a production one. No dependencies beyond node:.
// compress (off by default) does what a static host that compresses does (gzip, or br where the
// host offers brotli), for the first-plot measurement (scripts/first-plot.mjs): the text types and
// the .wasm are sent compressed to a
// client that accepts it (Content-Encoding, Vary: Accept-Encoding), each file compressed once and
// kept in memory while it is unchanged; the models (application/octet-stream, int8 weights that
// gzip by 6 %) and images go as they are, as those hosts send them.

import { open, readFile, realpath, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib, { brotliCompressSync, gzipSync } from 'node:zlib';

const HOST = '127.0.0.1';
const DEFAULT_PORT = 8080;
const DEFAULT_MAX_STREAMS = 64;
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

/** A file's compressed bytes, made once per (path, encoding, size, mtime). */
async function compressed(cache, filePath, info, encoding) {
  const key = `${encoding}\u0000${filePath}`;
  const hit = cache.get(key);
  if (hit && hit.size === info.size && hit.mtimeMs === info.mtimeMs) return hit.body;
  const raw = await readFile(filePath);
  const body =
    encoding === 'br'
      ? brotliCompressSync(raw, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        })
      : gzipSync(raw, { level: 9 });
  cache.set(key, { size: info.size, mtimeMs: info.mtimeMs, body });
  return body;
}

async function handle({ root, streams, compress, packed }, req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return send(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
  let url;
  try {
    url = new URL(req.url, `http://${HOST}`);
  } catch {
    return send(res, 400, 'Bad Request');
  }
  if (url.pathname === '/') return send(res, 302, 'Found', { Location: '/web/' });
  let filePath = resolveUrlPath(root, url.pathname);
  if (filePath === null) return send(res, 404, 'Not Found');
  let info;
  try {
    info = await stat(filePath);
    if (info.isDirectory()) {
      if (!url.pathname.endsWith('/'))
        return send(res, 301, 'Moved Permanently', { Location: `${url.pathname}/${url.search}` });
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
  const encoding = pickEncoding(compress, req.headers['accept-encoding'], type);
  if (encoding) {
    const body = await compressed(packed, filePath, info, encoding);
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
  let file = null;
  if (req.method === 'GET') {
    // Take the slot before any await, so concurrent requests cannot all pass the check.
    if (streams.active >= streams.max)
      return send(res, 503, 'Service Unavailable', { 'Retry-After': '1' });
    streams.active++;
    try {
      file = await open(filePath, 'r');
    } catch (err) {
      streams.active--;
      if (err.code === 'EMFILE' || err.code === 'ENFILE')
        return send(res, 503, 'Service Unavailable', { 'Retry-After': '1' });
      return send(res, 404, 'Not Found'); // removed since the stat, or unreadable
    }
  }
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': info.size,
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
  const body = file.createReadStream();
  body.once('close', () => streams.active--);
  pipeline(body, res, () => {});
}

/**
 * Serve root (default: the repository) on 127.0.0.1:port (0 picks a free port), sending at
 * most maxStreams file bodies at once, compressed as compress says (null, 'gzip' or 'br'). Resolves to
 * { url: 'http://127.0.0.1:PORT', port, close(): Promise<void>, activeStreams(): number }.
 */
export async function startServer({
  root = REPO_ROOT,
  port = DEFAULT_PORT,
  maxStreams = DEFAULT_MAX_STREAMS,
  compress = null,
} = {}) {
  if (!Number.isInteger(maxStreams) || maxStreams < 1)
    throw new RangeError(`serve.mjs: maxStreams must be a positive integer, got ${maxStreams}.`);
  if (![null, 'gzip', 'br'].includes(compress))
    throw new RangeError(`serve.mjs: compress must be null, 'gzip' or 'br', got ${compress}.`);
  const realRoot = await realpath(path.resolve(root));
  const streams = { active: 0, max: maxStreams };
  const packed = new Map(); // compressed bodies, by encoding and path
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
