// attnlab/web/data/reviews-pragmatic.js: the review generator's implicit and pragmatic clauses
// (issue 30): verdicts people give without a polar word, built from parts so that the models
// learn the construction, not a phrase list. One entry point, pragmaticClause(rand, d, p), which
// reviews-verdicts.js draws among the other kinds; PRAGMATIC_WORDS, every token it can write
// (reviews.js adds them to the vocabulary).
//
//   stars        "five stars", "5/5", "ten out of ten", "one star", "0/10", "zero stars if i could"
//   usage        praise by use: "still using it two years later", "i bought a second one for my
//                sister", "i only charge it once a week"; complaint by use: "returned it the next
//                day", "broke after three uses", "uninstalled it after an hour", "got a refund"
//   contrast     the expectation a verdict overturns: "i did n't expect much from a $ 30 kettle ,
//                but it works perfectly", "i wanted to love this , but the plot goes nowhere"
//   hedge        faint praise that damns: "average at best", "okay at most", "barely edible"
//   slang        clear polarity only: "the tacos were fire", "this album slaps", "mid", "meh"
//   comparison   "i 've had better at a gas station", "tastes like cardboard", "beats the expensive
//                brands", "my new favourite cafe"
//   advice       "a must - see", "do n't bother", "save your money", "you will n't regret it"
// A clause: { kind: 'pragmatic', core: p, negated: false, tokens, decisive } (reviews-clauses.js
// Clause); decisive marks the verdict's content words (in "contrast", only the part after "but").
// Tokens are normalised (lowercase, clitics split, "5/5" as "5 / 5", "$30" as "$ 30"); reviews.js
// render() glues "/" between digits, "$" to its number and "-" inside words back as people type.
// Not here: the draw weights (reviews-verdicts.js KINDS), rendering (reviews.js).

import { pick } from './common.js';
import { Clause, put, chance } from './reviews-clauses.js';
import { PHRASES_NEG, PHRASES_POS, w } from './reviews-words.js';

/** Every word list of this file, so that PRAGMATIC_WORDS holds every token it can write. */
const LISTS = [];
const L = (s) => {
  const x = w(s);
  LISTS.push(x);
  return x;
};
/**
 * Append one string drawn from each slot: a list, or a function of d (the domain) giving one.
 * @param {() => number} rand @param {any} c the clause @param {any} d the domain
 * @param {(string[] | ((d: any) => string[]))[]} slots
 * @param {boolean | 'content'} [mark] which words decide (reviews-clauses.js put)
 */
function seq(rand, c, d, slots, mark = 'content') {
  for (const s of slots) put(c, pick(rand, typeof s === 'function' ? s(d) : s), mark);
  return c;
}
const KIND = (d) => d.kinds;
const THE_ASPECT = (d) => d.aspects.map((a) => `the ${a}`).concat(['it', 'this']);
const THIS_KIND = (d) => d.kinds.map((k) => `this ${k}`).concat(['it', 'this']);

const STARS = [
  L(
    'one star|1 star|1 / 5|0 / 10|1 / 10|2 / 10|zero stars|two stars|half a star|one out of five|one out of ten|zero out of ten|zero stars if i could|a generous two stars|minus five stars|0 stars|2 / 5',
  ),
  L(
    'five stars|5 stars|5 / 5|10 / 10|9 / 10|4.5 stars|four stars|4 / 5|ten out of ten|five out of five|5 out of 5|full marks|a solid five stars|a solid 9 / 10|six stars if i could|a perfect ten|11 / 10|five stars easily',
  ),
];
const STARS_LEAD = [
  L("|||i give it|i 'd give it|honestly|sorry but|generous|"),
  L("|||i give it|i 'd give it|honestly|easy|easily|a well deserved|"),
];
const STARS_TAIL = [
  L('|||, never again|, would not buy again|from me|. avoid|, sadly'),
  L('|||, would buy again|from me|, no notes|, no complaints|. recommended'),
];

