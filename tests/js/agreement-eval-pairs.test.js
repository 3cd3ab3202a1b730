// agreement-eval-pairs.test.js: anyone's minimal pairs through `node scripts/agreement-eval.mjs
// --pairs FILE`. readPairs refuses a malformed file by name (the file, the pair, the field); the
// command measures a good file with every shipped agreement LM (known answers: the three prefer
// "are" after "The jars on the shelf", and the same pairs with the two forms swapped score 0%),
// and exits 2 with one line on a bad file or a missing value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { readPairs } from '../../scripts/train/agreement-eval.mjs';
import { ROOT } from '../../scripts/train/common.mjs';

const dir = mkdtempSync(path.join(tmpdir(), 'attnlab-pairs-'));
const file = (name, value) => {
  const f = path.join(dir, name);
  writeFileSync(f, typeof value === 'string' ? value : JSON.stringify(value));
  return f;
};
const PAIRS = [
  {
    prefix: 'The jars on the shelf',
    correct: 'are',
    wrong: 'is',
    construction: 'pp',
    attractors: 1,
  },
  {
    prefix: 'The keys to the cabinet',
    correct: 'are',
    wrong: 'is',
    construction: 'pp',
    attractors: 1,
  },
  { prefix: 'The girls', correct: 'are', wrong: 'is', construction: 'none', attractors: 0 },
  { prefix: 'The boy', correct: 'is', wrong: 'are' },
];
const cli = (...args) =>
  spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'agreement-eval.mjs'), ...args], {
    encoding: 'utf8',
  });

test('readPairs: a list or { pairs }, each checked; a malformed file named with the pair and field', () => {
  assert.deepEqual(readPairs(file('list.json', PAIRS)), PAIRS);
  assert.deepEqual(readPairs(file('obj.json', { pairs: PAIRS })), PAIRS);
  const bad = [
    ['nojson.json', 'the jars are', /nojson\.json: not a JSON file of pairs/],
    [
      'number.json',
      42,
      /number\.json: expected \{ "pairs": \[\.\.\.\] \} or a list of pairs, got number/,
    ],
    ['empty.json', { pairs: [] }, /empty\.json: no pairs/],
    ['nul.json', [PAIRS[0], null], /nul\.json: pair 2 is not an object/],
    [
      'prefix.json',
      [{ ...PAIRS[0], prefix: '  ' }],
      /pair 1: "prefix" must be a non-empty string, got " {2}"/,
    ],
    [
      'correct.json',
      [{ ...PAIRS[0], correct: 3 }],
      /pair 1: "correct" must be a non-empty string, got 3/,
    ],
    [
      'same.json',
      [{ ...PAIRS[0], wrong: 'are' }],
      /pair 1: "correct" and "wrong" are the same \("are"\)/,
    ],
    ['cons.json', [{ ...PAIRS[0], construction: 1 }], /pair 1: "construction" must be a string/],
    [
      'att.json',
      [{ ...PAIRS[0], attractors: 1.5 }],
      /pair 1: "attractors" must be an integer ≥ 0, got 1\.5/,
    ],
  ];
  for (const [name, value, message] of bad)
    assert.throws(() => readPairs(file(name, value)), message);
  assert.throws(
    () => readPairs(path.join(dir, 'absent.json')),
    /absent\.json: cannot be read \(ENOENT\)/,
  );
});

test('agreement-eval.mjs --pairs: every shipped model on your pairs; swapped forms score 0%', () => {
  const good = cli('--pairs', file('good.json', { pairs: PAIRS }), '--wrong');
  assert.equal(good.status, 0, good.stderr);
  for (const name of ['lm-agreement-lstmn', 'lm-agreement-sarnn', 'lm-agreement-lstm']) {
    const at = good.stdout.indexOf(`${name}\n`);
    assert.ok(at >= 0, `${name} measured`);
    const block = good.stdout.slice(at).split('\n').slice(1, 3).join('\n');
    assert.match(
      block,
      /good\.json 100\.0% of 4 \| none 100\.0% \(1\), pp 100\.0% \(2\), unlabelled 100\.0% \(1\)/,
    );
    assert.match(block, /wrong: none/);
  }
  const swapped = PAIRS.map((p) => ({ ...p, correct: p.wrong, wrong: p.correct }));
  const zero = cli('--pairs', file('swapped.json', swapped));
  assert.equal(zero.status, 0, zero.stderr);
  assert.equal(zero.stdout.match(/swapped\.json 0\.0% of 4/g)?.length, 3, zero.stdout);
});

test('agreement-eval.mjs --pairs: a bad file or a missing value exits 2 with one line', () => {
  const bad = cli('--pairs', file('bad.json', [{ prefix: 'The dog', correct: 'is' }]));
  assert.equal(bad.status, 2);
  assert.equal(bad.stdout, '');
  assert.equal(
    bad.stderr.trim(),
    'agreement-eval.mjs: bad.json: pair 1: "wrong" must be a non-empty string, got undefined',
  );
  const none = cli('--pairs');
  assert.equal(none.status, 2);
  assert.equal(none.stderr.trim(), 'agreement-eval.mjs: --pairs needs a value');
});
