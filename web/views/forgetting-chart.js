// forgetting-chart.js: the Forgetting view's length curve as SVG (forgetting-view.js): the chart
// on screen (text in currentColor and lines in the --al-a / --al-b tokens, so it follows light and
// dark without a redraw; the cursor's length marked) and
// a standalone copy for a slide (concrete colours on white, a title and a legend).
//
//   node.replaceChildren(chartSvg(curve, cursor, 'en', inputLength));   // an <svg> element
//   const text = standaloneChart(curve, cursor, 'en', inputLength);     // an SVG document
//
// Holds: the chart's geometry, line styles and SVG. Deliberately holds no view state and no
// checks of the curve (forgetting-data.js checkCurve).

import { t } from '../shared/i18n.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const CHART = Object.freeze({ width: 640, height: 340, left: 56, right: 16, top: 14, bottom: 46 });
/** The lines, attention first: on screen the design tokens --al-a and --al-b (docs/design.md), so
 * they follow light and dark; `color`, the tokens' light values, for the slide's copy on white;
 * dashes, so they are told apart without colour too. */
export const LINES = Object.freeze([
  Object.freeze({ token: '--al-a', color: '#2563eb', dash: '' }),
  Object.freeze({ token: '--al-b', color: '#d9480f', dash: '6 4' }),
]);
const OTHER_LINE = Object.freeze({ token: '--al-muted', color: '#5a5d6e', dash: '' });

/** Line i's style: { token, color, dash, css } (css: the token with its light value as fallback). */
export function lineStyle(i) {
  const s = LINES[i] ?? OTHER_LINE;
  return { ...s, css: `var(${s.token}, ${s.color})` };
}

/** An SVG element with attributes (and text). */
export function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

/** A line's kind in lang: with or without attention. */
export function kindName(lang, attention) {
  return t(lang, attention === 'none' ? 'forgetting.without' : 'forgetting.with');
}

/** The chart as an <svg> element (text in currentColor, so it follows light and dark). */
export function chartSvg(c, cursor, lang, inputLength) {
  const { width: W, height: H, left: L, right: R, top: T, bottom: B } = CHART;
  const x0 = c.lengths[0];
  const x1 = c.lengths.at(-1);
  const px = (x) => L + ((x - x0) / (x1 - x0)) * (W - L - R);
  const py = (y) => T + (1 - y) * (H - T - B);
  const f = (v) => v.toFixed(1);
  const root = svg('svg', {
    xmlns: SVG_NS,
    viewBox: `0 0 ${W} ${H}`,
    width: W,
    height: H,
    'font-family': 'system-ui, sans-serif',
    'font-size': 12,
    fill: 'currentColor',
  });
  root.append(svg('title', {}, t(lang, 'forgetting.curveTitle')));
  root.append(svg('rect', { class: 'bg', width: W, height: H, fill: 'none' }));
  for (let i = 0; i <= 5; i++) {
    const y = f(py(i / 5));
    root.append(
      svg('line', {
        x1: L,
        x2: W - R,
        y1: y,
        y2: y,
        stroke: 'currentColor',
        'stroke-opacity': 0.15,
      }),
    );
    root.append(svg('text', { x: L - 6, y, dy: 4, 'text-anchor': 'end' }, `${20 * i}%`));
  }
  const step = x1 - x0 > 20 ? 10 : x1 - x0 > 8 ? 2 : 1;
  for (let x = Math.ceil(x0 / step) * step; x <= x1; x += step) {
    root.append(
      svg('line', {
        x1: f(px(x)),
        x2: f(px(x)),
        y1: f(py(0)),
        y2: f(py(0) + 5),
        stroke: 'currentColor',
      }),
    );
    root.append(svg('text', { x: f(px(x)), y: f(py(0) + 18), 'text-anchor': 'middle' }, String(x)));
  }
  root.append(
    svg('line', { x1: L, x2: W - R, y1: f(py(0)), y2: f(py(0)), stroke: 'currentColor' }),
  );
  root.append(svg('line', { x1: L, x2: L, y1: f(py(0)), y2: f(py(1)), stroke: 'currentColor' }));
  root.append(
    svg(
      'text',
      { x: (L + W - R) / 2, y: H - 8, 'text-anchor': 'middle' },
      t(lang, 'forgetting.xAxis'),
    ),
  );
  root.append(
    svg(
      'text',
      { transform: `translate(14 ${(T + H - B) / 2}) rotate(-90)`, 'text-anchor': 'middle' },
      t(lang, 'forgetting.yAxis'),
    ),
  );
  if (c.symbols) {
    const y = f(py(1 / c.symbols));
    root.append(
      svg('line', {
        class: 'chance',
        x1: L,
        x2: W - R,
        y1: y,
        y2: y,
        stroke: 'currentColor',
        'stroke-opacity': 0.6,
        'stroke-dasharray': '2 3',
      }),
    );
    root.append(
      svg(
        'text',
        { x: W - R - 4, y: f(py(1 / c.symbols) - 5), 'text-anchor': 'end', 'fill-opacity': 0.75 },
        t(lang, 'forgetting.chance', { n: c.symbols }),
      ),
    );
  }
  if (inputLength >= x0 && inputLength <= x1) {
    const x = f(px(inputLength));
    root.append(
      svg('line', {
        class: 'yours',
        x1: x,
        x2: x,
        y1: f(py(0)),
        y2: f(py(1)),
        stroke: 'currentColor',
        'stroke-opacity': 0.5,
        'stroke-dasharray': '1 3',
      }),
    );
    root.append(
      svg(
        'text',
        { x, y: f(py(1) + 10), 'text-anchor': 'middle', 'font-size': 10, 'fill-opacity': 0.75 },
        t(lang, 'forgetting.yours'),
      ),
    );
  }
  c.models.forEach((m, i) => {
    const style = lineStyle(i);
    const points = c.lengths.map((x, j) => `${f(px(x))},${f(py(m.tokenAccuracy[j]))}`).join(' ');
    const attrs = {
      class: 'curve',
      'data-model': m.name,
      points,
      fill: 'none',
      stroke: style.color, // the slide's copy keeps this; on screen the style's token wins
      style: `stroke: ${style.css}`,
      'stroke-width': 2.5,
    };
    if (style.dash) attrs['stroke-dasharray'] = style.dash;
    root.append(svg('polyline', attrs));
  });
  // The cursor: a vertical line at the chosen length and a dot on each line.
  const j = cursor;
  const cx = f(px(c.lengths[j]));
  root.append(
    svg('line', {
      class: 'cursor',
      x1: cx,
      x2: cx,
      y1: f(py(0)),
      y2: f(py(1)),
      stroke: 'currentColor',
      'stroke-width': 1,
    }),
  );
  c.models.forEach((m, i) => {
    root.append(
      svg('circle', {
        class: 'cursor-dot',
        cx,
        cy: f(py(m.tokenAccuracy[j])),
        r: 4,
        fill: lineStyle(i).color,
        style: `fill: ${lineStyle(i).css}`,
        stroke: 'currentColor',
      }),
    );
  });
  return root;
}

