"""PyTorch's label-smoothed cross-entropy, F.cross_entropy(..., label_smoothing=EPS), and its
autograd gradient for every trainable architecture (src/models/loss.h, api/train.h
al_trainer_set_label_smoothing; createTrainer's labelSmoothing in wasm/train.js).

Writes, with `/usr/bin/python3 scripts/gen_fixtures.py label_smoothing` (after the fixture models
of models.py, classifier_models.py, memory_rnn_models.py and transformer_models.py exist):
  tests/fixtures/label_smoothing.safetensors   per case (a fixture model file read back, a batch
      of 2-3 examples): the mean over the batch's loss terms of the smoothed cross-entropy, each
      term's target (1 - EPS)·onehot + EPS/V over its V classes (Lin's penalty added unsmoothed),
      and its gradient for every tensor, from torch.autograd in float64 on the float32 weights.
  Tensors "<case>.src" [B, S_max] (F32 holding ids, padded with -1), "<case>.src_len" [B],
  "<case>.tgt" [B, T_max] and "<case>.tgt_len" [B] (seq2seq and transformer encoder-decoder /
  encoder), "<case>.label" [B] (classifiers), "<case>.loss" [1], "<case>.grad.<name>".
The cases' metadata name the architecture, the file and the kind of example.

Does not: run attnlab (tests/js/label-smoothing.test.js compares).
"""

import json
import os

import numpy as np
import torch
import torch.nn.functional as F

from fixtures_lib import case_rng, dump_cases, f32, fixture, read_safetensors

from attnlab.torch import classifier as clf  # noqa: E402  (python/ is on sys.path: fixtures_lib)
from attnlab.torch import memory_rnn as mrnn  # noqa: E402
from attnlab.torch import seq2seq as s2s  # noqa: E402
from attnlab.torch import transformer as tfm  # noqa: E402

OUT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "tests", "fixtures")
EPS = 0.1


def smoothed(logits, targets):
    """Σ over rows of PyTorch's label-smoothed cross-entropy (logits [n, V] or log-probs)."""
    return F.cross_entropy(logits, torch.tensor(targets), reduction="sum", label_smoothing=EPS)


def load(file, build):
    weights, meta = read_safetensors(os.path.join(OUT_DIR, file))
    cfg = json.loads(meta["config"])
    torch.manual_seed(0)
    model = build(cfg).double()
    model.load_state_dict({k: torch.from_numpy(np.asarray(v, dtype=np.float64))
                           for k, v in weights.items()})
    return model, cfg


def seq2seq_loss(model, src, tgt):
    """The decoder fed bos, tgt[:-1]; every step's log-probs smoothed against tgt[t]."""
    keys, state = model.encode(src)
    total = 0.0
    for t, y in enumerate(tgt):
        logp, _, _, state = model.step(keys, state, tgt[t - 1] if t else model.bos, t)
        total = total + smoothed(logp[None], [y])
    return total


def transformer_loss(model, src, tgt):
    """tfm.nll's rows and targets (docs/training.md), smoothed."""
    cfg = model.cfg
    if model.variant == "encoder-decoder":
        bos = cfg["tokenizer"]["tgtVocab"].index(cfg["tokenizer"]["bos"])
        logits, _ = tfm.forward(model, src, [bos] + list(tgt[:-1]))
        return smoothed(logits, list(tgt))
    logits, _ = tfm.forward(model, src)
    if model.variant == "decoder":
        return smoothed(logits[:-1], list(src[1:]))
    return smoothed(logits, list(tgt))


def memory_loss(model, ids, label):
    logits, _ = model.logits(ids)
    if model.lm:
        return smoothed(logits[:-1], ids[1:])
    return smoothed(logits[None], [label])


def classifier_loss(model, ids, label):
    out = clf.forward(model, ids, what="label_smoothing")
    value = smoothed(out["logits"][None], [label])
    if "penalty" in out:
        value = value + model._keys.get("penaltyCoefficient", 0) * out["penalty"]
    return value


def ints(r, lo, hi, n):
    return [int(x) for x in r.integers(lo, hi, size=n)]


def padded(seqs):
    n = max(len(s) for s in seqs)
    return f32([s + [-1] * (n - len(s)) for s in seqs])


def finish(tensors, cases, name, arch, file, model, loss, t):
    loss.backward()
    t["loss"] = f32([float(loss)])
    for pname, p in model.named_parameters():
        t[f"grad.{pname}"] = f32(p.grad.detach().numpy())
    tensors.update({f"{name}.{k}": v for k, v in t.items()})
    cases.append({"name": name, "architecture": arch, "file": file, "loss": float(loss)})
    print(f"  {name}: loss {float(loss):.6f}, |grad| max "
          f"{max(float(p.grad.abs().max()) for p in model.parameters()):.3g}")


