"""python/attnlab/_maps.py: what attnlab.show() draws, read from whatever attention it is given.

    maps = read(attention, tokens=None, query_tokens=None, key_tokens=None, batch=None, kind=None)
    maps.grid        # [(layer, head, rows, cols, values, row_labels, col_labels, name)], row-major
    maps.layers, maps.heads, maps.notes (what the text line says: the batch item, the kind)

Input forms (show.py's docstring and docs/python.md "In a notebook" list them for users):
  [T, S], [H, T, S], [L, H, T, S] (a torch tensor, a numpy array, nested lists); [L, B, H, T, S]
  and, with batch=, [B, H, T, S]; a tuple or list of per-layer tensors (Hugging Face's
  `outputs.attentions`: per layer [B, H, T, S]) read as if stacked along a new first axis;
  leading dimensions of size 1 dropped; and a result dict of attnlab.torch (model.run(text) or
  model(...)) of every architecture: seq2seq (attention [T, S]), transformer (a list of
  {layer, head, kind, stack, weights} maps; kind= picks encoder, decoder or cross), classifier
  (a list of [1, n] or [hops, n] pooling maps; han adds [1, m] over the sentences), memory-rnn
  ([[n, n]]). A JS result (maps with weights {data, shape}, rowLabels, colLabels) read from
  JSON is taken too.
Every refusal is a ValueError or TypeError that names the problem and the shape.
Standard library only (numpy is used when the input is a numpy array or a torch tensor).
"""

import math

# The largest single map and the most cells in one output (each weight is 5.4 bytes of HTML).
MAX_CELLS = 1 << 20
MAX_TOTAL = 1 << 22

KINDS = ("encoder", "decoder", "cross")
FORMS = "[T, S], [H, T, S], [L, H, T, S], or per-layer [B, H, T, S] tensors (a tuple or list)"


class Maps:
    """The maps to draw: grid[layer][head] = Map (or None where a result has no map there)."""

    def __init__(self, grid, notes=(), form="", kind=None):
        self.grid = grid
        self.kind = kind  # a transformer result's kind, as the titles name it ('cross-attention')
        self.layers = len(grid)
        self.heads = max(len(row) for row in grid)
        self.notes = list(notes)
        self.form = form

    def all(self):
        return [m for row in self.grid for m in row if m is not None]


class Map:
    def __init__(self, layer, head, rows, cols, values, row_labels=None, col_labels=None, name=None,
                 rows_are_tokens=True, spans=None):
        self.layer, self.head, self.rows, self.cols = layer, head, rows, cols
        self.values = values  # a flat list of floats, row-major
        self.row_labels, self.col_labels = row_labels, col_labels
        self.name = name
        self.rows_are_tokens = rows_are_tokens  # False for a classifier's hops
        self.spans = spans  # han's sentence map: each sentence's [start, end) in the tokens


def _shape_text(shape):
    return "[" + ", ".join(str(n) for n in shape) + "]"


def _index_text(index):
    return "".join(f"[{i}]" for i in index)


def _is_array(x):
    return hasattr(x, "shape") and (hasattr(x, "detach") or hasattr(x, "dtype"))


def _numpy_of(x):
    """(shape, flat floats) of a torch tensor or numpy array, every value checked finite."""
    import numpy as np
    if hasattr(x, "detach"):
        x = x.detach().cpu().double().numpy()
    try:
        a = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise TypeError(f"attnlab.show: the attention array of dtype {getattr(x, 'dtype', '?')} "
                        f"is not numbers ({e})") from None
    bad = ~np.isfinite(a)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"attnlab.show: attention{_index_text(where)} is {a[where]}; every weight "
                         f"must be finite (shape {_shape_text(a.shape)})")
    return tuple(int(n) for n in a.shape), a.reshape(-1).tolist()


def _nested(x, index, out):
    """Flatten nested lists into out; return the shape below index (raise on a ragged list)."""
    if isinstance(x, (str, bytes)) or not hasattr(x, "__len__"):
        try:
            v = float(x)
        except (TypeError, ValueError):
            raise TypeError(f"attnlab.show: attention{_index_text(index)} is {x!r}, not a number") from None
        out.append(v)  # finite: checked by _array, which knows the shape
        return ()
    if _is_array(x):
        shape, flat = _numpy_of(x)
        out.extend(flat)
        return shape
    first = None
    for i, item in enumerate(x):
        shape = _nested(item, index + (i,), out)
        if first is None:
            first = shape
        elif shape != first:
            raise ValueError(
                f"attnlab.show: attention{_index_text(index + (i,))} has shape {_shape_text(shape)} but "
                f"attention{_index_text(index + (0,))} has {_shape_text(first)}: a ragged list (every row "
                "must be as long, every layer's attention of one shape)")
    return (len(x),) + (first if first is not None else ())


