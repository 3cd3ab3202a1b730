// state.test.js: the playground's URL-hash state (web/shared/state.js), in Node.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEFAULTS,
  LIMITS,
  effectiveScale,
  formatHash,
  normalizeState,
  parseHash,
  sameState,
} from '../../web/shared/state.js';

test('an empty or missing hash gives the defaults', () => {
  for (const hash of ['', '#', undefined, null, 42])
    assert.deepEqual(parseHash(hash), { ...DEFAULTS });
});

test('a canonical hash round-trips', () => {
  const state = { n: 5, m: 12, d: 32, seed: 4294967295, causal: true, scale: 0.25 };
  assert.equal(formatHash(state), '#n=5&m=12&d=32&seed=4294967295&causal=1&scale=0.25');
  assert.deepEqual(parseHash(formatHash(state)), state);
  assert.deepEqual(parseHash('n=5&m=12&d=32&seed=4294967295&causal=1&scale=0.25'), state); // no '#'
  assert.deepEqual(parseHash(formatHash(DEFAULTS)), { ...DEFAULTS });
  assert.equal(formatHash(DEFAULTS), '#n=8&m=8&d=16&seed=1&causal=0&scale=auto');
});

test('out-of-range numbers are clamped, fractions rounded', () => {
  const s = parseHash('#n=-1&m=1e9&d=0&seed=-1&scale=1e9');
  assert.equal(s.n, LIMITS.n[0]);
  assert.equal(s.m, LIMITS.m[1]);
  assert.equal(s.d, LIMITS.d[0]);
  assert.equal(s.seed, 0);
  assert.equal(s.scale, LIMITS.scale[1]);
  assert.equal(parseHash('#n=2.6').n, 3);
  assert.equal(parseHash('#scale=0').scale, LIMITS.scale[0]);
  assert.equal(parseHash('#seed=99999999999999').seed, LIMITS.seed[1]);
});

test('garbage is ignored: NaN, Infinity, hex, markup, empty values, unknown keys', () => {
  const hostile = [
    '#n=NaN&m=Infinity&d=0x10&seed=&causal=maybe&scale=-Infinity',
    '#n=<img src=x onerror=alert(1)>&d=%3Cscript%3E&seed=1;alert(1)',
    '#<img src=x onerror=alert(1)>',
    '#n=1 0&m=%00&d=1e&seed=--1&scale=.&causal=',
    '#__proto__=1&constructor=2&toString=3',
    '#%E0%A4%A',
  ];
  for (const hash of hostile) assert.deepEqual(parseHash(hash), { ...DEFAULTS }, hash);
});

test('valid keys survive next to garbage; the first of duplicate keys wins', () => {
  assert.deepEqual(parseHash('#n=NaN&m=3&bogus=<b>&causal=true'), {
    ...DEFAULTS,
    m: 3,
    causal: true,
  });
  assert.equal(parseHash('#n=3&n=9').n, 3);
  assert.equal(parseHash('#causal=ON').causal, true);
  assert.equal(parseHash('#causal=off').causal, false);
  assert.equal(parseHash('#scale=auto').scale, null);
});

test('an absurdly long hash is not parsed', () => {
  assert.deepEqual(parseHash('#n=3&pad=' + 'x'.repeat(5000)), { ...DEFAULTS });
});

test('explicit scales keep 3 significant digits, so slider values make stable links', () => {
  assert.equal(normalizeState({ scale: 10 ** -0.37 }).scale, 0.427);
  assert.equal(parseHash(formatHash({ ...DEFAULTS, scale: 0.123456 })).scale, 0.123);
});

test('normalizeState ignores wrong types', () => {
  assert.deepEqual(normalizeState({ n: '5', causal: 'yes', scale: 'big', seed: {} }), {
    ...DEFAULTS,
  });
  assert.deepEqual(normalizeState(null), { ...DEFAULTS });
});

test('effectiveScale is 1/sqrt(d) unless set', () => {
  assert.equal(effectiveScale({ ...DEFAULTS, d: 16 }), 0.25);
  assert.equal(effectiveScale({ ...DEFAULTS, d: 16, scale: 2 }), 2);
  assert.ok(sameState({ ...DEFAULTS }, parseHash('#n=8')));
  assert.ok(!sameState({ ...DEFAULTS }, parseHash('#n=9')));
});
