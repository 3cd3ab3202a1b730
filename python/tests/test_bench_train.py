"""scripts/bench/torch_train.py, the benchmark's batched PyTorch training losses (the torch-1t and
torch-2t contenders of the train:<preset> rows), against this package's one-sentence references:
on a padded batch of sentences of different lengths, in float64, the batched loss (packed
encoder, [B, H] decoder steps, masked keys, keys projected once; the transformer with padding
and causal masks) equals the mean token NLL of Seq2Seq.encode / step and of transformer.forward
sentence by sentence, and so do the gradients. The JS side (attnlab's loss and gradients against
these) is tests/js/bench-train.test.js."""

import os
import sys

import pytest
import torch

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
import torch_train  # noqa: E402

from attnlab.torch.seq2seq import Seq2Seq  # noqa: E402
from attnlab.torch import transformer as tfm  # noqa: E402

VS, VT, BOS = 11, 9, 1


def batch(seed=0, B=4):
    """Sentences of different lengths, padded with 0 (as train.mjs writes them)."""
    g = torch.Generator().manual_seed(seed)
    src_len = torch.tensor([5, 2, 7, 3][:B])
    tgt_len = torch.tensor([3, 6, 2, 4][:B])
    S, T = int(src_len.max()), int(tgt_len.max())
    src = torch.zeros(B, S, dtype=torch.long)
    tgt = torch.zeros(B, T, dtype=torch.long)
    for b in range(B):
        src[b, :src_len[b]] = torch.randint(2, VS, (int(src_len[b]),), generator=g)
        tgt[b, :tgt_len[b]] = torch.randint(2, VT, (int(tgt_len[b]),), generator=g)
    return src, src_len, tgt, tgt_len


def grads(model, loss):
    model.zero_grad()
    loss.backward()
    return {n: p.grad.clone() for n, p in model.named_parameters()}


def check(model, batched, reference):
    lb, gb = batched(), None
    gb = grads(model, lb)
    lr = reference()
    gr = grads(model, lr)
    assert abs(float(lb) - float(lr)) <= 1e-10 * abs(float(lr))
    for n in gr:
        assert torch.allclose(gb[n], gr[n], rtol=0, atol=1e-10), n


SEQ2SEQ = [
    dict(cell="lstm", attention="additive"),
    dict(cell="lstm", attention="additive", bidirectional=True),
    dict(cell="lstm", attention="dot", style="luong", bidirectional=True, input_feeding=True),
    dict(cell="lstm", attention="none"),
    dict(cell="gru", attention="general", style="luong", num_layers=2, input_feeding=True),
    dict(cell="rnn", attention="dot", style="bahdanau"),
]


@pytest.mark.parametrize("kw", SEQ2SEQ, ids=lambda kw: "-".join(str(v) for v in kw.values()))
def test_seq2seq_batched_loss_is_the_per_sentence_loss(kw):
    torch.manual_seed(0)
    bi = kw.pop("bidirectional", False)
    model = Seq2Seq(src_vocab_size=VS, tgt_vocab_size=VT, embedding_size=6, hidden_size=8,
                    attention_size=8, bidirectional=bi, **kw).double()
    src, src_len, tgt, tgt_len = batch()

    def reference():
        total = 0.0
        for b in range(src.shape[0]):
            keys, state = model.encode([int(v) for v in src[b, :src_len[b]]])
            ys = [int(v) for v in tgt[b, :tgt_len[b]]]
            for t, y in enumerate(ys):
                logp, _, _, state = model.step(keys, state, ys[t - 1] if t else BOS, t)
                total = total - logp[y]
        return total / tgt_len.sum()

    check(model, lambda: torch_train.seq2seq_loss(model, BOS, src, src_len, tgt, tgt_len),
          reference)


@pytest.mark.parametrize("positions", ["learned", "relative", "sinusoidal"])
@pytest.mark.parametrize("norm_first", [True, False])
def test_transformer_batched_loss_is_the_per_sentence_loss(positions, norm_first):
    torch.manual_seed(0)
    extra = {"learned": dict(max_positions=8), "relative": dict(max_relative_position=3),
             "sinusoidal": {}}[positions]
    model = tfm.Transformer(src_vocab_size=VS, tgt_vocab_size=VT, variant="encoder-decoder",
                            embedding_size=8, num_heads=2, feedforward_size=12, num_layers=2,
                            positions=positions, norm_first=norm_first, final_norm=norm_first,
                            **extra).double()
    src, src_len, tgt, tgt_len = batch(1)

    def reference():
        total = 0.0
        for b in range(src.shape[0]):
            ys = [int(v) for v in tgt[b, :tgt_len[b]]]
            logits, _ = tfm.forward(model, [int(v) for v in src[b, :src_len[b]]], [BOS] + ys[:-1])
            logp = torch.log_softmax(logits, -1)
            total = total - logp[torch.arange(len(ys)), torch.tensor(ys)].sum()
        return total / tgt_len.sum()

    check(model, lambda: torch_train.transformer_loss(model, BOS, src, src_len, tgt, tgt_len),
          reference)
