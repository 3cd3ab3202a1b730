// notation.js: the one equation markup of the page, and the symbols an equation uses (pure, no DOM;
// importable in Node).
//
//   equationParts('c_t = Σ_i α_{ti} h_i')   // [['text', 'c'], ['sub', 't'], ['text', ' = Σ'], …]
//   toMarkup('e_tᵢ = vᵀ tanh(…)')            // 'e_{ti} = v^T tanh(…)': Unicode sub/superscripts
//   equationSymbols('k_i = W_K h_i', named) // ['k', 'W_K', 'h'] (named: ids like 'W_K', 'a^K')
//   toUnicode('α_{ti}')                      // 'αₜᵢ', for a title attribute
//   markupHtml('v^T h_i')                    // '<var>v</var><sup><var>T</var></sup> …' (the lab)
//
// The markup: x_i and x^T take one character, x_{…} and x^{…} the braces' contents (no nesting).
// The lesson (lesson-steps.js), the alignment view's panel (explain.js) and the mechanism view
// write their equations in it, or in Unicode sub/superscripts (eₜᵢ, vᵀ), which toMarkup turns
// into it, so that tests/js/notation.test.js can compare their symbols and the glossary
// (glossary.js) can be checked to name every one. A symbol is a letter (with its accent: h̃, α̃)
// or a word (tanh, softmax), plus the subscript or superscript that is part of its name when the
// caller's `named` set holds that form (W_K, d_k, a^K; otherwise x_i is the symbol x, indexed);
// a single letter written straight before "(" is a function (f(…), p(…), O(…)) and is named
// 'f()', 'p()', 'O()'. Index letters inside sub/superscripts are not symbols.

/** Unicode subscript characters and what they stand for. */
const SUBSCRIPTS = new Map(
  Object.entries({
    '₀': '0',
    '₁': '1',
    '₂': '2',
    '₃': '3',
    '₄': '4',
    '₅': '5',
    '₆': '6',
    '₇': '7',
    '₈': '8',
    '₉': '9',
    '₊': '+',
    '₋': '−',
    '₌': '=',
    '₍': '(',
    '₎': ')',
    ₐ: 'a',
    ₑ: 'e',
    ₒ: 'o',
    ₓ: 'x',
    ₕ: 'h',
    ₖ: 'k',
    ₗ: 'l',
    ₘ: 'm',
    ₙ: 'n',
    ₚ: 'p',
    ₛ: 's',
    ₜ: 't',
    ᵢ: 'i',
    ᵣ: 'r',
    ᵤ: 'u',
    ᵥ: 'v',
    ⱼ: 'j',
  }),
);

/** Unicode superscript characters and what they stand for. */
const SUPERSCRIPTS = new Map(
  Object.entries({
    ᵀ: 'T',
    ᴷ: 'K',
    ⱽ: 'V',
    '⁰': '0',
    '¹': '1',
    '²': '2',
    '³': '3',
    '⁻': '−',
  }),
);

/**
 * An equation in Unicode sub/superscripts (or mixed: e_tᵢ) written in the markup: each run of
 * subscript characters becomes _{…}, of superscript characters ^{…}; adjacent subscripts merge
 * (e_tᵢ → e_{ti}). Markup passes through unchanged.
 * @param {string} source @returns {string}
 */
export function toMarkup(source) {
  let out = '';
  let braced = false; // inside a markup _{…} or ^{…}: Unicode stays (no nesting in the markup)
  const chars = Array.from(String(source));
  for (let i = 0; i < chars.length; ) {
    const c = chars[i];
    if ((c === '_' || c === '^') && chars[i + 1] === '{') braced = true;
    else if (c === '}') braced = false;
    const map = braced
      ? null
      : SUBSCRIPTS.has(c)
        ? SUBSCRIPTS
        : SUPERSCRIPTS.has(c)
          ? SUPERSCRIPTS
          : null;
    if (!map) {
      out += chars[i++];
      continue;
    }
    let run = '';
    while (i < chars.length && map.has(chars[i])) run += map.get(chars[i++]);
    out += `${map === SUBSCRIPTS ? '_' : '^'}{${run}}`;
  }
  return equationText(out);
}

/**
 * An equation in the markup as parts: ['text', s], ['sub', s] or ['sup', s]. Adjacent subscripts
 * (x_t_{i}, from e_tᵢ) merge into one.
 * @param {string} source @returns {Array<[string, string]>}
 */
export function equationParts(source) {
  /** @type {Array<[string, string]>} */
  const parts = [];
  let text = '';
  const chars = Array.from(source);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if ((c === '_' || c === '^') && i + 1 < chars.length) {
      if (text) parts.push(['text', text]);
      text = '';
      let arg;
      if (chars[i + 1] === '{') {
        const end = chars.indexOf('}', i + 2);
        const stop = end < 0 ? chars.length : end;
        arg = chars.slice(i + 2, stop).join('');
        i = stop;
      } else {
        arg = chars[i + 1];
        i += 1;
      }
      const kind = c === '_' ? 'sub' : 'sup';
      const last = parts[parts.length - 1];
      if (kind === 'sub' && last?.[0] === 'sub') last[1] += arg;
      else parts.push([kind, arg]);
    } else text += c;
  }
  if (text) parts.push(['text', text]);
  return parts;
}

