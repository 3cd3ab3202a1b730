// view-context.js: what a view of <attn-demo> is given (ViewContext) and how it answers (events).
//
//   import { emit, runInput } from './view-context.js';
//   update(ctx) {
//     const result = runInput(this.node, ctx, ctx.model, ctx.state.input);   // null: blanked
//     if (!result) return emit(this.node, 'view-done', { result: null });
//     emit(this.node, 'view-status', t(lang, 'status.ran', { …, ms: elapsed(ctx).toFixed(1) }));
//     emit(this.node, 'view-done', { result, extra: { output: result.output } });
//   }
//
// A view calls nothing of its shell: it reads its context and dispatches events on its node
// (bubbling, not composed: they stay in the element's shadow root, where attn-demo.js listens).
//   view-change   detail: a settings patch ({ layer, head }, { kind }, { input, step: null },
//                 { step }, { a } or { b }, { gold }): a person changed a setting
//   view-refresh  draw again (something the view waited for has loaded: the gold generator)
//   view-status   detail: the status line's text
//   view-error    detail: the error line's message ('' clears it)
//   view-blank    detail: why the input cannot be drawn (empty, too long, the run failed): the
//                 message alone on screen, the view hidden (docs/view-states.md)
//   view-done     detail: { result, extra, unknown }: the view is drawn (result null: nothing
//                 drawn); extra goes into 'demo-render'; unknown: the words its runs did not know
// Holds: the context's type, emit(), and running a model on an input with its checks (empty, too
// long, a failed run). Deliberately holds no view and no DOM of the element's.

import { errorDetail, t } from '../shared/i18n.js';

/**
 * What a view's update(ctx) is given, every render.
 * @typedef {object} ViewContext
 * @property {{ view: string, model: string, input: string, layer: number, head: number,
 *   lang: string, hide: string[], a: string | null, b: string | null, kind: string | null,
 *   step: number | null, gold: boolean }} state the element's settings (a copy)
 * @property {any} model the current model, an attnlab Model, loaded (null for the views that
 *   load their own: compare, forgetting; any: each view reads its architecture's config)
 * @property {string} name the current model's name as shown (a model file's own name)
 * @property {import('../shared/model-cache.js').ModelCache} models the element's models, loaded
 *   on first ask (compare and forgetting draw several)
 * @property {string} refused the sentence about a refused model attribute ('' when none)
 * @property {number} started performance.now() when this render began (elapsed())
 */

/** Dispatch a view's event on its node (see the header); returns undefined, so a view may
 * `return emit(…)`. */
export function emit(node, type, detail = null) {
  node.dispatchEvent(new CustomEvent(type, { detail, bubbles: true }));
}

/** Milliseconds since the render began. @param {ViewContext} ctx */
export function elapsed(ctx) {
  return performance.now() - ctx.started;
}

/**
 * The most tokens model reads, when its config caps them (a transformer's learned positions,
 * config maxPositions): { max, unit } with unit the i18n key of its tokens ('unit.char' or
 * 'unit.word'); null when only the input box's MAX_INPUT characters limit it.
 */
export function inputLimit(model) {
  const max = /** @type {any} */ (model?.config)?.maxPositions;
  if (!Number.isInteger(max) || max <= 0) return null;
  return { max, unit: model.tokenizer?.type === 'word' ? 'unit.word' : 'unit.char' };
}

/**
 * Why model cannot read input of n tokens, in the context's language, or null: empty (no token),
 * or longer than the positions the model learned (config maxPositions).
 * @param {ViewContext} ctx
 */
export function lengthProblem(ctx, model, n) {
  const lang = ctx.state.lang;
  if (n === 0) return t(lang, 'input.empty');
  const limit = inputLimit(model);
  if (limit && n > limit.max)
    return t(lang, 'input.tooLong', {
      name: ctx.name,
      max: limit.max,
      unit: t(lang, limit.unit),
      n,
    });
  return null;
}

/** lengthProblem of the input as model tokenises it. @param {ViewContext} ctx */
export function inputProblem(ctx, model, input) {
  return lengthProblem(ctx, model, input ? model.encode(input).length : 0);
}

/**
 * Run model on input (options: model.run's); null, with a 'view-blank' event saying why, when the
 * input cannot be run. A seq2seq model's input is tokenised once: its ids are checked and run
 * (run(ids) is run(text) for seq2seq), and its unknown words read off the same tokens.
 * @param {EventTarget} node the view's node @param {ViewContext} ctx
 */
export function runInput(node, ctx, model, input, options = undefined) {
  const once = model.architecture === 'seq2seq' && !options && typeof input === 'string';
  const tok = model.tokenizer;
  const tokens = once ? tok.split(input) : null;
  const ids = tokens ? Int32Array.from(tokens, (w) => tok.id(w)) : null;
  const problem = ids ? lengthProblem(ctx, model, ids.length) : inputProblem(ctx, model, input);
  if (problem) {
    emit(node, 'view-blank', problem);
    return null;
  }
  try {
    if (!once) return options ? model.run(input, options) : model.run(input);
    const result = model.run(ids);
    // the tokens it read as unk, off the same tokens: a word model's are named under the input
    // (unknownWords); every model's feed the "may be wrong" warning (unknownTokens, issue 30)
    const unk = tok.specials.unk;
    const unknown = [...new Set(tokens.filter((w) => !tok.src.has(w) && w !== unk))];
    result.unknownTokens = unknown;
    if (tok.type === 'word') result.unknownWords = unknown;
    return result;
  } catch (err) {
    const lang = ctx.state.lang;
    emit(node, 'view-blank', t(lang, 'error.run', { message: errorDetail(lang, err) }));
    return null;
  }
}

/** The words of runs' results read as unk, each once, in order (a view's 'view-done' unknown):
 * unknownWords without those the tokenizer's "spelling" step read as a vocabulary word. */
export function unknownOf(...results) {
  const corrected = new Set(correctedOf(...results).map(([typed]) => typed));
  return [...new Set(results.flatMap((r) => r?.unknownWords ?? []))].filter(
    (w) => !corrected.has(w),
  );
}

/** The [typed, read] pairs of runs' results (the "spelling" step's corrections), each typed word
 * once, in order (a view's 'view-done' corrected). */
export function correctedOf(...results) {
  const seen = new Set();
  return results
    .flatMap((r) => r?.corrected ?? [])
    .filter(([typed]) => !seen.has(typed) && seen.add(typed));
}
