// lab-paint.js: the lab's history drawn (history → charts and maps): the controls bar (Start /
// Pause, One step, Reset, each run's step, loss, speed and last evaluation, the offer to resume,
// the runs' errors), the three charts (lab-chart.js, each redrawn only when what it shows
// changed) and the attention maps of A, B and A − B (<attn-heatmap>).
//
//   const controls = buildControls(ui), results = buildResults(ui);   // once, into the shadow root
//   writePaintLabels(ui, lang);                                        // on a language change
//   paintControls(ui, host, state);  drawCharts(ui, host, runs, lang, styleKey);
//   drawMaps(ui, runs, experiment, lang);                              // once a frame (lab-view.js)
//
// Deliberately holds no state and no workers: it reads the runs' history (lab-runs.js) and the
// experiment it is handed, and writes the DOM; the chart maths is lab-chart.js's. Text from a run
// (its output, an error) is only ever set as textContent.

import { CHART_HEIGHT, COLORS, DASH, RUNS, TOKEN_DASH, TRAIN_DASH, pct } from './lab-constants.js';
import { labWarnings, presetFacts } from './lab-checks.js';
import { durationText, warningText } from './lab-notes.js';
import { attentionDifference, drawLabChart } from './lab-chart.js';
import { t } from '../shared/i18n.js';
import { el } from '../shared/view-kit.js';

/** The controls bar's elements, into ui; returns the bar. */
export function buildControls(ui) {
  // Controls and numbers
  ui.start = el('button', { type: 'button', id: 'start', class: 'primary' });
  ui.stepBtn = el('button', { type: 'button', id: 'step' });
  ui.reset = el('button', { type: 'button', id: 'reset' });
  ui.status = el('p', { class: 'status', id: 'status', role: 'status' });
  // a preset's time to show its result (presets.js result), beside the status: where the eye is
  // when it presses Start, in the bar's free space
  ui.presetTime = el('p', { class: 'status preset-time', id: 'preset-time', hidden: '' });
  // the warnings just under the bar, where the eye is while training (lab-checks.js: a held-out
  // set too small, a run that overfits); nothing at all while none applies
  ui.warn = el('p', { class: 'warn', id: 'lab-warn', role: 'status', hidden: '' });
  ui.stat = {};
  for (const id of RUNS) ui.stat[id] = el('p', { class: `stat-${id}`, id: `stat-${id}` });
  ui.runError = el('p', { class: 'error', id: 'run-error', role: 'alert', hidden: '' });
  ui.resumeText = el('span', { id: 'resume-text' });
  ui.resumeYes = el('button', { type: 'button', id: 'resume-yes' });
  ui.resumeNo = el('button', { type: 'button', id: 'resume-no' });
  ui.resume = el('div', { class: 'buttons resume', id: 'resume', role: 'status', hidden: '' }, [
    ui.resumeText,
    ui.resumeYes,
    ui.resumeNo,
  ]);
  // The bar alone: each run's numbers (ui.stat) go to its column (lab-view.js).
  return el('div', { class: 'controls' }, [
    el('div', { class: 'buttons' }, [ui.start, ui.stepBtn, ui.reset, ui.status, ui.presetTime]),
    ui.warn,
    ui.resume,
    ui.runError,
  ]);
}

/**
 * The charts' and the maps' elements (and the log-scale box's label), into ui; returns the
 * results: the three charts and the attention row (the example, A − B). The maps of A and B,
 * ui.mapFigure.a and .b, go to their runs' columns (lab-view.js).
 */
