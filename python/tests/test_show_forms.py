"""attnlab.show(attention): every input form it takes, read back from the HTML it writes (the
maps, their values as float32, their labels, the colour scale), and every refusal, which names
the problem and the shape. The drawing itself: test_show_browser.py.
"""

import base64
import json
import os
import struct

import numpy as np
import pytest
import torch

import attnlab
from attnlab.show import show
from test_show import data_of

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "web", "models")


def f32(values):
    return [struct.unpack("<f", struct.pack("<f", float(v)))[0] for v in values]


def maps_of(out):
    """{(layer, head): (rows, cols, values, row labels, col labels)} of an output, and its data."""
    d, _, _ = data_of(out.html)
    raw = base64.b64decode(d["weights"])
    values = list(struct.unpack(f"<{len(raw) // 4}f", raw))
    if d["kind"] == "heatmap":
        return {(0, 0): (d["rows"], d["cols"], values, d["rowLabels"], d["colLabels"])}, d
    maps, at = {}, 0
    for m in d["maps"]:
        n = m["rows"] * m["cols"]
        maps[(m["layer"], m["head"])] = (m["rows"], m["cols"], values[at:at + n],
                                         d["labels"][m["r"]], d["labels"][m["c"]])
        at += n
    assert at == len(values)
    return maps, d


