"""PyTorch reference fixtures for the "transformer" architecture (src/models/transformer.c,
docs/models.md "Architecture transformer", python/attnlab/torch/transformer.py).

Writes, with `/usr/bin/python3 scripts/gen_fixtures.py transformer_model_reference
transformer_train_gradients` (in that order: the second reads the models the first writes):
  tests/fixtures/transformer_<case>.safetensors   one tiny random model per case (E=8, h=2,
                                                  2 layers, F=16, 12-symbol vocabularies)
  tests/fixtures/transformer_model_reference.safetensors  per case: the input ids (F32 holding
      integers), PyTorch's logits of one forward, and every layer's per-head attention
      ("att.<stack>.<kind>.<layer>" [H, T, S]); decoder and encoder-decoder also the greedy
      output (ids, log-probs) and the fed sequence whose forward gives the logits/attention.
Cases: encoder with learned positions, post-norm, relu, final norm, exported straight from an
nn.TransformerEncoder's state_dict (plus embedding.weight, pos_embedding.weight, out.*);
encoder with sinusoidal positions, pre-norm, gelu, scaled embeddings; decoder-only (causal)
with learned positions, greedy; encoder-decoder (nn.TransformerEncoder/Decoder, final norms,
sinusoidal), greedy with cross-attention.
Relative positions (Shaw et al. 2018, RelativeMultiheadAttention of python/attnlab/torch/transformer.py):
an encoder (k = 2, post-norm), a decoder-only model (k = 3, pre-norm, gelu) and an
encoder-decoder (k = 2, pre-norm, scaled embeddings), sequences longer than k + 1 so the
clipping is exercised.
The references run the float32 weights in float64; greedy cases need a top-1 margin > 2e-3 at
every step and must stop on eos after 3 to 8 steps.

  tests/fixtures/transformer_train_gradients.safetensors  per case (the models above, read back
      from their files): a batch of 3 examples of different lengths (docs/training.md: encoder
      src + one label per position; decoder a sequence, S - 1 next-token terms; encoder-decoder
      src + tgt ending in eos), the mean loss over every term of the batch and its gradient for
      every parameter, from torch.autograd in float64. Tensors "<case>.src" [3, S_max],
      "<case>.tgt" [3, T_max] (not for the decoder; F32 integer ids padded with -1),
      "<case>.src_len", "<case>.tgt_len" [3], "<case>.loss" [1], "<case>.grad.<name>".
Does not: run attnlab (tests/js/transformer-model.test.js and tests/c/test_transformer_model.c
do).
"""

import json
import os

import numpy as np
import torch

from fixtures_lib import case_rng, dump_cases, f32, fixture, read_safetensors

from attnlab.torch import transformer as tfm  # noqa: E402  (python/ is on sys.path: fixtures_lib)

OUT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "tests", "fixtures")

SPECIALS = ["<pad>", "<s>", "</s>", "<unk>"]
CHARS = SPECIALS + list("abcdefgh")          # 12 symbols
LABELS = ["O", "B", "I", "X", "Y"]           # token classes of the encoder cases

CASES = [
    ("encoder_learned_post", dict(variant="encoder", positions="learned", maxPositions=10,
                                  normFirst=False, activation="relu", finalNorm=True)),
    ("encoder_sinusoidal_pre_gelu", dict(variant="encoder", positions="sinusoidal",
                                         normFirst=True, activation="gelu",
                                         scaleEmbedding=True)),
    ("decoder_learned", dict(variant="decoder", positions="learned", maxPositions=16,
                             normFirst=True, activation="relu", finalNorm=True)),
    ("encdec_sinusoidal", dict(variant="encoder-decoder", positions="sinusoidal",
                               normFirst=False, activation="relu", finalNorm=True,
                               scaleEmbedding=True)),
    ("encoder_relative", dict(variant="encoder", positions="relative", maxRelativePosition=2,
                              normFirst=False, activation="relu", finalNorm=True)),
    ("decoder_relative", dict(variant="decoder", positions="relative", maxRelativePosition=3,
                              normFirst=True, activation="gelu", finalNorm=True)),
    ("encdec_relative", dict(variant="encoder-decoder", positions="relative",
                             maxRelativePosition=2, normFirst=True, activation="relu",
                             finalNorm=True, scaleEmbedding=True)),
]