export function buildResults(ui) {
  // Charts
  ui.chart = {};
  ui.chartCaption = {};
  ui.logScale = el('input', { type: 'checkbox', id: 'log-scale', checked: '' });
  ui.labels.logScale = el('label', { for: 'log-scale' });
  const figures = ['loss', 'accuracy', 'length'].map((name) => {
    ui.chart[name] = el('canvas', { class: 'chart', id: `chart-${name}`, role: 'img' });
    ui.chartCaption[name] = el('figcaption');
    const head =
      name === 'loss'
        ? el('div', { class: 'caption-row' }, [
            ui.chartCaption[name],
            el('div', { class: 'field check' }, [ui.logScale, ui.labels.logScale]),
          ])
        : ui.chartCaption[name];
    return el('figure', { id: `figure-${name}` }, [head, ui.chart[name]]);
  });
  ui.charts = el('div', { class: 'charts' }, figures);
  ui.chartsTitle = el('h3', { class: 'visually-hidden' });
  // Attention maps
  ui.mapsTitle = el('h3');
  ui.example = el('p', { class: 'note example' });
  ui.map = {};
  ui.mapNote = {};
  ui.mapFigure = {};
  for (const name of ['a', 'b', 'diff']) {
    const h = /** @type {any} */ (document.createElement('attn-heatmap'));
    h.id = `map-${name}`;
    if (name === 'diff') h.setAttribute('colormap', 'diverging');
    else h.setAttribute('scale', 'fixed');
    ui.map[name] = h;
    ui.mapNote[name] = el('p', { class: 'note map-note', id: `map-${name}-note` });
    ui.mapFigure[name] = el('figure', { class: `map map-${name}`, id: `figure-${name}` }, [
      ui.mapNote[name],
      h,
    ]);
  }
  const attention = el('div', { class: 'attention', id: 'attention' }, [
    el('div', { class: 'attention-text' }, [ui.mapsTitle, ui.example]),
    ui.mapFigure.diff,
  ]);
  return el('section', { class: 'results' }, [ui.chartsTitle, ui.charts, attention]);
}

/** The controls', charts' and maps' fixed text in lang. */
export function writePaintLabels(ui, lang) {
  ui.start.title = '';
  ui.stepBtn.textContent = t(lang, 'lab.oneStep');
  ui.reset.textContent = t(lang, 'lab.reset');
  ui.chartsTitle.textContent = t(lang, 'lab.charts');
  ui.mapsTitle.textContent = t(lang, 'lab.maps');
  ui.chartCaption.loss.textContent = t(lang, 'lab.chart.loss');
  ui.chartCaption.accuracy.textContent = t(lang, 'lab.chart.accuracy');
  ui.chartCaption.length.textContent = t(lang, 'lab.chart.length');
  for (const name of ['a', 'b', 'diff']) ui.map[name].setAttribute('lang', lang);
}

/**
 * Each run's numbers and the controls' state; sets host.dataset.state (and stepA, stepB).
 * s: { lang, experiment, runs: { a, b } (lab-runs.js records or null), live: the runs that exist,
 * loading ones too, running, offer: a saved record offered for resuming or null, waiting: the
 * custom task waits for its pairs }.
 */