@fixture("label_smoothing")
def label_smoothing():
    tensors, cases = {}, []
    # seq2seq: a Bahdanau and a Luong model of models.py; targets end in eos
    for case in ["lstm_additive_bahdanau", "bilstm_concat_luong"]:
        file = f"model_{case}.safetensors"
        model, cfg = load(file, s2s.Seq2Seq.from_config)
        r = case_rng("label_smoothing", case)
        V, Vt = len(cfg["tokenizer"]["srcVocab"]), len(cfg["tokenizer"]["tgtVocab"])
        S_len, T_len = [5, 2, 7], [4, 1, 3]
        srcs = [ints(r, 4, V, n) for n in S_len]
        tgts = [ints(r, 4, Vt, n - 1) + [model.eos] for n in T_len]
        model.zero_grad()
        loss = sum(seq2seq_loss(model, s, t) for s, t in zip(srcs, tgts)) / sum(T_len)
        finish(tensors, cases, f"seq2seq_{case}", "seq2seq", file, model, loss,
               {"src": padded(srcs), "src_len": f32(S_len), "tgt": padded(tgts),
                "tgt_len": f32(T_len)})
    # transformer: each variant
    for case in ["encoder_learned_post", "decoder_learned", "encdec_relative"]:
        file = f"transformer_{case}.safetensors"
        model, cfg = load(file, tfm.Transformer.from_config)
        r = case_rng("label_smoothing", case)
        tok = cfg["tokenizer"]
        V, variant = len(tok["srcVocab"]), cfg["variant"]
        S_len = [5, 3, 7]
        srcs = [ints(r, 4, V, n) for n in S_len]
        t = {"src": padded(srcs), "src_len": f32(S_len)}
        if variant == "encoder-decoder":
            eos = tok["tgtVocab"].index(tok["eos"])
            T_len = [4, 1, 3]
            tgts = [ints(r, 4, V, n - 1) + [eos] for n in T_len]
            terms = sum(T_len)
        elif variant == "decoder":
            T_len, tgts, terms = [0, 0, 0], [[], [], []], sum(S_len) - 3
        else:
            T_len = list(S_len)
            tgts = [ints(r, 0, len(tok["tgtVocab"]), n) for n in S_len]
            terms = sum(T_len)
        if max(T_len) > 0:
            t.update(tgt=padded(tgts), tgt_len=f32(T_len))
        model.zero_grad()
        loss = sum(transformer_loss(model, s, g) for s, g in zip(srcs, tgts)) / terms
        finish(tensors, cases, f"transformer_{case}", "transformer", file, model, loss, t)
    # classifiers: attention pooling, and structured with Lin's penalty (added unsmoothed)
    texts = ["the cat sat on the red mat", "a dog ran", "not bad , the cat ran on the mat"]
    for case in ["attention_bilstm", "structured_bilstm_penalty"]:
        file = f"classifier_{case}.safetensors"
        model, cfg = load(file, clf.Classifier.from_config)
        docs = [clf.encode(cfg, x) for x in texts]
        labels = [2, 0, 1]
        model.zero_grad()
        loss = sum(classifier_loss(model, d, y) for d, y in zip(docs, labels)) / len(docs)
        finish(tensors, cases, f"classifier_{case}", "classifier", file, model, loss,
               {"src": padded(docs), "src_len": f32([len(d) for d in docs]),
                "label": f32(labels)})
    # memory-rnn: a language model and a sentence classifier
    for case in ["lm_sarnn_additive", "lm_lstm", "clf_lstmn"]:
        file = f"memory_rnn_{case}.safetensors"
        model, cfg = load(file, mrnn.MemoryRNN.from_config)
        batch = [mrnn.encode(cfg, "the big zebra cat sat on a red mat ."),
                 mrnn.encode(cfg, "a dog ran")]
        labels = [1, 2] if not model.lm else [None, None]
        model.zero_grad()
        terms = sum(len(s) - 1 for s in batch) if model.lm else len(batch)
        loss = sum(memory_loss(model, s, y) for s, y in zip(batch, labels)) / terms
        t = {"src": padded(batch), "src_len": f32([len(s) for s in batch])}
        if not model.lm:
            t["label"] = f32(labels)
        finish(tensors, cases, f"memory_rnn_{case}", "memory-rnn", file, model, loss, t)
    return tensors, {"fixture": "label_smoothing", "epsilon": str(EPS),
                     "generator": "scripts/fixture_modules/label_smoothing.py (torch.autograd, "
                                  "F.cross_entropy(label_smoothing), float64 from the float32 "
                                  "fixture weights)", "cases": dump_cases(cases)}
