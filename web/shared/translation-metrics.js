// attnlab/web/shared/translation-metrics.js: the measures of the translation models, shared by
// the trainer (scripts/train/translation.mjs), the tests and the page.
//
//   bleu([['le', 'chat', '.']], [['le', 'chat', '.']]).bleu      // 100
//   alignmentError(attention, gold)   // { aer, links, gold, hits, mass } of one sentence
//   sumAlignment([a, b, …])           // the corpus AER and mass of several sentences
//
// BLEU (Papineni et al. 2002), corpus level, on tokens: modified n-gram precisions p_1..p_4 summed
// over the corpus (each candidate n-gram's count clipped to its count in the reference), the
// brevity penalty BP = 1 when the candidate length c > reference length r, else exp(1 − r/c), and
// BLEU = 100 · BP · exp(¼ Σ log p_n); 0 when some p_n is 0 (no smoothing: the corpus sums are
// large). One reference per sentence.
// AER (Och & Ney 2003) with every gold link sure (S = P = G): AER = 1 − 2|A ∩ G| / (|A| + |G|),
// A the model's links. From attention (one row per French token, one column per English token) A
// has one link per row, its argmax (the first on ties); mass is the attention the row puts on its
// gold words, averaged over rows: the whole distribution, not only its peak.
// Not here: decoding or forcing the model (the callers do), the gold (web/data/translation.js).

/** n-gram counts of tokens (keys joined with U+0001). */
function ngrams(tokens, n) {
  const m = new Map();
  for (let i = 0; i + n <= tokens.length; i++) {
    const k = tokens.slice(i, i + n).join('\u0001');
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

/**
 * Corpus BLEU-4 of candidates against references (arrays of token arrays, same length).
 * @param {string[][]} candidates
 * @param {string[][]} references
 * @param {{ maxN?: number }} [options]
 * @returns {{ bleu: number, precisions: number[], brevityPenalty: number, candidateLength: number, referenceLength: number }}
 */
export function bleu(candidates, references, { maxN = 4 } = {}) {
  if (
    !Array.isArray(candidates) ||
    !Array.isArray(references) ||
    candidates.length !== references.length
  ) {
    throw new Error(
      `bleu: candidates and references must be arrays of the same length (got ${candidates?.length} and ${references?.length})`,
    );
  }
  const match = new Array(maxN).fill(0),
    total = new Array(maxN).fill(0);
  let c = 0,
    r = 0;
  candidates.forEach((cand, s) => {
    const ref = references[s];
    c += cand.length;
    r += ref.length;
    for (let n = 1; n <= maxN; n++) {
      const cg = ngrams(cand, n),
        rg = ngrams(ref, n);
      for (const [k, v] of cg) {
        match[n - 1] += Math.min(v, rg.get(k) ?? 0);
        total[n - 1] += v;
      }
    }
  });
  const precisions = match.map((m, i) => (total[i] ? m / total[i] : 0));
  const brevityPenalty = c === 0 ? 0 : c > r ? 1 : Math.exp(1 - r / c);
  const score = precisions.some((p) => p === 0)
    ? 0
    : 100 * brevityPenalty * Math.exp(precisions.reduce((a, p) => a + Math.log(p), 0) / maxN);
  return { bleu: score, precisions, brevityPenalty, candidateLength: c, referenceLength: r };
}

/**
 * One sentence's alignment against the gold.
 * @param {{ data: ArrayLike<number>, shape: [number, number] }} attention [T, S]: row j is French token j
 * @param {number[][]} gold gold[j] the English indices of French token j
 * @param {{ rows?: number[] }} [options] only these French tokens (a phenomenon's); all by default
 * @returns {{ aer: number, links: number, gold: number, hits: number, mass: number, rows: number }}
 */
export function alignmentError(attention, gold, { rows } = {}) {
  const [T, S] = attention.shape;
  if (T < gold.length)
    throw new Error(`alignmentError: the attention has ${T} rows for ${gold.length} French tokens`);
  const use = rows ?? gold.map((_, j) => j);
  let links = 0,
    goldLinks = 0,
    hits = 0,
    mass = 0;
  for (const j of use) {
    const g = gold[j];
    for (const i of g)
      if (!Number.isInteger(i) || i < 0 || i >= S)
        throw new Error(
          `alignmentError: gold link ${i} of French token ${j} is outside the ${S} English tokens`,
        );
    let best = 0;
    for (let i = 1; i < S; i++)
      if (attention.data[j * S + i] > attention.data[j * S + best]) best = i;
    links++;
    goldLinks += g.length;
    if (g.includes(best)) hits++;
    for (const i of g) mass += attention.data[j * S + i];
  }
  return {
    ...aerOf(links, goldLinks, hits),
    links,
    gold: goldLinks,
    hits,
    mass: use.length ? mass / use.length : NaN,
    rows: use.length,
  };
}

const aerOf = (links, gold, hits) => ({
  aer: links + gold ? 1 - (2 * hits) / (links + gold) : NaN,
});

/** Several alignmentError results → the corpus AER (links summed, not AERs averaged) and the mean mass per French token. */
export function sumAlignment(parts) {
  let links = 0,
    gold = 0,
    hits = 0,
    massSum = 0,
    rows = 0;
  for (const p of parts) {
    links += p.links;
    gold += p.gold;
    hits += p.hits;
    massSum += p.mass * p.rows || 0;
    rows += p.rows;
  }
  return {
    ...aerOf(links, gold, hits),
    links,
    gold,
    hits,
    mass: rows ? massSum / rows : NaN,
    rows,
  };
}
