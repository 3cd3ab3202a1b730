// heatmap-export.js: the exports of <attn-heatmap> (attention-heatmap.js): the header every PNG
// and SVG carries (title, model, input, output), the PNG, the SVG, the CSV, the JSON, and the
// download of one of them (heatmap-fallback.js: what a sandboxed iframe offers instead).
//
//   const spec = heatmap.exportSpec;   // { data, label, lang, context, gold, range, table, caption, scaleMode }
//   csvOf(spec)                        // what toCSV() returns
//
// Holds: the files' formats. Deliberately holds no element state and no drawing of the map
// (heatmap-draw.js draws the canvas the PNG copies; the SVG redraws it as rects).

import {
  GOLD_STROKE,
  LAYOUT,
  csvField,
  escapeXml,
  formatFloat32,
  formatValue,
  labelIndices,
  rgbToHex,
  uniqueNames,
  valueToColor,
  wrapText,
} from '../shared/draw.js';
import { t } from '../shared/i18n.js';
import { describeCell, goldCells } from './heatmap-data.js';
import { labelParts } from './heatmap-labels.js';

/** The first header cell of the CSV's matrix (rows are the matrix's rows, columns its columns). */
const CSV_CORNER = 'row \\ column';

/** Input or output text for an export header: line breaks and tabs shown as markers. */
function displayInput(text) {
  return String(text).replace(/\t/g, '⇥').replace(/\r?\n/g, '↵');
}

/**
 * The header every PNG and SVG export carries: the title (context.title, else the label), then
 * the model, the input and the output where the context names them, wrapped to width (CSS px).
 * spec: the element's exportSpec. Returns { width, height, lines: [{ text, bold, size, y }] } (y: each line's baseline).
 */
export function exportHeader(ctx, font, minWidth, spec) {
  const c = spec.context;
  const lang = spec.lang;
  const width = Math.max(minWidth, 360);
  const room = width - 2 * LAYOUT.pad;
  const items = [{ text: c.title ?? spec.label, bold: true, size: 14 }];
  if (c.model)
    items.push({
      text: t(lang, 'heatmap.exportModel', { name: c.model }),
      bold: false,
      size: 12,
    });
  if (c.input !== undefined)
    items.push({
      text: t(lang, 'heatmap.exportInput', { text: displayInput(c.input) }),
      bold: false,
      size: 12,
    });
  if (c.output !== undefined)
    items.push({
      text: t(lang, 'heatmap.exportOutput', { text: displayInput(c.output) }),
      bold: false,
      size: 12,
    });
  const lines = [];
  let y = LAYOUT.pad;
  for (const item of items) {
    ctx.font = `${item.bold ? 'bold ' : ''}${item.size}px ${font.family}`;
    for (const text of wrapText(item.text, room, (s) => ctx.measureText(s).width)) {
      y += Math.round(item.size * 1.35);
      lines.push({
        text,
        bold: !!item.bold,
        size: item.size,
        y: y - Math.round(item.size * 0.3),
      });
    }
  }
  ctx.font = font.css;
  return { width, height: y + 6, lines };
}

/** A PNG (Promise<Blob>) of the heatmap as drawn on source (its layout and colours: grid,
 * labels, legend) at device resolution, under the export header (title, model, input, output). */
export function pngOf(source, layout, { fg, bg, font }, spec) {
  const scale = source.width / layout.width;
  const out = document.createElement('canvas');
  const ctx = out.getContext('2d');
  const header = exportHeader(ctx, font, layout.width, spec);
  const width = Math.max(header.width, layout.width);
  out.width = Math.round(width * scale);
  out.height = Math.round((header.height + layout.height) * scale);
  ctx.scale(scale, scale);
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, width, header.height + layout.height);
  ctx.fillStyle = fg;
  ctx.textBaseline = 'alphabetic';
  for (const line of header.lines) {
    ctx.font = `${line.bold ? 'bold ' : ''}${line.size}px ${font.family}`;
    ctx.fillText(line.text, LAYOUT.pad, line.y);
  }
  ctx.drawImage(source, 0, header.height, layout.width, layout.height);
  return new Promise((resolve, reject) =>
    out.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('<attn-heatmap>: the canvas is empty.'))),
      'image/png',
    ),
  );
}

/** A standalone SVG document: the export header (title, model, input, output), then one rect per
 * cell (with a <title>), the labels (as drawn: every k-th), the colour bar and its caption; ctx
 * measures the text, layout is the map's (draw.js computeLayout). */
