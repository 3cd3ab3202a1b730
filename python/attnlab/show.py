"""attnlab.show: attention in a notebook output cell, as one self-contained piece of HTML.

    import attnlab
    attnlab.show(attention, tokens=["the", "cat", "sat"])      # [L, H, T, S]: a layer × head grid
    attnlab.show(outputs.attentions, tokens=tokenizer.convert_ids_to_tokens(ids))  # Hugging Face
    attnlab.show(model.run("22 Nov 2026"))                     # an attnlab.torch result, labelled
    attnlab.show(weights, query_tokens=list("2026-11-22"), key_tokens=list("22 nov 2026"))
    attnlab.show("dates.safetensors", input="22 Nov 2026")    # the live view
    view = attnlab.show(...); view.html; view.save("view.html")

show(attention): [T, S] (one map: rows = queries, the output tokens; columns = keys, the input
tokens), [H, T, S], [L, H, T, S] or [L, B, H, T, S] (torch, numpy, nested lists; leading
dimensions of size 1 dropped), a tuple or list of per-layer [B, H, T, S] tensors (Hugging Face's
output_attentions; batch= picks the item, default 0), or the result of an attnlab.torch model of
any architecture (kind= picks a transformer's encoder, decoder or cross maps). _maps.py reads
them all. One map is drawn by <attn-heatmap> (web/elements/attention-heatmap.js); more by
python/js/grid.js: a layer × head grid of thumbnails on one colour scale (fixed 0–1 when every
weight is in [0, 1], else fitted; vmin / vmax set it; the colour bar says which), one enlarged
as an <attn-heatmap> with the tokens on both axes.
show(model): the path or the bytes of a model file as attnlab.export writes it (the format of
web/models/*.safetensors): an input box and the model's attention, re-run in the browser by the
inlined attnlab.wasm on every edit, in the view the page draws its architecture in
(assets/live-views.json, from python/js/live-views.js): seq2seq the alignment view (with its
explanation of the hovered cell), transformer the heads view (layers × heads; an
encoder-decoder's kind), classifier the pooling view (label, calibrated confidence, "unsure"),
memory-RNN language model the reading view. Another architecture is refused, naming it.

What an output holds: a div with a unique id, its data as JSON in a <script type=
"application/json"> (the weights once, as base64 float32, each distinct label list once; or the
model file and the gzipped .wasm, base64), the bundle (assets/heatmap.js or assets/notebook.js,
built by scripts/build-python-assets.mjs from python/js/) as a classic inline script, and a line
that mounts it. No module script, no URL, no network: Jupyter Notebook, JupyterLab, VS Code,
Colab and nbconvert's HTML export each render it as it is, every output alone (Colab and VS Code
put each in an iframe of its own). Jupyter shows it only in a trusted notebook (outputs you ran
are; File → Trust Notebook for others); until the script runs, the output says so.
Sizes (KB = 1,024 bytes; python/tests/test_show_sizes.py measures them): one map is about
135 KB (the bundle) plus 5.4 bytes per weight (100 × 100: 188 KB); a grid is the same bundle
plus about 5.8 bytes per weight, however many maps (2 layers × 4 heads of 16 × 16: 147 KB); the
live view about 439 KB (the bundle, and the `.wasm` gzipped, base64) plus 4/3 of the model file,
the same for every family (`web/models/dates-additive.safetensors`, 74 KB: 533 KB).
"""

import base64
import gzip
import json
import math
import os
import struct
import sys
import uuid

from . import _maps

__all__ = ["show", "Shown"]

_ASSETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "assets")
_cache = {}

# The longest input the live view runs (python/js/notebook.js, <attn-demo>'s MAX_INPUT).
MAX_INPUT = 64
# The largest map show() draws, and the most weights in one output (they bound the HTML).
MAX_CELLS = _maps.MAX_CELLS
MAX_TOTAL = _maps.MAX_TOTAL


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


# ---------------------------------------------------------------- attention → heatmap or grid


