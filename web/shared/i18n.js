// i18n.js: every interface string of the model views, in English and Chinese: the lookup.
//
//   import { t, resolveLang } from './i18n.js';
//   t('zh', 'view.alignment')                      // '对齐'
//   t('en', 'status.ran', { ms: '1.2' })           // placeholders are {name}
//
// Holds: the lookup with {placeholder} substitution, plurals and the helpers around it; the
// tables are in i18n/ (en.js, zh.js, files.js: the model cards' and files' strings, honesty.js:
// confidence, warnings and measurement notes, names.js),
// merged here. Deliberately holds no DOM code: callers put the result in textContent (never
// innerHTML), so a translated string or a substituted value can never become markup. A key missing
// from a language falls back to English; a key missing from English is returned as is (visible,
// so it gets fixed).

import { EN as EN_PAGE } from './i18n/en.js';
import { FILES } from './i18n/files.js';
import { HONESTY } from './i18n/honesty.js';
import { ARCH_NAMES_ZH, ERROR_KINDS_ZH, MECHANISM_NAMES, METRIC_NAMES_ZH } from './i18n/names.js';
import { ZH as ZH_PAGE } from './i18n/zh.js';

export { MECHANISM_NAMES };
export const LANGUAGES = Object.freeze(['en', 'zh']);
export const DEFAULT_LANG = 'en';

/** Each language's one table (addStrings adds to it). */
const EN = { ...EN_PAGE, ...FILES.en, ...HONESTY.en };
const ZH = { ...ZH_PAGE, ...FILES.zh, ...HONESTY.zh };
const TABLES = { en: EN, zh: ZH };

/** An architecture field's label in lang (model-card.js): Chinese from i18n/names.js when
 * listed, else english (model-card.js passes null, and shows the card's key as code). */
export function archName(lang, key, english) {
  return resolveLang(lang) === 'zh' && Object.hasOwn(ARCH_NAMES_ZH, key)
    ? ARCH_NAMES_ZH[key]
    : english;
}

/** A card metric's name in lang: Chinese from i18n/names.js when listed, else english (the
 * label made from the key). */
export function metricName(lang, key, english) {
  return resolveLang(lang) === 'zh' && Object.hasOwn(METRIC_NAMES_ZH, key)
    ? METRIC_NAMES_ZH[key]
    : english;
}

/** 'en' or 'zh' from any value ('zh-CN' → 'zh'); anything else gives the default. */
export function resolveLang(value) {
  if (typeof value !== 'string') return DEFAULT_LANG;
  const base = value.trim().toLowerCase().split('-')[0];
  return LANGUAGES.includes(base) ? base : DEFAULT_LANG;
}

/** The string for key in lang, with {name} placeholders replaced by String(params[name]). */
export function t(lang, key, params = {}) {
  const table = TABLES[resolveLang(lang)];
  const template = Object.hasOwn(table, key) ? table[key] : Object.hasOwn(EN, key) ? EN[key] : key;
  return template.replace(/\{(\w+)\}/g, (m, name) =>
    Object.hasOwn(params, name) ? String(params[name]) : m,
  );
}

/**
 * A count in words, in lang: the table's `${key}#${category}` for Intl.PluralRules' category of n
 * ('one', 'other', …; Chinese has only 'other'), '#other' when that category has no entry; {n}
 * is the count. plural('en', 'count.rows', 1) → '1 row of weights'.
 */
export function plural(lang, key, n, params = {}) {
  const l = resolveLang(lang);
  const own = `${key}#${new Intl.PluralRules(l).select(n)}`;
  return t(l, Object.hasOwn(TABLES[l], own) || Object.hasOwn(EN, own) ? own : `${key}#other`, {
    ...params,
    n,
  });
}

/** A label's colon in lang: ':' in English, the full-width '：' in Chinese ("输出：", not "输出:"). */
export function colon(lang) {
  return resolveLang(lang) === 'zh' ? '：' : ':';
}

/**
 * An error's message for a sentence in lang ({message} of model.failed, open.failed, error.run).
 * The library and the browser write their messages in English: in Chinese the sentence names the
 * kind of error (by AttnlabError's code; a browser's error otherwise) and quotes the original,
 * which names the tensor or key at fault, in “…”.
 * @param {string} lang @param {unknown} error
 */
export function errorDetail(lang, error) {
  const message = /** @type {any} */ (error)?.message ?? String(error);
  if (resolveLang(lang) !== 'zh') return message;
  const code = /** @type {any} */ (error)?.code;
  const kind =
    typeof code === 'string' && Object.hasOwn(ERROR_KINDS_ZH, code)
      ? ERROR_KINDS_ZH[code]
      : '浏览器报告的错误';
  return `${kind}（原文：“${message}”）`;
}

/** Sentences of one message, in lang: joined by a space in English, by nothing in Chinese. */
export function sentences(lang, parts) {
  return parts.filter(Boolean).join(resolveLang(lang) === 'zh' ? '' : ' ');
}

/**
 * Add the strings of a part of the page that loads on first use (web/shared/lesson-text.js), so
 * the first view does not download them: { en: { key: text }, zh: { key: text } }. A key already
 * in a table is a mistake, and throws.
 * @param {Record<string, Record<string, string>>} tables
 */
export function addStrings(tables) {
  for (const [lang, entries] of Object.entries(tables)) {
    const table = TABLES[resolveLang(lang)];
    for (const [key, text] of Object.entries(entries)) {
      if (Object.hasOwn(table, key) && table[key] !== text)
        throw new Error(`i18n: "${key}" is already in the ${lang} table`);
      table[key] = text;
    }
  }
}

/** Every key of every language (for the tests: no language may miss one). */
export function keys(lang) {
  return Object.keys(TABLES[resolveLang(lang)]);
}

/** The mechanism's display name. */
export function mechanismName(lang, attention) {
  const names = MECHANISM_NAMES[resolveLang(lang)];
  return Object.hasOwn(names, attention) ? names[attention] : String(attention);
}
