"""Bigger than the browser (docs/python.md): a DataLoader over (source, target) pairs with
attnlab.collate trains a Seq2Seq for one epoch and the loss falls; the default collation is
refused with a message naming collate; attnlab.export unwraps nn.DataParallel and
attnlab.BatchLoss and names what it accepts for anything else; and every entry point of every
architecture refuses a batch, an empty input, an id outside the vocabulary with the JS
library's wording (the empty input checked against Node's own message). The DDP recipe is
test_ddp.py; devices are test_devices.py."""

import os
import re

import pytest
import torch
from torch import nn
from torch.utils.data import DataLoader

import attnlab
from attnlab import BatchLoss, ExportError
from attnlab.torch import MemoryRNN, Seq2Seq, Transformer
from conftest import ROOT, node
from zoo import calls, tok, zoo

BATCH = r"one sequence at a time: got a batch of shape \[2, 3\]; loop over the rows, or give " \
    r"a DataLoader collate_fn=attnlab.collate"


def every_call():
    for name, m in zoo().items():
        for call, fn in calls(name, m):
            yield f"{name} {call}", fn


@pytest.mark.parametrize("what,batch,message", [
    ("a [2, 3] tensor", torch.tensor([[4, 5, 6], [6, 5, 4]]), BATCH),
    ("a [2, 3] list", [[4, 5, 6], [6, 5, 4]], BATCH),
    ("a [2, 3] numpy array", torch.tensor([[4, 5, 6], [6, 5, 4]]).numpy(), BATCH),
    ("two texts", ["a b", "c d"], r"one sequence at a time: got a batch of 2 texts; loop over"),
])
def test_every_call_refuses_a_batch(what, batch, message):
    for label, fn in every_call():
        with pytest.raises(ValueError, match=message):
            fn(batch)


@pytest.mark.parametrize("empty", ["", "   ", [], torch.tensor([], dtype=torch.long)])
def test_every_call_refuses_an_empty_input(empty):
    n = 0
    for label, fn in every_call():
        with pytest.raises(ValueError, match=r"\.\w+: the input is empty \(no tokens\)$"):
            fn(empty)
        n += 1
    assert n == 38


def test_every_call_names_a_bad_id():
    for label, fn in every_call():
        with pytest.raises(ValueError, match=r": input\[1\] = 99 is not a token id in \[0, 9\)"):
            fn([4, 99])
        with pytest.raises(ValueError, match=r": input\[0\] = 1.5 is not a token id \(an integer"):
            fn([1.5])
        with pytest.raises(ValueError, match=r"input must be token ids \(integers\), got a "
                                             r"float32 tensor of shape \[2\]"):
            fn(torch.tensor([4.0, 5.0]))
        with pytest.raises(ValueError, match=r"input must be text or a sequence of token ids, "
                                             r"got dict"):
            fn({"ids": [4]})
        with pytest.raises(ValueError, match=r"got a int64 tensor of shape \[\] \(one id: wrap"):
            fn(torch.tensor(4))


def test_the_names_in_the_messages():
    m = zoo()["seq2seq additive"]
    with pytest.raises(ValueError, match=r"^Seq2Seq\.run: the input is empty \(no tokens\)$"):
        m.run("")
    with pytest.raises(ValueError, match=r"^Seq2Seq\.forward: tgt is empty \(no tokens\)$"):
        m([4], [])
    with pytest.raises(ValueError, match=r"^seq2seq\.beam: one sequence at a time"):
        attnlab.torch.seq2seq.beam(m, torch.ones(2, 3, dtype=torch.long), 2)
    t = zoo()["transformer encoder-decoder"]
    with pytest.raises(ValueError, match=r"^TransformerSeq2Seq\.forward: tgt\[0\] = 50 is not a "
                                         r"token id in \[0, 9\)$"):
        t([4], [50])
    bare = Seq2Seq(src_vocab_size=9, tgt_vocab_size=9, hidden_size=4, embedding_size=3)
    with pytest.raises(ValueError, match=r"Seq2Seq\.forward: the input is text but the module "
                                         r"has no tokenizer"):
        bare("a b", [4])