def make_config(opts):
    cfg = {"architecture": "transformer", "embeddingSize": 8, "numHeads": 2,
           "feedforwardSize": 16, "numLayers": 2, "maxLength": 8}
    cfg.update(opts)
    tgt = LABELS if opts["variant"] == "encoder" else CHARS
    cfg["tokenizer"] = {"type": "char", "srcVocab": CHARS, "tgtVocab": tgt, "pad": "<pad>",
                        "unk": "<unk>"}
    if opts["variant"] != "encoder":
        cfg["tokenizer"].update(bos="<s>", eos="</s>")
    return cfg


def init(model, r):
    """Random float32 weights: embeddings N(0,1), out N(0,1.5) (peaked argmaxes), norms
    1 + N(0,0.3) / N(0,0.3), the rest N(0,0.45)."""
    for name, t in model.state_dict().items():
        if "norm" in name and name.endswith("weight"):
            v = 1.0 + 0.3 * r.standard_normal(tuple(t.shape))
        elif "norm" in name:
            v = 0.3 * r.standard_normal(tuple(t.shape))
        else:
            std = 1.0 if "embedding" in name else 1.5 if name.startswith("out.") else 0.45
            v = r.standard_normal(tuple(t.shape)) * std
        t.copy_(torch.from_numpy(f32(v)))


@fixture("transformer_model_reference")
def transformer_model_reference():
    tensors, cases = {}, []
    for name, opts in CASES:
        cfg = make_config(opts)
        tok = cfg["tokenizer"]
        V = len(CHARS)
        done = False
        for attempt in range(400):
            r = case_rng("transformer_model_reference", f"{name}/{attempt}")
            torch.manual_seed(0)
            model = tfm.Transformer.from_config(cfg)
            with torch.no_grad():
                init(model, r)
                if opts["variant"] != "encoder":
                    model.out.bias[tok["tgtVocab"].index("</s>")] += float(r.uniform(0.0, 3.0))
            ref = tfm.Transformer.from_config(cfg).double()
            ref.load_state_dict({k: v.double() for k, v in model.state_dict().items()})
            S = int(r.integers(3, 7))
            src = [int(x) for x in r.integers(4, V, size=S)]
            meta = {}
            if opts["variant"] == "encoder":
                with torch.no_grad():
                    logits, att = tfm.forward(ref, src)
                ok, extra = True, {}
            else:
                with torch.no_grad():
                    ids, lps, fed, margin = tfm.greedy(ref, src, cfg["maxLength"])
                    if opts["variant"] == "decoder":
                        logits, att = tfm.forward(ref, fed)
                    else:
                        logits, att = tfm.forward(ref, src, fed)
                eos = tok["tgtVocab"].index("</s>")
                ok = margin > 2e-3 and ids[-1] == eos and 3 <= len(ids) <= 8
                extra = {"greedy_ids": f32(ids), "greedy_logp": f32(lps), "fed": f32(fed)}
                meta = {"margin": margin, "steps": len(ids)}
            if ok:
                done = True
                break
        assert done, f"{name}: no well-conditioned model in 400 attempts"
        sd = model.state_dict()
        if name == "encoder_learned_post":
            # the layers come from a real nn.TransformerEncoder's state_dict, unchanged
            enc = torch.nn.TransformerEncoder(
                torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True), 2,
                norm=torch.nn.LayerNorm(8), enable_nested_tensor=False)
            enc.load_state_dict({k: v for k, v in sd.items()
                                 if k.startswith("layers.") or k.startswith("norm.")})
            sd = dict(enc.state_dict())
            sd.update({k: v for k, v in model.state_dict().items()
                       if not (k.startswith("layers.") or k.startswith("norm."))})
            assert set(sd) == set(model.state_dict())
        path = os.path.join(OUT_DIR, f"transformer_{name}.safetensors")
        tfm.export(model, cfg, path, sd)
        t = {"src": f32(src), "logits": f32(logits)}
        t.update(extra)
        for (stack, kind, layer), w in att.items():
            t[f"att.{stack}.{kind}.{layer}"] = f32(w)
        tensors.update({f"{name}.{k}": v for k, v in t.items()})
        cases.append({"name": name, "file": f"transformer_{name}.safetensors",
                      "variant": opts["variant"], "attempt": attempt, **meta})
        print(f"  {name}: attempt {attempt}, S={len(src)}, {meta}, "
              f"{os.path.getsize(path)} bytes")
    return tensors, {"fixture": "transformer_model_reference",
                     "generator": "scripts/fixture_modules/transformer_models.py (torch float64 "
                                  "from float32 weights)", "cases": dump_cases(cases)}


