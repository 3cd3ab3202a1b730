"""PyTorch autograd gradients of the teacher-forced loss for the whole-model fixtures
(src/models/seq2seq_train.c, docs/training.md).

Writes, with `/usr/bin/python3 scripts/gen_fixtures.py train_gradients`:
  tests/fixtures/train_gradients.safetensors   per case of scripts/fixture_modules/models.py
      (the 12 tiny tests/fixtures/model_<case>.safetensors models, read back from those files):
      a batch of 3 pairs of different lengths, the mean token loss
          loss = (1 / Σ T_b) Σ_b Σ_t −log p(tgt_b[t] | tgt_b[<t], src_b)   (tgt_b ends in eos)
      and ∂loss/∂θ for every parameter θ, from torch.autograd in float64 on the float32 weights.
  Tensors: "<case>.src" [3, S_max] and "<case>.tgt" [3, T_max] (F32 holding integer ids, padded
  with -1), "<case>.src_len", "<case>.tgt_len" [3], "<case>.loss" [1], "<case>.grad.<name>" for
  every tensor <name> of the model file.
The local window is held fixed (p_t detached in the window test, as in python/attnlab/torch/seq2seq.py
and the C kernels); the Gaussian factor carries p_t's gradient.

Does not: run attnlab (tests/js/train.test.js compares).
"""

import json
import os

import numpy as np
import torch

from fixtures_lib import case_rng, dump_cases, f32, fixture, read_safetensors


HERE = os.path.dirname(os.path.abspath(__file__))
from attnlab.torch import seq2seq as s2s  # noqa: E402  (python/ is on sys.path: fixtures_lib)
import importlib as _il  # noqa: E402
models_fixture = _il.import_module("fixture_modules.models")  # the CASES (registered once)

FIXTURE_DIR = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "fixtures")


def nll(model, src, tgt):
    """Σ_t −log p(tgt[t]) with autograd (s2s.score is no_grad)."""
    keys, state = model.encode(src)
    total = 0.0
    for t, y in enumerate(tgt):
        logp, _, _, state = model.step(keys, state, tgt[t - 1] if t else model.bos, t)
        total = total - logp[y]
    return total


@fixture("train_gradients")
def train_gradients():
    tensors, cases = {}, []
    for name, opts in models_fixture.CASES:
        path = os.path.join(FIXTURE_DIR, f"model_{name}.safetensors")
        weights, meta = read_safetensors(path)
        cfg = json.loads(meta["config"])
        torch.manual_seed(0)
        model = s2s.Seq2Seq.from_config(cfg).double()
        model.load_state_dict({k: torch.from_numpy(np.asarray(v, dtype=np.float64))
                               for k, v in weights.items()})
        r = case_rng("train_gradients", name)
        V = len(cfg["tokenizer"]["tgtVocab"])
        eos = model.eos
        S_len = [int(r.integers(3, 8)), int(r.integers(1, 4)), int(r.integers(4, 9))]
        T_len = [int(r.integers(3, 7)), 1, int(r.integers(2, 5))]
        srcs = [[int(x) for x in r.integers(4, V, size=n)] for n in S_len]
        tgts = [[int(x) for x in r.integers(4, V, size=n - 1)] + [eos] for n in T_len]
        model.zero_grad()
        loss = sum(nll(model, s, t) for s, t in zip(srcs, tgts)) / sum(T_len)
        loss.backward()
        S_max, T_max = max(S_len), max(T_len)
        pad = lambda seqs, n: f32([s + [-1] * (n - len(s)) for s in seqs])  # noqa: E731
        t = {"src": pad(srcs, S_max), "tgt": pad(tgts, T_max), "src_len": f32(S_len),
             "tgt_len": f32(T_len), "loss": f32([float(loss)])}
        for pname, p in model.named_parameters():
            t[f"grad.{pname}"] = f32(p.grad.detach().numpy())
        tensors.update({f"{name}.{k}": v for k, v in t.items()})
        cases.append({"name": name, "file": f"model_{name}.safetensors", "loss": float(loss)})
        print(f"  {name}: loss {float(loss):.6f}, |grad| max "
              f"{max(float(p.grad.abs().max()) for p in model.parameters()):.3g}")
    return tensors, {"fixture": "train_gradients",
                     "generator": "scripts/fixture_modules/train.py (torch.autograd, float64 from "
                                  "the float32 fixture weights)", "cases": dump_cases(cases)}
