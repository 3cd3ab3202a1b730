// readme-quickstart.test.js: what the quickstart (docs/api.md, "Models from Node"; once in the
// README) says a shipped classifier does with a raw sentence from Node (the label, the tokens as
// the model reads them, unknownWords) is what it does.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadModel } from '../../wasm/index.js';

const readme = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

test('README quickstart: a classifier on a raw sentence', async () => {
  assert.match(readme, /clf\.classify\('The soup was cold and the waiter was rude\.'\)/);
  const clf = await loadModel(
    readFileSync(new URL('../../web/models/clf-reviews-attention.safetensors', import.meta.url)),
  );
  try {
    const c = clf.classify('The soup was cold and the waiter was rude.');
    assert.equal(c.label, 'negative');
    const p = c.probs[c.labelId];
    assert.ok(p >= 0.9 && p < 1, `p = ${p} (the README prints 0.9…)`);
    assert.equal(c.tokens.join(' '), 'the soup was cold and the waiter was rude .');
    assert.deepEqual(c.unknownWords, []);
    assert.deepEqual(clf.classify('A zorblaxian film!').unknownWords, ['zorblaxian']);
    assert.equal(clf.classify('The movie was great.').label, 'positive');
  } finally {
    clf.dispose();
  }
});
