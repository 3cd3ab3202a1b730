// attnlab/web/lab/pairs.js: reads the lab's "your own pairs" paste or file (TSV or CSV of
// input → output pairs) into [{ src, tgt }], or throws a PairsError naming the line and the
// problem. ESM, no DOM, no dependency: runs in the page, in workers and in Node.
//
//   import { parsePairs, PairsError } from './pairs.js';
//   parsePairs('abc\tcba\nhello\tolleh\n');          // { pairs: [...2], level: 'char', lines: 2, format: 'tsv', header: false }
//   parsePairs(bytes);                                // a dropped file's bytes: strict UTF-8
//   try { parsePairs('a,b,c\n'); } catch (e) { e.line; e.problem; e.message; } // 1, 'ragged', …
//
// Format: TSV when the first non-empty line holds a tab, else CSV. TSV fields are literal (split
// on tabs; a quote is an ordinary character). CSV follows RFC 4180: fields separated by commas, a
// field may be enclosed in double quotes, and inside it "" is one quote and commas and line breaks
// are data. Line ends: LF, CRLF or a lone CR. A leading byte-order mark is dropped. Blank lines are
// skipped. Fields are trimmed of surrounding whitespace. A first row whose two fields are column
// names (input/output, source/target, src/tgt, question/answer, …) is skipped as a header.
// Level: 'char' or 'word' as asked; 'auto' picks 'word' when more than half of the outputs hold
// a space, else 'char'.
// Errors (PairsError { line, problem, message }; line is the 1-based line where the offending row
// starts, null when the problem is the whole input), with stable problem codes the UI translates:
//   'invalid-utf8'  the bytes are not UTF-8 (line of the first bad byte)
//   'too-long'      a row longer than maxLength characters (found while scanning: never reads on)
//   'ragged'        a row without exactly two fields
//   'empty-input'   an empty input field;   'empty-output'  an empty output field
//   'unterminated-quote'  a CSV quoted field that never closes (line where it opened)
//   'bad-quote'     characters between a closing quote and the next comma or line end
//   'too-many'      more than maxPairs pairs (line of the first one too many)
//   'no-pairs'      nothing but blank lines (line null)
//   'control-char'  a NUL or another control character but tab and line ends (line and column)
//   'too-large'     the input is over maxInput (4 MiB): refused by its length, nothing read
//   'vocab'         a side (inputs or outputs) holds more than maxVocab (10,000) distinct tokens
//                   at the level picked (line where the cap was crossed)
// Errors also carry column (control-char) and limit (the cap crossed), null when not relevant.
// Linear time: one pass over the characters, stopping at the first problem; the largest input
// accepted (4 MiB) parses in about a hundred milliseconds (docs/reliability.md, "The lab").
// Messages are English; the UI owns translations and keys them by problem.
// Not here: the tokenizer and the train / held-out split (tasks.js), any DOM.

import { hashString } from '../data/common.js';

/** The problem codes parsePairs may throw, in the order the header lists them. */
export const PAIRS_PROBLEMS = Object.freeze([
  'invalid-utf8',
  'too-long',
  'ragged',
  'empty-input',
  'empty-output',
  'unterminated-quote',
  'bad-quote',
  'too-many',
  'no-pairs',
  'control-char',
  'too-large',
  'vocab',
]);
/** Defaults: the 50,000 pairs; a row of at most 1,000 characters. */
export const MAX_PAIRS = 50000;
export const MAX_LINE = 1000;
/** The whole input: at most 4 MiB (bytes of a file, UTF-16 code units of a paste), refused by
 * its length before one character is read, so a 20 MB paste costs nothing. */
export const MAX_INPUT = 4 * 1048576;
/** Distinct tokens (characters or words, per side: inputs, outputs) at most: the model's embedding
 * and output layers grow with them (the lab's models stay a few million parameters). */
export const MAX_VOCAB = 10000;
/** Rows between two onProgress calls (parsePairs' option). */
export const PROGRESS_ROWS = 2000;

