// web/lab/pairs-worker.js: the lab's pairs parser off the page's thread. The page (pairs-client.js)
// posts { id, input, level } (input: pasted text or a file's bytes); this worker runs pairs.js
// parsePairs on it and posts back, each with the same id:
//   { id, type: 'progress', rows, done, total }   every PROGRESS_ROWS rows (done of total read)
//   { id, type: 'done', result }                   parsePairs' result
//   { id, type: 'error', error: { problem, line, column, limit, message } }   a PairsError's fields
// Deliberately nothing else: one parse at a time (the page terminates this worker to cancel one),
// no DOM, no strings of its own (the page words the problem from its code, line and column).

import { hostPort } from './worker-port.js';
import { parsePairs } from './pairs.js';

const port = await hostPort();
port.onMessage((/** @type {any} */ msg) => {
  const id = msg?.id;
  try {
    const result = parsePairs(msg.input, {
      level: msg.level,
      onProgress: (p) => port.post({ id, type: 'progress', ...p }),
    });
    port.post({ id, type: 'done', result });
  } catch (err) {
    const e = /** @type {any} */ (err);
    port.post({
      id,
      type: 'error',
      error: {
        problem: e?.name === 'PairsError' ? e.problem : '',
        line: e?.line ?? null,
        column: e?.column ?? null,
        limit: e?.limit ?? null,
        message: String(e?.message ?? e),
      },
    });
  }
});
