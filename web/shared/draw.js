// draw.js: pure drawing maths for the attention heatmap (no DOM, testable in Node).
//
// Holds: the viridis colour map, value -> colour mapping, value formatting, the canvas layout
// (where the grid, the labels and the legend go), hit-testing a point against it, shrinking a
// matrix too big for one canvas to one that fits, which labels to draw when the cells are too
// small for all of them (every k-th), visible markers for spaces and other invisible characters,
// unique column names and the escaping the SVG and CSV exports need, and wrapping header text.
// Deliberately does not touch a canvas or the DOM: attention-heatmap.js does the drawing and
// hands these functions plain numbers.
//
// Viridis: the perceptually uniform colour map by Stéfan van der Walt and Nathaniel Smith
// (matplotlib, CC0), sampled at 256 points and rounded to 8-bit sRGB, as in matplotlib's
// _cm_listed.py and d3-scale-chromatic.

/** 256 viridis colours, 6 hex digits each, from t = 0 (dark purple) to t = 1 (yellow). */
const VIRIDIS_HEX =
  '44015444025645045745055946075a46085c460a5d460b5e470d60470e61471063471164471365481467481668481769' +
  '48186a481a6c481b6d481c6e481d6f481f70482071482173482374482475482576482677482878482979472a7a472c7a' +
  '472d7b472e7c472f7d46307e46327e46337f463480453581453781453882443983443a83443b84433d84433e85423f85' +
  '4240864241864142874144874045884046883f47883f48893e49893e4a893e4c8a3d4d8a3d4e8a3c4f8a3c508b3b518b' +
  '3b528b3a538b3a548c39558c39568c38588c38598c375a8c375b8d365c8d365d8d355e8d355f8d34608d34618d33628d' +
  '33638d32648e32658e31668e31678e31688e30698e306a8e2f6b8e2f6c8e2e6d8e2e6e8e2e6f8e2d708e2d718e2c718e' +
  '2c728e2c738e2b748e2b758e2a768e2a778e2a788e29798e297a8e297b8e287c8e287d8e277e8e277f8e27808e26818e' +
  '26828e26828e25838e25848e25858e24868e24878e23888e23898e238a8d228b8d228c8d228d8d218e8d218f8d21908d' +
  '21918c20928c20928c20938c1f948c1f958b1f968b1f978b1f988b1f998a1f9a8a1e9b8a1e9c891e9d891f9e891f9f88' +
  '1fa0881fa1881fa1871fa28720a38620a48621a58521a68522a78522a88423a98324aa8325ab8225ac8226ad8127ad81' +
  '28ae8029af7f2ab07f2cb17e2db27d2eb37c2fb47c31b57b32b67a34b67935b77937b87838b9773aba763bbb753dbc74' +
  '3fbc7340bd7242be7144bf7046c06f48c16e4ac16d4cc26c4ec36b50c46a52c56954c56856c66758c7655ac8645cc863' +
  '5ec96260ca6063cb5f65cb5e67cc5c69cd5b6ccd5a6ece5870cf5773d05675d05477d1537ad1517cd2507fd34e81d34d' +
  '84d44b86d54989d5488bd6468ed64590d74393d74195d84098d83e9bd93c9dd93ba0da39a2da37a5db36a8db34aadc32' +
  'addc30b0dd2fb2dd2db5de2bb8de29bade28bddf26c0df25c2df23c5e021c8e020cae11fcde11dd0e11cd2e21bd5e21a' +
  'd8e219dae319dde318dfe318e2e418e5e419e7e419eae51aece51befe51cf1e51df4e61ef6e620f8e621fbe723fde725';

/** Uint8Array [256 * 3]: r, g, b of each viridis entry. */
export const VIRIDIS = (() => {
  const out = new Uint8Array(256 * 3);
  for (let i = 0; i < 256 * 3; i++) out[i] = parseInt(VIRIDIS_HEX.slice(2 * i, 2 * i + 2), 16);
  return out;
})();

/**
 * A diverging map for signed differences: ColorBrewer's RdBu (Cynthia Brewer, Apache-2.0), 11
 * classes reversed (blue low, near-white middle, red high), interpolated linearly to 256 entries.
 */
const RDBU_R_HEX = [
  '053061',
  '2166ac',
  '4393c3',
  '92c5de',
  'd1e5f0',
  'f7f7f7',
  'fddbc7',
  'f4a582',
  'd6604d',
  'b2182b',
  '67001f',
];