def test_counts_are_positive_integers():
    m, t = zoo()["seq2seq additive"], zoo()["transformer decoder"]
    with pytest.raises(ValueError, match=r"^Seq2Seq\.run: max_length 0 must be an integer >= 1$"):
        m.run("a b", max_length=0)
    with pytest.raises(ValueError, match=r"^Seq2Seq\.run: beam_width 2.5 must be an integer"):
        m.run("a b", beam_width=2.5)
    with pytest.raises(ValueError, match=r"^seq2seq\.beam: width -1 must be an integer >= 1$"):
        attnlab.torch.seq2seq.beam(m, [4, 5], -1)
    with pytest.raises(ValueError, match=r"^Transformer\.run: max_length -3 must be an integer"):
        t.run("a b", max_length=-3)
    assert len(m.run("a b", max_length=2)["ids"]) <= 2
    assert len(t.run("a b", max_length=1)["ids"]) == 1


def test_learned_positions_name_the_limit():
    t = Transformer(tok(), variant="encoder", embedding_size=4, num_heads=2, num_layers=1,
                    max_positions=3)
    with pytest.raises(ValueError, match=r'^Transformer\.run: input has 4 tokens; this model '
                                         r'takes at most 3 \(config "maxPositions"\)$'):
        t.run("a b c d")
    assert len(t.run("a b c")["ids"]) == 3


def test_memory_rnn_with_bos_and_eos_reads_empty_text_as_node_does(tmp_path):
    """bos and eos wrap the text (as in JS), so "" is two tokens, not an empty input: both run."""
    m = MemoryRNN(tok(), hidden_size=8, embedding_size=4)
    p = tmp_path / "m.safetensors"
    attnlab.export(m, p)
    [[js]] = node([{"file": str(p), "calls": [["run", ""]]}])
    py = m.run("")
    assert py["ids"] == [1, 2] == list(js["ids"])


def test_empty_input_is_refused_as_node_refuses_it(tmp_path):
    """The same words as the JS library, architecture by architecture."""
    jobs, pys = [], []
    for name, m in zoo().items():
        p = tmp_path / (re.sub(r"\W", "-", name) + ".safetensors")
        attnlab.export(m, p)
        jobs.append({"file": str(p), "calls": [["classify" if "classifier" in name else "run",
                                                 ""]]})
        with pytest.raises(ValueError) as e:
            m.run("")
        pys.append(str(e.value))
    for name, js, py in zip(zoo(), node(jobs), pys):
        assert "error" in js, f"{name}: Node ran an empty input: {js}"
        tail = lambda s: re.sub(r"^.*?: (the )?input ", "input ", s)  # noqa: E731
        assert tail(js["error"]) == tail(py) == "input is empty (no tokens)", (name, js, py)


# -- DataLoader and collate


def pairs(n, seed):
    g = torch.Generator().manual_seed(seed)
    words = ["a", "b", "c", "d"]
    out = []
    for _ in range(n):
        w = [words[int(i)] for i in torch.randint(0, 4, (3,), generator=g)]
        out.append((" ".join(w), " ".join(reversed(w))))
    return out


def mean_loss(model, data):
    with torch.no_grad():
        return float(sum(model.example_loss(ex) for ex in data)) / len(data)


def docs_block(heading):
    text = open(os.path.join(ROOT, "docs", "python.md"), encoding="utf-8").read()
    return re.search(r"```python\n(.*?)```", text[text.index(heading):], re.S).group(1)


def test_a_dataloader_epoch_with_collate_trains_a_seq2seq():
    """The DataLoader lines of docs/python.md as written: one epoch over 96 pairs."""
    data = pairs(96, seed=1)
    torch.manual_seed(0)
    model = Seq2Seq(tok(), hidden_size=16, embedding_size=8)
    before = mean_loss(model, data)
    scope = {"attnlab": attnlab, "torch": torch, "model": model, "pairs": data}
    exec(docs_block("### A DataLoader: `attnlab.collate`"), scope)
    after = mean_loss(model, data)
    batch = scope["batch"]   # the last one: 96 = 12 batches of 8
    assert isinstance(batch, list) and len(batch) == 8 and all(
        isinstance(s, str) and isinstance(t, str) for s, t in batch)
    assert len(scope["loader"]) == 12
    assert after < 0.8 * before, f"one epoch: mean loss {before:.3f} -> {after:.3f}"


