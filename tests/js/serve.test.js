// serve.test.js: the static server (scripts/serve.mjs): MIME types, redirects, traversal.

import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
  await writeFile(path.join(root, 'wasm', 'm.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
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
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
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
