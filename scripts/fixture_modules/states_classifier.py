"""PyTorch reference fixtures for the classifier's intermediate states (docs/states.md,
Model.classify(input, { states: true }); python/attnlab/torch/classifier.py forward(states=True)).

Writes, with `/usr/bin/python3 scripts/gen_fixtures.py states_classifier`:
  tests/fixtures/states_classifier.safetensors  per case of classifier_models.CASES (every
      pooling: attention over a bi-LSTM, a 2-layer GRU and a bidirectional ReLU RNN; han over
      bi-GRU and bi-LSTM, one document without a final separator; structured over a bi-LSTM and
      a 2-layer bi-GRU), read back from the committed model file tests/fixtures/classifier_<case>
      .safetensors: "<case>.ids" (F32 integers) and one tensor per state, named by its path in
      the JS object: embedded, hidden, projected, scores, weights, pooled, logits, probs,
      penalty [1] (structured), sentences.hidden / .projected / .scores / .weights / .pooled (han).
The reference runs the float32 weights in float64 (model.double()).
Does not: run attnlab (tests/js/states-classifier.test.js does).
"""

import json
import os

import numpy as np
import torch

from fixtures_lib import dump_cases, f32, fixture, read_safetensors

from attnlab.torch import classifier as clf  # noqa: E402  (python/ is on sys.path: fixtures_lib)
from fixture_modules.classifier_models import CASES, OUT_DIR


def flatten(states, prefix=""):
    """{"a": tensor, "b": {"c": tensor}} -> {"a": ..., "b.c": ...}; strings left out."""
    out = {}
    for k, v in states.items():
        if isinstance(v, dict):
            out.update(flatten(v, f"{prefix}{k}."))
        elif isinstance(v, torch.Tensor):
            a = v.detach().numpy()
            out[f"{prefix}{k}"] = f32(a.reshape(-1) if v.dim() == 0 else a)
    return out


@fixture("states_classifier")
def states_classifier():
    tensors, cases = {}, []
    for name, _, text in CASES:
        file = f"classifier_{name}.safetensors"
        weights, meta = read_safetensors(os.path.join(OUT_DIR, file))
        cfg = json.loads(meta["config"])
        torch.manual_seed(0)
        model = clf.Classifier.from_config(cfg).double()
        model.load_state_dict({k: torch.from_numpy(np.asarray(v, dtype=np.float64))
                               for k, v in weights.items()})
        ids = clf.encode(cfg, text)
        st = clf.classify(model, ids, states=True)["states"]
        t = {"ids": f32(ids), **flatten(st)}
        tensors.update({f"{name}.{k}": v for k, v in t.items()})
        cases.append({"name": name, "file": file, "text": text, "pooling": st["pooling"],
                      "fields": sorted(k for k in t if k != "ids")})
        print(f"  {name}: n={len(ids)}, {len(t) - 1} states, "
              f"max weight {float(st['weights'].max()):.3f}")
    return tensors, {"fixture": "states_classifier",
                     "generator": "scripts/fixture_modules/states_classifier.py (torch float64 "
                                  "from the float32 fixture weights)",
                     "cases": dump_cases(cases)}