def _array(x):
    """(shape, flat floats) of a tensor, an array, nested lists or a list of tensors."""
    if _is_array(x):
        return _numpy_of(x)
    if isinstance(x, (str, bytes)) or not hasattr(x, "__len__"):
        raise TypeError(f"attnlab.show: expected attention weights ({FORMS}; a torch tensor, numpy "
                        f"array or nested lists), a result of an attnlab model, or a model file; got "
                        f"{type(x).__name__}")
    flat = []
    shape = _nested(x, (), flat)
    for i, v in enumerate(flat):
        if not math.isfinite(v):
            index = []
            for n in reversed(shape):
                index.append(i % n)
                i //= n
            raise ValueError(f"attnlab.show: attention{_index_text(reversed(index))} is {v}; every "
                             f"weight must be finite (shape {_shape_text(shape)})")
    return shape, flat


def _pick_batch(shape, flat, axis, batch, notes):
    """Keep item `batch` of the axis `axis` (the batch dimension)."""
    n = shape[axis]
    b = 0 if batch is None else batch
    if not isinstance(b, int) or isinstance(b, bool):
        raise TypeError(f"attnlab.show: batch= must be an int, got {type(b).__name__}")
    if not 0 <= b < n:
        raise ValueError(f"attnlab.show: batch={b} is out of range: the attention has a batch of {n} "
                         f"(shape {_shape_text(shape)}, batch axis {axis}); pick 0 to {n - 1}")
    if n > 1:
        notes.append(f"batch item {b} of {n}" + (" (batch= picks another)" if batch is None else ""))
    outer = 1
    for d in shape[:axis]:
        outer *= d
    inner = 1
    for d in shape[axis + 1:]:
        inner *= d
    kept = []
    for o in range(outer):
        start = (o * n + b) * inner
        kept.extend(flat[start:start + inner])
    return shape[:axis] + shape[axis + 1:], kept


def from_array(x, batch=None):
    """Maps of an array-like (every form but a result dict)."""
    shape, flat = _array(x)
    original = shape
    notes = []
    if len(shape) == 5:  # [L, B, H, T, S]: torch.stack(outputs.attentions)
        shape, flat = _pick_batch(shape, flat, 1, batch, notes)
        form = "[L, B, H, T, S]"
    elif len(shape) == 4 and batch is not None:  # one layer's [B, H, T, S]
        shape, flat = _pick_batch(shape, flat, 0, batch, notes)
        form = "[B, H, T, S]"
    elif batch is not None:
        raise ValueError(
            f"attnlab.show: batch={batch} picks an item of [B, H, T, S] or per-layer [B, H, T, S] "
            f"attention; this attention has shape {_shape_text(shape)}, with no batch dimension")
    else:
        form = {2: "[T, S]", 3: "[H, T, S]", 4: "[L, H, T, S]"}.get(len(shape), "")
    while len(shape) > 2 and shape[0] == 1:  # a batch of one, a single layer or head
        shape = shape[1:]
    if len(shape) not in (2, 3, 4) or 0 in shape:
        what = "has an empty dimension" if 0 in shape else f"is {len(original)}-D"
        raise ValueError(f"attnlab.show: the attention {what} (shape {_shape_text(original)}); show "
                         f"takes {FORMS}; or pick one map, e.g. attention[layer][head]")
    full = (1,) * (4 - len(shape)) + shape
    L, H, T, S = full
    if T * S > MAX_CELLS:
        raise ValueError(f"attnlab.show: each map is {T} × {S}, more than {MAX_CELLS} cells "
                         f"(shape {_shape_text(original)})")
    if L * H * T * S > MAX_TOTAL:
        raise ValueError(f"attnlab.show: {L} × {H} maps of {T} × {S} are {L * H * T * S} weights, more "
                         f"than {MAX_TOTAL}: show fewer layers or heads (shape {_shape_text(original)})")
    n = T * S
    grid = [[Map(l, h, T, S, flat[(l * H + h) * n:(l * H + h + 1) * n]) for h in range(H)]
            for l in range(L)]
    return Maps(grid, notes, form)


# ---------------------------------------------------------------- attnlab's own results


def _labels_of(value, count):
    """A result's labels when they fit (count of them), else None."""
    if value is None or isinstance(value, str):
        return None
    try:
        labels = [str(v) for v in value]
    except TypeError:
        return None
    return labels if len(labels) == count else None


