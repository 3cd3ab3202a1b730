// The hand-written declarations (wasm/index.d.ts, wasm/*.d.ts, wasm/ops/*.d.ts) compile under
// `tsc --strict` and describe the API as tests/types/usage.ts uses it: a missing op, option, result
// field or gradient key, or two modules exporting the same type name, fails here. And the
// JavaScript itself: `tsc --checkJs` over wasm/ (tsconfig.checkjs.json) and web/
// (tsconfig.checkjs-web.json), with the JSDoc types the checker needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** tsc -p <project> → its exit status and output. */
function runTsc(project) {
  const bin = require.resolve('typescript/bin/tsc');
  return spawnSync(process.execPath, [bin, '-p', project], { encoding: 'utf8' });
}

test('the .d.ts files type-check a TypeScript user of every op family (tsc --strict)', () => {
  const tsc = require.resolve('typescript/bin/tsc');
  const project = fileURLToPath(new URL('../types/tsconfig.json', import.meta.url));
  const r = spawnSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
  assert.equal(r.status, 0, `tsc reported:\n${r.stdout}${r.stderr}`);
});

for (const config of ['tsconfig.checkjs.json', 'tsconfig.checkjs-web.json']) {
  test(`the JavaScript type-checks (tsc --checkJs -p ${config})`, () => {
    const r = runTsc(fileURLToPath(new URL(`../../${config}`, import.meta.url)));
    assert.equal(r.status, 0, `tsc reported:\n${r.stdout}${r.stderr}`);
  });
}
