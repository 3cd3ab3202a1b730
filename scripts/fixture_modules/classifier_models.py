"""PyTorch reference fixtures for the "classifier" architecture (src/models/classifier.c,
docs/models.md, python/attnlab/torch/classifier.py).

Writes, with `/usr/bin/python3 scripts/gen_fixtures.py classifier_reference`:
  tests/fixtures/classifier_<case>.safetensors   one tiny random classifier per case (a few KB,
                                                 an 18-entry vocabulary, 3 labels): what loadModel reads
  tests/fixtures/classifier_reference.safetensors  per case: the input's token ids (F32 holding
                                                 integers; the text is in the case's metadata, with
                                                 unknown words in it), PyTorch's probabilities,
                                                 logits, attention weights ([n], or [r, n] for
                                                 structured), han's sentence weights and structured's
                                                 penalty
and, with `/usr/bin/python3 scripts/gen_fixtures.py classifier_gradients`:
  tests/fixtures/classifier_structured_bilstm_penalty.safetensors  structured_bilstm's weights
                                                 with "penaltyCoefficient": 0.25 in the config
  tests/fixtures/classifier_gradients.safetensors  per case of GRADIENT_CASES (a model file
                                                 above): a batch of 3 documents of different
                                                 lengths with their labels, the mean loss
                                                 (1/3) sum_b -log p(label_b | doc_b) + coef * P_b
                                                 and its gradient for every tensor, from
                                                 torch.autograd in float64. Tensors "<case>.src"
                                                 [3, S_max] (F32 ids padded with -1),
                                                 "<case>.src_len", "<case>.label" [3],
                                                 "<case>.loss" [1], "<case>.grad.<name>"
The references run the float32 weights in float64 (model.double()). Recurrent weights are
N(0, 0.45) (about 0.5/sqrt(H), STYLE.md); the pooling vectors are N(0, 1.5) so the attention
weights are far from uniform (a wrong softmax or a swapped direction shows).

Does not: run attnlab (tests/js/classifier.test.js and tests/c/test_classifier.c do).
"""

import os

import torch

import json

import numpy as np

from fixtures_lib import case_rng, dump_cases, f32, fixture, read_safetensors, write_safetensors

from attnlab.torch import classifier as clf  # noqa: E402  (python/ is on sys.path: fixtures_lib)

OUT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "tests", "fixtures")

VOCAB = ["<pad>", "<unk>", "."] + "the cat sat on mat a dog ran big red blue good bad not".split() \
    + ["cat"]  # listed twice: maps to its first index
LABELS = ["negative", "neutral", "positive"]
TEXT = "the big zebra cat sat on a red mat not good"
DOC = "the cat sat on the mat . a big zebra dog ran . not bad blue cat ."
DOC_TAIL = "good cat . the dog ran on a mat . bad red"  # the last sentence has no separator

CASES = [
    ("attention_bilstm", dict(cell="lstm", bidirectional=True, pooling="attention"), TEXT),
    ("attention_gru", dict(cell="gru", numLayers=2, pooling="attention"), TEXT),
    ("attention_birnn_relu", dict(cell="rnn", nonlinearity="relu", bidirectional=True,
                                  pooling="attention"), TEXT),
    ("han_bigru", dict(cell="gru", bidirectional=True, pooling="han", attentionSize=5,
                       sentenceHiddenSize=6, sentenceAttentionSize=4,
                       sentenceSeparator="."), DOC),
    ("han_bilstm", dict(cell="lstm", bidirectional=True, pooling="han", attentionSize=4,
                        sentenceSeparator="."), DOC_TAIL),
    ("structured_bilstm", dict(cell="lstm", bidirectional=True, pooling="structured",
                               attentionSize=5, hops=3), TEXT),
    ("structured_bigru", dict(cell="gru", bidirectional=True, numLayers=2, pooling="structured",
                              attentionSize=4, hops=2), DOC),
]


def make_config(opts):
    cfg = {"architecture": "classifier", "embeddingSize": 6, "hiddenSize": 8, "numLayers": 1}
    cfg.update(opts)
    cfg["labels"] = LABELS
    cfg["tokenizer"] = {"type": "word", "vocab": VOCAB, "unk": "<unk>", "pad": "<pad>"}
    return cfg


def init(model, r):
    """Random float32 weights: embeddings N(0,1), pooling vectors and the classifier N(0,1.5)
    (peaked attention and probabilities), everything else N(0,0.45)."""
    for name, t in model.state_dict().items():
        std = 0.45
        if name.startswith("embedding"):
            std = 1.0
        elif name.startswith("classifier") or name in (
                "pooling.w", "word_pooling.u", "sentence_pooling.u", "pooling.W_s2"):
            std = 1.5
        t.copy_(torch.from_numpy(f32(r.standard_normal(tuple(t.shape)) * std)))


