// attn-lab.js: <attn-lab>, the attention lab (issue 15): design two models, A and B, train them
// side by side in workers on the same data stream, and watch their loss, held-out accuracy,
// accuracy by input length and attention on one fixed example, live.
//
//   import { define } from '../embed.js';   define();
//   <attn-lab preset="with-without" lang="en"></attn-lab>
//   <attn-lab experiment="task=reverse&min=5&max=20&…"></attn-lab>   (formatLabParams' string, web/lab/spec.js)
//
// Attributes: experiment (the whole experiment, as web/lab/spec.js formatLabParams writes it; the
// page's #view=lab&… hash holds the same), or preset (a PRESETS id); then task, min-length,
// max-length, size, level and data-seed override the task's fields; lang ('en' | 'zh').
// Properties: experiment (a copy; setting it checks it with checkExperiment), pairs (the custom
// pairs, [{ src, tgt }], or null), runs (a snapshot of each run: step, losses, last evaluation),
// timings (ms of each render on the page's thread, newest last).
// Methods: start(), pause(), step(), reset() (promises: the workers have done it), losses('a' |
// 'b') (every loss so far, a Float32Array), whenReady() (every run ready), whenSteps(n) (every
// run at step n or past it).
// Events: 'lab-state' { running } when training starts or stops; 'lab-change' { experiment,
// params } when a person changes the experiment (params: formatLabParams' string, for the URL).
// data-state on the element: loading | waiting (for custom pairs) | ready | running | paused | error;
// data-step-a, data-step-b: the steps each run has reported.
//
// Holds: the element's attributes, properties and methods; on first connect it imports
// web/lab/lab-view.js (the controls, runs, charts and maps) and hands everything to it. Until then
// the properties read null and the methods wait for it (they return promises). Deliberately holds
// nothing else, so importing it (web/embed.js does) costs a page almost nothing.

/** @typedef {import('../lab/lab-view.js').LabView} LabView */

export class AttnLab extends HTMLElement {
  static observedAttributes = [
    'experiment',
    'preset',
    'task',
    'min-length',
    'max-length',
    'size',
    'level',
    'data-seed',
    'lang',
  ];

  /** @type {LabView | null} */
  #view = null;
  /** @type {Promise<LabView> | null} */
  #loading = null;
  #pending = /** @type {{ experiment?: any, pairs?: any }} */ ({});

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
  }

  connectedCallback() {
    this.#load().then(
      (view) => {
        if (this.isConnected && !view.isConnected) view.connected();
      },
      (err) => {
        this.dataset.state = 'error';
        const p = document.createElement('p');
        p.textContent = `attn-lab: ${err?.message ?? err}`;
        /** @type {ShadowRoot} */ (this.shadowRoot).replaceChildren(p);
      },
    );
  }

  disconnectedCallback() {
    if (this.#view?.isConnected) this.#view.disconnected();
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (this.#view?.isConnected) this.#view.attributeChanged(name, oldValue, newValue);
  }

  /** The lab's module, imported once; resolves to its view. */
  #load() {
    this.#loading ??= import('../lab/lab-view.js').then(({ LabView }) => {
      const view = new LabView(this);
      this.#view = view;
      if ('experiment' in this.#pending) view.experiment = this.#pending.experiment;
      if ('pairs' in this.#pending) view.pairs = this.#pending.pairs;
      this.#pending = {};
      return view;
    });
    return this.#loading;
  }

  /** Resolves once the lab's module has loaded and both runs are ready (or failed). */
  async whenReady() {
    return (await this.#load()).whenReady();
  }

  /** Resolves once every run has reported step n. */
  async whenSteps(n) {
    return (await this.#load()).whenSteps(n);
  }

  /** The experiment (a copy; null until the lab has loaded); setting it checks it (spec.js checkExperiment). */
  get experiment() {
    return this.#view?.experiment ?? null;
  }

  set experiment(value) {
    if (this.#view) this.#view.experiment = value;
    else this.#pending.experiment = value;
  }

  /** The custom pairs in use ([{ src, tgt }]), or null; set an array, a TSV/CSV string or its bytes. */
  get pairs() {
    return this.#view?.pairs ?? null;
  }

  set pairs(value) {
    if (this.#view) this.#view.pairs = value;
    else this.#pending.pairs = value;
  }

  /** Each run's state (null until loaded; a run is null when it does not exist). */
  get runs() {
    return this.#view?.runs ?? null;
  }

  /** Milliseconds of each render on the page's thread (the lab's own drawing, not the heatmaps'), newest last (at most 2,000). */
  get timings() {
    return this.#view ? [...this.#view.timings] : [];
  }

  /** Every loss of run id ('a' or 'b') so far, a Float32Array copy (null: no such run). */
  losses(id) {
    return this.#view?.losses(id) ?? null;
  }

  /** start(), pause(), step(), reset(): both runs; each resolves once the workers have done it. */
  async start() {
    await (await this.#load()).start();
  }

  async pause() {
    await (await this.#load()).pause();
  }

  async step() {
    await (await this.#load()).step();
  }

  async reset() {
    await (await this.#load()).reset();
  }
}

/** Register <attn-lab> (it imports its module, and registers <attn-heatmap>, on first connect). Safe to call more than once. */
export function define(tag = 'attn-lab', registry = customElements) {
  if (!registry.get(tag))
    registry.define(tag, tag === 'attn-lab' ? AttnLab : class extends AttnLab {});
  return registry.get(tag);
}
