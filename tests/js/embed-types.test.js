// embed-types.test.js: the element types (web/embed.d.ts) kept in step with the page's tables:
// AttnDemoView names every view of <attn-demo> (app-state.js VIEWS, from architectures.js), and
// AttnDemoHideFlag every hide flag (app-state.js HIDE_FLAGS), so a view added to the page is a
// value the types accept (the mechanism view once was not).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { HIDE_FLAGS, VIEWS } from '../../web/shared/app-state.js';

const DTS = readFileSync(new URL('../../web/embed.d.ts', import.meta.url), 'utf8');

/** The string literals of `export type name = | 'a' | 'b' …;` in embed.d.ts. */
function union(name) {
  const m = DTS.match(new RegExp(`export type ${name} =([^;]*);`));
  assert.ok(m, `web/embed.d.ts declares ${name}`);
  return [...m[1].matchAll(/'([^']*)'/g)].map((x) => x[1]);
}

test('AttnDemoView is every view of <attn-demo>, in tab order', () => {
  assert.deepEqual(union('AttnDemoView'), [...VIEWS]);
});

test('AttnDemoHideFlag is every hide flag', () => {
  assert.deepEqual(union('AttnDemoHideFlag'), [...HIDE_FLAGS]);
});
