"""The classifier's "temperature" (issue 30, docs/models.md): the Python port applies it
(probs = softmax(logits / T), the logits untouched, the training loss on the raw logits, as the
C trainer's), refuses a bad one naming the key, and attnlab.export / attnlab.load round-trip it;
the shipped review classifiers carry theirs and the port gives the JS library's probabilities.
"""

import json
import math
import os

import pytest
import torch

import attnlab
from attnlab.torch import Classifier
from conftest import MODELS, close, node

WORDS = ["the cat sat . a dog ran .", "a big red dog sat on the mat ."]


def tok():
    return attnlab.Tokenizer.fit(WORDS, type="word")


def model(**kw):
    torch.manual_seed(3)
    return Classifier(tok(), labels=["neg", "pos", "meh"], cell="gru", pooling="attention",
                      embedding_size=4, hidden_size=6, **kw)


def test_the_port_applies_the_temperature():
    plain, warm = model(), model(temperature=2.5)
    assert warm.config["temperature"] == 2.5 and "temperature" not in plain.config
    ids = plain.tokenizer.encode("the big dog sat")
    a, b = plain(ids), warm(ids)
    close("temperature: logits untouched", b["logits"].detach(), a["logits"], atol=0)
    close("temperature: probs = softmax(logits / T)", b["probs"].detach(),
          torch.softmax(a["logits"] / 2.5, -1), atol=1e-7)
    assert float((b["probs"] - a["probs"]).abs().max()) > 1e-3, "T = 2.5 changed nothing"
    # the training loss is the raw logits' cross-entropy (the temperature is a calibration)
    assert float(warm.example_loss(("the big dog sat", "pos"))) == pytest.approx(
        float(-torch.log_softmax(a["logits"], -1)[1]), abs=1e-6)


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), 1001, "2", True])
def test_a_bad_temperature_is_refused_by_name(bad):
    with pytest.raises(ValueError, match='"temperature"'):
        model(temperature=bad)
    cfg = dict(model().config, temperature=bad)
    with pytest.raises(ValueError, match='"temperature"'):
        Classifier.from_config(cfg)


def test_export_and_load_round_trip_the_temperature(tmp_path):
    m = model(temperature=3.25)
    path = os.path.join(tmp_path, "warm.safetensors")
    attnlab.export(m, path)
    back = attnlab.load(path)
    assert back.config["temperature"] == 3.25
    ids = m.tokenizer.encode("a red cat ran")
    close("temperature: loaded probs", back(ids)["probs"].detach(), m(ids)["probs"], atol=1e-6)
    # and the JS library, reading the same file, applies the same temperature
    (res,) = node([{"file": path, "calls": [["classify", "a red cat ran"]]}])
    close("temperature: JS probs", res[0]["probs"], m(ids)["probs"])


@pytest.mark.parametrize("name", ["clf-reviews-attention", "clf-reviews-han",
                                  "clf-reviews-structured"])
def test_shipped_review_classifiers_carry_their_temperature(name):
    m = attnlab.load(os.path.join(MODELS, f"{name}.safetensors"))
    with open(os.path.join(MODELS, f"{name}.json"), encoding="utf8") as f:
        card = json.load(f)
    T = card["calibration"]["temperature"]
    assert m.config["temperature"] == T and T > 1
    out = m.double().run("Meh.")
    close(f"temperature: {name} probs", out["probs"].detach(), torch.softmax(out["logits"] / T, -1),
          atol=1e-12)
    assert math.isclose(float(out["probs"].sum()), 1.0, abs_tol=1e-12)
