// size-budget.test.js: `make size` (scripts/size.mjs) holds the page to its budgets (issue #13 §6,
// docs/training.md "Size"): every model at most 1 MB gzip, the first view's model at most 300 KB,
// everything the page can fetch at most 5.5 MB gzip (scripts/size.mjs says why); the script says so
// and exits 0.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

test('make size: every budget met', () => {
  const r = spawnSync(
    process.execPath,
    [fileURLToPath(new URL('../../scripts/size.mjs', import.meta.url))],
    { encoding: 'utf8' },
  );
  const m = /budgets: (\d+) of (\d+) met/.exec(r.stdout);
  assert.ok(m, r.stdout + r.stderr);
  assert.equal(m[1], m[2], r.stdout);
  assert.equal(r.status, 0, r.stdout);
  assert.doesNotMatch(r.stdout, /BROKEN/);
});