def attention(*shape, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.softmax(torch.randn(*shape, generator=g), -1)


def same_maps(out, a, rows=None, cols=None):
    """out draws every map of a ([L, H, T, S], a tensor) with these labels."""
    maps, d = maps_of(out)
    L, H, T, S = a.shape
    assert sorted(maps) == [(l, h) for l in range(L) for h in range(H)]
    for (l, h), (r, c, v, rl, cl) in maps.items():
        assert (r, c) == (T, S) and v == f32(a[l, h].reshape(-1).tolist())
        assert rl == (rows or [str(i) for i in range(T)]) and cl == (cols or [str(i) for i in range(S)])
    return d


TOKENS = ["the", "cat", "sat", "down"]


@pytest.mark.parametrize("convert", [lambda a: a, lambda a: a.numpy(), lambda a: a.tolist()],
                         ids=["torch", "numpy", "lists"])
def test_lhts_hts_and_ts_in_torch_numpy_and_lists(convert):
    a = attention(2, 3, 4, 4)
    d = same_maps(show(convert(a), tokens=TOKENS), a, TOKENS, TOKENS)
    assert d["kind"] == "grid" and (d["layers"], d["heads"]) == (2, 3)
    assert len(d["labels"]) == 1  # the tokens, written once for 6 maps
    d = same_maps(show(convert(a[1]), tokens=TOKENS), a[1:], TOKENS, TOKENS)
    assert (d["layers"], d["heads"]) == (1, 3)
    maps, d = maps_of(show(convert(a[1, 2]), tokens=TOKENS))
    assert d["kind"] == "heatmap" and maps[(0, 0)][2] == f32(a[1, 2].reshape(-1).tolist())
    assert maps[(0, 0)][3] == TOKENS


def test_a_hugging_face_tuple_of_per_layer_bhts_and_batch():
    layers = tuple(attention(2, 3, 4, 4, seed=s) for s in range(5))  # 5 layers, batch 2, 3 heads
    out = show(layers, tokens=TOKENS)
    same_maps(out, torch.stack([x[0] for x in layers]), TOKENS, TOKENS)
    assert "batch item 0 of 2 (batch= picks another)" in out.text
    out = show(list(layers), batch=1)
    same_maps(out, torch.stack([x[1] for x in layers]))
    assert "batch item 1 of 2" in out.text and "picks another" not in out.text
    same_maps(show(torch.stack(layers), batch=1), torch.stack([x[1] for x in layers]))  # [L, B, H, T, S]
    same_maps(show(layers[0], batch=1), layers[0][1:])  # one layer's [B, H, T, S]
    one = tuple(x[:1] for x in layers)  # a batch of one: nothing to say
    out = show(one)
    same_maps(out, torch.stack([x[0] for x in layers]))
    assert "batch" not in out.text


def test_cross_attention_labels_and_the_old_names():
    a = attention(1, 2, 3, 4)
    q, k = ["le", "chat", "</s>"], ["the", "cat", "sat", "."]
    same_maps(show(a, query_tokens=q, key_tokens=k), a, q, k)
    same_maps(show(a, rows=q, cols=k), a, q, k)
    maps, _ = maps_of(show(a[0, 0], rows="abc", cols="wxyz"))
    assert maps[(0, 0)][3:] == (list("abc"), list("wxyz"))


def test_the_colour_scale_fixed_fitted_or_set_and_said():
    a = attention(2, 2, 3, 3)
    out = show(a)
    d = maps_of(out)[1]
    assert (d["scale"], d["min"], d["max"]) == ("fixed", 0, 1) and "fixed 0–1" in d["caption"]
    assert "one colour scale fixed 0–1" in out.text
    d = maps_of(show(a * 4 - 1))[1]
    lo, hi = float((a * 4 - 1).min()), float((a * 4 - 1).max())
    assert d["scale"] == "fit" and (d["min"], d["max"]) == pytest.approx((lo, hi))
    assert f"fitted to the data ({lo:.4g} to {hi:.4g}" in d["caption"]
    d = maps_of(show(a, vmin=0, vmax=0.5))[1]
    assert (d["scale"], d["min"], d["max"]) == ("set", 0, 0.5)
    d = maps_of(show(a - 0.5, colormap="diverging"))[1]
    assert d["scale"] == "symmetric" and d["min"] == -d["max"]
    # one map: the same default, handed to <attn-heatmap> (scale 'fixed' or 'fit')
    assert maps_of(show(a[0, 0]))[1]["scale"] == "fixed"
    assert maps_of(show(a[0, 0] * 3))[1]["scale"] == "fit"
    assert maps_of(show(a[0, 0], vmin=0.1))[1]["scale"] is None


def load(name):
    return attnlab.load(os.path.join(MODELS, name + ".safetensors"))


def test_seq2seq_result_with_its_tokens():
    model = load("dates-additive")
    r = model.run("22 Nov 2026")
    maps, d = maps_of(show(r))
    ((T, S, v, rows, cols),) = maps.values()
    assert d["kind"] == "heatmap" and (T, S) == tuple(r["attention"].shape)
    assert v == f32(r["attention"].reshape(-1).tolist())
    assert rows == [model.tokenizer.tgt_vocab[i] for i in r["ids"]] and rows[-1] == "</s>"
    assert cols == model.tokenizer.split("22 Nov 2026")


@pytest.mark.parametrize("name, kinds", [
    ("en-fr-transformer-absolute", {"encoder": ("src", "src"), "decoder": ("fed", "fed"),
                                   "cross": ("fed", "src")}),
    ("tf-induction", {"decoder": ("fed", "fed")}),
])
def test_transformer_result_every_kind(name, kinds):
    model = load(name)
    r = model.run("the cat" if "en-fr" in name else "a b c a b")
    tok = model.tokenizer
    labels = {"src": [tok.src_vocab[i] for i in tok.encode("the cat" if "en-fr" in name else "a b c a b")],
              "fed": [(tok.tgt_vocab or tok.src_vocab)[i] for i in r["fed"]]}
    default = "cross" if "cross" in kinds else "decoder"
    for kind, (rows, cols) in kinds.items():
        out = show(r, kind=kind) if kind != default else show(r)
        maps, d = maps_of(out)
        mine = [m for m in r["attention"]
                if (m["kind"] == "cross" if kind == "cross" else m["kind"] == "self" and m["stack"] == kind)]
        assert len(maps) == len(mine) == d["layers"] * d["heads"]
        assert d["heads"] == (4 if "en-fr" in name else 2)
        for m in mine:
            _, _, v, rl, cl = maps[(m["layer"], m["head"])]
            assert v == f32(m["weights"].reshape(-1).tolist())
            assert (rl, cl) == (labels[rows], labels[cols])
        kind_name = "cross-attention" if kind == "cross" else f"{kind} self-attention"
        assert kind_name in out.text
        assert d["maps"][-1]["title"] == f"Layer {d['layers']}, head {d['heads']} ({kind_name})"


def test_transformer_encoder_result_and_forward():
    tok = attnlab.Tokenizer(["<unk>", "a", "b", "c"], tgt_vocab=["x", "y"])
    model = attnlab.torch.Transformer(tok, variant="encoder", num_layers=2, num_heads=2,
                                      embedding_size=8, feedforward_size=16)
    r = model.run("a b c")
    maps, d = maps_of(show(r))
    assert (d["layers"], d["heads"]) == (2, 2) and maps[(1, 1)][3:] == (["a", "b", "c"], ["a", "b", "c"])
    assert "encoder self-attention" in d["note"]
    assert maps_of(show(r["attention"], tokens="abc"))[0] == maps  # the list of maps alone
    maps, _ = maps_of(show(model(tok.encode("a b")), tokens=["a", "b"]))  # forward's dict, labelled
    assert maps[(0, 0)][3] == ["a", "b"] and len(maps) == 4


@pytest.mark.parametrize("name, rows", [
    ("clf-reviews-attention", [["attention"]]),
    ("clf-reviews-structured", [["hop 1", "hop 2", "hop 3", "hop 4"]]),
    ("clf-reviews-han", [["words"], ["sentences"]]),
])
def test_classifier_results_pooling_maps(name, rows):
    model = load(name)
    text = "the movie was great . i loved it"
    r = model.run(text)
    maps, d = maps_of(show(r))
    words = model.tokenizer.split(text)
    assert len(maps) == len(rows)
    for i, labels in enumerate(rows):
        R, n, v, rl, cl = maps[(i, 0)]
        assert rl == labels and v == f32(r["attention"][i].reshape(-1).tolist())
        assert cl == (words if labels != ["sentences"] else ["the movie was great .", "i loved it"])
    if len(rows) == 2:
        assert d["layerNames"] == ["words", "sentences"] and d["maps"][1]["title"] == "sentences"


def test_classifier_results_take_the_callers_words():
    r = load("clf-reviews-han").run("the movie was great . i loved it")
    words = "A B C D . F G H".split()
    for kw in ({"tokens": words}, {"key_tokens": words}):
        maps, _ = maps_of(show(r, **kw))
        assert maps[(0, 0)][3:] == (["words"], words)
        assert maps[(1, 0)][3:] == (["sentences"], ["A B C D .", "F G H"])  # han's spans, relabelled
    maps, _ = maps_of(show(load("clf-reviews-structured").run("the movie was great"), tokens="wxyz"))
    assert maps[(0, 0)][3:] == (["hop 1", "hop 2", "hop 3", "hop 4"], list("wxyz"))
    with pytest.raises(ValueError, match=r"query_tokens= labels queries, but this map's rows are \['words'\] "
                       r"\(a classifier's pooling, 1 × 8\), not tokens"):
        show(r, query_tokens=["x"])


def test_memory_rnn_result_and_the_lstm_without_attention():
    model = load("lm-agreement-lstmn")
    r = model.run("the keys to the cabinet are")
    maps, _ = maps_of(show(r))
    ((n, m, v, rl, cl),) = maps.values()
    assert n == m == len(r["ids"]) and rl == cl == [model.tokenizer.src_vocab[i] for i in r["ids"]]
    assert v == f32(r["attention"][0].reshape(-1).tolist())
    with pytest.raises(ValueError, match=r"no attention maps \('attention' is \[\]: a memory-rnn with the plain 'lstm' cell"):
        show(load("lm-agreement-lstm").run("the keys are"))


def test_a_js_result_read_from_json():
    r = {"attention": [{"layer": 0, "head": h, "weights": {"data": [0.25, 0.75, 1, 0], "shape": [2, 2]},
                        "rowLabels": ["a", "b"], "colLabels": ["x", "y"]} for h in range(2)]}
    maps, d = maps_of(show(json.loads(json.dumps(r))))
    assert (d["layers"], d["heads"]) == (1, 2) and maps[(0, 1)] == (2, 2, [0.25, 0.75, 1, 0], ["a", "b"], ["x", "y"])


@pytest.mark.parametrize("call, error, message", [
    (lambda: show(attention(2, 2, 2, 2, 2, 2)), ValueError,
     r"the attention is 6-D \(shape \[2, 2, 2, 2, 2, 2\]\); show takes \[T, S\], \[H, T, S\], \[L, H, T, S\]"),
    (lambda: show(np.zeros(3)), ValueError, r"is 1-D \(shape \[3\]\)"),
    (lambda: show(np.zeros((2, 0, 3))), ValueError, r"has an empty dimension \(shape \[2, 0, 3\]\)"),
    (lambda: show([[[0.5, 0.5], [1, 0]], [[1.0, 0.0]]]), ValueError,
     r"attention\[1\] has shape \[1, 2\] but attention\[0\] has \[2, 2\]: a ragged list"),
    (lambda: show((attention(1, 2, 3, 3), attention(1, 2, 4, 4))), ValueError,
     r"attention\[1\] has shape \[1, 2, 4, 4\] but attention\[0\] has \[1, 2, 3, 3\]"),
    (lambda: show(torch.tensor([[[0.5, float("nan")], [1, 0]]])), ValueError,
     r"attention\[0\]\[0\]\[1\] is nan; every weight must be finite \(shape \[1, 2, 2\]\)"),
    (lambda: show([[0.5, float("inf")]]), ValueError, r"attention\[0\]\[1\] is inf; .*\(shape \[1, 2\]\)"),
    (lambda: show(attention(2, 3, 4, 4), tokens=["a", "b"]), ValueError,
     r"tokens= has 2 labels but the attention has 4 queries \(rows\) \(maps 4 × 4"),
    (lambda: show(attention(2, 3, 4), tokens="abcd"), ValueError,
     r"tokens= labels both axes of self-attention, but the maps are 3 × 4 .*query_tokens= and key_tokens="),
    (lambda: show(attention(2, 3, 4), query_tokens="abc", key_tokens="ab"), ValueError,
     r"key_tokens= has 2 labels but the attention has 4 keys \(columns\) \(maps 3 × 4"),
    (lambda: show(tuple(attention(2, 1, 3, 3) for _ in range(2)), batch=2), ValueError,
     r"batch=2 is out of range: the attention has a batch of 2 \(shape \[2, 2, 1, 3, 3\]"),
    (lambda: show(attention(2, 3, 3), batch=0), ValueError,
     r"batch=0 picks an item of \[B, H, T, S\].*this attention has shape \[2, 3, 3\], with no batch"),
    (lambda: show(load("tf-induction").run("a b"), kind="encoder"), ValueError,
     r"this result has no 'encoder' maps; kind= is one of \['decoder'\] here"),
    (lambda: show(load("tf-induction").run("a b"), kind="self"), ValueError,
     r"unknown kind 'self'; kind= is 'encoder', 'decoder' or 'cross'"),
    (lambda: show(attention(3, 3), kind="cross"), ValueError, r"kind='cross' picks a transformer result's"),
    (lambda: show({"logits": torch.zeros(3)}), ValueError,
     r"this dict has no 'attention' \(its keys: logits\); pass what model.run\(text\)"),
    (lambda: show(attention(3, 3), tokens="abc", rows="abc"), TypeError, r"tokens= labels both axes; give it, or"),
    (lambda: show(attention(3, 3), rows="abc", query_tokens="abc"), TypeError, r"rows= is the old name of query_tokens="),
    (lambda: show(attention(3, 3), vmin=1, vmax=0), ValueError, r"the colour range 1 to 0 is empty"),
])
def test_refusals_name_the_problem_and_the_shape(call, error, message):
    with pytest.raises(error, match=message):
        call()
