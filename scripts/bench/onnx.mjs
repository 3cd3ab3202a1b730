// scripts/bench/onnx.mjs: a tiny hand-written ONNX protobuf encoder and the graphs the benchmark
// feeds onnxruntime-web (MatMul, the attention pattern, the opset-23 Attention op, multi-head
// attention with projections, additive attention, LSTM, GRU).
//
// What it holds: a protobuf wire-format writer (varints, length-delimited fields, packed
// repeated fields) and just enough of onnx.proto3 (ModelProto, GraphProto, NodeProto,
// AttributeProto, ValueInfoProto, TensorProto) to describe float32 graphs.
// What it deliberately does not do: decode, validate, or cover the rest of the schema; no
// protobuf library is needed for this. Field numbers follow onnx/onnx.proto3 (ONNX 1.17).

// ------------------------------------------------------------------ wire format

const enc = new TextEncoder();

/** A growable byte buffer with the protobuf primitives. */
class Writer {
  constructor() {
    this.buf = new Uint8Array(256);
    this.n = 0;
  }

  ensure(k) {
    if (this.n + k <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.n + k) cap *= 2;
    const b = new Uint8Array(cap);
    b.set(this.buf.subarray(0, this.n));
    this.buf = b;
  }

  byte(b) {
    this.ensure(1);
    this.buf[this.n++] = b;
  }

  // unsigned varint of a non-negative integer (or BigInt); negative int64 as two's complement
  varint(v) {
    let x = BigInt.asUintN(64, BigInt(v));
    while (x >= 0x80n) {
      this.byte(Number(x & 0x7fn) | 0x80);
      x >>= 7n;
    }
    this.byte(Number(x));
  }

  bytes(b) {
    this.ensure(b.length);
    this.buf.set(b, this.n);
    this.n += b.length;
  }

  tag(field, wire) {
    this.varint((field << 3) | wire);
  }

  // field helpers: wire types 0 (varint), 2 (length-delimited), 5 (32-bit)
  int(field, v) {
    this.tag(field, 0);
    this.varint(v);
  }

  float(field, v) {
    this.tag(field, 5);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, v, true);
    this.bytes(b);
  }

  blob(field, b) {
    this.tag(field, 2);
    this.varint(b.length);
    this.bytes(b);
  }

  string(field, s) {
    this.blob(field, enc.encode(s));
  }

  message(field, fn) {
    const w = new Writer();
    fn(w);
    this.blob(field, w.finish());
  }

  packedInts(field, vs) {
    const w = new Writer();
    for (const v of vs) w.varint(v);
    this.blob(field, w.finish());
  }

  finish() {
    return this.buf.slice(0, this.n);
  }
}

// ------------------------------------------------------------------ onnx.proto3

export const DT = { FLOAT: 1, INT32: 6, INT64: 7, BOOL: 9 };
const ATTR = { FLOAT: 1, INT: 2, STRING: 3, FLOATS: 6, INTS: 7, STRINGS: 8 };

/** AttributeProto from a JS value: number (int if integral and `type` not 'float'), string, arrays. */
function writeAttribute(w, name, value) {
  w.string(1, name);
  if (typeof value === 'object' && value !== null && 'float' in value) {
    w.float(2, value.float);
    w.int(20, ATTR.FLOAT);
  } else if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error(`attribute ${name}: wrap non-integers as { float: x }`);
    w.int(3, value);
    w.int(20, ATTR.INT);
  } else if (typeof value === 'string') {
    w.string(4, value);
    w.int(20, ATTR.STRING);
  } else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    for (const s of value) w.string(9, s);
    w.int(20, ATTR.STRINGS);
  } else if (Array.isArray(value)) {
    w.packedInts(8, value);
    w.int(20, ATTR.INTS);
  } else {
    throw new Error(`attribute ${name}: unsupported value ${value}`);
  }
}

// NodeProto: input 1, output 2, name 3, op_type 4, attribute 5, domain 7
function writeNode(w, node, i) {
  for (const s of node.inputs) w.string(1, s);
  for (const s of node.outputs) w.string(2, s);
  w.string(3, node.name ?? `${node.op}_${i}`);
  w.string(4, node.op);
  for (const [k, v] of Object.entries(node.attrs ?? {})) w.message(5, (a) => writeAttribute(a, k, v));
  if (node.domain) w.string(7, node.domain);
}

// ValueInfoProto { name 1, type 2 { tensor_type 1 { elem_type 1, shape 2 { dim 1 { dim_value 1 | dim_param 2 } } } } }
function writeValueInfo(w, { name, shape, type = DT.FLOAT }) {
  w.string(1, name);
  w.message(2, (t) => t.message(1, (tt) => {
    tt.int(1, type);
    tt.message(2, (s) => {
      for (const d of shape) s.message(1, (dim) => (typeof d === 'string' ? dim.string(2, d) : dim.int(1, d)));
    });
  }));
}