/**
 * A standalone copy of the chart for a slide: concrete colours on white, a title above it (what
 * is plotted) and a legend below (each line's style, kind, model and size), the on-screen title
 * and legend being HTML outside the chart's <svg>.
 */
export function standaloneChart(c, cursor, lang, inputLength) {
  const { width: W, height: H } = CHART;
  const chart = chartSvg(c, cursor, lang, inputLength);
  chart.querySelector('rect.bg').setAttribute('fill', '#ffffff');
  // concrete colours: a slide knows no tokens
  for (const node of chart.querySelectorAll('.curve, .cursor-dot')) node.removeAttribute('style');
  chart.setAttribute('x', '0');
  const titleH = 30;
  const legendRow = 20;
  const legendH = 12 + legendRow * c.models.length;
  chart.setAttribute('y', String(titleH));
  const root = svg('svg', {
    xmlns: SVG_NS,
    viewBox: `0 0 ${W} ${titleH + H + legendH}`,
    width: W,
    height: titleH + H + legendH,
    'font-family': 'system-ui, sans-serif',
    'font-size': 12,
    fill: '#1b1b1f',
    color: '#1b1b1f',
    style: 'color: #1b1b1f',
  });
  root.append(svg('title', {}, t(lang, 'forgetting.curveTitle')));
  root.append(svg('rect', { width: W, height: titleH + H + legendH, fill: '#ffffff' }));
  root.append(
    svg(
      'text',
      { class: 'chart-title', x: CHART.left, y: 20, 'font-size': 15, 'font-weight': 'bold' },
      t(lang, 'forgetting.curveTitle'),
    ),
  );
  root.append(chart);
  const legend = svg('g', { class: 'chart-legend' });
  c.models.forEach((m, i) => {
    const style = lineStyle(i);
    const y = titleH + H + 8 + legendRow * i + legendRow / 2;
    const line = {
      x1: CHART.left,
      x2: CHART.left + 28,
      y1: y,
      y2: y,
      stroke: style.color,
      'stroke-width': 2.5,
    };
    if (style.dash) line['stroke-dasharray'] = style.dash;
    legend.append(svg('line', line));
    legend.append(
      svg(
        'text',
        { x: CHART.left + 36, y, dy: 4 },
        t(lang, 'forgetting.lineName', {
          kind: kindName(lang, m.attention),
          name: m.name,
          params: m.parameters?.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-US') ?? '?',
        }),
      ),
    );
  });
  root.append(legend);
  return `${new XMLSerializer().serializeToString(root)}\n`;
}