export class PairsError extends Error {
  /**
   * @param {number | null} line 1-based line where the row starts, null for the whole input
   * @param {string} problem one of PAIRS_PROBLEMS
   * @param {string} message English, names the line and the problem
   * @param {{ column?: number, limit?: number }} [more] the 1-based column ('control-char'), the
   *   cap crossed ('too-large', 'vocab', 'too-many', 'too-long')
   */
  constructor(line, problem, message, more = {}) {
    super(message);
    this.name = 'PairsError';
    this.line = line;
    this.problem = problem;
    this.column = more.column ?? null;
    this.limit = more.limit ?? null;
  }
}

// Column names a first row may hold (both fields must be one of them); short words such as x, y,
// in, out are left out: they are too likely to be a real first pair.
const HEADER_WORDS = new Set([
  'input',
  'output',
  'source',
  'target',
  'src',
  'tgt',
  'question',
  'answer',
  'prompt',
  'response',
  'english',
  'french',
]);

/** The 1-based line of the first invalid UTF-8 sequence in bytes (a hand-written validator, used
 * only once TextDecoder has refused the bytes, to name the line). */
function firstBadUtf8Line(bytes) {
  let line = 1;
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    if (b === 0x0a) {
      line++;
      i++;
      continue;
    }
    if (b < 0x80) {
      i++;
      continue;
    }
    let n, min;
    if (b >= 0xc2 && b <= 0xdf) {
      n = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      n = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      n = 3;
      min = 0x10000;
    } else return line;
    let cp = b & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return line;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return line;
    i += n + 1;
  }
  return line;
}

/** Text of the input: strings as they are, bytes decoded as strict UTF-8 (BOM dropped). */
function toText(input, maxInput) {
  const tooLarge = (n, unit) =>
    new PairsError(
      null,
      'too-large',
      `the data is ${n} ${unit} long; the lab reads at most ${maxInput} (${MAX_PAIRS} pairs of a few dozen characters fit)`,
      { limit: maxInput },
    );
  if (typeof input === 'string') {
    if (input.length > maxInput) throw tooLarge(input.length, 'characters');
    return input;
  }
  const bytes = bytesOf(input, (n) => n > maxInput && tooLarge(n, 'bytes'));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const line = firstBadUtf8Line(bytes);
    throw new PairsError(
      line,
      'invalid-utf8',
      `line ${line}: the file is not UTF-8 text (save it as UTF-8 and try again)`,
    );
  }
}

/** The intrinsic accessors, taken once: a Proxy or a look-alike is never asked anything. */
const getter = (proto, key) => Object.getOwnPropertyDescriptor(proto, key).get;
const TYPED = Object.getPrototypeOf(Uint8Array.prototype);
const TYPED_TAG = getter(TYPED, Symbol.toStringTag);
const TYPED_BUFFER = getter(TYPED, 'buffer');
const TYPED_OFFSET = getter(TYPED, 'byteOffset');
const TYPED_LENGTH = getter(TYPED, 'byteLength');
const VIEW_BUFFER = getter(DataView.prototype, 'buffer');
const VIEW_OFFSET = getter(DataView.prototype, 'byteOffset');
const VIEW_LENGTH = getter(DataView.prototype, 'byteLength');
const AB_LENGTH = getter(ArrayBuffer.prototype, 'byteLength');
const SAB_LENGTH =
  typeof SharedArrayBuffer === 'function'
    ? getter(SharedArrayBuffer.prototype, 'byteLength')
    : () => undefined;

/** fn.call(value), or undefined when value fails fn's brand check (a Proxy, a revoked one, …). */
function tryCall(fn, value) {
  try {
    return fn.call(value);
  } catch {
    return undefined;
  }
}

/**
 * A copy of the bytes of an ArrayBuffer, SharedArrayBuffer, typed array or DataView, read through
 * the intrinsic accessors only; anything else (a Proxy of one, an object with throwing getters, a
 * detached buffer) is a PairsError, never a TypeError; refuseSize(byteLength) returns the error
 * of a size refused before anything is copied (or a falsy value).
 * @param {any} input
 * @param {(byteLength: number) => PairsError | false | null} [refuseSize]
 */
