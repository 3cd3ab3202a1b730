// draw.test.js: the heatmap's pure drawing maths (web/shared/draw.js), in Node.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DIVERGING,
  DIVERGING_DARK,
  LAYOUT,
  MISSING_RGB,
  VIRIDIS,
  canvasScale,
  cellAt,
  computeLayout,
  downsample,
  csvField,
  displayLabel,
  escapeXml,
  fillPixels,
  formatFloat32,
  formatValue,
  labelIndices,
  labelSegments,
  labelStep,
  resolveRange,
  rgbToHex,
  truncate,
  truncateSegments,
  uniqueNames,
  valueToColor,
  valueToUnit,
  viridis,
  wrapText,
} from '../../web/shared/draw.js';

test("viridis has 256 entries with matplotlib's endpoints and midpoint", () => {
  assert.equal(VIRIDIS.length, 256 * 3);
  assert.deepEqual(viridis(0), [0x44, 0x01, 0x54]); // #440154
  assert.deepEqual(viridis(1), [0xfd, 0xe7, 0x25]); // #fde725
  assert.deepEqual(viridis(0.5), [0x21, 0x91, 0x8c]); // #21918c
  assert.equal(rgbToHex(viridis(0)), '#440154');
  assert.equal(rgbToHex(viridis(1)), '#fde725');
});

test('viridis clamps t outside [0, 1] and greys out NaN', () => {
  assert.deepEqual(viridis(-3), viridis(0));
  assert.deepEqual(viridis(42), viridis(1));
  assert.deepEqual(viridis(-Infinity), viridis(0));
  assert.deepEqual(viridis(NaN), [...MISSING_RGB]);
});

