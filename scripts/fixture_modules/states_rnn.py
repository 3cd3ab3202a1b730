"""PyTorch reference fixtures for the intermediate states of the recurrent models
(docs/states.md; `{ states: true }` in JS, al_model_seq2seq_states / al_model_memory_states in C).

Writes, with `/usr/bin/python3 scripts/gen_fixtures.py states_seq2seq states_memory_rnn`:
  tests/fixtures/states_seq2seq.safetensors   per case of scripts/fixture_modules/models.py (the
      committed model_<case>.safetensors, read back, so the weights are the very ones attnlab
      loads): src, tgt, greedy_ids (F32 holding integers), then greedy.<field> (the states of
      greedy decoding: teacher forcing on its own output) and score.<field> (teacher forcing on
      tgt) for every field of Seq2Seq.forward(..., states=True)
  tests/fixtures/states_memory_rnn.safetensors   per case of memory_rnn_models.py
      (memory_rnn_<case>.safetensors): ids and every field of MemoryRNN.forward(ids, states=True)
The references run the float32 weights in float64 (model.double()); scores hold -inf where the
softmax read nothing (outside a local window, steps a memory cell has not written). The inputs
are those of model_reference / memory_rnn_model_reference, whose cases were picked to be
well-conditioned (greedy margins, local-p window edges).

Does not: run attnlab (tests/js/states-seq2seq.test.js and states-memory-rnn.test.js do), or
write model files (models.py and memory_rnn_models.py do).
"""

import json
import os

import numpy as np
import torch

from fixtures_lib import dump_cases, f32, fixture, read_safetensors

from attnlab.torch import memory_rnn as mrnn  # noqa: E402  (python/ is on sys.path: fixtures_lib)
from attnlab.torch import seq2seq as s2s  # noqa: E402

from fixture_modules import memory_rnn_models, models  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "tests", "fixtures")


def load(cls, file):
    """The committed model file -> (the module in float64 with its weights, the config)."""
    tensors, meta = read_safetensors(os.path.join(FIXTURES, file))
    cfg = json.loads(meta["config"])
    model = cls.from_config(cfg).double()
    model.load_state_dict({k: torch.tensor(np.array(v), dtype=torch.float64)
                           for k, v in tensors.items()})
    return model.eval(), cfg


def reference(name):
    tensors, meta = read_safetensors(os.path.join(FIXTURES, f"{name}.safetensors"))
    return tensors, {c["name"]: c for c in json.loads(meta["cases"])}


def ints(t):
    return [int(round(float(x))) for x in np.asarray(t).reshape(-1)]


def store(tensors, prefix, states):
    for k, v in states.items():
        if isinstance(v, torch.Tensor):
            tensors[f"{prefix}.{k}"] = f32(v.detach().numpy())


@fixture("states_seq2seq")
def states_seq2seq():
    ref, _ = reference("model_reference")
    tensors, cases = {}, []
    for name, _opts in models.CASES:
        model, cfg = load(s2s.Seq2Seq, f"model_{name}.safetensors")
        src, tgt = ints(ref[f"{name}.src"]), ints(ref[f"{name}.tgt"])
        with torch.no_grad():
            ids = s2s.greedy(model, src)[0]
            assert ids == ints(ref[f"{name}.greedy_ids"]), f"{name}: greedy output moved"
            greedy = model(src, ids, states=True)["states"]
            scored = model(src, tgt, states=True)["states"]
        tensors.update({f"{name}.src": f32(src), f"{name}.tgt": f32(tgt),
                        f"{name}.greedy_ids": f32(ids)})
        store(tensors, f"{name}.greedy", greedy)
        store(tensors, f"{name}.score", scored)
        fields = sorted(k for k, v in scored.items() if isinstance(v, torch.Tensor))
        cases.append({"name": name, "file": f"model_{name}.safetensors", "style": cfg["style"],
                      "attention": cfg["attention"], "fields": fields})
        print(f"  {name}: S={len(src)}, greedy {len(ids)} steps, {len(fields)} fields")
    return tensors, {"fixture": "states_seq2seq",
                     "generator": "scripts/fixture_modules/states_rnn.py (torch float64 from the "
                                  "committed float32 model files)", "cases": dump_cases(cases)}


@fixture("states_memory_rnn")
def states_memory_rnn():
    ref, meta = reference("memory_rnn_model_reference")
    tensors, cases = {}, []
    for name, _opts, _tok in memory_rnn_models.CASES:
        model, cfg = load(mrnn.MemoryRNN, f"memory_rnn_{name}.safetensors")
        ids = ints(ref[f"{name}.ids"])
        with torch.no_grad():
            st = model(ids, states=True)["states"]
        tensors[f"{name}.ids"] = f32(ids)
        store(tensors, name, st)
        fields = sorted(k for k, v in st.items() if isinstance(v, torch.Tensor))
        cases.append({"name": name, "file": f"memory_rnn_{name}.safetensors",
                      "text": meta[name]["text"], "cell": st["cell"], "head": cfg["head"],
                      "fields": fields})
        print(f"  {name}: n={len(ids)}, {len(fields)} fields")
    return tensors, {"fixture": "states_memory_rnn",
                     "generator": "scripts/fixture_modules/states_rnn.py (torch float64 from the "
                                  "committed float32 model files)", "cases": dump_cases(cases)}
