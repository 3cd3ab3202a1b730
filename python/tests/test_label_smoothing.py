"""Label smoothing in the PyTorch modules (label_smoothing= of each loss, example_loss and fit):
the same smoothed loss as PyTorch's F.cross_entropy(label_smoothing=0.1), which
tests/fixtures/label_smoothing.safetensors holds for 10 fixture models of the four architectures
and which the JS trainer's createTrainer(model, { labelSmoothing: 0.1 }) equals
(tests/js/label-smoothing.test.js); 0 is the unsmoothed loss exactly; bad values are refused."""

import json
import math
import os

import pytest
import torch

import attnlab
from attnlab.safetensors import read_safetensors
from attnlab.torch import classifier as clf
from attnlab.torch import memory_rnn as mrnn
from attnlab.torch import seq2seq as s2s
from attnlab.torch import transformer as tfm
from conftest import ROOT

FIXTURES = os.path.join(ROOT, "tests", "fixtures")
TENSORS, META = read_safetensors(os.path.join(FIXTURES, "label_smoothing.safetensors"))
CASES = json.loads(META["cases"])
EPS = float(META["epsilon"])


def rows(name, key):
    """The case's padded id rows, cut to their lengths (-1 is padding)."""
    t = TENSORS[f"{name}.{key}"]
    return [[int(x) for x in r if x >= 0] for r in t.tolist()]


def batch_loss(case, eps):
    """The case's batch loss by the package's own loss functions (mean over its terms)."""
    name = case["name"]
    model = attnlab.load(os.path.join(FIXTURES, case["file"])).double()
    srcs = rows(name, "src")
    arch = case["architecture"]
    if arch == "seq2seq":
        tgts = rows(name, "tgt")
        total = sum(s2s.nll(model, s, t, eps) for s, t in zip(srcs, tgts))
        return total / sum(len(t) for t in tgts)
    if arch == "transformer":
        variant = model.cfg["variant"]
        if variant == "decoder":
            return sum(tfm.nll(model, s, label_smoothing=eps) for s in srcs) / \
                sum(len(s) - 1 for s in srcs)
        tgts = rows(name, "tgt")
        return sum(tfm.nll(model, s, t, eps) for s, t in zip(srcs, tgts)) / \
            sum(len(t) for t in tgts)
    labels = [int(x) for x in TENSORS[f"{name}.label"].tolist()] if f"{name}.label" in TENSORS \
        else [None] * len(srcs)
    if arch == "classifier":
        return sum(clf.loss(model, s, y, eps) for s, y in zip(srcs, labels)) / len(srcs)
    pairs = [mrnn.loss(model, s, y, eps) for s, y in zip(srcs, labels)]
    return sum(v for v, _ in pairs) / sum(k for _, k in pairs)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_smoothed_loss_equals_pytorch_cross_entropy(case):
    got = float(batch_loss(case, EPS))
    want = float(TENSORS[f"{case['name']}.loss"][0])
    assert math.isclose(got, want, rel_tol=1e-5, abs_tol=1e-6), (case["name"], got, want)


@pytest.mark.parametrize("case", CASES[:1] + CASES[-3:], ids=lambda c: c["name"])
def test_zero_is_the_plain_loss_and_the_loss_is_linear_in_epsilon(case):
    plain, zero = batch_loss(case, 0), batch_loss(case, 0.0)
    assert float(zero) == float(plain)
    a, b = float(batch_loss(case, 0.25)), float(batch_loss(case, 0.5))
    assert a != float(plain)
    assert math.isclose(b, 2 * a - float(plain), rel_tol=1e-9, abs_tol=1e-12)


def test_fit_takes_label_smoothing_and_refuses_bad_values():
    tok = attnlab.Tokenizer.fit(["abc", "bca", "cab"], ["cba", "acb", "bac"], type="char")
    torch.manual_seed(0)
    model = attnlab.torch.Seq2Seq(tok, attention="additive", hidden_size=8, embedding_size=4)
    pairs = list(zip(["abc", "bca", "cab"], ["cba", "acb", "bac"]))
    history = model.fit(pairs, epochs=2, label_smoothing=0.1)
    assert len(history) == 2 and all(math.isfinite(h) for h in history)
    for bad in (-0.1, 1, 1.5, float("nan"), "0.1", True, None):
        with pytest.raises(ValueError, match="label_smoothing"):
            model.fit(pairs, label_smoothing=bad)
