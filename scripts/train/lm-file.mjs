// scripts/train/lm-file.mjs: reading and rewriting a memory-rnn language-model file's tensors
// after training, for the two steps that change its vocabulary (verb-forms.mjs adds rows,
// noun-shapes.mjs removes them). Holds no rule of its own.

import { packSafetensors } from '../../wasm/f16.js';

/** The header (tensor entries and __metadata__), the data bytes and the config of safetensors bytes. */
export function parseLm(bytes) {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  const data = bytes.subarray(8 + n);
  return { header, data, config: JSON.parse(header.__metadata__?.config ?? 'null') };
}

/**
 * The file again with the config's tokenizer replaced and the tensors of `replaced` (name →
 * [dtype, shape, values]) in place of theirs; every other tensor keeps its bytes, in the order
 * the file stored them.
 */
export function repackLm({ header, data, config }, tokenizer, replaced) {
  const names = Object.keys(header).filter((k) => k !== '__metadata__');
  names.sort((a, b) => header[a].data_offsets[0] - header[b].data_offsets[0]);
  return packSafetensors(
    { ...header.__metadata__, config: JSON.stringify({ ...config, tokenizer }) },
    names.map((name) => {
      const t = header[name];
      return [name, ...(replaced[name] ?? [t.dtype, t.shape, data.subarray(...t.data_offsets)])];
    }),
  );
}