@fixture("transformer_train_gradients")
def transformer_train_gradients():
    tensors, cases = {}, []
    for name, opts in CASES:
        weights, meta = read_safetensors(os.path.join(OUT_DIR, f"transformer_{name}.safetensors"))
        cfg = json.loads(meta["config"])
        torch.manual_seed(0)
        model = tfm.Transformer.from_config(cfg).double()
        model.load_state_dict({k: torch.from_numpy(np.asarray(v, dtype=np.float64))
                               for k, v in weights.items()})
        r = case_rng("transformer_train_gradients", name)
        tok = cfg["tokenizer"]
        V, variant = len(tok["srcVocab"]), cfg["variant"]
        S_len = [int(r.integers(4, 8)), int(r.integers(2, 4)), int(r.integers(5, 9))]
        srcs = [[int(x) for x in r.integers(4, V, size=n)] for n in S_len]
        if variant == "encoder-decoder":
            eos = tok["tgtVocab"].index(tok["eos"])
            T_len = [int(r.integers(3, 7)), 1, int(r.integers(2, 5))]
            tgts = [[int(x) for x in r.integers(4, V, size=n - 1)] + [eos] for n in T_len]
            terms = sum(T_len)
        elif variant == "decoder":
            T_len, tgts = [0, 0, 0], [[], [], []]
            terms = sum(S_len) - 3
        else:
            T_len = list(S_len)
            tgts = [[int(x) for x in r.integers(0, len(tok["tgtVocab"]), size=n)] for n in S_len]
            terms = sum(T_len)
        model.zero_grad()
        loss = sum(tfm.nll(model, s, t) for s, t in zip(srcs, tgts)) / terms
        loss.backward()
        S_max, T_max = max(S_len), max(T_len)
        pad = lambda seqs, n: f32([s + [-1] * (n - len(s)) for s in seqs])  # noqa: E731
        t = {"src": pad(srcs, S_max), "src_len": f32(S_len), "tgt_len": f32(T_len),
             "loss": f32([float(loss)])}
        if T_max > 0:
            t["tgt"] = pad(tgts, T_max)
        for pname, p in model.named_parameters():
            t[f"grad.{pname}"] = f32(p.grad.detach().numpy())
        assert set(k[5:] for k in t if k.startswith("grad.")) == set(weights), name
        tensors.update({f"{name}.{k}": v for k, v in t.items()})
        cases.append({"name": name, "file": f"transformer_{name}.safetensors",
                      "variant": variant, "loss": float(loss)})
        print(f"  {name}: loss {float(loss):.6f}, |grad| max "
              f"{max(float(p.grad.abs().max()) for p in model.parameters()):.3g}")
    return tensors, {"fixture": "transformer_train_gradients",
                     "generator": "scripts/fixture_modules/transformer_models.py (torch.autograd, "
                                  "float64 from the float32 fixture weights)",
                     "cases": dump_cases(cases)}
