// attnlab: attention and recurrent kernels in WebAssembly SIMD128.
// Hand-written types for wasm/index.js (no TypeScript build).
//
//   import { init, ops } from 'attnlab';
//   await init();
//   const { output, weights } = ops.scaledDotProductAttention(q, k, v, { causal: true, returnWeights: true });

/** A dense row-major float32 tensor. `data.length` equals the product of `shape`. */
export interface Tensor {
  data: Float32Array;
  shape: number[];
}

/** Nested JS arrays of numbers, e.g. `[[1, 2], [3, 4]]` for shape [2, 2]. */
export type NestedArray = number[] | NestedArray[];

/** Anything the API accepts as a tensor: a `Tensor` or nested arrays. */
export type TensorLike = Tensor | NestedArray;

/** A boolean mask: `true` (or 1) means "ignore this key", as in PyTorch. */
export type MaskLike =
  | { data: Uint8Array | boolean[] | number[]; shape: number[] }
  | boolean[]
  | boolean[][]
  | number[]
  | number[][]
  | Uint8Array;

/** What init() compiles the module from. */
export type WasmSource = BufferSource | URL | string | Response | WebAssembly.Module;

export interface InitOptions {
  /**
   * Where to get the module: bytes, a URL (string or URL), a `Response`, or a compiled
   * `WebAssembly.Module`, or a promise of one (e.g. a `fetch()` a page started before this
   * module loaded). Defaults to `attnlab.wasm` (or `attnlab-scalar.wasm` where SIMD128
   * is missing) beside index.js.
   */
  wasm?: WasmSource | PromiseLike<WasmSource>;
  /**
   * Force the SIMD (`true`) or scalar (`false`) build; default: detect. Ignored with `wasm`: then
   * the module itself says which build it is (`Attnlab.simd`).
   */
  simd?: boolean;
}

export interface Attnlab {
  ops: Ops;
  /** True when the loaded module is the SIMD128 build. */
  simd: boolean;
  /** Bytes of wasm linear memory currently reserved. */
  memoryBytes(): number;
  /** Live allocations inside the wasm heap (0 between calls unless models or prepared tensors are held). */
  liveAllocations(): number;
}

/**
 * Load and instantiate the wasm once per JS realm; later calls resolve to the same instance and
 * ignore their options. A failed load can be retried. Until it resolves, every op throws
 * `AttnlabError` ("not initialised; await init() first").
 */
export function init(options?: InitOptions): Promise<Attnlab>;

/** An independent instance (its own wasm memory) with the whole API bound to it. */
export interface AttnlabInstance extends Attnlab {
  prepare: typeof prepare;
  readSafetensors: typeof import('./io.js').readSafetensors;
  loadModel: typeof import('./model.js').loadModel;
  createModel: typeof import('./train.js').createModel;
  loadTrainableModel: typeof import('./train.js').loadTrainableModel;
}

/**
 * A new attnlab instance with its own wasm memory (init()'s options: `simd: false` for the scalar
 * build in the same realm as a SIMD one). init() and `ops` stay the cached default instance.
 * Models, trainers and prepared tensors belong to the instance that made them.
 */
export function createAttnlab(options?: InitOptions): Promise<AttnlabInstance>;

/** True when this JS engine validates a WebAssembly SIMD128 module. */
export function simdSupported(): boolean;

/** An error raised from a C status or from input validation. */
export class AttnlabError extends Error {
  /** The C status name, e.g. 'AL_ERR_SHAPE', or 'AL_ERR_ARGUMENT' for JS-side checks. */
  code: string;
}

export interface MatmulOptions {
  transposeA?: boolean;
  transposeB?: boolean;
}

export interface SoftmaxOptions {
  /** Same shape as x, or shape [n] broadcast over rows. true = masked out. */
  mask?: MaskLike;
}

export interface LayerNormOptions {
  weight?: TensorLike;
  bias?: TensorLike;
  /** Default 1e-5, as torch.nn.LayerNorm. */
  eps?: number;
}

