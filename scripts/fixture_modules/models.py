"""PyTorch reference fixtures for whole models (src/models/, docs/models.md).

Writes, with `/usr/bin/python3 scripts/gen_fixtures.py model_reference`:
  tests/fixtures/model_<case>.safetensors   one tiny random seq2seq model per case (a few KB,
                                            15-symbol vocabularies), exactly what loadModel reads
  tests/fixtures/model_reference.safetensors  per case: the source ids (F32 holding integers), PyTorch's greedy
                                            output (ids, log-probs, attention, p_t), a beam-3 output,
                                            and teacher-forced log-probs, attention, p_t and the
                                            whole log-distributions for a fixed target
The references run the float32 weights in float64 (model.double()). Each case is checked to be
well-conditioned for float32 vs float64: the greedy argmax wins by > 2e-3 at every step, and for
local-p every p_t ± D stays > 1e-3 from an integer (the window edge). The eos bias is nudged per
case so greedy decoding stops on eos after 3 to 11 steps (lstm_none instead runs to maxLength
without eos).

Does not: run attnlab (tests/js/model.test.js and tests/c/test_models.c do).
"""

import math
import os

import numpy as np
import torch

from fixtures_lib import case_rng, dump_cases, f32, fixture


from attnlab.torch import seq2seq as s2s  # noqa: E402  (python/ is on sys.path: fixtures_lib)

OUT_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "tests", "fixtures")

SPECIALS = ["<pad>", "<s>", "</s>", "<unk>"]
CHARS = SPECIALS + list("abcdefghijk")
WORDS = SPECIALS + "the cat sat on mat a dog ran big red blue".split()

CASES = [
    ("lstm_additive_bahdanau", dict(cell="lstm", attention="additive", style="bahdanau",
                                    attentionSize=5)),
    ("gru_general_luong_feed", dict(cell="gru", attention="general", style="luong",
                                    inputFeeding=True, tokenizer="word")),
    ("bilstm_concat_luong", dict(cell="lstm", bidirectional=True, numLayers=2, attention="concat",
                                 style="luong", attentionSize=5, inputFeeding=True)),
    ("rnn_dot_luong", dict(cell="rnn", attention="dot", style="luong")),
    ("gru_dot_bahdanau", dict(cell="gru", attention="dot", style="bahdanau")),
    ("lstm_local_p", dict(cell="lstm", attention="local-p", style="luong", score="general",
                          window=2, positionSize=4, inputFeeding=True)),
    ("gru_local_m_concat", dict(cell="gru", attention="local-m", style="luong", score="concat",
                                attentionSize=5, window=1)),
    ("lstm_key_query_bahdanau", dict(cell="lstm", attention="key-query", style="bahdanau",
                                     keySize=4, valueSize=6, scaled=True)),
    ("bigru_key_query_luong", dict(cell="gru", bidirectional=True, attention="key-query",
                                   style="luong", keySize=5, valueSize=3, scaled=False)),
    ("rnn_relu_additive_luong", dict(cell="rnn", nonlinearity="relu", numLayers=2,
                                     attention="additive", style="luong", attentionSize=4)),
    ("lstm_none", dict(cell="lstm", attention="none", style="bahdanau")),
    ("bilstm_local_p_bahdanau", dict(cell="lstm", bidirectional=True, attention="local-p",
                                     style="bahdanau", score="dot", window=2, positionSize=3)),
]


def make_config(opts):
    vocab = WORDS if opts.get("tokenizer") == "word" else CHARS
    cfg = {"architecture": "seq2seq", "embeddingSize": 6, "hiddenSize": 8, "numLayers": 1,
           "maxLength": 12}
    cfg.update({k: v for k, v in opts.items() if k != "tokenizer"})
    cfg["tokenizer"] = {"type": opts.get("tokenizer", "char"), "srcVocab": vocab,
                        "tgtVocab": vocab, "pad": "<pad>", "bos": "<s>", "eos": "</s>",
                        "unk": "<unk>"}
    return cfg


