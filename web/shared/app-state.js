// app-state.js: the model views' state in a URL (the page's hash, the embed page's query).
//
//   #view=alignment&model=dates-additive&input=22%20Nov%202026&layer=0&head=0&lang=en
//   #view=heads&model=tf-dates-relative&input=22%20Nov%202026&layer=1&head=0&lang=en&kind=encoder
//   #view=reading&model=lm-agreement-lstmn&input=the%20dog%20runs%20.&layer=0&head=0&lang=en&step=2
//   embed.html?model=dates-additive&view=time&input=...&hide=picker,views&seed=7
//
// Holds: parsing (every value validated, clamped or dropped; never throws) and canonical
// formatting, for the page (which also keeps the SDPA playground's keys, via state.js) and the
// embed page. Deliberately does not touch location, history or the DOM, and does not decide
// whether a model file exists: models.js resolves the name, the element loads it.
//
// Values: view one of VIEWS; model a registry name of the view's family (models.js VIEW_FAMILY:
// seq2seq for alignment/time/compare, transformer for heads, classifier for pooling, memory-rnn
// language models for reading, the reversal pair for forgetting; another
// family's model is refused and the view's default used) or a same-origin '/…/*.safetensors'
// path (anything else is refused and reported in `refused`); input at most MAX_INPUT code points,
// control characters removed (it is only ever shown as textContent; absent: the model's sample);
// layer an integer in [0, MAX_LAYER], head in [0, MAX_HEAD] (the element clamps them to the maps
// the model has); kind (heads view, encoder-decoder models) one of KINDS; step (the reading view's
// current word, the time view's number of decoded tokens) an integer in [0, MAX_STEP], absent for
// the view's default (the whole sentence read, no token decoded; the element clamps it to the
// sentence or output), dropped by any switch of view (switchView) and by a new model or input
// (the element); lang en or zh; hide a subset of HIDE_FLAGS; seed an integer in [0, 2^32 − 1]
// (for sample inputs); gold (the translation models' gold-alignment overlay) 1 or 0, absent for
// off. An unknown hide flag is refused as `hide=<flag>` (the known ones still
// apply); a value over MAX_URL_PART characters is refused by its key, whatever the key; keys
// nobody reads are ignored (links stay open to new parameters), and are not reported.
// refusedNotice() words `refused` for a person, the same on the page and the embed page.
// The old Train view's links (#view=train&lr=…&batch=…) open the lab on its dates preset
// (view 'lab', lab 'preset=dates'; lr and batch are ignored, not refused: the preset sets them).
// The guided lesson (#view=lesson&step=3&lang=en; embed.html?view=lesson&step=3) keeps its step,
// 1 … LESSON_STEP_COUNT; any other value (0, 11, 2.5, junk) is refused and named, and step 1 shown.
// The lab (#view=lab&task=reverse&min=5&…&lang=en) keeps its experiment as web/lab/spec.js
// formatLabParams writes it: here only as raw text (every key but view and lang, at most
// MAX_LAB_PARAMS characters), so the first view never loads the lab's modules; the page checks it
// with parseLabParams once the lab is opened, and names what it refused.

import { FAMILIES } from './architectures.js';
import { resolveLang, sentences, t } from './i18n.js';
import {
  DEFAULT_INPUT,
  DEFAULT_MODEL,
  VIEW_FAMILY,
  defaultModelFor,
  findModel,
  modelFitsView,
  resolveModel,
  sampleFor,
} from './models.js';
import { formatHash as formatPlaygroundHash, parseHash as parsePlaygroundHash } from './state.js';

/** The views of <attn-demo>, in tab order (architectures.js: each family's views). */
export const VIEWS = Object.freeze(Object.keys(VIEW_FAMILY));
export const PAGE_VIEWS = Object.freeze([...VIEWS, 'playground', 'lesson', 'lab']);
/** The lab's part of a hash, unchecked (spec.js parseLabParams checks it): at most this long. */
export const MAX_LAB_PARAMS = 4096;
/** The guided lesson's steps (web/shared/lesson-steps.js LESSON_STEPS.length; a test keeps them equal). */
export const LESSON_STEP_COUNT = 10;
export const HIDE_FLAGS = Object.freeze([
  'views',
  'picker',
  'input',
  'explain',
  'export',
  'lang',
  'link',
  'status',
  'card',
]);
export const MAX_INPUT = 64;
export const MAX_INDEX = 15;
/** Layer and head limits (the transformer's: 16 layers, 64 heads; docs/models.md). */
export const MAX_LAYER = 15;
export const MAX_HEAD = 63;
/** The heads view's maps of an encoder-decoder: encoder self-, decoder self- or cross-attention. */
export const KINDS = Object.freeze(['encoder', 'decoder', 'cross']);
/** The reading and time views' position (words read, tokens decoded): ample for MAX_INPUT. */
export const MAX_STEP = 64;
const MAX_URL_PART = 2048;
/** Unknown hide flags named in `refused` (more are summed up as 'hide=…'), each at most this long. */
const MAX_REFUSED_FLAGS = 4;
const MAX_FLAG_SHOWN = 24;
const PLAYGROUND_KEYS = ['n', 'm', 'd', 'seed', 'causal', 'scale'];

