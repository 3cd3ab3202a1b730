// scripts/bench/train-tfjs.mjs: a lab preset's seq2seq model in TensorFlow.js (any backend; the
// bench uses tfjs-backend-wasm), for the tfjs-wasm contender of the train:<preset> rows
// (scripts/bench/train.mjs): the same architecture, the same initial weights (the tensors of the
// safetensors file attnlab's createModel() wrote, in PyTorch layout), the same batches and the
// same loss (summed token NLL / number of target tokens), trained with tf.variableGrads, global
// norm clipping and tf.train.adam, written the way one would write it in tfjs:
//   encoder  the source embedding gathered for the whole batch; x W_ihᵀ + b for all steps in one
//            matMul; then h W_hhᵀ per step for the B sentences at once, the state carried through
//            padding (h ← h + m (h' − h), m = 1 on real tokens), so each sentence's final state is
//            its last real token's; the reverse direction runs on each sentence reversed within
//            its length (one gather, undone by the same gather).
//   decoder  [B, H] states; additive attention projects the keys once per batch (K W_kᵀ + b),
//            the query per step; padded keys get −1e30 before the softmax; Bahdanau (attend
//            s_{t−1}, cell on [y; c], features [s_t; c]) or Luong with input feeding (cell on
//            [y; h~_{t−1}], attend h_t, h~_t = tanh(W_c [c; h_t])); one output matMul and
//            log-softmax over every [B·T] feature row.
// Supported: LSTM, one layer, uni- or bidirectional, attention additive, dot or none (every
// seq2seq preset of web/lab/presets.js); anything else throws, naming what is missing.
// Not here: the transformer presets (train-tfjs-transformer.mjs, on this file's adamTrainer,
// modelVariables, embedRows and maskedNll).

let made = 0; // tf.variable names are global: each trainer's get a prefix of their own
const NEG = -1e30; // added to padded keys' scores: exp() of it is exactly 0 next to any real score

/**
 * @param {any} tf tfjs-core with a backend set
 * @param {{ config: object, tensors: Map<string, {data: Float32Array, shape: number[]}>,
 *           batches: Array<{B:number,S:number,T:number,src:Int32Array,srcLen:Int32Array,
 *                           tgt:Int32Array,tgtLen:Int32Array}>, bos: number, lr: number,
 *           clip: number }} o
 * @returns {{ step(): [number, number], variant: string, dispose(): void }}
 */