export function paintControls(ui, host, s) {
  const { lang, experiment: exp, runs, running, offer } = s;
  const custom = exp.task.name === 'custom';
  for (const id of RUNS) {
    const r = runs[id];
    const stat = ui.stat[id];
    stat.hidden = !exp[id];
    if (!exp[id]) continue;
    const bits = [t(lang, `lab.run.${id}`)];
    if (!r) bits.push(t(lang, custom ? 'lab.state.needsPairs' : 'lab.state.loading'));
    else if (r.state === 'loading') bits.push(t(lang, 'lab.state.loading'));
    else {
      bits.push(t(lang, 'lab.stat.step', { step: r.step }));
      if (r.loss.last !== null)
        bits.push(t(lang, 'lab.stat.loss', { loss: r.loss.last.toPrecision(3) }));
      if (r.state === 'running' && r.sps > 0)
        bits.push(
          t(lang, 'lab.stat.rate', { rate: r.sps >= 10 ? r.sps.toFixed(0) : r.sps.toFixed(1) }),
        );
      if (r.eval)
        bits.push(
          t(lang, 'lab.stat.eval', {
            exact: pct(r.eval.exactMatch),
            token: pct(r.eval.tokenAccuracy),
          }),
        );
      if (r.info?.workers > 1) bits.push(t(lang, 'lab.stat.workers', { n: r.info.workers }));
    }
    stat.textContent = bits.join(lang === 'zh' ? '，' : ' · ');
    host.dataset[`step${id.toUpperCase()}`] = String(r?.step ?? 0);
  }

  // Controls and the overall state
  const live = s.live;
  const errors = live.filter((r) => r.state === 'error');
  const state = errors.length
    ? 'error'
    : s.waiting
      ? 'waiting'
      : live.length === 0 || live.some((r) => r.state === 'loading')
        ? 'loading'
        : running
          ? 'running'
          : live.some((r) => r.step > 0)
            ? 'paused'
            : 'ready';
  host.dataset.state = state;
  const canRun = live.length > 0 && live.every((r) => r.state !== 'loading');
  ui.start.textContent = t(
    lang,
    running ? 'lab.pause' : state === 'paused' ? 'lab.resume' : 'lab.start',
  );
  ui.start.disabled = !canRun;
  ui.start.setAttribute('aria-pressed', String(running));
  ui.stepBtn.disabled = !canRun || running;
  ui.reset.disabled = !canRun || !live.some((r) => r.step > 0 || r.state === 'running');
  ui.status.textContent = t(lang, `lab.status.${state}`);
  const { seconds } = presetFacts(exp);
  ui.presetTime.hidden = !seconds || state === 'error';
  ui.presetTime.textContent = ui.presetTime.hidden
    ? ''
    : t(lang, 'lab.preset.time', { time: durationText(lang, seconds) });
  const warnings = labWarnings({
    heldoutCount: live.find((r) => r.info)?.info.heldoutCount ?? null,
    runs: live.map((r) => ({ id: r.id, evals: r.evals })),
  });
  ui.warn.hidden = warnings.length === 0;
  ui.warn.dataset.kinds = warnings.map((w) => w.kind).join(' ');
  ui.warn.textContent = warnings.map((w) => warningText(lang, w)).join(' ');
  ui.resume.hidden = !offer;
  ui.resumeYes.hidden = Boolean(offer?.damaged);
  if (offer?.damaged) {
    ui.resumeText.textContent = t(lang, 'lab.saved.damaged', { problem: offer.damaged });
    ui.resumeNo.textContent = t(lang, 'lab.saved.discard');
  } else if (offer) {
    const steps = offer.runs.map((c) => c?.step ?? 0);
    ui.resumeText.textContent = t(
      lang,
      offer.runs.length > 1 ? 'lab.saved.offerAB' : 'lab.saved.offerA',
      {
        a: steps[0],
        b: steps[1] ?? 0,
        when: new Date(offer.saved ?? Date.now()).toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-GB'),
      },
    );
    ui.resumeYes.textContent = t(lang, 'lab.saved.resume');
    ui.resumeNo.textContent = t(lang, 'lab.saved.discard');
  }
  ui.runError.hidden = errors.length === 0;
  ui.runError.textContent = errors
    .map((r) => t(lang, 'lab.runError', { run: t(lang, `lab.run.${r.id}`), message: r.error }))
    .join(' ');
}

/**
 * The three charts, each redrawn only when what it shows changed (its key: the runs, their
 * loss count or evaluations, the width, the language, the scale), so a frame with only a
 * progress message repaints the loss chart alone: the page's thread stays free for painting.
 * styleKey: bumped when the colours may have changed (light/dark).
 */
