// web/lab/checkpoints.js: the lab's checkpoints in IndexedDB, so a reload can offer to resume.
// One record per experiment, keyed by the experiment's URL string (formatLabParams(experiment)
// .toString(): the same experiment, the same key), holding { experiment, runs, saved }:
//   runs: [{ step, bytes (model F32 safetensors), optimizer: { steps, m1, m2 }, losses }]
//         (index 0 run A, 1 run B), each as run.checkpoint() returns it;
//   saved: Date.now() when written.
// Weights never go into the URL; only here, on this device.
//
//   const can = checkpointSupport();          // { available, reason }
//   await saveCheckpoints(key, { experiment, runs: [await a.checkpoint(), await b.checkpoint()] });
//   const rec = await loadCheckpoints(key);   // the record or null
//   createRun().init({ task, run, checkpoint: rec.runs[0] });
//   await deleteCheckpoints(key); await listCheckpoints();
//
// A record read back is only data: recordProblem(rec) says what is wrong with it (types before
// lengths, lengths bounded, every number finite) before the page offers to resume it, and the
// worker checks each run's checkpoint again (checkpointProblem) before using it.
// Where IndexedDB is missing or refused (Node, some private modes, sandboxed iframes without
// allow-same-origin), every call is a no-op that resolves: save → { saved: false, reason },
// load → null, list → []; checkpointSupport() and lastReason() name the reason for the page to
// show. Deliberately no DOM, no timers and no policy (when to save is the element's choice).

const DB_NAME = 'attnlab-lab';
const STORE = 'checkpoints';
const VERSION = 1;

/** @typedef {{ step: number, bytes: Uint8Array, optimizer: { steps: number, m1: Float32Array, m2: Float32Array }, losses: Float32Array }} RunCheckpoint */
/** @typedef {{ experiment: object, runs: RunCheckpoint[], saved?: number }} CheckpointRecord */

let reason = /** @type {string | null} */ (null);
/** @type {Promise<IDBDatabase | null> | null} */
let opening = null;

/** The IndexedDB factory, or null with the reason recorded. */
function factory() {
  let idb;
  try {
    idb = /** @type {any} */ (globalThis).indexedDB;
  } catch (err) {
    // some sandboxes throw on the property read itself
    reason = `IndexedDB is not allowed here (${err?.message ?? err}); checkpoints are off`;
    return null;
  }
  if (!idb) {
    reason = 'this environment has no IndexedDB; checkpoints are off';
    return null;
  }
  return idb;
}

/** Whether checkpoints can be kept here: { available, reason } (reason null when available). */
export function checkpointSupport() {
  return factory() ? { available: true, reason: null } : { available: false, reason };
}

/** Why the last call was a no-op (null when it was not). */
export function lastReason() {
  return reason;
}

/** @returns {Promise<IDBDatabase | null>} */
function open() {
  if (opening) return opening;
  const idb = factory();
  if (!idb) return Promise.resolve(null);
  opening = new Promise((resolve) => {
    let req;
    try {
      req = idb.open(DB_NAME, VERSION);
    } catch (err) {
      reason = `IndexedDB refused to open (${err?.message ?? err}); checkpoints are off`;
      resolve(null);
      return;
    }
    req.onupgradeneeded = () => {
      if (!req.result.objectStoreNames.contains(STORE)) req.result.createObjectStore(STORE);
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => {
      reason = `IndexedDB refused to open (${req.error?.message ?? 'unknown error'}); checkpoints are off`;
      resolve(null);
    };
    req.onblocked = () => {
      reason =
        'IndexedDB is blocked by another tab holding an older version; close it to keep checkpoints';
      resolve(null);
    };
  });
  opening.then((db) => {
    if (!db) opening = null;
  }); // retry later (e.g. after the other tab closes)
  return opening;
}

/** One request in a transaction, as a promise of its result. */
async function run(mode, fn) {
  const db = await open();
  if (!db) return { ok: false, value: undefined };
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const req = fn(tx.objectStore(STORE));
    tx.oncomplete = () => resolve({ ok: true, value: req.result });
    tx.onerror = () =>
      reject(
        new Error(
          `IndexedDB: ${tx.error?.message ?? req.error?.message ?? 'the transaction failed'}`,
        ),
      );
    tx.onabort = () =>
      reject(
        new Error(
          `IndexedDB: ${tx.error?.message ?? 'the transaction was aborted'} (the disk may be full)`,
        ),
      );
  });
}

