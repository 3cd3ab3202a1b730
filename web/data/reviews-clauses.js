// attnlab/web/data/reviews-clauses.js: the review generator's clause builders, first half: the
// clause record (Clause, put) and the clauses that judge the thing itself: adjective, fragment,
// verb, phrase (idioms), service and breakdown. Each returns { kind, core, negated, tokens,
// decisive }, tokens normalised and decisive local; reviews.js places clauses in sentences and
// renders raw text. The word tables are reviews-words.js; the verdict clauses and the draw among
// all kinds are reviews-verdicts.js.

import { pick } from './common.js';
import {
  AGENTS,
  A_ADJ,
  A_ADV,
  A_GER,
  A_NOUN,
  A_PART,
  A_VERB,
  A_VERB3,
  BREAKS,
  BREAKS_WHEN,
  GENERAL_NEG,
  GENERAL_POS,
  HEDGES,
  IDIOMS_NEG,
  IDIOMS_POS,
  INTENSIFIERS,
  IT,
  NEG_DEGREE,
  NEVER_BROKE,
  NEVER_BROKE_SINCE,
  PHRASES_NEG,
  PHRASES_POS,
  REVIEW_UNKNOWN_WORDS,
  SERVICE,
  SERVICE_AUX,
  SERVICE_SKIPPED,
  SERVICE_WHEN,
  STOP,
  THINGS,
  noun,
  w,
} from './reviews-words.js';

// ---- clauses ----------------------------------------------------------------------------------------

/** A clause under construction: tokens, decisive (local indices), core polarity, negated. */
export function Clause(kind, core) {
  return { kind, core, negated: false, tokens: [], decisive: [] };
}
/**
 * Append the words of s; mark = 'content' (the non-stop words decide), true (all), false (none).
 * @param {{ tokens: string[], decisive: number[] }} c
 * @param {string} s
 * @param {boolean | 'content'} [mark]
 */
export function put(c, s, mark = false) {
  for (const t of s.split(' ')) {
    if (!t) continue;
    if (mark === true || (mark === 'content' && !STOP.has(t))) c.decisive.push(c.tokens.length);
    c.tokens.push(t);
  }
  return c;
}
export const chance = (rand, p) => rand() < p;

export function subject(rand, d) {
  const r = rand();
  if (r < 0.55) return `the ${pick(rand, d.aspects)}`;
  if (r < 0.7)
    return rand() < 0.25
      ? `the ${pick(rand, REVIEW_UNKNOWN_WORDS)} ${pick(rand, d.kinds)}`
      : `the ${pick(rand, d.kinds)}`; // a name the vocabulary lacks: "the Zenith kettle"
  if (r < 0.82) return `the ${noun(rand)}`;
  if (r < 0.9) return `my ${pick(rand, d.aspects)}`;
  return pick(rand, ['it', 'this', 'this one', 'everything']);
}
function polarAdjective(rand, d, p) {
  const r = rand();
  if (r < 0.5) return pick(rand, p ? d.pos : d.neg);
  if (r < 0.8) return pick(rand, p ? GENERAL_POS : GENERAL_NEG);
  return pick(rand, A_ADJ[p]);
}
/** "not" / "n't" / "never" after a copula; returns the copula with its negation. */
function negatedCopula(rand, c, cop) {
  const r = rand();
  if (r < 0.4 && ['was', 'is', 'were', 'are'].includes(cop)) {
    put(c, cop);
    put(c, "n't", true);
    return;
  }
  if (r < 0.55 && ['was', 'is', 'were', 'are'].includes(cop)) {
    put(c, cop);
    put(c, 'never', true);
    return;
  }
  if (cop === 'was' || cop === 'is' || cop === 'were' || cop === 'are') {
    put(c, cop);
    put(c, 'not', true);
    return;
  }
  const did = cop.endsWith('s') ? 'does' : 'did'; // felt → did n't feel
  put(c, did);
  put(c, chance(rand, 0.6) ? "n't" : 'not', true);
  put(
    c,
    {
      felt: 'feel',
      seemed: 'seem',
      looked: 'look',
      tasted: 'taste',
      sounded: 'sound',
      feels: 'feel',
      seems: 'seem',
      looks: 'look',
    }[cop],
  );
}

