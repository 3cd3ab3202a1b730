// attnlab/web/data/agreement-lexicon.js: the words of the agreement grammar (agreement.js): nouns
// with their number forms and kinds, adjectives, prepositions, verbs by form (present, past,
// -ing, participle) with the map from each verb form to its other-number form, gathered in
// BASE_LEXICON; and agreementLexicon(), the same lexicon widened with words from the Brown corpus
// (web/data/brown.js brownLexicon) for the agreement LMs' training text. Words only: the grammar
// that combines them, the generators and the parser are agreement.js.
//
//   import { agreementLexicon, lexiconWords } from './data/agreement.js';   // re-exported there
//   lexiconWords(agreementLexicon({ nouns: [['river', 'rivers']] }));

// ---- the lexicon ------------------------------------------------------------------------------

/** Nouns: [singular, plural, kind]; null where a form does not exist. kind: who can do what. */
export const NOUNS = [
  ['fbi', null, 'org'],
  [null, 'police', 'org'],
  ['officer', 'officers', 'person'],
  ['criminal', 'criminals', 'person'],
  ['reporter', 'reporters', 'person'],
  ['agent', 'agents', 'person'],
  ['detective', 'detectives', 'person'],
  ['driver', 'drivers', 'person'],
  ['lawyer', 'lawyers', 'person'],
  ['witness', 'witnesses', 'person'],
  ['suspect', 'suspects', 'person'],
  ['judge', 'judges', 'person'],
  ['man', 'men', 'person'],
  ['woman', 'women', 'person'],
  ['child', 'children', 'person'],
  ['dog', 'dogs', 'animal'],
  ['cat', 'cats', 'animal'],
  ['horse', 'horses', 'animal'],
  ['mouse', 'mice', 'animal'],
  ['car', 'cars', 'thing'],
  ['bank', 'banks', 'thing'],
  ['building', 'buildings', 'thing'],
  ['city', 'cities', 'thing'],
  ['bridge', 'bridges', 'thing'],
  ['house', 'houses', 'thing'],
  ['train', 'trains', 'thing'],
];
/** Nouns that take only "the" and no adjective. */
const THE_ONLY = new Set(['fbi', 'police']);
export const ADJECTIVES = ['old', 'young', 'angry', 'famous', 'clever', 'small', 'big'];
export const PRED_ADJECTIVES = [
  'hungry',
  'dangerous',
  'famous',
  'tired',
  'guilty',
  'angry',
  'busy',
];
export const PREPOSITIONS = ['near', 'behind', 'with', 'beside', 'from'];
/** Transitive verbs: [3sg present, base, -ing, past, past participle]. */
export const TRANSITIVE = [
  ['chases', 'chase', 'chasing', 'chased', 'chased'],
  ['follows', 'follow', 'following', 'followed', 'followed'],
  ['watches', 'watch', 'watching', 'watched', 'watched'],
  ['finds', 'find', 'finding', 'found', 'found'],
  ['catches', 'catch', 'catching', 'caught', 'caught'],
  ['sees', 'see', 'seeing', 'saw', 'seen'],
  ['helps', 'help', 'helping', 'helped', 'helped'],
  ['knows', 'know', 'knowing', 'knew', 'known'],
];
/** Intransitive verbs, same columns. */
export const INTRANSITIVE = [
  ['runs', 'run', 'running', 'ran', 'run'],
  ['sleeps', 'sleep', 'sleeping', 'slept', 'slept'],
  ['waits', 'wait', 'waiting', 'waited', 'waited'],
  ['hides', 'hide', 'hiding', 'hid', 'hidden'],
  ['escapes', 'escape', 'escaping', 'escaped', 'escaped'],
];
/** Auxiliaries and copulas: [singular, plural]. */
export const BE_PRES = ['is', 'are'];
export const BE_PAST = ['was', 'were'];
export const HAVE = ['has', 'have'];
export const DET = { sg: ['the', 'a'], pl: ['the', 'some'] };
/** Pronoun subjects of the widened grammar's spoken relatives: [word, verb number, an attractor?]. */
export const PRONOUNS = Object.freeze([
  ['i', 'pl', false],
  ['you', 'pl', false],
  ['we', 'pl', true],
  ['they', 'pl', true],
  ['he', 'sg', true],
  ['she', 'sg', true],
  ['it', 'sg', true],
]);
/** Prepositions a spoken relative clause may end in ("the toy the puppies chew on"). */
const STRANDED = ['on', 'for', 'after', 'about', 'with', 'to', 'at', 'over', 'in'];
const SUBJECT_KINDS = new Set(['person', 'animal', 'org']);

