// A test-only worker: the lab's engine (web/lab/engine.js) served with the stand-in task and
// spec of lab-engine-stub.js instead of tasks.js and spec.js, so lab-engine.test.js controls the
// task (and its error paths) while driving the page's own engine code through run.js:
//
//   createRun({ workerURL: new URL('./lab-engine-stub-worker.js', import.meta.url) })
//
// The shipped worker (web/lab/lab-worker.js) has no such hook. Not a test file (node --test runs
// *.test.js).

import { hostPort } from '../../web/lab/worker-port.js';
import { serve } from '../../web/lab/engine.js';
import * as STUB from './lab-engine-stub.js';

serve(await hostPort(), { tasks: STUB, spec: STUB });