def init(model, r):
    """Random float32 weights: embeddings N(0,1), the output layer N(0,1.5) (peaked, so argmax
    margins are large), attention vectors N(0,1), everything else N(0,0.45)."""
    sd = model.state_dict()
    for name, t in sd.items():
        std = 0.45
        if "embedding" in name:
            std = 1.0
        elif name.startswith("out."):
            std = 1.5
        elif name in ("attention.v", "attention.v_a", "attention.v_p"):
            std = 1.0
        t.copy_(torch.from_numpy(f32(r.standard_normal(tuple(t.shape)) * std)))


def edge_ok(ps, D):
    return all(abs((p - D) - round(p - D)) > 1e-3 and abs((p + D) - round(p + D)) > 1e-3
               for p in ps)


@fixture("model_reference")
def model_reference():
    tensors, cases = {}, []
    for name, opts in CASES:
        cfg = make_config(opts)
        V = len(cfg["tokenizer"]["tgtVocab"])
        eos = cfg["tokenizer"]["tgtVocab"].index("</s>")
        done = False
        for attempt in range(200):
            r = case_rng("model_reference", f"{name}/{attempt}")
            torch.manual_seed(0)
            model = s2s.Seq2Seq.from_config(cfg)
            with torch.no_grad():
                init(model, r)
                # nudge the eos bias so greedy decoding stops on eos within 3..11 steps
                model.out.bias[eos] += float(r.uniform(0.0, 3.0))
            ref = s2s.Seq2Seq.from_config(cfg).double()
            ref.load_state_dict({k: v.double() for k, v in model.state_dict().items()})
            S = int(r.integers(4, 8))
            src = [int(x) for x in r.integers(4, V, size=S)]
            ids, lps, atts, pos, margin = s2s.greedy(ref, src)
            stops = ids[-1] == eos and 3 <= len(ids) <= 11
            T = 6
            tgt = [int(x) for x in r.integers(4, V, size=T - 1)] + [eos]
            tl, ta, tp, td = s2s.score(ref, src, tgt)
            # lstm_none runs to max_length without eos; every other case stops on eos
            if name == "lstm_none":
                stops = len(ids) == cfg["maxLength"] and ids[-1] != eos
            ok = margin > 2e-3 and stops
            if cfg["attention"] == "local-p":
                ok = ok and edge_ok(pos.tolist(), cfg["window"]) and \
                    edge_ok(tp.tolist(), cfg["window"])
            if ok:
                done = True
                break
        assert done, f"{name}: no well-conditioned model in 200 attempts"
        beam_ids = s2s.beam(ref, src, 3)
        # the teacher-forced log-probs of the greedy output equal its greedy log-probs
        gl, ga, _, _ = s2s.score(ref, src, ids)
        assert torch.allclose(gl, lps) and torch.allclose(ga, atts), name
        path = os.path.join(OUT_DIR, f"model_{name}.safetensors")
        s2s.export(model, cfg, path)
        # ids are stored as F32 (exact small integers) so the C loader, which reads float
        # tensors only, can read this file in tests/c/test_models.c
        t = {"src": f32(src), "greedy_ids": f32(ids),
             "greedy_logp": f32(lps), "greedy_att": f32(atts), "greedy_pos": f32(pos),
             "beam3_ids": f32(beam_ids), "tgt": f32(tgt), "tf_logp": f32(tl), "tf_att": f32(ta),
             "tf_pos": f32(tp), "tf_dist": f32(td)}
        tensors.update({f"{name}.{k}": v for k, v in t.items()})
        cases.append({"name": name, "file": f"model_{name}.safetensors", "attempt": attempt,
                      "margin": margin, "stopsOnEos": ids[-1] == eos,
                      "attention": cfg["attention"], "style": cfg["style"]})
        print(f"  {name}: attempt {attempt}, S={len(src)}, greedy {len(ids)} steps, "
              f"margin {margin:.3g}, beam3 {'same' if beam_ids == ids else 'differs'}, "
              f"{os.path.getsize(path)} bytes")
    return tensors, {"fixture": "model_reference",
                     "generator": "scripts/fixture_modules/models.py (torch float64 from float32 "
                                  "weights)", "cases": dump_cases(cases)}
