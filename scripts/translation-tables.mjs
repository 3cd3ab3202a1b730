// scripts/translation-tables.mjs: the Markdown tables of docs/translation.md's "Results", printed
// from the translators' cards, so the docs quote the cards and nothing else.
//
//   node scripts/translation-tables.mjs              # web/models/en-fr-*.json
//   node scripts/translation-tables.mjs --dir DIR    # the cards of a training run elsewhere
//
// Tables: the headline (parameters, bytes, held-out exact match, BLEU-4, AER, gold mass,
// hand-written, training CPU s), exact match by final mark, AER by phenomenon, the transformers'
// AER by layer and head, and exact match / BLEU at seven lengths. A card that is missing is left
// out; a card without a field (older than the field) shows "–" there.
// Not here: any measuring (scripts/train/translation.mjs translationCard; scripts/recard.mjs).

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { MODELS_DIR } from './train/common.mjs';
import { NAMES, ENDINGS } from './train/translation.mjs';
import { PHENOMENA } from '../web/data/translation.js';

const LENGTHS = [3, 5, 10, 15, 20, 25, 30];

function parseArgs(argv) {
  let dir = MODELS_DIR;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dir' && i + 1 < argv.length) dir = path.resolve(argv[++i]);
    else throw new Error(`translation-tables.mjs: unknown argument '${argv[i]}' (use --dir DIR)`);
  }
  return { dir };
}

const pct = (x, d = 1) => (x === null || x === undefined ? '–' : (100 * x).toFixed(d));
const f3 = (x) => (x === null || x === undefined ? '–' : x.toFixed(3));
const short = (c) => c.name.replace('en-fr-', '');
const row = (cells) => `| ${cells.join(' | ')} |`;
const rule = (n) => `| --- |${' ---: |'.repeat(n)}`;

/** The tables, as Markdown lines, of the cards found in dir. */
export function translationTables(dir) {
  const cards = NAMES.filter((n) => existsSync(path.join(dir, `${n}.json`))).map((n) =>
    JSON.parse(readFileSync(path.join(dir, `${n}.json`), 'utf8')),
  );
  if (cards.length === 0) throw new Error(`translation-tables.mjs: no en-fr-*.json card in ${dir}`);
  const out = [];
  const hwCount = cards[0].metrics.handwritten.count;
  out.push(
    row([
      'model',
      'parameters',
      'I8 bytes',
      'exact match',
      'BLEU-4',
      'AER',
      'gold mass',
      `hand-written (${hwCount})`,
      'training CPU s',
    ]),
    rule(8),
  );
  for (const c of cards) {
    const h = c.metrics.heldout,
      a = h.alignment,
      hw = c.metrics.handwritten;
    out.push(
      row([
        `\`${c.name}\``,
        c.architecture.parameters.toLocaleString('en-US'),
        c.architecture.bytes.toLocaleString('en-US'),
        `${pct(h.exactMatch)}%`,
        h.bleu.toFixed(2),
        a ? f3(a.aer) : '–',
        a ? f3(a.mass) : '–',
        String(Math.round(hw.exactMatch * hw.count)),
        String(c.training.cpuSeconds),
      ]),
    );
  }
  const withEnding = cards.filter((c) => c.metrics.heldout.byEnding);
  if (withEnding.length) {
    const counts = ENDINGS.map((e) => withEnding[0].metrics.heldout.byEnding[e].count);
    out.push(
      '',
      'Exact match % / BLEU-4 by how the sentence ends (the same 1,000 held-out sentences):',
      '',
    );
    out.push(
      row([
        'model',
        ...ENDINGS.map((e, i) => `${e === 'none' ? 'no mark' : `"${e}"`} (${counts[i]})`),
      ]),
      rule(ENDINGS.length),
    );
    for (const c of withEnding)
      out.push(
        row([
          short(c),
          ...ENDINGS.map((e) => {
            const r = c.metrics.heldout.byEnding[e];
            return `${pct(r.exactMatch)} / ${r.bleu.toFixed(1)}`;
          }),
        ]),
      );
  }
  const aligned = cards.filter((c) => c.metrics.heldout.alignment);
  out.push(
    '',
    'AER by phenomenon (argmax alignment against the gold, French tokens of the phenomenon; lower is better):',
    '',
  );
  out.push(row(['phenomenon', ...aligned.map(short)]), rule(aligned.length));
  for (const p of PHENOMENA) {
    const tokens = aligned[0].metrics.heldout.alignment.byPhenomenon[p].tokens;
    out.push(
      row([
        `${p} (${tokens} tokens)`,
        ...aligned.map((c) => f3(c.metrics.heldout.alignment.byPhenomenon[p].aer)),
      ]),
    );
  }
  for (const c of aligned.filter((x) => x.metrics.heldout.alignment.byHead)) {
    const a = c.metrics.heldout.alignment;
    out.push(
      '',
      `\`${c.name}\` AER by layer: ${Object.entries(a.byLayer)
        .map(([k, v]) => `${k} ${f3(v.aer)}`)
        .join(', ')}; by head: ${Object.entries(a.byHead)
        .map(([k, v]) => `${k} ${f3(v.aer)}`)
        .join(', ')}.`,
    );
  }
  out.push('', 'By length (exact match % / BLEU-4, 30 sentences of each length):', '');
  out.push(row(['model', ...LENGTHS.map(String)]), rule(LENGTHS.length));
  for (const c of cards) {
    out.push(
      row([
        short(c),
        ...LENGTHS.map((L) => {
          const r = c.metrics.byLength.find((x) => x.length === L);
          return `${pct(r.exactMatch, 0)} / ${r.bleu.toFixed(0)}`;
        }),
      ]),
    );
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(translationTables(parseArgs(process.argv.slice(2)).dir).join('\n'));
}
