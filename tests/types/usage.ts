// Compiled (never run) by tests/js/types.test.js with `tsc --noEmit --strict`: every line is a
// use of the public API as a TypeScript user would write it, so a wrong or missing declaration
// in wasm/index.d.ts or wasm/*.d.ts fails the test.
import {
  init,
  ops,
  simdSupported,
  AttnlabError,
  readSafetensors,
  loadModel,
  createModel,
  createTrainer,
  type Tensor,
  type Attnlab,
  prepare,
  PreparedParams,
  PreparedTensor,
  createAttnlab,
  type AttnlabInstance,
  type Model,
  type MemoryRnnLmResult,
} from 'attnlab';

async function main(): Promise<void> {
  const lib: Attnlab = await init({ simd: simdSupported() });
  const scalar: AttnlabInstance = await createAttnlab({ simd: false });
  const scalarSm: Tensor = scalar.ops.softmax([[1, 2, 3]]);
  const m2: Model = await scalar.loadModel('m.safetensors');
  void scalarSm;
  void m2;
  const n: number = lib.memoryBytes() + lib.liveAllocations();
  const q: Tensor = { data: new Float32Array(8), shape: [2, 4] };

  const sdpa = ops.scaledDotProductAttention(q, q, q, { causal: true, returnWeights: true });
  const out: Float32Array = sdpa.output.data;
  const grads = ops.scaledDotProductAttention.backward(
    q,
    q,
    q,
    { causal: true },
    { output: sdpa.output },
  );
  const dq: Tensor = grads.query;

  const mm: Tensor = ops.matmul([[1, 2]], [[3], [4]], { transposeA: false });
  const sm: Tensor = ops.softmax(q, { mask: [true, false, false, false] });
  const ln: Tensor = ops.layerNorm(q, { eps: 1e-5 });
  const emb: Tensor = ops.embedding([0, 1], q);

  const add = ops.additiveAttention(
    [1, 2],
    [
      [1, 2],
      [3, 4],
    ],
    {
      W_q: [
        [1, 0],
        [0, 1],
      ],
      W_k: [
        [1, 0],
        [0, 1],
      ],
      bias: [0, 0],
      v: [1, 1],
    },
  );
  const w: Tensor = add.weights;

  const mha = ops.multiHeadAttention(
    q,
    q,
    q,
    {
      in_proj_weight: { data: new Float32Array(48), shape: [12, 4] },
      in_proj_bias: { data: new Float32Array(12), shape: [12] },
      'out_proj.weight': { data: new Float32Array(16), shape: [4, 4] },
      'out_proj.bias': { data: new Float32Array(4), shape: [4] },
    },
    { numHeads: 2 },
  );
  const mo: Tensor = mha.output;

  const pool = ops.attentionPooling(q, { w: [1, 2, 3, 4] });
  const r: Tensor = pool.r;

  const lstm = ops.lstm(
    q,
    {
      weight_ih_l0: { data: new Float32Array(16 * 4), shape: [16, 4] },
      weight_hh_l0: { data: new Float32Array(16 * 4), shape: [16, 4] },
    },
    { numLayers: 1 },
  );
  const ho: Tensor = lstm.output;

  // weights resident across calls
  const prepared = prepare({
    weight_ih_l0: { data: new Float32Array(12 * 4), shape: [12, 4] },
    weight_hh_l0: { data: new Float32Array(12 * 4), shape: [12, 4] },
  });
  const gru: Tensor = ops.gru(q, prepared).output;
  const gradsP: Tensor = ops.gru.backward(q, prepared, undefined, { output: gru }).x;
  const whh: PreparedTensor = prepared.tensors.weight_hh_l0;
  const whhShape: number[] = whh.shape;
  const mixedOut: Tensor = ops.gru(q, {
    ...{ weight_ih_l0: [[0, 0, 0, 0]], weight_hh_l0: whh },
  }).hN;
  prepared.dispose();
  const pb: PreparedTensor = prepare([[3], [4]]);
  const mmp: Tensor = ops.matmul([[1, 2]], pb);
  const back: Tensor = pb.toTensor();
  const gone: boolean = pb.disposed;
  pb.dispose();
  const pp: PreparedParams = prepare({ w: [[1]] });
  pp[Symbol.dispose]();

  const file = readSafetensors(new Uint8Array(0));
  const names: string[] = [...file.tensors.keys()];

  const model = await loadModel(new Uint8Array(0));
  const run = model.run('22 Nov 2026');
  const text: string = run.output;
  // intermediate states (docs/states.md): seq2seq greedy run and score, memory-rnn run
  const st = model.run('22 Nov 2026', { states: true }).states;
  const firstScore: number | undefined = st?.scores?.data[0];
  const scored = model.score('a', 'b', { states: true }).states;
  const style: 'bahdanau' | 'luong' | undefined = scored?.style;
  const lmStates = (model.run('a', { states: true }) as unknown as MemoryRnnLmResult).states;
  const cell: 'lstmn' | 'sarnn' | 'lstm' | undefined = lmStates?.cell;
  void [firstScore, style, cell];
  model.dispose();

  const lmModel = await createModel(
    {
      architecture: 'memory-rnn',
      cell: 'lstmn',
      embeddingSize: 4,
      hiddenSize: 4,
      head: 'lm',
      tokenizer: { type: 'word', vocab: ['<unk>', 'a'], unk: '<unk>' },
    },
    { seed: 1 },
  );
  const lmTrainer = createTrainer(lmModel);
  lmTrainer.step([{ src: 'a a' }]);
  const ppl: number = lmTrainer.evaluate([{ src: 'a a' }]).perplexity;
  void ppl;
  lmModel.dispose();

  const tagger = await createModel(
    {
      architecture: 'transformer',
      variant: 'encoder',
      embeddingSize: 4,
      numHeads: 2,
      feedforwardSize: 4,
      numLayers: 1,
      positions: 'relative',
      maxRelativePosition: 2,
      tokenizer: { type: 'char', srcVocab: ['<unk>', 'a'], tgtVocab: ['O', 'X'], unk: '<unk>' },
    },
    { seed: 1 },
  );
  const tagTrainer = createTrainer(tagger);
  tagTrainer.step([
    { src: 'aa', tags: 'O X' },
    { src: [1], tags: [0] },
  ]);
  const tagAcc: number = tagTrainer.evaluate([{ src: 'aa', tags: ['O', 'X'] }]).tokenAccuracy;
  void tagAcc;
  tagger.dispose();

  try {
    ops.softmax([1]);
  } catch (e) {
    if (e instanceof AttnlabError)
      console.log(e.code, n, out, dq, mm, sm, ln, emb, w, mo, r, ho, names, text);
  }
}

void main();
