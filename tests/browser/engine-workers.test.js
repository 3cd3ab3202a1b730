// engine-workers.test.js: the lab's engine (web/lab/run.js → lab-worker.js → nested
// shard-worker.js) in Chromium's module workers, and its checkpoints in real IndexedDB
// (web/lab/checkpoints.js). The element and its charts are tests/browser/lab*.test.js (lab-ui).
//
// Checks: a preset's run with two workers (nested module workers) initialises, steps and pauses
// in the browser with the same first losses as in Node's worker_threads (tests/js/lab-engine.test.js
// drives the same code); a checkpoint saved to IndexedDB survives a reload and a run resumed from
// it continues with the same losses bit for bit; in a sandboxed iframe (opaque origin) a
// two-worker run still trains (workers from blob: modules) while IndexedDB is refused and the
// checkpoint calls are no-ops that name the reason; no console errors.
// Prints the browser's steps per second with 1 and 2 workers (not asserted: a shared machine).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { hostIframe, startBrowser } from './harness.js';
import { createRun } from '../../web/lab/run.js';
import { PRESETS } from '../../web/lab/spec.js';

let browser;
before(async () => {
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
});

const PRESET = PRESETS.find((p) => p.id === 'additive-dot');
const TASK = PRESET.experiment.task;
const RUN = PRESET.experiment.a;
const KEY = 'view=lab&test=engine-workers';

/** Node's own first losses of the same run (worker_threads, the same engine code). */
async function nodeLosses(n) {
  const run = createRun();
  const losses = [];
  run.on('progress', (m) => losses.push(...m.losses));
  await run.init({ task: TASK, run: RUN });
  for (let i = 0; i < n; i++) await run.step();
  run.dispose();
  return losses;
}

