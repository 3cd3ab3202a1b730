// attnlab/web/data/reviews-verdicts.js: the review generator's clause builders, second half: the
// verdict clauses (recommend, worth, expectation, comparative) and the two that turn on "no" and
// "too", then the draw among every kind with its weights (KINDS, anyClause), the one entry point
// reviews.js uses. The clause record and the clauses about the thing itself are
// reviews-clauses.js; the word tables reviews-words.js.

import { pick } from './common.js';
import { IT, NO_NEG, NO_POS, REFS, TOO, w } from './reviews-words.js';
import {
  Clause,
  adjectiveClause,
  breakdownClause,
  chance,
  fragmentClause,
  phraseClause,
  put,
  serviceClause,
  subject,
  verbClause,
} from './reviews-clauses.js';
import { ADJUNCTS, pragmaticClause } from './reviews-pragmatic.js';

function recommendClause(rand, d, p) {
  const negate = chance(rand, 0.5);
  const c = Clause('recommend', negate ? 1 - p : p); // core: positive (the verb is praise)
  c.core = 1;
  c.negated = p === 0;
  const r = rand();
  const subj = pick(
    rand,
    w("i would|i 'd|i will|i 'll|we would|we 'd|we will|we 'll|i will|we will"),
  );
  const [s, aux] = subj.split(' ');
  put(c, s);
  const neg = () => {
    if (aux === 'would' || aux === 'will')
      (put(c, aux), put(c, pick(rand, w("not|never|n't")), true));
    else (put(c, aux), put(c, pick(rand, w('not|never')), true));
  };
  if (c.negated) neg();
  else {
    put(c, aux);
    if (chance(rand, 0.4)) put(c, pick(rand, w('definitely|happily|totally|highly|absolutely')));
  }
  if (r < 0.35) {
    put(c, 'recommend', true);
    put(c, pick(rand, [...IT, ...d.kinds.map((k) => `this ${k}`)]));
    if (chance(rand, 0.3)) put(c, pick(rand, w('to anyone|to a friend|to my friends|to everyone')));
  } else if (r < 0.55) {
    put(c, pick(rand, w('go back|come back|return|be back')), 'content');
  } else if (r < 0.75) {
    put(c, pick(rand, w('buy|order|read|watch|book|try')), 'content');
    put(c, pick(rand, w('it again|another one|from them again|here again|it twice')));
  } else if (r < 0.88) {
    put(
      c,
      pick(
        rand,
        w('stay here again|eat here again|watch it again|read it again|use it again|buy it again'),
      ),
      'content',
    );
  } else {
    put(c, 'be');
    put(c, pick(rand, w('buying|ordering|shopping|eating|staying|booking')), 'content');
    put(c, pick(rand, w('from them again|here again|there again|with them again|again')));
  }
  // "will n't" renders won't
  return c;
}

function worthClause(rand, d, p) {
  const c = Clause('worth', 1);
  c.negated = p === 0;
  const r = rand();
  if (r < 0.6)
    put(c, pick(rand, w("it was|it 's|it is|this is|the price is|the ticket was|the wait was")));
  else put(c, pick(rand, w('definitely|totally|so|really|honestly')));
  if (c.negated)
    put(
      c,
      pick(rand, w("not|n't|never")) === 'never' && r < 0.6
        ? 'never'
        : r < 0.6 && chance(rand, 0.5)
          ? "n't"
          : 'not',
      true,
    );
  if (c.negated && c.tokens.at(-1) === "n't" && !['was', 'is'].includes(c.tokens.at(-2)))
    c.tokens[c.tokens.length - 1] = 'not';
  put(c, 'worth', true);
  put(
    c,
    pick(
      rand,
      w(
        'it|the money|the price|every penny|the wait|the hype|the trip|the time|a visit|a look|the drive',
      ),
    ),
  );
  return c;
}

function expectationClause(rand, d, p) {
  // "I expected to hate it and I didn't": the verb's polarity, flipped by "n't"
  const negate = chance(rand, 0.5);
  const core = negate ? 1 - p : p;
  const c = Clause('expectation', core);
  c.negated = negate;
  const verb = core
    ? pick(rand, w('love|like|enjoy|adore'))
    : pick(rand, w('hate|dislike|be bored|be disappointed|regret it'));
  const lead = pick(
    rand,
    w(
      'i expected to|i thought i would|i was sure i would|i was ready to|i fully expected to|my wife expected to|i was told i would|everyone said i would',
    ),
  );
  put(c, lead);
  put(c, verb, 'content');
  if (!verb.includes(' ') || verb === 'regret it') {
    if (verb !== 'regret it') put(c, 'it');
  }
  put(c, pick(rand, w('and|, and')));
  const who = lead.startsWith('my wife') ? 'she' : 'i';
  put(c, who);
  const aux = verb.startsWith('be ') ? (who === 'she' ? 'was' : 'was') : 'did';
  put(c, aux, true);
  if (negate) put(c, pick(rand, ["n't", "n't", 'not']), true);
  return c;
}

