// attnlab/web/data/translation-examples.js: the sentences that show each phenomenon of the
// English → French data (web/data/translation.js PHENOMENA), the table first: the
// Examples menu of the translation models (web/shared/examples.js) and the hand-written check.
// Every one parses (parseEnglish; tests check it). A module of its own, with no import, so the
// page's menu has them without loading the generator and its lexicon on the first view's path;
// translation.js re-exports them.

export const TRANSLATION_EXAMPLES = Object.freeze(
  [
    ['adjective-after', 'the cat sees the red car .'],
    ['adjective-before', 'my sister has a small black cat .'],
    ['possessive', "my brother's dog likes the white house ."],
    ['negation', 'i do not see the dog .'],
    ['object-pronoun', 'she sees him .'],
    ['object-pronoun', 'we see them .'],
    ['compound-past', 'we have eaten the green apples .'],
    ['elision', 'the children do not like the bread .'],
    ['contraction', "i like the dog's bone ."],
    ['adjectives-reversed', 'the european economic area is important .'],
    ['subordinate', 'the girl that i have seen thinks that the old man is happy .'],
  ].map(([phenomenon, src]) => Object.freeze({ phenomenon, src })),
);