// Viridis is monotonic in lightness; rounding to 8 bits leaves a few neighbours a hair darker
// (entry 95 is 0.0002 below entry 94), so single steps may dip by a quantisation step, and
// every 8-entry stride must strictly increase.
test('viridis gets lighter monotonically (up to 8-bit rounding)', () => {
  const lin = (c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const y = Array.from(
    { length: 256 },
    (_, i) =>
      0.2126 * lin(VIRIDIS[3 * i]) +
      0.7152 * lin(VIRIDIS[3 * i + 1]) +
      0.0722 * lin(VIRIDIS[3 * i + 2]),
  );
  for (let i = 1; i < 256; i++)
    assert.ok(y[i] >= y[i - 1] - 1e-3, `luminance drops at entry ${i}: ${y[i - 1]} -> ${y[i]}`);
  for (let i = 8; i < 256; i++)
    assert.ok(y[i] > y[i - 8], `luminance flat from entry ${i - 8} to ${i}`);
});

test('valueToUnit maps [min, max] to [0, 1] and clamps', () => {
  assert.equal(valueToUnit(0, 0, 1), 0);
  assert.equal(valueToUnit(1, 0, 1), 1);
  assert.equal(valueToUnit(0.25, 0, 1), 0.25);
  assert.equal(valueToUnit(5, 0, 10), 0.5);
  assert.equal(valueToUnit(-1, 0, 1), 0);
  assert.equal(valueToUnit(2, 0, 1), 1);
  assert.equal(valueToUnit(-7, -8, -6), 0.5);
});

test('valueToUnit: non-finite values give NaN, an empty range gives the midpoint', () => {
  assert.ok(Number.isNaN(valueToUnit(NaN, 0, 1)));
  assert.ok(Number.isNaN(valueToUnit(Infinity, 0, 1)));
  assert.ok(Number.isNaN(valueToUnit(-Infinity, 0, 1)));
  assert.equal(valueToUnit(3, 3, 3), 0.5);
  assert.equal(valueToUnit(3, 4, 2), 0.5);
});

test('valueToColor clamps to the colour map ends', () => {
  assert.deepEqual(valueToColor(-100, 0, 1), viridis(0));
  assert.deepEqual(valueToColor(100, 0, 1), viridis(1));
  assert.deepEqual(valueToColor(0.5, 0, 1), viridis(0.5));
  assert.deepEqual(valueToColor(NaN, 0, 1), [...MISSING_RGB]);
});

test('fillPixels writes opaque rgba per value, row-major', () => {
  const rgba = fillPixels(new Float32Array([0, 1, NaN, 0.5]), 0, 1, new Uint8ClampedArray(16));
  assert.deepEqual([...rgba.subarray(0, 4)], [...viridis(0), 255]);
  assert.deepEqual([...rgba.subarray(4, 8)], [...viridis(1), 255]);
  assert.deepEqual([...rgba.subarray(8, 12)], [...MISSING_RGB, 255]);
  assert.deepEqual([...rgba.subarray(12, 16)], [...viridis(0.5), 255]);
});

test('resolveRange: explicit ends win, missing ends come from finite data', () => {
  const w = new Float32Array([0.5, NaN, -2, Infinity, 3]);
  assert.deepEqual(resolveRange(w), [-2, 3]);
  assert.deepEqual(resolveRange(w, 0, null), [0, 3]);
  assert.deepEqual(resolveRange(w, null, 1), [-2, 1]);
  assert.deepEqual(resolveRange(w, 0, 1), [0, 1]);
  assert.deepEqual(resolveRange(w, 1, 0), [0, 1]); // reversed: swapped
  assert.deepEqual(resolveRange(new Float32Array([NaN, NaN])), [0, 1]);
  assert.deepEqual(resolveRange(new Float32Array(0)), [0, 1]);
  assert.deepEqual(resolveRange(new Float32Array([0.25]), NaN, null), [0.25, 0.25]);
});

test('formatValue: 4 significant digits, no trailing zeros', () => {
  assert.equal(formatValue(0), '0');
  assert.equal(formatValue(1), '1');
  assert.equal(formatValue(0.123456), '0.1235');
  assert.equal(formatValue(0.000123456), '0.0001235');
  assert.equal(formatValue(-2.5), '-2.5');
  assert.equal(formatValue(1.23456e-9), '1.235e-9');
  assert.equal(formatValue(NaN), 'NaN');
  assert.equal(formatValue(Infinity), '∞');
});

test('formatFloat32 gives the shortest decimal that reads back to the same float32', () => {
  assert.equal(formatFloat32(Math.fround(0.1)), '0.1');
  assert.equal(formatFloat32(1), '1');
  assert.equal(formatFloat32(0), '0');
  const values = new Float32Array(1000);
  let x = 12345;
  for (let i = 0; i < values.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    values[i] = (x / 2 ** 32 - 0.5) * 10 ** ((i % 13) - 6);
  }
  for (const v of values) {
    const s = formatFloat32(v);
    assert.equal(Math.fround(Number(s)), v, `${s} does not read back to ${v}`);
    assert.ok(s.replace(/^-|e.*$|\./g, '').replace(/^0+/, '').length <= 9, s);
  }
});

test('computeLayout fits cells to the width, capped at maxCell, with labels', () => {
  const L = LAYOUT;
  const layout = computeLayout({
    rows: 8,
    cols: 8,
    availableWidth: 400,
    rowLabelWidth: 20,
    colLabelHeight: 20,
  });
  assert.equal(layout.cell, L.maxCell); // (400 - 16 - 24) / 8 = 45, capped
  assert.equal(layout.showLabels, true);
  assert.deepEqual([layout.rowStep, layout.colStep], [1, 1]);
  // 20 px labels fit across 40 px cells: column labels horizontal, one text line high
  assert.equal(layout.colLabelsRotated, false);
  assert.equal(layout.gridX, L.pad + 20 + L.labelGap);
  assert.equal(layout.gridY, L.pad + L.labelLine + L.labelGap);
  assert.equal(layout.gridWidth, 8 * L.maxCell);
  assert.equal(layout.gridHeight, 8 * L.maxCell);
  assert.equal(layout.legendY, layout.gridY + layout.gridHeight + L.legendGap);
  assert.equal(layout.width, layout.gridX + layout.gridWidth + L.pad);
  assert.equal(layout.height, layout.legendY + L.legendBar + L.legendText + L.pad);
});

test('computeLayout keeps labels when cells get small: every k-th, k from the cell size', () => {
  const L = LAYOUT;
  const layout = computeLayout({
    rows: 64,
    cols: 64,
    availableWidth: 320,
    rowLabelWidth: 30,
    colLabelHeight: 30,
  });
  assert.equal(layout.showLabels, true);
  assert.equal(layout.gridX, L.pad + 30 + L.labelGap);
  assert.equal(layout.gridY, L.pad + 30 + L.labelGap); // rotated: the widest label is the band's height
  assert.equal(layout.colLabelsRotated, true);
  assert.equal(layout.cell, Math.floor((320 - 2 * L.pad - 30 - L.labelGap) / 64));
  assert.equal(layout.rowStep, Math.ceil(L.labelLine / layout.cell));
  assert.equal(layout.colStep, Math.ceil(L.labelLine / layout.cell));
  assert.ok(layout.rowStep * layout.cellHeight >= L.labelLine, 'drawn row labels are a line apart');
  assert.ok((layout.rowStep - 1) * layout.cellHeight < L.labelLine, 'and no sparser than needed');
  assert.ok(layout.width <= 320);
  // one-character labels in 9 px cells: horizontal labels show as many as rotated ones
  const chars = computeLayout({
    rows: 4,
    cols: 30,
    cellSize: 9,
    rowLabelWidth: 7,
    colLabelHeight: 7,
  });
  assert.equal(chars.colLabelsRotated, false);
  assert.equal(chars.colStep, labelStep(9, 7 + L.labelGap));
  assert.equal(chars.colStep, 2);
  // in 7 px cells, 11 px wide characters: every 3rd upright beats every 2nd sideways
  const phone = computeLayout({
    rows: 4,
    cols: 30,
    cellSize: 7,
    rowLabelWidth: 11,
    colLabelHeight: 11,
  });
  assert.deepEqual([phone.colLabelsRotated, phone.colStep], [false, 3]);
  // words in 7 px cells: rotated (every 2nd) instead of every 9th upright
  const words = computeLayout({
    rows: 4,
    cols: 30,
    cellSize: 7,
    rowLabelWidth: 50,
    colLabelHeight: 50,
  });
  assert.deepEqual([words.colLabelsRotated, words.colStep], [true, 2]);
});

test('labelStep: the smallest k with k × cell >= the room a label needs', () => {
  assert.equal(labelStep(12, 12), 1);
  assert.equal(labelStep(11, 12), 2);
  assert.equal(labelStep(6, 12), 2);
  assert.equal(labelStep(5.9, 12), 3);
  assert.equal(labelStep(2), Math.ceil(LAYOUT.labelLine / 2));
  assert.equal(labelStep(0), Infinity);
  for (const cell of [0.04, 0.5, 1, 2.5, 3, 7, 11.9, 40]) {
    const k = labelStep(cell);
    assert.ok(
      k * cell >= LAYOUT.labelLine - 1e-9 && (k === 1 || (k - 1) * cell < LAYOUT.labelLine),
      `cell ${cell}: k ${k}`,
    );
  }
});

test('labelIndices: every step-th label, the pinned ones always, nothing within step of a pin', () => {
  assert.deepEqual(labelIndices(10, 3), { regular: [0, 3, 6, 9], pinned: [] });
  assert.deepEqual(labelIndices(10, 3, [4]), { regular: [0, 9], pinned: [4] }); // 3 and 6 give way
  assert.deepEqual(labelIndices(10, 1, [4, 4]), {
    regular: [0, 1, 2, 3, 5, 6, 7, 8, 9],
    pinned: [4],
  });
  assert.deepEqual(
    labelIndices(10, 3, [4, 5]).pinned,
    [4],
    'two close pins: the first (hovered) wins',
  );
  assert.deepEqual(labelIndices(10, 3, [1, 8]), { regular: [], pinned: [1, 8] }); // 0, 3, 6, 9 are all within 3 of a pin
  assert.deepEqual(labelIndices(5, 2, [-1, 7, 1.5]), { regular: [0, 2, 4], pinned: [] });
  // no two drawn labels are closer than step
  for (const [n, step, pins] of [
    [50, 4, [7]],
    [50, 5, [0, 49]],
    [33, 2, [16, 17]],
  ]) {
    const { regular, pinned } = labelIndices(n, step, pins);
    const all = [...regular, ...pinned].sort((a, b) => a - b);
    for (let i = 1; i < all.length; i++)
      assert.ok(all[i] - all[i - 1] >= step, `${n}/${step}/${pins}: ${all}`);
    for (const p of pins)
      assert.ok(pinned.includes(p) || pinned.some((q) => Math.abs(q - p) < step));
  }
});

test('labels show spaces and other invisible characters as markers', () => {
  assert.equal(displayLabel(' '), '␣');
  assert.equal(displayLabel('\t'), '⇥');
  assert.equal(displayLabel('\n'), '↵');
  assert.equal(displayLabel('\u200b'), '·');
  assert.equal(displayLabel(''), '∅');
  assert.equal(displayLabel('New York'), 'New York', 'spaces between characters stay spaces');
  assert.equal(displayLabel('hop 3'), 'hop 3');
  assert.equal(displayLabel(' the '), '␣the␣', 'leading and trailing ones get markers');
  assert.equal(displayLabel('a\tb'), 'a⇥b', 'a tab anywhere does');
  assert.equal(displayLabel('  '), '␣␣');
  assert.equal(displayLabel('猫'), '猫');
  assert.deepEqual(labelSegments(' the'), [
    { text: '␣', marker: true },
    { text: 'the', marker: false },
  ]);
  assert.deepEqual(labelSegments('a  b'), [{ text: 'a  b', marker: false }]);
  assert.deepEqual(labelSegments('\nab\n'), [
    { text: '↵', marker: true },
    { text: 'ab', marker: false },
    { text: '↵', marker: true },
  ]);
  assert.deepEqual(truncateSegments(labelSegments('  abcdef'), 5), [
    { text: '␣␣', marker: true },
    { text: 'ab', marker: false },
    { text: '…', marker: false },
  ]);
  assert.deepEqual(truncateSegments(labelSegments('ab'), 5), labelSegments('ab'));
});

test('uniqueNames: duplicates numbered by occurrence, blanks and spaces visible, never a clash', () => {
  assert.deepEqual(uniqueNames(['the', 'cat', 'the', 'mat']), ['the (1)', 'cat', 'the (2)', 'mat']);
  assert.deepEqual(uniqueNames([' ', 'a', ' ']), ['␣ (1)', 'a', '␣ (2)']);
  assert.deepEqual(uniqueNames(['', 'x']), ['∅', 'x']);
  assert.deepEqual(uniqueNames(['a', 'a (1)', 'a']), ['a (2)', 'a (1)', 'a (3)']);
  assert.deepEqual(uniqueNames(['New York', ' the']), ['New York', '␣the']);
  const names = uniqueNames(Array.from('the cat sat on the mat'));
  assert.equal(new Set(names).size, names.length);
});

test('wrapText breaks at spaces, and inside words (or Chinese) too long for a line', () => {
  const measure = (s) => s.length * 10; // 10 px a character
  assert.deepEqual(wrapText('the cat sat on the mat', 80, measure), [
    'the cat',
    'sat on',
    'the mat',
  ]);
  assert.deepEqual(wrapText('abcdefghij', 40, measure), ['abcd', 'efgh', 'ij']);
  assert.deepEqual(wrapText('输入：今天天气很好', 40, measure), ['输入：今', '天天气很', '好']);
  assert.deepEqual(wrapText('short', 400, measure), ['short']);
  for (const line of wrapText('x'.repeat(33) + ' yy zz', 50, measure))
    assert.ok(measure(line) <= 50, line);
});

test('computeLayout: a key line under the legend (the gold outline) adds its height and widens to fit', () => {
  const L = LAYOUT;
  const plain = computeLayout({ rows: 3, cols: 3, cellSize: 20 });
  const keyed = computeLayout({ rows: 3, cols: 3, cellSize: 20, keyWidth: 300 });
  assert.equal(keyed.height, plain.height + L.keyHeight);
  assert.equal(keyed.keyY, keyed.legendY + L.legendBar + L.legendText + 2);
  assert.equal(keyed.width, Math.ceil(keyed.legendX + 300 + L.pad), 'as wide as the key');
  assert.equal(
    computeLayout({ rows: 3, cols: 3, cellSize: 20, keyWidth: 10 }).width,
    plain.width,
    'a short key: no wider',
  );
});

test('computeLayout never goes below minCell, and honours a fixed cell size', () => {
  const tiny = computeLayout({ rows: 4, cols: 1000, availableWidth: 320 });
  assert.equal(tiny.cell, LAYOUT.minCell);
  assert.ok(tiny.width > 320); // wider than the room: the element scrolls
  const fixed = computeLayout({
    rows: 3,
    cols: 5,
    cellSize: 17,
    availableWidth: 50,
    rowLabelWidth: 10,
    colLabelHeight: 10,
  });
  assert.equal(fixed.cell, 17);
  assert.equal(fixed.showLabels, true);
  const small = computeLayout({
    rows: 3,
    cols: 5,
    cellSize: 6,
    availableWidth: 50,
    rowLabelWidth: 10,
    colLabelHeight: 10,
  });
  assert.equal(small.cell, 6);
  assert.equal(small.showLabels, true); // every other label
  assert.equal(small.rowStep, labelStep(6));
  assert.equal(small.colStep, labelStep(6, small.colExtent)); // 10 px labels upright: every 3rd
  assert.equal(small.colLabelsRotated, false);
});

test('computeLayout squeezes a side longer than maxGrid into sub-pixel cells, labels thinned to match', () => {
  const wide = computeLayout({
    rows: 1,
    cols: 100_000,
    availableWidth: 320,
    rowLabelWidth: 30,
    colLabelHeight: 30,
  });
  assert.equal(wide.cellWidth, LAYOUT.maxGrid / 100_000);
  assert.equal(wide.cellHeight, LAYOUT.minCell);
  assert.equal(wide.gridWidth, LAYOUT.maxGrid);
  assert.equal(wide.colStep, labelStep(wide.cellWidth));
  assert.ok(
    100_000 / wide.colStep < LAYOUT.maxGrid / LAYOUT.labelLine + 1,
    'no more labels than fit',
  );
  const tall = computeLayout({
    rows: 100_000,
    cols: 1,
    availableWidth: 320,
    rowLabelWidth: 30,
    colLabelHeight: 30,
  });
  assert.equal(tall.cellWidth, LAYOUT.maxCell);
  assert.equal(tall.cellHeight, LAYOUT.maxGrid / 100_000);
  assert.equal(tall.gridHeight, LAYOUT.maxGrid);
  assert.equal(tall.rowStep, labelStep(tall.cellHeight));
  assert.ok(tall.height < LAYOUT.maxGrid + 100);
  // Within the limit nothing changes: square cells.
  const fits = computeLayout({ rows: 4, cols: 1000, availableWidth: 320 });
  assert.deepEqual([fits.cellWidth, fits.cellHeight], [fits.cell, fits.cell]);
  assert.deepEqual(cellAt(wide, 1, 100_000, wide.gridX + LAYOUT.maxGrid - 0.01, wide.gridY + 1), {
    row: 0,
    col: 99_999,
  });
});

test('canvasScale keeps a canvas within the sizes browsers allocate', () => {
  assert.equal(canvasScale(800, 600, 2), 2);
  assert.equal(canvasScale(800, 600, 0), 1);
  assert.equal(canvasScale(8192 + 100, 100, 2), 16384 / 8292);
  const s = canvasScale(8300, 8300, 2);
  assert.ok(8300 * s <= 16384 && (8300 * s) ** 2 <= 2 ** 28, String(s));
});

test("downsample keeps each block's peak (max, or farthest from 0) and skips non-finite values", () => {
  const w = new Float32Array([0, 0.9, 0, 0, 0.1, 0.2, NaN, NaN]);
  assert.deepEqual(downsample(w, 1, 8, 1, 4), {
    weights: new Float32Array([0.9, 0, 0.2, NaN]),
    rows: 1,
    cols: 4,
  });
  const d = downsample(new Float32Array([0.5, -0.7, 0.2, 0.1]), 4, 1, 2, 4, 'absmax');
  assert.deepEqual(
    [...d.weights].map((v) => Math.round(v * 10) / 10),
    [-0.7, 0.2],
  );
  assert.deepEqual([d.rows, d.cols], [2, 1]);
  assert.equal(downsample(w, 2, 4, 8, 8).weights, w); // already fits: the same array
  const big = downsample(new Float32Array(250_000).fill(0.25), 1, 250_000, 1, 8192);
  assert.equal(big.cols, 8192);
  assert.ok(big.weights.every((v) => v === 0.25));
});

test('computeLayout: the legend keeps a minimum width even for one column', () => {
  const layout = computeLayout({ rows: 1, cols: 1, availableWidth: 1000 });
  assert.equal(layout.legendWidth, LAYOUT.legendMinWidth);
  assert.ok(layout.width >= layout.legendX + layout.legendWidth);
});

test('cellAt hit-tests the grid and returns null outside it', () => {
  const layout = computeLayout({
    rows: 3,
    cols: 4,
    cellSize: 10,
    rowLabelWidth: 0,
    colLabelHeight: 0,
  });
  const { gridX: x0, gridY: y0 } = layout;
  assert.deepEqual(cellAt(layout, 3, 4, x0, y0), { row: 0, col: 0 });
  assert.deepEqual(cellAt(layout, 3, 4, x0 + 39.9, y0 + 29.9), { row: 2, col: 3 });
  assert.deepEqual(cellAt(layout, 3, 4, x0 + 15, y0 + 25), { row: 2, col: 1 });
  assert.equal(cellAt(layout, 3, 4, x0 - 0.1, y0), null);
  assert.equal(cellAt(layout, 3, 4, x0 + 40, y0), null);
  assert.equal(cellAt(layout, 3, 4, x0, y0 + 30), null);
  assert.equal(cellAt(layout, 3, 4, NaN, NaN), null);
});

test('truncate cuts by code point and marks the cut', () => {
  assert.equal(truncate('short', 12), 'short');
  assert.equal(truncate('abcdefghijklmnop', 5), 'abcd…');
  assert.equal(truncate('😀😀😀😀', 3), '😀😀…');
  assert.equal(truncate(42, 5), '42');
});

test('escapeXml escapes markup and drops characters XML 1.0 forbids', () => {
  assert.equal(
    escapeXml('<img src=x onerror="alert(1)">'),
    '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;',
  );
  assert.equal(escapeXml("a & b's"), 'a &amp; b&apos;s');
  assert.equal(escapeXml('bell\u0007\ttab'), 'bell\ttab');
});

test('csvField quotes separators and defuses spreadsheet formulas', () => {
  assert.equal(csvField('q0'), 'q0');
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('two\nlines'), '"two\nlines"');
  assert.equal(csvField('=HYPERLINK("x")'), '"\'=HYPERLINK(""x"")"');
  assert.equal(csvField('@cmd'), "'@cmd");
  assert.equal(csvField('-1'), '-1'); // a number stays a number
  assert.equal(csvField(' padded'), '" padded"');
});

