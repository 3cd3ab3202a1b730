// serve-hostile.test.js: scripts/serve.mjs against the hostile clients of issue #33 (rows 10–12):
// no Location that leaves the host (protocol-relative '//…', '/\…'), slow readers on one address
// cannot starve another client, a big brotli compression does not hold up a small request, and
// Range is answered (one range: 206/416) or ignored (200) as documented.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { brotliDecompressSync } from 'node:zlib';
import { parseRange, startServer } from '../../scripts/serve.mjs';

let root;
let big; // 8 MB of random bytes: still streaming when a client stops reading
let small;

before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'attnlab-serve-hostile-'));
  for (const dir of ['web', 'a/web', 'evil/web'])
    await mkdir(path.join(root, dir), { recursive: true });
  for (const dir of ['web', 'a/web', 'evil/web'])
    await writeFile(path.join(root, dir, 'index.html'), '<!doctype html><title>t</title>');
  big = randomBytes(8 << 20);
  small = randomBytes(1000);
  await writeFile(path.join(root, 'model.safetensors'), big);
  await writeFile(path.join(root, 'small.safetensors'), small);
});

after(() => rm(root, { recursive: true, force: true }));

/** A raw request (the path reaches the server as written): { status, headers, body }. */
function get(url, rawPath, { headers = {}, localAddress } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/`,
      { path: rawPath, headers, localAddress, agent: false },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(10000, () => req.destroy(new Error(`${rawPath}: no answer in 10 s`)));
    req.on('error', reject);
    req.end();
  });
}

async function eventually(fn, ms = 5000) {
  for (let waited = 0; !fn() && waited < ms; waited += 20)
    await new Promise((r) => setTimeout(r, 20));
  return fn();
}

test('row 11: no redirect ever names another host; runs of / collapse to one', async () => {
  const s = await startServer({ root, port: 0 });
  try {
    const expected = {
      '//a//web': [301, '/a/web/'], // was 301 Location: //web/ (a host named "web")
      '//web': [301, '/web/'],
      '///web?x=//evil': [301, '/web/?x=//evil'],
      '/web//': [301, '/web/'],
      '/web//index.html': [301, '/web/index.html'],
      '//evil/web/': [301, '/evil/web/'],
      '/\\evil': [404, undefined],
      '/\\\\evil/web': [404, undefined],
      '/%2F%2Fevil/web': [404, undefined],
      '/%2f/evil/web': [404, undefined],
      '/%5C%5Cevil/web': [404, undefined],
      '//': [302, '/web/'],
      '/web': [301, '/web/'],
      'http://evil/web': [400, undefined],
    };
    for (const [p, [status, location]] of Object.entries(expected)) {
      const res = await get(s.url, p);
      assert.equal(res.status, status, p);
      assert.equal(res.headers.location, location, p);
      if (location !== undefined)
        assert.equal(new URL(location, s.url).origin, s.url, `${p} -> ${location}`);
    }
    const served = await get(s.url, '/a/web/');
    assert.equal(served.status, 200);
  } finally {
    await s.close();
  }
});

test(
  'row 10: 64 slow readers on one address do not make another client fail',
  { timeout: 30000 },
  async () => {
    const s = await startServer({ root, port: 0 });
    const slow = [];
    try {
      // 64 connections from 127.0.0.2 take the headers of an 8 MB body and never read.
      await Promise.all(
        Array.from(
          { length: 64 },
          () =>
            new Promise((resolve, reject) => {
              const req = request(`${s.url}/model.safetensors`, {
                agent: false,
                localAddress: '127.0.0.2',
              });
              req.on('response', (res) => {
                res.pause();
                resolve(res.statusCode);
              });
              req.on('error', reject);
              req.end();
              slow.push(req);
            }),
        ),
      ).then((codes) => assert.deepEqual(new Set(codes), new Set([200])));
      assert.equal(s.activeStreams(), 64);

      // Another client (127.0.0.1) is served in full, the big file and a small one.
      const whole = await get(s.url, '/model.safetensors');
      assert.equal(whole.status, 200);
      assert.ok(whole.body.equals(big), 'the whole body, byte for byte');
      assert.ok((await get(s.url, '/small.safetensors')).body.equals(small));
      const page = await get(s.url, '/web/');
      assert.equal(page.status, 200);

      // The per-client cap still holds for the client that holds 64 bodies.
      const more = await get(s.url, '/small.safetensors', { localAddress: '127.0.0.2' });
      assert.equal(more.status, 503);
      assert.equal(more.headers['retry-after'], '1');
    } finally {
      for (const req of slow) req.destroy();
      await s.close();
    }
  },
);

test('row 10: a body whose client reads nothing is dropped after stallTimeout', async () => {
  const s = await startServer({ root, port: 0, stallTimeout: 200 });
  const stalled = [];
  try {
    for (let i = 0; i < 4; i++) {
      await new Promise((resolve, reject) => {
        const req = request(`${s.url}/model.safetensors`, { agent: false });
        req.on('response', (res) => {
          res.pause();
          stalled.push(res);
          resolve();
        });
        req.on('error', () => {});
        req.once('error', reject);
        req.end();
      });
    }
    assert.equal(await eventually(() => s.activeStreams() === 0), true, 'every slot back');
    // Reading now, each client finds its body cut short: the server hung up on it.
    for (const res of stalled) {
      let got = 0;
      res.on('data', (c) => (got += c.length));
      res.on('error', () => {});
      res.resume();
      await new Promise((r) => res.once('close', r));
      assert.equal(res.complete, false);
      assert.ok(got < big.length, `${got} bytes of ${big.length}`);
    }
    assert.ok((await get(s.url, '/model.safetensors')).body.equals(big));
  } finally {
    await s.close();
  }
  await assert.rejects(startServer({ root, port: 0, stallTimeout: 0 }), /stallTimeout/);
});

test(
  'row 12: a 1 KB request completes while a 9 MB file is brotli-compressed',
  { timeout: 60000 },
  async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'attnlab-serve-br-'));
    const words = 'attention query key value softmax context encoder decoder'.split(' ');
    const pick = randomBytes(1 << 20);
    const parts = [];
    for (let n = 0, i = 0; n < 9 << 20; i++) {
      const w = words[pick[i % pick.length] % words.length] + (i % 13 === 0 ? '\n' : ' ');
      parts.push(w);
      n += w.length;
    }
    const text = parts.join('');
    const tiny = `export const a = ${JSON.stringify('x'.repeat(1000))};\n`;
    await writeFile(path.join(dir, 'big.js'), text);
    await writeFile(path.join(dir, 'tiny.js'), tiny);
    const s = await startServer({ root: dir, port: 0, compress: 'br' });
    try {
      const order = [];
      const br = { 'accept-encoding': 'br' };
      const bigDone = get(s.url, '/big.js', { headers: br }).then((r) => {
        order.push('big');
        return r;
      });
      // The big file's compression has begun (on the thread pool) before the small request.
      assert.equal(await eventually(() => s.pendingCompressions() === 1), true);
      const tinyRes = await get(s.url, '/tiny.js', { headers: br });
      order.push('tiny');
      assert.equal(tinyRes.headers['content-encoding'], 'br');
      assert.equal(brotliDecompressSync(tinyRes.body).toString(), tiny);
      const bigRes = await bigDone;
      assert.deepEqual(order, ['tiny', 'big'], 'the small answer did not wait for the big one');
      assert.equal(bigRes.headers['content-encoding'], 'br');
      assert.equal(brotliDecompressSync(bigRes.body).toString(), text);
      // Twice at once: one compression shared, the same bytes.
      const [x, y] = await Promise.all([
        get(s.url, '/big.js', { headers: br }),
        get(s.url, '/big.js', { headers: br }),
      ]);
      assert.ok(x.body.equals(bigRes.body) && y.body.equals(bigRes.body));
      assert.equal(s.pendingCompressions(), 0);
    } finally {
      await s.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
);

test('Range: one range answered (206), past the end refused (416), the rest ignored (200)', async () => {
  const s = await startServer({ root, port: 0 });
  try {
    const ranged = {
      'bytes=0-99': [0, 99],
      'bytes=990-': [990, 999],
      'bytes=-10': [990, 999],
      'bytes=500-5000': [500, 999],
      'bytes=999-999': [999, 999],
    };
    for (const [range, [start, end]] of Object.entries(ranged)) {
      const res = await get(s.url, '/small.safetensors', { headers: { range } });
      assert.equal(res.status, 206, range);
      assert.equal(res.headers['content-range'], `bytes ${start}-${end}/1000`, range);
      assert.equal(res.headers['content-length'], String(end - start + 1), range);
      assert.ok(res.body.equals(small.subarray(start, end + 1)), range);
    }
    for (const range of ['bytes=1000-', 'bytes=5000-6000', 'bytes=-0']) {
      const res = await get(s.url, '/small.safetensors', { headers: { range } });
      assert.equal(res.status, 416, range);
      assert.equal(res.headers['content-range'], 'bytes */1000', range);
    }
    const ignored = [
      { range: 'bytes=0-1,5-6' },
      { range: 'bytes=5-1' },
      { range: 'items=0-1' },
      { range: 'bytes=abc' },
      { range: 'bytes=0-9', 'if-range': '"x"' },
    ];
    for (const headers of ignored) {
      const res = await get(s.url, '/small.safetensors', { headers });
      assert.equal(res.status, 200, JSON.stringify(headers));
      assert.equal(res.headers['accept-ranges'], 'bytes');
      assert.ok(res.body.equals(small), JSON.stringify(headers));
    }
  } finally {
    await s.close();
  }
  // A compressed body ignores Range: the whole file, compressed.
  const z = await startServer({ root, port: 0, compress: 'gzip' });
  try {
    const res = await get(z.url, '/web/index.html', {
      headers: { range: 'bytes=0-3', 'accept-encoding': 'gzip' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.equal(res.headers['content-range'], undefined);
  } finally {
    await z.close();
  }
  assert.deepEqual(parseRange('bytes=2-', 10), { start: 2, end: 9 });
  assert.equal(parseRange('bytes=-5', 0), 'unsatisfiable');
  assert.equal(parseRange('bytes=99999999999999999999-', 10), null);
});
