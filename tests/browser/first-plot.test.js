// first-plot.test.js: scripts/first-plot.mjs in CI mode: the production page (built into a
// temporary folder, served gzip'd) on the three networks of issue #17, one cold run each, in
// Chromium's network emulation. Asserts what does not depend on the machine: the first plot
// needs at most 10 requests on each network (a waterfall of modules, or a lost bundle or preload,
// adds many). The times and the targets are printed, not asserted: a busy machine would make a
// time limit flaky. `node scripts/first-plot.mjs --ci` checks 3× the targets, and the full run
// (five runs each, the development page too) is `node scripts/first-plot.mjs` (make first-plot);
// docs/performance.md quotes it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CI_FACTOR, TARGETS, machine, measure, table } from '../../scripts/first-plot.mjs';
import { requireChromium } from './harness.js';

test(
  'first plot of the production page in at most 10 requests on slow networks (times printed)',
  { timeout: 120_000 },
  async () => {
    requireChromium();
    const rows = await measure({ pages: ['prod'], runs: 1, factor: CI_FACTOR });
    for (const line of table(rows).split('\n')) console.log(`# ${line}`);
    const { cpu, load } = machine();
    console.log(`# ${cpu}; load average ${load.join(' ')}`);
    for (const [network, target] of Object.entries(TARGETS)) {
      const row = rows.find((r) => r.network === network);
      assert.ok(row, `measured ${network}`);
      assert.equal(row.limit, target * CI_FACTOR, `${network}: the printed limit`);
      assert.ok(
        row.requests <= 10,
        `${network}: ${row.requests} requests before the first plot (a waterfall of modules is back?)`,
      );
    }
  },
);
