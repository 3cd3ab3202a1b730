// Types of the embeddable elements (<attn-demo>, <attn-heatmap>, <attn-lab>): web/embed.js (`attnlab/embed`: define(), no side effects) and
// web/elements.js (`attnlab/elements`: the same exports, registered on import).
//
//   import 'attnlab/elements';
//   const demo = document.createElement('attn-demo');        // AttnDemo
//   demo.setAttribute('model', 'dates-additive');
//   demo.addEventListener('demo-render', (e) => console.log(e.detail.ms));
//   const map = document.querySelector('attn-heatmap');      // AttentionHeatmap | null
//   if (map) map.data = { weights: new Float32Array([0.9, 0.1, 0.2, 0.8]), rows: 2, cols: 2 };
//
// The element classes extend HTMLElement: a browser (DOM) lib is needed to use these types.

/** The views of <attn-demo> (its `view` attribute). */
export type AttnDemoView =
  | 'alignment'
  | 'time'
  | 'compare'
  | 'mechanism'
  | 'heads'
  | 'pooling'
  | 'reading'
  | 'forgetting';

/** What the `hide` attribute may name (space- or comma-separated). */
export type AttnDemoHideFlag =
  | 'views'
  | 'picker'
  | 'input'
  | 'explain'
  | 'export'
  | 'lang'
  | 'link'
  | 'status'
  | 'card';

/** <attn-demo>'s settings, as its `state` property returns them (a copy) and 'demo-change' carries them. */
export interface AttnDemoState {
  view: AttnDemoView;
  /**
   * A registry name (e.g. 'dates-additive'), a same-origin '/…/*.safetensors' path, a same-origin
   * object URL ('blob:<origin>/<uuid>', URL.createObjectURL), or 'file:<name>' while a model file
   * given as `modelFile` (or picked, or dropped) is shown. The last two never go into a link.
   */
  model: string;
  input: string;
  /** 0-based (the page shows layer + 1, and says the 0-based value beside it; docs/view-states.md). */
  layer: number;
  /** 0-based (the page shows head + 1, and says the 0-based value beside it). */
  head: number;
  lang: 'en' | 'zh';
  hide: AttnDemoHideFlag[];
  /** The compare view's two models (A − B), or null for its defaults. */
  a: string | null;
  b: string | null;
  /** The heads and mechanism views of an encoder-decoder: which attention (null: cross). */
  kind: 'encoder' | 'decoder' | 'cross' | null;
  /** Reading view: the current word, 0-based (the page shows step + 1; null: the last); time view:
   * tokens decoded, a count (0: none, as after Reset; null: the whole output); mechanism view: the
   * step drawn, 0-based (an output token, a word read, a hop or a query row; null: the first). */
  step: number | null;
  /** The translation models' gold alignment drawn over the map. */
  gold: boolean;
}

/** 'demo-render' detail: the canonical settings string of the drawn view and its milliseconds. */
export interface AttnDemoRenderDetail {
  key: string;
  ms: number;
  [extra: string]: unknown;
}

export interface AttnDemoEventMap extends HTMLElementEventMap {
  /** A person changed a setting (the attributes already reflect it). */
  'demo-change': CustomEvent<AttnDemoState>;
  /** A view was drawn. */
  'demo-render': CustomEvent<AttnDemoRenderDetail>;
}

