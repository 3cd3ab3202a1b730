// lab-form.js: the lab's form (experiment ⇄ controls): the presets, the task and its custom
// pairs box, the two runs' model and training settings; built once, written from an experiment
// (values, options, labels in the language), read back into an experiment for spec.js to check,
// and its notes drawn (what the task is, what was refused, each run's parameter count and the
// equation of its attention, the pairs' problem or summary).
//
//   const { top, columns } = buildForm(ui);           // once: the top, A's and B's columns
//   writeForm(ui, experiment, lang);                   // the experiment shown
//   const wanted = readForm(ui, experiment);           // a change: what the form now says
//   paintForm(ui, state);                              // once a frame (lab-view.js)
//
// Deliberately holds no state, no workers and no checking: lab-view.js keeps the experiment and
// hands what the form says to spec.js checkExperiment. Text from the URL, a file or a model is
// only ever set as textContent; the one HTML it inserts, an attention equation from spec.js, is
// rebuilt element by element from a fixed list of tags (var, sub, sup, i, em, b, span),
// attributes dropped.

import {
  DEFAULT_EXPERIMENT,
  PRESETS,
  TASK_NAMES,
  ATTENTIONS,
  attentionEquation,
  parameterCount,
} from './spec.js';
import { TASK_INFO } from './tasks.js';
import { presetFacts } from './lab-checks.js';
import { pairsSummary } from './lab-notes.js';
import { DTYPES, RUNS, clone, limit, presetExperiment } from './lab-constants.js';
import { mechanismName, t } from '../shared/i18n.js';
import { el } from '../shared/view-kit.js';

const EQUATION_TAGS = new Set(['VAR', 'SUB', 'SUP', 'I', 'EM', 'B', 'SPAN']);

/** The equation HTML of spec.js, rebuilt from a fixed list of tags (text everywhere else). */
export function equationNodes(html) {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const copy = (node) => {
    const out = [];
    for (const child of node.childNodes) {
      if (child.nodeType === 3) out.push(document.createTextNode(child.textContent ?? ''));
      else if (child.nodeType === 1) {
        const kids = copy(child);
        if (EQUATION_TAGS.has(child.nodeName)) {
          const e = document.createElement(child.nodeName.toLowerCase());
          e.append(...kids);
          out.push(e);
        } else out.push(...kids);
      }
    }
    return out;
  };
  return copy(doc.body);
}

/**
 * A paper's citation (spec.js attentionEquation: 'Bahdanau et al. 2015, eq. 6') in the lab's
 * language: in Chinese 'Bahdanau 等 2015，式 6', as the lesson cites (lesson-text.js).
 */
export function citeIn(lang, cite) {
  if (lang !== 'zh') return cite;
  return cite.replace(/ et al\. /g, ' 等 ').replace(/, eqs?\. /g, '，式 ');
}

