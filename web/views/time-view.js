// time-view.js: the Over time view of <attn-demo>: a seq2seq model decodes one token at a time
// and its attention map grows a row per token (model.startDecoding, decoder.step()).
//
//   const view = new TimeView();
//   host.append(view.node);
//   view.update(ctx);   // from <attn-demo>: decodes up to the step setting, then draws
//   // events (view-context.js): view-change { step } (stepping, playing, reset) or { gold }, …
//
// Shows: play / pause / step / reset, the output so far, one row per decoded token as an
// <attn-heatmap>, and for local-p (Luong et al. 2015, eq. 9) the predicted window p_t ± D of the
// newest row outlined (and mentioned in the introduction only for local models); for a model
// without attention a panel instead of the map. The step setting (how many tokens are decoded) is
// the element's: stepping and playing report it (view-change), so the URL reproduces the view; a
// smaller step decodes again from the start; no step is the whole output (the view never opens
// empty), Reset is step 0. Empty and too-long inputs blank the view (inputProblem, view-blank).
// Play and step decode the model and input of the last update (a new one comes with each change). For the translation models the gold-alignment toggle (gold.js): the decoded
// rows' gold outlined and their AER and gold mass in the note while the output so far is the
// reference's prefix; once it departs, the map shows the first rows of the reference forced
// (teacher forcing, model.score) and the note says so.
// Holds: the decoder of the current model and input (disposed when either changes or the output
// is complete; the element's models dispose theirs) and the play timer. Deliberately holds no
// drawing (<attn-heatmap>) and no settings of its own.

import { formatValue } from '../shared/draw.js';
import { windowRange } from '../shared/explain.js';
import {
  GoldPanel,
  goldMetrics,
  goldScore,
  goldSource,
  hasGold,
  referenceRows,
} from '../shared/gold.js';
import { colon, plural, t } from '../shared/i18n.js';
import { findModel } from '../shared/models.js';
import { el, noAttentionPanel, whyToggle } from '../shared/view-kit.js';
import { OutputConfidence, thresholdOf } from '../shared/output-confidence.js';
import { emit, inputProblem } from './view-context.js';

const STEP_MS = 350; // play speed

export class TimeView {
  #ui = {};
  #current = null; // { model, name, input, lang } of the last update: what play and step decode
  #time = null; // { key, decoder, rows: Float32Array[], ids, tokens, positions, probs, done, timer }
  #confidence = new OutputConfidence();
  #gold;
  #none = noAttentionPanel();