export function drawCharts(ui, host, runs, lang, styleKey) {
  const dpr = window.devicePixelRatio || 1;
  const live = RUNS.map((id) => runs[id]).filter(Boolean);
  const name = (r) => t(lang, `lab.run.${r.id}`);
  const short = (r) => r.id.toUpperCase(); // the legends: 'A', 'B' (colour and dash say it too)
  let style = null; // computed once per frame, and only when a chart is redrawn
  let runColor = null; // each run's colour: --lab-a / --lab-b (the --al-a / --al-b tokens)
  const color = (id) => {
    if (!runColor) {
      const css = getComputedStyle(host);
      runColor = Object.fromEntries(
        RUNS.map((r) => [r, css.getPropertyValue(`--lab-${r}`).trim() || COLORS[r]]),
      );
    }
    return runColor[id];
  };
  const draw = (canvas, data, make) => {
    const w = Math.max(200, Math.floor(canvas.clientWidth || ui.charts.clientWidth || 320));
    const h = Math.max(120, Math.floor(canvas.clientHeight || CHART_HEIGHT)); // the CSS's height
    const key = `${w}x${h}:${dpr}:${lang}:${styleKey}:${live.map((r) => `${r.serial}`).join(',')}:${data}`;
    if (canvas.dataset.key === key) return;
    canvas.dataset.key = key;
    if (!style) {
      const css = getComputedStyle(host);
      const v = (n, fallback) => css.getPropertyValue(n).trim() || fallback;
      style = {
        colors: {
          background: v('--attn-lab-surface', v('--surface', '#ffffff')),
          text: v('--attn-lab-text', v('--text', '#1b1b1f')),
          grid: v('--attn-lab-border', v('--border', '#d6d6df')),
        },
        font: `12px ${css.fontFamily || 'system-ui, sans-serif'}`,
      };
    }
    if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
    }
    const [series, options, alt] = make();
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawLabChart(ctx, series, {
      width: w,
      height: h,
      ...style,
      empty: t(lang, 'lab.chart.empty'),
      ...options,
    });
    canvas.setAttribute('aria-label', alt);
  };
  const summary = (fn) =>
    live.map((r) => `${name(r)}: ${fn(r)}`).join('; ') || t(lang, 'lab.chart.empty');
  const log = ui.logScale.checked;
  draw(ui.chart.loss, `${log}:${live.map((r) => r.loss.length).join(',')}`, () => [
    live.map((r) => ({
      label: t(lang, 'lab.series.loss', { run: short(r) }),
      color: color(r.id),
      dash: DASH[r.id],
      points: r.loss.points,
    })),
    { log, xLabel: t(lang, 'lab.axis.step') },
    `${t(lang, 'lab.chart.loss')}. ${summary((r) => (r.loss.last === null ? '–' : t(lang, 'lab.stat.loss', { loss: r.loss.last.toPrecision(3) })))}`,
  ]);
  const evals = live.map((r) => r.evals.length).join(',');
  draw(ui.chart.accuracy, evals, () => [
    live.flatMap((r) => [
      {
        label: t(lang, 'lab.series.exact', { run: short(r) }),
        color: color(r.id),
        dash: DASH[r.id],
        points: r.exact,
        dots: true,
      },
      {
        label: t(lang, 'lab.series.token', { run: short(r) }),
        color: color(r.id),
        dash: TOKEN_DASH[r.id],
        points: r.token,
      },
      // exact match on the fixed sample of training pairs, measured the same way (engine.js)
      {
        label: t(lang, 'lab.series.train', { run: short(r) }),
        color: color(r.id),
        dash: TRAIN_DASH[r.id],
        points: r.evals.filter((e) => e.train).map((e) => [e.step, e.train.exactMatch]),
      },
    ]),
    { percent: true, xLabel: t(lang, 'lab.axis.step') },
    `${t(lang, 'lab.chart.accuracy')}. ${summary((r) => (r.eval ? t(lang, 'lab.stat.eval', { exact: pct(r.eval.exactMatch), token: pct(r.eval.tokenAccuracy) }) : '–'))}`,
  ]);
  draw(ui.chart.length, evals, () => [
    live.map((r) => ({
      label: t(lang, 'lab.series.byLength', { run: short(r) }),
      color: color(r.id),
      dash: DASH[r.id],
      dots: true,
      points: (r.eval?.byLength ?? [])
        .filter((b) => b.count > 0)
        .map((b) => [b.length, b.exactMatch]),
    })),
    { percent: true, xMin: null, xInteger: true, xLabel: t(lang, 'lab.axis.length') },
    `${t(lang, 'lab.chart.length')}. ${summary(
      (r) =>
        (r.eval?.byLength ?? [])
          .filter((b) => b.count > 0)
          .map((b) => `${b.length}: ${pct(b.exactMatch)}`)
          .join(', ') || '–',
    )}`,
  ]);
}