export function adjectiveClause(rand, d, p, dname) {
  const negate = chance(rand, 0.35);
  const core = negate ? 1 - p : p;
  const c = Clause('adjective', core);
  c.negated = negate;
  put(c, subject(rand, d));
  const cops =
    dname === 'restaurant'
      ? w('was|is|were|tasted|seemed|looked')
      : dname === 'product'
        ? w('is|was|feels|seems|looks|felt')
        : w('was|is|felt|seemed|were');
  const cop = pick(rand, cops);
  if (negate) {
    negatedCopula(rand, c, cop);
    if (chance(rand, 0.3))
      put(
        c,
        pick(
          rand,
          NEG_DEGREE.filter((x) => x !== 'at all'),
        ),
      );
    put(c, polarAdjective(rand, d, core), 'content');
    if (chance(rand, 0.1)) put(c, 'at all');
  } else {
    put(c, cop);
    const r = rand();
    if (r < 0.3) put(c, pick(rand, INTENSIFIERS));
    else if (r < 0.42) put(c, pick(rand, HEDGES));
    put(c, polarAdjective(rand, d, core), 'content');
  }
  return c;
}

export function fragmentClause(rand, d, p) {
  const r = rand();
  if (r < 0.5) {
    // "really friendly staff"
    const c = Clause('fragment', p);
    if (chance(rand, 0.3)) put(c, pick(rand, INTENSIFIERS));
    put(c, polarAdjective(rand, d, p), 'content');
    put(c, pick(rand, chance(rand, 0.85) ? d.aspects : d.kinds));
    return c;
  }
  if (r < 0.75) {
    // "not bad at all", "not great", "pretty good"
    const negate = chance(rand, 0.6);
    const c = Clause('fragment', negate ? 1 - p : p);
    c.negated = negate;
    if (negate) {
      put(c, 'not', true);
      if (chance(rand, 0.25)) put(c, pick(rand, w('very|that|too|so|exactly|particularly')));
    } else if (chance(rand, 0.4)) put(c, pick(rand, [...INTENSIFIERS, ...HEDGES]));
    put(
      c,
      pick(rand, negate ? (c.core ? GENERAL_POS : GENERAL_NEG) : p ? GENERAL_POS : GENERAL_NEG),
      'content',
    );
    if (negate && chance(rand, 0.35)) put(c, 'at all');
    return c;
  }
  // "a great film", "not a great film", "no masterpiece"
  const negate = chance(rand, 0.35);
  const c = Clause('fragment', negate ? 1 - p : p);
  c.negated = negate;
  if (negate) put(c, 'not', true);
  put(c, 'a');
  if (chance(rand, 0.25)) put(c, pick(rand, w('very|really|truly|genuinely')));
  put(c, polarAdjective(rand, d, c.core), 'content');
  put(c, pick(rand, d.kinds));
  return c;
}

export function verbClause(rand, d, p) {
  const negate = chance(rand, 0.35);
  const core = negate ? 1 - p : p;
  const c = Clause('verb', core);
  c.negated = negate;
  const r = rand();
  const not = () => put(c, pick(rand, ["n't", "n't", 'not']), true);
  if (r < 0.3) {
    // I loved it / I didn't like it / I never enjoyed it
    const base = core
      ? pick(rand, [...w('love|like|enjoy|adore|recommend'), ...A_VERB[1]])
      : pick(rand, [...w('hate|dislike|regret|mind'), ...A_VERB[0]]);
    if (base === 'mind') {
      // "I didn't mind it": positive, core flipped by the idiom (mind = negative)
      put(c, 'i');
      if (negate) {
        put(c, 'did');
        not();
      } else put(c, pick(rand, w('really|honestly|did')));
      put(c, 'mind', true);
      put(c, pick(rand, IT));
      return c;
    }
    put(c, pick(rand, w('i|we|my wife|my kids|everyone')));
    if (negate) {
      if (chance(rand, 0.2)) put(c, 'never', true);
      else {
        put(c, pick(rand, w('did|do')));
        not();
      }
      put(c, base, true);
    } else {
      if (chance(rand, 0.3)) put(c, pick(rand, w('really|absolutely|totally|just|honestly')));
      put(c, past(base), true);
    }
    put(c, pick(rand, IT));
    return c;
  }
  if (r < 0.5) {
    // I was impressed / I was not impressed
    const subj = pick(rand, w("i was|we were|i am|i 'm|we 're|my kids were|everyone was"));
    put(c, subj);
    if (negate) put(c, /was|were/.test(subj) ? pick(rand, ["n't", 'not']) : 'not', true);
    else if (chance(rand, 0.3)) put(c, pick(rand, INTENSIFIERS));
    put(c, pick(rand, A_PART[core]), true);
    return c;
  }
  if (r < 0.65) {
    // it was disappointing / it wasn't boring
    put(c, pick(rand, w("it was|it is|it 's|the whole thing was|this was")));
    if (negate) not();
    else if (chance(rand, 0.3)) put(c, pick(rand, INTENSIFIERS));
    put(c, pick(rand, A_GER[core]), true);
    return c;
  }
  if (r < 0.8) {
    // it was a disaster / it was no masterpiece / what a gem
    if (!negate && chance(rand, 0.3)) {
      put(c, 'what a');
      put(c, pick(rand, A_NOUN[core]), true);
      return c;
    }
    put(c, pick(rand, w("it was|it 's|this is|this was|the whole thing was")));
    if (negate) put(c, pick(rand, ['no', 'not a']).split(' ')[0], true);
    if (negate && c.tokens.at(-1) === 'not') put(c, 'a');
    if (!negate) {
      put(c, 'a');
      if (chance(rand, 0.3)) put(c, pick(rand, w('real|total|complete|bit of a|genuine')));
    }
    put(c, pick(rand, A_NOUN[core]), true);
    return c;
  }
  if (r < 0.9) {
    // there was nothing special about it / nothing was good
    if (negate) {
      put(c, pick(rand, w("there was|there 's|there is")));
      put(c, 'nothing', true);
      put(
        c,
        pick(
          rand,
          (core ? [...GENERAL_POS, ...d.pos] : [...GENERAL_NEG, ...d.neg]).filter(
            (x) => !x.includes(' '),
          ),
        ),
        'content',
      );
      put(c, 'about');
      put(c, pick(rand, w('it|the food|the place|this one|the story|the room')));
    } else {
      put(c, 'it');
      put(c, pick(rand, A_VERB3[core]), true);
      if (chance(rand, 0.5)) put(c, pick(rand, w('me|us|everyone')));
    }
    return c;
  }
  // it went badly / it ran smoothly
  put(c, pick(rand, w('it went|it ran|it works|everything went|it played')));
  if (negate) {
    c.tokens.length = 0;
    c.decisive.length = 0;
    put(c, 'it');
    put(c, pick(rand, w('did|does')));
    not();
    put(c, pick(rand, w('go|run|work|play')));
  }
  put(c, pick(rand, A_ADV[core]), true);
  return c;
}
export function past(v) {
  if (v.endsWith('e')) return `${v}d`;
  if (/[^aeiou]y$/.test(v)) return `${v.slice(0, -1)}ied`;
  if (/^(?:[^aeiou]*[aeiou][^aeiouwxy])$/.test(v) && v.length <= 4) return `${v}${v.at(-1)}ed`;
  return `${v}ed`;
}