def _map_weights(w):
    """A map's weights: a tensor, an array, nested lists, or JS's {data, shape}."""
    if isinstance(w, dict) and "data" in w and "shape" in w:
        shape = tuple(int(n) for n in w["shape"])
        flat = _array(w["data"])[1]
        if len(shape) != 2 or len(flat) != shape[0] * shape[1]:
            raise ValueError(f"attnlab.show: a map's weights have shape {_shape_text(shape)} and "
                             f"{len(flat)} values; a map is 2-D [rows, cols]")
        return shape, flat
    shape, flat = _array(w)
    if len(shape) != 2:
        raise ValueError(f"attnlab.show: a map of this result has shape {_shape_text(shape)}; each "
                         "map is 2-D [rows, cols]")
    return shape, flat


def _transformer(r, maps, kind):
    kinds = {}
    for m in maps:  # each kind the result has: 'encoder', 'decoder' (self-attention), 'cross'
        k = "cross" if m.get("kind") == "cross" else m.get("stack") or "encoder"
        kinds.setdefault(k, []).append(m)
    if kind is None:
        kind = "cross" if "cross" in kinds else next(iter(kinds))
    if kind not in kinds:
        raise ValueError(f"attnlab.show: this result has no {kind!r} maps; kind= is one of "
                         f"{sorted(kinds, key=KINDS.index)} here")
    chosen = kinds[kind]
    L = 1 + max(int(m["layer"]) for m in chosen)
    H = 1 + max(int(m["head"]) for m in chosen)
    grid = [[None] * H for _ in range(L)]
    src, fed = r.get("src_tokens"), r.get("fed_tokens")
    for m in chosen:
        (T, S), flat = _map_weights(m["weights"])
        rows = _labels_of(m.get("rowLabels"), T) or _labels_of(src if kind == "encoder" else fed, T)
        cols = _labels_of(m.get("colLabels"), S) or _labels_of(fed if kind == "decoder" else src, S)
        grid[int(m["layer"])][int(m["head"])] = Map(int(m["layer"]), int(m["head"]), T, S, flat, rows, cols)
    name = {"encoder": "encoder self-attention", "decoder": "decoder self-attention",
            "cross": "cross-attention"}[kind]
    notes = [name + (" (kind= picks " + ", ".join(k for k in KINDS if k in kinds and k != kind) + ")"
                     if len(kinds) > 1 else "")]
    return Maps(grid, notes, "result", name)


def _classifier(r, att):
    tokens = r.get("tokens")
    out = []
    for i, w in enumerate(att):
        (R, n), flat = _map_weights(w)
        if i == 1 and "sentences" in r:  # han: the sentence map
            spans = r["sentences"]
            toks = tokens if tokens is not None and len(tokens) >= max((b for _, b in spans), default=0) else None
            cols = [" ".join(str(t) for t in toks[a:b]) for a, b in spans] if toks is not None else None
            out.append(Map(1, 0, R, n, flat, ["sentences"], _labels_of(cols, n), "sentences", False,
                           [(int(a), int(b)) for a, b in spans]))
            continue
        if "sentences" in r:
            rows, name = ["words"], "words"
        elif "penalty" in r or R > 1:
            rows, name = [f"hop {k + 1}" for k in range(R)], "hops"
        else:
            rows, name = ["attention"], "attention pooling"
        out.append(Map(i, 0, R, n, flat, _labels_of(rows, R), _labels_of(tokens, n), name, False))
    return Maps([[m] for m in out], [], "result")