/**
 * A map's cell size so that it fits its figure: the figure's width, and at most the CSS custom
 * property --lab-map-grid (px) tall for its rows, so the map stays on the first screen (a long
 * output makes small cells, never a tall page). null: no limit set, the heatmap fits the width.
 */
export function fitCell(fig, d) {
  const most = parseFloat(getComputedStyle(fig).getPropertyValue('--lab-map-grid'));
  if (!(most > 0) || !d?.rows || !d?.cols) return null;
  const labels = Math.max(0, ...(d.rowLabels ?? []).map((x) => String(x).length)) * 7 + 4;
  const across = Math.floor((fig.clientWidth - 16 - labels) / d.cols);
  return Math.max(2, Math.min(40, across, Math.floor(most / d.rows)));
}

/** Set heatmap h's cell-size to fitCell's (only when it changed: a new one redraws it). */
function sizeMap(h, fig, d) {
  const cell = fitCell(fig, d);
  const want = cell === null ? null : String(cell);
  if (h.getAttribute('cell-size') === want) return;
  if (want === null) h.removeAttribute('cell-size');
  else h.setAttribute('cell-size', want);
}

/** The attention maps of A and B on the fixed example, and A − B where both have one. */
export function drawMaps(ui, runs, experiment, lang) {
  const a = runs.a;
  const b = runs.b;
  const example = a?.info?.example ?? b?.info?.example ?? null;
  ui.example.textContent = example
    ? t(lang, 'lab.example', { src: example.src, tgt: example.tgt })
    : '';
  const show = (name, r) => {
    const h = ui.map[name];
    const note = ui.mapNote[name];
    const fig = /** @type {HTMLElement} */ (h.parentElement);
    fig.hidden = !r;
    if (!r) return;
    const spec = experiment[r.id];
    const none = spec?.model?.family === 'seq2seq' && spec.model.attention === 'none';
    h.setAttribute('label', t(lang, 'lab.map', { run: t(lang, `lab.run.${r.id}`) }));
    if (none) {
      note.textContent = t(lang, 'lab.map.none', { run: t(lang, `lab.run.${r.id}`) });
      h.hidden = true;
      return;
    }
    h.hidden = false;
    const m = r.attention;
    note.textContent = m
      ? t(lang, 'lab.map.output', {
          run: t(lang, `lab.run.${r.id}`),
          step: m.step,
          output: m.output || '∅',
        })
      : t(lang, 'lab.map.waiting', { run: t(lang, `lab.run.${r.id}`) });
    if (m) sizeMap(h, fig, m);
    if (m && h.data?.weights !== m.weights) {
      h.data = {
        weights: m.weights,
        rows: m.rows,
        cols: m.cols,
        rowLabels: m.rowLabels,
        colLabels: m.colLabels,
      };
    }
  };
  show('a', a);
  show('b', b);
  const diffFig = /** @type {HTMLElement} */ (ui.map.diff.parentElement);
  const both = a?.attention && b?.attention;
  const noneIn = [a, b].filter((r) => r && experiment[r.id]?.model?.attention === 'none');
  diffFig.hidden = !a || !b || noneIn.length > 0;
  if (diffFig.hidden) return;
  ui.map.diff.setAttribute('label', t(lang, 'lab.map.diff'));
  const d = both ? attentionDifference(a.attention, b.attention) : null;
  if (!d) {
    ui.map.diff.hidden = true;
    ui.mapNote.diff.textContent = t(lang, both ? 'lab.map.diffShape' : 'lab.map.diffWaiting');
    return;
  }
  ui.map.diff.hidden = false;
  ui.mapNote.diff.textContent = t(lang, d.cut ? 'lab.map.diffCut' : 'lab.map.diffAbout', {
    rows: d.rows,
  });
  sizeMap(ui.map.diff, diffFig, d);
  const key = `${a.attention.step}:${b.attention.step}:${a.attention.weights.length}:${b.attention.weights.length}`;
  if (ui.map.diff.dataset.key !== key) {
    ui.map.diff.dataset.key = key;
    ui.map.diff.data = d;
  }
}