/**
 * The lesson's step from a URL value: { step, refused }. Absent: step 1. An integer 1 …
 * LESSON_STEP_COUNT (at most two digits, no sign or point) is the step; anything else is refused
 * (step 1): the steps are few and numbered, so a wrong number is a typo worth naming.
 * @param {string | null} text
 */
export function parseLessonStep(text) {
  if (text === null || text === undefined) return { step: 1, refused: false };
  const ok =
    typeof text === 'string' &&
    /^\d{1,2}$/.test(text) &&
    Number(text) >= 1 &&
    Number(text) <= LESSON_STEP_COUNT;
  return ok ? { step: Number(text), refused: false } : { step: 1, refused: true };
}

/**
 * The embed page's lesson (embed.html?view=lesson&step=3&lang=zh): { view: 'lesson', step, lang,
 * refused }. Other keys are not read here (a step embeds its own widget's settings).
 * @param {URLSearchParams} params
 */
export function parseLessonParams(params) {
  const refused = [];
  const get = (k) => {
    const v = params.get(k);
    return v !== null && v.length <= MAX_URL_PART ? v : params.has(k) ? '' : null;
  };
  const { step, refused: badStep } = parseLessonStep(get('step'));
  if (badStep) refused.push('step');
  const lang = get('lang');
  const okLang = lang !== null && resolveLang(lang) === lang;
  if (lang !== null && !okLang) refused.push('lang');
  return { view: 'lesson', step, lang: okLang ? lang : MODEL_DEFAULTS.lang, refused };
}

/**
 * The model views' state (a and b: the compare view's two models; kind, step: the view's own).
 * @typedef {{ view: string, model: string, input: string, layer: number, head: number,
 *   lang: string, hide: readonly string[], seed: number | null, a: string | null,
 *   b: string | null, kind: string | null, step: number | null, gold: boolean }} ModelState
 */

/** @type {Readonly<ModelState>} */
export const MODEL_DEFAULTS = Object.freeze({
  view: 'alignment',
  model: DEFAULT_MODEL,
  input: DEFAULT_INPUT,
  layer: 0,
  head: 0,
  lang: 'en',
  hide: Object.freeze([]),
  seed: null,
  a: null,
  b: null,
  kind: null,
  step: null,
  gold: false,
});

/** A gold value ('1' on, '0' off) as a boolean, or null (refused). */
function goldParam(text) {
  return text === '1' ? true : text === '0' ? false : null;
}

/** Input text as the views accept it: control characters removed, at most MAX_INPUT code points. */
export function cleanInput(text) {
  if (typeof text !== 'string') return null;
  return inputChars(text).slice(0, MAX_INPUT).join('');
}

/** The code points of text without its control characters (what cleanInput keeps, uncut). */
function inputChars(text) {
  // eslint-disable-next-line no-control-regex
  return Array.from(text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ''));
}

