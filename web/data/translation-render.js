// attnlab/web/data/translation-render.js: what an English → French example is made of (the
// phenomena a French token can take part in, the length bounds, the end marks, the normalisation
// both sides are written in) and how a sentence tree becomes one: rendered in English, then in
// French with each French token naming the English tokens it translates, then the French spelling
// rules (elision, contraction, possessives before a vowel). Trees in, tokens out: drawing trees is
// translation-sample.js, reading English back into a tree translation-parse.js, the public API
// and the vocabularies translation.js.

import { AVOIR, ETRE, vowelInitial } from './translation-lexicon.js';

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
export const ENDS = new Set(['.', '?', '!']);
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
export const partForm = (p, gender, plural) =>
  p + (gender === 'f' ? 'e' : '') + (plural && !(gender !== 'f' && p.endsWith('s')) ? 's' : '');
export const personOf = (np) =>
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

export const ELIDE = new Map([
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
