// attnlab/web/data/translation.js: seeded English → French sentence pairs with the gold word
// alignment, for the translation models (Bahdanau et al. 2015; Luong et al. 2015), shared by the
// trainer (scripts/train/translation.mjs) and the page. ESM, no DOM, no dependency.
//
//   generateTranslation({ seed: 1, count: 2, split: 'train' })
//   // [{ src: 'my brother\'s dog likes the white house .', tgt: 'le chien de mon frère aime la maison blanche .',
//   //    srcTokens: [...], tgtTokens: [...], alignment: [[5], [1], [2], [0], [1], ...], tags: [[...], ...],
//   //    phenomena: ['possessive', 'adjective-after'], length: 8 }, ...]
//   parseEnglish('She sees him.')   // the same record for a sentence typed by hand, or null
//   translationDomain('him sees she')   // [{ code: 'grammar' }]: what the page warns about
//
// Every example is a tree (clauses, noun phrases, verbs) rendered twice: English first, then
// French, each French token naming the English tokens it translates. So alignment[j] lists the
// indices into srcTokens of French token j (never empty: a French word without an English
// counterpart is aligned to the word that calls for it: the article of "le chien de mon frère"
// to 's, "de" after a negation to the English article it replaces). English words may be left
// unaligned (the "do" of "do not"). tags[j] names the phenomena French token j takes part in
// (PHENOMENA); phenomena lists those of the sentence.
//
// Tokens are what TRANSLATION_TOKENIZER's normalisation makes of the text: lowercase, punctuation
// apart, 's and n't split off in English ("brother's" → brother 's), French elisions split after
// the apostrophe (n'aiment → n' aiment) and joined again when the tokenizer decodes. length is the
// number of English tokens that are not punctuation (3 to 30).
// Split: held out when hash(src) % 10 == 0 (web/data/common.js), so train and held-out sentences
// never meet. parseEnglish reads the grammar back (backtracking over the same tree types), so the
// page can draw the gold alignment over any sentence the generator could have written.
// Not here: the words (translation-lexicon.js), the metrics (web/shared/translation-metrics.js).

import {
  NOUNS,
  ADJECTIVES,
  VERBS,
  PERSONS,
  ETRE,
  AVOIR,
  PREPOSITIONS,
  CONJUNCTIONS,
  SAY_VERBS,
  vowelInitial,
} from './translation-lexicon.js';
import { splitStream, sampleSplit, checkCommon, checkInt, pick } from './common.js';
import { normalizeSteps, normalizeWords } from '../../wasm/model/normalize.js';

export { NOUNS, ADJECTIVES, VERBS, PERSONS };

/** The phenomena a French token can take part in (the table, plus clause links). */
export const PHENOMENA = Object.freeze([
  'adjective-after',
  'adjective-before',
  'adjectives-reversed',
  'possessive',
  'negation',
  'object-pronoun',
  'compound-past',
  'elision',
  'contraction',
  'subordinate',
]);
export const MIN_WORDS = 3;
export const MAX_WORDS = 30;
/** The marks a sentence may end with (or none). */
const ENDS = new Set(['.', '?', '!']);
/** The normalisation both sides were written in (wasm/model/normalize.js). */
export const TRANSLATION_NORMALIZE = Object.freeze([
  'nfc',
  'quotes',
  'lowercase',
  'whitespace',
  'punctuation',
  'contractions',
  'elision',
]);

// ---------------------------------------------------------------- rendering a tree
// E: English tokens (strings). F: French tokens { w, src: number[], tags: Set<string>, det?, vowel? }.

class Out {
  constructor() {
    this.en = [];
    this.fr = [];
  }
  e(w) {
    this.en.push(w);
    return this.en.length - 1;
  }
  f(w, src, ...tags) {
    const t = { w, src: Array.isArray(src) ? src : [src], tags: new Set(tags.filter(Boolean)) };
    this.fr.push(t);
    return t;
  }
}