test(
  'a two-worker run trains in nested module workers and checkpoints through IndexedDB across a reload',
  { timeout: 120000 },
  async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${browser.url}/tests/browser/engine-host.html`);
    const first = await page.evaluate(
      async ({ TASK, RUN, KEY }) => {
        const { createRun } = await import('/web/lab/run.js');
        const { saveCheckpoints, checkpointSupport } = await import('/web/lab/checkpoints.js');
        const run = createRun();
        const losses = [];
        run.on('progress', (m) => losses.push(...m.losses));
        const ready = await run.init({
          task: TASK,
          run: { ...RUN, train: { ...RUN.train, workers: 2 } },
        });
        for (let i = 0; i < 6; i++) await run.step();
        const cp = await run.checkpoint();
        const saved = await saveCheckpoints(KEY, {
          experiment: { task: TASK, a: RUN, b: null },
          runs: [cp],
        });
        for (let i = 0; i < 4; i++) await run.step();
        // free-running for a moment: the page's path (slices, progress, eval, attention)
        let evals = 0,
          attention = 0;
        run.on('eval', () => evals++);
        run.on('attention', () => attention++);
        await run.start();
        await new Promise((r) => setTimeout(r, 1500));
        const paused = await run.pause();
        run.dispose();
        return {
          ready: { workers: ready.workers, simd: ready.simd, parameters: ready.parameters },
          losses,
          saved,
          support: checkpointSupport(),
          paused,
          evals,
          attention,
        };
      },
      { TASK, RUN, KEY },
    );
    assert.equal(first.ready.workers, 2);
    assert.equal(first.ready.simd, true);
    assert.deepEqual(first.support, { available: true, reason: null });
    assert.deepEqual(first.saved, { saved: true, reason: null });
    assert.equal(first.paused.running, false);
    assert.ok(first.paused.step > 10, `free-running steps: ${first.paused.step}`);
    assert.equal(first.losses.length, first.paused.step, "every step's loss, in order");
    assert.ok(
      first.evals >= 1 && first.attention >= 1,
      `eval ${first.evals}, attention ${first.attention}`,
    );
    // the browser's two-worker losses are Node's one-worker losses up to summation order
    const node = await nodeLosses(10);
    node.forEach((l, i) =>
      assert.ok(
        Math.abs(first.losses[i] - l) <= 1e-5 * l,
        `loss ${i}: browser ${first.losses[i]} vs Node ${l}`,
      ),
    );

    await page.reload();
    const resumed = await page.evaluate(
      async ({ TASK, RUN, KEY }) => {
        const { createRun } = await import('/web/lab/run.js');
        const { loadCheckpoints, listCheckpoints, deleteCheckpoints } = await import(
          '/web/lab/checkpoints.js'
        );
        const rec = await loadCheckpoints(KEY);
        const keys = await listCheckpoints();
        const run = createRun();
        const losses = [];
        run.on('progress', (m) => losses.push(...m.losses));
        const ready = await run.init({
          task: TASK,
          run: { ...RUN, train: { ...RUN.train, workers: 2 } },
          checkpoint: rec.runs[0],
        });
        for (let i = 0; i < 4; i++) await run.step();
        run.dispose();
        await deleteCheckpoints(KEY);
        return {
          step: ready.step,
          cpLosses: Array.from(rec.runs[0].losses),
          types: [rec.runs[0].bytes.constructor.name, rec.runs[0].optimizer.m1.constructor.name],
          keys,
          losses,
          after: await loadCheckpoints(KEY),
        };
      },
      { TASK, RUN, KEY },
    );
    assert.equal(resumed.step, 6);
    assert.deepEqual(resumed.types, ['Uint8Array', 'Float32Array']);
    assert.ok(resumed.keys.includes(KEY));
    assert.deepEqual(resumed.cpLosses, first.losses.slice(0, 6));
    assert.deepEqual(
      resumed.losses,
      first.losses.slice(6, 10),
      'the resumed run continues bit for bit',
    );
    assert.equal(resumed.after, null, 'deleted');
    assert.deepEqual(problems, []);
  },
);

test(
  'in a sandboxed iframe (opaque origin) a two-worker run trains; checkpoint calls are no-ops that say why',
  { timeout: 60000 },
  async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${browser.url}/tests/browser/engine-host.html`);
    await page.evaluate(() => {
      document.body.innerHTML = '<div id="host"></div>';
    });
    const frame = await hostIframe(page, `${browser.url}/tests/browser/engine-host.html`, {
      sandbox: 'allow-scripts',
    });
    const r = await frame.evaluate(
      async ({ origin, TASK, RUN }) => {
        const cp = await import(`${origin}/web/lab/checkpoints.js`);
        const support = cp.checkpointSupport();
        const runs = [
          {
            step: 0,
            bytes: new Uint8Array(4),
            losses: new Float32Array(0),
            optimizer: { steps: 0, m1: new Float32Array(0), m2: new Float32Array(0) },
          },
        ];
        const saved = await cp.saveCheckpoints('k', { experiment: {}, runs });
        // the engine: workers start from blob: modules that import the scripts (worker-port.js)
        const { createRun } = await import(`${origin}/web/lab/run.js`);
        const run = createRun();
        const losses = [];
        run.on('progress', (m) => losses.push(...m.losses));
        const ready = await run.init({
          task: TASK,
          run: { ...RUN, train: { ...RUN.train, workers: 2 } },
        });
        for (let i = 0; i < 3; i++) await run.step();
        run.dispose();
        return {
          support,
          saved,
          loaded: await cp.loadCheckpoints('k'),
          keys: await cp.listCheckpoints(),
          workers: ready.workers,
          losses,
          origin: self.origin,
        };
      },
      { origin: browser.url, TASK, RUN },
    );
    console.log(`sandboxed iframe: ${JSON.stringify(r.saved)}`);
    assert.equal(r.saved.saved, false);
    assert.match(r.saved.reason, /IndexedDB/);
    assert.equal(r.loaded, null);
    assert.deepEqual(r.keys, []);
    assert.equal(r.origin, 'null', 'an opaque origin');
    assert.equal(r.workers, 2);
    const node = await nodeLosses(3);
    r.losses.forEach((l, i) =>
      assert.ok(Math.abs(l - node[i]) <= 1e-5 * node[i], `loss ${i}: ${l} vs ${node[i]}`),
    );
    assert.deepEqual(
      problems.filter((p) => !/IndexedDB|indexedDB/.test(p)),
      [],
    );
  },
);

test('steps per second in Chromium, 1 and 2 workers (printed)', { timeout: 60000 }, async () => {
  const { page } = await browser.newPage();
  await page.goto(`${browser.url}/tests/browser/engine-host.html`);
  const rates = await page.evaluate(
    async ({ TASK, RUN }) => {
      const { createRun } = await import('/web/lab/run.js');
      const out = {};
      for (const workers of [1, 2]) {
        const run = createRun();
        let last = null;
        run.on('progress', (m) => {
          last = m;
        });
        await run.init({ task: TASK, run: { ...RUN, train: { ...RUN.train, workers } } });
        await run.start();
        // the first report, then one at least 3 s later: a busy machine is slower, never failed
        const until = (ok) =>
          new Promise((r) => {
            const check = () => (ok() ? r() : setTimeout(check, 50));
            check();
          });
        await until(() => last !== null);
        const a = last;
        await new Promise((r) => setTimeout(r, 3000));
        await until(() => last !== a);
        const b = last;
        await run.pause();
        run.dispose();
        out[workers] = ((b.step - a.step) * 1000) / (b.elapsed - a.elapsed);
      }
      return out;
    },
    { TASK, RUN },
  );
  console.log(
    `Chromium, ${PRESET.id} A (${TASK.name} ${TASK.minLength}–${TASK.maxLength}, batch ${RUN.train.batch}): ${rates[1].toFixed(1)} steps/s with 1 worker, ${rates[2].toFixed(1)} with 2`,
  );
  assert.ok(rates[1] > 0 && rates[2] > 0);
});