// TensorProto: dims 1, data_type 2, name 8, raw_data 9 (little-endian bytes)
function writeTensor(w, { name, dims, data }) {
  for (const d of dims) w.int(1, d);
  let type;
  let raw;
  if (data instanceof Float32Array) {
    type = DT.FLOAT;
    raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  } else if (data instanceof BigInt64Array) {
    type = DT.INT64;
    raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  } else if (data instanceof Int32Array) {
    type = DT.INT32;
    raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  } else {
    throw new Error(`initializer ${name}: data must be Float32Array, Int32Array or BigInt64Array`);
  }
  w.int(2, type);
  w.string(8, name);
  w.blob(9, raw);
}

/**
 * Encode a ModelProto.
 * @param {{ nodes, inputs, outputs, initializers?, opset?, msOpset?, irVersion?, name? }} g
 * nodes: [{ op, inputs: [names], outputs: [names], attrs?, domain? }];
 * inputs/outputs: [{ name, shape }]; initializers: [{ name, dims, data }].
 * @returns {Uint8Array} the serialized model
 */
export function encodeModel(g) {
  const opset = g.opset ?? 17;
  const w = new Writer();
  // ModelProto: ir_version 1, producer_name 2, graph 7, opset_import 8
  w.int(1, g.irVersion ?? (opset >= 23 ? 11 : opset >= 21 ? 10 : 8));
  w.string(2, 'attnlab-bench');
  w.message(7, (gw) => {
    // GraphProto: node 1, name 2, initializer 5, input 11, output 12
    g.nodes.forEach((n, i) => gw.message(1, (nw) => writeNode(nw, n, i)));
    gw.string(2, g.name ?? 'bench');
    for (const t of g.initializers ?? []) gw.message(5, (tw) => writeTensor(tw, t));
    for (const v of g.inputs) gw.message(11, (vw) => writeValueInfo(vw, v));
    for (const v of g.outputs) gw.message(12, (vw) => writeValueInfo(vw, v));
  });
  // OperatorSetIdProto: domain 1, version 2
  w.message(8, (o) => {
    o.string(1, '');
    o.int(2, opset);
  });
  if (g.msOpset) {
    w.message(8, (o) => {
      o.string(1, 'com.microsoft');
      o.int(2, g.msOpset);
    });
  }
  return w.finish();
}

// ------------------------------------------------------------------ the benchmark's graphs

/** c [M,N] = a [M,K] · b [K,N]; with `bInit`, b is an initializer (ORT pre-packs it). */
export function matmulModel(M, K, N, bInit = null) {
  return encodeModel({
    nodes: [{ op: 'MatMul', inputs: ['a', 'b'], outputs: ['c'] }],
    inputs: [{ name: 'a', shape: [M, K] }, ...(bInit ? [] : [{ name: 'b', shape: [K, N] }])],
    initializers: bInit ? [{ name: 'b', dims: [K, N], data: bInit }] : [],
    outputs: [{ name: 'c', shape: [M, N] }],
  });
}

/** [T,S] additive causal mask: 0 where s <= t, -1e30 above the diagonal (top-left aligned). */
export function causalBias(T, S) {
  const m = new Float32Array(T * S);
  for (let t = 0; t < T; t++) for (let s = t + 1; s < S; s++) m[t * S + s] = -1e30;
  return m;
}

/**
 * Attention as the plain pattern: softmax(q·scale · Transpose(k) [+ causal bias]) · v on
 * q [B,H,T,D], k [B,H,S,D], v [B,H,S,Dv]. With `weights`, the probabilities are a second output.
 */
export function attentionPatternModel({ B, H, T, S, D, Dv, scale, causal, weights }) {
  const nodes = [
    { op: 'Mul', inputs: ['q', 'scale'], outputs: ['qs'] },
    { op: 'Transpose', inputs: ['k'], outputs: ['kt'], attrs: { perm: [0, 1, 3, 2] } },
    { op: 'MatMul', inputs: ['qs', 'kt'], outputs: ['e'] },
  ];
  const initializers = [{ name: 'scale', dims: [], data: new Float32Array([scale]) }];
  let logits = 'e';
  if (causal) {
    nodes.push({ op: 'Add', inputs: ['e', 'bias'], outputs: ['em'] });
    initializers.push({ name: 'bias', dims: [T, S], data: causalBias(T, S) });
    logits = 'em';
  }
  nodes.push({ op: 'Softmax', inputs: [logits], outputs: ['p'], attrs: { axis: -1 } });
  nodes.push({ op: 'MatMul', inputs: ['p', 'v'], outputs: ['out'] });
  return encodeModel({
    nodes,
    initializers,
    inputs: [
      { name: 'q', shape: [B, H, T, D] }, { name: 'k', shape: [B, H, S, D] }, { name: 'v', shape: [B, H, S, Dv] },
    ],
    outputs: [{ name: 'out', shape: [B, H, T, Dv] }, ...(weights ? [{ name: 'p', shape: [B, H, T, S] }] : [])],
  });
}

