// tests/js/lab-pairs-worker.test.js: web/lab/pairs-client.js driving web/lab/pairs-worker.js (in
// worker_threads here; a module Worker on the page): the same result as pairs.js parsePairs on
// this thread, progress every PROGRESS_ROWS rows, a refusal re-created as a PairsError with its
// line and column, and a new parse cancelling the one running (AbortError).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PROGRESS_ROWS, PairsError, parsePairs } from '../../web/lab/pairs.js';
import { PairsParser } from '../../web/lab/pairs-client.js';

const rows = (n) =>
  Array.from({ length: n }, (_, i) => `in${i % 97}x${i % 13}\tout${i % 89}`).join('\n') + '\n';

test('the worker gives parsePairs’ result and reports progress', async () => {
  const text = rows(5000);
  const progress = [];
  const got = await new PairsParser().parse(text, {
    level: 'auto',
    onProgress: (p) => progress.push(p),
  });
  assert.deepEqual(got, parsePairs(text, { level: 'auto' }));
  assert.equal(got.pairs.length, 5000);
  assert.equal(progress.length, Math.floor(5000 / PROGRESS_ROWS));
  assert.deepEqual(
    progress.map((p) => p.rows),
    [PROGRESS_ROWS - 1, 2 * PROGRESS_ROWS - 1],
  );
  for (const p of progress) assert.equal(p.total, text.length);
  assert.ok(progress[0].done < progress[1].done && progress[1].done < text.length);
});

test('a refusal comes back as a PairsError naming its line and column', async () => {
  const bytes = new TextEncoder().encode('abc\tcba\nhello\tol\0leh\n');
  await assert.rejects(new PairsParser().parse(bytes, { level: 'char' }), (err) => {
    assert.ok(err instanceof PairsError);
    assert.equal(err.problem, 'control-char');
    assert.equal(err.line, 2);
    assert.equal(err.column, 9);
    assert.match(err.message, /line 2, column 9: a NUL character/);
    return true;
  });
});

test('a new parse cancels the running one', async () => {
  const parser = new PairsParser();
  const first = parser.parse(rows(40000), { level: 'char' });
  const second = parser.parse('a\tb\n', { level: 'char' });
  await assert.rejects(first, { name: 'AbortError' });
  assert.deepEqual((await second).pairs, [{ src: 'a', tgt: 'b' }]);
});
