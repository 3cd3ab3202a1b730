"""attnlab.export and attnlab.load: PyTorch modules to and from attnlab's one-file model format
(docs/models.md: F32 weights under the state_dict names, the config JSON in
__metadata__["config"]; a model card, when given, as JSON in __metadata__["card"]).

    attnlab.export(model, "my.safetensors", tokenizer=tok, card={"title": "..."})
    model = attnlab.load("web/models/dates-additive.safetensors")   # F32, F16, BF16 or I8

What exports: the attnlab.torch modules (their `config` plus a tokenizer), and three stock
PyTorch shapes whose mapping is unambiguous (docs/python.md, "Stock modules"):
  nn.MultiheadAttention              -> an op file: its four tensors under their own names and
                                        __metadata__["op"] (multiHeadAttention, numHeads); JS reads
                                        it with readSafetensors and ops.multiHeadAttention
  nn.TransformerEncoder + embedding=, positions= ('sinusoidal', an nn.Embedding or a [P, E]
  tensor), out= (nn.Linear)          -> "transformer", variant "encoder" ("decoder" with causal=True)
  nn.LSTM / GRU / RNN + embedding=, pooling= (w [d]), classifier=, or one module holding them
  under those names                  -> "classifier", pooling "attention" (Zhou et al. 2016)
A module wrapped for training (DistributedDataParallel, nn.DataParallel, attnlab.BatchLoss) is
unwrapped to its .module first. Anything else, a missing tokenizer or a shape the config does not
give is refused with an error naming the module and the parameter, before anything is written. Deliberately not here: F16 or
I8 writing (the JS saveModel / scripts/quantize.mjs own the quantiser), batching, training.
"""

import json
import os

import numpy as np
import torch
from torch import nn
from torch.overrides import TorchFunctionMode

from .limits import CONFIG_LIMITS, OP_LIMITS
from .safetensors import dequantize, f32, parse_json, read_safetensors, write_safetensors
from .tokenizer import Tokenizer
from .torch import ARCHITECTURES, Classifier, Transformer, TransformerSeq2Seq
from .torch._config import ConfigModule

STOCK_PARTS = ("embedding", "positions", "out", "causal", "scale_embedding", "pooling",
               "classifier", "labels")
RNNS = (nn.LSTM, nn.GRU, nn.RNN)


class ExportError(ValueError):
    """A module, tokenizer or parameter attnlab.export cannot write (the message names it)."""


class LoadError(ValueError):
    """A file attnlab.load cannot turn into a module (the message names the file and tensor)."""


def _shape(s):
    return "[" + ", ".join(str(int(n)) for n in s) + "]"