/** The opset-23 Attention op on 4-D q [B,H,T,D], k [B,H,S,D], v [B,H,S,Dv]. */
export function attention23Model({ B, H, T, S, D, Dv, scale, causal }) {
  return encodeModel({
    opset: 23,
    nodes: [{
      op: 'Attention',
      inputs: ['q', 'k', 'v'],
      outputs: ['out'],
      attrs: { is_causal: causal ? 1 : 0, scale: { float: scale } },
    }],
    inputs: [
      { name: 'q', shape: [B, H, T, D] }, { name: 'k', shape: [B, H, S, D] }, { name: 'v', shape: [B, H, S, Dv] },
    ],
    outputs: [{ name: 'out', shape: [B, H, T, Dv] }],
  });
}

/**
 * The ONNX LSTM op, forward direction, gates in ONNX order (i, o, f, c):
 * x [T,N,C], W [1,4H,C], R [1,4H,H], bias [1,8H] (Wb then Rb) → y [T,1,N,H], y_h [1,N,H].
 */
export function lstmModel({ T, N, C, Hd, W, R, bias }) {
  return encodeModel({
    nodes: [{ op: 'LSTM', inputs: ['x', 'W', 'R', 'B'], outputs: ['y', 'y_h'], attrs: { hidden_size: Hd } }],
    initializers: [
      { name: 'W', dims: [1, 4 * Hd, C], data: W },
      { name: 'R', dims: [1, 4 * Hd, Hd], data: R },
      { name: 'B', dims: [1, 8 * Hd], data: bias },
    ],
    inputs: [{ name: 'x', shape: [T, N, C] }],
    outputs: [{ name: 'y', shape: [T, 1, N, Hd] }, { name: 'y_h', shape: [1, N, Hd] }],
  });
}

/**
 * The ONNX GRU op, forward direction, gates in ONNX order (z, r, h), linear_before_reset = 1
 * (PyTorch's n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn))): x [T,N,C], W [1,3H,C], R [1,3H,H],
 * bias [1,6H] (Wb then Rb) → y [T,1,N,H], y_h [1,N,H].
 */
export function gruModel({ T, N, C, Hd, W, R, bias }) {
  return encodeModel({
    nodes: [{ op: 'GRU', inputs: ['x', 'W', 'R', 'B'], outputs: ['y', 'y_h'], attrs: { hidden_size: Hd, linear_before_reset: 1 } }],
    initializers: [
      { name: 'W', dims: [1, 3 * Hd, C], data: W },
      { name: 'R', dims: [1, 3 * Hd, Hd], data: R },
      { name: 'B', dims: [1, 6 * Hd], data: bias },
    ],
    inputs: [{ name: 'x', shape: [T, N, C] }],
    outputs: [{ name: 'y', shape: [T, 1, N, Hd] }, { name: 'y_h', shape: [1, N, Hd] }],
  });
}

/** w [r,c] (row-major) → wᵀ [c,r]. */
export function transpose2d(w, r, c) {
  const t = new Float32Array(r * c);
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) t[j * r + i] = w[i * c + j];
  return t;
}

/**
 * Multi-head self-attention with projections (torch.nn.MultiheadAttention) on x [1,L,E], in one of
 * three forms; weights are initializers, pre-transposed to [in,out] as MatMul wants them:
 *   'ms-mha'      3 × MatMul (q, k, v) → com.microsoft MultiHeadAttention (the q/k/v biases as
 *                 its bias input) → MatMul + Add (out_proj)
 *   'ms-attention' com.microsoft Attention (projections fused: weights [E,3E], bias [3E]) →
 *                 MatMul + Add
 *   'attention23' 3 × (MatMul + Add) → opset-23 Attention on 3-D q/k/v (q_num_heads,
 *                 kv_num_heads) → MatMul + Add
 * in_proj_weight [3E,E] and in_proj_bias [3E] are stacked q, k, v as in PyTorch.
 */