const SHORT = L(
  'a day|an hour|two days|three days|a week|two weeks|ten minutes|a month|one night|the first week|three uses|two uses|one wash|the first use',
);
const AFTER_SHORT = SHORT.map((s) => `after ${s}`);
LISTS.push(w('after'));
const LONG = L(
  'two years|three years|a year|six months|five years|three winters|a whole summer|eight months|four years',
);
const IN_LONG = LONG.map((s) => `in ${s}`);
const RELATIVE = L(
  'my wife|my husband|my son|my daughter|my mum|my dad|my sister|my brother|my friend|my kids|my partner|my neighbour|the office|a friend',
);
const FOR_RELATIVE = RELATIVE.map((s) => `for ${s}`).concat(['as a gift', '']);

const USAGE = [
  [
    [
      L('returned it|sent it back|i returned it|i sent it back|took it back'),
      L('the next day|the same day|within a week|'),
      AFTER_SHORT.concat(['']),
    ],
    [
      L(
        'i asked for|i got|i demanded|i want|i had to ask for|i am still waiting for|still waiting for',
      ),
      L('a refund|my money back|a replacement'),
    ],
    [
      L('it|this|mine||the whole thing|the first one'),
      L('broke|died|stopped working|fell apart|quit|gave up|stopped charging|cracked'),
      AFTER_SHORT,
    ],
    [
      L(
        'the strap|the handle|the lid|the zipper|the screen|the cable|the cord|the button|the hinge|the heel|the sole|the seam|the plug|the switch|the wheel|the paint|the battery',
      ),
      L(
        'snapped|cracked|broke|peeled|frayed|came off|fell off|stopped working|died|melted|split|bent|leaked|rusted',
      ),
      L('on day two|the first time i used it|within a week|in a week').concat(AFTER_SHORT),
    ],
    [
      L('|i|we'),
      L('uninstalled|deleted|cancelled|unsubscribed from|returned|binned'),
      L('it|the app|the whole thing'),
      AFTER_SHORT,
    ],
    [
      L('i gave up|we walked out|we left|i stopped reading|i turned it off|we checked out'),
      L(
        'halfway through|after ten pages|after twenty minutes|before dessert|early|before the end|after one night|on page fifty',
      ),
    ],
    [
      L(
        "i could n't finish it|i fell asleep twice|i fell asleep|i had to throw it away|it went in the bin|i moved hotels after one night|i switched it off|we never finished it",
      ),
    ],
    [
      L('the battery|it'),
      L('barely lasts|only lasts|dies after|is flat after'),
      L('an hour|an afternoon|half a day|a morning|ten minutes'),
    ],
    [
      L('it drains|it kills|it eats'),
      L('my battery|my phone battery|my data'),
      L('|in an hour|overnight'),
    ],
    [
      L('we waited|we sat there for|i waited'),
      L('an hour|forty minutes|ages|over an hour|two hours'),
      L('for a table|for our food|for the bill|for a drink|to check in|for a reply'),
    ],
    [
      L(
        'they charged my card twice|they charged me twice|they lost my booking|they cancelled my order|nobody told us|they kept my deposit',
      ),
    ],
    [
      L(
        "never again|i 'm never going back|lesson learned|i 'm done with them|that was my last order|not going back|i will not be back",
      ),
    ],
    [
      L('it worked for|it was fine for|it lasted'),
      L('a day|a week|two days|an hour|a month'),
      L(', then it|and then it|before it'),
      L('died|broke|fell apart|stopped working|cracked'),
    ],
    // a fault that keeps coming back: the part, what it does, how often
    [
      L(
        'it|the sound|the wifi|the signal|the connection|the picture|the app|the bluetooth|the screen|the motor|the fan|the door|the chair|the table',
      ),
      L(
        'cuts out|drops out|freezes|crashes|lags|disconnects|buzzes|flickers|overheats|shuts off|restarts|beeps|squeaks|rattles|wobbles|leaks|jams|sticks',
      ),
      L(
        'every few minutes|every hour|all the time|constantly|twice a day|every time i use it|at random|for no reason|every night|',
      ),
    ],
    // a night or a day spoiled
    [
      L(
        'the noise|the traffic|the music|the party next door|the air conditioning|the neighbors|the bed|the heat|the street|the barking|the kids upstairs',
      ),
      L('kept us up|kept me awake|kept me up|woke us up|woke me up|ruined our sleep'),
      L('all night|at 3am|every night|until 2am|twice|'),
    ],
    // relief at its going
    [
      L(
        'glad to be rid of it|good riddance|glad i returned it|relieved to get rid of it|glad i got my money back|glad that is over',
      ),
    ],
    // made cheaply, and it shows
    [
      L('cheaply made|poorly made|badly built|built like a toy|made of thin plastic|feels cheap'),
      L(
        ', it wobbles|, it rattles|, it creaks|and it wobbles|and it squeaks|, the legs wobble|, the lid never fits|and it shows',
      ),
    ],
    // the talk was louder than the thing
    [
      L('so much hype|all that hype|all the hype|so much buzz|all those ads|five hundred reviews'),
      L(
        'for nothing|for this|and for what|for something so forgettable|for a whole lot of nothing',
      ),
    ],
  ],
  [
    [
      L('still|i am still|i still|we are still|we still'),
      L(
        'use it|using it|wear it|wearing it|play it|reading it|listening to it|watching it|drive it',
      ),
      L('every day|daily|all the time||every week|every morning'),
      LONG.map((s) => `${s} later`),
    ],
    [
      L('still|it still|it is still|mine still'),
      L(
        'works|going strong|works like new|works perfectly|works fine|looks new|runs fine|holds a charge',
      ),
      L('after|').map((a) => a),
      LONG,
    ],
    [
      L('held up through|survived|lasted'),
      LONG,
      L('of daily use|of camping|of hard use|of heavy use|with my kids|'),
    ],
    [
      L('i use it|i wear it|i play it|we use it|i listen to it|i reach for it'),
      L('every day|every morning|every night|daily|all the time|constantly'),
    ],
    [
      L('i bought|i ordered|i got|we bought|i just ordered'),
      L('a second one|two more|another one|three more|one more|a spare'),
      FOR_RELATIVE,
    ],
    [
      RELATIVE,
      L('uses it|wears it|reads it|asks for it|plays it|watches it|loves it'),
      L('every day|every night|daily|all the time|'),
    ],
    [
      L("i 've recommended it to|i 've told|i keep recommending it to|i 've sent it to"),
      L('everyone|all my friends|my whole family|everyone i know|my whole office'),
    ],
    [
      L(
        "we 're already planning our next|we 're already booking our next|we already booked our next|can n't wait for our next",
      ),
      L('visit|stay|trip|dinner here|holiday here'),
    ],
    [
      L('we|i'),
      L(
        'keep coming back|keep going back|keep ordering it|keep rereading it|keep rewatching it|come back every week|go back every month',
      ),
    ],
    [
      L(
        "i can n't stop|i can n't live without it|i can n't put it down|i can n't stop using it|i can n't stop listening to it|i can n't stop playing it|i can n't stop reading it|i could n't put it down",
      ),
    ],
    [
      L("i have n't had to|i never had to|i did n't need to|i have never had to"),
      L('replace|fix|return|charge|reset|repair'),
      L('it'),
      L('once|in months|in a year|yet|'),
    ],
    [
      L('i only'),
      L('charge|clean|refill|restart|update|top up'),
      L('it'),
      L('once a week|once a month|once a year|every other week|twice a month'),
    ],
    [
      L(
        "it replaced my old one|i threw out my old one|i gave away my old one|i do n't miss my old one",
      ),
    ],
    [
      L('finished it in|read it in|binged it in|watched it all in'),
      L('one sitting|two nights|a day|a weekend|one go'),
    ],
    [
      L('we watched it|i read it|i played it|we went back'),
      L('twice|three times|again the next day|again the same week'),
    ],
    [
      L("we 've been|i 've been|we 've stayed"),
      L('three|five|four|ten'),
      L('times'),
      L('already|this month|this year|since|'),
    ],
    [
      L('already|we already|i already'),
      L(
        'booked again|ordered another|ordered again|bought the sequel|booked our next stay|ordered a second',
      ),
    ],
    [
      L(
        'never had a problem with it|not a single problem|not one issue|zero issues|no problems at all|no complaints at all|nothing to complain about',
      ),
      L('|so far|yet').concat(IN_LONG),
    ],
    // a problem gone: no more of it since
    [
      L('no more|no more waking up with|goodbye to|no more of the|say goodbye to'),
      L(
        'back pain|headaches|cold coffee|tangled cables|soggy fries|dead batteries|sore feet|wet socks|lost keys|neck pain|stiff shoulders|dry skin|hair everywhere|burnt toast',
      ),
      L(
        'since i switched|since i got this|since i started using it|since we bought it|since i switched to this mattress|since we moved here|',
      ),
    ],
    // it does the job, even the hard part of it
    [
      L('it|this|this vacuum|the thing|this one|mine'),
      L(
        'picks up|handles|gets|cleans|removes|cuts through|blocks out|keeps out|holds|fixes|catches',
      ),
      L(
        'everything|every crumb|all the dust|all the noise|every stain|all of it|whatever i throw at it',
      ),
      L(
        ', even dog hair|, even the tough stuff|, even on carpet|, even red wine|, even the corners|',
      ),
    ],
    // glad to have it (the other side of "glad to be rid of it": what follows "glad" decides)
    [
      L(
        'glad i bought it|happy with my purchase|so glad i found it|happy i went for it|glad i kept it|happy i chose this one|glad i listened to the reviews|really happy with it',
      ),
    ],
    // liked more than expected
    [
      L("i did n't think|i never thought|never thought|did n't think|i honestly did n't think"),
      L("i 'd like|i 'd love|i would enjoy|i 'd use|i 'd wear"),
      L('it|this'),
      L('this much|so much|as much as i do|this often'),
    ],
  ],
];