export function svgOf(ctx, layout, { fg, bg, font }, spec) {
  const d = spec.data;
  const header = exportHeader(ctx, font, layout.width, spec);
  const width = Math.max(header.width, layout.width);
  const height = header.height + layout.height;
  const [min, max] = spec.range;
  const table = spec.table;
  const { cellWidth: cw, cellHeight: ch, gridX, gridY } = layout;
  const n = (v) => String(Math.round(v * 100) / 100);
  const parts = (label) =>
    labelParts(label)
      .map((p) =>
        p.marker ? `<tspan fill-opacity="0.5">${escapeXml(p.text)}</tspan>` : escapeXml(p.text),
      )
      .join('');
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
      `viewBox="0 0 ${width} ${height}" role="img">`,
    `<title>${escapeXml(spec.context.title ?? spec.label)}</title>`,
    '<defs><linearGradient id="attn-heatmap-legend">' +
      Array.from({ length: 17 }, (_, i) => {
        const j = Math.min(255, i * 16) * 3;
        return `<stop offset="${n(i / 16)}" stop-color="${rgbToHex([table[j], table[j + 1], table[j + 2]])}"/>`;
      }).join('') +
      '</linearGradient></defs>',
    `<rect width="${width}" height="${height}" fill="${escapeXml(bg)}"/>`,
    ...header.lines.map(
      (line) =>
        `<text class="header" x="${LAYOUT.pad}" y="${line.y}" fill="${escapeXml(fg)}" font-family="${escapeXml(font.family)}" ` +
        `font-size="${line.size}"${line.bold ? ' font-weight="bold"' : ''}>${escapeXml(line.text)}</text>`,
    ),
    // the map, as drawn on the canvas, below the header
    `<svg x="0" y="${header.height}" width="${layout.width}" height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}">`,
    '<g shape-rendering="crispEdges">',
  ];
  for (let r = 0; r < d.rows; r++) {
    for (let c = 0; c < d.cols; c++) {
      const v = d.weights[r * d.cols + c];
      out.push(
        `<rect x="${n(gridX + c * cw)}" y="${n(gridY + r * ch)}" width="${n(cw)}" height="${n(ch)}" ` +
          `fill="${rgbToHex(valueToColor(v, min, max, table))}"><title>${escapeXml(describeCell(d, spec.gold, spec.lang, r, c))}</title></rect>`,
      );
    }
  }
  out.push('</g>');
  const gold = goldCells(d, spec.gold);
  if (gold.length) {
    const outline = (x, y, w, h) =>
      [
        ['halo', 'haloWidth'],
        ['line', 'lineWidth'],
      ]
        .map(
          ([c, wd]) =>
            `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" fill="none" stroke="${GOLD_STROKE[c]}" stroke-width="${GOLD_STROKE[wd]}"/>`,
        )
        .join('');
    out.push('<g class="gold">');
    for (const [r, c] of gold)
      out.push(
        outline(
          gridX + c * cw + 1.5,
          gridY + r * ch + 1.5,
          Math.max(cw - 3, 1),
          Math.max(ch - 3, 1),
        ),
      );
    out.push(
      outline(layout.legendX + 1, layout.keyY + 3, LAYOUT.keySwatch, LAYOUT.keySwatch),
      '</g>',
    );
  }
  out.push(
    `<g fill="${escapeXml(fg)}" font-family="${escapeXml(font.family)}" font-size="${LAYOUT.fontSize}">`,
  );
  if (gold.length) {
    out.push(
      `<text x="${n(layout.legendX + LAYOUT.keySwatch + 6)}" y="${n(layout.keyY + 3 + LAYOUT.keySwatch / 2)}" dominant-baseline="middle">${escapeXml(t(spec.lang, 'heatmap.goldKey'))}</text>`,
    );
  }
  if (layout.showLabels && Number.isFinite(layout.rowStep)) {
    for (const r of labelIndices(d.rows, layout.rowStep).regular) {
      out.push(
        `<text class="row-label" x="${n(gridX - LAYOUT.labelGap)}" y="${n(gridY + (r + 0.5) * ch)}" text-anchor="end" ` +
          `dominant-baseline="middle">${parts(d.rowLabels[r])}</text>`,
      );
    }
  }
  if (layout.showLabels && Number.isFinite(layout.colStep)) {
    for (const c of labelIndices(d.cols, layout.colStep).regular) {
      const x = n(gridX + (c + 0.5) * cw);
      out.push(
        layout.colLabelsRotated
          ? `<text class="col-label" transform="translate(${x} ${n(gridY - LAYOUT.labelGap)}) rotate(-90)" dominant-baseline="middle">${parts(d.colLabels[c])}</text>`
          : `<text class="col-label" x="${x}" y="${n(gridY - LAYOUT.labelGap - LAYOUT.labelLine / 2)}" text-anchor="middle" dominant-baseline="middle">${parts(d.colLabels[c])}</text>`,
      );
    }
  }
  const textY = layout.legendY + LAYOUT.legendBar + LAYOUT.legendText - 2;
  out.push(
    `<rect x="${layout.legendX}" y="${layout.legendY}" width="${layout.legendWidth}" height="${LAYOUT.legendBar}" ` +
      'fill="url(#attn-heatmap-legend)"/>',
    `<text class="legend-min" x="${layout.legendX}" y="${n(textY)}">${escapeXml(formatValue(min))}</text>`,
    `<text class="legend-max" x="${layout.legendX + layout.legendWidth}" y="${n(textY)}" text-anchor="end">${escapeXml(formatValue(max))}</text>`,
    `<text class="legend-caption" x="${n(layout.captionX)}" y="${n(layout.captionY)}"${layout.captionInline ? ' text-anchor="middle"' : ''}>${escapeXml(spec.caption)}</text>`,
    '</g>',
    '</svg>',
    '</svg>',
  );
  return out.join('\n') + '\n';
}

