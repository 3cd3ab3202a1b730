// web-rooms.test.js: rooms stay small. No .js file of the page's shell passes 600 lines (web/*.js,
// web/elements/, web/views/, web/shared/; STYLE.md: a file past that is split along its data flow,
// state → work → paint; web/data/'s generators and web/lab/ are outside this test), and <attn-demo>
// (web/elements/attn-demo.js) stays a thin shell, under 500: the chrome, the settings and which
// view draws when; the rest lives in demo-chrome.js, demo-local.js, demo-messages.js and the views.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
const lines = (file) => readFileSync(file, 'utf8').split('\n').length - 1;

function jsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return jsFiles(p);
    return e.name.endsWith('.js') ? [p] : [];
  });
}

const ROOMS = ['elements', 'views', 'shared'].map((d) => path.join(WEB, d));

test('no file of the page passes 600 lines', () => {
  const top = readdirSync(WEB).filter((f) => f.endsWith('.js'));
  const big = [...top.map((f) => path.join(WEB, f)), ...ROOMS.flatMap(jsFiles)]
    .map((f) => [path.relative(WEB, f), lines(f)])
    .filter(([, n]) => n > 600);
  assert.deepEqual(big, [], 'split these along their data flow');
});

test('<attn-demo> is a shell: attn-demo.js under 500 lines', () => {
  const n = lines(path.join(WEB, 'elements/attn-demo.js'));
  assert.ok(n < 500, `web/elements/attn-demo.js has ${n} lines`);
});
