// attnlab/web/data/translation-parse.js: reading typed English back into the generator's tree
// (backtracking over the same tree types as translation-sample.js draws), so the page can draw the
// gold alignment over any sentence the generator could have written. Each parser takes (tokens, i)
// and yields every [node, next i]; a reading counts when rendering it (translation-render.js)
// gives the input back. Not here: what the page warns about (translationDomain, translation.js).

import {
  ADJECTIVES,
  CONJUNCTIONS,
  NOUNS,
  PERSONS,
  PREPOSITIONS,
  SAY_VERBS,
  VERBS,
} from './translation-lexicon.js';
import { ENDS, TRANSLATION_NORMALIZE, personOf, render } from './translation-render.js';
import { TRANSITIVE, pronounNp } from './translation-sample.js';
import { normalizeSteps, normalizeWords } from '../../wasm/model/normalize.js';

// ---------------------------------------------------------------- reading English back

const NOUN_BY = new Map();
for (const n of NOUNS) {
  NOUN_BY.set(n.en, [...(NOUN_BY.get(n.en) ?? []), { noun: n, plural: false }]);
  if (!n.mass)
    NOUN_BY.set(n.enPlural, [...(NOUN_BY.get(n.enPlural) ?? []), { noun: n, plural: true }]);
}
const ADJ_BY = new Map(ADJECTIVES.map((a) => [a.en, a]));
const POSS_BY = new Map(PERSONS.map((p) => [p.en.poss, p]));
const SUBJ_BY = new Map(PERSONS.map((p) => [p.en.subj, p]));
const OBJ_BY = new Map(PERSONS.map((p) => [p.en.obj, p]));
const PREP_BY = new Map(PREPOSITIONS.map((p) => [p.en, p]));
const CONJ_BY = new Map(CONJUNCTIONS.map((c) => [c.en, c]));

// Each parser takes (tokens, i) and returns every [node, next i] it can read; the sentence keeps
// the first complete reading. Agreement (a cat / some cats, she sees / they see) is checked by
// rendering the reading and comparing its English with the input.

function* parseNp(t, i, { role, allowPronoun = true, rel = true, possessor = true }) {
  if (allowPronoun) {
    const p = (role === 'obj' ? OBJ_BY : SUBJ_BY).get(t[i]);
    if (p && !(role === 'obj' && t[i + 1] && NOUN_BY.has(t[i + 1]) && p.en.poss === t[i]))
      yield [pronounNp(p, role), i + 1];
  }
  const dets = [];
  if (t[i] === 'the') dets.push({ kind: 'the' });
  if (t[i] === 'a' || t[i] === 'an') dets.push({ kind: 'a' });
  if (t[i] === 'some') dets.push({ kind: 'some' });
  if (t[i] === 'this' || t[i] === 'these') dets.push({ kind: 'this' });
  if (POSS_BY.has(t[i])) dets.push({ kind: 'poss', person: POSS_BY.get(t[i]) });
  for (const det of dets) {
    for (const [np, j] of nounTail(t, i + 1, det, role)) {
      yield* withRel(t, np, j, rel);
      // a possessor: "the man 's dog"
      if (possessor && t[j] === "'s" && !np.plural) {
        for (const [head, k] of nounTail(t, j + 1, null, role)) {
          yield* withRel(t, { ...head, possessor: { ...np, role } }, k, rel);
        }
      }
    }
  }
}

function* nounTail(t, i, det, role) {
  const adjs = [];
  let j = i;
  for (;;) {
    for (const { noun, plural } of NOUN_BY.get(t[j]) ?? [])
      yield [{ noun, plural, det, adjs: adjs.slice(), role }, j + 1];
    if (!ADJ_BY.has(t[j]) || adjs.length >= 3) return;
    adjs.push(ADJ_BY.get(t[j]));
    j++;
  }
}

function* withRel(t, np, j, rel) {
  yield [np, j];
  if (!rel || !np.noun || (t[j] !== 'that' && t[j] !== 'who')) return;
  const word = t[j];
  const p = personOf(np);
  for (const [pred, k] of parsePred(t, j + 1, p, { say: false, relHead: true }))
    yield [{ ...np, rel: { kind: 'subj', word, pred } }, k];
  if (word === 'that') {
    for (const [subj, k] of parseNp(t, j + 1, { role: 'subj', rel: false, possessor: false })) {
      for (const [vg, m] of parseVerbGroup(t, k, TRANSITIVE)) {
        if (vg.verb === 'be') continue;
        yield [
          { ...np, rel: { kind: 'obj', word, subj, verb: vg.verb, tense: vg.tense, neg: vg.neg } },
          m,
        ];
      }
    }
  }
}

