// scripts/figures.mjs: the measured figures the docs quote, marked where they stand so a test can
// find them and a command can rewrite them. A figure is `<!-- figure: NAME -->VALUE<!-- /figure -->`
// in README.md or a docs/*.md page (VALUE may span lines: a whole table). The commands that
// measure print their figures as JSON with --figures and rewrite the marked ones with
// --write-docs: `node scripts/size.mjs` (sizes, file and model counts) and
// `node scripts/bench.mjs` (from the committed bench/results.json, never a new run).
// tests/js/docs-figures.test.js checks the marked values against what the commands print.
// Holds only the marker syntax and the pages; measuring is the commands' business.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// not after a backtick: a marker quoted in a code span is an example, not a figure
const MARKED = /(?<!`)<!-- figure: ([\w.]+) -->([\s\S]*?)<!-- \/figure -->/g;

/** README.md and every docs/*.md page, as paths from the repository's root. */
export function docPages() {
  const docs = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
  return ['README.md', ...docs.sort().map((f) => `docs/${f}`)];
}

/** Every marked figure: { page, name, value } in page order. */
export function markedFigures(pages = docPages()) {
  return pages.flatMap((page) =>
    [...readFileSync(path.join(ROOT, page), 'utf8').matchAll(MARKED)].map((m) => ({
      page,
      name: m[1],
      value: m[2],
    })),
  );
}

/**
 * Rewrite the marked figures whose names are in values (name → text; a multi-line value goes on
 * lines of its own between the markers). Returns what changed: [{ page, name, from, to }].
 */
export function writeFigures(values, pages = docPages()) {
  const changed = [];
  for (const page of pages) {
    const file = path.join(ROOT, page);
    const text = readFileSync(file, 'utf8');
    const next = text.replace(MARKED, (all, name, from) => {
      if (!(name in values)) return all;
      const to = markedText(values[name]);
      if (to !== from) changed.push({ page, name, from, to });
      return `<!-- figure: ${name} -->${to}<!-- /figure -->`;
    });
    if (next !== text) writeFileSync(file, next);
  }
  return changed;
}

/** How a value stands between its markers: a multi-line one on lines of its own. */
export const markedText = (value) => (value.includes('\n') ? `\n${value}\n` : value);

/** For the commands: `--figures` prints values as JSON, `--write-docs` rewrites the docs. */
export function figuresCli(argv, values) {
  if (argv.includes('--figures')) console.log(JSON.stringify(values, null, 2));
  if (argv.includes('--write-docs')) {
    const changed = writeFigures(values);
    for (const c of changed)
      console.log(
        `${c.page}: ${c.name}${c.to.includes('\n') ? ' (rewritten)' : ` ${c.from} → ${c.to}`}`,
      );
    console.log(`${changed.length} marked figure(s) rewritten`);
  }
}
