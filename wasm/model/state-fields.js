// attnlab/wasm/model/state-fields.js: reads the intermediate states a C *_states entry point
// wrote (docs/states.md): one float buffer of fields back to back, each shaped by four int32
// (rank, d0, d1, d2; rank 0: the field is absent and takes no floats) of the layout C reported.
// Copies out of wasm memory, as Tensors { data, shape }; -Infinity stays (masked scores).
// Deliberately not here: what the fields mean (model/classifier.js, model/transformer.js).

/**
 * The `count` fields at pStates, shaped by the int32 layout at pShapes: an array of
 * `{ data: Float32Array, shape: number[] }`, null for an absent field. Views are built here,
 * after every allocation of the call (memory may have grown).
 */
export function readStateFields(x, pShapes, count, pStates) {
  const shapes = new Int32Array(x.memory.buffer, pShapes, count * 4).slice();
  const out = [];
  let p = pStates;
  for (let f = 0; f < count; f++) {
    const rank = shapes[4 * f];
    if (rank === 0) {
      out.push(null);
      continue;
    }
    const shape = Array.from(shapes.subarray(4 * f + 1, 4 * f + 1 + rank));
    const n = shape.reduce((a, b) => a * b, 1);
    out.push({ data: new Float32Array(x.memory.buffer, p, n).slice(), shape });
    p += n * 4;
  }
  return out;
}

/** options.states, already checked as a flag by checkOptions: true or absent/false. */
export function wantsStates(options) {
  return options.states === true;
}
