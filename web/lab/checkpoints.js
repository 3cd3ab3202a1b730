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