const EXPECT = [
  L(
    'i wanted to like this|i wanted to love it|i had high hopes|it looked great in the photos|the reviews were great|everyone raved about it|the trailer looked amazing|the cover is beautiful|it started well|the first week was fine|it worked fine at first|i really wanted to like this place|on paper it is perfect|it looks nice|i was so excited|the first chapter was great|the menu looked great|my friends loved it',
  ),
  L(
    "i did n't expect much|i was skeptical at first|i had my doubts|i went in with low expectations|i was ready to hate it|i thought it would be boring|i heard mixed things|the reviews were mixed|it looks cheap|it 's not perfect|it 's not fancy|it took a while to arrive|i almost returned it|i was n't sure at first|i nearly skipped it|it is small|i was n't expecting much|my expectations were low|i thought it was a gimmick",
  ),
];
const FROM_CHEAP = L('from a|for a');
const PRICE = L(
  '$ 10|$ 15|$ 20|$ 30|$ 40|$ 50|$ 100|10 dollar|20 dollar|ten quid|cheap|budget|free|secondhand',
);
const BUT = L(', but|but|, but then|, but honestly|, turns out|, but actually');

/** A verdict part: a domain or general idiom, or "the <aspect> was <domain adjective>". */
function verdictPart(rand, d, p) {
  const r = rand();
  if (r < 0.4) return pick(rand, p ? d.phrasesPos : d.phrasesNeg);
  if (r < 0.6) return pick(rand, p ? PHRASES_POS : PHRASES_NEG);
  const deg = chance(rand, 0.3) ? `${pick(rand, DEGREE)} ` : '';
  return `${pick(rand, THE_ASPECT(d))} ${pick(rand, VERB_BE)} ${deg}${pick(rand, p ? d.pos : d.neg)}`;
}
const DEGREE = L('really|so|very|actually|genuinely|surprisingly|honestly');
const VERB_BE = L("was|is|'s|felt|turned out|were");

