// lab-pairs-kinds.test.js: parsePairs (web/lab/pairs.js) keeps its contract for every kind of
// input (issue #33, row 14): text, an ArrayBuffer, a SharedArrayBuffer, a Uint8Array, another
// typed array and a DataView are read; a Proxy of a Uint8Array, a revoked Proxy, an object whose
// getters throw, a Proxy whose traps throw, a detached buffer or view, null, a number and a
// function are refused with PairsError (problem 'no-pairs', line null), never a TypeError, and no
// trap or getter of the hostile value is ever called.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PairsError, parsePairs } from '../../web/lab/pairs.js';

const TEXT = 'abc\tcba\nhello\tolleh\n';
const PAIRS = [
  { src: 'abc', tgt: 'cba' },
  { src: 'hello', tgt: 'olleh' },
];
const bytes = () => new TextEncoder().encode(TEXT);
const detached = (buffer) => (structuredClone(buffer, { transfer: [buffer] }), buffer);

test('parsePairs reads text and every kind of bytes', () => {
  const sab = new SharedArrayBuffer(bytes().length);
  new Uint8Array(sab).set(bytes());
  const b = bytes();
  for (const [name, input] of [
    ['text', TEXT],
    ['Uint8Array', b],
    ['ArrayBuffer', bytes().buffer],
    ['SharedArrayBuffer', sab],
    ['Uint8Array over a SharedArrayBuffer', new Uint8Array(sab)],
    ['DataView', new DataView(b.buffer)],
    ['a Uint8Array inside a larger buffer', new Uint8Array([120, ...b, 121]).subarray(1, -1)],
  ]) {
    assert.deepEqual(parsePairs(input).pairs, PAIRS, name);
  }
});

test('parsePairs refuses hostile kinds with PairsError, never a TypeError, calling nothing', () => {
  let called = 0;
  const trap = () => {
    called++;
    throw new Error('trap');
  };
  const revocable = Proxy.revocable(bytes(), {});
  revocable.revoke();
  const hostile = {
    'a Proxy of a Uint8Array': new Proxy(bytes(), {}),
    'a Proxy whose traps throw': new Proxy(bytes(), {
      get: trap,
      getPrototypeOf: trap,
      has: trap,
      ownKeys: trap,
      getOwnPropertyDescriptor: trap,
    }),
    'a revoked Proxy': revocable.proxy,
    'an object whose getters throw': {
      get buffer() {
        return trap();
      },
      get byteLength() {
        return trap();
      },
      get length() {
        return trap();
      },
    },
    'an object posing as a Uint8Array': Object.create(Uint8Array.prototype),
    'a detached ArrayBuffer': detached(new ArrayBuffer(8)),
    'a view of a detached buffer': (() => {
      const view = bytes();
      detached(view.buffer);
      return view;
    })(),
    null: null,
    'a number': 42,
    'a function': () => TEXT,
  };
  for (const [name, input] of Object.entries(hostile)) {
    assert.throws(
      () => parsePairs(input),
      (err) => {
        assert.ok(err instanceof PairsError, `${name}: ${err?.name}: ${err?.message}`);
        assert.equal(err.problem, 'no-pairs', name);
        assert.equal(err.line, null, name);
        assert.match(err.message, /^parsePairs: the input must be text or bytes, got /, name);
        return true;
      },
      name,
    );
  }
  assert.equal(called, 0, 'no trap or getter of a hostile value was called');
  assert.match(
    (() => {
      try {
        parsePairs(hostile['a detached ArrayBuffer']);
      } catch (e) {
        return e.message;
      }
    })(),
    /detached/,
  );
});