/** Every verb form at verbIndex ↔ its other-number form. */
function flipMap(transitive, intransitive, agreeing = []) {
  const flip = new Map();
  for (const [s, p] of [
    BE_PRES,
    BE_PAST,
    HAVE,
    ...transitive.map((v) => v.slice(0, 2)),
    ...intransitive.map((v) => v.slice(0, 2)),
    ...agreeing,
  ]) {
    flip.set(s, p);
    flip.set(p, s);
  }
  return flip;
}

/** The grammar's lexicon (the page's 140 words); agreementLexicon() widens it. */
export const BASE_LEXICON = Object.freeze({
  nouns: NOUNS,
  theOnly: THE_ONLY,
  adjectives: ADJECTIVES,
  predAdjectives: PRED_ADJECTIVES,
  prepositions: PREPOSITIONS,
  transitive: TRANSITIVE,
  intransitive: INTRANSITIVE,
  /** @type {string[][] | undefined} the widened grammar's present verbs: none in the page's */
  agreeing: undefined,
  det: DET,
  subjectKinds: SUBJECT_KINDS,
  flip: flipMap(TRANSITIVE, INTRANSITIVE),
  onTheRun: true,
  orcPresent: false,
  progressive: TRANSITIVE,
  detWeights: /** @type {{ sg: number[], pl: number[] } | null} */ (null),
  personShare: 0,
  spokenRelatives: false,
  stranded: /** @type {string[]} */ ([]),
});
export const FLIP = BASE_LEXICON.flip;

export const vowel = (w) => /^[aeiou]/.test(w);

/** Person nouns of a widened lexicon: their relative clauses may open with "who". */
const PERSON_NOUNS = new Set([
  'man',
  'woman',
  'boy',
  'girl',
  'child',
  'student',
  'teacher',
  'author',
  'writer',
  'doctor',
  'worker',
  'member',
  'friend',
  'leader',
  'player',
  'officer',
  'soldier',
  'farmer',
  'artist',
  'parent',
  'neighbor',
  'senator',
  'official',
  'scientist',
  'customer',
  'visitor',
  'citizen',
  'reader',
  'owner',
  'driver',
  'lawyer',
  'judge',
  'reporter',
  'agent',
  'detective',
  'witness',
  'suspect',
  'criminal',
  'patient',
  'priest',
  'teacher',
  'brother',
  'sister',
  'mother',
  'father',
  'son',
  'daughter',
  'wife',
  'husband',
  'king',
  'queen',
]);

/**
 * The grammar widened to a larger vocabulary (the agreement LMs' training text): the base
 * lexicon plus `nouns` ([singular, plural] pairs; a noun of `people` or PERSON_NOUNS may take
 * "who"), `adjectives` (attributive and predicative), `verbs` ([3sg, base, -ing or null, past,
 * participle]; only verbs with an -ing form go in progressives) and `prepositions`. Determiners
 * widen to WIDE_DET (the/a/some stay the most frequent), "on the run" is not special, and object
 * relative clauses may have a present verb agreeing with their own subject ("the book that the
 * boys like is"), an attractor next to the verb. Every noun of a widened sentence can be a subject.
 * `personShare` (0: the noun drawn from all of them) makes that share of the subjects people, whose
 * subject relative clauses then open with "who" 3 times in 4 ("that" otherwise); `theWeight` is
 * the weight of "the" among the determiners (WIDE_DET: "a" 4, "this" 2, most others 1). With the
 * defaults the draws are those of the lexicon without them. `present` adds [3sg, base] pairs of
 * verbs known only in the present (web/data/brown.js brownPresentPairs) to `agreeing`, the verbs
 * a widened sentence's present main verb and relative-clause verbs are drawn from: the LMs learn
 * the number of every verb form they may be tested on, not only of the verbs with all five forms
 * (issue 30: a verb outside the grammar was near chance, 55-62% on 71 frequent verbs).
 * `spokenRelatives` makes relative clauses as people say them: an object relative's "that" drops
 * half the time and its subject is a pronoun (PRONOUNS) a third of it; it ends in a stranded
 * preposition 1 in 6 and a prepositional phrase 1 in 6, a subject relative in a phrase 1 in 3. A
 * preposition of two words ("next to") is written with its space.
 * @param {{ nouns?: string[][], people?: string[], adjectives?: string[], verbs?: (string|null)[][], prepositions?: string[], present?: string[][], personShare?: number, theWeight?: number, spokenRelatives?: boolean }} extra
 */
