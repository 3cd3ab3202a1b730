// scripts/bench/train-tfjs-transformer.mjs: a lab preset's transformer (encoder-decoder, the
// architecture of python/attnlab/torch/transformer.py: nn.TransformerEncoder / DecoderLayer,
// pre-norm or post-norm, ReLU feed-forward, optional final norms, learned, sinusoidal or
// relative (Shaw et al. 2018) positions) in TensorFlow.js, for the tfjs-wasm contender of the
// train:<preset> rows (scripts/bench/train.mjs), batched as one would write it in tfjs:
//   x = emb(ids) [· √E] + P[:n];   per layer, on [B·n, E] rows: the q, k, v projections as one
//   matMul each, heads by reshape + transpose to [B·H, n, Dh], scores as one batched matMul, an
//   additive mask (padded source keys −1e30, the decoder's causal mask), softmax, context,
//   out-projection; relative positions add q·a_K[r_ij] and Σ_j α_ij a_V[r_ij] as batched matMuls
//   over i; the loss over all [B·T] rows at once (train-tfjs.mjs maskedNll).
// Same weights (the model file's tensors), same batches, same loss as attnlab; trained by
// train-tfjs.mjs adamTrainer (tf.variableGrads, global-norm clip, tf.train.adam).

import { adamTrainer, embedRows, maskedNll, modelVariables } from './train-tfjs.mjs';

const NEG = -1e30;
const EPS = 1e-5; // nn.LayerNorm's default

/** @param {any} tf @param {{ config: object, tensors: Map<string, {data: Float32Array, shape: number[]}>,
 *  batches: Array<object>, bos: number, lr: number, clip: number }} o */
