"""The sizes of attnlab.show()'s outputs: measured here, and checked against the figures that
docs/python.md ("Where it renders") and show.py's docstring write, so they cannot drift; and that
an output grows with the number of weights, not with the number of maps (one bundle, the weights
once as base64 float32, shared labels once).

KB are 1,024 bytes of the output's HTML (UTF-8), as in the docs. When a bundle changes on
purpose, the failure message gives the figures to write.
"""

import os
import re
import sys

import pytest
import torch

from attnlab.show import show

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DOCS = os.path.join(ROOT, "docs", "python.md")
MODEL = os.path.join(ROOT, "web", "models", "dates-additive.safetensors")
KB = 1024


def size(out):
    return len(out.html.encode("utf-8"))


def rand(*shape):
    return torch.rand(*shape, generator=torch.Generator().manual_seed(1))


@pytest.fixture(scope="module")
def measured():
    one = size(show([[0.5]]))
    hundred = size(show(rand(100, 100)))
    grid = size(show(rand(2, 4, 16, 16)))
    with open(MODEL, "rb") as f:
        model = f.read()
    live = size(show(model, input="22 Nov 2026"))
    return {
        "one map": one / KB,
        "per weight": (hundred - one) / (100 * 100 - 1),
        "100 × 100": hundred / KB,
        "grid per weight": (grid - one) / (8 * 16 * 16),
        "grid": grid / KB,
        "live": (live - len(model) * 4 / 3) / KB,
        "model": len(model) / KB,
        "live total": live / KB,
    }


# Each figure as the texts write it (whitespace and backticks normalised).
PATTERNS = {
    "one map": r"one map is about (\d+) KB \(the bundle\)",
    "per weight": r"plus ([\d.]+) bytes per weight \(100 × 100",
    "100 × 100": r"\(100 × 100: (\d+) KB\)",
    "grid per weight": r"a grid is the same bundle plus about ([\d.]+) bytes per weight",
    "grid": r"\(2 layers × 4 heads of 16 × 16: (\d+) KB\)",
    "live": r"the live view about (\d+) KB \(the bundle, and the \.wasm gzipped",
    "model": r"dates-additive\.safetensors, (\d+) KB:",
    "live total": r"dates-additive\.safetensors, \d+ KB: (\d+) KB\)",
}


def figures(text):
    text = re.sub(r"\s+", " ", text.replace("`", ""))
    out = {}
    for name, pattern in PATTERNS.items():
        found = re.findall(pattern, text)
        assert len(found) == 1, f"{name!r}: {pattern!r} found {len(found)} times"
        out[name] = float(found[0])
    return out


@pytest.mark.parametrize("where", ["docs/python.md", "show.py's docstring"])
def test_the_documented_sizes_are_the_measured_ones(measured, where):
    if where == "docs/python.md":
        with open(DOCS, encoding="utf-8") as f:
            text = f.read()
    else:
        text = sys.modules["attnlab.show"].__doc__  # the module (attnlab.show is the function)
    written = figures(text)
    wrong = []
    for name, value in measured.items():
        # whole KB within 1 KB or 1 %; bytes per weight within 0.1
        tolerance = 0.1 if "per weight" in name else max(1.0, 0.01 * value)
        if abs(written[name] - value) > tolerance:
            wrong.append(f"{name}: written {written[name]:g}, measured {value:.1f}")
    assert not wrong, f"{where}: " + "; ".join(wrong)


def test_the_live_view_costs_the_same_for_every_family():
    """The fixed part of a live view (the bundle and the gzipped .wasm) is the same whatever the
    file's family: the output is that plus 4/3 of the model file (its base64), as the docs say."""
    fixed = {}
    for name in ("dates-additive", "tf-induction", "clf-reviews-attention", "lm-agreement-sarnn"):
        path = os.path.join(ROOT, "web", "models", name + ".safetensors")
        fixed[name] = size(show(path, input="22 Nov 2026")) - os.path.getsize(path) * 4 / 3
    assert max(fixed.values()) - min(fixed.values()) < 64, fixed


def test_size_grows_with_the_weights_not_the_number_of_maps():
    n = 32
    eight = show(rand(2, 4, n, n))  # 8 maps of n × n
    one = show(rand(8 * n, n))      # 1 map of 8n × n: the same number of weights
    assert abs(size(eight) - size(one)) < 3 * KB, (size(eight), size(one))
    # the bundle once, and the HTML of 8 maps barely larger than the weights' base64
    with open(os.path.join(ROOT, "python", "attnlab", "assets", "heatmap.js"), encoding="utf-8") as f:
        bundle = f.read()
    assert eight.html.count(bundle) == 1
    assert size(eight) - len(bundle.encode("utf-8")) < 8 * n * n * 4 * 4 / 3 + 3 * KB
    # 8 separate outputs (one call a map, as before the grid) cost 8 bundles
    separate = sum(size(show(rand(2, 4, n, n)[i // 4, i % 4])) for i in range(8))
    assert separate > size(eight) + 7 * len(bundle.encode("utf-8")) - 3 * KB
