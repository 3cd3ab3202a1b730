"""attnlab.show: attention in a notebook output cell, as one self-contained piece of HTML.

    import attnlab
    attnlab.show(weights, rows=["2", "0", ...], cols=list("22 nov 2026"))   # a heatmap
    attnlab.show("dates.safetensors", input="22 Nov 2026")                 # the live view
    view = attnlab.show(...); view.html; view.save("view.html")

show(weights): a 2-D array (nested lists, numpy, a torch tensor; leading dimensions of size 1
are dropped) drawn by <attn-heatmap> (web/elements/attention-heatmap.js), rows = queries (the
output tokens), cols = keys (the input tokens).
show(model): the path or the bytes of a model file as attnlab.export writes it (the format of
web/models/*.safetensors): an input box and the model's attention, re-run in the browser by the
inlined attnlab.wasm on every edit, in the view the page draws its architecture in
(assets/live-views.json, from python/js/live-views.js): seq2seq the alignment view (with its
explanation of the hovered cell), transformer the heads view (layers × heads; an
encoder-decoder's kind), classifier the pooling view (label, calibrated confidence, "unsure"),
memory-RNN language model the reading view. Another architecture is refused, naming it.

What an output holds: a div with a unique id, its data as JSON in a <script type=
"application/json"> (weights, or the model file and the gzipped .wasm, base64), the bundle (assets/heatmap.js
or assets/notebook.js, built by scripts/build-python-assets.mjs from python/js/) as a classic
inline script, and a line that mounts it. No module script, no URL, no network: Jupyter
Notebook, JupyterLab, VS Code, Colab and nbconvert's HTML export each render it as it is, every
output alone (Colab and VS Code put each in an iframe of its own). Jupyter shows it only in a
trusted notebook (outputs you ran are; File → Trust Notebook for others); until the script runs,
the output says so.
Sizes: a heatmap output is about 77 KB (the bundle) plus 5.4 bytes a weight; a live view about
444 KB (the bundle and the gzipped .wasm) plus 4/3 of the model file, for every family.
"""

import base64
import gzip
import json
import math
import os
import struct
import sys
import uuid

__all__ = ["show", "Shown"]

_ASSETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "assets")
_cache = {}

# The longest input the live view runs (python/js/notebook.js, <attn-demo>'s MAX_INPUT).
MAX_INPUT = 64
# The largest heatmap show() draws (<attn-heatmap> summarises large ones; this bounds the HTML).
MAX_CELLS = 1 << 20


def _asset(name):
    """An asset's bytes (read once)."""
    if name not in _cache:
        path = os.path.join(_ASSETS, name)
        try:
            with open(path, "rb") as f:
                _cache[name] = f.read()
        except OSError as e:
            raise RuntimeError(
                f"attnlab.show: {path} is missing ({e.strerror}); reinstall attnlab, or in a "
                "checkout run `make python-assets`") from None
    return _cache[name]


def _wasm_gzip_b64():
    """base64 of attnlab.wasm gzipped (the same bytes every time: mtime 0), computed once."""
    if "wasm.gz.b64" not in _cache:
        packed = gzip.compress(_asset("attnlab.wasm"), compresslevel=9, mtime=0)
        _cache["wasm.gz.b64"] = base64.b64encode(packed).decode("ascii")
    return _cache["wasm.gz.b64"]


def _script_text(js):
    """JS source safe inside <script>…</script>: no '</script' (written '<\\/script', the same
    string to JS) and no '<!--' that would change how HTML reads the script."""
    return js.replace("</script", "<\\/script").replace("</SCRIPT", "<\\/SCRIPT").replace("<!--", "<\\!--")


