// heatmap-fixture.js: synthetic data for tests/browser/heatmap.html (no wasm involved).
//
// Exposes window.fixture = { ready, synthetic(rows, cols) } for the tests; importing the
// element module alone must not register it, so this checks that before calling define().

import { define } from '../../web/elements/attention-heatmap.js';

const registeredOnImport = customElements.get('attn-heatmap') !== undefined;
define();

/** A row-stochastic matrix with a bright diagonal, like attention weights. */
function synthetic(rows, cols) {
  const w = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    for (let c = 0; c < cols; c++) sum += w[r * cols + c] = Math.exp(-Math.abs(r - c) - 0.1 * c);
    for (let c = 0; c < cols; c++) w[r * cols + c] /= sum;
  }
  return w;
}

const rowLabels = ['the', 'cat', '<b>sat</b>', 'on', 'the', 'mat'];
document.getElementById('plain').data = {
  weights: synthetic(6, 9),
  rows: 6,
  cols: 9,
  rowLabels,
  colLabels: Array.from({ length: 9 }, (_, i) => `k${i}`),
};
document.getElementById('fixed').data = { weights: synthetic(3, 4), rows: 3, cols: 4 };

window.fixture = { registeredOnImport, synthetic, ready: true };
