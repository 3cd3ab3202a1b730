"""The DDP recipe of docs/python.md ("Bigger than the browser"), run as written: gloo, 2 processes
on the CPU (torch.multiprocessing.spawn, a free port), a DistributedSampler; each rank sees half
the data and its loss falls, the replicas are identical after training, and the file rank 0
exported (attnlab.export of the DistributedDataParallel module) opens in Node with greedy and
beam outputs equal to PyTorch's, log-probs and attention within 1e-5. And the check is real:
the same script with the loss summed over model.example_loss outside DDP's forward (what
attnlab.BatchLoss exists to avoid) ends with replicas that differ."""

import os
import re
import subprocess
import sys

import torch

import attnlab
from conftest import ROOT, close, node

LINE = re.compile(r"rank (\d): (\d+) examples an epoch, loss ([\d.]+) -> ([\d.]+), replicas "
                  r"identical: (True|False)")


def recipe():
    text = open(os.path.join(ROOT, "docs", "python.md"), encoding="utf-8").read()
    section = text[text.index("### DistributedDataParallel: the recipe"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def run(tmp_path, script, name):
    path = tmp_path / f"{name}.py"
    path.write_text(script, encoding="utf-8")
    out = tmp_path / f"{name}.safetensors"
    p = subprocess.run([sys.executable, str(path), str(out)], cwd=tmp_path, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, f"{name}: exit {p.returncode}\n{p.stdout}\n{p.stderr[-3000:]}"
    ranks = sorted(LINE.findall(p.stdout))
    assert [r[0] for r in ranks] == ["0", "1"], p.stdout
    return ranks, out


def test_the_ddp_recipe_trains_identical_replicas_and_exports_for_node(tmp_path):
    ranks, out = run(tmp_path, recipe(), "ddp_train")
    for rank, seen, first, last, same in ranks:
        assert int(seen) == 32, f"rank {rank} saw {seen} examples an epoch, not half of 64"
        assert float(last) < 0.8 * float(first), f"rank {rank}: loss {first} -> {last}"
        assert same == "True", f"rank {rank}: the replicas differ"
    model = attnlab.load(out)
    inputs = ["a b c", "d c b", "b b a"]
    calls = [c for s in inputs for c in (["run", s], ["run", s, {"beamWidth": 3}])]
    [js] = node([{"file": str(out), "calls": calls}])
    for i, s in enumerate(inputs):
        greedy, beam = js[2 * i], js[2 * i + 1]
        with torch.no_grad():
            py, pyb = model.run(s), model.run(s, beam_width=3)
        assert list(greedy["ids"]) == py["ids"] and greedy["output"] == py["output"], s
        assert list(beam["ids"]) == pyb["ids"], s
        close(f"ddp export log-probs: {s}", greedy["logProbs"], py["log_probs"])
        close(f"ddp export attention: {s}", greedy["attention"][0]["weights"]["data"],
              py["attention"])
        close(f"ddp export log-probs: {s} beam 3", beam["logProbs"], pyb["log_probs"])


def test_without_batch_loss_the_replicas_drift(tmp_path):
    script = recipe()
    loop = "loss = ddp(batch)"
    assert script.count(loop) == 1
    script = script.replace(loop, "loss = sum(model.example_loss(ex) for ex in batch)")
    script = script.replace("for epoch in range(3):", "for epoch in range(1):")   # 4 steps do
    ranks, _ = run(tmp_path, script, "bypass")
    assert [r[4] for r in ranks] == ["False", "False"], ranks