export function agreementLexicon({
  nouns = [],
  people = [],
  adjectives = [],
  verbs = [],
  prepositions = [],
  present = [],
  personShare = 0,
  theWeight = 8,
  spokenRelatives = false,
} = {}) {
  if (!(personShare >= 0 && personShare < 1))
    throw new RangeError(`agreementLexicon: personShare must be in [0, 1), got ${personShare}`);
  if (typeof spokenRelatives !== 'boolean')
    throw new TypeError(
      `agreementLexicon: spokenRelatives must be a boolean, got ${typeof spokenRelatives}`,
    );
  if (!(theWeight > 0 && Number.isFinite(theWeight)))
    throw new RangeError(`agreementLexicon: theWeight must be a positive number, got ${theWeight}`);
  const seen = new Set(NOUNS.flatMap(([s, p]) => [s, p]));
  const person = new Set([...PERSON_NOUNS, ...people]);
  const wideNouns = [
    ...NOUNS,
    ...nouns
      .filter(([s, p]) => !seen.has(s) && !seen.has(p))
      .map(([s, p]) => [s, p, person.has(s) ? 'person' : 'any']),
  ];
  const verbSeen = new Set(TRANSITIVE.concat(INTRANSITIVE).map((v) => v[0]));
  const wideVerbs = [...TRANSITIVE, ...verbs.filter((v) => v.length === 5 && !verbSeen.has(v[0]))];
  const uniq = (xs) => [...new Set(xs)];
  // without `present`, no `agreeing`: the grammar draws exactly as before issue 30's verbs
  const agreeingSeen = new Set();
  const agreeing = present.length
    ? [...wideVerbs.map((v) => [v[0], v[1]]), ...present].filter(
        ([z, b]) => z && b && !agreeingSeen.has(z) && agreeingSeen.add(z),
      )
    : undefined;
  return Object.freeze({
    nouns: wideNouns,
    theOnly: THE_ONLY,
    adjectives: uniq([...ADJECTIVES, ...adjectives]),
    predAdjectives: uniq([...PRED_ADJECTIVES, ...adjectives]),
    prepositions: uniq([...PREPOSITIONS, ...prepositions.filter((p) => p !== 'on'), 'on']),
    transitive: wideVerbs,
    intransitive: INTRANSITIVE,
    progressive: wideVerbs.filter((v) => v[2]),
    det: { sg: WIDE_DET.sg.map(([w]) => w), pl: WIDE_DET.pl.map(([w]) => w) },
    detWeights: {
      sg: WIDE_DET.sg.map(([w, k]) => (w === 'the' ? theWeight : k)),
      pl: WIDE_DET.pl.map(([w, k]) => (w === 'the' ? theWeight : k)),
    },
    subjectKinds: new Set(['person', 'animal', 'org', 'thing', 'any']),
    agreeing,
    flip: flipMap(wideVerbs, INTRANSITIVE, agreeing ?? []),
    onTheRun: false,
    orcPresent: true,
    personShare,
    spokenRelatives,
    stranded: spokenRelatives ? STRANDED : [],
  });
}

/** The widened grammar's determiners by number: [word, weight] ("the" about three times "a", as in Brown). */
const WIDE_DET = {
  sg: [
    ['the', 8],
    ['a', 4],
    ['this', 2],
    ['that', 1],
    ['my', 1],
    ['his', 1],
    ['her', 1],
    ['our', 1],
    ['their', 1],
    ['your', 1],
    ['every', 1],
    ['each', 1],
    ['one', 1],
  ],
  pl: [
    ['the', 8],
    ['some', 3],
    ['these', 2],
    ['those', 2],
    ['my', 1],
    ['his', 1],
    ['her', 1],
    ['our', 1],
    ['their', 1],
    ['your', 1],
    ['two', 1],
    ['three', 1],
    ['many', 1],
    ['several', 1],
    ['all', 1],
    ['both', 1],
  ],
};

/** Every word a lexicon can produce, sorted. */
export function lexiconWords(L) {
  const set = new Set([
    '.',
    'that',
    'who',
    'an',
    ...L.adjectives,
    ...L.predAdjectives,
    ...BE_PRES,
    ...BE_PAST,
    ...HAVE,
    ...L.det.sg,
    ...L.det.pl,
  ]);
  for (const p of L.prepositions) for (const w of p.split(' ')) set.add(w);
  if (L.onTheRun) set.add('on').add('run');
  if (L.spokenRelatives) for (const [w] of PRONOUNS) set.add(w);
  for (const w of L.stranded ?? []) set.add(w);
  for (const [s, p] of L.nouns) {
    if (s) set.add(s);
    if (p) set.add(p);
  }
  for (const v of [...L.transitive, ...L.intransitive, ...(L.agreeing ?? [])])
    for (const w of v) if (w) set.add(w);
  return [...set].sort();
}
