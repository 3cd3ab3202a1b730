// scripts/train/agreement.mjs: three language models that read with memory, on the agreement
// grammar (web/data/agreement.js), architecture "memory-rnn" (docs/models.md):
//
//   lm-agreement-lstmn  the LSTMN (Cheng, Dong & Lapata 2016): attends over its own past states
//   lm-agreement-sarnn  a tanh RNN with self-attention over its states (additive align)
//   lm-agreement-lstm   the plain LSTM baseline, same E and H (no attention)
//
// Each: E 32, H 64, weights from createModel(config, { seed: 1 }), Adam 3e-3 with the common
// schedule, clip 1, batches of 32 fresh sentences generateAgreement({ seed: 1000 + step,
// split: 'train' }) (at most 2 modifiers between subject and verb), read as <s> words </s>.
// Held out: perplexity on 1,000 held-out sentences (seed 2024), and the agreement test of Linzen
// et al. 2016: P(correct verb | prefix) > P(wrong verb | prefix) on 1,000 held-out prefixes
// (agreementTestSet, seed 2024), by attractor count; and a deeper test the training never saw:
// 500 sentences with up to 6 modifiers and at least 4 attractors (maxModifiers 6, seed 2025).
// The test sample (200 sentences for perplexity and 200 prefixes, seed 7) is what
// tests/js/shipped-agreement.test.js re-checks.
// Not here: any maths (wasm), the grammar.

import { init, createModel, createTrainer } from '../../wasm/index.js';
import { generateAgreement, agreementTestSet, agreementAccuracy, AGREEMENT_VOCAB } from '../../web/data/agreement.js';
import { trainLoop, countParams, machine, command, scheduleText, writeModel, pct, rounded } from './common.mjs';

export const TRAIN_SEED = 1000;
export const HELDOUT_SEED = 2024;
export const DEEP_SEED = 2025;
export const TEST_SEED = 7;
const BATCH = 32;

/** The memory-rnn word tokenizer for the grammar: text is read as <s> words </s>. */
export const AGREEMENT_LM_TOKENIZER = Object.freeze({ type: 'word', vocab: AGREEMENT_VOCAB, unk: '<unk>', pad: '<pad>', bos: '<s>', eos: '</s>' });

const base = { architecture: 'memory-rnn', head: 'lm', embeddingSize: 32, hiddenSize: 64 };
const SPECS = {
  'lm-agreement-lstmn': { cfg: { cell: 'lstmn' }, steps: 3000, cost: 30, what: 'LSTMN (Cheng, Dong & Lapata 2016)' },
  'lm-agreement-sarnn': { cfg: { cell: 'self-attention-rnn', align: 'additive', attentionSize: 32 }, steps: 3000, cost: 15, what: 'tanh RNN with additive self-attention over its past states' },
  'lm-agreement-lstm': { cfg: { cell: 'lstm' }, steps: 3000, cost: 16, what: 'plain LSTM baseline (no attention), same sizes' },
};

/** log P(word | <s> prefix) for agreementAccuracy, one forward per distinct prefix. */
export function prefixScorer(model) {
  const ids = (w) => model.tokenizer.src.get(w) ?? model.tokenizer.src.get('<unk>');
  const bos = ids('<s>');
  const cache = new Map();
  return (prefix, word) => {
    const key = prefix.join(' ');
    let row = cache.get(key);
    if (!row) {
      const x = [bos, ...prefix.map(ids)];
      const r = model.run(x, { distributions: true });
      const V = r.distributions.shape[1];
      row = r.distributions.data.slice((x.length - 1) * V, x.length * V);
      cache.set(key, row);
    }
    return row[ids(word)];
  };
}

/** Perplexity over sentences (the mean next-token loss of <s> words </s>, exponentiated). */
export function perplexity(model, sentences) {
  let nll = 0, n = 0;
  for (const s of sentences) {
    const { logProbs } = model.run(s.text);
    for (const v of logProbs) nll -= v;
    n += logProbs.length;
  }
  return { perplexity: Math.exp(nll / n), tokens: n, count: sentences.length };
}

const agreement = (model, items) => {
  const a = agreementAccuracy(items, prefixScorer(model));
  return { accuracy: a.accuracy, count: a.count, byAttractors: a.byAttractors };
};