const an = (w) => (/^[aeiou]/.test(w) && !/^(eu|uni)/.test(w) ? 'an' : 'a');
const adjForm = (a, gender, plural) => a.forms[(gender === 'f' ? 'f' : 'm') + (plural ? 'p' : 's')];
const partForm = (p, gender, plural) =>
  p + (gender === 'f' ? 'e' : '') + (plural && !(gender !== 'f' && p.endsWith('s')) ? 's' : '');
const personOf = (np) =>
  np.pronoun
    ? np.pronoun
    : {
        fr: { form: np.plural ? 'ils' : 'il' },
        en: np.plural
          ? { be: 'are', have: 'have', do: 'do' }
          : { be: 'is', have: 'has', do: 'does' },
        gender: np.noun.gender,
        plural: np.plural,
        third: true,
      };
const genderOf = (np) => (np.pronoun ? np.pronoun.gender : np.noun.gender);

/** English of a noun phrase; records the indices it needs on the node (np._). */
function npEn(o, np) {
  if (np.pronoun) {
    np._ = { head: o.e(np.role === 'obj' ? np.pronoun.en.obj : np.pronoun.en.subj) };
    return;
  }
  /** @type {{ s?: number, det?: number, adjs?: number[], head?: number }} */
  const _ = {};
  np._ = _;
  if (np.possessor) {
    npEn(o, np.possessor);
    _.s = o.e("'s");
  } else {
    const d = np.det;
    const first = np.adjs.length ? np.adjs[0].en : np.plural ? np.noun.enPlural : np.noun.en;
    const w =
      d.kind === 'the'
        ? 'the'
        : d.kind === 'a'
          ? an(first)
          : d.kind === 'some'
            ? 'some'
            : d.kind === 'this'
              ? np.plural
                ? 'these'
                : 'this'
              : d.person.en.poss;
    _.det = o.e(w);
  }
  _.adjs = np.adjs.map((a) => o.e(a.en));
  _.head = o.e(np.plural ? np.noun.enPlural : np.noun.en);
  if (np.rel) relEn(o, np.rel, np);
}

/** French of a noun phrase (after npEn). negDe: an indefinite article becomes "de" (after ne … pas). */
function npFr(o, np, { negDe = false } = {}) {
  const _ = np._;
  if (np.pronoun) {
    o.f(np.pronoun.fr.subj, _.head);
    return;
  }
  const g = np.noun.gender,
    pl = np.plural;
  const pre = np.adjs.filter((a) => a.pre),
    post = np.adjs.filter((a) => !a.pre);
  const tagPre = pre.length ? 'adjective-before' : null;
  const tagPost = post.length ? 'adjective-after' : null;
  const tagRev = post.length > 1 ? 'adjectives-reversed' : null;
  const poss = np.possessor ? 'possessive' : null;
  // the article
  if (np.possessor) {
    o.f(pl ? 'les' : g === 'f' ? 'la' : 'le', _.s, poss).det = true;
  } else {
    const d = np.det;
    let w;
    if ((d.kind === 'a' || d.kind === 'some') && negDe) w = 'de';
    else if (d.kind === 'the') w = pl ? 'les' : g === 'f' ? 'la' : 'le';
    else if (d.kind === 'a') w = g === 'f' ? 'une' : 'un';
    else if (d.kind === 'some') w = 'des';
    else if (d.kind === 'this') w = pl ? 'ces' : g === 'f' ? 'cette' : 'ce';
    else w = d.person.fr.poss[pl ? 2 : g === 'f' ? 1 : 0];
    const t = o.f(w, _.det, negDe && w === 'de' ? 'negation' : null);
    t.det = true;
    t.fem = g === 'f' && !pl;
  }
  pre.forEach((a) => {
    const t = o.f(adjForm(a, g, pl), _.adjs[np.adjs.indexOf(a)], tagPre, poss);
    if (g === 'm' && !pl) t.vowel = a.forms.vowel;
  });
  o.f(pl ? np.noun.frPlural : np.noun.fr, _.head, tagPre, tagPost, tagRev, poss);
  // several adjectives after the noun come in the reverse of the English order
  for (let i = post.length - 1; i >= 0; i--)
    o.f(adjForm(post[i], g, pl), _.adjs[np.adjs.indexOf(post[i])], tagPost, tagRev, poss);
  if (np.possessor) {
    o.f('de', _.s, poss);
    const start = o.fr.length;
    npFr(o, np.possessor);
    for (let i = start; i < o.fr.length; i++) o.fr[i].tags.add('possessive');
  }
  if (np.rel) relFr(o, np.rel, np);
}