def _card_json(card, who):
    if card is None:
        return None
    if isinstance(card, (str, os.PathLike)):
        with open(card, encoding="utf-8") as f:
            card = json.load(f)
    try:
        return json.dumps(card, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise ExportError(f"{who}: card= must be JSON-serialisable (a dict) or a path to a JSON "
                          f"file: {e}") from None


def _first_mismatch(have, expected):
    """The first difference between tensors {name: array} and expected {name: shape}:
    ("missing" | "shape" | "extra", name, shape it has or None, shape needed or None), or None."""
    for name, shape in expected.items():
        if name not in have:
            return "missing", name, None, shape
        if tuple(have[name].shape) != shape:
            return "shape", name, tuple(have[name].shape), shape
    for name, v in have.items():
        if name not in expected:
            return "extra", name, tuple(v.shape), None
    return None


def _check_against(who, state, expected, hint=None):
    """state {name: tensor} against expected {name: shape}: missing, wrong shape, extra and
    non-finite parameters refused by name."""
    bad = _first_mismatch(state, expected)
    if bad is not None:
        kind, name, got, need = bad
        if kind == "missing":
            raise ExportError(f"{who} has no parameter {name!r} (the config needs shape "
                              f"{_shape(need)})")
        if kind == "shape":
            why = f" ({hint(name)})" if hint and hint(name) else ""
            raise ExportError(f"{who} parameter {name!r} has shape {_shape(got)} but the config "
                              f"and tokenizer need {_shape(need)}{why}")
        raise ExportError(f"{who} has a parameter {name!r} (shape {_shape(got)}) that the "
                          "attnlab format does not use")
    for name, v in state.items():
        if not torch.isfinite(v).all():
            raise ExportError(f"{who} parameter {name!r} holds NaN or infinite values")


def _vocab_hint(arch, tok):
    src = len(tok.src_vocab)
    tgt = len(tok.tgt_vocab if tok.tgt_vocab is not None else tok.src_vocab)

    def hint(name):
        if name in ("src_embedding.weight", "embedding.weight"):
            return f"the tokenizer's source vocabulary has {src} entries"
        if name == "tgt_embedding.weight" or (name.startswith("out.") and arch != "memory-rnn"):
            return f"the tokenizer's target vocabulary has {tgt} entries"
        if name.startswith("out."):
            return f"the tokenizer's vocabulary has {src} entries"
        return None
    return hint


def _check_specials(who, config, tok):
    arch = config["architecture"]
    need = []
    if arch == "seq2seq":
        need = ["bos", "eos"]
    elif arch == "transformer":
        need = {"decoder": ["eos"], "encoder-decoder": ["bos", "eos"]}.get(config["variant"], [])
    for k in need:
        if getattr(tok, k) is None or getattr(tok, k + "_id") < 0:
            raise ExportError(f"{who}: the tokenizer needs {k} (a token of the target "
                              f"vocabulary) for this {arch} model")


def _export_reference(module, tokenizer, who):
    tok = tokenizer if tokenizer is not None else module.tokenizer
    if tok is None:
        raise ExportError(f"{who} has no tokenizer: pass tokenizer=attnlab.Tokenizer(...) (the "
                          "file carries the vocabulary the JS side reads text with)")
    if not isinstance(tok, Tokenizer):
        raise ExportError(f"{who}: tokenizer= must be an attnlab.Tokenizer, not "
                          f"{type(tok).__name__}")
    config = {**module.config, "tokenizer": tok.config(module.ARCHITECTURE)}
    _check_specials(who, config, tok)
    try:
        with torch.random.fork_rng():
            ref = type(module).from_config(config)
    except (ValueError, TypeError) as e:
        raise ExportError(f"{who}: {e}") from None
    expected = {k: tuple(v.shape) for k, v in ref.state_dict().items()}
    state = module.state_dict()
    _check_against(who, state, expected, _vocab_hint(module.ARCHITECTURE, tok))
    return state, config


def _export_mha(m, who):
    if type(m) is not nn.MultiheadAttention:
        raise ExportError(f"{who}: only a bare nn.MultiheadAttention exports as an op file")
    if not m._qkv_same_embed_dim:
        raise ExportError(f"{who}: kdim / vdim differ from embed_dim (q_proj_weight, ...): "
                          "attnlab's multiHeadAttention takes in_proj_weight [3E, E] only")
    if m.in_proj_bias is None:
        raise ExportError(f"{who}: parameter 'in_proj_bias' is missing (bias=False): attnlab's "
                          "multiHeadAttention needs the biases")
    if m.bias_k is not None or m.add_zero_attn:
        raise ExportError(f"{who}: add_bias_kv / add_zero_attn are not in attnlab's "
                          "multiHeadAttention")
    state = m.state_dict()
    for name, v in state.items():
        if not torch.isfinite(v).all():
            raise ExportError(f"{who} parameter {name!r} holds NaN or infinite values")
    op = {"op": "multiHeadAttention", "numHeads": m.num_heads, "embedDim": m.embed_dim,
          "batchFirst": bool(m.batch_first)}
    return state, op


def _activation_name(layer, who):
    code = getattr(layer, "activation_relu_or_gelu", None)
    if code == 1:
        return "relu"
    if code == 2:
        return "gelu"
    act = layer.activation
    if act is nn.functional.relu or isinstance(act, nn.ReLU):
        return "relu"
    if act is nn.functional.gelu or (isinstance(act, nn.GELU) and act.approximate == "none"):
        return "gelu"
    raise ExportError(f"{who}: layer activation {act!r} is not relu or exact gelu")


def _export_transformer_encoder(enc, tokenizer, parts, who):
    emb, pos, out = parts.pop("embedding", None), parts.pop("positions", None), parts.pop("out", None)
    causal, scale = parts.pop("causal", False), parts.pop("scale_embedding", False)
    for k, what in (("embedding", emb), ("positions", pos), ("out", out)):
        if what is None:
            raise ExportError(f"{who}: an nn.TransformerEncoder exports with embedding= "
                              "(nn.Embedding(V, E)), positions= ('sinusoidal', an nn.Embedding "
                              f"or a [P, E] tensor) and out= (nn.Linear(E, V_t)); {k}= is missing")
    if not isinstance(emb, nn.Embedding):
        raise ExportError(f"{who}: embedding= must be an nn.Embedding, not {type(emb).__name__}")
    if not isinstance(out, nn.Linear) or out.bias is None:
        raise ExportError(f"{who}: out= must be an nn.Linear with a bias")
    layers = list(enc.layers)
    first = layers[0]
    if not isinstance(first, nn.TransformerEncoderLayer):
        raise ExportError(f"{who}: layers[0] is {type(first).__name__}, not nn.TransformerEncoderLayer")
    E = emb.embedding_dim
    sa = first.self_attn
    settings = lambda l: (type(l), type(l.self_attn), l.self_attn.num_heads,  # noqa: E731
                          l.linear1.out_features, l.norm_first, _activation_name(l, who))
    for i, layer in enumerate(layers):
        lw = f"{who} layers.{i}"
        if settings(layer) != settings(first):
            raise ExportError(f"{lw}: differs from layers.0 (heads, feed-forward size, norm_first "
                              "or activation); attnlab's layers are all alike")
        if type(layer.self_attn) is not nn.MultiheadAttention or not layer.self_attn._qkv_same_embed_dim \
                or layer.self_attn.in_proj_bias is None or layer.self_attn.bias_k is not None:
            raise ExportError(f"{lw}.self_attn: needs a plain nn.MultiheadAttention with biases "
                              "and kdim = vdim = E")
        for n in ("norm1", "norm2"):
            ln = getattr(layer, n)
            if abs(ln.eps - 1e-5) > 1e-12 or not ln.elementwise_affine:
                raise ExportError(f"{lw}.{n}: attnlab's layer norm has eps 1e-5 and weights")
        if layer.linear1.bias is None or layer.linear2.bias is None:
            raise ExportError(f"{lw}: the linear layers need biases")
    if enc.norm is not None and (abs(enc.norm.eps - 1e-5) > 1e-12 or not enc.norm.elementwise_affine):
        raise ExportError(f"{who}.norm: attnlab's layer norm has eps 1e-5 and weights")
    if sa.embed_dim != E:
        raise ExportError(f"{who}: embedding= is {E} wide but the layers are {sa.embed_dim}")
    config = {"architecture": "transformer", "variant": "decoder" if causal else "encoder",
              "embeddingSize": E, "numHeads": sa.num_heads,
              "feedforwardSize": first.linear1.out_features, "numLayers": len(layers),
              "normFirst": bool(first.norm_first), "activation": _activation_name(first, who),
              "finalNorm": enc.norm is not None, "scaleEmbedding": bool(scale)}
    state = {"embedding.weight": emb.weight}
    if isinstance(pos, str):
        if pos != "sinusoidal":
            raise ExportError(f"{who}: positions={pos!r}: a string must be 'sinusoidal'")
        config["positions"] = "sinusoidal"
    else:
        table = pos.weight if isinstance(pos, nn.Embedding) else pos
        if not isinstance(table, torch.Tensor) or table.dim() != 2 or table.shape[1] != E:
            raise ExportError(f"{who}: positions= must be [P, {E}] (an nn.Embedding or a tensor)")
        config["positions"], config["maxPositions"] = "learned", int(table.shape[0])
        state["pos_embedding.weight"] = table
    for i, layer in enumerate(layers):
        for k, v in layer.state_dict().items():
            state[f"layers.{i}.{k}"] = v
    if enc.norm is not None:
        state["norm.weight"], state["norm.bias"] = enc.norm.weight, enc.norm.bias
    state["out.weight"], state["out.bias"] = out.weight, out.bias
    return _finish_stock(Transformer, config, state, tokenizer, who)


def _export_rnn_pooling(encoder, emb, pooling, clf, labels, tokenizer, who):
    if not isinstance(encoder, RNNS):
        raise ExportError(f"{who}: encoder is {type(encoder).__name__}, not nn.LSTM / GRU / RNN")
    if not isinstance(emb, nn.Embedding):
        raise ExportError(f"{who}: embedding must be an nn.Embedding")
    w = getattr(pooling, "w", pooling)
    if isinstance(pooling, nn.Module) and [n for n, _ in pooling.named_parameters()] != ["w"]:
        raise ExportError(f"{who}: pooling must hold one parameter, w [d] (Zhou et al. 2016: "
                          "alpha = softmax(tanh(H) w)); it holds "
                          f"{[n for n, _ in pooling.named_parameters()]}")
    if not isinstance(w, torch.Tensor) or w.dim() != 1:
        raise ExportError(f"{who}: pooling= must be a vector w [d] or a module whose one "
                          "parameter is w")
    if not isinstance(clf, nn.Linear) or clf.bias is None:
        raise ExportError(f"{who}: classifier must be an nn.Linear(d, C) with a bias")
    # batch_first changes no parameter, so either layout exports
    if isinstance(encoder, nn.LSTM) and encoder.proj_size:
        raise ExportError(f"{who}: an nn.LSTM with proj_size is not in attnlab's format")
    if not encoder.bias:
        raise ExportError(f"{who}: the encoder needs biases (bias=True)")
    if encoder.input_size != emb.embedding_dim:
        raise ExportError(f"{who}: the encoder reads {encoder.input_size} wide inputs but the "
                          f"embedding is {emb.embedding_dim} wide")
    D = 2 if encoder.bidirectional else 1
    labels = labels if labels is not None else clf.out_features
    if isinstance(labels, int):
        labels = [str(i) for i in range(labels)]
    cell = {nn.LSTM: "lstm", nn.GRU: "gru", nn.RNN: "rnn"}[type(encoder)]
    config = {"architecture": "classifier", "cell": cell, "embeddingSize": emb.embedding_dim,
              "hiddenSize": encoder.hidden_size * D, "numLayers": encoder.num_layers,
              "bidirectional": bool(encoder.bidirectional), "pooling": "attention",
              "labels": list(labels)}
    if cell == "rnn":
        config["nonlinearity"] = encoder.nonlinearity
    state = {"embedding.weight": emb.weight, "pooling.w": w,
             "classifier.weight": clf.weight, "classifier.bias": clf.bias}
    for k, v in encoder.state_dict().items():
        state["encoder." + k] = v
    return _finish_stock(Classifier, config, state, tokenizer, who)


def _finish_stock(cls, config, state, tokenizer, who):
    if tokenizer is None:
        raise ExportError(f"{who} has no tokenizer: pass tokenizer=attnlab.Tokenizer(...) (the "
                          "file carries the vocabulary)")
    config["tokenizer"] = tokenizer.config(config["architecture"])
    _check_specials(who, config, tokenizer)
    try:
        with torch.random.fork_rng():
            ref = cls.from_config(config)
    except (ValueError, TypeError) as e:
        raise ExportError(f"{who}: {e}") from None
    expected = {k: tuple(v.shape) for k, v in ref.state_dict().items()}
    _check_against(who, state, expected, _vocab_hint(config["architecture"], tokenizer))
    return state, config


def export(module, path, tokenizer=None, card=None, **parts):
    """Write `module` as one attnlab safetensors file at `path` (F32) and return the config.

    module: an attnlab.torch module (Seq2Seq, Transformer, TransformerSeq2Seq, Classifier,
    MemoryRNN), or a stock module (see this file's header and docs/python.md); tokenizer: an
    attnlab.Tokenizer (default: the module's own); card: a dict (or a path to a JSON file)
    stored as __metadata__["card"]. Stock modules take their other parts as keywords:
    embedding=, positions=, out=, causal=, scale_embedding= (nn.TransformerEncoder);
    embedding=, pooling=, classifier=, labels= (an RNN encoder with attention pooling).

    A module wrapped for training is unwrapped first: DistributedDataParallel, nn.DataParallel
    and attnlab.BatchLoss hold the model in `.module`, and that is what is written (any chain
    of them; export on rank 0 only). Anything else it cannot export is refused with an
    ExportError naming the module's type and what export accepts."""
    module, wrappers = unwrap(module)
    who = f"attnlab.export: {type(module).__name__}"
    if wrappers:
        who += f" (in {' in '.join(reversed(wrappers))})"
    for k in parts:
        if k not in STOCK_PARTS:
            raise TypeError(f"attnlab.export: unknown keyword {k!r} (known: tokenizer, card, "
                            f"{', '.join(STOCK_PARTS)})")
    meta = {}
    if isinstance(module, ConfigModule):
        if parts:
            raise ExportError(f"{who}: {', '.join(parts)}= are for stock modules; an attnlab.torch "
                              "module holds every part itself")
        state, config = _export_reference(module, tokenizer, who)
        meta["config"] = json.dumps(config, separators=(",", ":"), ensure_ascii=False)
    elif type(module) is nn.MultiheadAttention:
        if tokenizer is not None or parts:
            raise ExportError(f"{who}: a bare nn.MultiheadAttention has no vocabulary or other "
                              "parts: export it alone (an op file)")
        state, op = _export_mha(module, who)
        meta["op"] = json.dumps(op, separators=(",", ":"))
        config = op
    elif isinstance(module, nn.TransformerEncoder):
        state, config = _export_transformer_encoder(module, tokenizer, dict(parts), who)
        meta["config"] = json.dumps(config, separators=(",", ":"), ensure_ascii=False)
    elif isinstance(module, RNNS):
        state, config = _export_rnn_pooling(module, parts.get("embedding"), parts.get("pooling"),
                                            parts.get("classifier"), parts.get("labels"),
                                            tokenizer, who)
        meta["config"] = json.dumps(config, separators=(",", ":"), ensure_ascii=False)
    elif isinstance(module, nn.Module) and _is_pooling_classifier(module):
        kids = dict(module.named_children())
        state, config = _export_rnn_pooling(kids["encoder"], kids["embedding"], kids["pooling"],
                                            kids["classifier"],
                                            parts.get("labels", getattr(module, "labels", None)),
                                            tokenizer, who)
        meta["config"] = json.dumps(config, separators=(",", ":"), ensure_ascii=False)
    else:
        inner = getattr(module, "module", None) or getattr(module, "_orig_mod", None)
        hint = ""
        if isinstance(inner, nn.Module):
            attr = "module" if getattr(module, "module", None) is inner else "_orig_mod"
            hint = (f" It wraps a {type(inner).__name__} in .{attr}: export that "
                    f"(attnlab.export(m.{attr}, path)).")
        what = f"a {type(module).__module__}.{type(module).__qualname__}" \
            if isinstance(module, nn.Module) else f"a {type(module).__name__}, not an nn.Module"
        raise ExportError(
            f"{who}: not a module attnlab knows ({what}).{hint} Known: attnlab.torch.Seq2Seq, "
            "Transformer, "
            "TransformerSeq2Seq, Classifier, MemoryRNN; a bare nn.MultiheadAttention; an "
            "nn.TransformerEncoder with embedding=, positions=, out=; an nn.LSTM / GRU / RNN with "
            "embedding=, pooling=, classifier= (or a module holding embedding, encoder, pooling, "
            "classifier: docs/python.md); any of these inside DistributedDataParallel, "
            "nn.DataParallel or attnlab.BatchLoss (unwrapped to .module)")
    c = _card_json(card, who)
    if c is not None:
        meta["card"] = c
    write_safetensors(os.fspath(path), {k: f32(v) for k, v in state.items()}, meta)
    return config


def unwrap(module):
    """DistributedDataParallel / nn.DataParallel / attnlab.BatchLoss (any chain) -> the module
    inside (`.module`) and the wrappers' names, outermost first."""
    from torch.nn.parallel import DistributedDataParallel
    from .data import BatchLoss
    names = []
    while isinstance(module, (DistributedDataParallel, nn.DataParallel, BatchLoss)):
        names.append(type(module).__name__)
        module = module.module
    return module, names


def _is_pooling_classifier(module):
    kids = dict(module.named_children())
    return set(kids) == {"embedding", "encoder", "pooling", "classifier"} and \
        not any(True for _ in module.named_parameters(recurse=False))


class _OnMeta(TorchFunctionMode):
    """Inside it, torch's factory functions make tensors on the "meta" device: shapes without
    storage, so a module a config describes is sized before a byte of it is allocated."""

    FACTORIES = {"empty", "zeros", "ones", "full", "rand", "randn", "randint", "arange",
                 "tensor", "as_tensor", "eye", "linspace", "empty_strided"}

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        if getattr(func, "__name__", "") in self.FACTORIES and kwargs.get("device") is None:
            kwargs["device"] = "meta"
        return func(*args, **kwargs)


def _json_meta(meta, key, where):
    try:
        return parse_json(meta[key], f'__metadata__ "{key}"')
    except ValueError as e:
        raise LoadError(f"{where}: {e}") from None


def _check_vocab(config, arch, where):
    """Each vocabulary and the labels against the caps (limits.py), before a Tokenizer is
    made of them."""
    tok = config.get("tokenizer")
    cap = CONFIG_LIMITS[arch]["vocab"]
    for k, v in (tok.items() if isinstance(tok, dict) else ()):
        if k in ("vocab", "srcVocab", "tgtVocab") and isinstance(v, list) and len(v) > cap:
            raise LoadError(f'{where}: config "tokenizer" "{k}" has {len(v)} entries, over the '
                            f"cap of {cap}")
    labels = config.get("labels")
    if "labels" in CONFIG_LIMITS[arch] and isinstance(labels, list) \
            and len(labels) > CONFIG_LIMITS[arch]["labels"]:
        raise LoadError(f'{where}: config "labels" has {len(labels)} entries, over the cap of '
                        f'{CONFIG_LIMITS[arch]["labels"]}')


def _op_module(op, where):
    """An op file's "op" object -> its nn.MultiheadAttention, every key checked first."""
    if not isinstance(op, dict):
        raise LoadError(f'{where}: __metadata__ "op" is not a JSON object')
    if op.get("op") != "multiHeadAttention":
        raise LoadError(f"{where}: unknown op {op.get('op')!r} (known: multiHeadAttention)")
    unknown = sorted(set(op) - {"op", "numHeads", "embedDim", "batchFirst"})
    if unknown:
        raise LoadError(f'{where}: op: unknown key "{unknown[0]}"')
    for k in ("embedDim", "numHeads"):
        v, top = op.get(k), OP_LIMITS["multiHeadAttention"][k]
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= top:
            raise LoadError(f'{where}: op "{k}": {v!r} is out of range (an integer in [1, {top}])')
    if op["embedDim"] % op["numHeads"]:
        raise LoadError(f'{where}: op "embedDim" {op["embedDim"]} is not a multiple of '
                        f'"numHeads" {op["numHeads"]}')
    if not isinstance(op.get("batchFirst", False), bool):
        raise LoadError(f'{where}: op "batchFirst" must be true or false')
    return lambda: nn.MultiheadAttention(op["embedDim"], op["numHeads"], dropout=0.0,
                                         batch_first=op.get("batchFirst", False))


def load(path):
    """An attnlab model file (F32, F16, BF16 or I8) -> its attnlab.torch module, weights
    widened to float32 exactly as the C loader does, with .tokenizer, .config and .card (the
    __metadata__["card"] object or None); an op file -> its nn.MultiheadAttention.

    Like the C loader, nothing is allocated before the file is checked: the header and tensor
    table are read strictly (safetensors.read_safetensors), the config against the caps
    (limits.py), and the module the config describes is first built on the "meta" device
    (shapes, no storage) and its parameter shapes compared with the file's tensors; only a
    file that holds every tensor the config needs is built for real. Every refusal is a
    LoadError naming the problem (docs/reliability.md, "Python")."""
    where = f"attnlab.load: {os.fspath(path) if isinstance(path, (str, os.PathLike)) else '<bytes>'}"
    try:
        tensors, meta = read_safetensors(path if not isinstance(path, os.PathLike) else os.fspath(path))
        weights = dequantize(tensors, where)
        for name, w in weights.items():
            if not np.isfinite(w).all():
                raise ValueError(f"tensor {name!r} holds NaN or infinite values")
    except (ValueError, UnicodeDecodeError) as e:
        raise LoadError(f"{where}: not a readable safetensors file: {e}") from None
    card = _json_meta(meta, "card", where) if "card" in meta else None
    if "config" in meta:
        config = _json_meta(meta, "config", where)
        if not isinstance(config, dict):
            raise LoadError(f"{where}: config is not a JSON object")
        arch = config.get("architecture")
        if not isinstance(arch, str) or arch not in ARCHITECTURES:
            raise LoadError(f'{where}: config "architecture": unknown value {arch!r} (known: '
                            f"{', '.join(ARCHITECTURES)})")
        _check_vocab(config, arch, where)
        cls = ARCHITECTURES[arch]
        if arch == "transformer" and config.get("variant") == "encoder-decoder":
            cls = TransformerSeq2Seq

        def build():
            return cls.from_config(config)
    elif "op" in meta:
        config = _json_meta(meta, "op", where)
        build = _op_module(config, where)
    else:
        raise LoadError(f'{where}: no "config" in the file\'s __metadata__: is this an attnlab '
                        "model?")
    try:
        with _OnMeta():
            expected = {k: tuple(v.shape) for k, v in build().state_dict().items()}
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, ZeroDivisionError,
            OverflowError, RuntimeError) as e:
        raise LoadError(f"{where}: config: {e}" if isinstance(e, (ValueError, TypeError))
                        else f"{where}: config: {type(e).__name__} {e}") from None
    bad = _first_mismatch(weights, expected)
    if bad is not None:
        kind, name, got, need = bad
        raise LoadError(f"{where}: " + {
            "missing": f"missing tensor {name!r} (the config needs shape {_shape(need or ())})",
            "shape": f"tensor {name!r} has shape {_shape(got or ())} but the config needs "
                     f"{_shape(need or ())}",
            "extra": f"unexpected tensor {name!r} (shape {_shape(got or ())}): this config does "
                     "not use it"}[kind])
    module = build()   # the file holds every tensor it needs: its size is the file's
    module.load_state_dict({k: torch.from_numpy(np.ascontiguousarray(v))
                            for k, v in weights.items()})
    module.card = card
    module.file_metadata = dict(meta)
    return module
