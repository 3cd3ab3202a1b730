// docs-index.test.js: docs/README.md is the index of docs/. Fails when a docs/*.md page is not
// in it, when it links a page that does not exist, or when a relative link of README.md,
// CONTRIBUTING.md or a docs/*.md page points at a file that does not exist (or, into a Markdown
// page, at a heading it does not have). Checks links only: what the pages say is the pages' own
// tests' business (readme-package, docs-figures, ...). Also: the layout tables name files that exist.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { docPages } from '../../scripts/figures.mjs';
import { ROOT } from './packed.js';

const INDEX = 'docs/README.md';
const PAGES = docPages().filter((p) => p.startsWith('docs/') && p !== INDEX);
const read = (p) => readFileSync(path.join(ROOT, p), 'utf8');

/** Relative link targets of a Markdown text, outside code: [text](target) and ![alt](target). */
function links(markdown) {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((t) => !/^(https?:|mailto:)/.test(t));
}

/** GitHub's anchors for a Markdown page's headings. */
function anchors(markdown) {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return new Set(
    [...prose.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
      m[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

test('docs/README.md lists every page of docs/', () => {
  const listed = new Set(links(read(INDEX)).map((t) => path.posix.join('docs', t.split('#')[0])));
  const missing = PAGES.filter((p) => !listed.has(p));
  assert.deepEqual(missing, [], `pages of docs/ that ${INDEX} does not list`);
});

test('every page docs/README.md links exists', () => {
  const targets = links(read(INDEX))
    .map((l) => path.posix.join('docs', l.split('#')[0]))
    .filter((p) => p.startsWith('docs/') && p.endsWith('.md'));
  const absent = targets.filter((p) => !existsSync(path.join(ROOT, p)));
  assert.deepEqual(absent, [], `${INDEX} links pages that do not exist`);
});

test('every relative link of the README, CONTRIBUTING.md and docs/ resolves', () => {
  const broken = [];
  for (const page of ['CONTRIBUTING.md', ...docPages()]) {
    if (!existsSync(path.join(ROOT, page))) continue;
    for (const target of links(read(page))) {
      const [file, anchor] = target.split('#');
      const to = file ? path.posix.join(path.posix.dirname(page), file) : page;
      if (!existsSync(path.join(ROOT, to))) broken.push(`${page}: ${target} (no file ${to})`);
      else if (anchor && to.endsWith('.md') && !anchors(read(to)).has(anchor))
        broken.push(`${page}: ${target} (${to} has no heading #${anchor})`);
    }
  }
  assert.deepEqual(broken, []);
});

/** Every file under dir (relative to ROOT), by base name. */
function baseNamesUnder(dir) {
  const names = new Set();
  const walk = (d) => {
    for (const e of readdirSync(path.join(ROOT, d), { withFileTypes: true })) {
      if (e.name === 'node_modules') continue;
      if (e.isDirectory()) walk(`${d}/${e.name}`);
      else names.add(e.name);
    }
  };
  walk(dir);
  return names;
}

// The layout tables (the README's and docs/architecture.md's: a row per folder) name the files of
// each folder; a file moved, split or removed must leave its row, or the table tells of rooms
// that are gone.
test('the layout tables name only files that exist in their row’s folder', () => {
  const stale = [];
  for (const page of ['README.md', 'docs/architecture.md']) {
    for (const m of read(page).matchAll(/^\| `([\w./-]+\/)` \| (.*) \|$/gm)) {
      const [, folder, cell] = m;
      if (!existsSync(path.join(ROOT, folder))) {
        stale.push(`${page}: no folder ${folder}`);
        continue;
      }
      const names = baseNamesUnder(folder.replace(/\/$/, ''));
      for (const [, token] of cell.matchAll(
        /`([\w.-]+\.(?:js|mjs|c|h|py|html|css|exports|wasm))`/g,
      ))
        if (!names.has(token)) stale.push(`${page}: ${folder} names ${token}, not there`);
    }
  }
  assert.deepEqual(stale, []);
});