def from_result(r, kind=None):
    """Maps of a result dict of attnlab.torch (or of the JS library, read from JSON)."""
    if "attention" not in r:
        raise ValueError(
            "attnlab.show: this dict has no 'attention' (its keys: " + ", ".join(map(str, r)) + "); "
            "pass what model.run(text) or model(...) returns, or the attention itself ("
            + FORMS + ")")
    att = r["attention"]
    if kind is not None and kind not in KINDS:
        raise ValueError(f"attnlab.show: unknown kind {kind!r}; kind= is 'encoder', 'decoder' or "
                         "'cross' (a transformer's encoder self-, decoder self- or cross-attention)")
    if isinstance(att, (list, tuple)) and not att:
        raise ValueError("attnlab.show: this result has no attention maps ('attention' is []: a "
                         "memory-rnn with the plain 'lstm' cell attends to nothing)")
    is_maps = isinstance(att, (list, tuple)) and all(isinstance(m, dict) and "weights" in m for m in att)
    if kind is not None and not (is_maps and any("kind" in m or "stack" in m for m in att)):
        raise ValueError(f"attnlab.show: kind={kind!r} picks a transformer's maps; this result's "
                         "attention has no encoder, decoder or cross maps")
    if is_maps and any("kind" in m or "stack" in m for m in att):
        return _transformer(r, att, kind)
    if is_maps:  # JS-shaped maps without kinds (a seq2seq, classifier or memory-rnn from JSON)
        grid = {}
        for m in att:
            (T, S), flat = _map_weights(m["weights"])
            layer, head = int(m.get("layer", 0)), int(m.get("head", 0))
            grid[(layer, head)] = Map(layer, head, T, S, flat, _labels_of(m.get("rowLabels"), T),
                                      _labels_of(m.get("colLabels"), S))
        L = 1 + max(k[0] for k in grid)
        H = 1 + max(k[1] for k in grid)
        return Maps([[grid.get((l, h)) for h in range(H)] for l in range(L)], [], "result")
    if isinstance(att, (list, tuple)):
        if "weights" in r:  # a classifier (its forward also returns the pooling weights)
            return _classifier(r, att)
        # memory-rnn: [[n, n]], the cell's reading at each step over the tokens before it
        (n, m), flat = _map_weights(att[0])
        tokens = _labels_of(r.get("tokens"), n)
        return Maps([[Map(0, 0, n, m, flat, tokens, _labels_of(r.get("tokens"), m))]], [], "result")
    # seq2seq: [T, S], rows the output tokens (eos included), columns the source's
    (T, S), flat = _map_weights(att)
    rows = _labels_of(r.get("tokens"), T)
    cols = _labels_of(r.get("src_tokens"), S)
    return Maps([[Map(0, 0, T, S, flat, rows, cols)]], [], "result")


def read(attention, batch=None, kind=None):
    """Maps of any input form (module docstring)."""
    if isinstance(attention, (list, tuple)) and attention and \
            all(isinstance(m, dict) and "weights" in m for m in attention):
        attention = {"attention": attention}  # a result's list of maps, without the result
    if isinstance(attention, dict):
        if batch is not None:
            raise ValueError("attnlab.show: batch= picks an item of batched attention; a result of "
                             "an attnlab model holds one sequence")
        return from_result(attention, kind)
    if kind is not None:
        raise ValueError(f"attnlab.show: kind={kind!r} picks a transformer result's encoder, decoder "
                         "or cross maps; this is an array (pick its maps by indexing it)")
    return from_array(attention, batch)


# ---------------------------------------------------------------- labels


def _given(labels, count, what, axis, shape):
    if isinstance(labels, (int, float)) or not hasattr(labels, "__iter__"):
        raise TypeError(f"attnlab.show: {what}= is {type(labels).__name__}; pass a list of labels "
                        "(or a string: one per character)")
    labels = list(labels)  # a str: its characters (pass a list for words)
    if len(labels) != count:
        raise ValueError(
            f"attnlab.show: {what}= has {len(labels)} labels but the attention has {count} {axis} "
            f"(maps {shape}: queries × keys); pass one label per position (a string gives one per "
            "character)")
    return [str(x) for x in labels]


def label(maps, tokens=None, query_tokens=None, key_tokens=None, names=("query_tokens", "key_tokens")):
    """Put the caller's labels on every map (checked against its shape), default 0, 1, ….
    names: what the caller called query_tokens and key_tokens (rows, cols: the old names)."""
    for m in maps.all():
        shape = f"{m.rows} × {m.cols}"
        q = query_tokens
        k = key_tokens
        q_name, k_name = names
        if m.spans is not None and (tokens is not None or k is not None):  # han's sentences
            words = _given(tokens if tokens is not None else k, m.spans[-1][1],
                           "tokens" if tokens is not None else k_name, "words (han)", shape)
            m.col_labels = [" ".join(words[a:b]) for a, b in m.spans]
            k = None
        elif tokens is not None:
            k, k_name = tokens, "tokens"
            if m.rows_are_tokens:
                if m.rows != m.cols:
                    raise ValueError(
                        f"attnlab.show: tokens= labels both axes of self-attention, but the maps are "
                        f"{shape} (queries × keys): pass query_tokens= and key_tokens= for "
                        "cross-attention")
                q, q_name = tokens, "tokens"
        if q is not None and not m.rows_are_tokens and query_tokens is not None:
            raise ValueError(
                f"attnlab.show: {q_name}= labels queries, but this map's rows are {m.row_labels} "
                f"(a classifier's pooling, {shape}), not tokens: pass tokens= or {names[1]}= for "
                "the words")
        if q is not None and m.rows_are_tokens:
            m.row_labels = _given(q, m.rows, q_name, "queries (rows)", shape)
        if k is not None:
            m.col_labels = _given(k, m.cols, k_name, "keys (columns)", shape)
        if m.row_labels is None:
            m.row_labels = [str(i) for i in range(m.rows)]
        if m.col_labels is None:
            m.col_labels = [str(i) for i in range(m.cols)]
    return maps