def test_the_default_collation_is_refused_by_name():
    model = Seq2Seq(tok(), hidden_size=8, embedding_size=4)
    batch = next(iter(DataLoader(pairs(8, seed=2), batch_size=4)))   # [(4 sources), (4 targets)]
    with pytest.raises(TypeError, match=r"^Seq2Seq.example_loss: expected one example \(source, "
                                        r"target\), got a tuple of 4 texts: one sequence at a "
                                        r"time .*collate_fn=attnlab.collate\)$"):
        BatchLoss(model)(batch)
    # a source that is itself a tuple of texts (a transposed batch of two) is named too; a
    # default-collated batch of exactly two pairs looks like two pairs, so collate_fn it is
    with pytest.raises(TypeError, match=r"^tokenizer: expected text, got tuple of 2 texts: one "
                                        r"sequence at a time .*collate_fn=attnlab.collate\)$"):
        model.example_loss((("a b", "c"), ("b a", "c")))
    with pytest.raises(TypeError, match=r"expected one example \(source, target\), got int$"):
        model.example_loss(3)


def test_collate_keeps_examples_whole_and_makes_tensors_python():
    batch = [("a b", torch.tensor(1)), ("c", torch.tensor([0, 1]))]
    assert attnlab.collate(batch) == [("a b", 1), ("c", [0, 1])]
    with pytest.raises(TypeError, match=r"attnlab.collate: expected the list of a batch's "
                                        r"examples, got str"):
        attnlab.collate("a b")
    model = Seq2Seq(tok(), hidden_size=8, embedding_size=4)
    with pytest.raises(ValueError, match=r"BatchLoss: the batch must be a non-empty list of "
                                         r"examples .*got an empty list"):
        BatchLoss(model)([])
    with pytest.raises(TypeError, match=r"BatchLoss: Linear is not an attnlab.torch module"):
        BatchLoss(nn.Linear(2, 2))
    two = pairs(2, seed=3)
    want = model.example_loss(two[0]) + model.example_loss(two[1])
    assert torch.allclose(BatchLoss(model)(two), want)


# -- export of wrapped modules, and of what it cannot export


def test_export_unwraps_data_parallel_and_batch_loss(tmp_path):
    model = Seq2Seq(tok(), hidden_size=8, embedding_size=4)
    plain, dp, bl = (tmp_path / f"{n}.safetensors" for n in ("plain", "dp", "bl"))
    attnlab.export(model, plain)
    attnlab.export(nn.DataParallel(model), dp)
    attnlab.export(nn.DataParallel(BatchLoss(model)), bl)
    assert plain.read_bytes() == dp.read_bytes() == bl.read_bytes()
    back = attnlab.load(dp)
    assert back.run("a b c")["ids"] == model.run("a b c")["ids"]
    with pytest.raises(ExportError, match=r"^attnlab.export: Linear \(in _Holder in "
                                          r"DataParallel\): not a module"):
        attnlab.export(nn.DataParallel(_Holder(nn.Linear(2, 2))), dp)


class _Holder(BatchLoss):
    def __init__(self, inner):   # a BatchLoss around a module that is not attnlab's
        nn.Module.__init__(self)
        self.module = inner


class Wrapper(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.module = inner


def test_export_says_what_it_is_and_what_it_takes(tmp_path):
    p = tmp_path / "x.safetensors"
    with pytest.raises(ExportError, match=r"^attnlab.export: Linear: not a module attnlab knows "
                                          r"\(a torch.nn.modules.linear.Linear\)\. Known: "
                                          r"attnlab.torch.Seq2Seq.*DistributedDataParallel, "
                                          r"nn.DataParallel or attnlab.BatchLoss \(unwrapped to "
                                          r"\.module\)$"):
        attnlab.export(nn.Linear(2, 2), p)
    inner = Seq2Seq(tok(), hidden_size=8, embedding_size=4)
    with pytest.raises(ExportError, match=r"^attnlab.export: Wrapper: not a module attnlab knows "
                                          r"\(a test_bigger.Wrapper\)\. It wraps a Seq2Seq in "
                                          r"\.module: export that \(attnlab.export\(m.module, "
                                          r"path\)\)\. Known:"):
        attnlab.export(Wrapper(inner), p)
    with pytest.raises(ExportError, match=r"^attnlab.export: dict: not a module attnlab knows "
                                          r"\(a dict, not an nn.Module\)"):
        attnlab.export({"weight": torch.zeros(2)}, p)
    assert not p.exists()
    attnlab.export(Wrapper(inner).module, p)
    assert p.exists()