/**
 * A float tensor kept in wasm memory across calls (`prepare(tensor)`, or an entry of a
 * `PreparedParams`): copied and checked for NaN/Inf once, then read in place by the ops that
 * accept it (matmul's `a` and `b`, the recurrent ops' params), so repeated calls do not copy it
 * again; their results equal the plain call's bit for bit. Owns wasm memory until `dispose()`.
 */
export class PreparedTensor {
  private constructor();
  /** The shape it was prepared with (a copy). */
  readonly shape: number[];
  /** Number of elements. */
  readonly size: number;
  readonly disposed: boolean;
  /** A JS-owned copy of the values. */
  toTensor(): Tensor;
  /** Frees the wasm memory; later uses throw `AttnlabError`, a second dispose is harmless. */
  dispose(): void;
  [Symbol.dispose](): void;
}

/** A state_dict of `PreparedTensor`s (`prepare(params)`), accepted by rnn / lstm / gru in
 * place of plain params; `dispose()` frees every tensor. */
export class PreparedParams {
  private constructor();
  /** name → resident tensor, in the order given to `prepare`. Throws once disposed. */
  readonly tensors: Readonly<Record<string, PreparedTensor>>;
  readonly disposed: boolean;
  /** Frees every tensor; later uses throw `AttnlabError`, a second dispose is harmless. */
  dispose(): void;
  [Symbol.dispose](): void;
}

/**
 * Copy one tensor into wasm memory once (shape and finiteness checked now), for matmul's `a` or
 * `b`. Not an entry of `ops`: it stays allocated until `dispose()` (liveAllocations() counts it).
 */
export function prepare(tensor: TensorLike): PreparedTensor;
/** Copy every tensor of a state_dict into wasm memory once, for rnn / lstm / gru. */
export function prepare(params: Record<string, TensorLike>): PreparedParams;

/** The foundation kernels. */
export interface BasicOps {
  /** a [M,K] · b [K,N] (with optional transposes) → [M,N]; either may be prepared (`prepare`). */
  matmul(
    a: TensorLike | PreparedTensor,
    b: TensorLike | PreparedTensor,
    options?: MatmulOptions,
  ): Tensor;
  /** a [M,K] · x [K] → [M]. */
  matvec(a: TensorLike, x: TensorLike): Tensor;
  /** Softmax over the last axis; fully masked rows give zeros, never NaN. */
  softmax(x: TensorLike, options?: SoftmaxOptions): Tensor;
  tanh(x: TensorLike): Tensor;
  sigmoid(x: TensorLike): Tensor;
  relu(x: TensorLike): Tensor;
  /** Exact (erf) GELU, as torch.nn.functional.gelu's default. */
  gelu(x: TensorLike): Tensor;
  /** Layer norm over the last axis, as torch.nn.LayerNorm. */
  layerNorm(x: TensorLike, options?: LayerNormOptions): Tensor;
  /** Rows of weight [V, C] picked by ids → [ids.length, C]; ids are bounds-checked. */
  embedding(ids: Int32Array | number[], weight: TensorLike): Tensor;
}

import type { SdpaOps } from './ops/sdpa.js';
import type { AdditiveLuongOps } from './ops/additive-luong.js';
import type { TransformerAttentionOps } from './ops/transformer-attention.js';
import type { PoolingOps } from './ops/pooling.js';
import type { RecurrentOps } from './ops/recurrent.js';
import type { MemoryRnnOps } from './ops/memory-rnn.js';
import type { TransformerLayersOps } from './ops/transformer-layers.js';

export * from './ops/sdpa.js';
export * from './ops/additive-luong.js';
export * from './ops/transformer-attention.js';
export * from './ops/pooling.js';
export * from './ops/recurrent.js';
export * from './ops/memory-rnn.js';
export * from './ops/transformer-layers.js';
export * from './io.js';
export * from './model.js';
export * from './train.js';

/** Every op: one interface per family, declared in wasm/ops/*.d.ts. */
export interface Ops
  extends BasicOps,
    SdpaOps,
    AdditiveLuongOps,
    TransformerAttentionOps,
    PoolingOps,
    RecurrentOps,
    MemoryRnnOps,
    TransformerLayersOps {}

/** The op table; usable once `init()` has resolved. */
export const ops: Ops;
