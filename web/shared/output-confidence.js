// output-confidence.js: a translation's or date's output as the page shows it since issue 30:
// each output token shaded by how unsure the model was of it (1 − p, the probability in its
// tooltip; a dotted underline under the model's threshold, so the mark is not colour alone), a
// legend saying so, and the "may be wrong" warning next to the output when confidence.js's rule
// fires (an unknown input word or character, or the weakest token under the card's threshold).
//
//   const oc = new OutputConfidence();
//   line.after(oc.warning, oc.legend);
//   oc.show({ output: outputEl, result: model.run(input), model, input, threshold: 0.52, lang });
//   oc.clear();
//
// Holds: the DOM of the shaded tokens, the warning and the legend, and thresholdOf (the current
// model's threshold from its card, read through the element's model cache). Deliberately holds no
// rule (confidence.js) and no strings (i18n/honesty.js "warnings"); text is set as textContent.

import { mayBeWrong, shade } from './confidence.js';
import { t } from './i18n.js';
import { cardUrl, findModel } from './models.js';
import { el } from './view-kit.js';

/** The legend shows once a token's shade (1 − p) reaches this, or with the warning. */
const LEGEND_FROM = 0.1;

export const OUTPUT_CONFIDENCE_STYLE = `
.tok { border-radius: 3px; background-color: rgb(255 153 0 / calc(var(--u, 0) * 0.6)); }
.tok[data-below] { text-decoration: underline dotted 2px; text-underline-offset: 0.2em; }
.may-be-wrong { padding: 0.35rem 0.6rem; border-radius: 6px; margin: 0.35rem 0;
  border-left: 4px solid var(--attn-demo-warning-text, #5c4400);
  background: var(--attn-demo-warning-bg, #fff4ce); color: var(--attn-demo-warning-text, #5c4400); }
.may-be-wrong strong { font-weight: 700; }
@media (prefers-color-scheme: dark) { .may-be-wrong { background: var(--attn-demo-warning-bg, #3d3100); color: var(--attn-demo-warning-text, #ffe58f); border-left-color: currentColor; } }
.token-legend { font-size: 0.8rem; margin: 0.15rem 0; }
`;

/**
 * A model's "may be wrong" threshold (the current model's unless name is given): its card's
 * (models.js cardUrl, loaded through ctx.models; the cache draws again once it lands), undefined
 * while the card loads, null when the model has no card or the card no threshold.
 * @param {import('../views/view-context.js').ViewContext} ctx
 * @param {string} [name]
 * @returns {number | null | undefined}
 */
export function thresholdOf(ctx, name = ctx.state.model) {
  const url = cardUrl(findModel(name));
  if (!url) return null;
  const card = ctx.models.card(url, true);
  if (card === null) return undefined;
  return card instanceof Error ? null : (card.threshold ?? null);
}

/** p as the page writes it: two decimals; four above 0.99 (the dates models' thresholds lie
 * there); one significant digit under 0.01. */
export function formatProb(p) {
  if (p < 0.01) return p.toExponential(0);
  return p > 0.99 && p < 1 ? p.toFixed(4) : p.toFixed(2);
}

export class OutputConfidence {
  /** @param {{ compact?: boolean }} [options] compact: the warning's title alone, its text in
   * the tooltip (compare's figures, side by side) */
  constructor({ compact = false } = {}) {
    this.compact = compact;
    this.warning = el('p', { class: 'may-be-wrong', role: 'note', hidden: '' });
    this.legend = el('p', { class: 'note token-legend', hidden: '' });
  }

  /** Nothing shown (no output). */
  clear() {
    this.warning.hidden = true;
    this.legend.hidden = true;
  }