function bytesOf(input, refuseSize = () => null) {
  const bad = (what) =>
    new PairsError(null, 'no-pairs', `parsePairs: the input must be text or bytes, got ${what}`);
  if (input === null || (typeof input !== 'object' && typeof input !== 'function'))
    throw bad(input === null ? 'null' : typeof input);
  let view = null;
  if (tryCall(TYPED_TAG, input) !== undefined)
    view = () =>
      new Uint8Array(TYPED_BUFFER.call(input), TYPED_OFFSET.call(input), TYPED_LENGTH.call(input));
  else if (tryCall(VIEW_LENGTH, input) !== undefined)
    view = () =>
      new Uint8Array(VIEW_BUFFER.call(input), VIEW_OFFSET.call(input), VIEW_LENGTH.call(input));
  else if (tryCall(AB_LENGTH, input) !== undefined || tryCall(SAB_LENGTH, input) !== undefined)
    view = () => new Uint8Array(input);
  if (!view) throw bad('an object that is not text, an ArrayBuffer or a typed array');
  let bytes;
  try {
    bytes = view();
  } catch {
    throw bad('a detached buffer (its bytes were transferred elsewhere)');
  }
  const tooLarge = refuseSize(bytes.byteLength); // before the copy: a huge input costs nothing
  if (tooLarge) throw tooLarge;
  return bytes.slice(); // a copy: never shared, never changed while it is read
}

/** C0 control characters but tab, LF and CR, and DEL: NUL is refused by the models' config
 * reader, the others are invisible in every view. */
