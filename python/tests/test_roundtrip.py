"""Round trip of every architecture: a tiny model of each attnlab.torch module is trained a few
steps in PyTorch, exported, run by the JS library in Node (loadModel, the public Model API), and
compared with PyTorch at atol 1e-5: outputs (greedy ids, labels), log-probabilities and
distributions, attention weights (every map), local positions, class probabilities, the HAN
sentence weights and the structured penalty. attnlab.load of each file gives the module back:
the same config, the same tensors, the same outputs.

Node runs every file with the SIMD128 build and with the scalar build (init({ simd: false })),
one process each (the `roundtrip` fixture), so the file takes seconds.
"""

import pytest
import torch

import attnlab
from attnlab.torch import Classifier, MemoryRNN, Seq2Seq, Transformer, TransformerSeq2Seq
from conftest import close, node

SRC = ["abcde", "bcdea", "cab", "edcba", "dabc", "aebdc"]
WORDS = ["the cat sat . a dog ran .", "a big red dog sat on the mat .", "the mat . the cat",
         "red cat ran on a big dog ."]


def char_tokenizer():
    return attnlab.Tokenizer.fit(SRC, [s[::-1] for s in SRC], type="char")


def word_tokenizer(**kw):
    return attnlab.Tokenizer.fit(WORDS, type="word", **kw)


def train(model, loss_fn, steps=6, lr=0.05):
    """A few Adam steps, so the exported weights are trained ones, not the initialisation."""
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    first = None
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(model)
        loss.backward()
        opt.step()
        first = float(loss) if first is None else first
    assert float(loss_fn(model)) < first, "training did not lower the loss"
    return model


def seq2seq_loss(model):
    tok = model.tokenizer
    total = 0
    for s in SRC[:4]:
        tgt = tok.encode_target(s[::-1]) + [tok.eos_id]
        lp = model(tok.encode(s), tgt)["log_probs"]
        total = total - lp[torch.arange(len(tgt)), torch.tensor(tgt)].sum()
    return total


SEQ2SEQ = {
    "lstm-additive": dict(cell="lstm", attention="additive", attention_size=5),
    "gru-dot": dict(cell="gru", attention="dot"),
    "rnn-general-feed": dict(cell="rnn", attention="general", input_feeding=True),
    "bilstm-concat-2layers": dict(cell="lstm", attention="concat", bidirectional=True,
                                  num_layers=2, attention_size=5),
    "gru-local-p": dict(cell="gru", attention="local-p", window=2, position_size=4),
    "lstm-none": dict(cell="lstm", attention="none"),
    "gru-local-m-concat": dict(cell="gru", attention="local-m", window=2, score="concat",
                               attention_size=4),
    "lstm-key-query": dict(cell="lstm", attention="key-query", key_size=4, value_size=6,
                           style="luong"),
}
TRANSFORMERS = {
    "encdec-learned": (TransformerSeq2Seq, dict(positions="learned", max_positions=12)),
    "encdec-relative-prenorm": (TransformerSeq2Seq, dict(positions="relative",
                                                         max_relative_position=2,
                                                         norm_first=True)),
    "decoder-sinusoidal-gelu": (Transformer, dict(variant="decoder", positions="sinusoidal",
                                                  activation="gelu", final_norm=True)),
    "encoder-learned": (Transformer, dict(variant="encoder", positions="learned",
                                          max_positions=12, scale_embedding=True)),
}
CLASSIFIERS = {
    "attention-bilstm": dict(pooling="attention", cell="lstm", bidirectional=True),
    "han-gru": dict(pooling="han", cell="gru", attention_size=5, sentence_hidden_size=6),
    "structured-bigru": dict(pooling="structured", cell="gru", bidirectional=True, hops=3,
                             attention_size=5, penalty_coefficient=0.5),
}
MEMORY = {
    "lstmn-lm": dict(cell="lstmn", head="lm"),
    "sarnn-additive-lm": dict(cell="self-attention", head="lm", attention_size=5),
    "sarnn-dot-classifier": dict(cell="self-attention", align="dot", head="classifier",
                                 attention_size=4, labels=["no", "yes"], pool="mean"),
    "lstm-lm": dict(cell="lstm", head="lm"),
    "lstmn-classifier": dict(cell="lstmn", head="classifier", labels=["a", "b", "c"]),
}


