"""The `states=True` argument of the PyTorch references (docs/states.md): Seq2Seq.forward and
MemoryRNN.forward return the intermediate states under the JS names, and they are consistent:
the weights are the result's attention, softmax of the scores (over the entries not -inf) gives
the weights, bahdanau scores read s_{t-1} and luong ones s_t, the summaries are the weighted sums
of the states they attend over. Values against attnlab itself: tests/js/states-*.test.js."""

import math

import pytest
import torch

from attnlab.torch import MemoryRNN, Seq2Seq

torch.manual_seed(0)


def softmax_finite(e):
    """softmax over the finite entries of each row (0 elsewhere)."""
    return torch.softmax(e, -1).nan_to_num(0.0) if torch.isfinite(e).any() else torch.zeros_like(e)


@pytest.mark.parametrize("attention,style", [("additive", "bahdanau"), ("general", "luong"),
                                             ("key-query", "bahdanau"), ("none", "luong")])
def test_seq2seq_states(attention, style):
    m = Seq2Seq(src_vocab_size=9, tgt_vocab_size=7, cell="gru", attention=attention, style=style,
                embedding_size=4, hidden_size=6).double()
    out = m([1, 2, 3, 4], [3, 4, 5], states=True)
    st = out["states"]
    assert st["style"] == style and st["attention"] == attention
    assert st["embedded"].shape == (4, 4) and st["encoder"].shape == (4, 6)
    assert torch.equal(st["weights"], out["attention"]) and torch.equal(st["logProbs"],
                                                                        out["log_probs"])
    assert torch.allclose(st["initial"], st["encoder"][-1])  # one unidirectional GRU layer
    if attention == "none":
        assert not {"query", "scores", "context", "attentional"} & set(st)
        return
    for t in range(3):
        torch.testing.assert_close(torch.softmax(st["scores"][t], -1), st["weights"][t])
        want = st["decoder"][t] if style == "luong" else (st["decoder"][t - 1] if t else
                                                         st["initial"])
        assert torch.equal(st["query"][t], want)
    assert ("attentional" in st) == (style == "luong")
    if attention != "key-query":
        torch.testing.assert_close(st["context"], st["weights"] @ st["encoder"])


def test_seq2seq_local_scores_are_minus_inf_outside_the_window():
    m = Seq2Seq(src_vocab_size=9, tgt_vocab_size=7, cell="lstm", attention="local-m",
                embedding_size=4, hidden_size=6, window=1).double()
    st = m(list(range(1, 8)), [3, 4, 5], states=True)["states"]
    for t in range(3):
        inside = [j for j in range(7) if abs(j - t) <= 1]
        assert all(math.isinf(st["scores"][t, j]) == (j not in inside) for j in range(7))
        assert torch.equal(st["positions"], torch.tensor([0.0, 1.0, 2.0], dtype=torch.float64))


@pytest.mark.parametrize("cell", ["lstmn", "self-attention-rnn", "lstm"])
def test_memory_rnn_states(cell):
    m = MemoryRNN(vocab_size=9, cell=cell, head="lm", embedding_size=4, hidden_size=5,
                  attention_size=3).double()
    out = m([1, 2, 3, 4, 5], states=True)
    st = out["states"]
    assert st["cell"] == {"self-attention-rnn": "sarnn"}.get(cell, cell)
    assert st["hidden"].shape == (5, 5) and st["embedded"].shape == (5, 4)
    assert ("memory" in st) == (cell != "self-attention-rnn")
    if cell == "lstm":
        assert not {"scores", "weights", "summary"} & set(st)
        h, (_, c) = m.cell.__class__.__bases__[0].forward(m.cell, st["embedded"][None])
        torch.testing.assert_close(st["memory"][-1], c[0, 0])
        return
    assert torch.equal(st["weights"], out["attention"][0])
    for t in range(5):
        row = st["scores"][t]
        read = list(range(t)) if cell == "lstmn" else list(range(t + 1))
        assert all(math.isinf(row[i]) == (i not in read) for i in range(5))
        torch.testing.assert_close(softmax_finite(row), st["weights"][t])
    torch.testing.assert_close(st["summary"], st["weights"] @ st["hidden"])
    if cell == "lstmn":
        torch.testing.assert_close(st["memorySummary"], st["weights"] @ st["memory"])
