"""attnlab.show(model file), the live view, for every family the page draws, drawn in Chromium.

A shipped model of each architecture (web/models/, small ones) is shown with show(file, input=…),
saved (Shown.save) and opened from file:// by chromium_live.mjs (playwright-core, Debian's
/usr/bin/chromium), every request but the page, data: and blob: refused. Checked: the view is the
one the page draws that architecture in (python/js/live-views.js: the heads view for a
transformer, with every layer × head thumbnail and, for an encoder-decoder, each kind of map; the
pooling view for a classifier, with its label, calibrated confidence, "unsure" and unknown-word
note; the reading view for a memory-RNN language model; the alignment view for seq2seq, as
before); its numbers equal what wasm/index.js computes in Node for the same file and input (to
1e-5); typing another input re-runs the model in the page and redraws (the numbers checked
again); no request and no console error; it fits a 390 px phone. And the errors: a file of an
architecture no view draws, an input longer than the live view runs or than the model's learned
positions (refused by show(), and blanked by the view when typed). Screenshots at 1280 × 720 and
390 × 844: tests/browser/screenshots/live-<family>-<width>.png.
"""

import base64
import json
import math
import os
import re
import struct
import subprocess
import sys

import pytest

from attnlab.show import show
from conftest import MODELS, ROOT, node

HERE = os.path.dirname(os.path.abspath(__file__))
SHOTS = os.path.join(ROOT, "tests", "browser", "screenshots")
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ATOL = 1e-5
# a memory-RNN classifier (config head "classifier"): the page's reading view draws language models only
UNDRAWN = os.path.join(ROOT, "tests", "fixtures", "memory_rnn_clf_lstmn.safetensors")

# One small shipped model of each family; inputs[0] is show()'s, the others are typed in the view.
FAMILIES = {
    "transformer": dict(file="tf-induction", view="heads", inputs=["a b c d a b c", "x y z x y"]),
    "encoder-decoder": dict(file="tf-dates-absolute", view="heads",
                            inputs=["22 Nov 2026", "March 3, 1999"], kinds=["encoder", "decoder"],
                            blank="1" * 50),
    "classifier": dict(file="clf-reviews-attention", view="pooling",
                       inputs=["The food was great but the service was slow.",
                               "The zorblax was flimflam."]),
    "memory-rnn": dict(file="lm-agreement-sarnn", view="reading",
                       inputs=["The keys to the cabinet are on the table.", "The dog runs."]),
    "seq2seq": dict(file="dates-additive", view="alignment", inputs=["22 Nov 2026", "3 March 1999"]),
}