/**
 * CSV (RFC 4180: CRLF, quoted where needed, every record as many fields): rows naming the title,
 * model, input and output (key, value; blank where there is none), a blank record, then the
 * matrix: a header row ('row \ column', then the column labels made unique: 'the (1)', 'the (2)';
 * spaces shown as '␣') and one row per matrix row, led by its (unique) label. A spreadsheet shows
 * it as is; pandas reads the matrix with read_csv(f, skiprows=5, index_col=0).
 */
export function csvOf(spec) {
  const d = spec.data;
  const width = d.cols + 1;
  const record = (fields) =>
    [...fields, ...Array(Math.max(0, width - fields.length)).fill('')].map(csvField).join(',');
  const c = spec.context;
  const lines = [
    record(['title', c.title ?? spec.label]),
    record(['model', c.model ?? '']),
    record(['input', c.input ?? '']),
    record(['output', c.output ?? '']),
    record([]),
    record([CSV_CORNER, ...uniqueNames(d.colLabels)]),
  ];
  const rowNames = uniqueNames(d.rowLabels);
  for (let r = 0; r < d.rows; r++) {
    const cells = [csvField(rowNames[r])];
    for (let col = 0; col < d.cols; col++) cells.push(formatFloat32(d.weights[r * d.cols + col]));
    lines.push(cells.join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

/**
 * A plain object: { label, title, model, input, output, scale, rows, cols, rowLabels, colLabels,
 * min, max, weights, gold? } with weights as a flat row-major number array (shortest decimals that
 * read back to the float32 values; NaN and infinities become null, as JSON has no such numbers);
 * model, input and output are null where the context names none. null without data.
 */
export function jsonOf(spec) {
  const d = spec.data;
  if (!d) return null;
  const [min, max] = spec.range;
  const c = spec.context;
  return {
    label: spec.label,
    title: c.title ?? spec.label,
    model: c.model ?? null,
    input: c.input ?? null,
    output: c.output ?? null,
    scale: spec.scaleMode,
    rows: d.rows,
    cols: d.cols,
    rowLabels: [...d.rowLabels],
    colLabels: [...d.colLabels],
    min,
    max,
    weights: Array.from(d.weights, (v) => (Number.isFinite(v) ? Number(formatFloat32(v)) : null)),
    ...(spec.gold
      ? { gold: spec.gold.slice(0, d.rows).map((cols) => cols.filter((c) => c < d.cols)) }
      : {}),
  };
}

/**
 * The heatmap's export of kind ('png', 'svg', 'csv', 'json') as a file: { blob, name, text }
 * (name: after its label, e.g. 'attention-weights.csv'; text: the file's text, null for the PNG).
 */
export async function exportFile(heatmap, kind) {
  let text = null;
  if (kind === 'svg') text = heatmap.toSVG();
  else if (kind === 'csv') text = heatmap.toCSV();
  else if (kind === 'json') text = JSON.stringify(heatmap.toJSON(), null, 2) + '\n';
  const type = { svg: 'image/svg+xml', csv: 'text/csv', json: 'application/json' }[kind];
  const blob = kind === 'png' ? await heatmap.toPNG() : new Blob([text], { type });
  return { blob, name: fileName(heatmap.label, kind), text };
}

/** The name of an export: its label's ASCII letters and digits, dashed ('heatmap' if none), and kind. */
export function fileName(label, kind) {
  const base =
    label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'heatmap';
  return `${base}.${kind}`;
}

/** Download the heatmap's export of kind ('png', 'svg', 'csv', 'json'), named after its label;
 * resolves to the file (exportFile's). */
export async function download(heatmap, kind) {
  const file = await exportFile(heatmap, kind);
  const a = document.createElement('a');
  a.href = URL.createObjectURL(file.blob);
  a.download = file.name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 0);
  return file;
}