function checkKey(key) {
  if (typeof key !== 'string' || key.length === 0)
    throw new TypeError(
      `checkpoints: the key must be the experiment's URL string, got ${typeof key}`,
    );
}

/** The most steps a checkpoint may hold (10 million: days of training at the lab's speeds);
 * Adam's step count stays far from 2^31 − 1, where the next step's bias correction overflows. */
export const MAX_STEPS = 10_000_000;
/** The largest model file a checkpoint may hold (the lab's models are a few MB). */
export const MAX_CHECKPOINT_BYTES = 256 * 1048576;
/** The most values an optimiser moment may hold (parameters of the largest lab model, with room). */
export const MAX_MOMENTS = 64 * 1048576;

const isTyped = (x, Type) => {
  // a Proxy or a look-alike object ({ length: 1e9 }) has no typed array slots: refused here
  try {
    return x instanceof Type && ArrayBuffer.isView(x) && /** @type {any} */ (x).length >= 0;
  } catch {
    return false;
  }
};
const kind = (x) => (x === null ? 'null' : Array.isArray(x) ? 'an array' : typeof x);
const firstBad = (a, ok) => {
  for (let i = 0; i < a.length; i++) if (!ok(a[i])) return i;
  return -1;
};

/**
 * What is wrong with one run's checkpoint (as IndexedDB or a message gave it back), or null when
 * it can be used: step an integer in [0, MAX_STEPS]; bytes a Uint8Array of 1 to
 * MAX_CHECKPOINT_BYTES; losses a Float32Array of step finite values; optimizer { steps: integer in
 * [0, MAX_STEPS], m1, m2: Float32Arrays of at most MAX_MOMENTS finite values, m2 >= 0, m2 empty or
 * as long as m1 }. Types are checked before any length is trusted, so `losses: { length: 1e9 }`
 * costs nothing. Runs in the page and in the worker (engine-model.js).
 * @param {any} cp
 * @param {string} [name] what to call it in the message
 * @returns {string | null}
 */
export function checkpointProblem(cp, name = 'checkpoint') {
  if (cp === null || typeof cp !== 'object' || Array.isArray(cp))
    return `${name} must be an object { step, bytes, optimizer, losses }, got ${kind(cp)}`;
  const { step, bytes, losses, optimizer } = cp;
  if (!Number.isInteger(step) || step < 0 || step > MAX_STEPS)
    return `${name}.step must be an integer in [0, ${MAX_STEPS}], got ${String(step).slice(0, 40)}`;
  if (!isTyped(bytes, Uint8Array) || bytes.length === 0 || bytes.length > MAX_CHECKPOINT_BYTES)
    return `${name}.bytes must be a Uint8Array of 1 to ${MAX_CHECKPOINT_BYTES} bytes (the model file)`;
  if (!isTyped(losses, Float32Array))
    return `${name}.losses must be a Float32Array, got ${kind(losses)}`;
  if (losses.length !== step)
    return `${name}.losses holds ${losses.length} values; a checkpoint at step ${step} holds ${step}`;
  let at = firstBad(losses, Number.isFinite);
  if (at >= 0) return `${name}.losses[${at}] is ${losses[at]}, not a finite number`;
  if (optimizer === null || typeof optimizer !== 'object' || Array.isArray(optimizer))
    return `${name}.optimizer must be an object { steps, m1, m2 }, got ${kind(optimizer)}`;
  const { steps, m1, m2 } = optimizer;
  if (!Number.isInteger(steps) || steps < 0 || steps > MAX_STEPS)
    return `${name}.optimizer.steps must be an integer in [0, ${MAX_STEPS}], got ${String(steps).slice(0, 40)}`;
  for (const [key, m] of [
    ['m1', m1],
    ['m2', m2],
  ]) {
    if (!isTyped(m, Float32Array))
      return `${name}.optimizer.${key} must be a Float32Array, got ${kind(m)}`;
    if (m.length > MAX_MOMENTS)
      return `${name}.optimizer.${key} holds ${m.length} values, more than ${MAX_MOMENTS}`;
    at = firstBad(m, key === 'm2' ? (v) => Number.isFinite(v) && v >= 0 : Number.isFinite);
    if (at >= 0)
      return `${name}.optimizer.${key}[${at}] is ${m[at]}, not a finite number${key === 'm2' ? ' >= 0' : ''}`;
  }
  if (m2.length !== 0 && m2.length !== m1.length)
    return `${name}.optimizer.m2 holds ${m2.length} values and m1 ${m1.length}: they must match (or m2 be empty)`;
  return null;
}