export function mhaModel(form, { T: L, E, H, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias }) {
  const part = (j) => transpose2d(in_proj_weight.subarray(j * E * E, (j + 1) * E * E), E, E);
  const bpart = (j) => in_proj_bias.subarray(j * E, (j + 1) * E).slice();
  const initializers = [
    { name: 'wo', dims: [E, E], data: transpose2d(out_proj_weight, E, E) },
    { name: 'bo', dims: [E], data: out_proj_bias.slice() },
  ];
  const nodes = [];
  let opset = 17;
  let msOpset = 0;
  if (form === 'ms-attention') {
    msOpset = 1;
    initializers.push({ name: 'w', dims: [E, 3 * E], data: transpose2d(in_proj_weight, 3 * E, E) }, { name: 'b', dims: [3 * E], data: in_proj_bias.slice() });
    nodes.push({ op: 'Attention', domain: 'com.microsoft', inputs: ['x', 'w', 'b'], outputs: ['o'], attrs: { num_heads: H } });
  } else {
    ['q', 'k', 'v'].forEach((n, j) => {
      initializers.push({ name: `w${n}`, dims: [E, E], data: part(j) });
      nodes.push({ op: 'MatMul', inputs: ['x', `w${n}`], outputs: [`${n}0`] });
    });
    if (form === 'ms-mha') {
      msOpset = 1;
      initializers.push({ name: 'bqkv', dims: [3 * E], data: in_proj_bias.slice() });
      nodes.push({ op: 'MultiHeadAttention', domain: 'com.microsoft', inputs: ['q0', 'k0', 'v0', 'bqkv'], outputs: ['o'], attrs: { num_heads: H } });
    } else if (form === 'attention23') {
      opset = 23;
      ['q', 'k', 'v'].forEach((n, j) => {
        initializers.push({ name: `b${n}`, dims: [E], data: bpart(j) });
        nodes.push({ op: 'Add', inputs: [`${n}0`, `b${n}`], outputs: [n] });
      });
      nodes.push({ op: 'Attention', inputs: ['q', 'k', 'v'], outputs: ['o'], attrs: { q_num_heads: H, kv_num_heads: H, scale: { float: 1 / Math.sqrt(E / H) } } });
    } else {
      throw new Error(`unknown MHA form ${form}`);
    }
  }
  nodes.push({ op: 'MatMul', inputs: ['o', 'wo'], outputs: ['o2'] }, { op: 'Add', inputs: ['o2', 'bo'], outputs: ['out'] });
  return encodeModel({
    opset, msOpset, nodes, initializers,
    inputs: [{ name: 'x', shape: [1, L, E] }],
    outputs: [{ name: 'out', shape: [1, L, E] }],
  });
}

/**
 * Additive attention (Bahdanau et al. 2015, eq. 6) for one query s [1,dq] and keys h [n,dk]:
 * MatMul (W_q s), Add (bias), MatMul (keys W_kᵀ), Add (broadcast), Tanh, MatMul (· v), Transpose
 * ([n,1] → [1,n]), Softmax, MatMul (α · keys) → context [1,dk]. Weights are initializers.
 */
export function additiveModel({ n, dq, dk, da, W_q, W_k, bias, v }) {
  return encodeModel({
    nodes: [
      { op: 'MatMul', inputs: ['s', 'wq'], outputs: ['qp'] },
      { op: 'Add', inputs: ['qp', 'bias'], outputs: ['qb'] },
      { op: 'MatMul', inputs: ['h', 'wk'], outputs: ['kp'] },
      { op: 'Add', inputs: ['kp', 'qb'], outputs: ['pre'] },
      { op: 'Tanh', inputs: ['pre'], outputs: ['th'] },
      { op: 'MatMul', inputs: ['th', 'v'], outputs: ['e'] },
      { op: 'Transpose', inputs: ['e'], outputs: ['et'], attrs: { perm: [1, 0] } },
      { op: 'Softmax', inputs: ['et'], outputs: ['a'], attrs: { axis: -1 } },
      { op: 'MatMul', inputs: ['a', 'h'], outputs: ['c'] },
    ],
    initializers: [
      { name: 'wq', dims: [dq, da], data: transpose2d(W_q, da, dq) },
      { name: 'bias', dims: [1, da], data: bias.slice() },
      { name: 'wk', dims: [dk, da], data: transpose2d(W_k, da, dk) },
      { name: 'v', dims: [da, 1], data: v.slice() },
    ],
    inputs: [{ name: 's', shape: [1, dq] }, { name: 'h', shape: [n, dk] }],
    outputs: [{ name: 'c', shape: [1, dk] }],
  });
}

/** PyTorch gate blocks [G·H, cols] reordered: out block j = in block order[j]. */
export function reorderGates(w, H, cols, order) {
  const out = new Float32Array(order.length * H * cols);
  order.forEach((g, j) => out.set(w.subarray(g * H * cols, (g + 1) * H * cols), j * H * cols));
  return out;
}
