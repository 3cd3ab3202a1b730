"""attnlab.show()'s grid drawn in Chromium: a [2, 4, n, n] output (and a fitted-scale grid and a
single map beside it) saved as one page, opened from file:// by chromium_grid.mjs (playwright-core
and /usr/bin/chromium, as tests/browser/ do), which reports what was drawn; the expectations are
here. Screenshots (1280 × 720, 390 × 844): tests/browser/screenshots/show-grid-*.png.
"""

import json
import os
import subprocess

import pytest

from attnlab.show import show

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
TOKENS = ["the", "cat", "sat", "on", "mat"]
L, H, N = 2, 4, len(TOKENS)


def f32(x):
    import struct
    return struct.unpack("<f", struct.pack("<f", x))[0]


def grid_input():
    """[2, 4, 5, 5]: map k = l * 4 + h has its largest weight (k + 1) / 8 at cell (k % 5, 4 - k % 5)
    and 0.1 at cell (0, 0) in every map; every other weight below both."""
    out = []
    for l in range(L):
        layer = []
        for h in range(H):
            k = l * H + h
            top = (k + 1) / 8
            m = [[0.1 * top * ((i * N + j) % 7) / 7 for j in range(N)] for i in range(N)]
            m[0][0] = 0.1
            m[k % N][N - 1 - k % N] = top
            layer.append(m)
        out.append(layer)
    return out


def luminance(p):
    return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    if not os.path.exists(CHROMIUM):
        raise RuntimeError(f"{CHROMIUM} is missing: apt-get install -y chromium (or set CHROMIUM_PATH)")
    torch = pytest.importorskip("torch")
    grid = show(torch.tensor(grid_input()), tokens=TOKENS, title="2 × 4 heads")
    fitted = show([[[[-1.0, 0.5, 3.0], [0, 1, 2], [2, 2, 2]], [[0, 0, 0], [1, 1, 1], [0.5, 0.25, 2.5]]]],
                  title="fitted")
    single = show([[0.2, 0.8, 0.0, 0.0], [0.1, 0.1, 0.7, 0.1], [0.0, 0.0, 0.5, 0.5]],
                  query_tokens=["a", "b", "c"], key_tokens=["w", "x", "y", "z"], title="one map")
    page = tmp_path_factory.mktemp("grid") / "grid.html"
    page.write_text('<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>grid</title>'
                    '</head><body>\n' + grid.html + fitted.html + single.html + "</body></html>\n",
                    encoding="utf-8")
    env = dict(os.environ, NODE_PATH=os.environ.get("NODE_PATH", "/usr/share/nodejs"))
    shots = os.path.join(ROOT, "tests", "browser", "screenshots")
    p = subprocess.run(["node", os.path.join(HERE, "chromium_grid.mjs"), str(page), shots], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=180)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(p.stdout)


def test_every_map_of_a_2x4_input_is_drawn_with_ink(drawn):
    out = drawn["outputs"][0]
    assert out["kind"] == "grid" and out["state"] == "ready" and out["error"] is None
    assert out["grids"] == 1 and out["heatmaps"] == 1  # one grid, one enlarged map
    thumbs = out["thumbs"]
    assert sorted((t["layer"], t["head"]) for t in thumbs) == [(l, h) for l in range(L) for h in range(H)]
    for t in thumbs:
        assert (t["width"], t["height"]) == (N, N) and t["shown"] and t["ink"], t["label"]
        assert t["label"].startswith(f"Layer {t['layer'] + 1}, head {t['head'] + 1}: 5 × 5 weights")