export function tfjsTransformerTrainer(tf, o) {
  const cfg = o.config;
  if (cfg.architecture !== 'transformer' || cfg.variant !== 'encoder-decoder')
    throw new Error(`tfjs: no form of ${cfg.architecture} ${cfg.variant ?? ''} here`);
  if ((cfg.activation ?? 'relu') !== 'relu') throw new Error(`tfjs: activation ${cfg.activation}`);
  const E = cfg.embeddingSize;
  const H = cfg.numHeads;
  const Dh = E / H;
  const L = cfg.numLayers;
  const pos = cfg.positions;
  const pre = cfg.normFirst ?? false;
  const rel = pos === 'relative';
  const kRel = cfg.maxRelativePosition;
  const { vars, W } = modelVariables(tf, o.tensors);
  const has = (name) => vars.has(name);

  const consts = [];
  const keep = (t) => (consts.push(t), t);
  /** one-hot of r_ij = clip(j − i, −k, k) + k for an n × n sequence: [n·n, 2k+1], made once per
   * length (outside the step's tf.tidy, which would dispose it) */
  const relHot = new Map();
  const relOf = (n) => {
    if (!relHot.has(n)) {
      const r = new Int32Array(n * n);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) r[i * n + j] = Math.max(-kRel, Math.min(kRel, j - i)) + kRel;
      relHot.set(n, keep(tf.oneHot(tf.tensor(r, [n * n], 'int32'), 2 * kRel + 1)));
    }
    return relHot.get(n);
  };
  const sinus = (n) => {
    const P = new Float32Array(n * E);
    for (let t = 0; t < n; t++)
      for (let j = 0; j < E; j++) {
        const a = t / Math.pow(10000, (j - (j % 2)) / E);
        P[t * E + j] = j % 2 ? Math.cos(a) : Math.sin(a);
      }
    return keep(tf.tensor(P, [n, E]));
  };
  const prepared = o.batches.map((b) => {
    const { B, S, T } = b;
    const srcBias = new Float32Array(B * H * S); // [B·H, 1, S]: padded keys of the source
    for (let i = 0; i < B; i++)
      for (let h = 0; h < H; h++)
        for (let s = 0; s < S; s++) srcBias[(i * H + h) * S + s] = s < b.srcLen[i] ? 0 : NEG;
    const causal = new Float32Array(T * T);
    for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) causal[i * T + j] = NEG;
    const ys = new Int32Array(B * T);
    const tgtW = new Float32Array(B * T);
    let n = 0;
    for (let i = 0; i < B; i++)
      for (let t = 0; t < T; t++) {
        ys[i * T + t] = t === 0 ? o.bos : b.tgt[i * T + t - 1];
        if (t < b.tgtLen[i]) (tgtW[i * T + t] = 1), n++;
      }
    const src = keep(tf.tensor(b.src, [B * S], 'int32'));
    const ysT = keep(tf.tensor(ys, [B * T], 'int32'));
    return {
      B, S, T, n, src, ys: ysT,
      srcHot: keep(tf.oneHot(src, W('src_embedding.weight').shape[0])),
      ysHot: keep(tf.oneHot(ysT, W('tgt_embedding.weight').shape[0])),
      srcBias: keep(tf.tensor(srcBias, [B * H, 1, S])),
      causal: keep(tf.tensor(causal, [1, T, T])),
      tgt: keep(tf.tensor(b.tgt, [B * T], 'int32')),
      tgtW: keep(tf.tensor(tgtW, [B * T])),
      sin: pos === 'sinusoidal' ? { S: sinus(S), T: sinus(T) } : null,
      rel: rel ? { S: relOf(S), T: relOf(T) } : null, // made here, outside any tf.tidy
    };
  });

  const linear = (x, w, b) => tf.add(tf.matMul(x, W(w), false, true), W(b)); // x [N, in]
  const norm = (x, name) => {
    const { mean, variance } = tf.moments(x, -1, true);
    return tf.add(tf.mul(tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, EPS))), W(`${name}.weight`)), W(`${name}.bias`));
  };
  /** [B·n, E] -> [B·H, n, Dh] */
  const heads = (x, B, n) => tf.reshape(tf.transpose(tf.reshape(x, [B, n, H, Dh]), [0, 2, 1, 3]), [B * H, n, Dh]);
  const unheads = (z, B, n) => tf.reshape(tf.transpose(tf.reshape(z, [B, H, n, Dh]), [0, 2, 1, 3]), [B * n, E]);

  /** multi-head attention of xq [B·Tq, E] over xkv [B·Tk, E] with bias (broadcast to [B·H, Tq, Tk]);
   * hot: relOf(n) for relative self-attention, else null */
  const attention = (name, xq, xkv, B, Tq, Tk, bias, hot) => {
    const w = W(`${name}.in_proj_weight`);
    const bb = W(`${name}.in_proj_bias`);
    const proj = (x, i) => tf.add(tf.matMul(x, tf.slice(w, [i * E, 0], [E, E]), false, true), tf.slice(bb, [i * E], [E]));
    const q = heads(proj(xq, 0), B, Tq);
    const k = heads(proj(xkv, 1), B, Tk);
    const v = heads(proj(xkv, 2), B, Tk);
    let e = tf.matMul(q, k, false, true); // [B·H, Tq, Tk]
    let aV = null;
    if (hot) {
      const n = Tq; // self-attention: Tq = Tk
      const aK = tf.reshape(tf.matMul(hot, W(`${name}.relative_key.weight`)), [n, n, Dh]);
      aV = tf.reshape(tf.matMul(hot, W(`${name}.relative_value.weight`)), [n, n, Dh]);
      const qi = tf.transpose(q, [1, 0, 2]); // [n_i, B·H, Dh]
      e = tf.add(e, tf.transpose(tf.matMul(qi, aK, false, true), [1, 0, 2])); // q_i · a_K[i, j]
    }
    const a = tf.softmax(tf.add(tf.mul(e, 1 / Math.sqrt(Dh)), bias));
    let z = tf.matMul(a, v); // [B·H, Tq, Dh]
    if (hot) z = tf.add(z, tf.transpose(tf.matMul(tf.transpose(a, [1, 0, 2]), aV), [1, 0, 2]));
    return linear(unheads(z, B, Tq), `${name}.out_proj.weight`, `${name}.out_proj.bias`);
  };
  const feedForward = (x, pfx) => linear(tf.relu(linear(x, `${pfx}.linear1.weight`, `${pfx}.linear1.bias`)), `${pfx}.linear2.weight`, `${pfx}.linear2.bias`);
  /** x + f(norm(x)) (pre-norm) or norm(x + f(x)) (post-norm) */
  const block = (x, normName, f) => (pre ? tf.add(x, f(norm(x, normName))) : norm(tf.add(x, f(x)), normName));

  const embed = (table, ids, hot, B, n, sin) => {
    let x = tf.reshape(embedRows(tf, W(table), ids, hot), [B, n, E]);
    if (cfg.scaleEmbedding) x = tf.mul(x, Math.sqrt(E));
    if (pos === 'learned') x = tf.add(x, tf.slice(W('pos_embedding.weight'), [0, 0], [n, E]));
    else if (pos === 'sinusoidal') x = tf.add(x, sin);
    return tf.reshape(x, [B * n, E]);
  };

  const lossOf = (p) => () => {
    const { B, S, T } = p;
    let x = embed('src_embedding.weight', p.src, p.srcHot, B, S, p.sin?.S);
    for (let l = 0; l < L; l++) {
      const pfx = `encoder.layers.${l}`;
      x = block(x, `${pfx}.norm1`, (h) => attention(`${pfx}.self_attn`, h, h, B, S, S, p.srcBias, p.rel?.S));
      x = block(x, `${pfx}.norm2`, (h) => feedForward(h, pfx));
    }
    const mem = has('encoder.norm.weight') ? norm(x, 'encoder.norm') : x;
    let y = embed('tgt_embedding.weight', p.ys, p.ysHot, B, T, p.sin?.T);
    for (let l = 0; l < L; l++) {
      const pfx = `decoder.layers.${l}`;
      y = block(y, `${pfx}.norm1`, (h) => attention(`${pfx}.self_attn`, h, h, B, T, T, p.causal, p.rel?.T));
      y = block(y, `${pfx}.norm2`, (h) => attention(`${pfx}.multihead_attn`, h, mem, B, T, S, p.srcBias, null));
      y = block(y, `${pfx}.norm3`, (h) => feedForward(h, pfx));
    }
    if (has('decoder.norm.weight')) y = norm(y, 'decoder.norm');
    return maskedNll(tf, linear(y, 'out.weight', 'out.bias'), p.tgt, p.tgtW, p.n);
  };

  return adamTrainer(tf, {
    vars, consts, prepared, lossOf, lr: o.lr, clip: o.clip,
    variant: `tf.variableGrads of a batched ${pre ? 'pre' : 'post'}-norm encoder-decoder (heads as [B·H, n, Dh] matMuls, padding and causal masks${rel ? ', relative positions as batched matMuls over i' : ''}), global-norm clip, tf.train.adam`,
  });
}