  /**
   * Fill output with result's tokens, shaded (bos, eos and pad left out of the text: their
   * probabilities still count in minProb, and the warning names the end of the output when eos is the weakest), and
   * show or hide the warning. output null: the warning and legend alone (the mechanism view draws
   * the tokens in its picture). threshold: thresholdOf (undefined while the card loads: no weak-
   * token verdict yet). Returns mayBeWrong's verdict.
   * @param {{ output: HTMLElement | null, result: any, model: any, input: string,
   *           threshold: number | null | undefined, lang: string }} o
   */
  show({ output, result, model, input, threshold, lang }) {
    const tok = model.tokenizer;
    const probs = result.probs;
    if (!probs || !result.ids) {
      if (output) output.textContent = result.output || t(lang, 'output.none');
      this.clear();
      return mayBeWrong({ unknown: [] }, null);
    }
    const skip = new Set([tok.bosId, tok.eosId, tok.padId]);
    const spans = [];
    let prev = null;
    result.ids.forEach((id, i) => {
      if (skip.has(id)) return;
      const text = result.tokens[i];
      if (prev !== null && tok.join([prev, text]) !== prev + text) spans.push(' ');
      const s = shade(probs[i], threshold);
      const span = el('span', {
        class: 'tok',
        title: t(lang, 'warn.tokenTitle', { token: text, p: formatProb(probs[i]) }),
        'data-p': String(probs[i]),
      });
      span.textContent = text;
      span.style.setProperty('--u', s.amount.toFixed(3));
      if (s.below) span.setAttribute('data-below', '');
      spans.push(span);
      prev = text;
    });
    if (output && spans.length) output.replaceChildren(...spans);
    else if (output) output.textContent = t(lang, 'output.none');
    // the tokens read as unk: runInput's, off its one tokenisation, when it has them
    const unknown =
      result.unknownTokens ?? (typeof input === 'string' ? tok.unknownWords(input) : []);
    const v = mayBeWrong({ unknown, minProb: result.minProb }, threshold);
    // the legend only when something is to be read: a warning, or a token visibly shaded (an
    // output the model is sure of keeps the screen it had: the picture stays on a projector's)
    this.legend.hidden = !v.warn && !Array.from(probs).some((p) => 1 - p >= LEGEND_FROM);
    // the threshold's sentence once the card is read (none while it loads)
    const sep = lang === 'zh' ? '' : ' ';
    const rest =
      typeof threshold === 'number'
        ? t(lang, 'warn.legendThreshold', { threshold: String(threshold) })
        : threshold === null
          ? t(lang, 'warn.legendNoThreshold')
          : '';
    this.legend.textContent = [t(lang, 'warn.legend'), rest].filter(Boolean).join(sep);
    this.warning.hidden = !v.warn;
    if (!v.warn) {
      this.warning.replaceChildren();
      return v;
    }
    const parts = [];
    if (v.unknown.length)
      parts.push(
        t(lang, 'warn.unknown', {
          words: v.unknown.map((w) => `“${w}”`).join(lang === 'zh' ? '、' : ', '),
          unk: tok.specials.unk ?? '<unk>',
        }),
      );
    if (v.weak) {
      const i = weakest(probs);
      const p = formatProb(probs[i]);
      const limit = String(threshold);
      parts.push(
        skip.has(result.ids[i])
          ? t(lang, 'warn.weakEnd', { p, threshold: limit })
          : t(lang, 'warn.weak', { token: result.tokens[i], p, threshold: limit }),
      );
    }
    parts.push(t(lang, 'warn.outside'));
    // compact (several outputs side by side): the title, the full text in its tooltip
    this.warning.title = this.compact ? parts.join(sep) : '';
    this.warning.replaceChildren(
      el('strong', { text: t(lang, 'warn.title') }),
      ...(this.compact ? [] : [sep + parts.join(sep)]),
    );
    return v;
  }
}

/** The index of the smallest probability (the first on ties). */
function weakest(probs) {
  let k = 0;
  for (let i = 1; i < probs.length; i++) if (probs[i] < probs[k]) k = i;
  return k;
}