/** The form's elements (presets, task, runs A and B, the refused note), into ui. */
export function buildForm(ui) {
  const field = (key, input, extraClass = '') => {
    const label = el('label', { for: input.id });
    ui.labels[key] = label;
    return el(
      'div',
      { class: `field ${extraClass}`.trim() },
      input.type === 'checkbox' ? [input, label] : [label, input],
    );
  };
  const number = (id, [min, max], step = '1') =>
    el('input', {
      id,
      type: 'number',
      min: String(min),
      max: String(max),
      step,
      inputmode: 'decimal',
    });
  const select = (id) => el('select', { id });
  ui.labels = {};

  // Presets
  ui.presetsTitle = el('h3', { id: 'presets-title' });
  ui.presets = el('div', { class: 'presets', role: 'group', 'aria-labelledby': 'presets-title' });
  const presetBox = el('div', { class: 'preset-box' }, [ui.presetsTitle, ui.presets]);

  // Task
  ui.task = select('task');
  ui.minLength = number('min-length', [1, 200]);
  ui.maxLength = number('max-length', [1, 200]);
  ui.size = number('size', limit('task.size', [0, 50000]));
  ui.level = select('level');
  ui.dataSeed = number('data-seed', [0, 4294967295]);
  ui.taskLegend = el('span', { class: 'top-title' });
  ui.taskAbout = el('span', { class: 'hint top-about', id: 'task-about' });
  ui.pairsText = el('textarea', { id: 'pairs-text', spellcheck: 'false', autocomplete: 'off' });
  ui.pairsUse = el('button', { type: 'button', id: 'pairs-use' });
  ui.pairsFile = el('input', {
    type: 'file',
    id: 'pairs-file',
    accept: '.tsv,.csv,.txt,text/tab-separated-values,text/csv,text/plain',
    hidden: '',
  });
  ui.pairsOpen = el('button', { type: 'button', id: 'pairs-open' });
  ui.pairsHint = el('p', { class: 'hint', id: 'pairs-hint' });
  ui.pairsProblem = el('p', { class: 'problem', role: 'alert', id: 'pairs-problem', hidden: '' });
  ui.pairsSummary = el('p', { class: 'note', id: 'pairs-summary', 'aria-live': 'polite' });
  // the parse running in web/lab/pairs-worker.js: rows read, a bar of the characters read
  ui.pairsProgress = el('progress', { id: 'pairs-progress', max: '1', value: '0' });
  ui.pairsReadingText = el('label', { for: 'pairs-progress', id: 'pairs-reading-text' });
  ui.pairsReading = el('p', { class: 'note reading', id: 'pairs-reading', hidden: '' }, [
    ui.pairsReadingText,
    ui.pairsProgress,
  ]);
  ui.pairsNeeded = el('p', { class: 'error', id: 'pairs-needed', hidden: '' });
  ui.pairs = el('div', { class: 'drop', id: 'pairs' }, [
    ui.pairsNeeded,
    field('pairsText', ui.pairsText),
    ui.pairsHint,
    el('div', { class: 'buttons' }, [ui.pairsUse, ui.pairsOpen, ui.pairsFile]),
    ui.pairsReading,
    ui.pairsProblem,
    ui.pairsSummary,
  ]);
  // The presets and the task, on top: a disclosure whose summary names the task (its about line),
  // open on a wide screen, closed on a phone (lab-view.js), so Start and the charts come first.
  ui.top = el('details', { class: 'top', id: 'setup', open: '' }, [
    el('summary', { id: 'setup-summary' }, [ui.taskLegend, ui.taskAbout]),
    presetBox,
    el('div', { class: 'task-row' }, [
      field('task', ui.task),
      field('minLength', ui.minLength),
      field('maxLength', ui.maxLength),
      field('size', ui.size),
      field('level', ui.level),
      field('dataSeed', ui.dataSeed),
    ]),
    ui.pairs,
  ]);

  // Runs A and B: a compact column each (its name, its numbers, its parameter count; lab-view.js
  // adds its attention map), the settings one click away in a disclosure whose summary, closed,
  // is one line of what they are.
  ui.run = {};
  const columns = {};
  for (const id of RUNS) {
    const u = { labels: {} };
    ui.run[id] = u;
    const f = (key, input, extra = '') => {
      const label = el('label', { for: input.id });
      u.labels[key] = label;
      return el(
        'div',
        { class: `field ${extra}`.trim() },
        input.type === 'checkbox' ? [input, label] : [label, input],
      );
    };
    const p = `${id}-`;
    u.legend = el('legend');
    u.enabled = el('input', { type: 'checkbox', id: `${p}enabled` });
    u.family = select(`${p}family`);
    u.cell = select(`${p}cell`);
    u.bidirectional = el('input', { type: 'checkbox', id: `${p}bidirectional` });
    u.layers = select(`${p}layers`);
    u.hidden = number(`${p}hidden`, limit('seq2seq.hidden', [16, 256]));
    u.embedding = number(`${p}embedding`, limit('seq2seq.embedding', [8, 256]));
    u.attention = select(`${p}attention`);
    u.style = select(`${p}style`);
    u.tLayers = select(`${p}t-layers`);
    u.heads = select(`${p}heads`);
    u.width = number(`${p}width`, limit('transformer.width', [16, 128]));
    u.feedforward = number(`${p}feedforward`, limit('transformer.feedforward', [16, 512]));
    u.positions = select(`${p}positions`);
    u.optimizer = select(`${p}optimizer`);
    u.lr = number(`${p}lr`, limit('train.lr', [1e-5, 1]), 'any');
    u.batch = number(`${p}batch`, limit('train.batch', [1, 256]));
    u.clip = number(`${p}clip`, limit('train.clip', [0, 10]), 'any');
    u.seed = number(`${p}seed`, [0, 4294967295]);
    u.workers = number(`${p}workers`, limit('train.workers', [1, 4]));
    u.halfLife = number(`${p}half-life`, limit('train.halfLife', [0, 100000]));
    u.params = el('p', { class: 'params', id: `${p}params`, 'aria-live': 'polite' });
    u.equation = el('p', { class: 'equation', id: `${p}equation` });
    u.cite = el('p', { class: 'cite', id: `${p}cite` });
    u.download = el('button', { type: 'button', id: `${p}download` });
    u.dtype = select(`${p}dtype`);
    u.load = el('button', { type: 'button', id: `${p}load` });
    u.loadFile = el('input', {
      type: 'file',
      id: `${p}load-file`,
      accept: '.safetensors,application/octet-stream',
      hidden: '',
    });
    u.fileNote = el('p', { class: 'note', id: `${p}file-note`, 'aria-live': 'polite' });
    u.modelTitle = el('p', { class: 'sub' });
    u.trainTitle = el('p', { class: 'sub' });
    u.s2s = el('div', { class: 'grid' }, [
      f('cell', u.cell),
      f('layers', u.layers),
      f('hidden', u.hidden),
      f('embedding', u.embedding),
      f('attention', u.attention, 'wide'),
      f('style', u.style, 'wide'),
      f('bidirectional', u.bidirectional, 'check'),
    ]);
    u.tf = el('div', { class: 'grid' }, [
      f('tLayers', u.tLayers),
      f('heads', u.heads),
      f('width', u.width),
      f('feedforward', u.feedforward),
      f('positions', u.positions, 'wide'),
    ]);
    u.settingsTitle = el('span', { class: 'settings-title' });
    u.summary = el('span', { class: 'settings-summary', id: `${p}summary` });
    u.settings = el('details', { class: 'settings', id: `${p}settings` }, [
      el('summary', { id: `${p}settings-summary` }, [u.settingsTitle, u.summary]),
      el('div', { class: 'grid' }, [f('family', u.family, 'wide')]),
      u.modelTitle,
      u.s2s,
      u.tf,
      el('div', { class: 'about' }, [u.equation, u.cite]),
      u.trainTitle,
      el('div', { class: 'grid' }, [
        f('optimizer', u.optimizer),
        f('lr', u.lr),
        f('batch', u.batch),
        f('clip', u.clip),
        f('halfLife', u.halfLife),
        f('seed', u.seed),
        f('workers', u.workers),
      ]),
      el('div', { class: 'buttons files' }, [
        f('dtype', u.dtype, 'wide'),
        u.download,
        u.load,
        u.loadFile,
      ]),
      u.fileNote,
    ]);
    // lab-view.js puts the run's numbers (lab-paint.js) into u.live and its map after the body.
    u.live = el('div', { class: 'live' });
    u.body = el('div', { class: 'body' }, [u.params, u.settings]);
    const head = id === 'b' ? [u.legend, f('enabled', u.enabled, 'check')] : [u.legend];
    u.set = el('fieldset', { class: `run run-${id}`, id: `run-${id}` }, [...head, u.live, u.body]);
    columns[id] = u.set;
  }
  ui.refusedNote = el('p', { class: 'refused', id: 'refused', hidden: '' });
  return { top: ui.top, columns };
}