def _scale(maps, vmin, vmax, colormap):
    """The one colour scale of every map: (mode, lo, hi, caption). mode 'fixed' (0–1: attention,
    every value in [0, 1], the default when that holds), 'fit' (the values' range, the default
    otherwise), 'set' (vmin / vmax), 'symmetric' (diverging, about 0)."""
    lo = min(min(m.values) for m in maps)
    hi = max(max(m.values) for m in maps)
    for name, v in (("vmin", vmin), ("vmax", vmax)):
        if v is not None and not (isinstance(v, (int, float)) and math.isfinite(v)):
            raise ValueError(f"attnlab.show: {name} must be a finite number, got {v!r}")
    if colormap == "diverging":
        m = max(abs(lo), abs(hi)) or 1.0
        a, b = (-m if vmin is None else vmin), (m if vmax is None else vmax)
        mode = "symmetric" if vmin is None and vmax is None else "set"
    elif vmin is not None or vmax is not None:
        a, b, mode = (lo if vmin is None else vmin), (hi if vmax is None else vmax), "set"
    elif lo >= 0 and hi <= 1:
        a, b, mode = 0.0, 1.0, "fixed"
    else:
        a, b, mode = lo, (hi if hi > lo else lo + 1), "fit"
    if not a < b:
        raise ValueError(f"attnlab.show: the colour range {a} to {b} is empty (vmin must be below vmax)")
    caption = {"fixed": "fixed 0–1 (attention weights)",
               "fit": f"fitted to the data ({_num(lo)} to {_num(hi)}; not all in 0–1)",
               "set": "set by vmin / vmax",
               "symmetric": "symmetric about 0 (diverging)"}[mode]
    return mode, float(a), float(b), caption


def _num(x):
    return f"{x:.4g}"


def _floats_b64(values):
    return base64.b64encode(struct.pack(f"<{len(values)}f", *values)).decode("ascii")


def _draw(attention, tokens, query_tokens, key_tokens, names, batch, kind, title, label, vmin, vmax,
          colormap, cell_size):
    if colormap not in (None, "viridis", "diverging"):
        raise ValueError(f"attnlab.show: colormap must be 'viridis' or 'diverging', got {colormap!r}")
    maps = _maps.label(_maps.read(attention, batch, kind), tokens, query_tokens, key_tokens, names)
    every = maps.all()
    mode, lo, hi, caption = _scale(every, vmin, vmax, colormap)
    notes = "; ".join(maps.notes)
    if len(every) == 1:  # one map: one <attn-heatmap>, no grid
        m = every[0]
        data = {
            "weights": _floats_b64(m.values),
            "rows": m.rows, "cols": m.cols, "rowLabels": m.row_labels, "colLabels": m.col_labels,
            "title": title, "label": label or "attention weights",
            "min": vmin, "max": vmax, "scale": mode if mode in ("fixed", "fit") else None,
            "colormap": colormap, "cellSize": cell_size,
        }
        text = f"attnlab.show: heatmap {m.rows} × {m.cols}" + (f", {notes}" if notes else "")
        if title:
            text += f" ({title})"
        return _output("heatmap", data, _asset("heatmap.js"), "attnlabHeatmap", text, title or "attention")
    labels, index = [], {}

    def label_id(values):  # each distinct label list once (8 heads over one sentence: 1 list)
        key = tuple(values)
        if key not in index:
            index[key] = len(labels)
            labels.append(list(values))
        return index[key]

    named = all(m.name for m in every)
    layer_names = [f"Layer {l + 1}" for l in range(maps.layers)]
    head_names = ["" if named else f"Head {h + 1}" for h in range(maps.heads)]
    entries, values = [], []
    for m in every:
        if named:
            layer_names[m.layer] = m.name
        values.extend(m.values)
        entries.append({"layer": m.layer, "head": m.head, "rows": m.rows, "cols": m.cols,
                        "r": label_id(m.row_labels), "c": label_id(m.col_labels),
                        "title": m.name if named else f"Layer {m.layer + 1}, head {m.head + 1}"
                        + (f" ({maps.kind})" if maps.kind else "")})
    shapes = list(dict.fromkeys((m.rows, m.cols) for m in every))  # in order, each once
    shape = " and ".join(f"{r} × {c}" for r, c in shapes[:3]) + (" and more" if len(shapes) > 3 else "")
    size = (" and ".join(dict.fromkeys(m.name for m in every)) if named else
            f"{maps.layers} layer{'s' * (maps.layers != 1)} × {maps.heads} head{'s' * (maps.heads != 1)}")
    data = {
        "weights": _floats_b64(values), "maps": entries, "labels": labels,
        "layers": maps.layers, "heads": maps.heads, "gridTitle": f"{size}: maps {shape}" if named else f"{size}, maps {shape}",
        "layerNames": layer_names, "headNames": head_names,
        "min": lo, "max": hi, "scale": mode, "caption": f"one scale for every map: {caption}",
        "colormap": colormap, "cellSize": cell_size, "title": title,
        "label": label or "attention maps", "note": notes,
    }
    text = f"attnlab.show: {size}, maps {shape}, one colour scale {caption}" + \
        (f"; {notes}" if notes else "")
    if title:
        text += f" ({title})"
    return _output("grid", data, _asset("heatmap.js"), "attnlabHeatmap", text, title or "attention")


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