def build(tmp_models):
    """Every case: (kind, name, module, file, the calls for Node)."""
    torch.manual_seed(0)
    cases = []
    for name, kw in SEQ2SEQ.items():
        tok = char_tokenizer()
        m = train(Seq2Seq(tok, embedding_size=6, hidden_size=8, **kw), seq2seq_loss)
        src, tgt = "abdce", tok.encode_target("ecdba") + [tok.eos_id]
        cases.append(("seq2seq", name, m, [["run", src], ["score", src, tgt],
                                           ["run", src, {"beamWidth": 3}]], (src, tgt)))
    for name, (cls, kw) in TRANSFORMERS.items():
        if cls is TransformerSeq2Seq:
            tok = char_tokenizer()

            def loss(m, tok=tok):
                total = 0
                for s in SRC[:4]:
                    tgt = tok.encode_target(s[::-1]) + [tok.eos_id]
                    logits = m(tok.encode(s), [tok.bos_id] + tgt[:-1])["logits"]
                    total = total + torch.nn.functional.cross_entropy(logits, torch.tensor(tgt))
                return total
            m = cls(tok, embedding_size=8, num_heads=2, feedforward_size=12, num_layers=2, **kw)
            src, fed = "abdce", [tok.bos_id] + tok.encode_target("ecd")
            calls = [["run", src], ["forward", src, fed]]
        else:
            tok = word_tokenizer()
            if kw["variant"] == "encoder":
                tok = attnlab.Tokenizer(tok.src_vocab, tgt_vocab=["<pad>", "DET", "NOUN", "X"],
                                        unk="<unk>", pad="<pad>")

                def loss(m, tok=tok):
                    ids = tok.encode(WORDS[0])
                    lab = torch.tensor([1 if tok.src_vocab[i] in ("the", "a") else 2 for i in ids])
                    return torch.nn.functional.cross_entropy(m(ids)["logits"], lab)
            else:
                def loss(m, tok=tok):
                    ids = tok.encode(WORDS[0])
                    return torch.nn.functional.cross_entropy(m(ids)["logits"][:-1],
                                                             torch.tensor(ids[1:]))
            m = cls(tok, embedding_size=8, num_heads=2, feedforward_size=12, num_layers=2, **kw)
            src = "the big cat sat on a mat"
            calls = [["run", src], ["forward", src]] if kw["variant"] == "encoder" else \
                [["run", src, {"maxLength": 5}], ["forward", src]]
            fed = None
        train(m, loss)
        cases.append(("transformer", name, m, calls, (src, fed)))
    for name, kw in CLASSIFIERS.items():
        tok = word_tokenizer(normalize=["lowercase", "punctuation"])

        def loss(m, tok=tok):
            return sum(-torch.log(m(tok.encode(t))["probs"][y]) for y, t in zip([0, 1, 2, 1], WORDS))
        m = train(Classifier(tok, labels=["x", "y", "z"], embedding_size=6, hidden_size=8, **kw),
                  loss)
        text = "The cat ran. A zebra sat on the red mat."
        cases.append(("classifier", name, m, [["classify", text]], (text,)))
    for name, kw in MEMORY.items():
        tok = word_tokenizer()
        if kw["head"] == "lm":
            def loss(m, tok=tok):
                total = 0
                for t in WORDS:
                    ids = m.encode(t)
                    lp = m(ids)["log_probs"][:-1]
                    total = total - lp[torch.arange(len(ids) - 1), torch.tensor(ids[1:])].sum()
                return total
        else:
            def loss(m, tok=tok):
                return sum(-torch.log(m(m.encode(t))["probs"][y % len(m.labels)])
                           for y, t in enumerate(WORDS))
        m = train(MemoryRNN(tok, embedding_size=6, hidden_size=7, **kw), loss)
        text = "the dog sat on the big mat"
        opts = [{"distributions": True}] if kw["head"] == "lm" else []
        cases.append(("memory-rnn", name, m, [["run", text, *opts]], (text,)))
    out = []
    for kind, name, m, calls, inputs in cases:
        path = tmp_models / f"{kind}-{name}.safetensors"
        attnlab.export(m, path, card={"title": name})
        out.append((kind, name, m, str(path), calls, inputs))
    return out


@pytest.fixture(scope="module")
def roundtrip(tmp_models):
    """The cases with Node's results from the SIMD128 build and from the scalar build."""
    cases = build(tmp_models)
    jobs = [{"file": path, "calls": calls} for _, _, _, path, calls, _ in cases]
    simd, scalar = node(jobs), node(jobs, simd=False)
    return [(c, {"simd128": a, "scalar": b}) for c, a, b in zip(cases, simd, scalar)]


def _ids(name, js, py):
    assert list(js) == [int(i) for i in py], f"{name}: JS ids {list(js)} != PyTorch {list(py)}"


def check_seq2seq(name, m, js, inputs):
    run, score, beam3 = js
    src, tgt = inputs
    b = m.run(src, beam_width=3)
    _ids(f"{name} beam 3", beam3["ids"], b["ids"])
    close(f"seq2seq log-probs: {name} beam 3", beam3["logProbs"], b["log_probs"])
    close(f"seq2seq attention: {name} beam 3", beam3["attention"][0]["weights"]["data"],
          b["attention"])
    py = m.run(src)
    _ids(f"{name} greedy", run["ids"], py["ids"])
    assert run["output"] == py["output"]
    close(f"seq2seq log-probs: {name}", run["logProbs"], py["log_probs"])
    close(f"seq2seq attention: {name}", run["attention"][0]["weights"]["data"], py["attention"])
    f = m(m.tokenizer.encode(src), tgt)
    close(f"seq2seq distributions: {name}", score["distributions"]["data"], f["log_probs"])
    close(f"seq2seq attention: {name} teacher-forced", score["attention"]["data"], f["attention"])
    close(f"seq2seq log-probs: {name} teacher-forced", score["logProbs"],
          f["log_probs"][torch.arange(len(tgt)), torch.tensor(tgt)])
    if m.config["attention"] in ("local-m", "local-p"):
        close(f"seq2seq positions: {name}", score["positions"], f["positions"])
        close(f"seq2seq positions: {name} greedy", run["positions"], py["positions"])


