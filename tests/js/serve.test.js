// serve.test.js: the static server (scripts/serve.mjs): MIME types, redirects, traversal, and
// that aborted downloads close their files and the cap on concurrent file streams holds; --compress
// (gzip or br for the types a static host compresses) and --root; a taken port gives a one-line
// hint, not a stack trace.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { resolveUrlPath, startServer } from '../../scripts/serve.mjs';

let root;
let outside;
let server;

before(async () => {
  outside = await mkdtemp(path.join(tmpdir(), 'attnlab-serve-outside-'));
  await writeFile(path.join(outside, 'secret.txt'), 'secret');
  root = await mkdtemp(path.join(tmpdir(), 'attnlab-serve-'));
  await mkdir(path.join(root, 'web'));
  await mkdir(path.join(root, 'wasm'));
  await mkdir(path.join(root, 'empty'));
  await mkdir(path.join(root, '.git'));
  await writeFile(path.join(root, 'web', 'index.html'), '<!doctype html><title>t</title>');
  await writeFile(path.join(root, 'web', 'a.js'), 'export {};');
  await writeFile(path.join(root, 'web', 'a.mjs'), 'export {};');
  await writeFile(path.join(root, 'web', 'a.css'), 'p{}');
  await writeFile(path.join(root, 'web', 'a.json'), '{}');
  await writeFile(path.join(root, 'web', 'a.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(root, 'web', 'a.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  await writeFile(
    path.join(root, 'wasm', 'm.wasm'),
    Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]),
  );
  await writeFile(path.join(root, 'wasm', 'w.safetensors'), Buffer.alloc(16));
  await writeFile(path.join(root, '.git', 'config'), 'secret');
  await symlink(path.join(outside, 'secret.txt'), path.join(root, 'web', 'escape.txt'));
  server = await startServer({ root, port: 0 });
});

