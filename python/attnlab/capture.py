"""python/attnlab/capture.py: attnlab.attention(module, *inputs, **kwargs), the per-head attention
weights of every nn.MultiheadAttention a module calls, in one call (docs/python.md, "Any
module's attention").

    weights = attnlab.attention(encoder, x, src_key_padding_mask=pad)   # runs encoder(x, ...)
    len(weights)       # one entry per nn.MultiheadAttention call, in call order
    weights[0].shape   # [B, H, T, S]: Hugging Face's output_attentions form

For that one call each nn.MultiheadAttention (subclasses too) is run with need_weights=True and
average_attn_weights=False, whatever its caller asked (nn.TransformerEncoderLayer asks for no
weights), and PyTorch's fused fast paths, which skip nn.MultiheadAttention.forward altogether,
are turned off: the encoder layer's (activation_relu_or_gelu), the encoder's nested tensors
(enable_nested_tensor) and, on PyTorch 2.2+, torch.backends.mha's. Everything is put back
afterwards, also when the module raises. The module computes what it computes without the
capture (the ordinary path; the fused one agrees to float rounding), except that in eval mode
PyTorch's nested-tensor path writes 0 at padded positions of an nn.TransformerEncoder's output
and the ordinary path does not.
"""

import inspect

import torch
from torch import nn

__all__ = ["attention"]


def _weights_4d(w, name):
    """[B, H, T, S] from what nn.MultiheadAttention returned ([H, T, S] for an unbatched call)."""
    if w is None:
        raise RuntimeError(f"attnlab.attention: {name} returned no attention weights "
                           "although need_weights=True was passed")
    if w.dim() == 3:
        return w.unsqueeze(0)
    if w.dim() != 4:
        raise RuntimeError(f"attnlab.attention: {name} returned weights of shape {list(w.shape)}; "
                           "expected per-head [B, H, T, S] (average_attn_weights=False)")
    return w


def _wrap(mha, name, store):
    """Replace mha.forward (on the instance) by one that records the per-head weights."""
    orig = mha.forward
    sig = inspect.signature(orig)
    if "average_attn_weights" not in sig.parameters:
        raise RuntimeError(f"attnlab.attention: {name}.forward takes no average_attn_weights "
                           "(PyTorch 1.11 or later gives per-head weights)")

    def forward(*args, **kwargs):
        bound = sig.bind(*args, **kwargs)
        bound.arguments["need_weights"] = True
        bound.arguments["average_attn_weights"] = False
        out = orig(*bound.args, **bound.kwargs)
        store.append(_weights_4d(out[1], name))
        return out

    mha.forward = forward


def _fast_paths_off(module, undo):
    """Turn PyTorch's fused paths off inside module, appending how to undo each change to undo."""
    for sub in module.modules():
        if isinstance(sub, nn.TransformerEncoderLayer) and getattr(sub, "activation_relu_or_gelu", 0):
            undo.append((sub, "activation_relu_or_gelu", sub.activation_relu_or_gelu))
            sub.activation_relu_or_gelu = 0  # read only by the fast-path test; the slow path uses .activation
        if isinstance(sub, nn.TransformerEncoder):
            for attr in ("enable_nested_tensor", "use_nested_tensor"):
                if getattr(sub, attr, False):
                    undo.append((sub, attr, getattr(sub, attr)))
                    setattr(sub, attr, False)


def attention(module, /, *inputs, **kwargs):
    """Run module(*inputs, **kwargs) and return the per-head attention weights of every
    nn.MultiheadAttention it called: a tuple of [B, H, T, S] tensors, one per call, in call order
    (an unbatched call gives B = 1). nn.TransformerEncoder: one per layer; nn.TransformerDecoder:
    per layer its self-attention, then its attention over the memory; nn.Transformer: the
    encoder's, then the decoder's. Masks in kwargs (src_mask, src_key_padding_mask, tgt_mask, ...)
    are the module's own: masked positions get weight 0. Autograd is as the caller has it."""
    if not isinstance(module, nn.Module):
        raise TypeError(f"attnlab.attention: expected an nn.Module to run, got {type(module).__name__}")
    kind = type(module).__name__
    layers = [(n or kind, m) for n, m in module.named_modules() if isinstance(m, nn.MultiheadAttention)]
    if not layers:
        raise ValueError(f"attnlab.attention: {kind} has no nn.MultiheadAttention layer: nothing to "
                         "capture (attnlab.attention reads the weights of nn.MultiheadAttention "
                         "and its subclasses; attnlab.torch modules return theirs from forward)")
    store, undo, wrapped = [], [], []
    fastpath = getattr(getattr(torch.backends, "mha", None), "get_fastpath_enabled", None)
    was_fast = fastpath() if fastpath else None
    try:
        if fastpath:
            torch.backends.mha.set_fastpath_enabled(False)
        _fast_paths_off(module, undo)
        for name, mha in layers:
            if "forward" in mha.__dict__:  # already wrapped on the instance: keep it to restore
                undo.append((mha, "forward", mha.__dict__["forward"]))
            else:
                wrapped.append(mha)
            _wrap(mha, name, store)
        module(*inputs, **kwargs)
    finally:
        for mha in wrapped:
            mha.__dict__.pop("forward", None)
        for obj, attr, value in reversed(undo):
            setattr(obj, attr, value)
        if fastpath:
            torch.backends.mha.set_fastpath_enabled(was_fast)
    if not store:
        raise ValueError(f"attnlab.attention: {kind} ran but called none of its {len(layers)} "
                         f"nn.MultiheadAttention layer{'s' if len(layers) > 1 else ''} "
                         f"({', '.join(n for n, _ in layers[:4])}{', ...' if len(layers) > 4 else ''})")
    return tuple(store)