def check_transformer(name, m, js, inputs):
    run, fwd = js
    src, fed = inputs
    ids = m.tokenizer.encode(src)
    py = m(ids, fed) if fed is not None else m(ids)
    close(f"transformer logits: {name}", fwd["logits"]["data"], py["logits"])
    assert len(fwd["attention"]) == len(py["attention"]), name
    for a, b in zip(fwd["attention"], py["attention"]):
        assert (a["layer"], a["head"], a["kind"], a["stack"]) == \
            (b["layer"], b["head"], b["kind"], b["stack"]), name
        close(f"transformer attention: {name}", a["weights"]["data"], b["weights"])
    r = m.run(src, max_length=5) if m.variant == "decoder" else m.run(src)
    _ids(f"{name} run", run["ids"], r["ids"])
    # each output token's probability (encoder: of the label picked), and the weakest, as in JS
    close(f"transformer probs: {name}", run["probs"], r["probs"])
    assert abs(run["minProb"] - r["min_prob"]) < 1e-5, name
    if "log_probs" in r:
        close(f"transformer log-probs: {name} greedy", run["logProbs"], r["log_probs"])
        close(f"transformer logits: {name} greedy", run["logits"]["data"], r["logits"])


def check_classifier(name, m, js, inputs):
    (c,) = js
    py = m.run(inputs[0])
    assert c["label"] == py["label"] and c["ids"] == py["ids"], name
    close(f"classifier probs: {name}", c["probs"], py["probs"])
    assert len(c["attention"]) == len(py["attention"])
    for a, b in zip(c["attention"], py["attention"]):
        assert a["weights"]["shape"] == list(b.shape), name
        close(f"classifier attention: {name}", a["weights"]["data"], b)
    if "sentence_weights" in py:
        close(f"classifier sentence weights: {name}", c["sentenceWeights"], py["sentence_weights"])
        assert [list(s) for s in c["sentences"]] == [list(s) for s in py["sentences"]]
    if "penalty" in py:
        close(f"classifier penalty: {name}", [c["penalty"]], [float(py["penalty"])])


def check_memory(name, m, js, inputs):
    (r,) = js
    py = m.run(inputs[0])
    assert r["ids"] == py["ids"], name
    if m.lm:
        close(f"memory-rnn log-probs: {name}", r["logProbs"], py["token_log_probs"])
        close(f"memory-rnn distributions: {name}", r["distributions"]["data"], py["log_probs"])
    else:
        assert r["label"] == py["label"]
        close(f"memory-rnn probs: {name}", r["probs"], py["probs"])
    assert len(r["attention"]) == len(py["attention"]), name
    for a, b in zip(r["attention"], py["attention"]):
        close(f"memory-rnn attention: {name}", a["weights"]["data"], b)


CHECKS = {"seq2seq": check_seq2seq, "transformer": check_transformer,
          "classifier": check_classifier, "memory-rnn": check_memory}
CASES = [("seq2seq", n) for n in SEQ2SEQ] + [("transformer", n) for n in TRANSFORMERS] + \
    [("classifier", n) for n in CLASSIFIERS] + [("memory-rnn", n) for n in MEMORY]


@pytest.mark.parametrize("build_", ["simd128", "scalar"])
@pytest.mark.parametrize("kind, name", CASES, ids=[f"{k}-{n}" for k, n in CASES])
def test_js_equals_pytorch(roundtrip, kind, name, build_):
    (k, n, m, path, calls, inputs), both = next(x for x in roundtrip if x[0][:2] == (kind, name))
    js = both[build_]
    assert not (isinstance(js, dict) and "error" in js), f"{name}: Node ({build_}): {js}"
    with torch.no_grad():
        CHECKS[kind](f"{name} ({build_})", m, js, inputs)


@pytest.mark.parametrize("kind, name", CASES, ids=[f"{k}-{n}" for k, n in CASES])
def test_load_gives_the_module_back(roundtrip, kind, name):
    (k, n, m, path, calls, inputs), _ = next(x for x in roundtrip if x[0][:2] == (kind, name))
    back = attnlab.load(path)
    assert type(back) is type(m)
    assert back.config == m.config
    assert back.card == {"title": name}
    a, b = m.state_dict(), back.state_dict()
    assert a.keys() == b.keys()
    for key in a:
        assert torch.equal(a[key], b[key]), key
    with torch.no_grad():
        x, y = m.run(inputs[0]), back.run(inputs[0])
    for key in x:
        if isinstance(x[key], torch.Tensor):
            assert torch.equal(x[key], y[key]), key
