// web/lab/worker-port.js: one face for the two kinds of worker the lab runs in: browser module
// Workers (the page, and nested workers inside a worker) and Node's worker_threads (the tests and
// `make bench`, which drive the page's own engine code).
//
//   const port = await hostPort();                 // inside a worker: the parent's side
//   port.onMessage((msg) => ...); port.post(msg, [buffer]);
//   const w = await startWorker(url, Worker?);    // start one: browser Worker or worker_threads
//   w.onMessage(fn); w.onFailure((message) => ...); w.post(msg, transfer); w.terminate();
//
// In a sandboxed iframe (opaque origin) a worker starts from a blob: module that imports the
// script (construct below), so the lab runs there too, with no SharedArrayBuffer and no isolation.
// What it deliberately does not do: restart a failed worker, or any protocol (run.js,
// engine.js and shard-worker.js each define theirs). No DOM. node:worker_threads is imported
// by a variable specifier only where there is no browser Worker, so bundlers leave it alone.

const NODE_WORKERS = 'node:worker_threads';
const QUEUE = '__attnlabEarlyMessages';
const inNode = () => typeof (/** @type {any} */ (globalThis).process?.versions?.node) === 'string';

/**
 * @typedef {{ post(msg: unknown, transfer?: Transferable[]): void,
 *             onMessage(fn: (msg: any) => void): void }} HostPort
 * @typedef {{ post(msg: unknown, transfer?: Transferable[]): void,
 *             onMessage(fn: (msg: any) => void): void,
 *             onFailure(fn: (message: string) => void): void,
 *             terminate(): void }} StartedWorker
 */

/** The parent's side, seen from inside a worker. @returns {Promise<HostPort>} */
export async function hostPort() {
  const scope = /** @type {any} */ (globalThis).self;
  if (!inNode() && scope && typeof scope.postMessage === 'function') {
    return {
      post: (msg, transfer = []) => scope.postMessage(msg, transfer),
      onMessage: (fn) => {
        scope.onmessage = (/** @type {MessageEvent} */ e) => fn(e.data);
        // messages that reached a blob: wrapper (construct) before this module ran, in order and
        // in this same task, so none of the later ones can overtake them
        const early = scope[QUEUE];
        delete scope[QUEUE];
        for (const e of early ?? []) fn(e.data);
      },
    };
  }
  const { parentPort } = await import(NODE_WORKERS);
  if (!parentPort) throw new Error('worker-port: not running inside a worker');
  return {
    post: (msg, transfer = []) => parentPort.postMessage(msg, transfer),
    onMessage: (fn) => parentPort.on('message', fn),
  };
}

/**
 * new W(url) for a module worker; where the document's origin cannot start a worker from url
 * (a sandboxed iframe without allow-same-origin has the opaque origin 'null': SecurityError), a
 * same-origin blob: worker that import()s url instead; its scripts then load as CORS requests,
 * as from a CDN (serve.mjs and hosts that serve the page to other origins answer them). The
 * blob is a classic script (Chromium 156 refuses module workers from an opaque origin's blob:
 * URLs) that queues messages until the module's hostPort() takes them, in order.
 */
function construct(W, url, name) {
  try {
    return new W(url, { type: 'module', name });
  } catch (err) {
    const g = /** @type {any} */ (globalThis);
    if (
      err?.name !== 'SecurityError' ||
      typeof g.Blob !== 'function' ||
      typeof g.URL?.createObjectURL !== 'function'
    )
      throw err;
    const href = JSON.stringify(new URL(String(url), g.location?.href).href);
    const src =
      `self.${QUEUE} = []; self.onmessage = (e) => self.${QUEUE}.push(e);\n` +
      `import(${href}).catch((e) => setTimeout(() => { throw e; }));\n`;
    return new W(g.URL.createObjectURL(new g.Blob([src], { type: 'text/javascript' })), { name });
  }
}

/**
 * Start a module worker from url: with WorkerClass when given (a browser Worker or
 * worker_threads' Worker), else the browser's Worker, else worker_threads'.
 * onFailure gets one message when the worker cannot load, throws uncaught, or exits unasked.
 * @param {URL | string} url
 * @param {any} [WorkerClass]
 * @returns {Promise<StartedWorker>}
 */
export async function startWorker(url, WorkerClass) {
  const W =
    WorkerClass ??
    /** @type {any} */ (globalThis).Worker ??
    (inNode() ? (await import(NODE_WORKERS)).Worker : null);
  if (!W) throw new Error('this environment has no Worker: the lab trains in workers');
  const name = String(url).replace(/^.*\//, '');
  const w = construct(W, url, name);
  let failed = (/** @type {string} */ _message) => {};
  let done = false;
  const fail = (/** @type {string} */ message) => {
    if (done) return;
    done = true;
    failed(message);
  };
  if (typeof w.on === 'function') {
    // worker_threads
    let message = (/** @type {any} */ _msg) => {};
    w.on('message', (/** @type {any} */ msg) => message(msg));
    w.on('error', (/** @type {any} */ err) => fail(`${name} failed: ${err?.message ?? err}`));
    w.on('exit', (/** @type {number} */ code) => fail(`${name} stopped (exit code ${code})`));
    return {
      post: (msg, transfer = []) => w.postMessage(msg, transfer),
      onMessage: (fn) => {
        message = fn;
      },
      onFailure: (fn) => {
        failed = fn;
      },
      terminate: () => {
        done = true;
        w.terminate();
      },
    };
  }
  w.onerror = (/** @type {ErrorEvent} */ e) => {
    e.preventDefault?.();
    fail(
      `${name} failed: ${e.message || 'it could not be loaded (a module worker needs a browser that supports them, and the file must be served)'}`,
    );
  };
  w.onmessageerror = () => fail(`${name}: a message could not be read`);
  return {
    post: (msg, transfer = []) => w.postMessage(msg, transfer),
    onMessage: (fn) => {
      w.onmessage = (/** @type {MessageEvent} */ e) => fn(e.data);
    },
    onFailure: (fn) => {
      failed = fn;
    },
    terminate: () => {
      done = true;
      w.terminate();
    },
  };
}