def test_one_colour_scale_fixed_0_1_shared_by_every_thumbnail(drawn):
    out = drawn["outputs"][0]
    (legend,) = out["legends"]
    assert legend["scale"] == "fixed" and (legend["min"], legend["max"]) == ("0", "1")
    assert "fixed 0–1" in legend["caption"] and "every map" in legend["caption"]
    assert out["big"]["scale"] == "fixed" and out["big"]["scaleMode"] == "fixed"
    thumbs = {(t["layer"], t["head"]): t for t in out["thumbs"]}
    # the same weight (0.1 at (0, 0)) is the same colour in every map: one scale, not eight
    assert len({tuple(t["rgb"][0]) for t in thumbs.values()}) == 1
    # each map's strongest cell is its brightest pixel, brighter the larger the map's maximum
    tops = []
    for k in range(L * H):
        t = thumbs[(k // H, k % H)]
        where = (k % N) * N + N - 1 - k % N
        lum = [luminance(p) for p in t["rgb"]]
        assert max(range(len(lum)), key=lum.__getitem__) == where
        tops.append(lum[where])
    assert tops == sorted(tops) and tops[0] < tops[-1] - 50


def test_a_fitted_scale_is_the_inputs_range_and_says_so(drawn):
    out = drawn["outputs"][1]
    (legend,) = out["legends"]
    assert legend["scale"] == "fit" and (legend["min"], legend["max"]) == ("-1", "3")
    assert "fitted to the data" in legend["caption"]
    assert (out["big"]["min"], out["big"]["max"]) == ("-1", "3")
    assert len(out["thumbs"]) == 2 and all(t["ink"] for t in out["thumbs"])


def test_the_enlarged_map_is_labelled_with_the_tokens_and_titled(drawn):
    big = drawn["outputs"][0]["big"]
    assert big["rowLabels"] == TOKENS and big["colLabels"] == TOKENS
    assert big["weights"] == [f32(v) for row in grid_input()[0][0] for v in row]
    assert big["title"] == "2 × 4 heads: Layer 1, head 1" and big["svgHasTitle"]
    assert big["csvHead"].startswith('title,"2 × 4 heads: Layer 1, head 1"')
    assert big["label"].startswith("Layer 1, head 1")


def test_the_keyboard_moves_between_thumbnails_and_enlarges(drawn):
    right, down = drawn["keys"]
    assert right["selected"] == "0,1" and right["focused"] == "0,1"
    assert right["weights"] == [f32(v) for row in grid_input()[0][1] for v in row]
    assert right["title"] == "2 × 4 heads: Layer 1, head 2"
    assert down["selected"] == "1,1" and down["focused"] == "1,1"
    assert down["weights"] == [f32(v) for row in grid_input()[1][1] for v in row]
    assert down["title"] == "2 × 4 heads: Layer 2, head 2"


def test_hovering_the_enlarged_map_reports_its_weights(drawn):
    """After the keyboard, layer 2 head 2 is enlarged: the pointer crossing it reports that map's
    weights, cell by cell, and the tooltip shows them."""
    cells = [h for h in drawn["hovers"] if h.get("row") is not None]
    assert len({(h["row"], h["col"]) for h in cells}) >= 3, drawn["hovers"]
    m = grid_input()[1][1]
    for h in cells:
        assert h["value"] == pytest.approx(f32(m[h["row"]][h["col"]]), abs=1e-7)
        assert TOKENS[h["row"]] in h["tip"] and TOKENS[h["col"]] in h["tip"], h


def test_a_single_map_stays_one_heatmap(drawn):
    out = drawn["outputs"][2]
    assert out["kind"] == "heatmap" and out["state"] == "ready"
    assert out["grids"] == 0 and out["thumbs"] == [] and out["legends"] == [] and out["heatmaps"] == 1
    assert out["big"]["rowLabels"] == ["a", "b", "c"] and out["big"]["colLabels"] == ["w", "x", "y", "z"]
    assert out["big"]["scaleMode"] == "fixed"


def test_nothing_is_fetched_and_nothing_complains(drawn):
    assert drawn["problems"] == []
    assert all(u == drawn["href"] or u.startswith(("data:", "blob:")) for u in drawn["requests"]), \
        drawn["requests"]
