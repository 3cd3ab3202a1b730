"""PyTorch reference fixtures for the transformer's intermediate states (docs/states.md,
Model.forward(..., { states: true }); python/attnlab/torch/transformer_states.py).

Writes, with `/usr/bin/python3 scripts/gen_fixtures.py states_transformer`:
  tests/fixtures/states_transformer.safetensors  per case of transformer_models.CASES (encoder:
      learned positions post-norm, sinusoidal pre-norm gelu, Shaw relative post-norm; decoder
      (causal): learned pre-norm, relative pre-norm gelu; encoder-decoder: sinusoidal post-norm,
      relative pre-norm), read back from the committed tests/fixtures/transformer_<case>
      .safetensors, on a fresh random input (6 tokens, longer than k + 1 so relative clipping
      shows; encoder-decoder: 5 source tokens and bos + 4): "<case>.src", "<case>.tgt" (F32
      integers) and one tensor per state: embedded.<side>, sub.<i>.<field> (sublayer i in
      execution order; its stack, layer and kind are in the case's "sublayers"),
      layer.<i>.output, final.<side>, logits. Masked scores are -inf.
The reference runs the float32 weights in float64 and checks itself against the torch modules
(transformer_states.py).
Does not: run attnlab (tests/js/states-transformer.test.js does).
"""

import json
import os

import numpy as np
import torch

from fixtures_lib import case_rng, dump_cases, f32, fixture, read_safetensors

from attnlab.torch import transformer as tfm  # noqa: E402  (python/ is on sys.path: fixtures_lib)
from attnlab.torch.transformer_states import states
from fixture_modules.transformer_models import CASES, OUT_DIR


@fixture("states_transformer")
def states_transformer():
    tensors, cases = {}, []
    for name, _ in CASES:
        file = f"transformer_{name}.safetensors"
        weights, meta = read_safetensors(os.path.join(OUT_DIR, file))
        cfg = json.loads(meta["config"])
        torch.manual_seed(0)
        model = tfm.Transformer.from_config(cfg).double()
        model.load_state_dict({k: torch.from_numpy(np.asarray(v, dtype=np.float64))
                               for k, v in weights.items()})
        r = case_rng("states_transformer", name)
        tok = cfg["tokenizer"]
        ed = cfg["variant"] == "encoder-decoder"
        src = [int(x) for x in r.integers(4, len(tok["srcVocab"]), size=5 if ed else 6)]
        tgt = None
        t = {"src": f32(src)}
        if ed:
            tgt = [tok["tgtVocab"].index(tok["bos"])] + \
                [int(x) for x in r.integers(4, len(tok["tgtVocab"]), size=4)]
            t["tgt"] = f32(tgt)
        with torch.no_grad():
            st = states(model, src, tgt)
        for side, x in st["embedded"].items():
            t[f"embedded.{side}"] = f32(x)
        for i, s in enumerate(st["sublayers"]):
            for k, v in s.items():
                if isinstance(v, torch.Tensor):
                    t[f"sub.{i}.{k}"] = f32(v)
        for i, o in enumerate(st["layerOutputs"]):
            t[f"layer.{i}.output"] = f32(o["output"])
        for side, x in st["final"].items():
            t[f"final.{side}"] = f32(x)
        t["logits"] = f32(st["logits"])
        tensors.update({f"{name}.{k}": v for k, v in t.items()})
        cases.append({"name": name, "file": file, "variant": cfg["variant"],
                      "sublayers": [[s["stack"], s["layer"], s["kind"]] for s in st["sublayers"]],
                      "layers": [[o["stack"], o["layer"]] for o in st["layerOutputs"]]})
        print(f"  {name}: {len(st['sublayers'])} sublayers, {len(t)} tensors")
    return tensors, {"fixture": "states_transformer",
                     "generator": "scripts/fixture_modules/states_transformer.py (torch float64 "
                                  "from the float32 fixture weights)",
                     "cases": dump_cases(cases)}
