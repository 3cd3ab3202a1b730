// make-demo.test.js: `make demo` on a clone without Emscripten. The .wasm files are committed, so
// the demo serves them as they are and never compiles: with a C source newer than every .wasm
// (make -W, as a fresh checkout's file times may say) make runs no emcc command, and with a PATH
// that has no emcc at all the server starts and serves the committed .wasm. Rebuilding is
// `make wasm`'s job alone. And `PORT=<taken> make demo` stops with scripts/serve.mjs's one-line
// hint, not a stack trace.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const which = (cmd) =>
  execFileSync('bash', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim();

test('make -n demo with a C source newer than the .wasm: no compiler command, the server', () => {
  const marker = '/nonexistent/emcc-would-run-here';
  const plan = execFileSync(
    'make',
    ['-n', '-W', 'src/base.c', '-W', 'src/kernels/matmul_simd128.c', 'demo', `EMCC=${marker}`],
    { cwd: ROOT, encoding: 'utf8' },
  );
  assert.doesNotMatch(plan, /emcc-would-run-here/, `make demo would compile:\n${plan}`);
  assert.match(plan, /scripts\/serve\.mjs/, plan);
});

test('make demo with no emcc on PATH serves the committed .wasm', { timeout: 20000 }, async () => {
  // PATH: node, make and cat (the Makefile reads src/api/*.exports with it), nothing else
  const bin = mkdtempSync(path.join(tmpdir(), 'attnlab-noemcc-'));
  for (const [name, target] of [
    ['node', process.execPath],
    ['make', which('make')],
    ['cat', which('cat')],
  ])
    symlinkSync(target, path.join(bin, name));
  const env = { ...process.env, PATH: bin, PORT: '0' };
  assert.throws(
    () => execFileSync('/bin/bash', ['-c', 'command -v emcc'], { env }),
    'emcc is not on this PATH',
  );
  const make = spawn('make', ['-W', 'src/base.c', 'demo'], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  make.stdout.on('data', (c) => (out += c));
  make.stderr.on('data', (c) => (out += c));
  const exited = new Promise((resolve) =>
    make.on('exit', (code, signal) => resolve({ code, signal })),
  );
  try {
    const url = await new Promise((resolve, reject) => {
      const deadline = Date.now() + 15000;
      const poll = setInterval(() => {
        const m = /attnlab demo: (http:\/\/127\.0\.0\.1:\d+)\/web\//.exec(out);
        const gone = make.exitCode !== null || make.signalCode !== null;
        if (m || gone || Date.now() > deadline) clearInterval(poll);
        if (m) resolve(m[1]);
        else if (gone)
          reject(new Error(`make demo exited (${make.exitCode}) before serving:\n${out}`));
        else if (Date.now() > deadline)
          reject(new Error(`make demo printed no URL in 15 s:\n${out}`));
      }, 50);
    });
    const page = await fetch(`${url}/web/`);
    assert.equal(page.status, 200);
    const wasm = await fetch(`${url}/wasm/attnlab.wasm`);
    assert.equal(wasm.headers.get('content-type'), 'application/wasm');
    assert.deepEqual(
      Buffer.from(await wasm.arrayBuffer()),
      readFileSync(path.join(ROOT, 'wasm/attnlab.wasm')),
      'the committed bytes',
    );
    assert.doesNotMatch(out, /emcc/, out);
  } finally {
    try {
      process.kill(-make.pid, 'SIGTERM'); // make and the server it started
    } catch {
      // already gone
    }
    await exited;
    rmSync(bin, { recursive: true, force: true });
  }
});

test('PORT=<a taken port> make demo: the one-line hint, a failed make, no stack trace', async () => {
  const busy = await startServer({ root: ROOT, port: 0 });
  try {
    // async: this process must keep answering on the busy port while make runs
    const r = await new Promise((resolve) => {
      const make = spawn('make', ['--no-print-directory', 'demo'], {
        cwd: ROOT,
        env: { ...process.env, PORT: String(busy.port) },
      });
      let out = '';
      make.stdout.on('data', (c) => (out += c));
      make.stderr.on('data', (c) => (out += c));
      make.on('exit', (status) => resolve({ status, out }));
    });
    assert.notEqual(r.status, 0, r.out);
    assert.ok(
      r.out.includes(`port ${busy.port} is in use: try PORT=${busy.port + 1} make demo\n`),
      r.out,
    );
    assert.doesNotMatch(r.out, /EADDRINUSE|\n\s+at /, r.out);
  } finally {
    await busy.close();
  }
});