/** The verb group: every reading { verb, tense, neg } and its end (agreement is checked by rendering). */
function* parseVerbGroup(t, i, verbs, { be = false } = {}) {
  const negAt = (j) => (t[j] === 'not' || t[j] === "n't" ? t[j] : null);
  // present, do-support negation
  if (t[i] === 'do' || t[i] === 'does') {
    const neg = negAt(i + 1);
    if (neg)
      for (const v of verbs)
        if (v.en.base === t[i + 2]) yield [{ verb: v, tense: 'present', neg }, i + 3];
  }
  for (const v of verbs)
    if (v.en.s3 === t[i] || v.en.base === t[i])
      yield [{ verb: v, tense: 'present', neg: null }, i + 1];
  if (t[i] === 'have' || t[i] === 'has') {
    const neg = negAt(i + 1);
    const j = neg ? i + 2 : i + 1;
    for (const v of verbs) if (v.en.pp === t[j]) yield [{ verb: v, tense: 'past', neg }, j + 1];
    if (be && t[j] === 'been') yield [{ verb: 'be', tense: 'past', neg }, j + 1];
  }
  if (be && (t[i] === 'am' || t[i] === 'is' || t[i] === 'are')) {
    const neg = negAt(i + 1);
    yield [{ verb: 'be', tense: 'present', neg }, neg ? i + 2 : i + 1];
  }
}

function* parsePred(t, i, p, { say = true, relHead = false } = {}) {
  for (const [vg, j] of parseVerbGroup(t, i, [...VERBS, ...(say ? SAY_VERBS : [])], { be: true })) {
    if (vg.verb === 'be') {
      if (ADJ_BY.has(t[j]))
        yield [{ kind: 'copula', tense: vg.tense, neg: vg.neg, adj: ADJ_BY.get(t[j]) }, j + 1];
    } else if (SAY_VERBS.includes(vg.verb)) {
      if (t[j] === 'that')
        for (const [c, k] of parseClause(t, j + 1, 1)) yield [{ kind: 'say', ...vg, clause: c }, k];
    } else if (vg.verb.transitive) {
      for (const [obj, k] of parseNp(t, j, { role: 'obj', rel: !relHead }))
        yield [{ kind: 'trans', ...vg, obj }, k];
    } else {
      yield [{ kind: 'intrans', ...vg }, j];
    }
  }
}

function* parseClause(t, i, depth = 0) {
  for (const [subj, j] of parseNp(t, i, { role: 'subj' })) {
    for (const [pred, k] of parsePred(t, j, personOf(subj), { say: depth === 0 })) {
      yield [{ subj, pred, pps: [] }, k];
      if (pred.kind !== 'say' && PREP_BY.has(t[k])) {
        for (const [np, m] of parseNp(t, k + 1, { role: 'obj', rel: false, allowPronoun: false }))
          yield [{ subj, pred, pps: [{ prep: PREP_BY.get(t[k]), np }] }, m];
      }
    }
  }
}

function* parseSentence(t, i, clauses, conjs) {
  for (const [c, j] of parseClause(t, i)) {
    if (j === t.length) yield { clauses: [...clauses, c], conjs, end: '' };
    else if (ENDS.has(t[j]) && j === t.length - 1)
      yield { clauses: [...clauses, c], conjs, end: t[j] };
    else if (CONJ_BY.has(t[j]) && clauses.length < 3)
      yield* parseSentence(t, j + 1, [...clauses, c], [...conjs, CONJ_BY.get(t[j])]);
  }
}

/**
 * The generator's record for an English sentence typed by hand (tokens as the tokenizer splits
 * them; ending in ".", "?", "!" or no mark at all), or null when the grammar cannot produce it (an
 * unknown word, or an order the generator never writes). Cheap enough to run on every keystroke:
 * the readings are cut at 2,000.
 * @param {string[]} tokens
 */
export function parseEnglishTokens(tokens) {
  const t = tokens.slice();
  if (t.length > 40) return null;
  let n = 0;
  for (const tree of parseSentence(t, 0, [], [])) {
    if (++n > 2000) break;
    const ex = render(tree);
    if (ex.srcTokens.join(' ') === t.join(' ')) return ex;
  }
  return null;
}

export const PARSE_STEPS = normalizeSteps(TRANSLATION_NORMALIZE);

/** parseEnglishTokens on raw text, normalised as the models read it. */
export function parseEnglish(text) {
  return parseEnglishTokens(normalizeWords(String(text), PARSE_STEPS));
}