/** English of a verb group: subject person p, tense, negation; returns { aux, not, verb } indices. */
function verbEn(o, p, v, tense, neg) {
  const r = {};
  if (v === 'be') {
    if (tense === 'past') {
      r.aux = o.e(p.en.have);
      if (neg) r.not = o.e(neg);
      r.verb = o.e('been');
    } else {
      r.verb = o.e(p.en.be);
      if (neg) r.not = o.e(neg);
    }
    return r;
  }
  const third = p.third ? !p.plural : p.en.be === 'is';
  if (tense === 'past') {
    r.aux = o.e(p.en.have);
    if (neg) r.not = o.e(neg);
    r.verb = o.e(v.en.pp);
  } else if (neg) {
    o.e(p.en.do); // "do" has no French counterpart
    r.not = o.e(neg);
    r.verb = o.e(v.en.base);
  } else {
    r.verb = o.e(third ? v.en.s3 : v.en.base);
  }
  return r;
}

/** French of a verb group (after verbEn): [ne] [object pronoun] verb-or-aux [pas] [participle]. */
function verbFr(o, p, v, tense, idx, { objPron = null, agree = null } = {}) {
  const form = p.fr.form;
  const neg = idx.not !== undefined;
  const past = tense === 'past';
  const tagPast = past ? 'compound-past' : null;
  if (neg) o.f('ne', idx.not, 'negation');
  if (objPron) o.f(objPron.pronoun.fr.obj, objPron._.head, 'object-pronoun');
  const op = objPron ? 'object-pronoun' : null;
  if (v === 'be') {
    if (past) {
      o.f(AVOIR[form], idx.aux, tagPast, op);
      if (neg) o.f('pas', idx.not, 'negation');
      o.f(ETRE.part, idx.verb, tagPast);
    } else {
      o.f(ETRE[form], idx.verb, op);
      if (neg) o.f('pas', idx.not, 'negation');
    }
    return;
  }
  if (past) {
    o.f(AVOIR[form], idx.aux, tagPast, op);
    if (neg) o.f('pas', idx.not, 'negation');
    o.f(agree ? partForm(v.fr.part, agree.gender, agree.plural) : v.fr.part, idx.verb, tagPast, op);
  } else {
    o.f(v.fr[form], idx.verb, op);
    if (neg) o.f('pas', idx.not, 'negation');
  }
}

/** A clause: subj (NP), pred { kind: 'trans'|'intrans'|'copula'|'say', verb, tense, neg, obj?, adj?, clause? }, pps. */
/** English of a predicate (verb group and what follows it) for the subject person p. */
function predEn(o, p, pr) {
  pr._ = verbEn(o, p, pr.kind === 'copula' ? 'be' : pr.verb, pr.tense, pr.neg);
  if (pr.kind === 'trans') npEn(o, pr.obj);
  else if (pr.kind === 'copula') pr._.adj = o.e(pr.adj.en);
  else if (pr.kind === 'say') {
    pr._.that = o.e('that');
    clauseEn(o, pr.clause);
  }
}

/** French of a predicate (after predEn); gender: the subject's, for a predicative adjective. */
function predFr(o, p, pr, gender) {
  if (pr.kind === 'trans') {
    const objPron = pr.obj.pronoun ? pr.obj : null;
    verbFr(o, p, pr.verb, pr.tense, pr._, {
      objPron,
      agree: objPron ? { gender: objPron.pronoun.gender, plural: objPron.pronoun.plural } : null,
    });
    if (!objPron) npFr(o, pr.obj, { negDe: !!pr.neg });
  } else if (pr.kind === 'copula') {
    verbFr(o, p, 'be', pr.tense, pr._);
    o.f(adjForm(pr.adj, gender, p.plural), pr._.adj);
  } else {
    verbFr(o, p, pr.verb, pr.tense, pr._);
    if (pr.kind === 'say') {
      o.f('que', pr._.that, 'subordinate');
      clauseFr(o, pr.clause);
    }
  }
}

