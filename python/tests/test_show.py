"""attnlab.show(): the HTML it writes, read back in Python (html.parser, json, base64).

What a notebook output cell must be (python/attnlab/show.py): self-contained (no URL, no
<script src>, no module script, no <link>), unique ids, the data intact (the weights and labels
as given; the .wasm, gzipped, and the model file byte for byte), text from the caller unable to
end its <script>, and errors that name the problem. That the HTML draws and reacts in a browser is
tests/browser/notebook.test.js.
"""

import base64
import gzip
import json
import os
import re
import struct
from html.parser import HTMLParser

import pytest

from attnlab.show import Shown, show

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
MODEL = os.path.join(REPO, "web", "models", "dates-additive.safetensors")
ASSETS = os.path.join(REPO, "python", "attnlab", "assets")


class Parsed(HTMLParser):
    """The tags (name, attrs) and each <script>'s text."""

    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.tags, self.scripts, self._in = [], [], None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in = dict(attrs)
            self.scripts.append([dict(attrs), ""])

    def handle_data(self, data):
        if self._in is not None:
            self.scripts[-1][1] += data

    def handle_endtag(self, tag):
        if tag == "script":
            self._in = None


def data_of(html):
    """The output's JSON data, its root id."""
    p = Parsed(html)
    (root,) = [a for t, a in p.tags if t == "div" and a.get("class") == "attnlab-output"]
    (data,) = [s for a, s in p.scripts if a.get("type") == "application/json"]
    return json.loads(data), root["id"], p


def floats(b64):
    raw = base64.b64decode(b64)
    return list(struct.unpack(f"<{len(raw) // 4}f", raw))


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def assert_self_contained(html):
    p = Parsed(html)
    urls = set(re.findall(r"https?://[^\s\"'`)<>]*", html))
    assert urls <= {"http://www.w3.org/2000/svg"}, urls  # the SVG namespace of toSVG(), never fetched
    for tag, attrs in p.tags:
        assert tag not in ("link", "iframe", "img", "object", "embed"), tag
        assert "src" not in attrs and "href" not in attrs, (tag, attrs)
        if tag == "script":
            assert attrs.get("type") in (None, "application/json"), attrs  # no module scripts
    for attrs, text in p.scripts:
        assert not re.search(r"\bimport\s*\(\s*['\"`](?!node:)", text), "an import() of something other than Node's fs"
        assert not re.search(r"^\s*import\s", text, re.M)
    assert "fetch(" not in html.split("attnlab-data")[0]


WEIGHTS = [[0.7, 0.2, 0.1], [0.05, 0.9, 0.05]]


def test_heatmap_keeps_the_weights_and_labels_and_is_self_contained():
    out = show(WEIGHTS, rows=["x", "y"], cols="abc", title="two queries")
    assert isinstance(out, Shown)
    data, uid, p = data_of(out.html)
    assert data["kind"] == "heatmap" and data["rows"] == 2 and data["cols"] == 3
    assert floats(data["weights"]) == [f32(v) for row in WEIGHTS for v in row]
    assert data["rowLabels"] == ["x", "y"] and data["colLabels"] == ["a", "b", "c"]
    assert data["title"] == "two queries"
    assert_self_contained(out.html)
    # the heatmap bundle, without the wasm, and a mount line naming this output's id
    assert "wasmGzip" not in data
    with open(os.path.join(ASSETS, "heatmap.js"), encoding="utf-8") as f:
        assert f.read() in out.html
    assert "querySelectorAll('[id=\"'+id+'\"]')" in out.html and f'var id="{uid}"' in out.html
    assert out._repr_html_() == out.html
    bundle = out._repr_mimebundle_()
    assert bundle["text/html"] == out.html and bundle["text/plain"] == "attnlab.show: heatmap 2 × 3 (two queries)"


def test_default_labels_and_numpy_and_torch_inputs():
    np = pytest.importorskip("numpy")
    a = np.array(WEIGHTS, dtype=np.float64)
    data, _, _ = data_of(show(a).html)
    assert data["rowLabels"] == ["0", "1"] and data["colLabels"] == ["0", "1", "2"]
    assert floats(data["weights"]) == [f32(v) for row in WEIGHTS for v in row]
    torch = pytest.importorskip("torch")
    t = torch.tensor([WEIGHTS], requires_grad=True)  # a batch of one, with grad: drawn as [2, 3]
    data, _, _ = data_of(show(t * 1).html)
    assert (data["rows"], data["cols"]) == (2, 3)
    assert floats(data["weights"]) == [f32(v) for row in WEIGHTS for v in row]


def test_ids_are_unique_across_outputs():
    outs = [show(WEIGHTS) for _ in range(5)] + [show(MODEL, input="1 May 2020") for _ in range(2)]
    ids = [data_of(o.html)[1] for o in outs]
    assert len(set(ids)) == len(ids)
    for o, uid in zip(outs, ids):
        assert o.html.count(uid) == 2  # the root and its mount line, nothing else
        assert all(other not in o.html for other in ids if other != uid)