/**
 * One line of what a run's settings are, for its closed disclosure: the model (cell, layers ×
 * size, bidirectional, attention; or the transformer's layers × width, heads, positions), then
 * the training (optimizer, learning rate, batch). spec: an experiment's run ({ model, train }).
 */
export function settingsSummary(lang, spec) {
  const m = spec.model;
  const tr = spec.train;
  const model =
    m.family === 'transformer'
      ? t(lang, 'lab.summary.transformer', {
          layers: m.layers,
          width: m.width,
          heads: m.heads,
          positions: t(lang, `lab.positions.${m.positions}`),
        })
      : t(lang, 'lab.summary.seq2seq', {
          cell: String(m.cell).toUpperCase(),
          layers: m.layers,
          hidden: m.hidden,
          bi: m.bidirectional ? t(lang, 'lab.summary.bi') : '',
          attention: mechanismName(lang, m.attention),
        });
  const train = t(lang, 'lab.summary.train', {
    optimizer: t(lang, `lab.optimizer.${tr.optimizer}`),
    lr: tr.lr,
    batch: tr.batch,
  });
  return t(lang, 'lab.summary', { model, train });
}

/** The form from the experiment and the language (options, labels, values). */
export function writeForm(ui, exp, lang) {
  const options = (select, values, label) => {
    const v = select.value;
    select.replaceChildren(
      ...values.map((x) => el('option', { value: String(x), text: label(x) })),
    );
    if (values.map(String).includes(v)) select.value = v;
  };
  const L = (key, name = key) => {
    if (ui.labels[key]) ui.labels[key].textContent = t(lang, `lab.field.${name}`);
  };
  ui.presetsTitle.textContent = t(lang, 'lab.presets');
  ui.presets.replaceChildren(
    ...PRESETS.map((p) => {
      const key = `lab.preset.${p.id}`;
      const name = t(lang, key);
      const b = el('button', {
        type: 'button',
        'data-preset': p.id,
        text: name === key ? p.id : name,
      });
      const about = t(lang, `lab.preset.${p.id}.about`);
      if (about !== `lab.preset.${p.id}.about`) b.title = about;
      return b;
    }),
  );
  ui.taskLegend.textContent = t(lang, 'lab.task');
  options(ui.task, TASK_NAMES, (x) => t(lang, `lab.task.${x}`));
  options(ui.level, ['auto', 'char', 'word'], (x) => t(lang, `lab.level.${x}`));
  for (const k of ['task', 'minLength', 'maxLength', 'size', 'level', 'dataSeed', 'logScale']) L(k);
  ui.labels.pairsText.textContent = t(lang, 'lab.pairs.label');
  ui.pairsUse.textContent = t(lang, 'lab.pairs.use');
  ui.pairsOpen.textContent = t(lang, 'lab.pairs.open');
  ui.pairsHint.textContent = t(lang, 'lab.pairs.hint');
  const lengths = /** @type {any} */ (TASK_INFO)?.[exp.task.name]?.lengths;
  if (lengths) {
    for (const input of [ui.minLength, ui.maxLength]) {
      input.min = String(lengths[0]);
      input.max = String(lengths[1]);
    }
  }
  ui.task.value = exp.task.name;
  ui.minLength.value = String(exp.task.minLength);
  ui.maxLength.value = String(exp.task.maxLength);
  ui.size.value = String(exp.task.size);
  ui.level.value = exp.task.level;
  ui.dataSeed.value = String(exp.task.seed);
  ui.level.disabled = exp.task.name !== 'custom';

  for (const id of RUNS) {
    const u = ui.run[id];
    const spec = exp[id] ?? exp.a;
    const m = spec.model;
    const tr = spec.train;
    u.legend.textContent = t(lang, `lab.run.${id}`);
    for (const k of [
      'family',
      'cell',
      'bidirectional',
      'layers',
      'hidden',
      'embedding',
      'attention',
      'style',
      'heads',
      'width',
      'feedforward',
      'positions',
      'optimizer',
      'lr',
      'batch',
      'clip',
      'seed',
      'workers',
      'halfLife',
      'dtype',
    ]) {
      if (u.labels[k]) u.labels[k].textContent = t(lang, `lab.field.${k}`);
    }
    u.labels.tLayers.textContent = t(lang, 'lab.field.layers');
    if (u.labels.enabled) u.labels.enabled.textContent = t(lang, 'lab.run.bEnabled');
    u.modelTitle.textContent = t(lang, 'lab.model');
    u.trainTitle.textContent = t(lang, 'lab.training');
    options(u.family, ['seq2seq', 'transformer'], (x) => t(lang, `lab.family.${x}`));
    options(u.cell, ['rnn', 'gru', 'lstm'], (x) => x.toUpperCase());
    options(u.layers, [1, 2], String);
    options(u.attention, ATTENTIONS, (x) => mechanismName(lang, x));
    options(u.style, ['bahdanau', 'luong'], (x) => t(lang, `lab.style.${x}`));
    options(u.tLayers, [1, 2, 3, 4], String);
    options(u.heads, [1, 2, 4, 8], String);
    options(u.positions, ['learned', 'sinusoidal', 'relative'], (x) =>
      t(lang, `lab.positions.${x}`),
    );
    options(u.optimizer, ['adam', 'sgd'], (x) => t(lang, `lab.optimizer.${x}`));
    options(u.dtype, DTYPES, (x) => t(lang, `lab.dtype.${x}`));
    u.settingsTitle.textContent = t(lang, 'lab.settings');
    u.summary.textContent = settingsSummary(lang, spec);
    u.download.textContent = t(lang, 'lab.file.download');
    u.load.textContent = t(lang, 'lab.file.load');
    u.family.value = m.family;
    const s2s = m.family !== 'transformer';
    u.s2s.hidden = !s2s;
    u.tf.hidden = s2s;
    if (s2s) {
      u.cell.value = m.cell;
      u.bidirectional.checked = Boolean(m.bidirectional);
      u.layers.value = String(m.layers);
      u.hidden.value = String(m.hidden);
      u.embedding.value = String(m.embedding);
      u.attention.value = m.attention;
      u.style.value = m.style;
    } else {
      u.tLayers.value = String(m.layers);
      u.heads.value = String(m.heads);
      u.width.value = String(m.width);
      u.feedforward.value = String(m.feedforward);
      u.positions.value = m.positions;
    }
    u.optimizer.value = tr.optimizer;
    u.lr.value = String(tr.lr);
    u.batch.value = String(tr.batch);
    u.clip.value = String(tr.clip);
    u.seed.value = String(tr.seed);
    u.workers.value = String(tr.workers);
    u.halfLife.value = String(tr.halfLife ?? 0);
    if (id === 'b') {
      u.enabled.checked = exp.b !== null;
      u.body.hidden = exp.b === null;
    }
  }
}