const configOf = (name) => ({
  ...base, ...SPECS[name].cfg, tokenizer: AGREEMENT_LM_TOKENIZER, name,
  description: `Language model of an English-like grammar with long-range subject-verb agreement; ${SPECS[name].what}`,
});
const batchOf = (s, count = BATCH) => generateAgreement({ seed: TRAIN_SEED + s, count, split: 'train' }).map((e) => ({ src: e.text }));

async function trainLm(name, { steps: stepsOverride, out }) {
  await init();
  const spec = SPECS[name];
  const steps = stepsOverride ?? spec.steps;
  const lr = 3e-3, seed = 1;
  const config = configOf(name);
  const model = await createModel(config, { seed });
  const trainer = createTrainer(model, { optimizer: 'adam', lr, clip: 1 });
  const probeItems = agreementTestSet({ seed: HELDOUT_SEED + 1, count: 200 });
  const run = trainLoop({
    name, trainer, steps, lr, every: 1000,
    batch: (s) => batchOf(s),
    probe: () => ({ probeAgreement: agreement(model, probeItems).accuracy }),
  });
  const heldout = {
    ...perplexity(model, generateAgreement({ seed: HELDOUT_SEED, count: 1000, split: 'heldout' })),
    agreement: agreement(model, agreementTestSet({ seed: HELDOUT_SEED, count: 1000 })),
    deeperAgreement: agreement(model, agreementTestSet({ seed: DEEP_SEED, count: 500, maxModifiers: 6, minAttractors: 4 })),
  };
  const test = {
    ...perplexity(model, generateAgreement({ seed: TEST_SEED, count: 200, split: 'heldout' })),
    agreement: agreement(model, agreementTestSet({ seed: TEST_SEED, count: 200 })),
  };
  delete test.agreement.byAttractors;
  const bytes = trainer.save();
  const card = {
    name,
    task: 'language model: the next word of a sentence of the agreement grammar (web/data/agreement.js); the test is whether it prefers the verb form that agrees with the subject',
    file: `${name}.safetensors`,
    architecture: {
      family: 'memory-rnn (docs/models.md)', ...base, ...spec.cfg,
      parameters: countParams(bytes), bytes: bytes.length,
    },
    data: {
      generator: 'web/data/agreement.js generateAgreement()',
      split: 'held out when hash(text) % 10 == 0; training never sees those sentences',
      train: `generateAgreement({ seed: ${TRAIN_SEED} + step, count: ${BATCH}, split: 'train' }) per step (maxModifiers 2), text read as <s> words </s>`,
      heldout: `perplexity: generateAgreement({ seed: ${HELDOUT_SEED}, count: 1000, split: 'heldout' }); agreement: agreementTestSet({ seed: ${HELDOUT_SEED}, count: 1000 }); deeper: agreementTestSet({ seed: ${DEEP_SEED}, count: 500, maxModifiers: 6, minAttractors: 4 }) (4-6 attractors; training has at most 2)`,
    },
    training: {
      command: command(name, { steps, stepsOverride }),
      initSeed: seed, optimizer: 'adam', lr, schedule: scheduleText(steps),
      clip: 1, batchSize: BATCH, steps, seconds: run.seconds, cpuSeconds: run.cpuSeconds,
      machine: machine(), log: run.log,
    },
    metrics: {
      heldout: { seed: HELDOUT_SEED, ...heldout },
      testSample: { seed: TEST_SEED, ...test },
    },
  };
  const file = await writeModel(out, name, bytes, rounded(card));
  const by = (a) => a.byAttractors.map((b) => `${b.attractors}: ${pct(b.accuracy, 1)} (${b.count})`).join(', ');
  console.log(`${name}: held-out perplexity ${heldout.perplexity.toFixed(3)} (1000 sentences), agreement ${pct(heldout.agreement.accuracy)} (by attractors ${by(heldout.agreement)}), deeper (up to 6 modifiers, >= 4 attractors) ${pct(heldout.deeperAgreement.accuracy)} (${by(heldout.deeperAgreement)}); ${run.seconds.toFixed(0)} s (cpu ${run.cpuSeconds.toFixed(0)} s), ${countParams(bytes)} parameters, ${bytes.length} bytes -> ${file}`);
  trainer.dispose();
  model.dispose();
  return card;
}

export const MODELS = Object.fromEntries(Object.entries(SPECS).map(([name, spec]) => [
  name, { family: 'agreement', cost: spec.cost, config: () => configOf(name), batch: batchOf, train: (o) => trainLm(name, o) },
]));
