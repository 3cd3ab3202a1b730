// attnlab/web/data/translation-sample.js: drawing a random sentence tree (clauses, noun phrases,
// relative clauses, verbs with tense and negation) that aims at a number of English words, from
// the words of translation-lexicon.js. Trees only: rendering them is translation-render.js, the
// seeded splits and generateTranslation translation.js.

import {
  ADJECTIVES,
  CONJUNCTIONS,
  NOUNS,
  PERSONS,
  PREPOSITIONS,
  SAY_VERBS,
  VERBS,
} from './translation-lexicon.js';
import { pick } from './common.js';

// ---------------------------------------------------------------- sampling trees

export const TRANSITIVE = VERBS.filter((v) => v.transitive);
const INTRANSITIVE = VERBS.filter((v) => !v.transitive);
const ANIMATE = NOUNS.filter((n) => n.cls === 'a');
const chance = (r, p) => r() < p;

function sampleAdjs(r, noun, k) {
  const fits = ADJECTIVES.filter((a) => a.classes.includes(noun.cls));
  const out = [];
  for (let tries = 0; out.length < k && tries < 20; tries++) {
    const a = pick(r, fits);
    // one adjective per English slot and French side, at most two before the noun
    if (out.some((b) => b.order === a.order) || (a.pre && out.filter((b) => b.pre).length >= 1))
      continue;
    out.push(a);
  }
  return out.sort((a, b) => a.order - b.order);
}

/** A noun phrase; size 0 (bare) .. 3 (adjectives, possessor, relative clause allowed). */
function sampleNp(r, size, { animate = false, role = 'subj', noIndef = false, rel = true } = {}) {
  const noun = pick(r, animate ? ANIMATE : NOUNS);
  const plural = !noun.mass && chance(r, 0.3);
  let det;
  const u = r();
  if (u < 0.45 || (noun.mass && u < 0.7)) det = { kind: 'the' };
  else if (u < 0.7 && !noIndef && !noun.mass) det = { kind: plural ? 'some' : 'a' };
  else if (u < 0.85) det = { kind: 'poss', person: pick(r, PERSONS) };
  else det = { kind: u < 0.92 || noIndef ? 'the' : 'this' };
  const nAdj = size <= 0 ? 0 : chance(r, 0.55) ? (chance(r, 0.3 * size) ? 2 : 1) : 0;
  const np = { noun, plural, det, adjs: sampleAdjs(r, noun, nAdj), role };
  if (size >= 1 && chance(r, 0.12 * size)) {
    np.possessor = {
      noun: pick(r, ANIMATE),
      plural: false,
      det: chance(r, 0.6) ? { kind: 'poss', person: pick(r, PERSONS) } : { kind: 'the' },
      adjs: [],
      role,
    };
    np.possessor.adjs = chance(r, 0.25) ? sampleAdjs(r, np.possessor.noun, 1) : [];
    np.det = null;
  }
  if (rel && size >= 2 && chance(r, 0.25 * (size - 1))) np.rel = sampleRel(r, np);
  return np;
}

export const pronounNp = (person, role) => ({ pronoun: person, role });
const sampleTense = (r) => (chance(r, 0.3) ? 'past' : 'present');
const sampleNeg = (r, tense, be) =>
  chance(r, 0.25) ? (chance(r, 0.35) && !(be && tense !== 'past') ? "n't" : 'not') : null;

function sampleRel(r, head) {
  const tense = sampleTense(r);
  if (chance(r, 0.5)) {
    const word = head.noun.cls === 'a' && chance(r, 0.4) ? 'who' : 'that';
    const u = r();
    let pred;
    if (u < 0.6)
      pred = {
        kind: 'trans',
        verb: pick(r, TRANSITIVE),
        tense,
        neg: sampleNeg(r, tense),
        obj: sampleNp(r, 1, { role: 'obj', rel: false }),
      };
    else if (u < 0.8)
      pred = { kind: 'intrans', verb: pick(r, INTRANSITIVE), tense, neg: sampleNeg(r, tense) };
    else {
      const adj = pick(
        r,
        ADJECTIVES.filter((a) => !a.pre && a.classes.includes(head.noun.cls)),
      );
      pred = { kind: 'copula', tense, neg: sampleNeg(r, tense, true), adj };
    }
    return { kind: 'subj', word, pred };
  }
  const subj = chance(r, 0.5)
    ? pronounNp(pick(r, PERSONS), 'subj')
    : sampleNp(r, 0, { animate: true, rel: false });
  return {
    kind: 'obj',
    word: 'that',
    subj,
    verb: pick(r, TRANSITIVE),
    tense,
    neg: sampleNeg(r, tense),
  };
}

/** A clause of about `size` (0 short .. 3 long). */
function sampleClause(r, size, depth = 0) {
  const subj = chance(r, 0.35)
    ? pronounNp(pick(r, PERSONS), 'subj')
    : sampleNp(r, size, { animate: chance(r, 0.7) });
  const tense = sampleTense(r);
  const u = r();
  let pred;
  if (u < 0.62) {
    const obj = chance(r, 0.2)
      ? pronounNp(
          pick(
            r,
            PERSONS.filter((p) => !subj.pronoun || p !== subj.pronoun),
          ),
          'obj',
        )
      : sampleNp(r, size, { role: 'obj' });
    pred = { kind: 'trans', verb: pick(r, TRANSITIVE), tense, neg: sampleNeg(r, tense), obj };
  } else if (u < 0.77) {
    pred = { kind: 'intrans', verb: pick(r, INTRANSITIVE), tense, neg: sampleNeg(r, tense) };
  } else if (u < 0.92 || depth > 0) {
    const cls = subj.pronoun ? 'a' : subj.noun.cls;
    pred = {
      kind: 'copula',
      tense,
      neg: sampleNeg(r, tense, true),
      adj: pick(
        r,
        ADJECTIVES.filter((a) => a.classes.includes(cls)),
      ),
    };
  } else {
    pred = {
      kind: 'say',
      verb: pick(r, SAY_VERBS),
      tense,
      neg: sampleNeg(r, tense),
      clause: sampleClause(r, Math.max(0, size - 1), depth + 1),
    };
  }
  const pps = [];
  if (size >= 1 && pred.kind !== 'say' && chance(r, 0.3)) {
    const prep = pick(r, PREPOSITIONS);
    const deLike = prep.fr.at(-1) === 'de';
    pps.push({ prep, np: sampleNp(r, size - 1, { role: 'obj', noIndef: deLike, rel: false }) });
  }
  return { subj, pred, pps };
}

/** A sentence tree aiming at about `target` English words. */
export function sampleTree(r, target) {
  const nClauses =
    target <= 9 ? 1 : target <= 18 ? (chance(r, 0.5) ? 1 : 2) : chance(r, 0.5) ? 2 : 3;
  const per = target / nClauses;
  const size = per <= 4 ? 0 : per <= 7 ? 1 : per <= 11 ? 2 : 3;
  const clauses = [],
    conjs = [];
  for (let i = 0; i < nClauses; i++) {
    if (i > 0) conjs.push(pick(r, CONJUNCTIONS));
    clauses.push(sampleClause(r, size));
  }
  return { clauses, conjs, end: sampleEnd(r) };
}

/** The sentence's last token: "." mostly; "?", "!" or none (people do not always type one). */
function sampleEnd(r) {
  const u = r();
  return u < 0.7 ? '.' : u < 0.85 ? '' : u < 0.925 ? '?' : '!';
}
