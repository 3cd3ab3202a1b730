// web/lab/pairs-client.js: the page's side of web/lab/pairs-worker.js. parse() hands pasted text
// or a file's bytes to the worker, reports its progress, and resolves with parsePairs' result or
// rejects with a PairsError re-created from the worker's fields (so the lab's messages are the
// same as a parse on the page's thread). A new parse cancels the one running: its worker is
// terminated and its promise rejects with an AbortError (the caller ignores it). Where no worker
// can start (Node without one given, a worker that fails to load), it parses on the calling
// thread with pairs.js itself. No DOM, no strings.

import { PairsError, parsePairs } from './pairs.js';
import { startWorker } from './worker-port.js';

/** @typedef {{ rows: number, done: number, total: number }} PairsProgress */

export class PairsParser {
  #url;
  #Worker;
  #id = 0;
  /** the running parse's reject, or null */
  #reject = /** @type {((err: Error) => void) | null} */ (null);

  /** @param {{ workerURL?: URL | string, Worker?: any }} [options] */
  constructor(options = {}) {
    this.#url = options.workerURL ?? new URL('./pairs-worker.js', import.meta.url);
    this.#Worker = options.Worker;
  }

  /**
   * @param {string | Uint8Array} input (a Uint8Array's buffer is transferred to the worker)
   * @param {{ level?: string, onProgress?: (p: PairsProgress) => void }} [options]
   * @returns {Promise<ReturnType<typeof parsePairs>>}
   */
  async parse(input, options = {}) {
    this.cancel();
    const id = ++this.#id;
    const level = /** @type {'auto' | 'char' | 'word' | undefined} */ (options.level);
    const onProgress = options.onProgress ?? (() => {});
    let worker;
    try {
      worker = await startWorker(this.#url, this.#Worker);
    } catch {
      if (id !== this.#id) throw abortError();
      return parsePairs(input, { level });
    }
    if (id !== this.#id) {
      worker.terminate();
      throw abortError();
    }
    return new Promise((resolve, reject) => {
      const finish = () => {
        this.#reject = null;
        worker.terminate();
      };
      this.#reject = (err) => {
        finish();
        reject(err);
      };
      worker.onFailure(() => {
        // the worker could not load or crashed: the same parse on this thread
        finish();
        try {
          resolve(parsePairs(input, { level }));
        } catch (err) {
          reject(err);
        }
      });
      worker.onMessage((/** @type {any} */ msg) => {
        if (msg?.id !== id) return;
        if (msg.type === 'progress')
          onProgress({ rows: msg.rows, done: msg.done, total: msg.total });
        else if (msg.type === 'done') {
          finish();
          resolve(msg.result);
        } else if (msg.type === 'error') {
          finish();
          reject(pairsError(msg.error));
        }
      });
      const transfer = input instanceof Uint8Array ? [input.buffer] : [];
      worker.post({ id, input, level }, transfer);
    });
  }

  /** Stop the running parse, if any (its promise rejects with an AbortError). */
  cancel() {
    this.#id++;
    this.#reject?.(abortError());
  }
}

/** A PairsError (or an Error, for a failure that is not one) from the worker's fields. */
export function pairsError(e) {
  if (!e?.problem) return new Error(String(e?.message ?? 'the pairs could not be read'));
  return new PairsError(e.line ?? null, e.problem, String(e.message ?? ''), {
    column: e.column ?? undefined,
    limit: e.limit ?? undefined,
  });
}

/** The fields the lab shows of a failed parse (a PairsError's, or a plain error's message). */
export function problemOf(err) {
  return {
    problem: err?.problem ?? '',
    line: err?.line ?? null,
    column: err?.column ?? null,
    limit: err?.limit ?? null,
    message: String(err?.message ?? err),
  };
}

function abortError() {
  const err = new Error('the parse was replaced by a newer one');
  err.name = 'AbortError';
  return err;
}