/** <attn-demo>: a model's attention, live. Settings are attributes (docs/embedding.md: "<attn-demo> attributes"). */
export declare class AttnDemo extends HTMLElement {
  static readonly observedAttributes: string[];
  /** The current settings (a copy). */
  readonly state: AttnDemoState;
  /** Milliseconds of each inference + redraw, newest last (at most 2,000). */
  timings: number[];
  /**
   * A model file of the visitor's own (docs/open-a-model.md): a File (an <input type=file>'s, a
   * drop's), a Blob, an ArrayBuffer or a Uint8Array (copied when set), at most 64 MB. It opens in
   * the view that draws its architecture (seq2seq: alignment or time; transformer: heads;
   * classifier: pooling; memory-RNN language model: reading), joins that view's model list as
   * "your file", and its inspector (config, tensors and shapes, parameter count, the card its
   * metadata carries) shows under the view unless `hide` has 'card'. A new value replaces the old
   * one and frees its wasm memory; null closes it. Any other value, or a file that is not a model,
   * is refused with a message in the element, never thrown. Reads back what was set (null after a
   * refusal).
   */
  modelFile: File | Blob | ArrayBuffer | Uint8Array | null;
  /**
   * Open what a drop carried: its one file, or a message naming why not (several files, a folder,
   * text). The element does this itself for drops on it when it has the `file-picker` attribute.
   */
  openDropped(dataTransfer: DataTransfer): void;
  /** Resolves after the next drawn view. */
  whenRendered(): Promise<void>;
  addEventListener<K extends keyof AttnDemoEventMap>(
    type: K,
    listener: (this: AttnDemo, ev: AttnDemoEventMap[K]) => any,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof AttnDemoEventMap>(
    type: K,
    listener: (this: AttnDemo, ev: AttnDemoEventMap[K]) => any,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

/** What `<attn-heatmap>.data` accepts: a row-major matrix and optional labels. */
export interface HeatmapInput {
  /** rows × cols values, row-major; kept by reference when a Float32Array (set `data` again after changing it). */
  weights: Float32Array | ArrayLike<number>;
  rows: number;
  cols: number;
  rowLabels?: ArrayLike<string | number>;
  colLabels?: ArrayLike<string | number>;
  /** Each row's output-token probability in [0, 1] (a run's `probs`): underlined under its label
   * by 1 − p, dotted under `threshold`, and named in the cell's description (issue 30). */
  rowProbs?: ArrayLike<number> | null;
  /** The "may be wrong" threshold in (0, 1) the row underlines are dotted under. */
  threshold?: number | null;
}

/** What `<attn-heatmap>.data` returns: the checked matrix, frozen. */
export interface HeatmapData {
  readonly weights: Float32Array;
  readonly rows: number;
  readonly cols: number;
  readonly rowLabels: readonly string[];
  readonly colLabels: readonly string[];
  readonly rowProbs: Float32Array | null;
  readonly threshold: number | null;
}

/** An outline over columns from..to (inclusive, 0-based) of one row, with an optional tick at a fractional column. */
export interface HeatmapMark {
  row: number;
  from: number;
  to: number;
  center?: number;
}

/** A cell (0-based) and its value, as focusedCell and 'heatmap-focus' / 'heatmap-hover' give it. */
export interface HeatmapCell {
  row: number;
  col: number;
  value: number;
  rowLabel: string;
  colLabel: string;
}

/** What an <attn-heatmap>'s exports say the map is of (a header over the PNG and SVG, rows above
 * the CSV's matrix, fields of the JSON). */
export interface HeatmapContext {
  /** Default: the label attribute. */
  title?: string;
  model?: string;
  input?: string;
  output?: string;
}

/** The colour scale drawn: 'fixed' 0–1, 'fit' the data's range, 'fit-from-0' 0 to the data's
 * largest, 'symmetric' about 0 (diverging), 'set' by the min and max attributes. */
export type HeatmapScaleMode = 'fixed' | 'fit' | 'fit-from-0' | 'symmetric' | 'set';

/** The labels the last render drew (every rowStep-th / colStep-th, and the pinned hovered and
 * focused ones), with the geometry that chose them. */
export interface HeatmapDrawnLabels {
  rowStep: number;
  colStep: number;
  /** The room one column label needs across (CSS px): colStep × cellWidth >= colExtent. */
  colExtent: number;
  rotated: boolean;
  cellWidth: number;
  cellHeight: number;
  gridX: number;
  gridY: number;
  rows: number[];
  cols: number[];
  pinnedRows: number[];
  pinnedCols: number[];
}

export interface AttentionHeatmapEventMap extends HTMLElementEventMap {
  'heatmap-render': Event;
  /** The colour-scale checkbox set the scale attribute. */
  'heatmap-scale': CustomEvent<{ scale: 'fixed' | 'fit' }>;
  'heatmap-focus': CustomEvent<HeatmapCell | null>;
  /** null when the pointer leaves the grid. */
  'heatmap-hover': CustomEvent<HeatmapCell | null>;
}

/**
 * <attn-heatmap>: a canvas heatmap of any row-major matrix. Attributes: label, min, max,
 * scale ('fixed' | 'fit'; absent: min and max, the data's range where missing), cell-size,
 * colormap ('viridis' | 'diverging'), lang.
 */
export declare class AttentionHeatmap extends HTMLElement {
  static readonly observedAttributes: string[];
  get data(): HeatmapData | null;
  /** Throws (and shows the error in the element) when the shape or labels do not fit. */
  set data(value: HeatmapInput | null | undefined);
  get marks(): HeatmapMark[];
  set marks(value: readonly HeatmapMark[] | null);
  /** gold[row] = the columns outlined as a reference alignment; null for none. */
  get gold(): number[][] | null;
  set gold(value: readonly (readonly number[])[] | null);
  get context(): HeatmapContext;
  set context(value: HeatmapContext | null | undefined);
  readonly scaleMode: HeatmapScaleMode;
  readonly drawnLabels: HeatmapDrawnLabels | null;
  label: string;
  readonly focusedCell: HeatmapCell | null;
  /** Move the focused cell (clamped into the matrix). */
  focusCell(row: number, col: number): void;
  /** Resolves after the pending render (at once when none is pending). */
  whenRendered(): Promise<void>;
  /** Draw a pending frame now. */
  flush(): void;
  toPNG(): Promise<Blob>;
  toSVG(): string;
  toCSV(): string;
  toJSON(): {
    label: string;
    title: string;
    model: string | null;
    input: string | null;
    output: string | null;
    scale: HeatmapScaleMode;
    rows: number;
    cols: number;
    rowLabels: string[];
    colLabels: string[];
    min: number;
    max: number;
    weights: (number | null)[];
    gold?: number[][];
  } | null;
  addEventListener<K extends keyof AttentionHeatmapEventMap>(
    type: K,
    listener: (this: AttentionHeatmap, ev: AttentionHeatmapEventMap[K]) => any,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof AttentionHeatmapEventMap>(
    type: K,
    listener: (this: AttentionHeatmap, ev: AttentionHeatmapEventMap[K]) => any,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

/** The lab's task (web/lab/spec.js TaskSpec). */
export interface LabTaskSpec {
  name: 'copy' | 'reverse' | 'sort' | 'addition' | 'dates' | 'translation' | 'custom';
  /** Input lengths, in the task's units (characters; digits per operand for addition; words for translation). */
  minLength: number;
  maxLength: number;
  /** Training pairs; 0: an endless fresh stream. */
  size: number;
  level: 'auto' | 'char' | 'word';
  /** The data stream's seed (A and B always see the same stream). */
  seed: number;
  /** The custom pairs' hash (pairs.js pairsHash), never the pairs; null for the other tasks. */
  data: string | null;
}

/** One run's model (web/lab/spec.js ModelSpec). */
export type LabModelSpec =
  | {
      family: 'seq2seq';
      cell: 'rnn' | 'gru' | 'lstm';
      bidirectional: boolean;
      layers: number;
      hidden: number;
      embedding: number;
      attention:
        | 'none'
        | 'additive'
        | 'dot'
        | 'general'
        | 'concat'
        | 'local-m'
        | 'local-p'
        | 'key-query';
      style: 'bahdanau' | 'luong';
    }
  | {
      family: 'transformer';
      layers: number;
      heads: number;
      width: number;
      feedforward: number;
      positions: 'learned' | 'sinusoidal' | 'relative';
    };

/** One run's training (web/lab/spec.js TrainSpec). */
export interface LabTrainSpec {
  optimizer: 'adam' | 'sgd';
  lr: number;
  batch: number;
  clip: number;
  /** The weights' initial seed. */
  seed: number;
  /** Data-parallel workers for this run (1–4). */
  workers: number;
}

/** An experiment: what a link (or the experiment attribute) holds; never weights. */
export interface LabExperiment {
  task: LabTaskSpec;
  a: { model: LabModelSpec; train: LabTrainSpec };
  /** null: A alone. */
  b: { model: LabModelSpec; train: LabTrainSpec } | null;
}

/** One run as <attn-lab>.runs reports it. */
export interface LabRunState {
  state: 'loading' | 'ready' | 'running' | 'paused' | 'error';
  step: number;
  /** Training milliseconds. */
  elapsed: number;
  stepsPerSecond: number;
  parameters: number | null;
  /** The last step's loss. */
  loss: number | null;
  /** The last held-out evaluation. */
  exactMatch: number | null;
  tokenAccuracy: number | null;
  byLength: { length: number; count: number; exactMatch: number; tokenAccuracy: number }[] | null;
  /** Evaluations so far. */
  evals: number;
  /** Whether an attention map of the fixed example has arrived. */
  attention: boolean;
  error: string;
}

export interface AttnLabEventMap extends HTMLElementEventMap {
  /** Training started or stopped (any run). */
  'lab-state': CustomEvent<{ running: boolean }>;
  /** A person changed the experiment; params is formatLabParams' string (for the page's URL). */
  'lab-change': CustomEvent<{ experiment: LabExperiment; params: string }>;
}

/**
 * <attn-lab>: design two models, train them side by side in workers, watch them learn
 * (docs/lab.md). Attributes: experiment (formatLabParams' string) or preset (a PRESETS id); task,
 * min-length, max-length, size, level, data-seed (override the task's fields); lang ('en' | 'zh').
 * Its module (web/lab/lab-view.js) is imported on first connect: until then experiment, pairs and
 * runs read null and the methods wait for it.
 */
export declare class AttnLab extends HTMLElement {
  static readonly observedAttributes: string[];
  /** The experiment (a copy); setting it checks it (spec.js checkExperiment: clamped, defaulted). */
  get experiment(): LabExperiment | null;
  set experiment(value: LabExperiment | Record<string, unknown> | null);
  /** The custom pairs in use; set an array, a TSV/CSV text or its bytes (parsed by pairs.js). */
  get pairs(): { src: string; tgt: string }[] | null;
  set pairs(value: { src: string; tgt: string }[] | string | Uint8Array | null);
  /** Each run's state; b is null when the experiment has no B. */
  readonly runs: { a: LabRunState | null; b: LabRunState | null } | null;
  /** Every loss of run id so far (a copy), or null. */
  losses(id: 'a' | 'b'): Float32Array | null;
  /** Milliseconds of each render on the page's thread, newest last (at most 2,000; a copy). */
  readonly timings: number[];
  /** Both runs: each resolves once the workers have done it. */
  start(): Promise<void>;
  pause(): Promise<void>;
  step(): Promise<void>;
  reset(): Promise<void>;
  /** Resolves once the module has loaded and every run is ready (or failed). */
  whenReady(): Promise<void>;
  /** Resolves once every run has reported step n (or failed). */
  whenSteps(n: number): Promise<void>;
  addEventListener<K extends keyof AttnLabEventMap>(
    type: K,
    listener: (this: AttnLab, ev: AttnLabEventMap[K]) => any,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof AttnLabEventMap>(
    type: K,
    listener: (this: AttnLab, ev: AttnLabEventMap[K]) => any,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

export interface DefineOptions {
  /** Default 'attn-heatmap'. */
  heatmapTag?: string;
  /** Default 'attn-demo'. */
  demoTag?: string;
  /** Default 'attn-lab'. */
  labTag?: string;
  /** Default: the page's customElements. */
  registry?: CustomElementRegistry;
}

/** Register the elements (idempotent; a tag already taken is left as it is); returns their constructors. */
export declare function define(options?: DefineOptions): {
  heatmap: typeof AttentionHeatmap;
  demo: typeof AttnDemo;
  lab: typeof AttnLab;
};

declare global {
  interface HTMLElementTagNameMap {
    'attn-demo': AttnDemo;
    'attn-heatmap': AttentionHeatmap;
    'attn-lab': AttnLab;
  }
}
