// Compiled (never run) by tests/js/types.test.js with `tsc --noEmit --strict`: the custom
// elements as a TypeScript page uses them (web/embed.d.ts, through `attnlab/elements`), so a
// wrong or missing declaration, or a lost HTMLElementTagNameMap entry, fails the test.
import {
  define,
  AttnDemo,
  AttentionHeatmap,
  AttnLab,
  type AttnDemoState,
  type HeatmapData,
  type LabExperiment,
} from 'attnlab/elements';
import { define as defineQuietly } from 'attnlab/embed';

const both: { heatmap: typeof AttentionHeatmap; demo: typeof AttnDemo } = define();
defineQuietly({ demoTag: 'course-demo', heatmapTag: 'course-heatmap', registry: customElements });

// HTMLElementTagNameMap: the tag names give the element classes.
const demo: AttnDemo = document.createElement('attn-demo');
const found: AttnDemo | null = document.querySelector('attn-demo');
demo.setAttribute('view', 'heads');
const state: AttnDemoState = demo.state;
const layer: number = state.layer;
const step: number | null = state.step;
demo.addEventListener('demo-change', (e) => {
  const s: AttnDemoState = e.detail;
  void s;
});
demo.addEventListener('demo-render', (e) => {
  const ms: number = e.detail.ms;
  const key: string = e.detail.key;
  void ms;
  void key;
});
void demo.whenRendered().then(() => demo.timings.at(-1));

const map: AttentionHeatmap = document.createElement('attn-heatmap');
map.data = {
  weights: new Float32Array([0.9, 0.1, 0.2, 0.8]),
  rows: 2,
  cols: 2,
  rowLabels: ['q0', 'q1'],
  colLabels: ['k0', 'k1'],
};
map.data = { weights: [1, 2, 3], rows: 1, cols: 3 };
const data: HeatmapData | null = map.data;
map.marks = [{ row: 0, from: 0, to: 1, center: 0.5 }];
map.gold = [[0], [1]];
map.addEventListener('heatmap-focus', (e) => void e.detail?.value);
const svg: string = map.toSVG();
const png: Promise<Blob> = map.toPNG();
void [both, found, layer, step, data, svg, png];

// @ts-expect-error: data must have rows and cols
map.data = { weights: new Float32Array(4) };

// <attn-lab>: the experiment (never weights), its runs and its events
const lab: AttnLab = document.createElement('attn-lab');
lab.setAttribute('preset', 'with-without');
lab.addEventListener('lab-change', (e) => {
  const params: string = e.detail.params;
  const exp: LabExperiment = e.detail.experiment;
  void [params, exp.task.name, exp.b?.model.family];
});
lab.addEventListener('lab-state', (e) => void (e.detail.running satisfies boolean));
void lab
  .whenReady()
  .then(() => lab.start())
  .then(() => lab.whenSteps(20))
  .then(() => lab.pause());
const losses: Float32Array | null = lab.losses('a');
const stepA: number | undefined = lab.runs?.a?.step;
lab.pairs = 'abc\tcba\n';
void [losses, stepA, define().lab];
// @ts-expect-error: runs are 'a' and 'b'
lab.losses('c');