def model_path(family):
    return os.path.join(MODELS, FAMILIES[family]["file"] + ".safetensors")


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    """{family: chromium_live.mjs's answer} for every family, in one Chromium."""
    if not os.path.exists(CHROMIUM):
        raise RuntimeError(f"Chromium not found at {CHROMIUM}; these tests need it: "
                           "apt-get install -y chromium (or set CHROMIUM_PATH)")
    d = tmp_path_factory.mktemp("live")
    os.makedirs(SHOTS, exist_ok=True)
    jobs = []
    for family, f in FAMILIES.items():
        page = str(d / f"{family}.html")
        show(model_path(family), input=f["inputs"][0]).save(page)
        job = {"html": page, "inputs": f["inputs"], "shots": os.path.join(SHOTS, f"live-{family}")}
        for k in ("kinds", "blank"):
            if k in f:
                job[k] = f[k]
        jobs.append(job)
    # a file no view draws, its output written past show()'s check: the bundle refuses it too
    page = str(d / "undrawn.html")
    with open(UNDRAWN, "rb") as fh:
        b = fh.read()
    mod = sys.modules["attnlab.show"]
    data = {"wasmGzip": mod._wasm_gzip_b64(), "model": base64.b64encode(b).decode("ascii"),
            "input": "the cat", "title": None}
    mod._output("model", data, mod._asset("notebook.js"), "attnlabNotebook", "", "x").save(page)
    jobs.append({"html": page, "inputs": ["the cat"]})
    env = dict(os.environ, NODE_PATH=os.environ.get("NODE_PATH", "/usr/share/nodejs"))
    p = subprocess.run(["node", os.path.join(HERE, "chromium_live.mjs")], cwd=ROOT, env=env,
                       input=json.dumps({"jobs": jobs}), capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError(f"chromium_live.mjs exited {p.returncode}: {p.stderr[-2000:]}")
    results = json.loads(p.stdout)["results"]
    out = dict(zip(list(FAMILIES) + ["undrawn"], results))
    for family, r in out.items():
        assert "error" not in r, f"{family}: {r.get('error')}"
    return out


def node_runs(family, inputs, options=None):
    """Node's model.run of each input (wasm/index.js loadModel on the same file)."""
    calls = [["run", i] + ([options] if options else []) for i in inputs]
    (results,) = node([{"file": model_path(family), "calls": calls}])
    return results


def worst(a, b):
    assert len(a) == len(b), f"{len(a)} values drawn, {len(b)} in Node"
    return max((abs(x - y) for x, y in zip(a, b)), default=0.0)


def same_map(drawn_map, m, what):
    """A drawn <attn-heatmap>'s data is Node's map m (shape, labels, weights to ATOL)."""
    assert drawn_map is not None, f"{what}: nothing drawn"
    rows, cols = m["weights"]["shape"]
    assert (drawn_map["rows"], drawn_map["cols"]) == (rows, cols), what
    assert drawn_map["rowLabels"] == m["rowLabels"], what
    assert drawn_map["colLabels"] == m["colLabels"], what
    d = worst(drawn_map["weights"], m["weights"]["data"])
    assert d <= ATOL, f"{what}: |drawn - Node| {d:.3g} > {ATOL}"


@pytest.mark.parametrize("family", list(FAMILIES))
def test_each_family_draws_offline_in_its_view_without_errors(drawn, family):
    r = drawn[family]
    assert r["requests"] == [], f"{family}: requests {r['requests']}"
    assert r["problems"] == [], f"{family}: {r['problems']}"
    for d, typed in zip(r["draws"], FAMILIES[family]["inputs"]):
        assert d["state"] == "ready" and d["error"] is None, (family, d["error"])
        assert d["view"] == FAMILIES[family]["view"], family
        assert d["hidden"] is False
        assert d["input"] == typed
        assert d["status"].startswith("Ran in your browser (attnlab SIMD128 build)"), d["status"]
    # a 390 px phone: nothing wider than the screen
    assert r["narrow"]["width"] <= r["narrow"]["client"], r["narrow"]


def heads_maps(run, kind=None):
    """Node's maps of a transformer run as the heads view selects them: {(layer, head): map}."""
    maps = run["attention"]
    if kind is not None:
        maps = [m for m in maps if (m["kind"] == "cross") == (kind == "cross")
                and (kind == "cross" or m["stack"] == kind)]
    return {(m["layer"], m["head"]): m for m in maps}


@pytest.mark.parametrize("family", ["transformer", "encoder-decoder"])
def test_transformer_heads_view_is_every_layer_and_head_of_node(drawn, family):
    f = FAMILIES[family]
    runs = node_runs(family, f["inputs"])
    config = node([{"file": model_path(family), "calls": [["config"]]}])[0][0]
    L, H = config["numLayers"], config["numHeads"]
    ed = config["variant"] == "encoder-decoder"
    for d, run in zip(drawn[family]["draws"], runs):
        assert d["about"].endswith(
            f"transformer ({config['variant']}), {L} layers × {H} heads, learned positions: the heads view")
        assert d["gridTitle"] == f"{L} layers × {H} heads"
        assert sorted((t[0], t[1]) for t in d["thumbs"]) == [(l, h) for l in range(L) for h in range(H)]
        assert sum(t[2] for t in d["thumbs"]) == 1  # one enlarged
        assert d["output"] == run["output"] and d["shownOutput"] == run["output"]
        assert d["kind"] == ("cross" if ed else None)
        want = heads_maps(run, "cross" if ed else None)
        assert len(d["heads"]) == L * H
        for layer, head, m, title in d["heads"]:
            kind = "cross-attention (output × input)" if ed else "decoder self-attention"
            assert title == f"Layer {layer + 1}, head {head + 1}: {kind}"
            same_map(m, want[(layer, head)], f"{family} {d['input']!r} layer {layer} head {head}")
    for kind, v in drawn[family].get("kinds", {}).items():
        assert v["kind"] == kind
        want = heads_maps(runs[0], kind)
        assert len(v["heads"]) == L * H
        for layer, head, m, title in v["heads"]:
            assert title == f"Layer {layer + 1}, head {head + 1}: {kind} self-attention"
            same_map(m, want[(layer, head)], f"{family} {kind} layer {layer} head {head}")


def test_classifier_pooling_view_label_confidence_unsure_and_unknown_words(drawn):
    f = FAMILIES["classifier"]
    runs = node_runs("classifier", f["inputs"])
    for d, run in zip(drawn["classifier"]["draws"], runs):
        assert "classifier: bidirectional rnn encoder, attention pooling, labels negative, " \
               "positive: the pooling view" in d["about"]
        assert d["label"] == run["label"] == d["output"]
        p = run["probs"][run["labelId"]]
        assert abs(float(d["confidence"].split()[-1]) - p) < 5e-4, (d["confidence"], p)
        assert [lab for lab, _ in d["probs"]] == ["negative", "positive"]
        for (_, shown), q in zip(d["probs"], run["probs"]):
            assert math.isclose(float(shown), q, rel_tol=1e-3), (shown, q)
        assert (d["unsure"] == "unsure") == (p < 0.7), (d["unsure"], p)
        assert (d["unknownNote"] is not None) == (run["unknownShare"] >= 1 / 3)
        assert d["words"] == run["tokens"]
        same_map(d["map"], dict(run["attention"][0], rowLabels=["α"]), f"classifier {d['input']!r}")
    # the second input: two words of four unknown, a confidence under 0.7
    second, run = drawn["classifier"]["draws"][1], runs[1]
    assert run["unknownWords"] == ["zorblax", "flimflam"]
    assert second["unsure"] == "unsure" and "50%" in second["unknownNote"]
    assert second["status"].endswith("Not in the vocabulary: zorblax flimflam.")
    assert drawn["classifier"]["draws"][0]["unsure"] is None


def test_memory_rnn_reading_view_is_node_run_of_the_text_read(drawn):
    f = FAMILIES["memory-rnn"]
    (texts,) = node([{"file": model_path("memory-rnn"), "calls": [["normalize", i] for i in f["inputs"]]}])
    runs = node_runs("memory-rnn", texts, {"distributions": True})
    for d, text, run in zip(drawn["memory-rnn"]["draws"], texts, runs):
        assert d["about"].endswith("memory-RNN language model: self-attention-rnn cell: the reading view")
        assert d["readAs"] == text
        assert d["words"] == run["tokens"]
        same_map(d["map"], run["attention"][0], f"memory-rnn {d['input']!r}")
        # the probability under every word but the first: exp(logProbs), as the view rounds it
        for shown, lp in zip(d["wordProbs"][1:], run["logProbs"]):
            assert math.isclose(float(shown), math.exp(lp), rel_tol=5e-3), (shown, math.exp(lp))


def test_seq2seq_stays_the_alignment_view(drawn):
    runs = node_runs("seq2seq", FAMILIES["seq2seq"]["inputs"])
    for d, run in zip(drawn["seq2seq"]["draws"], runs):
        assert d["about"].endswith("seq2seq, lstm cell, additive attention")
        assert d["output"] == run["output"]
        same_map(d["map"], run["attention"][0], f"seq2seq {d['input']!r}")


def test_text_lines_say_the_architecture():
    texts = {family: show(model_path(family), input=f["inputs"][0]).text
             for family, f in FAMILIES.items()}
    assert texts["transformer"] == ("attnlab.show: live view of 'tf-induction' (transformer "
                                    "(decoder), 2 layers × 2 heads: the heads view), input 'a b c d a b c'")
    assert "(transformer (encoder-decoder), 2 layers × 4 heads: the heads view)" in texts["encoder-decoder"]
    assert "(classifier, attention pooling over 2 labels: the pooling view)" in texts["classifier"]
    assert "(memory-RNN language model, self-attention-rnn cell: the reading view)" in texts["memory-rnn"]
    assert "(seq2seq, additive attention: the alignment view)" in texts["seq2seq"]


def safetensors_with(config):
    header = json.dumps({"__metadata__": {"config": json.dumps(config)}}).encode()
    return struct.pack("<Q", len(header)) + header


def test_a_file_no_view_draws_is_refused_naming_it_and_the_drawn_ones():
    drawn_ones = (r"seq2seq in the alignment view, transformer in the heads view, classifier in "
                  r"the pooling view, memory-rnn \(head 'lm'\) in the reading view")
    with pytest.raises(ValueError, match=drawn_ones + r"; this file's architecture is 'graph-net'"):
        show(safetensors_with({"architecture": "graph-net"}))
    with pytest.raises(ValueError, match=r"this file's architecture is 'memory-rnn' with head 'classifier'"):
        show(safetensors_with({"architecture": "memory-rnn", "head": "classifier"}))
    with pytest.raises(ValueError, match=drawn_ones + r"; this file's architecture is 'memory-rnn' "
                                                      r"with head 'classifier'"):
        show(UNDRAWN, input="the cat")


def test_the_bundle_refuses_a_file_no_view_draws_naming_it(drawn):
    """show() refuses it first; an output written past that check says the same in the page."""
    r = drawn["undrawn"]
    assert r["problems"] == [] and r["requests"] == []
    (d,) = r["draws"]
    assert d["state"] == "error" and d["view"] is None
    assert d["error"] == (
        'attnlab: the live view draws seq2seq (the alignment view), transformer (the heads view), '
        'classifier (the pooling view), memory-rnn with head "lm" (the reading view); this file is '
        '"memory-rnn" with head "classifier"')


def test_over_long_inputs_are_refused_as_the_view_refuses_them(drawn):
    with pytest.raises(ValueError, match=r"input is 65 characters; the live view runs at most 64"):
        show(model_path("classifier"), input="x" * 65)
    message = ("too long for tf-dates-absolute: it reads at most 48 characters (one learned "
               "position each), and this input has 50. Shorten it.")
    with pytest.raises(ValueError) as e:
        show(model_path("encoder-decoder"), input="1" * 50)
    assert str(e.value) == "attnlab.show: " + message
    show(model_path("encoder-decoder"), input="1" * 48)  # at the limit: drawn
    # typed in the view: the page's own message alone, the view hidden
    blank = drawn["encoder-decoder"]["blank"]
    assert blank["error"] == "T" + message[1:]
    assert blank["hidden"] is True and blank["state"] == "ready"


def test_screenshots_were_written(drawn):
    for family in FAMILIES:
        for w in (1280, 390):
            path = os.path.join(SHOTS, f"live-{family}-{w}.png")
            assert os.path.getsize(path) > 10_000, path


def test_the_sizes_docs_python_md_states_are_measured():
    """docs/python.md's live-view size line: the fixed part (bundle + gzipped .wasm, base64) and
    the examples, to the KB (rewrite the line when the bundle changes)."""
    with open(os.path.join(ROOT, "docs", "python.md"), encoding="utf-8") as f:
        doc = " ".join(f.read().split())
    m = re.search(r"the live view about (\d+) KB \(the bundle, (\d+) KB, and the `\.wasm` gzipped, "
                  r"base64, (\d+) KB\) plus 4/3 of the model file, whatever its family \(measured: "
                  r"`tf-induction` (\d+) KB, `dates-additive` (\d+) KB, `clf-reviews-attention` "
                  r"(\d+) KB, `lm-agreement-sarnn` ([\d.]+) MB\)", doc)
    assert m, "docs/python.md: the live view's size sentence is not where this test reads it"
    total, bundle, wasm, tf, dates, clf, lm = m.groups()
    html = {f: len(show(os.path.join(MODELS, f + ".safetensors"), input="22 Nov 2026").html.encode())
            for f in ("tf-induction", "dates-additive", "clf-reviews-attention", "lm-agreement-sarnn")}
    fixed = {html[f] - os.path.getsize(os.path.join(MODELS, f + ".safetensors")) * 4 / 3 for f in html}
    assert max(fixed) - min(fixed) < 64, fixed  # the same fixed part for every family
    def kb(n):
        return round(n / 1000)
    mod = sys.modules["attnlab.show"]  # the module (attnlab.show is the function)
    assert (int(total), int(bundle), int(wasm)) == (
        kb(min(fixed)), kb(len(mod._asset("notebook.js"))), kb(len(mod._wasm_gzip_b64()))), \
        f"docs/python.md says {total}/{bundle}/{wasm} KB; measured {kb(min(fixed))}/" \
        f"{kb(len(mod._asset('notebook.js')))}/{kb(len(mod._wasm_gzip_b64()))} KB"
    assert [int(tf), int(dates), int(clf)] == [kb(html["tf-induction"]), kb(html["dates-additive"]),
                                               kb(html["clf-reviews-attention"])]
    assert float(lm) == round(html["lm-agreement-sarnn"] / 1e6, 2)