export function tfjsSeq2seqTrainer(tf, o) {
  const cfg = o.config;
  if (cfg.architecture !== 'seq2seq')
    throw new Error(`tfjs: no form of the ${cfg.architecture} architecture here`);
  if (cfg.cell !== 'lstm') throw new Error(`tfjs: only the LSTM cell, not ${cfg.cell}`);
  if (cfg.numLayers !== 1) throw new Error(`tfjs: only one layer, not ${cfg.numLayers}`);
  const att = cfg.attention;
  if (!['additive', 'dot', 'none'].includes(att))
    throw new Error(`tfjs: attention ${att} has no form here`);
  const luong = cfg.style === 'luong';
  if (luong && (att === 'none') === Boolean(cfg.inputFeeding))
    throw new Error('tfjs: Luong style only with attention and input feeding, or neither');
  const H = cfg.hiddenSize;
  const dirs = cfg.bidirectional ? 2 : 1;
  const h1 = H / dirs;

  const { vars, W } = modelVariables(tf, o.tensors);

  // per batch, constant: ids, masks, the reversal permutation, target one-hot weights
  const consts = [];
  const keep = (t) => (consts.push(t), t);
  const prepared = o.batches.map((b) => {
    const { B, S, T } = b;
    const srcMask = new Float32Array(B * S);
    const rev = new Int32Array(B * S);
    const bias = new Float32Array(B * S);
    for (let i = 0; i < B; i++)
      for (let t = 0; t < S; t++) {
        const real = t < b.srcLen[i];
        srcMask[i * S + t] = real ? 1 : 0;
        bias[i * S + t] = real ? 0 : NEG;
        rev[i * S + t] = i * S + (real ? b.srcLen[i] - 1 - t : t);
      }
    const ys = new Int32Array(B * T);
    const tgtW = new Float32Array(B * T);
    let n = 0;
    for (let i = 0; i < B; i++)
      for (let t = 0; t < T; t++) {
        ys[i * T + t] = t === 0 ? o.bos : b.tgt[i * T + t - 1];
        if (t < b.tgtLen[i]) (tgtW[i * T + t] = 1), n++;
      }
    return {
      B, S, T, n,
      src: keep(tf.tensor(b.src, [B * S], 'int32')),
      srcHot: keep(tf.oneHot(tf.tensor(b.src, [B * S], 'int32'), W('src_embedding.weight').shape[0])),
      ysHot: keep(tf.oneHot(tf.tensor(ys, [B * T], 'int32'), W('tgt_embedding.weight').shape[0])),
      mask: keep(tf.tensor(srcMask, [B, S])),
      maskBias: keep(tf.tensor(bias, [B, S])),
      rev: keep(tf.tensor(rev, [B * S], 'int32')),
      ys: keep(tf.tensor(ys, [B * T], 'int32')),
      tgt: keep(tf.tensor(b.tgt, [B * T], 'int32')),
      tgtW: keep(tf.tensor(tgtW, [B * T])),
    };
  });

  // tf.gather's gradient needs UnsortedSegmentSum, which tfjs-backend-wasm lacks: embeddings by
  // embedRows, and the reversal permutation's gradient is the same gather (its own inverse)
  const embed = (table, ids, hot) => embedRows(tf, table, ids, hot);
  const permute = (x, rev) =>
    tf.customGrad((v) => ({ value: tf.gather(v, rev), gradFunc: (dy) => tf.gather(dy, rev) }))(x);

  /** One LSTM direction over x [B, S, I] with masks [B, S] -> outputs [B, S, h], final h, c. */
  const lstmDir = (x, mask, B, S, suffix) => {
    const I = x.shape[2];
    const wih = W(`encoder.weight_ih_l0${suffix}`);
    const whh = W(`encoder.weight_hh_l0${suffix}`);
    const b = tf.add(W(`encoder.bias_ih_l0${suffix}`), W(`encoder.bias_hh_l0${suffix}`));
    const xp = tf.unstack(tf.reshape(tf.add(tf.matMul(tf.reshape(x, [B * S, I]), wih, false, true), b), [B, S, 4 * h1]), 1);
    const ms = tf.unstack(tf.reshape(mask, [B, S, 1]), 1);
    let h = tf.zeros([B, h1]);
    let c = tf.zeros([B, h1]);
    const outs = [];
    for (let t = 0; t < S; t++) {
      const [i, f, g, oo] = tf.split(tf.add(xp[t], tf.matMul(h, whh, false, true)), 4, 1);
      const c2 = tf.add(tf.mul(tf.sigmoid(f), c), tf.mul(tf.sigmoid(i), tf.tanh(g)));
      const h2 = tf.mul(tf.sigmoid(oo), tf.tanh(c2));
      c = tf.add(c, tf.mul(ms[t], tf.sub(c2, c)));
      h = tf.add(h, tf.mul(ms[t], tf.sub(h2, h)));
      outs.push(h2);
    }
    return { out: tf.stack(outs, 1), h, c };
  };

  const lossOf = (p) => () => {
    const { B, S, T } = p;
    const E = W('src_embedding.weight').shape[1];
    const x = tf.reshape(embed(W('src_embedding.weight'), p.src, p.srcHot), [B, S, E]);
    const fwd = lstmDir(x, p.mask, B, S, '');
    let keys = fwd.out;
    let h = fwd.h;
    let c = fwd.c;
    if (dirs === 2) {
      const flip = (t, width) => tf.reshape(permute(tf.reshape(t, [B * S, width]), p.rev), [B, S, width]);
      const bwd = lstmDir(flip(x, E), p.mask, B, S, '_reverse');
      keys = tf.concat([keys, flip(bwd.out, h1)], 2);
      h = tf.concat([h, bwd.h], 1);
      c = tf.concat([c, bwd.c], 1);
    }
    let attend = null;
    if (att !== 'none') {
      const kproj = att === 'additive'
        ? tf.reshape(tf.add(tf.matMul(tf.reshape(keys, [B * S, H]), W('attention.W_k'), false, true), W('attention.bias')), [B, S, -1])
        : null;
      const da = kproj ? kproj.shape[2] : 0;
      const v = att === 'additive' ? tf.reshape(W('attention.v'), [da, 1]) : null;
      attend = (q) => {
        let e;
        if (att === 'additive') {
          const qp = tf.expandDims(tf.matMul(q, W('attention.W_q'), false, true), 1);
          e = tf.reshape(tf.matMul(tf.reshape(tf.tanh(tf.add(kproj, qp)), [B * S, da]), v), [B, S]);
        } else e = tf.reshape(tf.matMul(keys, tf.expandDims(q, 2)), [B, S]);
        const a = tf.softmax(tf.add(e, p.maskBias));
        return tf.reshape(tf.matMul(tf.expandDims(a, 1), keys), [B, H]);
      };
    }
    const wih = W('decoder.weight_ih');
    const whh = W('decoder.weight_hh');
    const db = tf.add(W('decoder.bias_ih'), W('decoder.bias_hh'));
    const emb = tf.unstack(tf.reshape(embed(W('tgt_embedding.weight'), p.ys, p.ysHot), [B, T, E]), 1); // T × [B, E]
    let feed = tf.zeros([B, H]);
    const feats = [];
    for (let t = 0; t < T; t++) {
      let inp = emb[t];
      let ctx = null;
      if (!luong && attend) {
        ctx = attend(h);
        inp = tf.concat([inp, ctx], 1);
      } else if (luong && attend) inp = tf.concat([inp, feed], 1);
      const [i, f, g, oo] = tf.split(tf.add(tf.add(tf.matMul(inp, wih, false, true), tf.matMul(h, whh, false, true)), db), 4, 1);
      c = tf.add(tf.mul(tf.sigmoid(f), c), tf.mul(tf.sigmoid(i), tf.tanh(g)));
      h = tf.mul(tf.sigmoid(oo), tf.tanh(c));
      if (luong && attend) {
        feed = tf.tanh(tf.matMul(tf.concat([attend(h), h], 1), W('attention.W_c'), false, true));
        feats.push(feed);
      } else feats.push(ctx ? tf.concat([h, ctx], 1) : h);
    }
    const F = feats[0].shape[1];
    const logits = tf.add(tf.matMul(tf.reshape(tf.stack(feats, 1), [B * T, F]), W('out.weight'), false, true), W('out.bias'));
    return maskedNll(tf, logits, p.tgt, p.tgtW, p.n);
  };

  return adamTrainer(tf, {
    vars,
    consts,
    prepared,
    lossOf,
    lr: o.lr,
    clip: o.clip,
    variant: `tf.variableGrads of a batched seq2seq (masked [B, H] LSTM steps${dirs === 2 ? ', reverse direction by gather' : ''}${att === 'additive' ? ', keys projected once' : ''}), global-norm clip, tf.train.adam`,
  });
}