/** p 0: "i wanted to like this , but <negative>"; p 1: "i did n't expect much from a $ 30 kettle ,
 * but <positive>"; only the verdict after "but" decides. */
function contrastClause(rand, d, p) {
  const c = Clause('pragmatic', p);
  put(c, pick(rand, EXPECT[p]));
  if (p && chance(rand, 0.4)) seq(rand, c, d, [FROM_CHEAP, PRICE, KIND], false);
  put(c, pick(rand, BUT));
  put(c, verdictPart(rand, d, p), 'content');
  return c;
}

const HEDGED = L(
  'mediocre|average|ok|okay|fine|decent|passable|edible|watchable|forgettable|lukewarm|mid|alright|tolerable|acceptable|so - so|bearable',
);
const AT = L('at best|at most|at best , honestly');
const BARELY = L(
  'barely edible|barely watchable|barely readable|barely usable|barely working|barely okay',
);
const GUESS = L(
  "ok i guess , nothing special|fine i guess , but i would n't pay for it again|it was ok i guess , nothing more|alright i guess , but forgettable",
);
function hedgeClause(rand, d) {
  const c = Clause('pragmatic', 0);
  const r = rand();
  if (r < 0.85 && chance(rand, 0.45)) seq(rand, c, d, [THE_ASPECT, VERB_BE], false);
  if (r < 0.7) seq(rand, c, d, [HEDGED, AT]);
  else if (r < 0.85) put(c, pick(rand, BARELY), true);
  else put(c, pick(rand, GUESS), 'content');
  return c;
}