function intParam(text, lo, hi) {
  if (typeof text !== 'string' || !/^\d{1,10}$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? Math.min(hi, Math.max(lo, n)) : null;
}

/** A model value: the canonical name/path, or null (refused). */
function modelParam(text, origin) {
  const entry = resolveModel(text, origin);
  return entry ? entry.name : null;
}

/**
 * The model views' state from URLSearchParams (or a query/hash string). origin: the page's
 * origin, for same-origin model paths. Returns { ...MODEL_DEFAULTS-shaped state, refused: [] }
 * where refused lists the keys whose values were thrown away (for a message).
 */
export function parseModelParams(input, origin) {
  let params;
  try {
    params =
      input instanceof URLSearchParams
        ? input
        : new URLSearchParams(String(input ?? '').replace(/^[#?]/, ''));
  } catch {
    params = new URLSearchParams();
  }
  /** @type {ModelState & { refused: string[], hide: string[], inputCut: number }} */
  const s = { ...MODEL_DEFAULTS, hide: [], refused: [], inputCut: 0 };
  const get = (k) => {
    const v = params.get(k);
    return v !== null && v.length <= MAX_URL_PART ? v : null;
  };
  const refuse = (k) => params.has(k) && s.refused.push(k);
  const view = get('view');
  if (VIEWS.includes(view)) s.view = view;
  else refuse('view');
  const model = get('model');
  if (model !== null) {
    const m = modelParam(model, origin);
    if (m && modelFitsView(m, s.view)) s.model = m;
    else refuse('model');
  } else refuse('model'); // present but over-long
  if (!modelFitsView(s.model, s.view)) s.model = defaultModelFor(s.view);
  const text = get('input');
  if (text !== null) {
    s.input = cleanInput(text);
    // a link's input longer than the box takes is cut, and the page says so (refusedNotice)
    const length = inputChars(text).length;
    if (length > MAX_INPUT) s.inputCut = length;
  } else {
    s.input = sampleFor(s.model);
    refuse('input');
  }
  for (const [k, max] of [
    ['layer', MAX_LAYER],
    ['head', MAX_HEAD],
  ]) {
    const n = intParam(get(k), 0, max);
    if (n !== null) s[k] = n;
    else refuse(k);
  }
  const kind = get('kind');
  if (KINDS.includes(kind)) s.kind = kind;
  else refuse('kind');
  const step = intParam(get('step'), 0, MAX_STEP);
  if (step !== null) s.step = step;
  else refuse('step');
  const gold = goldParam(get('gold'));
  if (gold !== null) s.gold = gold;
  else refuse('gold');
  const lang = get('lang');
  if (lang !== null && resolveLang(lang) === lang) s.lang = lang;
  else refuse('lang');
  const hide = get('hide');
  if (hide !== null) {
    const flags = hide.split(/[,\s]+/).filter(Boolean);
    s.hide = HIDE_FLAGS.filter((f) => flags.includes(f));
    // Named, so a typo ('hide=pickr') is seen; shortened and capped, as it is URL text.
    const unknown = [...new Set(flags.filter((f) => !HIDE_FLAGS.includes(f)))];
    for (const f of unknown.slice(0, MAX_REFUSED_FLAGS))
      s.refused.push(`hide=${shorten(f, MAX_FLAG_SHOWN)}`);
    if (unknown.length > MAX_REFUSED_FLAGS) s.refused.push('hide=…');
  } else refuse('hide');
  const seed = intParam(get('seed'), 0, 4294967295);
  if (seed !== null) s.seed = seed;
  else refuse('seed');
  for (const k of ['a', 'b']) {
    const v = get(k);
    if (v !== null) {
      const m = modelParam(v, origin);
      if (m) s[k] = m;
      else refuse(k);
    } else refuse(k);
  }
  return s;
}

/** At most max code points of text, control characters removed, '…' marking a cut. */
function shorten(text, max) {
  // eslint-disable-next-line no-control-regex
  const chars = Array.from(text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ''));
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * One attribute of <attn-demo>, validated as the element reads it: { value, refused }, value the
 * setting (the default when the attribute is absent or refused) and refused true when a value was
 * given and not accepted. origin: the page's (model paths stay on it); docLang: the document's
 * lang, used when there is no lang attribute. Unknown names give { value: undefined }.
 * @param {string} name @param {string | null} value @param {string} origin @param {string} docLang
 */
export function readAttribute(name, value, origin, docLang) {
  const int = /^\d{1,3}$/;
  switch (name) {
    case 'model': {
      const entry = value === null ? null : resolveModel(value, origin);
      return { value: entry ? entry.name : DEFAULT_MODEL, refused: value !== null && !entry };
    }
    case 'view':
      return {
        value: VIEWS.includes(value) ? value : 'alignment',
        refused: value !== null && !VIEWS.includes(value),
      };
    case 'input':
      return { value: value === null ? DEFAULT_INPUT : cleanInput(value), refused: false };
    case 'layer':
    case 'head': {
      const max = name === 'layer' ? MAX_LAYER : MAX_HEAD;
      return {
        value: value !== null && int.test(value) ? Math.min(max, Number(value)) : 0,
        refused: value !== null && !int.test(value),
      };
    }
    case 'kind':
      return {
        value: KINDS.includes(value) ? value : null,
        refused: value !== null && !KINDS.includes(value),
      };
    case 'step': {
      const step = value !== null && int.test(value) ? Math.min(MAX_STEP, Number(value)) : null;
      return { value: step, refused: value !== null && step === null };
    }
    case 'lang':
      return { value: resolveLang(value ?? docLang), refused: false };
    case 'gold': {
      const gold = value === null ? false : goldParam(value);
      return { value: gold ?? false, refused: gold === null };
    }
    case 'hide': {
      // Space- or comma-separated; unknown flags are dropped, the known ones kept in HIDE_FLAGS order.
      const flags = String(value ?? '').split(/[,\s]+/);
      return { value: HIDE_FLAGS.filter((f) => flags.includes(f)), refused: false };
    }
    case 'a':
    case 'b': {
      const entry = value === null ? null : resolveModel(value, origin);
      return { value: entry ? entry.name : null, refused: value !== null && !entry };
    }
    default:
      return { value: undefined, refused: false };
  }
}

/**
 * What <attn-demo> draws for its settings s before each render: { model, input, wrongModel }. A
 * model of another family than s.view's is replaced by the view's default, and without an input
 * attribute (inputAttr null) the input is the model's sample. wrongModel: the name the model
 * attribute gives while it is of another family (said for as long as the attribute says so), else
 * null.
 */
export function fitToView(s, modelAttr, inputAttr, origin) {
  const named = modelAttr === null ? null : resolveModel(modelAttr, origin);
  const model = modelFitsView(s.model, s.view) ? s.model : defaultModelFor(s.view);
  return {
    model,
    input: inputAttr === null ? sampleFor(model) : s.input,
    wrongModel: named && !modelFitsView(named.name, s.view) ? named.name : null,
  };
}

/**
 * The hint under <attn-demo>'s input, in lang, for a view of family (VIEW_FAMILY) and the current
 * model's tokenizer (undefined while it loads): the length limit, the unknown-token mark and the
 * range of lower-case letters it reads.
 */
export function inputHint(lang, family, tokenizer) {
  const unk = tokenizer?.unk ?? '?';
  const letters = (tokenizer?.srcVocab ?? []).filter((c) => /^\p{Ll}$/u.test(c));
  const symbols = letters.length ? `${letters[0]}–${letters.at(-1)}` : '?';
  const normalized =
    tokenizer?.type === 'word' &&
    Array.isArray(tokenizer.normalize) &&
    tokenizer.normalize.includes('punctuation');
  const hint = normalized
    ? 'input.hintNormalized'
    : Object.hasOwn(FAMILIES, family)
      ? FAMILIES[family].hint
      : 'input.hint';
  return t(lang, hint, { max: MAX_INPUT, unk, symbols });
}

/**
 * The sentence a page shows for refused parameters (parseModelParams' or parsePageHash's
 * `refused`) and for a link's input cut to MAX_INPUT (their `inputCut`: its length), in lang; ''
 * when there is neither. Text for textContent, never markup.
 */
export function refusedNotice(refused, lang, inputCut = 0) {
  return sentences(lang, [
    refused?.length ? t(lang, 'url.refused', { list: refused.join(', ') }) : '',
    Number.isInteger(inputCut) && inputCut > MAX_INPUT
      ? t(lang, 'url.inputCut', { n: inputCut, max: MAX_INPUT })
      : '',
  ]);
}

/** Canonical query parameters for a model-view state (seed/a/b/hide/kind/step/gold left out when unset). */
export function formatModelParams(state) {
  const p = new URLSearchParams();
  p.set('view', state.view);
  p.set('model', state.model);
  p.set('input', state.input ?? '');
  p.set('layer', String(state.layer));
  p.set('head', String(state.head));
  p.set('lang', state.lang);
  if (state.hide?.length) p.set('hide', state.hide.join(','));
  if (state.seed !== null && state.seed !== undefined) p.set('seed', String(state.seed));
  if (state.a) p.set('a', state.a);
  if (state.b) p.set('b', state.b);
  if (state.kind) p.set('kind', state.kind);
  if (state.step !== null && state.step !== undefined) p.set('step', String(state.step));
  if (state.gold) p.set('gold', '1');
  // URLSearchParams writes spaces as '+'; %20 reads the same and survives more copy-paste paths.
  return p.toString().replace(/\+/g, '%20');
}

/**
 * The state after switching to `view`: into another view, no step (a position in one view means
 * nothing in the next); otherwise unchanged within a family; into another family's view, the
 * view's default model and its sample input, layer and head 0, no kind (a dates input means
 * nothing to a classifier). A same-origin path model is kept (its family is not known here).
 */
export function switchView(state, view) {
  const next = { ...state, view, step: view === state.view ? state.step : null };
  if (!VIEW_FAMILY[view] || modelFitsView(state.model, view)) return next;
  const model = defaultModelFor(view);
  return { ...next, model, input: sampleFor(model), layer: 0, head: 0, kind: null };
}

/**
 * The settings patch of picking model in the picker: layer and head 0, no kind, no step; into a
 * model of another family (the mechanism view offers four), that model's sample input too, as
 * switchView does (a dates input means nothing to a classifier).
 */
export function pickModel(state, model) {
  const patch = { model, layer: 0, head: 0, kind: null, step: null };
  const [from, to] = [findModel(state.model), findModel(model)];
  return from && to && from.family !== to.family ? { ...patch, input: sampleFor(model) } : patch;
}

/**
 * The lab's own keys of a page hash or an embed query: every key but those in skip, or for the
 * old Train view (view=train) the lab's dates preset (its old lr and batch are dropped: the
 * preset sets its own).
 * @param {URLSearchParams} params
 * @param {string[]} skip
 */
export function labQuery(params, skip) {
  if (params.get('view') === 'train') return new URLSearchParams('preset=dates');
  const own = new URLSearchParams();
  for (const [k, v] of params) if (!skip.includes(k)) own.append(k, v);
  return own;
}

/**
 * The page's state from its hash: { view, ...model state, playground: state.js's state }.
 * A hash with the playground's keys and no view (old links) opens the playground.
 * However long the hash, each parameter is judged on its own (an over-long one is refused by
 * name), so one bad value never costs the view, the model and the rest.
 */
export function parsePageHash(hash, origin) {
  // No cap on the whole: parsing is linear, and every value read is capped (MAX_URL_PART).
  const raw = typeof hash === 'string' ? hash.replace(/^#/, '') : '';
  let params;
  try {
    params = new URLSearchParams(raw);
  } catch {
    params = new URLSearchParams();
  }
  // state.js ignores a hash over 1,024 characters outright; hand it just the playground's keys
  // (values longer than a number or a word could never parse, so they are left out).
  const playground = new URLSearchParams();
  for (const k of PLAYGROUND_KEYS) {
    const v = params.get(k);
    if (v !== null && v.length <= 32) playground.set(k, v);
  }
  const view = params.get('view');
  const isPlayground =
    view === 'playground' || (view === null && PLAYGROUND_KEYS.some((k) => params.has(k)));
  const isTrain = view === 'train'; // the old Train view: the lab on its dates preset
  const isLesson = view === 'lesson';
  const isLab = view === 'lab' || isTrain;
  const model = parseModelParams(params, origin);
  if (isPlayground || isLesson || isLab) model.refused = model.refused.filter((k) => k !== 'view');
  let lab = '';
  if (isLab) {
    // the lab's keys are its own (b, step, seed mean other things there): only lang is read here
    model.refused = model.refused.filter((k) => k === 'lang');
    model.step = null;
    lab = labQuery(params, ['view', 'lang']).toString();
    if (lab.length > MAX_LAB_PARAMS) {
      model.refused.push('lab=too long');
      lab = '';
    }
  }
  let lesson = 1;
  if (isLesson) {
    // the lesson's step is its own (1-based), not the reading or time view's position
    const raw = params.get('step');
    const got = parseLessonStep(raw !== null && raw.length > MAX_URL_PART ? '' : raw);
    lesson = got.step;
    model.step = null;
    model.refused = model.refused.filter((k) => k !== 'step');
    if (got.refused) model.refused.push('step');
  }
  return {
    ...model,
    view: isPlayground ? 'playground' : isLesson ? 'lesson' : isLab ? 'lab' : model.view,
    playground: parsePlaygroundHash(playground.toString()),
    lesson,
    lab,
  };
}

/** The page's canonical hash. */
export function formatPageHash(state) {
  if (state.view === 'playground') {
    return `#view=playground&${formatPlaygroundHash(state.playground).slice(1)}&lang=${state.lang}`;
  }
  if (state.view === 'lesson') return `#view=lesson&step=${state.lesson ?? 1}&lang=${state.lang}`;
  if (state.view === 'lab')
    return `#view=lab${state.lab ? `&${state.lab}` : ''}&lang=${state.lang}`;
  return `#${formatModelParams({ ...state, hide: [] })}`;
}