/** The model file's tensors as tf.variables: a Map name → variable, and W(name), which throws
 * naming a tensor the file lacks. */
export function modelVariables(tf, tensors) {
  const vars = new Map();
  const prefix = `t${++made}`;
  for (const [name, t] of tensors) vars.set(name, tf.variable(tf.tensor(t.data, t.shape), true, `${prefix}/${name}`));
  const W = (name) => {
    const v = vars.get(name);
    if (!v) throw new Error(`tfjs: the model file has no ${name}`);
    return v;
  };
  return { vars, W };
}

// tfjs-backend-wasm has no UnsortedSegmentSum, which tf.gather's gradient needs: an embedding's
// gradient is (one-hot ids)ᵀ dY instead (hot: the one-hot ids, a constant per batch)
export const embedRows = (tf, table, ids, hot) =>
  tf.customGrad((w) => ({ value: tf.gather(w, ids), gradFunc: (dy) => tf.matMul(hot, dy, true, false) }))(table);

/** A trainer over prepared batches: one Adam step per call on the next batch, the gradient's
 * global norm clipped first; step() -> [loss, norm before clipping]. */
export function adamTrainer(tf, { vars, consts, prepared, lossOf, lr, clip, variant }) {
  const varList = [...vars.values()];
  const opt = tf.train.adam(lr, 0.9, 0.999, 1e-8);
  const max = clip > 0 ? clip : Infinity;
  let k = 0;
  return {
    variant,
    step() {
      const p = prepared[k++ % prepared.length];
      return tf.tidy(() => {
        const { value, grads } = tf.variableGrads(lossOf(p), varList);
        const n = tf.sqrt(tf.addN(Object.values(grads).map((g) => tf.sum(tf.square(g)))));
        const nv = n.dataSync()[0];
        const scale = nv > max ? max / nv : 1;
        const scaled = {};
        for (const [name, g] of Object.entries(grads)) scaled[name] = scale === 1 ? g : tf.mul(g, scale);
        opt.applyGradients(scaled);
        return [value.dataSync()[0], nv];
      });
    },
    dispose() {
      opt.dispose();
      for (const v of varList) v.dispose();
      for (const t of consts) t.dispose();
    },
  };
}

/** −Σ log p(target) over the real target tokens / their number: logits [N, V], tgt int32 [N],
 * weights [N] (1 real, 0 padding), n the real count. */
export function maskedNll(tf, logits, tgt, weights, n) {
  const picked = tf.sum(tf.mul(tf.logSoftmax(logits), tf.oneHot(tgt, logits.shape[1])), 1);
  return tf.div(tf.neg(tf.sum(tf.mul(picked, weights))), n);
}