function comparativeClause(rand, d, p) {
  const r = rand();
  if (r < 0.5) {
    // better / worse than
    const c = Clause('comparative', p);
    if (chance(rand, 0.5))
      put(
        c,
        pick(
          rand,
          w(
            "it was|it 's|it is|this one is|the food was|the sequel is|the new one is|the room was",
          ),
        ),
      );
    if (chance(rand, 0.4)) put(c, pick(rand, w('much|far|a lot|way|even|so much')));
    put(
      c,
      pick(
        rand,
        p
          ? w('better|better|cheaper|faster|quicker|easier|funnier|tastier|cleaner|comfier|nicer')
          : w('worse|worse|slower|smaller|weaker|flimsier|duller|noisier|dirtier|harder'),
      ),
      true,
    );
    put(c, 'than');
    put(c, pick(rand, REFS));
    return c;
  }
  // not as good as / not as bad as / every bit as good as
  const negate = chance(rand, 0.6);
  const core = negate ? 1 - p : p;
  const c = Clause('comparative', core);
  c.negated = negate;
  if (chance(rand, 0.5))
    put(c, pick(rand, w("it was|it 's|it is|this one is|the food was|the sequel is")));
  if (negate) {
    const n = pick(rand, w('not|nowhere near|not quite|not nearly'));
    put(c, n, n === 'nowhere near' ? true : 'content');
    if (n !== 'nowhere near' && !c.decisive.includes(c.tokens.length - 1))
      c.decisive.push(c.tokens.length - (n.includes(' ') ? 2 : 1));
  } else if (chance(rand, 0.4)) put(c, pick(rand, w('every bit|just')));
  put(c, 'as');
  put(
    c,
    pick(
      rand,
      core
        ? w('good|great|fun|funny|clean|tasty|comfortable|exciting')
        : w('bad|awful|boring|dirty|slow|terrible|dull|noisy'),
    ),
    true,
  );
  put(c, 'as');
  put(c, pick(rand, REFS));
  return c;
}

/** "no problems at all" (no + a negative noun: positive), "there was no hot water" (no + a good thing: negative). */
function noClause(rand, d, p) {
  const c = Clause('no', p ? 0 : 1);
  c.negated = true;
  put(
    c,
    pick(
      rand,
      w(
        "i had|we had|there were|there was|zero|absolutely|so far|honestly|i have had|there is|it has|it had|it 's got",
      ),
    ),
  );
  put(c, 'no', true);
  put(c, pick(rand, p ? NO_NEG : NO_POS), 'content');
  if (p && chance(rand, 0.4))
    put(c, pick(rand, w('at all|so far|whatsoever|with it|to report|here')));
  return c;
}
/** "way too long": too + an adjective, whatever it is, complains. */
function tooClause(rand, d) {
  const c = Clause('too', 0);
  if (chance(rand, 0.7)) {
    put(c, subject(rand, d));
    put(c, pick(rand, w('was|is|felt|seemed|were')));
  }
  if (chance(rand, 0.4)) put(c, pick(rand, w('way|far|much|a bit|a little|just|simply|slightly')));
  put(c, 'too', true);
  put(c, pick(rand, TOO), true);
  if (chance(rand, 0.2))
    put(c, pick(rand, w('for me|for what you get|for the price|for my taste|to enjoy')));
  return c;
}
const tooOrPhrase = (rand, d, p) => (p ? phraseClause(rand, d, p) : tooClause(rand, d));
/** @type {[(rand: () => number, d: any, p: number, dname: string) => any, number][]} */
const KINDS = [
  [adjectiveClause, 0.22],
  [fragmentClause, 0.13],
  [verbClause, 0.15],
  [phraseClause, 0.21],
  [recommendClause, 0.06],
  [worthClause, 0.04],
  [expectationClause, 0.06],
  [comparativeClause, 0.05],
  [noClause, 0.02],
  [tooOrPhrase, 0.02],
  [serviceClause, 0.02],
  [breakdownClause, 0.02],
];
/** The share of clauses that are implicit or pragmatic (reviews-pragmatic.js, issue 30). */
export const PRAGMATIC_SHARE = 0.22;
/** The share of clauses that end with a neutral adjunct ("… from start to finish"), in both
 * polarities, so that the words after a verdict do not decide it (issue 30). */
export const ADJUNCT_SHARE = 0.1;
export function anyClause(rand, d, p, dname) {
  const c = drawClause(rand, d, p, dname);
  if (rand() < ADJUNCT_SHARE) put(c, pick(rand, ADJUNCTS));
  return c;
}
function drawClause(rand, d, p, dname) {
  if (rand() < PRAGMATIC_SHARE) return pragmaticClause(rand, d, p);
  let r = rand();
  for (const [f, q] of KINDS) {
    if (r < q) return f(rand, d, p, dname);
    r -= q;
  }
  return adjectiveClause(rand, d, p, dname);
}
