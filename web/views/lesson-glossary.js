// lesson-glossary.js: the lesson's equations with their symbols explained, and the glossary
// disclosure under them (web/views/lesson-view.js).
//
//   lessonEquation('c_t = Σ_i α_{ti} h_i', 'en')   // <span>s: each symbol a <span class="sym">
//                                                  // whose title is its meaning (glossary.js)
//   const g = new GlossaryPanel();   container.append(g.node);
//   g.show(['c', 'Σ', 'α', 'h'], 'zh');   // "Symbols in this step" (open or closed as the reader
//                                         // left it), then every symbol of the lesson, closed
//
// Shows: a <details class="lesson-symbols"> whose summary counts the step's symbols; inside, a
// <dl> of the step's symbols (the glossary's form, e.g. α_{ti}, and its one-line meaning in the
// page's language) and a nested <details> with every symbol of the lesson, in the glossary's
// order. A step without equations offers the whole glossary alone. Holds: the DOM and its styles.
// Deliberately holds no symbol data (glossary.js) and no parsing (notation.js).

import { t } from '../shared/i18n.js';
import { GLOSSARY, NAMED, glossaryEntry } from '../shared/glossary.js';
import { equationParts, equationPieces, toMarkup, toUnicode } from '../shared/notation.js';
import { el } from '../shared/view-kit.js';

/** The glossary's styles (the lesson adds them once, inside its own node). */
export const GLOSSARY_STYLE = `
.lesson-symbols { margin: 0 0 var(--al-space-3); font-size: var(--al-text-sm); max-width: 46rem; }
.lesson-symbols summary { cursor: pointer; color: var(--al-accent); width: fit-content; }
.lesson-symbols dl { display: grid; grid-template-columns: max-content minmax(0, 1fr);
  gap: 0.15rem var(--al-space-3); margin: var(--al-space-2) 0; }
.lesson-symbols dt { font-family: 'STIX Two Math', 'Cambria Math', 'Latin Modern Math', 'DejaVu Serif', serif;
  font-size: 1rem; white-space: nowrap; }
.lesson-symbols dd { margin: 0; overflow-wrap: anywhere; }
.lesson-symbols sub, .lesson-symbols sup { font-size: 0.7em; }
.lesson-symbols-all { margin-top: var(--al-space-2); }
.lesson-eqs .sym[title] { cursor: help; }
@media (max-width: 30rem) { .lesson-symbols dt { white-space: normal; } }
`;

/** A meaning in lang (the glossary has en and zh; another language falls back to en). */
function meaning(entry, lang) {
  return entry[lang] ?? entry.en;
}

/** Markup as DOM children: text, <sub>, <sup>. */
function markupNodes(source) {
  return equationParts(toMarkup(source)).map(([kind, text]) =>
    kind === 'text' ? text : el(kind, { text, translate: 'no' }),
  );
}

/** An equation's nodes: each symbol a <span class="sym"> titled with its meaning. */
export function lessonEquation(source, lang) {
  return equationPieces(source, NAMED).map(({ symbol, parts }) => {
    const nodes = parts.map(([kind, text]) =>
      kind === 'text' ? text : el(kind, { text, translate: 'no' }),
    );
    const entry = symbol ? glossaryEntry(symbol) : undefined;
    if (!entry) return nodes.length === 1 ? nodes[0] : el('span', {}, nodes);
    const span = el('span', { class: 'sym', 'data-sym': symbol }, nodes);
    span.title = `${toUnicode(entry.sym)}${t(lang, 'lesson.colon')}${toUnicode(meaning(entry, lang))}`;
    return span;
  });
}

/** A <dl> of glossary entries. */
function glossaryList(entries, lang) {
  const dl = el('dl');
  for (const e of entries)
    dl.append(
      el('dt', { 'data-sym': e.id, translate: 'no' }, markupNodes(e.sym)),
      el('dd', {}, markupNodes(meaning(e, lang))),
    );
  return dl;
}

export class GlossaryPanel {
  #summary = el('summary');
  #list = el('div');
  #allSummary = el('summary');
  #all = el('details', { class: 'lesson-symbols-all' }, [this.#allSummary]);
  #allLang = '';

  constructor() {
    this.node = el('details', { class: 'lesson-symbols' }, [this.#summary, this.#list, this.#all]);
  }

  /** The step's symbols (glossary ids, in order of use; unknown ids are skipped), in lang. */
  show(ids, lang) {
    const entries = ids.map(glossaryEntry).filter(Boolean);
    this.#summary.textContent = entries.length
      ? t(lang, 'lesson.symbols', { n: entries.length })
      : t(lang, 'lesson.symbolsAll');
    this.#list.replaceChildren(...(entries.length ? [glossaryList(entries, lang)] : []));
    this.#all.hidden = entries.length === 0;
    if (this.#allLang !== lang) {
      this.#allLang = lang;
      this.#allSummary.textContent = t(lang, 'lesson.symbolsAll');
      this.#all.replaceChildren(this.#allSummary, glossaryList(GLOSSARY, lang));
    }
    // a step without symbols: the whole glossary is the list itself
    if (!entries.length) this.#list.replaceChildren(glossaryList(GLOSSARY, lang));
  }
}
