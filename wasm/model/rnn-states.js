// attnlab/wasm/model/rnn-states.js: the intermediate states of the recurrent models, asked with
// `{ states: true }` (docs/states.md): seq2seq (model/seq2seq.js) and memory-rnn
// (model/memory-rnn.js). One C call lays the fields out in one buffer (offset, rows, columns
// per field, fixed by C from the model and the lengths), a second re-runs the forward through
// the same step and kernels and fills it; each field is copied out as { data, shape }.
// Deliberately not here: the plain run (the architecture modules call this only when asked) or
// any maths.

import { AttnlabError, Arena, show } from '../core.js';
import { statusError } from './common.js';

/** The fields of al_model_seq2seq_states_layout, in its order (src/api/model.h AL_S2S_STATE_*). */
const SEQ2SEQ_FIELDS = [
  'embedded',
  'encoder',
  'initial',
  'query',
  'scores',
  'weights',
  'context',
  'decoder',
  'attentional',
  'positions',
  'logProbs',
];
/** The fields of al_model_memory_states_layout, in its order (AL_MEM_STATE_*). */
const MEMORY_FIELDS = [
  'embedded',
  'hidden',
  'memory',
  'scores',
  'weights',
  'summary',
  'memorySummary',
];
/** Fields that are one vector (C lays them out as [1, H] or [T, 1]). */
const VECTORS = { initial: 'cols', positions: 'rows' };

/** options.states (from a snapshot): true, false or absent; anything else is refused by name. */
export function statesOption(o, what) {
  const v = o.states;
  if (v !== undefined && typeof v !== 'boolean')
    throw new AttnlabError(`${what}: options.states must be true or false, got ${show(v)}`);
  return v === true;
}

/**
 * Lay out, run and copy: `layout(pLayout, n)` returns the buffer's floats (or -1), `fill(pBuf)`
 * the C status. -> { field: { data, shape } } for the fields the model has.
 */
function collect(x, ar, fields, layout, fill, what) {
  const n = fields.length * 3;
  const pLayout = ar.alloc(n * 4, 'the states layout');
  const floats = layout(pLayout, n);
  if (!(floats >= 1))
    throw new AttnlabError(`${what}: the states have no layout for these lengths`, 'AL_ERR_SHAPE');
  const l = new Int32Array(x.memory.buffer, pLayout, n).slice();
  const pBuf = ar.alloc(floats * 4, 'the states');
  const status = fill(pBuf);
  if (status !== 0) throw statusError(x, status, what);
  const out = {};
  fields.forEach((name, k) => {
    const [off, rows, cols] = [l[3 * k], l[3 * k + 1], l[3 * k + 2]];
    if (off < 0) return;
    // scores may hold -Infinity (what the softmax did not read); C checked everything else
    const data = new Float32Array(x.memory.buffer, pBuf + off * 4, rows * cols).slice();
    const v = VECTORS[name];
    out[name] = { data, shape: v ? [v === 'rows' ? rows : cols] : [rows, cols] };
  });
  return out;
}

/**
 * The seq2seq states of source ids src teacher-forced on tgt (a greedy output gives that run's
 * states): { style, attention, embedded, encoder, initial, query?, scores?, weights, context?,
 * decoder, attentional?, positions?, logProbs }.
 */
export function seq2seqStates(m, src, tgt, what) {
  const { x, ptr, config } = m;
  const ar = new Arena(x, what);
  try {
    const pSrc = ar.i32(src, 'the source ids');
    const pTgt = ar.i32(tgt, 'the target ids');
    const S = src.length,
      T = tgt.length;
    const fields = collect(
      x,
      ar,
      SEQ2SEQ_FIELDS,
      (p, n) => x.al_model_seq2seq_states_layout(ptr, S, T, p, n),
      (p) => x.al_model_seq2seq_states(ptr, pSrc, S, pTgt, T, p),
      what,
    );
    return { style: config.style, attention: config.attention, ...fields };
  } finally {
    ar.free();
  }
}

/**
 * The memory-rnn states of ids: { cell ('lstmn', 'sarnn' or 'lstm'), align (sarnn), embedded, hidden, memory?, scores?, weights?,
 * summary?, memorySummary? }.
 */
export function memoryStates(m, ids, what) {
  const { x, ptr, config } = m;
  const ar = new Arena(x, what);
  try {
    const pIds = ar.i32(ids, 'the input ids');
    const fields = collect(
      x,
      ar,
      MEMORY_FIELDS,
      (p, n) => x.al_model_memory_states_layout(ptr, ids.length, p, n),
      (p) => x.al_model_memory_states(ptr, pIds, ids.length, p),
      what,
    );
    // the spec's short names: 'sarnn' is the config's "self-attention-rnn"
    const sarnn = config.cell === 'self-attention-rnn';
    const head = sarnn
      ? { cell: 'sarnn', align: config.align ?? 'additive' }
      : { cell: config.cell };
    return { ...head, ...fields };
  } finally {
    ar.free();
  }
}
