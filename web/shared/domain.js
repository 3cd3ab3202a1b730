// domain.js: what the page says when an input lies outside what a model learned, next to its
// output (a year outside the model's range, no digits at all, no day, a weekday the date is not,
// more characters than it was trained on; an English sentence the translators' generator never
// writes), instead of letting a confident wrong answer speak for itself.
//
//   domainWarnings(findModel('dates-additive'), model, '5 May 3050', 'en')
//   // ['Year 3050 is outside the years this model learned (1000–2999): the date below is a guess.']
//   domainWarnings(findModel('en-fr-dot'), model, 'him sees she', 'en', redraw)
//   // [] while web/data/translation.js loads (redraw() runs once it has), then ['The translators …']
//
// The rules belong to each task's data module (web/data/dates.js datesDomain, web/data/
// translation.js translationDomain); this file maps a registry entry's task to them and their
// findings to sentences (i18n.js). The translation generator is import()ed on the first
// translation input, off the first view's path. Unknown words are not repeated here: the page
// names them in its own note. A same-origin path has no task and gets no warning. Deliberately
// holds no DOM.

import { FORMATS, YEAR_MAX, YEAR_MIN, datesDomain } from '../data/dates.js';
import { t } from './i18n.js';

/** @type {{ translationDomain: (text: string) => { code: string, words?: string[], count?: number, max?: number }[] } | null} */
let translation = null;
/** @type {Promise<boolean> | null} resolves true once translation is loaded, false if it failed */
let translationLoading = null;

/**
 * The warnings (sentences in lang) for input to a registry entry's model; [] when none apply.
 * A translation model's rules need web/data/translation.js: until it is loaded the answer is []
 * and onReady() runs once it is (never when the import failed: there is then no warning).
 * @param {{ task?: string } | null | undefined} entry findModel()'s entry
 * @param {any} model the loaded Model (unused by today's rules; kept for per-model limits)
 * @param {string} input
 * @param {string} lang
 * @param {() => void} [onReady]
 * @returns {string[]}
 */
export function domainWarnings(entry, model, input, lang, onReady = () => {}) {
  if (typeof input !== 'string' || input.trim() === '') return [];
  if (entry?.task === 'translation') return translationWarnings(input, lang, onReady);
  if (entry?.task !== 'dates') return [];
  return datesDomain(input).map((p) => {
    if (p.code === 'year-range')
      return t(lang, 'domain.yearRange', {
        year: p.year,
        min: p.min ?? YEAR_MIN,
        max: p.max ?? YEAR_MAX,
      });
    if (p.code === 'no-digits') return t(lang, 'domain.noDigits');
    if (p.code === 'too-long') return t(lang, 'domain.tooLong', { length: p.length, max: p.max });
    if (p.code === 'no-year') return t(lang, 'domain.noYear');
    if (p.code === 'no-such-day')
      return t(lang, 'domain.noSuchDay', { year: p.year, month: p.month, day: p.day });
    if (p.code === 'no-day') return t(lang, 'domain.noDay');
    if (p.code === 'weekday-mismatch') {
      return t(lang, 'domain.weekdayMismatch', {
        written: t(lang, `weekday.${p.written}`),
        actual: t(lang, `weekday.${p.actual}`),
        date: FORMATS.iso(p.year, p.month, p.day),
      });
    }
    if (p.code === 'unknown-characters')
      return t(lang, 'domain.unknownChars', { chars: p.chars.map((c) => `“${c}”`).join(' ') });
    return t(lang, 'domain.other', { code: String(p.code) });
  });
}

function translationWarnings(input, lang, onReady) {
  if (!translation) {
    translationLoading ??= import('../data/translation.js').then(
      (m) => {
        translation = m;
        return true;
      },
      () => false,
    );
    translationLoading.then((ok) => {
      if (ok) onReady();
    });
    return [];
  }
  return translation
    .translationDomain(input)
    .filter((p) => p.code !== 'unknown-words')
    .map((p) => {
      if (p.code === 'too-long')
        return t(lang, 'domain.tooManyWords', { words: p.count, max: p.max });
      if (p.code === 'grammar') return t(lang, 'domain.grammar');
      return t(lang, 'domain.other', { code: String(p.code) });
    });
}