/**
 * What is wrong with a record read back from IndexedDB, or null: { experiment, runs: one or two
 * run checkpoints (checkpointProblem), saved }. The page offers to resume only a record without one.
 * @param {any} rec
 * @returns {string | null}
 */
export function recordProblem(rec) {
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec))
    return `the record must be an object, got ${kind(rec)}`;
  if (!Array.isArray(rec.runs) || rec.runs.length < 1 || rec.runs.length > 2)
    return 'the record must hold runs: [A] or [A, B]';
  for (let i = 0; i < rec.runs.length; i++) {
    if (rec.runs[i] === null || rec.runs[i] === undefined) continue; // a run the experiment lacks
    const p = checkpointProblem(rec.runs[i], `runs[${i}]`);
    if (p) return p;
  }
  return null;
}

function checkRecord(rec) {
  if (
    !rec ||
    typeof rec !== 'object' ||
    !Array.isArray(rec.runs) ||
    rec.runs.length < 1 ||
    rec.runs.length > 2
  ) {
    throw new TypeError('checkpoints: a record is { experiment, runs: [A] or [A, B] }');
  }
  rec.runs.forEach((r, i) => {
    if (
      !r ||
      !(r.bytes instanceof Uint8Array) ||
      !Number.isInteger(r.step) ||
      !(r.losses instanceof Float32Array) ||
      !r.optimizer ||
      !(r.optimizer.m1 instanceof Float32Array) ||
      !(r.optimizer.m2 instanceof Float32Array)
    ) {
      throw new TypeError(
        `checkpoints: runs[${i}] must be what run.checkpoint() gave ({ step, bytes, optimizer, losses })`,
      );
    }
  });
}

/**
 * Keep the record under key (replacing the previous one).
 * @param {string} key
 * @param {CheckpointRecord} record
 * @returns {Promise<{ saved: boolean, reason: string | null }>}
 */
export async function saveCheckpoints(key, record) {
  checkKey(key);
  checkRecord(record);
  const value = {
    experiment: record.experiment,
    runs: record.runs.map((r) => ({
      step: r.step,
      bytes: r.bytes,
      losses: r.losses,
      optimizer: { steps: r.optimizer.steps, m1: r.optimizer.m1, m2: r.optimizer.m2 },
    })),
    saved: Date.now(),
  };
  const { ok } = await run('readwrite', (s) => s.put(value, key));
  return ok ? { saved: true, reason: null } : { saved: false, reason };
}

/** @param {string} key @returns {Promise<CheckpointRecord | null>} */
export async function loadCheckpoints(key) {
  checkKey(key);
  const { ok, value } = await run('readonly', (s) => s.get(key));
  return ok && value ? value : null;
}

/** @param {string} key */
export async function deleteCheckpoints(key) {
  checkKey(key);
  await run('readwrite', (s) => s.delete(key));
}

/** The keys (experiment URL strings) that have a checkpoint. @returns {Promise<string[]>} */
export async function listCheckpoints() {
  const { ok, value } = await run('readonly', (s) => s.getAllKeys());
  return ok ? /** @type {string[]} */ (value) : [];
}