// The diverging map and its twin for a dark background (heatmap-draw.js picks it when the
// element's background is dark): the light one is near-white at 0 and darker with |value|, the
// dark one dark at 0 and brighter with |value|, with the same hues (blue below 0, red above).
test('DIVERGING_DARK: dark at 0, brighter with |value|, the hues of DIVERGING', () => {
  const rgb = (t, i) => [t[3 * i], t[3 * i + 1], t[3 * i + 2]];
  const lum = ([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b; // relative, 0..255
  const mid = 128;
  assert.ok(lum(rgb(DIVERGING, mid)) > 230, 'light map: near-white at 0');
  assert.ok(lum(rgb(DIVERGING_DARK, mid)) < 45, 'dark map: dark at 0');
  for (const side of [-1, 1]) {
    let last = lum(rgb(DIVERGING_DARK, mid));
    for (let k = 8; k <= 127; k += 8) {
      const l = lum(rgb(DIVERGING_DARK, mid + side * k));
      assert.ok(l >= last - 1e-9, `dark map brightens away from 0 (${side * k})`);
      last = l;
    }
  }
  const [lowR, , lowB] = rgb(DIVERGING_DARK, 10);
  const [highR, , highB] = rgb(DIVERGING_DARK, 245);
  assert.ok(lowB > lowR && highR > highB, 'blue below 0, red above, as the light map');
});