function clauseEn(o, c) {
  npEn(o, c.subj);
  predEn(o, personOf(c.subj), c.pred);
  for (const pp of c.pps) ppEn(o, pp);
}

function clauseFr(o, c) {
  npFr(o, c.subj);
  predFr(o, personOf(c.subj), c.pred, genderOf(c.subj));
  for (const pp of c.pps) ppFr(o, pp);
}

/** Relative clause on np: { kind: 'subj', word, pred } ("the dog that sees the cat") or
 * { kind: 'obj', subj, verb, tense, neg } ("the cat that the dog sees"). */
function relEn(o, rel, head) {
  rel._ = { that: o.e(rel.word) };
  if (rel.kind === 'subj') {
    predEn(o, personOf(head), rel.pred);
  } else {
    npEn(o, rel.subj);
    rel.v_ = verbEn(o, personOf(rel.subj), rel.verb, rel.tense, rel.neg);
  }
}

function relFr(o, rel, head) {
  if (rel.kind === 'subj') {
    o.f('qui', rel._.that, 'subordinate');
    predFr(o, personOf(head), rel.pred, head.noun.gender);
  } else {
    o.f('que', rel._.that, 'subordinate');
    npFr(o, rel.subj);
    // the relative pronoun is a direct object before avoir: the participle agrees with the head
    verbFr(o, personOf(rel.subj), rel.verb, rel.tense, rel.v_, {
      agree: { gender: head.noun.gender, plural: head.plural },
    });
  }
}

function ppEn(o, pp) {
  pp._ = o.e(pp.prep.en);
  npEn(o, pp.np);
}
function ppFr(o, pp) {
  for (const w of pp.prep.fr) o.f(w, pp._);
  npFr(o, pp.np);
}

function sentenceEn(o, s) {
  s._ = [];
  s.clauses.forEach((c, i) => {
    if (i > 0) s._.push(o.e(s.conjs[i - 1].en));
    clauseEn(o, c);
  });
  if (s.end) s._.push(o.e(s.end));
}

function sentenceFr(o, s) {
  s.clauses.forEach((c, i) => {
    if (i > 0) for (const w of s.conjs[i - 1].fr) o.f(w, s._[i - 1], 'subordinate');
    clauseFr(o, c);
  });
  if (s.end) o.f(s.end, s._.at(-1));
}

// ---------------------------------------------------------------- French spelling rules

const ELIDE = new Map([
  ['le', "l'"],
  ['la', "l'"],
  ['je', "j'"],
  ['me', "m'"],
  ['te', "t'"],
  ['se', "s'"],
  ['ne', "n'"],
  ['de', "d'"],
  ['que', "qu'"],
]);
const VOWEL_POSS = new Map([
  ['ma', 'mon'],
  ['ta', 'ton'],
  ['sa', 'son'],
]);
const CONTRACT = new Map([
  ['de le', 'du'],
  ['de les', 'des'],
  ['à le', 'au'],
  ['à les', 'aux'],
]);

/** The French spelling rules over a token list: elision, mon/cet/bel before a vowel, du/des/au/aux. */
export function frenchRules(fr) {
  let t = fr.map((x) => ({ ...x, tags: new Set(x.tags) }));
  const next = (i) => t[i + 1]?.w ?? '';
  // 1. articles and the pre-noun adjectives before a vowel
  for (let i = 0; i < t.length; i++) {
    const v = vowelInitial(next(i));
    if (!v) continue;
    const x = t[i];
    if (x.w === 'le' || x.w === 'la') {
      x.w = "l'";
      x.tags.add('elision');
    } else if (x.det && VOWEL_POSS.has(x.w)) x.w = VOWEL_POSS.get(x.w);
    else if (x.det && x.w === 'ce') x.w = 'cet';
    else if (x.vowel) x.w = x.vowel;
  }
  // 2. de / à + the article le / les
  const out = [];
  for (let i = 0; i < t.length; i++) {
    const x = t[i],
      y = t[i + 1];
    const key = y && y.det ? `${x.w} ${y.w}` : '';
    if (CONTRACT.has(key)) {
      out.push({
        w: CONTRACT.get(key),
        src: [...new Set([...x.src, ...y.src])].sort((a, b) => a - b),
        tags: new Set([...x.tags, ...y.tags, 'contraction']),
      });
      i++;
    } else out.push(x);
  }
  t = out;
  // 3. the other elisions (de, que, ne, je, me), si → s' before il / ils
  for (let i = 0; i < t.length; i++) {
    const x = t[i];
    if (ELIDE.has(x.w) && x.w !== 'le' && x.w !== 'la' && vowelInitial(next(i))) {
      x.w = ELIDE.get(x.w);
      x.tags.add('elision');
    } else if (x.w === 'si' && (next(i) === 'il' || next(i) === 'ils')) {
      x.w = "s'";
      x.tags.add('elision');
    }
  }
  return t;
}

