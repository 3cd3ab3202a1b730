"""Small models of every architecture and the calls each one answers (forward, run, greedy,
beam, score, classify), shared by test_bigger.py and test_devices.py: one place that lists what
"every architecture's every entry point" means in those tests."""

import torch

import attnlab
from attnlab.torch import Classifier, MemoryRNN, Seq2Seq, Transformer, TransformerSeq2Seq
from attnlab.torch import classifier as clf
from attnlab.torch import memory_rnn as mr
from attnlab.torch import seq2seq as s2s
from attnlab.torch import transformer as tf

WORDS = ["<pad>", "<s>", "</s>", "<unk>", "a", "b", "c", "d", "."]
TEXT = "a b . c d ."      # a document of two sentences (han splits at ".")


def tok(specials=True):
    kw = {"bos": "<s>", "eos": "</s>"} if specials else {}
    return attnlab.Tokenizer(WORDS, type="word", **kw)


def zoo():
    """name -> a freshly seeded small module (float32, CPU)."""
    torch.manual_seed(0)
    t = tok()
    small = dict(embedding_size=8, num_heads=2, num_layers=1, feedforward_size=16)
    return {
        "seq2seq additive": Seq2Seq(t, hidden_size=8, embedding_size=4),
        "seq2seq local-p": Seq2Seq(t, hidden_size=8, embedding_size=4, cell="gru",
                                   attention="local-p", window=2),
        "transformer encoder": Transformer(t, variant="encoder", **small),
        "transformer decoder": Transformer(t, variant="decoder", positions="sinusoidal", **small),
        "transformer encoder-decoder": TransformerSeq2Seq(t, positions="relative", **small),
        "classifier attention": Classifier(tok(False), labels=2, hidden_size=8, embedding_size=4),
        "classifier han": Classifier(tok(False), labels=2, pooling="han", hidden_size=8,
                                     embedding_size=4, bidirectional=True),
        "classifier structured": Classifier(tok(False), labels=3, pooling="structured", hops=2,
                                            hidden_size=8, embedding_size=4, cell="gru"),
        "memory-rnn lstmn": MemoryRNN(tok(False), hidden_size=8, embedding_size=4),
        "memory-rnn sarnn classifier": MemoryRNN(tok(False), cell="self-attention-rnn",
                                                 head="classifier", labels=2, hidden_size=8,
                                                 embedding_size=4),
    }


def calls(name, m):
    """[(call name, fn(input))]: every entry point of that module taking one source sequence."""
    if name.startswith("seq2seq"):
        return [("forward", lambda x: m(x, [4, 5, 2])), ("run", m.run),
                ("run beam", lambda x: m.run(x, beam_width=2)),
                ("greedy", lambda x: s2s.greedy(m, x, 4)), ("beam", lambda x: s2s.beam(m, x, 2, 4)),
                ("score", lambda x: s2s.score(m, x, [4, 2]))]
    if name.startswith("transformer"):
        ed = m.variant == "encoder-decoder"
        out = [("forward", (lambda x: m(x, [1, 4])) if ed else m), ("run", m.run),
               ("tf.forward", lambda x: tf.forward(m, x, [1, 4] if ed else None))]
        if m.variant != "encoder":
            out.append(("greedy", lambda x: tf.greedy(m, x, 3)))
        return out
    if name.startswith("classifier"):
        return [("forward", m), ("run", m.run), ("classify", lambda x: clf.classify(m, x))]
    return [("forward", m), ("run", m.run), ("mr.forward", lambda x: mr.forward(m, x))]


def flat(x):
    """Every number in a result (dicts, tuples, lists, tensors), as a list of float64 tensors."""
    if isinstance(x, torch.Tensor):
        return [x.detach().cpu().double().reshape(-1)]
    if isinstance(x, dict):
        return [t for k in sorted(x, key=str) for t in flat(x[k])]
    if isinstance(x, (list, tuple)):
        return [t for v in x for t in flat(v)]
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return []
    if isinstance(x, (int, float)):
        return [torch.tensor([float(x)], dtype=torch.float64)]
    return []
