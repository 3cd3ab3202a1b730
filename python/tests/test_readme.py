"""The "Train, export, open: three lines" of docs/python.md (once the README's "From PyTorch"),
as written: train a model on a small task with `fit`, export it, and open the file with the JS
loadModel in Node, which must give PyTorch's output.
Also `fit` on every architecture lowers its loss."""

import os
import re

import torch

import attnlab
from attnlab.torch import Classifier, MemoryRNN, Transformer, TransformerSeq2Seq
from conftest import ROOT, close, node


def readme_block():
    text = open(os.path.join(ROOT, "docs", "python.md"), encoding="utf-8").read()
    section = text[text.index("## Train, export, open: three lines"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readme_lines_train_export_and_open(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    torch.manual_seed(0)
    src = ["abc", "bca", "cab", "acb", "bac", "cba"] * 2
    tgt = [s[::-1] for s in src]
    scope = {"attnlab": attnlab, "src": src, "tgt": tgt}
    exec(readme_block(), scope)
    model = scope["model"]
    assert (tmp_path / "mine.safetensors").exists()
    (run,) = node([{"file": str(tmp_path / "mine.safetensors"), "calls": [["run", "bca"]]}])[0]
    with torch.no_grad():
        py = model.run("bca")
    assert run["output"] == py["output"]
    close("readme model log-probs", run["logProbs"], py["log_probs"])
    close("readme model attention", run["attention"][0]["weights"]["data"], py["attention"])


def test_fit_lowers_the_loss_of_every_architecture():
    torch.manual_seed(0)
    words = ["the cat sat", "a dog ran", "the dog sat", "a cat ran"]
    wt = attnlab.Tokenizer.fit(words)
    ct = attnlab.Tokenizer.fit(["abc", "cab"], ["cba", "bac"], type="char")
    cases = [
        (TransformerSeq2Seq(ct, embedding_size=8, num_heads=2, num_layers=1),
         [("abc", "cba"), ("cab", "bac")]),
        (Transformer(wt, variant="decoder", embedding_size=8, num_heads=2, num_layers=1), words),
        (Transformer(attnlab.Tokenizer(wt.vocab, tgt_vocab=["O", "N"]), variant="encoder",
                     embedding_size=8, num_heads=2, num_layers=1),
         [(w, ["O", "N", "O"]) for w in words]),
        (Classifier(wt, labels=["cat", "dog"], embedding_size=6, hidden_size=8),
         [(w, "cat" if "cat" in w else "dog") for w in words]),
        (MemoryRNN(wt, embedding_size=6, hidden_size=8), words),
        (MemoryRNN(wt, head="classifier", labels=2, embedding_size=6, hidden_size=8),
         [(w, i % 2) for i, w in enumerate(words)]),
    ]
    for model, examples in cases:
        history = model.fit(examples, epochs=8, lr=0.05, batch_size=2)
        assert history[-1] < history[0], (type(model).__name__, history)