after(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

/** A raw request, so the path reaches the server exactly as written (fetch would normalise it). */
function get(rawPath, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/`, { method, path: rawPath }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

test('listens on 127.0.0.1 with the chosen port', () => {
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.ok(server.port > 0);
});

test('serves files with the right MIME types', async () => {
  const cases = {
    '/web/': 'text/html; charset=utf-8',
    '/web/index.html': 'text/html; charset=utf-8',
    '/web/a.js': 'text/javascript; charset=utf-8',
    '/web/a.mjs': 'text/javascript; charset=utf-8',
    '/web/a.css': 'text/css; charset=utf-8',
    '/web/a.json': 'application/json; charset=utf-8',
    '/web/a.svg': 'image/svg+xml',
    '/web/a.png': 'image/png',
    '/wasm/m.wasm': 'application/wasm',
    '/wasm/w.safetensors': 'application/octet-stream',
  };
  for (const [p, type] of Object.entries(cases)) {
    const res = await get(p);
    assert.equal(res.status, 200, p);
    assert.equal(res.headers['content-type'], type, p);
    assert.ok(res.body.length > 0, p);
  }
  const wasm = await get('/wasm/m.wasm');
  assert.deepEqual([...wasm.body], [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
});

test('/ redirects to /web/, a directory without its slash gets one', async () => {
  const root = await get('/');
  assert.equal(root.status, 302);
  assert.equal(root.headers.location, '/web/');
  const dir = await get('/web');
  assert.equal(dir.status, 301);
  assert.equal(dir.headers.location, '/web/');
});

test('refuses to leave the root or show hidden files', async () => {
  const attempts = [
    '/../secret.txt',
    '/web/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/web/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/web/..%2f..%2fsecret.txt',
    '/web/..%5c..%5csecret.txt',
    '/web/%00.js',
    '/.git/config',
    '/%2egit/config',
    '/web/escape.txt', // a symlink pointing out of the root
    '/%E0%A4%A',
    '/empty/', // a directory without index.html: no listing
    '/nope.js',
  ];
  for (const p of attempts) {
    const res = await get(p);
    assert.ok(res.status === 404 || res.status === 400, `${p} gave ${res.status}`);
    assert.ok(!res.body.toString().includes('secret'), p);
  }
});

test('HEAD has headers and no body; other methods are refused', async () => {
  const head = await get('/web/a.js', 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.headers['content-length'], '10');
  assert.equal(head.body.length, 0);
  const post = await get('/web/a.js', 'POST');
  assert.equal(post.status, 405);
  assert.equal(post.headers.allow, 'GET, HEAD');
});

test('resolveUrlPath maps URL paths under the root and rejects the rest', () => {
  assert.equal(resolveUrlPath('/srv', '/web/a.js'), path.join('/srv', 'web', 'a.js'));
  assert.equal(resolveUrlPath('/srv', '/'), '/srv');
  assert.equal(resolveUrlPath('/srv', '/web/../a.js'), null);
  assert.equal(resolveUrlPath('/srv', '/web/%2e%2e/a.js'), null);
  assert.equal(resolveUrlPath('/srv', '/./a.js'), null);
  assert.equal(resolveUrlPath('/srv', 'relative'), null);
  assert.equal(resolveUrlPath('/srv', '/%zz'), null);
});

/** Run scripts/serve.mjs as a program; resolves to its first stdout line, then stops it. */
function firstLine(args, env = {}) {
  const script = new URL('../../scripts/serve.mjs', import.meta.url).pathname;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ line: out.split('\n')[0], err, code }));
  });
}

test('run directly, it prints the demo URL (port from argv, then PORT)', async () => {
  const fromArgv = await firstLine(['0']);
  assert.match(fromArgv.line, /^attnlab demo: http:\/\/127\.0\.0\.1:\d+\/web\/$/);
  assert.doesNotMatch(fromArgv.line, /:0\//);
  const fromEnv = await firstLine([], { PORT: '0' });
  assert.match(fromEnv.line, /^attnlab demo: http:\/\/127\.0\.0\.1:\d+\/web\/$/);
  const bad = await firstLine(['http']);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /port must be an integer/);
});

test('run directly on a taken port: a one-line hint and exit status 1, no stack trace', async () => {
  const busy = await startServer({ root, port: 0 });
  try {
    const r = await firstLine([String(busy.port)]);
    assert.equal(r.code, 1);
    assert.equal(r.line, '');
    assert.equal(r.err, `port ${busy.port} is in use: try PORT=${busy.port + 1} make demo\n`);
  } finally {
    await busy.close();
  }
});

// --- Aborted downloads (a browser leaving while a model loads) must not leak descriptors. ---

const SERVE_SCRIPT = new URL('../../scripts/serve.mjs', import.meta.url).pathname;

/** Start the server in a child process under `ulimit -n limit`; resolves to { url, pid, stop }. */
function startLimitedServer(serveRoot, limit) {
  const code =
    `import { startServer } from ${JSON.stringify(pathToFileURL(SERVE_SCRIPT).href)};\n` +
    `const s = await startServer({ root: process.env.SERVE_ROOT, port: 0 });\n` +
    `console.log(s.url);\n`;
  const child = spawn(
    'bash',
    ['-c', `ulimit -n ${limit} && exec "$0" --input-type=module -e "$1"`, process.execPath, code],
    {
      env: { ...process.env, SERVE_ROOT: serveRoot },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`server child did not start in 5 s: ${err}`));
    }, 5000);
    child.stderr.on('data', (c) => (err += c));
    child.stdout.on('data', (c) => {
      out += c;
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve({ url: out.split('\n')[0].trim(), pid: child.pid, stop });
      }
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('exit', (c) => {
      clearTimeout(timer);
      reject(new Error(`server child exited (${c}) before printing its URL: ${err}`));
    });
  });
}

/** GET url on a fresh connection; read the headers and the first body chunk, then abort. */
function abortedDownload(url, timeoutMs) {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no first chunk within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('response', (res) => {
      res.once('data', () => {
        clearTimeout(timer);
        req.destroy();
        resolve(res.statusCode);
      });
    });
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end();
  });
}

/** A full GET with a deadline: { status, headers, body }. */
function fullDownload(url, timeoutMs) {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no complete response within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) });
      });
      res.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end();
  });
}

const openDescriptors = async (pid) => (await readdir(`/proc/${pid}/fd`)).length;

test(
  '500 aborted downloads under ulimit -n 128 leak no descriptors; a normal GET still works',
  { timeout: 30000 },
  async () => {
    const bigRoot = await mkdtemp(path.join(tmpdir(), 'attnlab-serve-big-'));
    // Large enough that the response is still streaming when the client aborts (loopback
    // socket buffers take a few MB), random so a truncated or mixed-up body cannot match.
    const big = randomBytes(8 << 20);
    await writeFile(path.join(bigRoot, 'model.safetensors'), big);
    const child = await startLimitedServer(bigRoot, 128);
    try {
      const fileUrl = `${child.url}/model.safetensors`;
      const warm = await fullDownload(fileUrl, 5000);
      assert.equal(warm.status, 200);
      const baseline = await openDescriptors(child.pid);

      // 8 at a time, well under the stream cap, so every one should get its 200 and first chunk.
      let aborted = 0;
      const failures = [];
      const ABORTS = 500;
      const PARALLEL = 8;
      for (let i = 0; i < ABORTS && failures.length === 0; i += PARALLEL) {
        const batch = Array.from({ length: Math.min(PARALLEL, ABORTS - i) }, () =>
          abortedDownload(fileUrl, 2000),
        );
        for (const r of await Promise.allSettled(batch)) {
          if (r.status === 'fulfilled' && r.value === 200) aborted++;
          else failures.push(r.status === 'fulfilled' ? `status ${r.value}` : r.reason.message);
        }
      }
      assert.deepEqual(
        failures,
        [],
        `after ${aborted} aborted downloads the server stopped answering`,
      );
      assert.equal(aborted, ABORTS);

      // The server learns of each abort asynchronously; give it a moment to close the files.
      let open = await openDescriptors(child.pid);
      for (let waited = 0; open > baseline + 8 && waited < 3000; waited += 100) {
        await new Promise((r) => setTimeout(r, 100));
        open = await openDescriptors(child.pid);
      }
      assert.ok(
        open <= baseline + 8,
        `${open} descriptors open after the aborts, ${baseline} before`,
      );

      const after = await fullDownload(fileUrl, 5000);
      assert.equal(after.status, 200);
      assert.equal(after.headers['content-length'], String(big.length));
      assert.ok(after.body.equals(big), 'the body after the aborts is the file on disk');
    } finally {
      child.stop();
      await rm(bigRoot, { recursive: true, force: true });
    }
  },
);

/** Poll fn() until it returns true or ms pass; resolves to its last value. */
async function eventually(fn, ms = 3000) {
  for (let waited = 0; !fn() && waited < ms; waited += 20)
    await new Promise((r) => setTimeout(r, 20));
  return fn();
}

/** Like eventually, but fn() must stay true for stableMs in a row (requests still in flight
 *  on the server may take a slot after a first zero). */
async function settles(fn, stableMs = 300, ms = 5000) {
  let since = null;
  for (let waited = 0; waited < ms; waited += 20) {
    if (!fn()) since = null;
    else if (since === null) since = waited;
    else if (waited - since >= stableMs) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

test(
  'beyond maxStreams a GET gets 503 + Retry-After; every slot comes back on finish and on abort',
  { timeout: 20000 },
  async () => {
    const capRoot = await mkdtemp(path.join(tmpdir(), 'attnlab-serve-cap-'));
    const big = randomBytes(8 << 20);
    await writeFile(path.join(capRoot, 'model.safetensors'), big);
    const capped = await startServer({ root: capRoot, port: 0, maxStreams: 2 });
    const fileUrl = `${capped.url}/model.safetensors`;
    const stalled = [];
    try {
      // Two clients that take the headers and then stop reading hold both slots.
      for (let i = 0; i < 2; i++) {
        await new Promise((resolve, reject) => {
          const req = request(fileUrl, { agent: false }, (res) => {
            assert.equal(res.statusCode, 200);
            res.pause();
            resolve();
          });
          req.on('error', reject);
          req.end();
          stalled.push(req);
        });
      }
      assert.equal(capped.activeStreams(), 2);

      const refused = await fullDownload(fileUrl, 5000);
      assert.equal(refused.status, 503);
      assert.equal(refused.headers['retry-after'], '1');
      assert.equal(refused.body.toString(), '503 Service Unavailable\n');
      const again = await fullDownload(fileUrl, 5000);
      assert.equal(again.status, 503, 'a GET is still refused while both slots are held');
      const headRes = await new Promise((resolve, reject) => {
        // HEAD sends no body, takes no slot
        const req = request(fileUrl, { method: 'HEAD', agent: false }, resolve);
        req.on('error', reject);
        req.end();
      });
      headRes.resume();
      assert.equal(headRes.statusCode, 200);
      assert.equal(headRes.headers['content-length'], String(big.length));

      // Leaving mid-download gives the slot back.
      for (const req of stalled) req.destroy();
      assert.equal(
        await eventually(() => capped.activeStreams() === 0),
        true,
        `${capped.activeStreams()} slots still held after the aborts`,
      );

      // So does leaving at any earlier moment (before the headers, while the file opens).
      await Promise.all(
        Array.from(
          { length: 40 },
          () =>
            new Promise((resolve) => {
              const req = request(fileUrl, { agent: false });
              req.on('error', () => resolve());
              req.on('socket', (sock) =>
                sock.on('connect', () => setImmediate(() => req.destroy())),
              );
              req.on('close', resolve);
              req.end();
            }),
        ),
      );
      assert.equal(
        await settles(() => capped.activeStreams() === 0),
        true,
        `${capped.activeStreams()} slots still held after early aborts`,
      );

      // A finished download gives it back too, and the body is the file.
      const ok = await fullDownload(fileUrl, 5000);
      assert.equal(ok.status, 200);
      assert.equal(ok.headers['access-control-allow-origin'], '*');
      assert.ok(ok.body.equals(big));
      assert.equal(await eventually(() => capped.activeStreams() === 0), true);
    } finally {
      for (const req of stalled) req.destroy();
      await capped.close();
      await rm(capRoot, { recursive: true, force: true });
    }
  },
);

test('startServer refuses a maxStreams that is not a positive integer', async () => {
  for (const bad of [0, -1, 1.5, '64', Number.NaN]) {
    await assert.rejects(
      startServer({ root, port: 0, maxStreams: bad }),
      (err) =>
        err instanceof RangeError && /maxStreams must be a positive integer/.test(err.message),
      String(bad),
    );
  }
});

test("compress: text, JSON, SVG and .wasm gzip'd or br'd as a static host sends them; models and images as they are", async () => {
  const { gunzipSync, brotliDecompressSync } = await import('node:zlib');
  const big = await mkdtemp(path.join(tmpdir(), 'attnlab-serve-compress-'));
  const js = `export const a = ${JSON.stringify('attention '.repeat(2000))};\n`;
  await mkdir(path.join(big, 'web'));
  await writeFile(path.join(big, 'web', 'a.js'), js);
  await writeFile(path.join(big, 'web', 'm.wasm'), Buffer.alloc(4096, 7));
  await writeFile(path.join(big, 'web', 'w.safetensors'), Buffer.alloc(4096, 7));
  await writeFile(path.join(big, 'web', 'a.png'), Buffer.alloc(4096, 7));
  for (const compress of ['gzip', 'br']) {
    const s = await startServer({ root: big, port: 0, compress });
    try {
      // node:http, not fetch(): fetch sets Accept-Encoding itself and decodes the body
      const get = (p, accept) =>
        new Promise((resolve, reject) => {
          request(`${s.url}${p}`, { headers: { 'accept-encoding': accept } }, (res) => {
            const parts = [];
            res
              .on('data', (d) => parts.push(d))
              .on('error', reject)
              .on('end', () => {
                const wire = Buffer.concat(parts);
                const encoding = res.headers['content-encoding'] ?? null;
                const raw =
                  encoding === 'gzip'
                    ? gunzipSync(wire)
                    : encoding === 'br'
                      ? brotliDecompressSync(wire)
                      : wire;
                resolve({
                  encoding,
                  vary: res.headers.vary,
                  length: wire.length,
                  type: res.headers['content-type'],
                  raw,
                });
              });
          })
            .on('error', reject)
            .end();
        });
      const a = await get('/web/a.js', 'gzip, deflate, br');
      assert.equal(a.encoding, compress);
      assert.equal(a.vary, 'Accept-Encoding');
      assert.equal(a.raw.toString(), js);
      assert.ok(
        a.length < js.length / 10,
        `${compress}: ${a.length} bytes on the wire for ${js.length}`,
      );
      assert.equal((await get('/web/m.wasm', 'gzip, br')).encoding, compress);
      assert.equal((await get('/web/m.wasm', 'gzip, br')).type, 'application/wasm');
      for (const p of ['/web/w.safetensors', '/web/a.png'])
        assert.equal((await get(p, 'gzip, br')).encoding, null, p);
      assert.equal(
        (await get('/web/a.js', 'identity')).encoding,
        null,
        'nothing the client did not accept',
      );
      assert.equal(
        (await get('/web/a.js', 'gzip')).encoding,
        'gzip',
        'br only where the client accepts it',
      );
    } finally {
      await s.close();
    }
  }
  // off by default: the development server sends files as they are
  const plain = await fetch(`${server.url}/web/a.js`, { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(plain.headers.get('content-encoding'), null);
  await rm(big, { recursive: true, force: true });
  await assert.rejects(startServer({ root, port: 0, compress: 'zstd' }), RangeError);
});

test('run directly, --root and --compress choose the folder and the encoding', async () => {
  const { parseArgs } = await import('../../scripts/serve.mjs');
  assert.deepEqual(parseArgs(['--root', 'dist', '--compress', '8081']), {
    root: path.resolve('dist'),
    compress: 'gzip',
    port: '8081',
  });
  assert.equal(parseArgs(['--compress=br']).compress, 'br');
  assert.throws(() => parseArgs(['--compress=zstd']), /gzip or br/);
  assert.throws(() => parseArgs(['--gzip']), /unknown option/);
});
