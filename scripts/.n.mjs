import { readFileSync } from 'node:fs';
import { init, loadModel } from '../wasm/index.js';
import { brownLexicon } from '../web/data/brown.js';
import { agreementData, prefixScorer } from './train/agreement.mjs';
await init();
const d = agreementData();
const all = brownLexicon(d.brown.train, d.vocabSet, { nouns: 100000, verbs: 10, adjectives: 10 }).nouns;
const inG = new Set(d.lexicon.nouns.map((n) => n[0]));
console.log('noun pairs uncapped', all.length, 'in grammar', all.filter((n) => inG.has(n[0])).length);
const AUX = [['is', 'are'], ['has', 'have'], ['was', 'were']];
for (const m of ['lstm', 'sarnn', 'lstmn']) {
  const model = await loadModel(readFileSync(`web/models/lm-agreement-${m}.safetensors`));
  const s = prefixScorer(model);
  const acc = { in: [0, 0], out: [0, 0] };
  for (const [sg, pl] of all) {
    const k = inG.has(sg) ? 'in' : 'out';
    for (const [a, b] of AUX) {
      acc[k][0] += s(['the', sg], a) > s(['the', sg], b); acc[k][1]++;
      acc[k][0] += s(['the', pl], b) > s(['the', pl], a); acc[k][1]++;
    }
  }
  console.log(m, 'in grammar', (100 * acc.in[0] / acc.in[1]).toFixed(1), `(${acc.in[1]})`, 'not in grammar', (100 * acc.out[0] / acc.out[1]).toFixed(1), `(${acc.out[1]})`);
  model.dispose();
}
