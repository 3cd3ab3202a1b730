// scripts/train/agreement-eval.mjs: agreement accuracy by construction (none, pp, subj-rc,
// obj-rc) and by attractors (0, 1, 2+), for issue 30: the typed test set
// (tests/fixtures/agreement-typed-test.json, written before the recipe changed, never used to
// choose), the hand-written dev sets (agreement-natural.json, agreement-choosing.json: their
// "kind" mapped to a construction), the held-out Brown subject-verb pairs (brownAgreementItems:
// none or pp only, the only two shapes it finds) and the widened grammar's held-out split (the
// first modifier after the subject names the construction).
//
//   const r = typedAgreement(model);   // { accuracy, count, byConstruction, byAttractors, wrong }
//
// An item is right when the model gives the correct verb form a higher log-probability than the
// wrong one after <s> prefix (prefixScorer in agreement.mjs). scripts/agreement-eval.mjs prints
// these for the shipped files; tests/js/shipped-agreement-typed.test.js re-checks the cards.
// Not here: training, the cards' other figures.

import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from './common.mjs';

export const TYPED_PAIRS = path.join(ROOT, 'tests', 'fixtures', 'agreement-typed-test.json');
export const CONSTRUCTIONS = Object.freeze(['none', 'pp', 'subj-rc', 'obj-rc']);
/** The dev sets' "kind" as a construction (adv: an adverb before the verb, none of the four). */
const KIND = { none: 'none', pp: 'pp', pp2: 'pp', src: 'subj-rc', orc: 'obj-rc', adv: 'adv' };
const RC_WORDS = new Set(['that', 'who', 'which', 'whom']);
/** Words that open a noun phrase: after "that", the relative clause has its own subject (obj-rc). */
const NP_START = new Set(
  'the a an his her their my your our its some this these those all every each no one two three'.split(
    ' ',
  ),
);

/** The construction of a generated sentence: what follows the subject (none: the verb itself). */
export function constructionOf(words, subjectIndex, verbIndex) {
  if (verbIndex === subjectIndex + 1) return 'none';
  const next = words[subjectIndex + 1];
  if (RC_WORDS.has(next)) return NP_START.has(words[subjectIndex + 2]) ? 'obj-rc' : 'subj-rc';
  return 'pp';
}

/** A typed or dev-set pair (raw text) as an item: prefix normalised by the model's tokenizer. */
function itemOf(model, p) {
  return {
    construction: p.construction ?? KIND[p.kind] ?? p.kind,
    attractors: p.attractors,
    prefix: model.normalize(p.prefix).split(' '),
    correct: model.normalize(p.correct),
    wrong: model.normalize(p.wrong),
  };
}

/**
 * Accuracy of items { construction, attractors?, prefix: words, correct, wrong } under score(prefix,
 * word) (a log-probability): overall, by construction (in CONSTRUCTIONS order, then any other),
 * by attractors 0, 1, 2+ (items without a count left out there) and the wrong ones.
 */
export function byConstruction(items, score) {
  const cons = new Map();
  const atts = new Map();
  const wrong = [];
  let right = 0;
  const add = (m, k, ok) => {
    const e = m.get(k) ?? { count: 0, right: 0 };
    e.count++;
    e.right += ok ? 1 : 0;
    m.set(k, e);
  };
  for (const it of items) {
    const ok = score(it.prefix, it.correct) > score(it.prefix, it.wrong);
    right += ok ? 1 : 0;
    add(cons, it.construction, ok);
    if (Number.isInteger(it.attractors)) add(atts, Math.min(it.attractors, 2), ok);
    if (!ok) wrong.push(`${it.prefix.join(' ')} ${it.correct} / ${it.wrong}`);
  }
  const order = [...CONSTRUCTIONS, ...[...cons.keys()].filter((k) => !CONSTRUCTIONS.includes(k))];
  return {
    accuracy: items.length ? right / items.length : NaN,
    count: items.length,
    byConstruction: order
      .filter((k) => cons.has(k))
      .map((k) => ({
        construction: k,
        count: cons.get(k).count,
        accuracy: cons.get(k).right / cons.get(k).count,
      })),
    byAttractors: [0, 1, 2]
      .filter((k) => atts.has(k))
      .map((k) => ({
        attractors: k === 2 ? '2+' : k,
        count: atts.get(k).count,
        accuracy: atts.get(k).right / atts.get(k).count,
      })),
    wrong,
  };
}

/** A pairs file (typed test set or a dev set) by construction and attractors. */
export function pairsByConstruction(model, score, file = TYPED_PAIRS) {
  const pairs = JSON.parse(readFileSync(file, 'utf8')).pairs;
  return byConstruction(
    pairs.map((p) => itemOf(model, p)),
    score,
  );
}

/** Brown agreement items (brownAgreementItems) with their construction: pp when the subject's
 * noun phrase is followed by a preposition, none when the verb follows it. */
export function brownByConstruction(items, score) {
  return byConstruction(
    items.map((it) => ({
      ...it,
      construction: it.verbIndex === it.subjectIndex + 1 ? 'none' : 'pp',
    })),
    score,
  );
}

/** Generated agreement items (agreementTestSet) with their construction (constructionOf). */
export function generatedByConstruction(items, score) {
  return byConstruction(
    items.map((it) => ({
      ...it,
      construction: constructionOf(it.words ?? it.prefix, it.subjectIndex, it.verbIndex),
    })),
    score,
  );
}

/** The card's record of a by-construction result: accuracy and counts, without the wrong list. */
export function cardRecord({ accuracy, count, byConstruction: c, byAttractors: a }) {
  return { accuracy, count, byConstruction: c, byAttractors: a };
}
