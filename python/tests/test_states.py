"""The `states=True` forwards of attnlab.torch (docs/states.md) on the shipped models: the
classifier's states agree with themselves (softmax(scores) = weights, pooled = sum of weights
times hidden, per row or per sentence) and with the plain forward; the transformer's states
(transformer_states.py, which checks itself against the torch modules) end in the plain forward's
logits and weights. The values against the JS library are in tests/js/states-*.test.js."""

import os

import torch

import attnlab
from conftest import MODELS


def _load(name):
    return attnlab.load(os.path.join(MODELS, f"{name}.safetensors")).double()


def test_classifier_states_agree_with_the_forward():
    for name in ("clf-reviews-attention", "clf-reviews-han", "clf-reviews-structured"):
        model = _load(name)
        ids = model.tokenizer.encode("the film was not good . but the end was great .")
        with torch.no_grad():
            out = model(ids, states=True)
        st = out["states"]
        assert st["pooling"] == model.kind
        assert torch.equal(st["probs"], out["probs"])
        assert st["embedded"].shape == (len(ids), model._keys["embeddingSize"])
        if model.kind == "han":
            assert torch.equal(st["weights"][0], out["weights"])
            sent = st["sentences"]
            assert torch.allclose(torch.softmax(sent["scores"], -1), sent["weights"])
            assert torch.allclose(sent["weights"] @ sent["hidden"], sent["pooled"])
            assert st["pooled"].shape[0] == len(out["sentences"])
        else:
            w = st["weights"]
            assert torch.equal(w.reshape(out["weights"].shape), out["weights"])
            assert torch.allclose(torch.softmax(st["scores"], -1), w)
            assert torch.allclose(w @ st["hidden"], st["pooled"])


def test_transformer_states_end_in_the_forward():
    for name in ("tf-induction", "tf-dates-relative"):
        model = _load(name)
        src = model.tokenizer.encode("a b c a b" if "induction" in name else "3 may 1999")
        tgt = None
        if model.variant == "encoder-decoder":
            tgt = [model.tokenizer.tgt[model.cfg["tokenizer"]["bos"]]]
        with torch.no_grad():
            out = model(src, tgt, states=True)
        st = out["states"]
        assert torch.allclose(st["logits"], out["logits"])
        L, H = model._keys["numLayers"], model._keys["numHeads"]
        assert len(st["layerOutputs"]) == (2 * L if tgt else L)
        maps = out["attention"]
        for s in st["sublayers"]:
            for h in range(H):
                m = next(a for a in maps if (a["stack"], a["layer"], a["kind"], a["head"]) ==
                         (s["stack"], s["layer"], s["kind"], h))
                assert torch.allclose(m["weights"], s["weights"][h])