const isControl = (c) => (c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127;

/**
 * Splits text into rows of fields, calling onRow(fields, line, end) for each non-blank row (end:
 * the index just past the row).
 * One pass; throws PairsError for too-long rows and CSV quoting errors.
 */
function scanRows(text, sep, maxLength, onRow) {
  const n = text.length;
  let i = 0;
  let line = 1;
  let lineStart = 0; // index of the current line's first character (for columns)
  const control = (at) => {
    const code = text.charCodeAt(at);
    const column = at - lineStart + 1;
    const name =
      code === 0
        ? 'a NUL character (U+0000)'
        : `the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    return new PairsError(
      line,
      'control-char',
      `line ${line}, column ${column}: ${name}; the lab's tokenizers take printable text only`,
      { column },
    );
  };
  while (i < n) {
    const rowLine = line;
    const rowStart = i;
    const fields = [];
    let field = '';
    let blank = true;
    for (;;) {
      if (i - rowStart > maxLength) {
        throw new PairsError(
          rowLine,
          'too-long',
          `line ${rowLine} is longer than ${maxLength} characters`,
          { limit: maxLength },
        );
      }
      if (i >= n) {
        fields.push(field);
        break;
      }
      const c = text.charCodeAt(i);
      if (c === 10 || c === 13) {
        fields.push(field);
        i += c === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
        line++;
        lineStart = i;
        break;
      }
      if (sep === 44 && c === 34 && field.trim() === '') {
        // an RFC 4180 quoted field: up to the closing quote, "" is one quote
        const openLine = line;
        let value = '';
        i++;
        for (;;) {
          if (i - rowStart > maxLength)
            throw new PairsError(
              rowLine,
              'too-long',
              `line ${rowLine} is longer than ${maxLength} characters`,
              { limit: maxLength },
            );
          if (i >= n)
            throw new PairsError(
              openLine,
              'unterminated-quote',
              `line ${openLine}: a quoted field is never closed (a missing ")`,
            );
          const q = text.charCodeAt(i);
          if (q === 34) {
            if (text.charCodeAt(i + 1) === 34) {
              value += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (q === 13 || q === 10) {
            line++;
            if (q === 13 && text.charCodeAt(i + 1) === 10) {
              value += '\r\n';
              i += 2;
              lineStart = i;
              continue;
            }
            value += text[i];
            i++;
            lineStart = i;
            continue;
          }
          if (isControl(q)) throw control(i);
          value += text[i];
          i++;
        }
        // after the closing quote: spaces, then a separator or a line end
        while (i < n && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
        const d = i < n ? text.charCodeAt(i) : -1;
        if (d !== -1 && d !== 44 && d !== 10 && d !== 13) {
          throw new PairsError(
            rowLine,
            'bad-quote',
            `line ${rowLine}: characters after a closing quote (write "" for a quote inside a quoted field)`,
          );
        }
        field = value;
        blank = false;
        if (d === 44) {
          fields.push(field);
          field = '';
          i++;
        }
        continue;
      }
      if (c === sep) {
        fields.push(field);
        field = '';
        blank = false;
        i++;
        continue;
      }
      // copy a run of ordinary characters at once (keeps the scan linear and fast)
      if (isControl(c)) throw control(i);
      let j = i + 1;
      while (j < n && j - rowStart <= maxLength) {
        const d = text.charCodeAt(j);
        if (d === sep || d === 10 || d === 13) break;
        if (isControl(d)) throw control(j);
        j++;
      }
      const run = text.slice(i, j);
      if (blank && run.trim() !== '') blank = false;
      field += run;
      i = j;
    }
    if (blank && fields.length === 1 && fields[0].trim() === '') continue;
    onRow(fields, rowLine, i);
  }
  return line;
}

/** A set of code points with a size: a bitmap for the BMP (fast on the hot path), a Set beyond. */
function charSet() {
  const bmp = new Uint8Array(65536);
  const astral = new Set();
  let bmpSize = 0;
  return {
    get size() {
      return bmpSize + astral.size;
    },
    addChars(text) {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
          const d = text.charCodeAt(i + 1);
          if (d >= 0xdc00 && d <= 0xdfff) {
            astral.add((c << 16) | d);
            i++;
            continue;
          }
        }
        if (bmp[c] === 0) {
          bmp[c] = 1;
          bmpSize++;
        }
      }
    },
  };
}

/**
 * Counts the distinct tokens of each side at each level asked ('auto': both, until the level is
 * known), as tasks.js's customTokenizer will make them (code points; whitespace-separated words).
 * add() throws PairsError 'vocab' at the line where a level asked crosses maxVocab ('auto': once
 * both levels have crossed it); check(level) throws for a level that crossed it (at its line).
 * A set stops growing once past the cap, so memory stays bounded.
 */
function vocabCounter(level, maxVocab) {
  const levels = level === 'auto' ? ['char', 'word'] : [level];
  const state = levels.map((lv) => ({
    level: lv,
    sides: [lv === 'word' ? new Set() : charSet(), lv === 'word' ? new Set() : charSet()],
    crossed: /** @type {null | { line: number, side: number }} */ (null),
  }));
  const refuse = (s) => {
    const side = s.crossed.side === 0 ? 'inputs' : 'outputs';
    const unit = s.level === 'word' ? 'words' : 'characters';
    return new PairsError(
      s.crossed.line,
      'vocab',
      `line ${s.crossed.line}: the ${side} hold more than ${maxVocab} distinct ${unit} (the vocabulary cap); the lab's models stay small`,
      { limit: maxVocab },
    );
  };
  return {
    add(src, tgt, line) {
      for (const s of state) {
        if (s.crossed) continue;
        [src, tgt].forEach((text, side) => {
          const set = /** @type {any} */ (s.sides[side]); // a Set of words, or charSet()
          if (s.crossed) return;
          if (s.level === 'word') {
            for (const w of text.split(/\s+/)) if (w) set.add(w);
          } else set.addChars(text);
          if (set.size > maxVocab) s.crossed = { line, side };
        });
      }
      if (state.every((s) => s.crossed))
        throw refuse(state.reduce((a, b) => (b.crossed.line > a.crossed.line ? b : a)));
    },
    check(picked) {
      const s = state.find((x) => x.level === picked);
      if (s?.crossed) throw refuse(s);
    },
  };
}

/**
 * Reads a TSV or CSV of input → output pairs.
 * @param {string | Uint8Array | ArrayBuffer} input
 * @param {{ level?: 'auto' | 'char' | 'word', maxPairs?: number, maxLength?: number,
 *            maxInput?: number, maxVocab?: number, onProgress?: (p: { rows: number,
            done: number, total: number }) => void }} [options]
 *   maxLength: the longest row in characters (default 1,000); maxInput: the longest input in
 *   characters or bytes (default MAX_INPUT); maxVocab: distinct tokens per side (MAX_VOCAB);
 *   onProgress({ rows, done, total }) every PROGRESS_ROWS rows (done of total characters read;
 *   web/lab/pairs-worker.js posts it to the page's progress bar)
 * @returns {{ pairs: { src: string, tgt: string }[], level: 'char' | 'word', lines: number,
 *             format: 'tsv' | 'csv', header: boolean }}
 * @throws {PairsError}
 */
export function parsePairs(input, options = {}) {
  const level = options.level === 'char' || options.level === 'word' ? options.level : 'auto';
  const maxPairs =
    Number.isInteger(options.maxPairs) && options.maxPairs > 0 ? options.maxPairs : MAX_PAIRS;
  const maxLength =
    Number.isInteger(options.maxLength) && options.maxLength > 0 ? options.maxLength : MAX_LINE;
  const maxInput =
    Number.isInteger(options.maxInput) && options.maxInput > 0 ? options.maxInput : MAX_INPUT;
  const maxVocab =
    Number.isInteger(options.maxVocab) && options.maxVocab > 0 ? options.maxVocab : MAX_VOCAB;
  let text = toText(input, maxInput);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // the format: a tab on the first non-blank line (looked at up to maxLength characters; blank
  // space before it is skipped, a line end at a time, up to maxLength characters)
  let k = 0;
  for (let run = 0; k < text.length && /\s/.test(text[k]) && text[k] !== '\t'; k++) {
    const c = text.charCodeAt(k);
    run = c === 10 || c === 13 ? 0 : run + 1;
    if (run > maxLength) break;
  }
  let sep = 44;
  for (let j = k; j < text.length && j - k <= maxLength; j++) {
    const c = text.charCodeAt(j);
    if (c === 9) {
      sep = 9;
      break;
    }
    if (c === 10 || c === 13) break;
  }
  const pairs = [];
  let header = false;
  let outputsWithSpace = 0;
  const vocab = vocabCounter(level, maxVocab);
  const onProgress = typeof options.onProgress === 'function' ? options.onProgress : null;
  let seen = 0;
  const lines = scanRows(text, sep, maxLength, (fields, line, end) => {
    if (onProgress && ++seen % PROGRESS_ROWS === 0)
      onProgress({ rows: pairs.length, done: end, total: text.length });
    if (fields.length !== 2) {
      throw new PairsError(
        line,
        'ragged',
        `line ${line} has ${fields.length} field${fields.length === 1 ? '' : 's'}; each line needs exactly 2 (input ${sep === 9 ? 'TAB' : ','} output)`,
      );
    }
    const src = fields[0].trim();
    const tgt = fields[1].trim();
    if (
      pairs.length === 0 &&
      !header &&
      HEADER_WORDS.has(src.toLowerCase()) &&
      HEADER_WORDS.has(tgt.toLowerCase())
    ) {
      header = true;
      return;
    }
    if (src === '')
      throw new PairsError(line, 'empty-input', `line ${line}: the input (first field) is empty`);
    if (tgt === '')
      throw new PairsError(
        line,
        'empty-output',
        `line ${line}: the output (second field) is empty`,
      );
    if (pairs.length >= maxPairs)
      throw new PairsError(
        line,
        'too-many',
        `line ${line}: more than ${maxPairs} pairs (keep the first ${maxPairs})`,
        { limit: maxPairs },
      );
    if (/\s/.test(tgt)) outputsWithSpace++;
    vocab.add(src, tgt, line);
    pairs.push({ src, tgt });
  });
  if (pairs.length === 0)
    throw new PairsError(
      null,
      'no-pairs',
      'no pairs found: write one input and output per line, separated by a tab or a comma',
    );
  const picked = level !== 'auto' ? level : outputsWithSpace * 2 > pairs.length ? 'word' : 'char';
  vocab.check(picked);
  return {
    pairs,
    level: picked,
    lines: lines - (text.endsWith('\n') || text.endsWith('\r') ? 1 : 0),
    format: sep === 9 ? 'tsv' : 'csv',
    header,
  };
}

/**
 * A short stable hash of the pairs (16 hex digits), what the URL holds instead of the data
 * (`data=<hash>`): the UI asks for the file when the hash names pairs it does not have.
 * @param {{ src: string, tgt: string }[]} pairs
 */
export function pairsHash(pairs) {
  let h1 = 0x12345678,
    h2 = 0x9abcdef0;
  for (const p of pairs) {
    const a = hashString(`${p.src}\t${p.tgt}`);
    h1 = hashString(`${h1}:${a}`);
    h2 = Math.imul(h2 ^ a, 0x01000193) >>> 0;
  }
  return (
    h1.toString(16).padStart(8, '0') +
    hashString(`${h2}:${pairs.length}`).toString(16).padStart(8, '0')
  );
}
