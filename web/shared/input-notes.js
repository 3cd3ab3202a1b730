// input-notes.js: what <attn-demo> says about the input under the input field: the "Examples"
// menu (examples.js), the words the model did not know (a word-level result's unknownWords) and
// those its spelling step read as others (corrected), and
// the domain warnings (domain.js: a date outside the years the model learned, no digits, more
// characters than it was trained on), next to the output instead of a confident wrong answer.
//
//   const notes = new InputNotes({ onPick: (input) => ... });
//   row.append(notes.menu); parent.append(notes.node);
//   notes.setExamples([{ input, shows }], 'en');
//   notes.show({ unknown: ['zorblax'], corrected: [['reccomend', 'recommend']], unk: '<unk>',
//                warnings: ['Year 3050 is outside ...'] }, 'en');
//
// Holds: the menu and three notes. Deliberately holds no model, no rule and no string table (the
// texts come from i18n.js, the rules from domain.js and the model's result); text is only ever
// set as textContent.

import { t } from './i18n.js';
import { el } from './view-kit.js';

export const INPUT_NOTES_STYLE = `
.examples-field { margin-top: 0.35rem; }
.examples-field select { max-width: 100%; }
.unknown-words[data-unknown] { font-weight: 600; }
.domain-warning { padding: 0.35rem 0.6rem; border-radius: 6px; margin: 0.35rem 0;
  background: var(--attn-demo-warning-bg, #fff4ce); color: var(--attn-demo-warning-text, #5c4400); }
@media (prefers-color-scheme: dark) { .domain-warning { background: var(--attn-demo-warning-bg, #3d3100); color: var(--attn-demo-warning-text, #ffe58f); } }
`;

export class InputNotes {
  #onPick;
  #examples = [];
  #lang = null;

  /** @param {{ onPick: (input: string) => void }} callbacks */
  constructor({ onPick }) {
    this.#onPick = onPick;
    this.label = el('label', { for: 'examples', class: 'phone-hidden' });
    this.select = el('select', { id: 'examples' });
    this.menu = el('div', { class: 'field examples-field', hidden: '' }, [this.label, this.select]);
    this.unknown = el('p', { class: 'note unknown-words', hidden: '' });
    this.corrected = el('p', { class: 'note corrected-words', hidden: '' });
    this.warning = el('p', { class: 'domain-warning', role: 'note', hidden: '' });
    this.node = el('div', { class: 'input-notes' }, [this.warning, this.unknown, this.corrected]);
  }

  /** @param {AbortSignal} signal */
  wire(signal) {
    this.select.addEventListener(
      'change',
      () => {
        const i = Number(this.select.value);
        this.select.value = '';
        const e = this.#examples[i];
        if (e) this.#onPick(e.input);
      },
      { signal },
    );
  }

  /** The menu's options ({ input, shows } in lang); hidden when there are none. */
  setExamples(list, lang) {
    const same =
      this.#lang === lang &&
      list.length === this.#examples.length &&
      list.every(
        (e, i) => e.input === this.#examples[i].input && e.shows === this.#examples[i].shows,
      );
    if (same) return;
    this.#examples = list;
    this.#lang = lang;
    this.label.textContent = t(lang, 'examples.label');
    this.select.replaceChildren(
      el('option', { value: '', text: t(lang, 'examples.choose') }),
      ...list.map((e, i) => el('option', { value: String(i), text: `${e.input} — ${e.shows}` })),
    );
    this.select.value = '';
    this.menu.hidden = list.length === 0;
  }

  /**
   * The notes of the last run: unknown (typed words read as unk; null: the view lists them
   * itself, or the model is char-level), corrected ([typed, read]: words the model does not know
   * as typed that its spelling step read as vocabulary words), warnings (domain.js messages).
   * @param {{ unknown: string[] | null, corrected?: string[][], unk?: string, warnings: string[] }} notes
   * @param {string} lang
   */
  show({ unknown, corrected = [], unk = '<unk>', warnings }, lang) {
    const words = unknown ?? [];
    this.unknown.hidden = words.length === 0;
    this.unknown.toggleAttribute('data-unknown', words.length > 0);
    this.unknown.textContent = words.length
      ? t(lang, 'input.unknown', { unk, words: words.join(', ') })
      : '';
    this.corrected.hidden = corrected.length === 0;
    this.corrected.textContent = corrected.length
      ? t(lang, 'input.corrected', {
          pairs: corrected.map(([typed, read]) => `${typed} → ${read}`).join(', '),
        })
      : '';
    this.warning.hidden = warnings.length === 0;
    this.warning.textContent = warnings.join(' ');
  }
}
