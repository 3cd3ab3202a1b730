// commit-style.test.js: the commit style of CONTRIBUTING.md, for the commits that came after it
// (2026-11-29 on): every subject at most 72 characters, and a blank line between subject and body.
// Reads `git log` of the clone it runs in; a checkout without history (an npm tarball, a shallow
// clone that holds none of those commits) has nothing to check and says so.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { ROOT } from './import-graph.js';

const SINCE = '2026-11-29T00:00:00Z'; // the day CONTRIBUTING.md set the rule
const MAX_SUBJECT = 72;

function commits() {
  try {
    const out = execFileSync('git', ['log', `--since=${SINCE}`, '--format=%h%x00%B%x01'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return out
      .split('\x01')
      .map((c) => c.replace(/^\n/, ''))
      .filter(Boolean)
      .map((c) => {
        const [hash, message] = c.split('\0');
        return { hash, lines: message.split('\n') };
      });
  } catch {
    return null; // not a git checkout
  }
}

test('commit subjects are at most 72 characters, a blank line before the body', (t) => {
  const list = commits();
  if (!list?.length) return t.skip('no git history here');
  const bad = [];
  for (const { hash, lines } of list) {
    const [subject, second = ''] = lines;
    if ([...subject].length > MAX_SUBJECT)
      bad.push(`${hash}: subject of ${[...subject].length} characters: ${subject}`);
    if (second.trim() !== '') bad.push(`${hash}: no blank line after the subject`);
  }
  assert.deepEqual(
    bad,
    [],
    'CONTRIBUTING.md: a subject of at most 72 characters, then a blank line',
  );
});