def show(attention, rows=None, cols=None, *, tokens=None, query_tokens=None, key_tokens=None,
         batch=None, kind=None, input=None, title=None, label=None, vmin=None, vmax=None,
         colormap=None, cell_size=None):
    """Attention as a notebook output: a Shown (rendered when it is a cell's last value; .html,
    .save(path)).

    attention: weights [T, S], [H, T, S] or [L, H, T, S] (a torch tensor, numpy, nested lists;
      [L, B, H, T, S] too), a tuple or list of per-layer [B, H, T, S] tensors (a Hugging Face
      model's outputs.attentions), or a result of an attnlab.torch model (model.run(text),
      model(...)) → one heatmap for one map, else a layers × heads grid, one map enlarged;
      or a model file (a path, str or os.PathLike, or its bytes) as attnlab.export writes it
      (seq2seq, transformer, classifier, memory-RNN language model) → the live view, in the
      page's view for it, on `input` (at most 64 characters, and no more tokens than a
      transformer's learned positions; editable in the view).
    tokens: labels of both axes (self-attention); query_tokens, key_tokens: of the rows (queries,
      what the model wrote) and the columns (keys, what it read), for cross-attention; rows and
      cols are their old names. A string gives one per character; default: the result's tokens,
      else 0, 1, ….
    batch: the item of a batched input ([B, H, T, S] per layer; default 0, said in the text).
    kind: a transformer result's 'encoder', 'decoder' (self-attention) or 'cross' maps (default:
      cross for an encoder-decoder).
    title: a line above the view. label: the map's accessible name.
    vmin, vmax: the colour range (default: fixed 0–1 when every weight is in [0, 1], else fitted
      to the weights; the colour bar says which); colormap: 'viridis' (default) or 'diverging'
      (symmetric about 0, for differences); cell_size: CSS pixels per cell (default: fit).
    """
    w = attention
    is_module = "torch" in sys.modules and isinstance(w, sys.modules["torch"].nn.Module)
    if is_module:
        raise TypeError(
            "attnlab.show: got a torch module; export it first and show the file: "
            "attnlab.export(model, 'model.safetensors', tokenizer=...); "
            "attnlab.show('model.safetensors', input='...')")
    for old, new, a, b in (("rows", "query_tokens", rows, query_tokens),
                           ("cols", "key_tokens", cols, key_tokens)):
        if a is not None and b is not None:
            raise TypeError(f"attnlab.show: {old}= is the old name of {new}=; give one of them")
    names = ("rows" if rows is not None else "query_tokens", "cols" if cols is not None else "key_tokens")
    query_tokens = rows if query_tokens is None else query_tokens
    key_tokens = cols if key_tokens is None else key_tokens
    if tokens is not None and (query_tokens is not None or key_tokens is not None):
        raise TypeError("attnlab.show: tokens= labels both axes; give it, or query_tokens= and "
                        "key_tokens= (rows=, cols=), not both")
    if isinstance(w, (bytes, bytearray, memoryview, str, os.PathLike)):
        if any(x is not None for x in (tokens, query_tokens, key_tokens, batch, kind)):
            raise TypeError("attnlab.show: tokens, rows and cols (and batch, kind) are for attention "
                            "weights; a model's view labels itself")
        return _live(w, input, title)
    if input is not None:
        raise TypeError("attnlab.show: input= is for a model file; weights are shown as they are")
    return _draw(w, tokens, query_tokens, key_tokens, names, batch, kind, title, label, vmin, vmax,
                 colormap, cell_size)