/** The experiment the form shows (not yet checked), from the experiment it was written from. */
export function readForm(ui, experiment) {
  const num = (input) => (input.value.trim() === '' ? NaN : Number(input.value));
  const exp = clone(experiment);
  exp.task = {
    ...exp.task,
    name: ui.task.value,
    minLength: num(ui.minLength),
    maxLength: num(ui.maxLength),
    size: num(ui.size),
    level: ui.level.value,
    seed: num(ui.dataSeed),
  };
  for (const id of RUNS) {
    const u = ui.run[id];
    if (id === 'b' && !u.enabled.checked) {
      exp.b = null;
      continue;
    }
    const before = exp[id] ?? clone(exp.a);
    const family = u.family.value;
    const model =
      family === 'transformer'
        ? {
            family,
            layers: Number(u.tLayers.value),
            heads: Number(u.heads.value),
            width: num(u.width),
            feedforward: num(u.feedforward),
            positions: u.positions.value,
          }
        : {
            family,
            cell: u.cell.value,
            bidirectional: u.bidirectional.checked,
            layers: Number(u.layers.value),
            hidden: num(u.hidden),
            embedding: num(u.embedding),
            attention: u.attention.value,
            style: u.style.value,
          };
    // Another family: its defaults (DEFAULT_EXPERIMENT, or a preset that has one), then what the form had.
    if (before.model?.family !== family) {
      const other = [DEFAULT_EXPERIMENT, ...PRESETS.map(presetExperiment)]
        .flatMap((e) => [e.a, e.b])
        .find((r) => r?.model?.family === family);
      if (other) Object.assign(model, other.model, { family });
    }
    const train = {
      optimizer: u.optimizer.value,
      lr: num(u.lr),
      batch: num(u.batch),
      clip: num(u.clip),
      seed: num(u.seed),
      workers: num(u.workers),
      halfLife: num(u.halfLife),
    };
    exp[id] = { model, train };
  }
  return exp;
}