/** French tokens → text: an elided token (ending in ') joins the next one. */
export function joinFrench(tokens) {
  let s = '';
  tokens.forEach((w, i) => {
    s += w + (i < tokens.length - 1 && !w.endsWith("'") ? ' ' : '');
  });
  return s;
}

/** English tokens → text: 's and n't join the word before. */
export function joinEnglish(tokens) {
  let s = '';
  tokens.forEach((w, i) => {
    s += (i > 0 && w !== "'s" && w !== "n't" ? ' ' : '') + w;
  });
  return s;
}

/** A tree → the example record (see the header). */
export function render(tree) {
  const o = new Out();
  sentenceEn(o, tree);
  sentenceFr(o, tree);
  const fr = frenchRules(o.fr);
  const srcTokens = o.en,
    tgtTokens = fr.map((x) => x.w);
  const tags = fr.map((x) => PHENOMENA.filter((p) => x.tags.has(p)));
  return {
    src: joinEnglish(srcTokens),
    tgt: joinFrench(tgtTokens),
    srcTokens,
    tgtTokens,
    alignment: fr.map((x) => x.src.slice()),
    tags,
    phenomena: PHENOMENA.filter((p) => tags.some((ts) => ts.includes(p))),
    length: srcTokens.filter((w) => /[\p{L}']/u.test(w)).length,
  };
}

// ---------------------------------------------------------------- sampling trees

const TRANSITIVE = VERBS.filter((v) => v.transitive);
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

const pronounNp = (person, role) => ({ pronoun: person, role });
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
function sampleTree(r, target) {
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

/**
 * count examples of one split. Options: seed, split ('train' | 'heldout'), minWords / maxWords
 * (English words, 3..30; each draw aims at a length drawn uniformly in the range and is kept when
 * it lands inside it).
 */
export function generateTranslation({
  seed = 0,
  count = 1000,
  split = 'train',
  minWords = MIN_WORDS,
  maxWords = MAX_WORDS,
} = {}) {
  const name = 'generateTranslation';
  checkCommon(name, { seed, count, split });
  checkInt(name, 'minWords', minWords, MIN_WORDS, MAX_WORDS);
  checkInt(name, 'maxWords', maxWords, minWords, MAX_WORDS);
  const rand = splitStream(seed, split);
  const make = (r) => {
    for (;;) {
      const target = minWords + Math.floor(r() * (maxWords - minWords + 1));
      const ex = render(sampleTree(r, target));
      if (ex.length >= minWords && ex.length <= maxWords) return ex;
    }
  };
  return sampleSplit(name, rand, count, split, make, splitKey);
}

/** The split's key: the sentence without its final mark, so "she sees him ." and "she sees him"
 * always fall in the same split. */
function splitKey(ex) {
  return ENDS.has(ex.srcTokens.at(-1))
    ? ex.srcTokens.slice(0, -1).join(' ')
    : ex.srcTokens.join(' ');
}

// ---------------------------------------------------------------- vocabularies

function frenchForms() {
  const out = new Set();
  const add = (...ws) => ws.forEach((w) => out.add(w));
  for (const n of NOUNS) add(n.fr, n.frPlural);
  for (const a of ADJECTIVES) add(...Object.values(a.forms));
  for (const v of [...VERBS, ...SAY_VERBS]) {
    const f = v.fr;
    add(f.je, f.vous, f.il, f.nous, f.ils);
    for (const g of ['m', 'f']) for (const pl of [false, true]) add(partForm(f.part, g, pl));
  }
  for (const p of PERSONS) add(p.fr.subj, p.fr.obj, ...p.fr.poss);
  add(...Object.values(ETRE), ...Object.values(AVOIR));
  for (const x of [...PREPOSITIONS, ...CONJUNCTIONS]) add(...x.fr);
  add(
    'le',
    'la',
    'les',
    'un',
    'une',
    'des',
    'de',
    'ce',
    'cet',
    'cette',
    'ces',
    'ne',
    'pas',
    'qui',
    'que',
    'du',
    'au',
    'aux',
    'ton',
    ...ENDS,
  );
  add(...ELIDE.values(), "s'");
  return [...out];
}

function englishForms() {
  const out = new Set();
  const add = (...ws) => ws.forEach((w) => out.add(w));
  for (const n of NOUNS) add(n.en, n.enPlural);
  for (const a of ADJECTIVES) add(a.en);
  for (const v of [...VERBS, ...SAY_VERBS]) add(v.en.base, v.en.s3, v.en.pp);
  for (const p of PERSONS) add(...Object.values(p.en));
  for (const x of [...PREPOSITIONS, ...CONJUNCTIONS]) add(x.en);
  add(
    'the',
    'a',
    'an',
    'some',
    'this',
    'these',
    'not',
    "n't",
    "'s",
    'is',
    'are',
    'am',
    'has',
    'been',
    'does',
    'that',
    'who',
    ...ENDS,
  );
  return [...out];
}

/** The English words the generator writes (sorted). */
export const ENGLISH_WORDS = Object.freeze(englishForms().sort());
/** The French tokens it writes (sorted). */
export const FRENCH_TOKENS = Object.freeze(frenchForms().sort());

/** The tokenizer of the translation models (word level, both sides normalised as written here). */
export const TRANSLATION_TOKENIZER = Object.freeze({
  type: 'word',
  srcVocab: Object.freeze(['<pad>', '<unk>', ...ENGLISH_WORDS]),
  tgtVocab: Object.freeze(['<pad>', '<s>', '</s>', '<unk>', ...FRENCH_TOKENS]),
  pad: '<pad>',
  bos: '<s>',
  eos: '</s>',
  unk: '<unk>',
  normalize: TRANSLATION_NORMALIZE,
});

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

const PARSE_STEPS = normalizeSteps(TRANSLATION_NORMALIZE);

/** parseEnglishTokens on raw text, normalised as the models read it. */
export function parseEnglish(text) {
  return parseEnglishTokens(normalizeWords(String(text), PARSE_STEPS));
}

const KNOWN = new Set(ENGLISH_WORDS);

/**
 * What lies outside the translators' domain in typed English, so the page can say it next to a
 * confident translation: [] when the generator could have written the sentence (or it is empty);
 * else problems, in this order: { code: 'unknown-words', words } (not in ENGLISH_WORDS, each
 * once, as normalised), { code: 'too-long', count, max } (count words, more than MAX_WORDS), and
 * { code: 'grammar' } when every word is known but the grammar cannot write the sentence (an
 * order or construction it never uses).
 * @param {string} text
 */
export function translationDomain(text) {
  const tokens = normalizeWords(String(text), PARSE_STEPS);
  if (tokens.length === 0) return [];
  const out = [];
  const unknown = [...new Set(tokens.filter((w) => !KNOWN.has(w)))];
  if (unknown.length) out.push({ code: 'unknown-words', words: unknown });
  const count = tokens.filter((w) => /[\p{L}']/u.test(w)).length;
  if (count > MAX_WORDS) out.push({ code: 'too-long', count, max: MAX_WORDS });
  if (out.length === 0 && !parseEnglishTokens(tokens)) out.push({ code: 'grammar' });
  return out;
}

/** Sentences that show each phenomenon (translation-examples.js, off the page's critical path):
 * the Examples menu of the translation models and the hand-written check; every one parses. */
export { TRANSLATION_EXAMPLES } from './translation-examples.js';
