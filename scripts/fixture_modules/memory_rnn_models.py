"""PyTorch reference fixtures for the "memory-rnn" architecture (src/models/memory_rnn_model.c,
docs/models.md, python/attnlab/torch/memory_rnn.py).

Writes, with `/usr/bin/python3 scripts/gen_fixtures.py memory_rnn_model_reference`:
  tests/fixtures/memory_rnn_<case>.safetensors   one tiny random model per case (a 16-entry word
                                                 vocabulary with one repeated word): what
                                                 loadModel reads
  tests/fixtures/memory_rnn_model_reference.safetensors   per case:
      ids [n]            the tokens of the case's text (F32 holding integers; unknown words in it)
      lm:   dist [n, V] log-distributions, logp [n-1] next-token log-probabilities
      classifier: probs [C], logits [C]
      weights [n, n]     the cell's attention (zeros for lstm)
      src [2, S_max], src_len [2] (labels [2] for classifiers): a batch of two examples (padded
                         with -1), loss [1] = (sum of both losses) / (their terms), and
                         grad.<name> = d loss / d theta for every tensor of the model file
The references run the float32 weights in float64 (model.double()) with torch.autograd.
Weights: recurrent maps U(+-2*0.5/sqrt(H)) (STYLE.md), score maps U(+-1.5) and score vectors
U(+-2) so the attention is far from uniform, embeddings N(0, 1), outputs U(+-1).

Does not: run attnlab (tests/c/test_memory_rnn_model.c and tests/js/memory-rnn-model.test.js do).
"""

import math
import os

import numpy as np
import torch

from fixtures_lib import case_rng, dump_cases, f32, fixture

from attnlab.torch import memory_rnn as mrnn  # noqa: E402  (python/ is on sys.path: fixtures_lib)

OUT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "tests", "fixtures")

VOCAB = ["<pad>", "<unk>", "<s>", "</s>", "."] + "the cat sat on mat a dog ran big red".split() \
    + ["cat"]  # listed twice: maps to its first index
LABELS = ["negative", "neutral", "positive"]
TEXT = "the big zebra cat sat on a red mat ."
TEXT2 = "a dog ran"
BOS_EOS = {"bos": "<s>", "eos": "</s>"}

CASES = [
    ("lm_lstmn", dict(cell="lstmn", head="lm"), BOS_EOS),
    ("lm_sarnn_additive", dict(cell="self-attention-rnn", align="additive", attentionSize=4,
                               head="lm"), BOS_EOS),
    ("lm_sarnn_dot", dict(cell="self-attention-rnn", align="dot", attentionSize=3, head="lm"), {}),
    ("lm_lstm", dict(cell="lstm", head="lm"), BOS_EOS),
    ("clf_lstmn", dict(cell="lstmn", head="classifier"), {}),
    ("clf_sarnn_mean", dict(cell="self-attention-rnn", attentionSize=4, head="classifier",
                            pool="mean"), {}),
]


def make_config(opts, tok):
    cfg = {"architecture": "memory-rnn", "embeddingSize": 5, "hiddenSize": 6}
    cfg.update(opts)
    if opts["head"] == "classifier":
        cfg["labels"] = LABELS
    cfg["tokenizer"] = {"type": "word", "vocab": VOCAB, "unk": "<unk>", "pad": "<pad>", **tok}
    return cfg


SCORE = {"cell.W_h": 1.5, "cell.W_s": 1.5, "cell.W_K": 1.5, "cell.W_Q": 1.5, "cell.W_x": 1.0,
         "cell.v": 2.0}


def init(model, r, H):
    """Random float32 weights (module docstring)."""
    rs = 0.5 / math.sqrt(H)
    for name, t in model.state_dict().items():
        if name.startswith("embedding"):
            v = r.standard_normal(tuple(t.shape))
        else:
            bound = SCORE.get(name, 2 * rs)
            if name.endswith("b") or "bias" in name:
                bound = 0.3
            if name.startswith(("out.", "classifier.")):
                bound = 1.0
            v = r.uniform(-bound, bound, size=tuple(t.shape))
        t.copy_(torch.from_numpy(f32(v)))


@fixture("memory_rnn_model_reference")
def memory_rnn_model_reference():
    tensors, cases = {}, []
    for name, opts, tok in CASES:
        cfg = make_config(opts, tok)
        r = case_rng("memory_rnn_model_reference", name)
        torch.manual_seed(0)
        model = mrnn.MemoryRNN.from_config(cfg)
        with torch.no_grad():
            init(model, r, cfg["hiddenSize"])
        ref = mrnn.MemoryRNN.from_config(cfg).double()
        ref.load_state_dict({k: v.double() for k, v in model.state_dict().items()})
        ids = mrnn.encode(cfg, TEXT)
        out = mrnn.forward(ref, ids)
        path = os.path.join(OUT_DIR, f"memory_rnn_{name}.safetensors")
        mrnn.export(model, cfg, path)
        t = {"ids": f32(ids), "weights": f32(out["weights"])}
        if ref.lm:
            t.update(dist=f32(out["dist"]), logp=f32(out["logp"]))
        else:
            t.update(probs=f32(out["probs"]), logits=f32(out["logits"]))
        # the gradient of a batch of two examples, as the trainer computes it
        batch = [ids, mrnn.encode(cfg, TEXT2)]
        labels = [int(x) for x in r.integers(0, len(LABELS), size=2)] if not ref.lm else [None] * 2
        ref.zero_grad()
        total, terms = 0.0, 0
        for s, y in zip(batch, labels):
            l, k = mrnn.loss(ref, s, y)
            total, terms = total + l, terms + k
        lossv = total / terms
        lossv.backward()
        S_max = max(len(s) for s in batch)
        t.update(src=f32([s + [-1] * (S_max - len(s)) for s in batch]),
                 src_len=f32([len(s) for s in batch]), loss=f32([float(lossv)]))
        if not ref.lm:
            t["labels"] = f32(labels)
        for pname, p in ref.named_parameters():
            t[f"grad.{pname}"] = f32(p.grad.detach().numpy())
        tensors.update({f"{name}.{k}": v for k, v in t.items()})
        case = {"name": name, "file": f"memory_rnn_{name}.safetensors", "text": TEXT,
                "text2": TEXT2, "cell": cfg["cell"], "head": cfg["head"]}
        if not ref.lm:
            case["label"] = int(out["probs"].argmax())
            case["labels"] = labels
        cases.append(case)
        w = out["weights"]
        print(f"  {name}: n={len(ids)}, loss {float(lossv):.4f}, max weight "
              f"{float(w.max()):.3f}, |grad| max "
              f"{max(float(p.grad.abs().max()) for p in ref.parameters()):.3g}, "
              f"{os.path.getsize(path)} bytes")
    return tensors, {"fixture": "memory_rnn_model_reference",
                     "generator": "scripts/fixture_modules/memory_rnn_models.py (torch float64 "
                                  "from float32 weights, autograd)", "cases": dump_cases(cases)}