export function phraseClause(rand, d, p) {
  const c = Clause('phrase', p);
  const own = p ? d.phrasesPos : d.phrasesNeg;
  const r = rand();
  put(
    c,
    pick(
      rand,
      r < 0.45 ? own : r < 0.8 ? (p ? PHRASES_POS : PHRASES_NEG) : p ? IDIOMS_POS : IDIOMS_NEG,
    ),
    'content',
  );
  return c;
}

/**
 * "the seller never replied", "nobody answered the phone" (a service that should come, negated:
 * negative) or "customer service replied within an hour" (positive): core positive, negated when p is 0.
 */
export function serviceClause(rand, d, p) {
  const c = Clause('service', 1);
  c.negated = p === 0;
  const [base, done] = pick(rand, SERVICE);
  if (c.negated && chance(rand, 0.2)) {
    put(c, 'nobody', true);
    put(c, done, 'content');
    return c;
  }
  put(c, pick(rand, AGENTS));
  if (!c.negated) {
    put(c, done, 'content');
    put(c, pick(rand, SERVICE_WHEN), 'content');
    return c;
  }
  const r = rand();
  if (r < 0.35) {
    put(c, 'never', true);
    put(c, done, 'content');
  } else if (r < 0.8) {
    put(c, pick(rand, SERVICE_AUX));
    put(c, chance(rand, 0.7) ? "n't" : 'not', true);
    if (chance(rand, 0.15)) put(c, 'even');
    put(c, base, 'content');
  } else {
    put(c, pick(rand, SERVICE_SKIPPED), 'content');
    put(c, base, 'content');
  }
  return c;
}

/**
 * "the app crashes every time I open it" (a breakdown: negative) or "it has never crashed"
 * (one negated: positive): core negative, negated when p is 1.
 */
export function breakdownClause(rand, d, p) {
  const c = Clause('breakdown', 0);
  c.negated = p === 1;
  put(c, pick(rand, THINGS));
  if (!c.negated) {
    put(c, pick(rand, BREAKS), 'content');
    if (chance(rand, 0.8)) put(c, pick(rand, BREAKS_WHEN));
    return c;
  }
  const r = rand();
  if (r < 0.5) {
    put(c, 'has');
    put(c, 'never', true);
  } else if (r < 0.75) {
    put(c, 'has');
    put(c, "n't", true);
    put(c, 'once');
  } else put(c, 'never', true);
  put(c, pick(rand, NEVER_BROKE), 'content');
  if (chance(rand, 0.4)) put(c, pick(rand, NEVER_BROKE_SINCE));
  return c;
}