  constructor() {
    this.#gold = new GoldPanel({ onToggle: (gold) => emit(this.node, 'view-change', { gold }) });
    const u = this.#ui;
    u.play = el('button', { type: 'button', 'data-action': 'play' });
    u.pause = el('button', { type: 'button', 'data-action': 'pause' });
    u.step = el('button', { type: 'button', 'data-action': 'step' });
    u.reset = el('button', { type: 'button', 'data-action': 'reset' });
    u.intro = el('p', { class: 'note time-intro' });
    u.status = el('p', { class: 'note', 'aria-live': 'polite' });
    u.outputLabel = el('span');
    u.output = el('output', { class: 'output', 'data-main': 'output' });
    u.map = el('attn-heatmap', { class: 'time-map', min: '0', max: '1', 'data-main': 'picture' });
    u.why = whyToggle(u.intro);
    this.node = el('section', { 'data-view': 'time' }, [
      // the output, the decoding buttons and "why?" on one line (projector first)
      el('div', { class: 'view-line' }, [
        el('p', { class: 'output-line' }, [u.outputLabel, ' ', u.output]),
        el('div', { class: 'buttons' }, [u.play, u.pause, u.step, u.reset]),
        u.why.node,
      ]),
      this.#confidence.warning,
      this.#confidence.legend,
      u.status,
      this.#gold.node,
      this.#none.node,
      u.map,
    ]);
    u.play.addEventListener('click', () => this.#play());
    u.pause.addEventListener('click', () => this.stop());
    u.step.addEventListener('click', () => this.#stepOnce());
    // Reset: nothing decoded (step 0); the view opens (no step) on the whole output.
    u.reset.addEventListener('click', () => {
      this.#reset();
      emit(this.node, 'view-change', { step: 0 });
    });
  }

  get heatmaps() {
    return [this.#ui.map];
  }

  /** The interface strings, in lang. */
  texts(lang) {
    const u = this.#ui;
    u.outputLabel.textContent = `${t(lang, 'output.label')}${colon(lang)}`;
    u.why.texts(lang);
    u.play.textContent = t(lang, 'time.play');
    u.pause.textContent = t(lang, 'time.pause');
    u.step.textContent = t(lang, 'time.step');
    u.reset.textContent = t(lang, 'time.reset');
    u.map.setAttribute('lang', lang);
    u.map.setAttribute('label', t(lang, 'heatmap.time'));
    this.#gold.texts(lang);
  }

  /** Forget the drawn map (the model could not be loaded, the input cannot be decoded). */
  clear() {
    this.#current = null;
    this.#ui.map.data = null;
    this.#ui.map.gold = null;
    this.#ui.output.textContent = '';
    this.#ui.status.textContent = '';
    this.#confidence.clear();
  }

  /** Stop playing. */
  stop() {
    if (this.#time?.timer) clearTimeout(this.#time.timer);
    if (this.#time) this.#time.timer = 0;
    this.#ui.play.disabled = false;
  }

  /** The element left the document: stop, and forget the decoder (its model disposes it). */
  dispose() {
    this.stop();
    this.#time = null;
  }

  /** Decode up to the step setting with the current model and draw.
   * @param {import('./view-context.js').ViewContext} ctx */
  update(ctx) {
    const u = this.#ui;
    const { state: s, model } = ctx;
    const lang = s.lang;
    // decoded without a run: the input's unknown words are read off the tokenizer
    const unknown = model.tokenizer.type === 'word' ? model.tokenizer.unknownWords(s.input) : [];
    const problem = inputProblem(ctx, model, s.input);
    if (problem) {
      this.#reset();
      this.clear();
      emit(this.node, 'view-blank', problem);
      return emit(this.node, 'view-done', { result: null, unknown });
    }
    this.#current = { model, name: s.model, input: s.input, lang };
    const gs = this.#goldSource(ctx);
    const tm = this.#at(s.step);
    u.map.gold = null;
    if (!tm) {
      this.clear();
      return emit(this.node, 'view-done', { result: null, unknown });
    }
    emit(this.node, 'view-error', ctx.refused);
    const local = model.config.attention === 'local-p' || model.config.attention === 'local-m';
    u.intro.textContent = [t(lang, 'time.intro'), local ? t(lang, 'time.introLocal') : '']
      .filter(Boolean)
      .join(lang === 'zh' ? '' : ' ');
    const none = model.config.attention === 'none';
    this.#none.show(none, lang);
    u.map.hidden = none;
    u.why.node.hidden = none; // no rows to explain: the panel says why
    const S = tm.decoder.srcTokens.length;
    const T = tm.rows.length;
    emit(this.node, 'view-status', '');
    // the output so far, its tokens shaded by 1 − p, and the "may be wrong" warning as soon as
    // an unknown word or a token under the threshold is there (issue 30)
    const probs = Float32Array.from(tm.probs);
    const threshold = thresholdOf(ctx);
    if (T === 0) {
      u.output.textContent = '';
      this.#confidence.clear();
    } else
      this.#confidence.show({
        output: u.output,
        result: {
          output: model.decode(tm.ids),
          ids: tm.ids,
          tokens: tm.tokens,
          probs,
          minProb: Math.min(1, ...probs),
        },
        model,
        input: s.input,
        threshold,
        lang,
      });
    // Step goes on from here, or from the first token again once the output is complete.
    u.step.disabled = false;
    u.pause.disabled = !tm.timer;
    if (T === 0) {
      u.map.data = null;
      u.status.textContent = t(lang, 'time.ready');
      if (gs) this.#gold.say(['ready', t(lang, 'gold.timeReady')]);
      return emit(this.node, 'view-done', { result: null, extra: { steps: 0 }, unknown });
    }
    let weights = new Float32Array(T * S);
    tm.rows.forEach((r, i) => weights.set(r, i * S));
    let rowLabels = tm.tokens;
    let positions = tm.positions;
    let gold = null;
    if (gs) {
      // the decoded rows are the reference's while the output so far is its prefix; else the
      // reference is forced and its first rows drawn (at most its length and the end token)
      const reference = referenceRows(model, gs.ex);
      const forced = tm.tokens.some((w, i) => w !== reference[i]);
      let rows = T;
      if (forced) {
        const scored = goldScore(model, gs);
        rows = Math.min(T, scored.attention.shape[0]);
        weights = scored.attention.data.slice(0, rows * S);
        rowLabels = reference.slice(0, rows);
        positions = scored.positions ? Array.from(scored.positions.slice(0, rows)) : [];
      }
      const metrics = goldMetrics(
        { weights: { data: weights, shape: [rows, S] } },
        { alignment: gs.ex.alignment.slice(0, rows) },
      );
      u.map.gold = gs.ex.alignment;
      /** @type {[string, string][]} */
      const lines = [];
      lines.push(
        forced
          ? ['forced', t(lang, 'gold.timeForced', { reference: gs.ex.tgt, rows })]
          : ['steps', t(lang, 'gold.timeSoFar', { rows, total: reference.length })],
      );
      lines.push(this.#gold.metricsLine(metrics, model.config.attention !== 'none'));
      this.#gold.say(...lines);
      gold = { status: 'ok', forced, aer: metrics.aer, mass: metrics.mass, rows };
    }
    const R = weights.length / S;
    u.map.data = {
      weights,
      rows: R,
      cols: S,
      rowLabels,
      colLabels: tm.decoder.srcTokens,
      // the decoded tokens' probabilities under their labels (not over a forced reference)
      ...(rowLabels === tm.tokens
        ? { rowProbs: probs, threshold: typeof threshold === 'number' ? threshold : null }
        : {}),
    };
    const steps = plural(lang, 'count.steps', T);
    let status = !tm.done
      ? t(lang, 'time.progress', { step: T, token: tm.tokens[T - 1] })
      : s.step === null
        ? t(lang, 'time.whole', { steps })
        : t(lang, 'time.done', { steps });
    const cfg = model.config;
    const p = positions[R - 1];
    const w = p !== undefined ? windowRange(p, cfg.window, S) : null;
    u.map.marks = w ? [{ row: R - 1, from: w.from, to: w.to, center: p }] : [];
    if (w) status += ` ${t(lang, 'time.window', { p: formatValue(p), d: cfg.window })}`;
    u.status.textContent = status;
    u.map.flush();
    emit(this.node, 'view-done', {
      result: {},
      extra: { steps: T, done: tm.done, gold },
      unknown,
    });
  }

  /**
   * The gold toggle's state for this render: the panel shown for a translation model, and when it
   * is on and the generator can write the input, goldSource's { ex, source }; else null, the note
   * saying why (loading, failed, no gold).
   */
  #goldSource(ctx) {
    const { state: s } = ctx;
    const shown = hasGold(findModel(s.model));
    this.#gold.show(shown, s.gold);
    let gs = null;
    if (shown && s.gold && s.input) {
      if (this.#gold.tools(() => emit(this.node, 'view-refresh'))) {
        gs = goldSource(s.input);
        if (!gs) this.#gold.none();
      }
    }
    return gs;
  }

  #reset() {
    this.stop();
    this.#time?.decoder?.dispose();
    this.#time = null;
  }

  /** The decoder of the element's current model and input, started when either changed. */
  #ensure() {
    if (!this.#current) return null;
    const { model, input, name, lang } = this.#current;
    const key = `${name}\u0000${input}`;
    if (this.#time?.key === key) return this.#time;
    this.#reset();
    if (!model) return null;
    if (!input || model.encode(input).length === 0) return null;
    let decoder;
    try {
      decoder = model.startDecoding(input);
    } catch (err) {
      emit(this.node, 'view-error', t(lang, 'error.run', { message: err.message }));
      return null;
    }
    this.#time = {
      key,
      model,
      decoder,
      rows: [],
      ids: [],
      tokens: [],
      positions: [],
      probs: [],
      done: false,
      timer: 0,
    };
    return this.#time;
  }

  /** Decode one more token of tm (no redraw); false once the output is complete. */
  #decodeOne(tm) {
    const s = tm.decoder.step();
    tm.rows.push(s.weights);
    tm.tokens.push(s.token);
    tm.ids.push(s.id);
    tm.probs.push(s.prob);
    if (s.position !== undefined) tm.positions.push(s.position);
    if (s.done) {
      tm.done = true;
      tm.decoder.dispose();
      this.stop();
    }
    return !tm.done;
  }

  /** Step and play: one more token, and the step setting (so the URL) follows; a complete output
   * starts again from its first token. */
  #stepOnce() {
    if (this.#time?.done) this.#reset();
    const tm = this.#ensure();
    if (!tm || tm.done) return false;
    const more = this.#decodeOne(tm);
    emit(this.node, 'view-change', { step: tm.rows.length });
    return more;
  }

  #play() {
    const tm = this.#ensure();
    if (!tm) return;
    if (tm.done) {
      this.#reset();
      return this.#play();
    }
    this.stop();
    this.#ui.play.disabled = true;
    const tick = () => {
      tm.timer = 0;
      if (this.#time !== tm || !this.node.isConnected) return;
      if (this.#stepOnce()) tm.timer = setTimeout(tick, STEP_MS);
    };
    tick();
  }

  /** The decoder with exactly `step` rows decoded (all of them when null: the view opens on the
   * whole output; fewer when the output ends first): decoded again from the start when it holds
   * more. */
  #at(step) {
    const want = step ?? Infinity;
    if (this.#time && this.#time.rows.length > want) this.#reset();
    const tm = this.#ensure();
    while (tm && !tm.done && tm.rows.length < want) this.#decodeOne(tm);
    return tm;
  }
}
