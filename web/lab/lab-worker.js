// web/lab/lab-worker.js: the shipped worker of one lab run (A or B): engine.js served on this
// worker's port with the real tasks (tasks.js) and specs (spec.js). The page (or Node, for the
// tests and `make bench`) drives it through run.js; the protocol is docs/lab-engine.md's.
// Deliberately nothing else: no test hook (init's fields never name a module to import; the
// tests' stand-in task has its own worker, tests/js/lab-engine-stub-worker.js).

import { hostPort } from './worker-port.js';
import { serve } from './engine.js';
import * as SPEC from './spec.js';
import * as TASKS from './tasks.js';

// the modules imported statically, so a bundler (scripts/build-web.mjs) puts them in the worker
serve(await hostPort(), { tasks: TASKS, spec: SPEC });