const SLANG = [
  L(
    'mid|meh|trash|garbage|hot garbage|cringe|a flop|a dud|a snooze|a scam|a letdown|a mess|a joke|overhyped|overrated|a rip - off|bleh|a yawn|so mid|kinda mid|mid at best',
  ),
  L(
    "fire|straight fire|goated|elite|top tier|a banger|bussin|a vibe|legit|a steal|a gem|a hidden gem|peak|chef 's kiss|dope|unreal|insane|a must|next level|s tier",
  ),
];
const SLANG_ALONE = [
  L('meh|mid|meh , forgettable|bleh|trash|so mid|meh , expected better|mid tbh|nah'),
  L("fire|goated|elite|peak|no notes|chef 's kiss|banger|obsessed|a vibe|10 / 10 no notes"),
];
const SLANG_VERB = [
  L("sucks|flopped|stinks|is a flop|is a scam|ai n't it"),
  L('slaps|hits different|goes hard|rocks|rules|is a vibe|ate'),
];
const SLANG_DEG = L('honestly|lowkey|straight up|kinda|pretty|so|totally|tbh|just|lowkey kinda');
const SLANG_TAIL = L('tbh|ngl|honestly|fr|lol');
const BE = L("was|is|'s|were|felt");
function slangClause(rand, d, p) {
  const c = Clause('pragmatic', p);
  const r = rand();
  if (r < 0.22) put(c, pick(rand, SLANG_ALONE[p]), 'content');
  else if (r < 0.38) seq(rand, c, d, [THIS_KIND, SLANG_VERB[p]]);
  else {
    seq(rand, c, d, [(dd) => THE_ASPECT(dd).concat(THIS_KIND(dd)), BE], false);
    if (chance(rand, 0.5)) put(c, pick(rand, SLANG_DEG));
    put(c, pick(rand, SLANG[p]), 'content');
  }
  if (chance(rand, 0.15)) put(c, pick(rand, SLANG_TAIL));
  return c;
}