/** The same map for a dark background: RdBu's hues, the middle dark instead of near-white, so
 * that on a dark page a larger |difference| is brighter, as a larger one is darker on a light
 * page (and 0 is not a white block). */
const RDBU_DARK_HEX = [
  'd1e5f0',
  '92c5de',
  '4393c3',
  '2166ac',
  '173a5e',
  '262626',
  '5e1a1a',
  'b2182b',
  'd6604d',
  'f4a582',
  'fddbc7',
];

/** Uint8Array [256 * 3]: r, g, b of the diverging map. */
export const DIVERGING = interpolated(RDBU_R_HEX);

/** Uint8Array [256 * 3]: the diverging map of a dark background (heatmap-draw.js drawMap). */
export const DIVERGING_DARK = interpolated(RDBU_DARK_HEX);

/** 256 r, g, b entries interpolated linearly between hex anchors. */
function interpolated(hex) {
  const anchors = hex.map((h) => [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)));
  const out = new Uint8Array(256 * 3);
  for (let i = 0; i < 256; i++) {
    const x = (i / 255) * (anchors.length - 1);
    const k = Math.min(anchors.length - 2, Math.floor(x));
    const f = x - k;
    for (let c = 0; c < 3; c++)
      out[3 * i + c] = Math.round(anchors[k][c] * (1 - f) + anchors[k + 1][c] * f);
  }
  return out;
}

/** The colour table for a map name: 'viridis' (default) or 'diverging'. */
export function colorTable(name) {
  return name === 'diverging' ? DIVERGING : VIRIDIS;
}

/** Colour used for cells whose value is NaN or infinite (a neutral grey, not on the map). */
export const MISSING_RGB = Object.freeze([128, 128, 128]);

/**
 * Viridis colour at t in [0, 1] (clamped; NaN gives MISSING_RGB), as [r, g, b] bytes.
 * The nearest of the 256 entries, so t = 0 and t = 1 hit the exact endpoints.
 * @returns {number[]}
 */
export function viridis(t, table = VIRIDIS) {
  if (Number.isNaN(t)) return [...MISSING_RGB];
  const i = Math.round(Math.min(1, Math.max(0, t)) * 255) * 3;
  return [table[i], table[i + 1], table[i + 2]];
}

/**
 * Position of value in [min, max] as t in [0, 1], clamped. Non-finite values give NaN; an
 * empty range (max <= min) gives 0.5 so a constant matrix is drawn mid-map, not as an edge.
 */
export function valueToUnit(value, min, max) {
  if (!Number.isFinite(value)) return NaN;
  if (!(max > min)) return 0.5;
  const t = (value - min) / (max - min);
  return t <= 0 ? 0 : t >= 1 ? 1 : t;
}

/** [r, g, b] for value on the [min, max] scale of table (default viridis). */
export function valueToColor(value, min, max, table = VIRIDIS) {
  return viridis(valueToUnit(value, min, max), table);
}

