// Python's copy of the config caps (python/attnlab/limits.py) against the JS one
// (wasm/config-limits.js, itself checked against the C library by tests/js/limits.test.js): the
// module file runs alone under /usr/bin/python3 (it imports nothing), its table printed as JSON.
// Skipped, with a reason, where there is no python3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { CONFIG_LIMITS } from '../../wasm/config-limits.js';

const PYTHON = '/usr/bin/python3';
const MODULE = fileURLToPath(new URL('../../python/attnlab/limits.py', import.meta.url));

test(
  'python/attnlab/limits.py equals wasm/config-limits.js',
  { skip: !existsSync(PYTHON) && `no ${PYTHON}` },
  () => {
    const script =
      'import json, runpy, sys; print(json.dumps(runpy.run_path(sys.argv[1])["CONFIG_LIMITS"]))';
    const py = JSON.parse(execFileSync(PYTHON, ['-c', script, MODULE], { encoding: 'utf8' }));
    assert.deepEqual(py, JSON.parse(JSON.stringify(CONFIG_LIMITS)));
  },
);