const SUPERLATIVE_TAIL = L(
  "in town|in the city|i 've had in years|this year|i 've ever had|ever|hands down|i 've tried|i 've been to|i 've stayed at|i 've seen in years|around|on the street",
);
const COMPARE = [
  [
    [
      L(
        "i 've had better|i 've eaten better|i 've seen better|i 've read better|i 've stayed in better|i 've used better|i 've had better coffee",
      ),
      L(
        'at a gas station|in a hospital|from a vending machine|at school|in a hostel|on a plane|at a motorway services|for free|in a school play',
      ),
    ],
    [
      L('my kid|my five year old|my dog|my little brother|my nephew|a child'),
      L(
        'could do better|could make better|could write better|could film better|could cook better|could build better',
      ),
    ],
    [
      (d) => THE_ASPECT(d),
      L('tastes like|feels like|reads like|looks like|sounds like'),
      L(
        'cardboard|plastic|a school project|a cheap knockoff|a toy|a rough draft|a bad joke|wet paper|a fake',
      ),
    ],
  ],
  [
    [
      L('better than|beats|it beats|way better than|as good as'),
      (d) => [
        'the expensive brands',
        'the original',
        'my old one',
        'the big names',
        'the book',
        ...d.kinds.map((k) => `any other ${k}`),
      ],
    ],
    [
      L('my new favourite|our go - to|our new favourite|my go - to|the only'),
      KIND,
      L('|now|in town|for sure|i trust'),
    ],
    [
      L('easily the best|the best|hands down the best|best|by far the best|honestly the best'),
      KIND,
      SUPERLATIVE_TAIL,
    ],
  ],
];
/** Neutral adjuncts a clause of either polarity may end with (reviews-verdicts.js anyClause). */
export const ADJUNCTS = L(
  'from start to finish|from the start|all night|all day|the whole time|for the whole trip|this time|every time|in the end|at the weekend|on our last night|after an hour|with my kids|on a friday night|at lunch|in the morning|after work|from the first page|from the first minute|of my life|in my life|at first glance|for a while|on the first day|after eating here|after a long day|for our anniversary|on the way home|in the moment',
);
// every superlative comes in both polarities, so that the polar word decides, not the frame
COMPARE[0].push(
  [
    L('easily the worst|the worst|hands down the worst|worst|by far the worst|honestly the worst'),
    KIND,
    SUPERLATIVE_TAIL,
  ],
  [
    L(
      'i expected more from|i expected better from|i expected a lot more from|i expected much more from',
    ),
    (d) => [
      'them',
      'this brand',
      'such a big name',
      'the price',
      ...d.kinds.flatMap((k) => [`this ${k}`, `a four star ${k}`, `a luxury ${k}`]),
    ],
  ],
);

const ADVICE = [
  L(
    "save your money|skip it|do n't bother|avoid|stay away|steer clear|run|you 've been warned|i want those two hours back|not worth a penny|do n't waste your time|look elsewhere|buy something else|hard pass|pass",
  ),
  L(
    "a must - see|a must - read|a must - try|a must - have|go see it|get it|buy it|book it|do yourself a favour and get it|you will n't regret it|zero regrets|no regrets|no notes|highly recommended|just buy it|trust me , get it|can n't complain|can n't fault it|could n't ask for more",
  ),
];

function starsClause(rand, d, p) {
  const c = Clause('pragmatic', p);
  put(c, pick(rand, STARS_LEAD[p]));
  put(c, pick(rand, STARS[p]), 'content');
  put(c, pick(rand, STARS_TAIL[p]), 'content');
  return c;
}
const fromSlots = (table) => (rand, d, p) =>
  seq(rand, Clause('pragmatic', p), d, pick(rand, table[p]));
const usageClause = fromSlots(USAGE);
const comparisonClause = fromSlots(COMPARE);
const adviceClause = (rand, d, p) => put(Clause('pragmatic', p), pick(rand, ADVICE[p]), 'content');

/** @type {[(rand: () => number, d: any, p: number) => any, number][]} */
const KINDS = [
  [starsClause, 0.15],
  [usageClause, 0.3],
  [contrastClause, 0.16],
  [(rand, d, p) => (p ? comparisonClause(rand, d, p) : hedgeClause(rand, d)), 0.1],
  [slangClause, 0.13],
  [comparisonClause, 0.08],
  [adviceClause, 0.08],
];

/** An implicit or pragmatic clause of polarity p (0 negative, 1 positive) about domain d. */
export function pragmaticClause(rand, d, p) {
  let r = rand();
  for (const [f, q] of KINDS) {
    if (r < q) return f(rand, d, p);
    r -= q;
  }
  return usageClause(rand, d, p);
}

/** Every token pragmaticClause can write besides the domain's own words (its lists split). */
LISTS.push(
  w(
    'later|in|for|as a gift|the|this|it|any other|the expensive brands|the original|my old one|the big names|the book',
  ),
);
export const PRAGMATIC_WORDS = Object.freeze(
  [...new Set(LISTS.flat().flatMap((s) => s.split(' ')))].filter(Boolean).sort(),
);