/** A PairsError in lang: its line and its problem, by code. */
export function pairsMessage(lang, p) {
  const key = `lab.pairs.problem.${p.problem}`;
  const max = p.limit ?? (p.problem === 'too-long' ? 1000 : 50000);
  const mb = Math.round((p.limit ?? 0) / 1048576);
  const vars = { line: p.line, column: p.column ?? '', max: max.toLocaleString('en'), mb };
  const what = t(lang, key, vars) === key ? p.message : t(lang, key, vars);
  return Number(p.line) > 0 ? t(lang, 'lab.pairs.atLine', { line: p.line, problem: what }) : what;
}

/**
 * The form's notes: the task's, the custom pairs box, the refused values, each run's parameter
 * count and attention equation, and which run buttons work. s: { lang, experiment, runs: { a, b }
 * (lab-runs.js records or null), running, task (tasks.js makeTask of the task spec, or null),
 * custom (the pairs in use or null), pairsProblem, pairsReading (the parse running: { rows, done,
 * total }, or null), waiting (the custom task waits for its pairs), refused }.
 */
export function paintForm(ui, s) {
  const { lang, experiment: exp, task } = s;
  const custom = exp.task.name === 'custom';
  // Task notes and the custom pairs box
  ui.taskAbout.textContent = t(lang, `lab.task.${exp.task.name}.about`, {
    min: exp.task.minLength,
    max: exp.task.maxLength,
  });
  ui.pairs.hidden = !custom && !s.pairsProblem;
  const needed = s.waiting;
  ui.pairsNeeded.hidden = !needed;
  ui.pairsNeeded.textContent = needed
    ? t(lang, exp.task.data ? 'lab.pairs.neededHash' : 'lab.pairs.needed', {
        hash: exp.task.data ?? '',
      })
    : '';
  const reading = s.pairsReading;
  ui.pairsReading.hidden = !reading;
  if (reading) {
    ui.pairsProgress.value = reading.total > 0 ? reading.done / reading.total : 0;
    ui.pairsReadingText.textContent = t(lang, 'lab.pairs.reading', {
      rows: reading.rows.toLocaleString(lang),
    });
  }
  ui.pairsProblem.hidden = !s.pairsProblem;
  ui.pairsProblem.textContent = s.pairsProblem ? pairsMessage(lang, s.pairsProblem) : '';
  ui.pairsText.setAttribute('aria-invalid', String(Boolean(s.pairsProblem)));
  ui.pairsSummary.textContent = s.custom ? pairsSummary(lang, exp, s.custom, task) : '';
  ui.refusedNote.hidden = s.refused.length === 0;
  ui.refusedNote.textContent = s.refused.length
    ? t(lang, 'lab.refused', { list: s.refused.join(', ') })
    : '';

  const facts = presetFacts(exp);

  // Per run: parameter count (and B's, of a preset that claims equal sizes, with A's), equation
  for (const id of RUNS) {
    const u = ui.run[id];
    const spec = exp[id];
    const r = s.runs[id];
    if (spec) {
      let count = r?.info?.parameters ?? null;
      if (count === null && task) {
        try {
          count = parameterCount(spec.model, task);
        } catch {
          count = null;
        }
      }
      const num = (n) => n.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-US');
      const other = id === 'a' ? 'b' : 'a';
      const equal = id === 'b' && facts.sizes?.equal && count === facts.sizes.b; // A's column is the taller
      // B's count and, of a preset that claims equal sizes, A's beside it (not bold: one line)
      u.params.replaceChildren(
        count === null ? '' : t(lang, 'lab.parameters', { n: num(count) }),
        ...(equal && count !== null
          ? [
              ' ',
              el('span', {
                class: 'equal',
                text: t(lang, 'lab.parameters.equal', {
                  other: other.toUpperCase(),
                  m: num(facts.sizes[other]),
                }),
              }),
            ]
          : []),
      );
      u.params.dataset.count = count === null ? '' : String(count);
      let eq = null;
      try {
        eq = attentionEquation(spec.model);
      } catch {
        /* none */
      }
      const eqKey = `${eq?.html ?? ''}\u0000${lang}`;
      if (u.equation.dataset.key !== eqKey) {
        u.equation.dataset.key = eqKey;
        u.equation.replaceChildren(
          ...(eq?.html ? equationNodes(eq.html) : [t(lang, 'lab.noEquation')]),
        );
        u.cite.textContent = citeIn(lang, eq?.cite ?? '');
      }
    }
    u.download.disabled = !r || r.state === 'loading' || r.state === 'running';
    u.load.disabled = !spec || s.running;
  }
}