def test_live_view_inlines_the_wasm_and_the_model_byte_for_byte():
    out = show(MODEL, input="22 Nov 2026")
    data, _, _ = data_of(out.html)
    assert data["kind"] == "model" and data["input"] == "22 Nov 2026"
    wasm = gzip.decompress(base64.b64decode(data["wasmGzip"]))
    assert wasm[:4] == b"\0asm"
    with open(os.path.join(ASSETS, "attnlab.wasm"), "rb") as f:
        assert wasm == f.read()
    with open(MODEL, "rb") as f:
        model = f.read()
    assert base64.b64decode(data["model"]) == model
    assert_self_contained(out.html)
    with open(os.path.join(ASSETS, "notebook.js"), encoding="utf-8") as f:
        assert f.read() in out.html
    assert "dates-additive" in out.text and "'22 Nov 2026'" in out.text
    # bytes and a path give the same data
    assert data_of(show(model, input="22 Nov 2026").html)[0] == data


def test_text_from_the_caller_cannot_end_the_script():
    nasty = "</script><script>alert(1)</script><!--"
    out = show([[1.0]], rows=[nasty], cols=["&amp;"], title=nasty)
    assert out.html.lower().count("</script>") == 3  # the data, the bundle, the mount line
    data, _, p = data_of(out.html)
    assert data["rowLabels"] == [nasty] and data["title"] == nasty and data["colLabels"] == ["&amp;"]
    assert len(p.scripts) == 3
    live = show(MODEL, input=nasty[:30])
    assert live.html.lower().count("</script>") == 3
    assert data_of(live.html)[0]["input"] == nasty[:30]


def test_save_writes_a_whole_page(tmp_path):
    out = show(WEIGHTS, title="<saved>")
    path = out.save(tmp_path / "view.html")
    text = (tmp_path / "view.html").read_text(encoding="utf-8")
    assert path == tmp_path / "view.html"
    assert text.startswith("<!doctype html>") and '<meta charset="utf-8">' in text
    assert "<title>&lt;saved&gt;</title>" in text and out.html in text


@pytest.mark.parametrize("weights, message", [
    ([[[0.5, 0.5]], [[0.5, 0.5]]], r"must be 2-D \[rows, cols\].*shape \[2, 1, 2\]"),
    ([[0.5, 0.5], [1.0]], r"row 1 has 1 entries, row 0 has 2"),
    ([[0.5, float("nan")]], r"weights\[0\]\[1\] is nan; every weight must be finite"),
    ([[0.5, "x"]], r"weights\[0\]\[1\] is 'x', not a number"),
    ([], r"must be 2-D"),
    (3.0, r"expected a 2-D array of weights"),
])
def test_bad_weights_are_refused_with_the_reason(weights, message):
    with pytest.raises((ValueError, TypeError), match=message):
        show(weights)


def test_bad_labels_and_options_are_refused():
    with pytest.raises(ValueError, match=r"rows has 3 labels but the weights have 2 rows"):
        show(WEIGHTS, rows=["a", "b", "c"])
    with pytest.raises(ValueError, match=r"colormap must be 'viridis' or 'diverging'"):
        show(WEIGHTS, colormap="jet")
    with pytest.raises(TypeError, match=r"input= is for a model file"):
        show(WEIGHTS, input="x")
    with pytest.raises(TypeError, match=r"rows and cols label a heatmap"):
        show(MODEL, rows=["a"])
    with pytest.raises(ValueError, match=r"at most 64"):
        show(MODEL, input="x" * 65)


def test_bad_model_files_are_refused_with_the_reason(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"cannot read the model file"):
        show(str(tmp_path / "missing.safetensors"))
    with pytest.raises(ValueError, match=r"not a safetensors file"):
        show(b"not a model file at all")
    header = json.dumps({"__metadata__": {}}).encode()
    with pytest.raises(ValueError, match=r"no attnlab config"):
        show(struct.pack("<Q", len(header)) + header)
    graph = json.dumps({"__metadata__": {"config": json.dumps({"architecture": "graph-net"})}}).encode()
    with pytest.raises(ValueError, match=r"the live view draws seq2seq .*'graph-net'"):
        show(struct.pack("<Q", len(graph)) + graph)


def test_attnlab_show_stays_the_function():
    """`attnlab.show(...)` twice, and after `import attnlab.show`: the package must import the
    function eagerly (`from .show import show`): a lazy module __getattr__ is shadowed by the
    submodule once it is imported, and the second call finds a module."""
    import attnlab
    if getattr(attnlab, "__file__", None) is None:
        pytest.skip("no attnlab/__init__.py here (the package core is another branch)")
    import attnlab.show  # noqa: F401
    assert attnlab.show is show
    assert attnlab.show(WEIGHTS).text == attnlab.show(WEIGHTS).text
