// scripts/train/calibration.mjs: temperature scaling for the classifiers (issue 30; Guo et al.
// 2017, "On Calibration of Modern Neural Networks"): the model's logits on a calibration set, the
// temperature T > 0 that minimises the negative log-likelihood of softmax(logits / T) there, the
// expected calibration error (ECE) of a model's probabilities, and the model file with T written
// into its config ("temperature", docs/models.md), which the C classify applies.
//
//   const logits = logitsOf(model, reviews);               // [{ logits, label }]
//   const T = fitTemperature(logits);                     // rounded to 3 significant digits
//   const calibrated = withTemperature(bytes, T);         // the same file, config.temperature = T
//   ece(model, reviews).ece                               // 10 equal-width bins, max probability
//
// ECE (Naeini et al. 2015; Guo et al. 2017, eq. 3): answers binned by their confidence (the top
// probability) into 10 equal-width bins [0, 0.1), ..., [0.9, 1]; ECE = Σ_b (n_b / N) ·
// |accuracy_b − mean confidence_b|. Deliberately not here: which set is fitted on (the family's
// training script), the page's thresholds (web/views/pooling-view.js).

/** Each review's logits (from classify's states: the raw logits, before any temperature) and
 * label id: [{ logits: number[], labelId }]. reviews: [{ text, label }]. */
export function logitsOf(model, reviews) {
  return reviews.map(({ text, label }) => {
    const labelId = model.labels.indexOf(label);
    if (labelId < 0) throw new Error(`logitsOf: label "${label}" is not one of the model's`);
    return {
      logits: Array.from(model.classify(text, { states: true }).states.logits.data),
      labelId,
    };
  });
}

/** softmax(logits / T), in double. */
export function softmaxT(logits, T = 1) {
  const mx = Math.max(...logits);
  const e = logits.map((z) => Math.exp((z - mx) / T));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

/** Mean −log p(label) of softmax(logits / T) over items [{ logits, labelId }]. */
export function nll(items, T) {
  let s = 0;
  for (const { logits, labelId } of items) {
    const mx = Math.max(...logits);
    let z = 0;
    for (const v of logits) z += Math.exp((v - mx) / T);
    s += Math.log(z) - (logits[labelId] - mx) / T;
  }
  return s / items.length;
}

/**
 * The temperature minimising nll(items, T): golden-section search on log T over
 * [1/20, 1000] (the NLL is unimodal in 1/T: convex, as the log-partition minus a linear term),
 * 100 iterations, rounded to 3 significant digits (the file's value; the NLL is flat at that
 * scale). Deterministic: the same items give the same T.
 */
export function fitTemperature(items) {
  if (!items.length) throw new Error('fitTemperature: no items');
  let a = Math.log(1 / 20),
    b = Math.log(1000);
  const g = (Math.sqrt(5) - 1) / 2;
  const f = (u) => nll(items, Math.exp(u));
  let c = b - g * (b - a),
    d = a + g * (b - a),
    fc = f(c),
    fd = f(d);
  for (let i = 0; i < 100; i++) {
    if (fc < fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - g * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + g * (b - a);
      fd = f(d);
    }
  }
  return Number(Math.exp((a + b) / 2).toPrecision(3));
}

/** ECE with `bins` equal-width bins over answers [{ confidence, right }] (right: 0 or 1). */
export function eceOf(answers, bins = 10) {
  const n = new Array(bins).fill(0),
    conf = new Array(bins).fill(0),
    acc = new Array(bins).fill(0);
  for (const { confidence, right } of answers) {
    const b = Math.min(bins - 1, Math.floor(confidence * bins));
    n[b]++;
    conf[b] += confidence;
    acc[b] += right;
  }
  let e = 0;
  for (let b = 0; b < bins; b++) if (n[b]) e += Math.abs(acc[b] - conf[b]) / answers.length;
  return e;
}

/**
 * What a model's own classify says on reviews [{ text, label }] (the file's temperature
 * applied): { accuracy, ece (10 bins), count, answers: [{ text, label, predicted, confidence,
 * right }] }.
 */
export function calibrationOf(model, reviews) {
  const answers = reviews.map(({ text, label }) => {
    const r = model.classify(text);
    return {
      text,
      label,
      predicted: r.label,
      confidence: r.probs[r.labelId],
      right: r.label === label ? 1 : 0,
    };
  });
  return {
    accuracy: answers.reduce((a, x) => a + x.right, 0) / answers.length,
    ece: eceOf(answers),
    count: answers.length,
    answers,
  };
}

/**
 * The error rate of answers whose confidence is below `threshold` (and how many there are),
 * and of the rest: how an "unsure below threshold" note reads on a set.
 */
export function unsureRates(answers, threshold) {
  const below = answers.filter((x) => x.confidence < threshold);
  const above = answers.filter((x) => x.confidence >= threshold);
  const wrong = (xs) => (xs.length ? xs.filter((x) => !x.right).length / xs.length : 0);
  return {
    threshold,
    below: below.length,
    wrongBelow: wrong(below),
    above: above.length,
    wrongAbove: wrong(above),
  };
}

/**
 * A safetensors file with its config's "temperature" set to T (T = 1: the key removed, the
 * format's default), everything else byte for byte as it was (tensors, their order, the other
 * metadata); the header is padded to 8 bytes as al_model_save's.
 * @param {Uint8Array} bytes
 * @param {number} T
 */
export function withTemperature(bytes, T) {
  if (!(T > 0 && T <= 1000))
    throw new Error(`withTemperature: ${T} is not a temperature in (0, 1000]`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Number(dv.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  const config = JSON.parse(header.__metadata__.config);
  delete config.temperature;
  const out = {};
  for (const [k, v] of Object.entries(config)) {
    out[k] = v;
    if (k === 'labels' && T !== 1) out.temperature = T; // beside the other output keys
  }
  if (T !== 1 && out.temperature === undefined) out.temperature = T;
  header.__metadata__ = { ...header.__metadata__, config: JSON.stringify(out) };
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - ((8 + new TextEncoder().encode(json).length) % 8)) % 8);
  const head = new TextEncoder().encode(json);
  const data = bytes.subarray(8 + n);
  const file = new Uint8Array(8 + head.length + data.length);
  new DataView(file.buffer).setBigUint64(0, BigInt(head.length), true);
  file.set(head, 8);
  file.set(data, 8 + head.length);
  return file;
}
