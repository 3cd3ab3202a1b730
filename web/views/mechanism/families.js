// mechanism/families.js: which drawing the mechanism view (mechanism-view.js) uses for a model, and
// how it gets the model's states for the typed input (docs/states.md).
//
//   const fam = FAMILY_DRAWINGS[familyOfModel(model)];
//   const result = run(model, text);                 // through view-context.js runInput
//   const data = fam.data(result, model, selection); // plain numbers, tested in Node
//   fam.steps(data), fam.draw(data, t, lang), fam.equations(data, t, i, lang), fam.say(data, t, lang)
//
// Holds: the table of the four families' drawings, the text each family's model reads (the
// reading view's normalisation for language models) and the run options. Deliberately holds no
// DOM and no drawing (mechanism/<family>.js).

import { readingInput } from '../reading-data.js';
import {
  classifierData,
  classifierEquations,
  classifierSay,
  classifierSteps,
  drawClassifier,
} from './classifier.js';
import { drawMemory, memoryData, memoryEquations, memorySay, memorySteps } from './memory.js';
import { drawSeq2seq, seq2seqData, seq2seqEquations, seq2seqSay, seq2seqSteps } from './seq2seq.js';
import {
  drawTransformer,
  transformerData,
  transformerEquations,
  transformerSay,
  transformerSteps,
} from './transformer.js';

/**
 * Per family: data(result, model, sel) → the drawing's numbers; steps(data) → a label per step;
 * draw(data, t, lang) → { svg }; equations(data, t, i, lang) → [{ stage, sym, num }] (i: the
 * position pointed at, or null); say(data, t, lang) → the step's sentence.
 */
export const FAMILY_DRAWINGS = Object.freeze({
  seq2seq: {
    data: (result, model) => seq2seqData(result, model.config),
    steps: seq2seqSteps,
    draw: drawSeq2seq,
    equations: seq2seqEquations,
    say: seq2seqSay,
  },
  'memory-rnn': {
    data: (result, model) => memoryData(result, model.config),
    steps: memorySteps,
    draw: drawMemory,
    equations: memoryEquations,
    say: memorySay,
  },
  classifier: {
    data: (result, model) => classifierData(result, model.config),
    steps: classifierSteps,
    draw: drawClassifier,
    equations: classifierEquations,
    say: classifierSay,
  },
  transformer: {
    data: (result, model, sel) => transformerData(result, model.config, sel),
    steps: transformerSteps,
    draw: drawTransformer,
    equations: transformerEquations,
    say: transformerSay,
  },
});

/** The family the view draws a model as (its architecture), or null. */
export function familyOfModel(model) {
  const arch = model?.architecture;
  return Object.hasOwn(FAMILY_DRAWINGS, arch) ? arch : null;
}

/** The text a model of family reads for the typed input: a language model reads it the reading
 * view's way (its own normalisation when the file names one, else lowercase, punctuation apart). */
export function textFor(family, model, input) {
  if (family !== 'memory-rnn') return String(input ?? '');
  const own = model.tokenizer.normalization?.includes('punctuation');
  return own ? model.normalize(String(input ?? '')) : readingInput(input);
}

/**
 * The states of a transformer's run: run()'s own when it returns them, else (a decoder or
 * encoder-decoder whose run documents none) one forward pass over the sequence run() fed.
 */
export function transformerStates(model, result) {
  if (result.states) return result;
  const variant = model.config.variant;
  const forward =
    variant === 'encoder-decoder'
      ? model.forward(result.srcIds, result.tgtIds, { states: true })
      : model.forward(result.fedIds ?? result.srcIds, { states: true });
  return { ...result, states: forward.states };
}