def _json_text(value):
    """JSON safe inside <script type="application/json">: <, > and & escaped as \\u00XX."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _escape(text):
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


class Shown:
    """What show() returns: rendered by IPython (_repr_html_, _repr_mimebundle_), `.html` (the
    output's HTML, a fragment), `.save(path)` (a whole HTML page), `.text` (the plain-text line)."""

    def __init__(self, html, text, title):
        self.html = html
        self.text = text
        self.title = title

    def _repr_html_(self):
        return self.html

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/html": self.html, "text/plain": self.text}

    def __repr__(self):
        return self.text

    def save(self, path):
        """Write a standalone HTML page (the output and nothing else; opens from file://)."""
        page = (
            '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{_escape(self.title)}</title>\n</head>\n<body>\n{self.html}\n</body>\n</html>\n")
        with open(os.fspath(path), "w", encoding="utf-8") as f:
            f.write(page)
        return path


def _output(kind, data, bundle, global_name, text, title):
    """The HTML of one output: root div (data, mount point, fallback), the bundle, the mount."""
    uid = "attnlab-" + uuid.uuid4().hex
    data = dict(data, kind=kind)
    waiting = ("attnlab: drawing… If this stays, JavaScript did not run here: in Jupyter, run "
               "the cell again or trust the notebook (File → Trust Notebook).")
    # The mount line waits for the root to be in the document (a notebook may run the scripts
    # before it attaches the output), then mounts every root of this id (one Shown displayed
    # twice puts it twice on a page; mount() skips a mounted root); each output's bundle sets the
    # global again.
    mount = (f'(function(){{var id="{uid}",n=0;function go(){{var g=window.{global_name},'
             f'r=document.querySelectorAll(\'[id="\'+id+\'"]\');'
             f'if(g&&r.length)for(var i=0;i<r.length;i++)g.mount(r[i]);'
             f'else if(n++<200)setTimeout(go,25);}}go();}})();')
    return Shown(
        f'<div class="attnlab-output" id="{uid}" data-attnlab-kind="{kind}">\n'
        f'<script type="application/json" class="attnlab-data">{_json_text(data)}</script>\n'
        f'<div class="attnlab-mount"><p style="font-size:0.875rem;color:#5c5c66">'
        f"{_escape(waiting)}</p></div>\n</div>\n"
        f"<script>{_script_text(bundle.decode('utf-8'))}</script>\n"
        f"<script>{mount}</script>\n",
        text, title)


# ---------------------------------------------------------------- weights → heatmap


def _matrix(weights):
    """(values as a flat list of floats, rows, cols) of a 2-D array-like."""
    w = weights
    if hasattr(w, "detach"):  # a torch tensor: no grad, on the CPU, float
        w = w.detach().cpu().float()
        w = w.numpy() if hasattr(w, "numpy") else w.tolist()
    if hasattr(w, "tolist") and hasattr(w, "shape"):  # numpy (and anything like it)
        shape = tuple(int(n) for n in w.shape)
        w = w.tolist()
    else:
        shape = _shape_of(w)
    while len(shape) > 2 and shape[0] == 1:  # a batch of one, a single head
        shape = shape[1:]
        w = w[0]
    if len(shape) != 2:
        raise ValueError(
            f"attnlab.show: weights must be 2-D [rows, cols] (queries × keys), got shape "
            f"{list(shape)}; pick one map, e.g. weights[0] or weights[layer][head]")
    rows, cols = shape
    if rows < 1 or cols < 1:
        raise ValueError(f"attnlab.show: weights are empty (shape {list(shape)})")
    if rows * cols > MAX_CELLS:
        raise ValueError(f"attnlab.show: {rows} × {cols} weights are more than {MAX_CELLS} cells")
    flat = []
    for r, row in enumerate(w):
        for c, v in enumerate(row):
            try:
                x = float(v)
            except (TypeError, ValueError):
                raise TypeError(f"attnlab.show: weights[{r}][{c}] is {v!r}, not a number") from None
            if not math.isfinite(x):
                raise ValueError(f"attnlab.show: weights[{r}][{c}] is {x}; every weight must be finite")
            flat.append(x)
    return flat, rows, cols


def _shape_of(w):
    """The shape of nested lists (rows of equal length), or raise naming the ragged row."""
    if isinstance(w, (str, bytes)) or not hasattr(w, "__len__"):
        raise TypeError(
            "attnlab.show: expected a 2-D array of weights (nested lists, numpy, torch) or a "
            f"model file (a path or bytes), got {type(w).__name__}")
    if len(w) == 0 or not hasattr(w[0], "__len__"):
        return (len(w),)
    n = len(w[0])
    for i, row in enumerate(w):
        if not hasattr(row, "__len__") or len(row) != n:
            raise ValueError(f"attnlab.show: weights row {i} has {len(row) if hasattr(row, '__len__') else 'no'} "
                             f"entries, row 0 has {n}; rows must all be as long")
    inner = _shape_of(w[0])
    return (len(w),) + inner


def _labels(labels, count, what):
    """A list of count strings: None → 0..count-1; a str → its characters; else one per item."""
    if labels is None:
        return [str(i) for i in range(count)]
    labels = list(labels)  # a str: its characters (pass a list for words)
    if len(labels) != count:
        raise ValueError(
            f"attnlab.show: {what} has {len(labels)} labels but the weights have {count} "
            f"{what}; pass one label per {what[:-1]} (a string gives one per character)")
    return [str(x) for x in labels]


def _heatmap(weights, rows, cols, title, label, vmin, vmax, colormap, cell_size):
    flat, n_rows, n_cols = _matrix(weights)
    row_labels = _labels(rows, n_rows, "rows")
    col_labels = _labels(cols, n_cols, "cols")
    packed = struct.pack(f"<{len(flat)}f", *flat)
    if colormap not in (None, "viridis", "diverging"):
        raise ValueError(f"attnlab.show: colormap must be 'viridis' or 'diverging', got {colormap!r}")
    data = {
        "weights": base64.b64encode(packed).decode("ascii"),
        "rows": n_rows, "cols": n_cols, "rowLabels": row_labels, "colLabels": col_labels,
        "title": title, "label": label or "attention weights",
        "min": vmin, "max": vmax, "colormap": colormap, "cellSize": cell_size,
    }
    text = f"attnlab.show: heatmap {n_rows} × {n_cols}"
    if title:
        text += f" ({title})"
    return _output("heatmap", data, _asset("heatmap.js"), "attnlabHeatmap", text, title or "attention")


# ---------------------------------------------------------------- model file → live view


def _model_bytes(source):
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    path = os.fspath(source)
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise FileNotFoundError(
            f"attnlab.show: cannot read the model file {path!r} ({e.strerror}); pass the path "
            "attnlab.export wrote, or its bytes") from None


def _model_config(b):
    """The config a model file carries (__metadata__["config"]), or raise saying what is wrong."""
    if len(b) < 10:
        raise ValueError(f"attnlab.show: {len(b)} bytes is not a model file (a .safetensors from attnlab.export)")
    (n,) = struct.unpack("<Q", b[:8])
    if n > len(b) - 8 or b[8:9] != b"{":
        raise ValueError("attnlab.show: these bytes are not a safetensors file; pass a model file "
                         "as attnlab.export writes it")
    try:
        header = json.loads(b[8:8 + n].decode("utf-8"))
        config = json.loads(header["__metadata__"]["config"])
    except (ValueError, KeyError, TypeError):
        raise ValueError("attnlab.show: this safetensors file has no attnlab config "
                         "(__metadata__['config']); write it with attnlab.export") from None
    if not isinstance(config, dict):
        raise ValueError("attnlab.show: the model file's config is not a JSON object")
    return config


def _live_families():
    """What the live view draws: [{architecture, head, view}], the page's own relation
    (python/js/live-views.js, written to assets/live-views.json by `make python-assets`)."""
    if "live-views" not in _cache:
        _cache["live-views"] = json.loads(_asset("live-views.json").decode("utf-8"))
    return _cache["live-views"]


def _live_view(config):
    """The view of the page the live view draws this config in, or raise naming what it draws."""
    arch, head = config.get("architecture"), config.get("head")
    families = _live_families()
    for f in families:
        if f["architecture"] == arch and (f["head"] is None or f["head"] == head):
            return f["view"]
    drawn = ", ".join(f"{f['architecture']}" + (f" (head {f['head']!r})" if f["head"] else "")
                      + f" in the {f['view']} view" for f in families)
    this = f"{arch!r}" + (f" with head {head!r}" if head is not None and arch in
                          [f["architecture"] for f in families] else "")
    raise ValueError(
        f"attnlab.show: the live view draws {drawn}; this file's architecture is {this}. "
        "For other weights, show(weights) draws any 2-D map")


def _about(config, view):
    """The architecture as the text line says it (the view's about line says the same)."""
    if view == "heads":
        return (f"transformer ({config.get('variant')}), {config.get('numLayers')} layers × "
                f"{config.get('numHeads')} heads: the heads view")
    if view == "pooling":
        return (f"classifier, {config.get('pooling')} pooling over "
                f"{len(config.get('labels') or [])} labels: the pooling view")
    if view == "reading":
        return f"memory-RNN language model, {config.get('cell')} cell: the reading view"
    return f"seq2seq, {config.get('attention')} attention: the alignment view"


def _too_long(config, text):
    """The JS library's refusal (web/views/view-context.js lengthProblem) of an input longer than
    the positions a transformer learned (config maxPositions), or None."""
    limit = config.get("maxPositions")
    if not isinstance(limit, int) or limit <= 0 or not text:
        return None
    from .tokenizer import Tokenizer
    tok = Tokenizer.from_config(config)
    n = len(tok.split(text))
    if n <= limit:
        return None
    unit = "words" if tok.type == "word" else "characters"
    return (f"attnlab.show: too long for {config.get('name') or 'this model'}: it reads at most "
            f"{limit} {unit} (one learned position each), and this input has {n}. Shorten it.")


def _live(source, input, title):
    b = _model_bytes(source)
    config = _model_config(b)
    view = _live_view(config)
    text_in = "" if input is None else str(input)
    if len(text_in) > MAX_INPUT:
        raise ValueError(f"attnlab.show: input is {len(text_in)} characters; the live view runs at most {MAX_INPUT}")
    problem = _too_long(config, text_in)
    if problem:
        raise ValueError(problem)
    name = config.get("name") or "model"
    data = {
        "wasmGzip": _wasm_gzip_b64(),
        "model": base64.b64encode(b).decode("ascii"),
        "input": text_in,
        "title": title,
    }
    text = f"attnlab.show: live view of {name!r} ({_about(config, view)}), input {text_in!r}"
    return _output("model", data, _asset("notebook.js"), "attnlabNotebook", text, title or name)


def show(model_or_weights, rows=None, cols=None, *, input=None, title=None, label=None,
         vmin=None, vmax=None, colormap=None, cell_size=None):
    """Attention as a notebook output: a Shown (rendered when it is a cell's last value; .html,
    .save(path)).

    model_or_weights: a model file (a path, str or os.PathLike, or its bytes) as attnlab.export
      writes it (seq2seq, transformer, classifier, memory-RNN language model) → the live view,
      in the page's view for it, on `input` (at most 64 characters, and no more tokens than a
      transformer's learned positions; editable in the view);
      or a 2-D array of weights [rows, cols] → a heatmap.
    rows, cols (heatmap): labels, one per row (query, output token) and column (key, input
      token); a string gives one per character; default 0, 1, ….
    title: a line above the view. label: the heatmap's accessible name.
    vmin, vmax: the colour range (default: the weights' range); colormap: 'viridis' (default) or
      'diverging' (symmetric about 0, for differences); cell_size: CSS pixels per cell (default:
      fit the width).
    """
    w = model_or_weights
    is_module = "torch" in sys.modules and isinstance(w, sys.modules["torch"].nn.Module)
    if is_module:
        raise TypeError(
            "attnlab.show: got a torch module; export it first and show the file: "
            "attnlab.export(model, 'model.safetensors', tokenizer=...); "
            "attnlab.show('model.safetensors', input='...')")
    if isinstance(w, (bytes, bytearray, memoryview, str, os.PathLike)):
        if rows is not None or cols is not None:
            raise TypeError("attnlab.show: rows and cols label a heatmap of weights; a model's view labels itself")
        return _live(w, input, title)
    if input is not None:
        raise TypeError("attnlab.show: input= is for a model file; weights are shown as they are")
    return _heatmap(w, rows, cols, title, label, vmin, vmax, colormap, cell_size)
