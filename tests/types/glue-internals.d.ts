// The glue's internal exports, for the `tsc --checkJs` pass over wasm/ and web/ only
// (tsconfig.checkjs.json). A relative import inside wasm/ resolves to the hand-written .d.ts
// beside the .js, which describes the public API and so leaves these out on purpose: declaring
// them there would publish them through index.d.ts's `export *`. This file is not in the
// package and not in tests/types/tsconfig.json (the public-types check).
import type {
  Model,
  ModelConfig,
  ClassifierConfig,
  MemoryRnnConfig,
  TransformerConfig,
} from '../../wasm/index.js';

/** An instance from loader.js loadLib() (createAttnlab); null is the default instance. */
type Lib = object | null;

declare module '../../wasm/model.js' {
  /** loadModel() on instance l. */
  export function loadModelIn(
    l: Lib,
    source: string | URL | Response | ArrayBuffer | ArrayBufferView,
  ): Promise<Model>;
  /** A live model's private state and its architecture module (train.js). */
  export function modelInternals(model: Model, what: string): { m: any; arch: any };
}

declare module '../../wasm/train.js' {
  /** createModel() on instance l. */
  export function createModelIn(
    l: Lib,
    config: ModelConfig | ClassifierConfig | MemoryRnnConfig | TransformerConfig | string,
    options?: { seed?: number },
  ): Promise<Model>;
  /** loadTrainableModel() on instance l. */
  export function loadTrainableModelIn(
    l: Lib,
    source: string | URL | ArrayBuffer | ArrayBufferView,
  ): Promise<Model>;
}
