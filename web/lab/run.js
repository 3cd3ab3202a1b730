// web/lab/run.js: the page's (and Node's) handle on one lab run: starts web/lab/lab-worker.js in
// a module Worker (Node: worker_threads) and speaks its protocol, so the page, the tests and
// `make bench` drive exactly the same engine.
//
//   import { createRun } from './lab/run.js';
//   const run = createRun();                              // { workerURL?, Worker? }
//   run.on('progress', ({ step, losses }) => ...);        // also eval, attention, state, error
//   const ready = await run.init({ task, run: { model, train } });   // → ready's fields
//   await run.start();  await run.pause();  await run.step();  await run.reset();
//   const bytes = await run.export('F16');                // safetensors (loadModel reads them)
//   const cp = await run.checkpoint();                    // { step, bytes, optimizer, losses }
//   createRun().init({ task, run, checkpoint: cp });      // resumes where cp was taken
//   run.dispose();
//
// Requests return promises of their answer (init → ready, start/pause/step/reset → state, export
// → bytes, checkpoint → checkpoint), rejected with the worker's message when it answers error.
// on(type, fn) sees every message of that type, answers included; it returns an unsubscribe
// function. A worker that fails to load or dies emits error { message } and rejects whatever is
// waiting; the run is then dead (dispose it and create another).
// Deliberately no DOM and no state of the experiment: the element keeps that.

import { startWorker } from './worker-port.js';

const ANSWERS = {
  init: 'ready',
  start: 'state',
  pause: 'state',
  step: 'state',
  reset: 'state',
  export: 'exported',
  checkpoint: 'checkpoint',
};

/**
 * @typedef {{ type: string, [key: string]: any }} LabMessage
 * @typedef {{ init(msg: object): Promise<LabMessage>, start(): Promise<LabMessage>,
 *   pause(): Promise<LabMessage>, step(): Promise<LabMessage>, reset(): Promise<LabMessage>,
 *   export(dtype?: 'F32' | 'F16' | 'I8'): Promise<Uint8Array>,
 *   checkpoint(): Promise<{ step: number, bytes: Uint8Array, optimizer: { steps: number, m1: Float32Array, m2: Float32Array }, losses: Float32Array }>,
 *   on(type: string, fn: (msg: LabMessage) => void): () => void, dispose(): void,
 *   readonly disposed: boolean }} LabRun
 */

/**
 * @param {{ workerURL?: URL | string, Worker?: any }} [options]
 * @returns {LabRun}
 */
export function createRun(options = {}) {
  const url = options.workerURL ?? new URL('./lab-worker.js', import.meta.url);
  /** @type {Map<string, Set<(msg: LabMessage) => void>>} */
  const listeners = new Map();
  /** @type {Map<number, { answer: string, resolve: (m: any) => void, reject: (e: Error) => void }>} */
  const waiting = new Map();
  let ids = 0;
  let dead = /** @type {string | null} */ (null);
  let disposed = false;

  const emit = (/** @type {LabMessage} */ msg) => {
    for (const fn of listeners.get(msg.type) ?? []) {
      try {
        fn(msg);
      } catch (err) {
        queueMicrotask(() => {
          throw err;
        }); // a listener's bug must not stop the others
      }
    }
  };

  const die = (/** @type {string} */ message) => {
    if (dead || disposed) return;
    dead = message;
    for (const w of waiting.values()) w.reject(new Error(message));
    waiting.clear();
    emit({ type: 'error', message });
  };

  const worker = startWorker(url, options.Worker).then(
    (w) => {
      w.onMessage((/** @type {LabMessage} */ msg) => {
        if (disposed) return;
        const w8 = msg.re != null ? waiting.get(msg.re) : undefined;
        if (w8) {
          waiting.delete(msg.re);
          if (msg.type === 'error') w8.reject(new Error(msg.message));
          else if (msg.type === w8.answer) w8.resolve(msg);
        }
        emit(msg);
      });
      w.onFailure(die);
      if (disposed) w.terminate();
      return w;
    },
    (err) => {
      die(err?.message ?? String(err));
      return null;
    },
  );

  const request = (
    /** @type {string} */ type,
    /** @type {object} */ body = {},
    /** @type {Transferable[]} */ transfer = [],
  ) => {
    if (disposed) return Promise.reject(new Error(`run.${type}: this run has been disposed`));
    if (dead) return Promise.reject(new Error(dead));
    const id = ++ids;
    const answer = new Promise((resolve, reject) =>
      waiting.set(id, { answer: ANSWERS[type], resolve, reject }),
    );
    worker.then((w) => w?.post({ ...body, type, id }, transfer));
    return answer;
  };

  return {
    init: (msg) => request('init', msg),
    start: () => request('start'),
    pause: () => request('pause'),
    step: () => request('step'),
    reset: () => request('reset'),
    export: (dtype = 'F32') => request('export', { dtype }).then((m) => m.bytes),
    checkpoint: () =>
      request('checkpoint').then(({ step, bytes, optimizer, losses }) => ({
        step,
        bytes,
        optimizer,
        losses,
      })),
    on(type, fn) {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type).add(fn);
      return () => listeners.get(type)?.delete(fn);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const w of waiting.values()) w.reject(new Error('the run was disposed'));
      waiting.clear();
      worker.then((w) => w?.terminate());
    },
    get disposed() {
      return disposed;
    },
  };
}