@fixture("classifier_reference")
def classifier_reference():
    tensors, cases = {}, []
    for name, opts, text in CASES:
        cfg = make_config(opts)
        r = case_rng("classifier_reference", name)
        torch.manual_seed(0)
        model = clf.Classifier.from_config(cfg)
        with torch.no_grad():
            init(model, r)
        ref = clf.Classifier.from_config(cfg).double()
        ref.load_state_dict({k: v.double() for k, v in model.state_dict().items()})
        ids = clf.encode(cfg, text)
        out = clf.classify(ref, ids)
        path = os.path.join(OUT_DIR, f"classifier_{name}.safetensors")
        clf.export(model, cfg, path)
        # ids stored as F32 (exact small integers): the C loader reads float tensors only
        t = {"ids": f32(ids), "probs": f32(out["probs"]), "logits": f32(out["logits"]),
             "weights": f32(out["weights"])}
        if "sentence_weights" in out:
            t["sentence_weights"] = f32(out["sentence_weights"])
        if "penalty" in out:
            t["penalty"] = f32([out["penalty"]])
        tensors.update({f"{name}.{k}": v for k, v in t.items()})
        case = {"name": name, "file": f"classifier_{name}.safetensors", "text": text,
                "pooling": cfg["pooling"], "cell": cfg["cell"], "label": int(out["probs"].argmax())}
        if "sentences" in out:
            case["sentences"] = [list(s) for s in out["sentences"]]
        cases.append(case)
        w = out["weights"]
        print(f"  {name}: n={len(ids)}, probs {[round(float(p), 3) for p in out['probs']]}, "
              f"max weight {float(w.max()):.3f}, {os.path.getsize(path)} bytes")
    return tensors, {"fixture": "classifier_reference",
                     "generator": "scripts/fixture_modules/classifier_models.py (torch float64 "
                                  "from float32 weights)", "cases": dump_cases(cases)}


# (case, model file case, documents, labels): han documents end sentences at "." (the second
# has a last sentence without one); one-word documents exercise n = 1
GRADIENT_CASES = [
    ("attention_bilstm", "attention_bilstm", [TEXT, "dog", "not bad blue cat ran on the mat"],
     [2, 0, 1]),
    ("attention_gru", "attention_gru", ["cat sat on the red mat", TEXT, "good"], [1, 2, 0]),
    ("han_bigru", "han_bigru", [DOC, DOC_TAIL, "good"], [0, 2, 1]),
    ("structured_bilstm_penalty", "structured_bilstm_penalty",
     [TEXT, "a dog", "the cat sat on the mat . not good"], [2, 0, 1]),
]
PENALTY = 0.25


@fixture("classifier_gradients")
def classifier_gradients():
    # the penalty model: structured_bilstm's weights, config + penaltyCoefficient
    weights, meta = read_safetensors(os.path.join(OUT_DIR, "classifier_structured_bilstm.safetensors"))
    cfg = json.loads(meta["config"])
    cfg["penaltyCoefficient"] = PENALTY
    write_safetensors(os.path.join(OUT_DIR, "classifier_structured_bilstm_penalty.safetensors"),
                      weights, {"config": json.dumps(cfg, separators=(",", ":"))})
    tensors, cases = {}, []
    for name, file_case, texts, labels in GRADIENT_CASES:
        path = os.path.join(OUT_DIR, f"classifier_{file_case}.safetensors")
        weights, meta = read_safetensors(path)
        cfg = json.loads(meta["config"])
        torch.manual_seed(0)
        model = clf.Classifier.from_config(cfg).double()
        model.load_state_dict({k: torch.from_numpy(np.asarray(v, dtype=np.float64))
                               for k, v in weights.items()})
        docs = [clf.encode(cfg, t) for t in texts]
        model.zero_grad()
        loss = sum(clf.loss(model, ids, y) for ids, y in zip(docs, labels)) / len(docs)
        loss.backward()
        S = max(len(ids) for ids in docs)
        t = {"src": f32([ids + [-1] * (S - len(ids)) for ids in docs]),
             "src_len": f32([len(ids) for ids in docs]), "label": f32(labels),
             "loss": f32([float(loss)])}
        for pname, p in model.named_parameters():
            t[f"grad.{pname}"] = f32(p.grad.detach().numpy())
        tensors.update({f"{name}.{k}": v for k, v in t.items()})
        cases.append({"name": name, "file": f"classifier_{file_case}.safetensors",
                      "pooling": cfg["pooling"], "texts": texts,
                      "labels": [cfg["labels"][y] for y in labels],
                      "penaltyCoefficient": cfg.get("penaltyCoefficient", 0),
                      "loss": float(loss)})
        print(f"  {name}: loss {float(loss):.6f}, |grad| max "
              f"{max(float(p.grad.abs().max()) for p in model.parameters()):.3g}")
    return tensors, {"fixture": "classifier_gradients",
                     "generator": "scripts/fixture_modules/classifier_models.py (torch.autograd, "
                                  "float64 from the float32 fixture weights)",
                     "cases": dump_cases(cases)}