/** '#rrggbb' for an [r, g, b] triple. @param {readonly number[]} rgb */
export function rgbToHex([r, g, b]) {
  return '#' + ((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1);
}

/**
 * Fill rgba (Uint8ClampedArray [rows * cols * 4], e.g. ImageData.data) with one pixel per
 * value of weights [rows * cols], row-major. Returns rgba.
 */
export function fillPixels(weights, min, max, rgba, table = VIRIDIS) {
  for (let i = 0; i < weights.length; i++) {
    const [r, g, b] = valueToColor(weights[i], min, max, table);
    rgba[4 * i] = r;
    rgba[4 * i + 1] = g;
    rgba[4 * i + 2] = b;
    rgba[4 * i + 3] = 255;
  }
  return rgba;
}

/**
 * The colour range: min and max where given as finite numbers, else taken from the finite
 * values of weights (no finite value at all: 0 and 1). A reversed range is swapped.
 */
export function resolveRange(weights, min = null, max = null) {
  let dataMin = Infinity;
  let dataMax = -Infinity;
  if (!Number.isFinite(min) || !Number.isFinite(max)) {
    for (let i = 0; i < weights.length; i++) {
      const v = weights[i];
      if (!Number.isFinite(v)) continue;
      if (v < dataMin) dataMin = v;
      if (v > dataMax) dataMax = v;
    }
  }
  const lo = Number.isFinite(min) ? min : Number.isFinite(dataMin) ? dataMin : 0;
  const hi = Number.isFinite(max) ? max : Number.isFinite(dataMax) ? dataMax : 1;
  return lo <= hi ? [lo, hi] : [hi, lo];
}

/**
 * The symmetric range [−a, a] a diverging map needs, a = the largest finite |value| (0 gives
 * [−1, 1]), unless min and max are both given.
 */
export function symmetricRange(weights, min = null, max = null) {
  if (Number.isFinite(min) && Number.isFinite(max)) return min <= max ? [min, max] : [max, min];
  let a = 0;
  for (let i = 0; i < weights.length; i++) {
    const v = Math.abs(weights[i]);
    if (Number.isFinite(v) && v > a) a = v;
  }
  return a > 0 ? [-a, a] : [-1, 1];
}

/** A value for people: 4 significant digits, no trailing zeros ('0.1235', '1', '1.2e-7'). */
export function formatValue(value, digits = 4) {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '−∞';
  if (value === 0) return '0';
  return String(Number(value.toPrecision(digits)));
}

/** A float32 value for files (CSV, JSON): the shortest decimal that reads back to it. */
export function formatFloat32(value) {
  if (!Number.isFinite(value)) return String(value);
  for (let p = 1; p < 9; p++) {
    const s = Number(value.toPrecision(p));
    if (Math.fround(s) === value) return String(s);
  }
  return String(Number(value.toPrecision(9))); // 9 significant digits always round-trip
}

/** Layout constants, in CSS pixels. */
export const LAYOUT = Object.freeze({
  pad: 8, // around everything
  labelGap: 4, // between a label and the grid
  minCell: 2,
  maxCell: 40,
  labelMinCell: 12, // a cell this big holds a label across it (smaller: every k-th label, labelStep)
  labelLine: 12, // the room one label line needs across it (the 11 px font and 1 px), in CSS pixels
  labelSample: 5000, // measure at most this many labels a side (evenly spaced) for the layout
  // The grid never gets wider or taller than this: browsers refuse bigger canvases (Chromium:
  // 32,767 px a side), so a 100,000-column matrix gets sub-pixel cells instead of no canvas.
  maxGrid: 8192,
  legendGap: 12, // grid to legend
  legendBar: 10, // legend bar height
  legendText: 14, // legend tick text height
  legendMinWidth: 160,
  keyHeight: 18, // the line under the legend that names an overlay (the gold alignment's outline)
  keySwatch: 10,
  fontSize: 11,
});

/** The gold-alignment outline: a white halo under a red line, visible on every viridis colour. */
export const GOLD_STROKE = Object.freeze({
  halo: '#ffffff',
  line: '#ff2d2d',
  haloWidth: 3.5,
  lineWidth: 1.75,
});

/**
 * How many labels apart to draw them so they do not overlap: every k-th label, k the smallest
 * whole number with k × cell >= extent (the room one label needs along the axis: a text line
 * across, LAYOUT.labelLine, or a horizontal column label's width plus a gap). 1: every label.
 * @param {number} cell @param {number} [extent]
 */
export function labelStep(cell, extent = LAYOUT.labelLine) {
  if (!(cell > 0)) return Infinity;
  return Math.max(1, Math.ceil(extent / cell - 1e-9));
}

/**
 * Which labels of an axis of n cells to draw: every step-th from 0, and always the pinned ones
 * (the hovered and the focused row or column, drawn in full); a regular label too close to a
 * pinned one (fewer than step cells away) gives way to it, so no two drawn labels overlap.
 * Returns { regular: number[], pinned: number[] } (indices, ascending).
 */
export function labelIndices(n, step, pinned = []) {
  const kept = [];
  for (const p of pinned) {
    if (!Number.isInteger(p) || p < 0 || p >= n) continue;
    if (!kept.some((q) => Math.abs(q - p) < step)) kept.push(p); // the first of two close pins wins
  }
  const regular = [];
  if (Number.isFinite(step) && step >= 1) {
    for (let i = 0; i < n; i += step)
      if (!kept.some((p) => Math.abs(p - i) < step)) regular.push(i);
  }
  return { regular, pinned: kept.sort((a, b) => a - b) };
}

/** Markers for characters a label would otherwise show as nothing. */
export const INVISIBLE_MARKERS = Object.freeze({
  ' ': '␣',
  '\t': '⇥',
  '\n': '↵',
  '\r': '␍',
  '\u00a0': '⍽', // no-break space
});

/** An invisible or blank character (a space, a control character, a zero-width one)? */
function invisible(ch) {
  return /^[\s\p{Cc}\p{Cf}]$/u.test(ch);
}

/**
 * A label for display, in segments: [{ text, marker }] where marker segments stand for invisible
 * characters (a space as '␣', a tab '⇥', a newline '↵', others '·') and are drawn muted. Spaces
 * between visible characters stay spaces ('hop 3', 'New York'): only leading and trailing ones
 * (a subword token's ' the'), and labels of nothing else (' '), get markers. An empty label
 * becomes one marker '∅'. Joining the texts gives displayLabel(label).
 * @returns {{ text: string, marker: boolean }[]}
 */
export function labelSegments(label) {
  const chars = Array.from(String(label));
  if (chars.length === 0) return [{ text: '∅', marker: true }];
  const first = chars.findIndex((ch) => !invisible(ch));
  const last = chars.length - 1 - [...chars].reverse().findIndex((ch) => !invisible(ch));
  const out = [];
  chars.forEach((ch, i) => {
    const inner = first >= 0 && i > first && i < last && ch === ' ';
    const marker = invisible(ch) && !inner;
    const text = marker ? (INVISIBLE_MARKERS[ch] ?? '·') : ch;
    const prev = out[out.length - 1];
    if (prev && prev.marker === marker) prev.text += text;
    else out.push({ text, marker });
  });
  return out;
}

/** The label with its invisible characters shown as markers ('␣', '⇥', '↵', '·'; '' as '∅'). */
export function displayLabel(label) {
  return labelSegments(label)
    .map((p) => p.text)
    .join('');
}

/** Segments cut to at most max characters in all (by code point), the last ending with '…'. */
export function truncateSegments(segments, max) {
  const total = segments.reduce((n, p) => n + Array.from(p.text).length, 0);
  if (total <= max) return segments;
  const out = [];
  let room = Math.max(0, max - 1);
  for (const p of segments) {
    if (room <= 0) break;
    const chars = Array.from(p.text).slice(0, room);
    room -= chars.length;
    out.push({ text: chars.join(''), marker: p.marker });
  }
  out.push({ text: '…', marker: false });
  return out;
}

/**
 * Names made unique for a table's header: a name that occurs more than once gets its occurrence,
 * 'the (1)', 'the (2)', …, skipping any that is already taken. Names are shown as displayLabel
 * does: a space token is '␣' and an empty one '∅', never a blank header; 'New York' stays.
 */
export function uniqueNames(labels) {
  const shown = Array.from(labels, (l) => displayLabel(l));
  const counts = new Map();
  for (const s of shown) counts.set(s, (counts.get(s) ?? 0) + 1);
  const taken = new Set(shown.filter((s) => counts.get(s) === 1));
  const seen = new Map();
  return shown.map((s) => {
    if (counts.get(s) === 1) return s;
    let k = seen.get(s) ?? 0;
    let name;
    do name = `${s} (${++k})`;
    while (taken.has(name));
    seen.set(s, k);
    taken.add(name);
    return name;
  });
}

/**
 * Lines of text at most maxWidth wide (measure(text) gives a width), broken at spaces, or inside
 * a word too long for a line (by code point, so Chinese text without spaces wraps too).
 * @param {string} text @param {number} maxWidth @param {(s: string) => number} measure
 * @returns {string[]}
 */
export function wrapText(text, maxWidth, measure) {
  const lines = [];
  for (const paragraph of String(text).split('\n')) {
    let line = '';
    for (const word of paragraph.split(/(?<= )/)) {
      if (measure(line + word) <= maxWidth) {
        line += word;
        continue;
      }
      if (line !== '') lines.push(line.trimEnd());
      line = '';
      for (const ch of word) {
        // a word too long for a line: split it where it overflows
        if (line !== '' && measure(line + ch) > maxWidth) {
          lines.push(line.trimEnd());
          line = '';
        }
        line += ch;
      }
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

/**
 * Where everything goes on the canvas (CSS pixels).
 *
 * rows, cols: grid shape. cellSize: fixed cell size, or null to fit availableWidth.
 * rowLabelWidth / colLabelHeight: measured extent of the longest row label and of the longest
 * column label (0: that axis has no labels). Labels never vanish: when the cells are smaller than
 * a label line, every rowStep-th / colStep-th label is drawn (labelStep). Column labels are drawn
 * rotated (their width becomes a height), or horizontal (colLabelsRotated false) unless rotated
 * ones show over 1.5 times as many: short labels, such as characters, stay upright.
 *
 * Cells are cell × cell, except that a side over LAYOUT.maxGrid is squeezed to fit it, so
 * cellWidth / cellHeight (used for drawing and hit-testing) can be smaller than cell, and
 * fractional.
 *
 * captionWidth: the width of the colour bar's caption (what the scale is: fixed 0–1, fitted to the
 * data); it goes between the bar's end values when there is room, else on a line of its own
 * (captionY: its baseline). keyWidth: the width of a key line under the legend (an overlay's
 * swatch and name; 0: none), which adds LAYOUT.keyHeight at the bottom (keyY: its top).
 *
 * Returns { cell, cellWidth, cellHeight, showLabels, rowStep, colStep, colExtent (the room one
 *           column label needs across: colStep × cellWidth >= colExtent), colLabelsRotated, gridX,
 *           gridY, gridWidth, gridHeight, legendX, legendY, legendWidth, captionX, captionY,
 *           keyY, width, height }.
 */
export function computeLayout({
  rows,
  cols,
  cellSize = null,
  availableWidth = 320,
  rowLabelWidth = 0,
  colLabelHeight = 0,
  captionWidth = 0,
  keyWidth = 0,
}) {
  const L = LAYOUT;
  const fit = (labelW) => {
    if (cellSize != null) return Math.max(1, Math.floor(cellSize));
    const room = availableWidth - 2 * L.pad - labelW;
    return Math.min(L.maxCell, Math.max(L.minCell, Math.floor(room / Math.max(1, cols))));
  };
  const squeeze = (c, n) => (n * c > L.maxGrid ? L.maxGrid / n : c);
  const showLabels = rowLabelWidth > 0 || colLabelHeight > 0;
  const cell = fit(rowLabelWidth > 0 ? rowLabelWidth + L.labelGap : 0);
  const cellWidth = squeeze(cell, cols);
  const cellHeight = squeeze(cell, rows);
  const rowStep = rowLabelWidth > 0 ? labelStep(cellHeight) : Infinity;
  const rotatedStep = labelStep(cellWidth);
  const flatStep = labelStep(cellWidth, colLabelHeight + L.labelGap);
  // Horizontal text reads better (one character sideways is hard to read): rotated only when it
  // shows clearly more labels, i.e. horizontal ones would be over 1.5 times as sparse.
  const colLabelsRotated = colLabelHeight > 0 && flatStep > 1.5 * rotatedStep;
  const colStep = colLabelHeight > 0 ? (colLabelsRotated ? rotatedStep : flatStep) : Infinity;
  const colExtent = colLabelsRotated ? L.labelLine : colLabelHeight + L.labelGap; // the room a column label needs across
  const colBand = colLabelHeight > 0 ? (colLabelsRotated ? colLabelHeight : L.labelLine) : 0;
  const gridX = L.pad + (rowLabelWidth > 0 ? rowLabelWidth + L.labelGap : 0);
  const gridY = L.pad + (colBand > 0 ? colBand + L.labelGap : 0);
  const gridWidth = cols * cellWidth;
  const gridHeight = rows * cellHeight;
  const legendWidth = Math.max(L.legendMinWidth, Math.min(gridWidth, 2 * L.legendMinWidth));
  const legendX = gridX;
  const legendY = gridY + gridHeight + L.legendGap;
  // The caption sits between the end values (about 56 px each at most) when it fits.
  const captionInline = captionWidth > 0 && captionWidth + 2 * 56 <= legendWidth;
  const captionLine = captionWidth > 0 && !captionInline ? L.legendText : 0;
  const captionX = captionInline ? legendX + legendWidth / 2 : legendX;
  const captionY = legendY + L.legendBar + L.legendText - 2 + captionLine;
  const keyY = legendY + L.legendBar + L.legendText + captionLine + 2;
  const width = Math.ceil(
    Math.max(
      gridX + gridWidth,
      legendX + legendWidth,
      captionLine ? legendX + captionWidth : 0,
      keyWidth > 0 ? legendX + keyWidth : 0,
    ) + L.pad,
  );
  const height = Math.ceil(
    legendY + L.legendBar + L.legendText + captionLine + (keyWidth > 0 ? L.keyHeight : 0) + L.pad,
  );
  return {
    cell,
    cellWidth,
    cellHeight,
    showLabels,
    rowStep,
    colStep,
    colExtent,
    colLabelsRotated,
    gridX,
    gridY,
    gridWidth,
    gridHeight,
    legendX,
    legendY,
    legendWidth,
    captionInline,
    captionX,
    captionY,
    keyY,
    width,
    height,
  };
}

/** Canvas pixels per CSS pixel for a width × height (CSS px) canvas: dpr, lowered only as far
 *  as needed to stay within what browsers allocate (16,384 a side, 2^28 pixels in all). */
export function canvasScale(width, height, dpr = 1) {
  const side = 16384 / Math.max(1, width, height);
  const area = Math.sqrt(2 ** 28 / Math.max(1, width * height));
  return Math.min(dpr > 0 ? dpr : 1, side, area);
}

/**
 * A matrix reduced to at most outRows × outCols, each output value standing for a block of
 * input cells: its largest value ('max', for a sequential map, so a lone peak stays visible) or
 * its value farthest from 0 ('absmax', for the diverging map). Non-finite values are skipped
 * unless a block has nothing else (then NaN). Returns { weights, rows, cols }; the input
 * itself when it already fits. Plain loops: no spreading of big arrays into calls.
 */
export function downsample(weights, rows, cols, outRows, outCols, pick = 'max') {
  const R = Math.max(1, Math.min(rows, outRows));
  const C = Math.max(1, Math.min(cols, outCols));
  if (R === rows && C === cols) return { weights, rows, cols };
  const out = new Float32Array(R * C);
  const abs = pick === 'absmax';
  for (let i = 0; i < R; i++) {
    const r0 = Math.floor((i * rows) / R);
    const r1 = Math.floor(((i + 1) * rows) / R);
    for (let j = 0; j < C; j++) {
      const c0 = Math.floor((j * cols) / C);
      const c1 = Math.floor(((j + 1) * cols) / C);
      let best = NaN;
      for (let r = r0; r < r1; r++) {
        for (let c = c0; c < c1; c++) {
          const v = weights[r * cols + c];
          if (!Number.isFinite(v)) continue;
          if (Number.isNaN(best) || (abs ? Math.abs(v) > Math.abs(best) : v > best)) best = v;
        }
      }
      out[i * C + j] = best;
    }
  }
  return { weights: out, rows: R, cols: C };
}

/** The { row, col } under point (x, y) in CSS pixels, or null outside the grid. */
export function cellAt(layout, rows, cols, x, y) {
  const col = Math.floor((x - layout.gridX) / (layout.cellWidth ?? layout.cell));
  const row = Math.floor((y - layout.gridY) / (layout.cellHeight ?? layout.cell));
  if (!(row >= 0 && row < rows && col >= 0 && col < cols)) return null;
  return { row, col };
}

/** Shorten text to at most max characters, ending with an ellipsis when cut. */
export function truncate(text, max) {
  const chars = Array.from(String(text)); // by code point, so emoji are not split
  return chars.length <= max ? chars.join('') : chars.slice(0, Math.max(0, max - 1)).join('') + '…';
}

/** Text for XML (SVG): escaped, and without the control characters XML 1.0 forbids. */
export function escapeXml(text) {
  return (
    String(text)
      // eslint-disable-next-line no-control-regex -- the control characters XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/**
 * A CSV field: quoted when it holds a comma, quote or line break; text that a spreadsheet
 * would run as a formula (=, +, -, @ first, after any spaces, or a leading tab or CR, and not a
 * number) gets a leading apostrophe. Every CSV the page writes builds its cells with this one
 * function (tests/js/csv-exports.test.js finds the writers and holds them to it).
 */
export function csvField(text) {
  let s = String(text);
  if (/^(\s*[=+\-@]|[\t\r])/.test(s) && !Number.isFinite(Number(s))) s = `'${s}`;
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}