/** An equation back in its markup, normalised (x_i, x_{ti}): what the tests search. */
export function equationText(source) {
  const arg = (s) => (Array.from(s).length === 1 ? s : `{${s}}`);
  return equationParts(source)
    .map(([k, s]) => (k === 'text' ? s : `${k === 'sub' ? '_' : '^'}${arg(s)}`))
    .join('');
}

const TO_SUB = new Map([...SUBSCRIPTS].map(([u, c]) => [c, u]));
const TO_SUP = new Map([...SUPERSCRIPTS].map(([u, c]) => [c, u]));

/**
 * Markup as plain text for where no <sub> can go (a title attribute): sub/superscripts in Unicode
 * when every character has a Unicode form (α_{ti} → αₜᵢ), else kept as x_{…}.
 * @param {string} source @returns {string}
 */
export function toUnicode(source) {
  return equationParts(source)
    .map(([kind, s]) => {
      if (kind === 'text') return s;
      const map = kind === 'sub' ? TO_SUB : TO_SUP;
      const chars = Array.from(s);
      if (chars.every((c) => map.has(c))) return chars.map((c) => map.get(c)).join('');
      return `${kind === 'sub' ? '_' : '^'}${chars.length === 1 ? s : `{${s}}`}`;
    })
    .join('');
}

/** Text as HTML with each single-letter symbol in a <var> (words such as tanh stay as they are;
 * in a subscript, two letters are two indices: ti). */
function varHtml(text, index = false) {
  const esc = (x) => x.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  let out = '';
  let at = 0;
  for (const m of text.matchAll(/\p{L}\p{M}*(?:\p{L}\p{M}*)*/gu)) {
    out += esc(text.slice(at, m.index));
    const letters = Array.from(m[0]).filter((c) => /\p{L}/u.test(c)).length;
    if (letters === 1) out += `<var>${esc(m[0])}</var>`;
    else if (index && letters === 2)
      out += m[0].replace(/\p{L}\p{M}*/gu, (c) => `<var>${esc(c)}</var>`);
    else out += esc(m[0]);
    at = m.index + m[0].length;
  }
  return out + esc(text.slice(at));
}

/**
 * Markup (or Unicode) as small HTML: <var> around each one-letter symbol, <sub> and <sup>, the
 * rest escaped text (the lab's equation line, which sets it as HTML).
 * @param {string} source @returns {string}
 */
export function markupHtml(source) {
  return equationParts(toMarkup(source))
    .map(([kind, s]) => (kind === 'text' ? varHtml(s) : `<${kind}>${varHtml(s, true)}</${kind}>`))
    .join('');
}

/** A letter with its combining marks (h̃, α̃), or a run of letters (a word). */
const WORD = /\p{L}\p{M}*(?:\p{L}\p{M}*)*/gu;

/**
 * The equation as pieces for a builder that marks symbols: each piece is parts of
 * equationParts's form and the symbol it shows (null: operators, numbers, index sub/superscripts).
 * @param {string} source markup or Unicode @param {ReadonlySet<string>} [named]
 * @returns {Array<{ symbol: string | null, parts: Array<[string, string]> }>}
 */
export function equationPieces(source, named = new Set()) {
  const parts = equationParts(toMarkup(source));
  /** @type {Array<{ symbol: string | null, parts: Array<[string, string]> }>} */
  const pieces = [];
  const plain = (kind, s) => {
    const last = pieces[pieces.length - 1];
    if (last && last.symbol === null && kind === 'text' && last.parts.at(-1)[0] === 'text')
      last.parts.at(-1)[1] += s;
    else pieces.push({ symbol: null, parts: [[kind, s]] });
  };
  for (let p = 0; p < parts.length; p++) {
    const [kind, text] = parts[p];
    if (kind !== 'text') {
      plain(kind, text);
      continue;
    }
    let at = 0;
    for (const m of text.matchAll(WORD)) {
      if (m.index > at) plain('text', text.slice(at, m.index));
      const word = m[0];
      at = m.index + word.length;
      const end = at === text.length;
      const letters = Array.from(word.normalize('NFC')).filter((c) => /\p{L}/u.test(c)).length;
      /** @type {Array<[string, string]>} */
      const own = [['text', word]];
      let symbol = word;
      if (letters === 1 && text[at] === '(') symbol = `${word}()`;
      else if (end) {
        // a name's own subscript or superscript (W_K, a^K, W_K^j: the first one that names it)
        for (let q = p + 1; q < parts.length && q <= p + 2 && parts[q][0] !== 'text'; q++) {
          const id = `${word}${parts[q][0] === 'sub' ? '_' : '^'}${parts[q][1]}`;
          if (named.has(id)) {
            symbol = id;
            own.push(...parts.slice(p + 1, q + 1));
            parts.splice(p + 1, q - p);
            break;
          }
        }
      }
      pieces.push({ symbol, parts: own });
    }
    if (at < text.length) plain('text', text.slice(at));
  }
  return pieces;
}

/**
 * The symbols an equation uses, in order of first use (see the header: letters, words, named
 * sub/superscript forms, 'f()' for an applied single letter).
 * @param {string} source markup or Unicode @param {ReadonlySet<string>} [named]
 * @returns {string[]}
 */
export function equationSymbols(source, named) {
  const seen = new Set();
  for (const { symbol } of equationPieces(source, named)) if (symbol) seen.add(symbol);
  return [...seen];
}
