"""Every intermediate of one forward of attnlab's "transformer" model, from the PyTorch modules
of transformer.py (docs/states.md; what Model.forward(..., { states: true }) returns in JS).

    st = states(model.double(), src)            # encoder / decoder variants
    st = states(model.double(), src, tgt)       # encoder-decoder
    st["sublayers"][0]["scores"], st["layerOutputs"][-1]["output"], st["logits"]

Each layer is walked block by block with its own submodules (norm1/2/3, self_attn,
multihead_attn, _ff_block), the order of nn.TransformerEncoderLayer / DecoderLayer (post-norm
x = norm(x + f(x)), pre-norm x = x + f(norm(x))); inside each attention block Q, K, V, the
scores, weights and heads are computed from in_proj_weight / in_proj_bias (and Shaw's
relative_key / relative_value) and checked against the module's own output and weights, and
each layer's result against calling the layer itself, so these are the modules' numbers
(an AssertionError says which disagrees). Tensors are 2-D [n, E] or per head [H, n, *].
Does not: batch, or record anything during training (call it on its own).
"""

import math

import torch


def _close(a, b, what):
    if not torch.allclose(a, b, rtol=1e-9, atol=1e-9 if a.dtype == torch.float64 else 1e-5):
        raise AssertionError(f"states: {what} differs from the module's own result by "
                             f"{float((a - b).abs().max()):.3g}")


def _attention(mha, x, sub, kv, mask, rel, where):
    """One attention block's fields (sub: what Q reads; kv: what K, V read)."""
    n, E = sub.shape
    m = kv.shape[0]
    H = mha.num_heads
    Dh = E // H
    W, b = mha.in_proj_weight, mha.in_proj_bias
    heads = lambda t, rows: t.reshape(rows, H, Dh).transpose(0, 1)  # noqa: E731  [H, rows, Dh]
    q = heads(sub @ W[:E].T + b[:E], n)
    k = heads(kv @ W[E:2 * E].T + b[E:2 * E], m)
    v = heads(kv @ W[2 * E:].T + b[2 * E:], m)
    e = q @ k.transpose(-1, -2) / math.sqrt(Dh)
    out = {"input": x}
    if sub is not x:
        out["normed"] = sub
    if rel:
        pos = torch.arange(n, device=q.device)
        r = (pos[None, :] - pos[:, None]).clamp(-mha.max_relative, mha.max_relative)
        r = r + mha.max_relative
        relative = torch.einsum("hid,ijd->hij", q, mha.relative_key.weight[r]) / math.sqrt(Dh)
        e = e + relative
    if mask is not None:
        e = e.masked_fill(mask, float("-inf"))
    a = torch.softmax(e, -1)
    z = a @ v
    if rel:
        z = z + torch.einsum("hij,ijd->hid", a, mha.relative_value.weight[r])
    concat = z.transpose(0, 1).reshape(n, E)
    projected = mha.out_proj(concat)
    got, w = mha(sub[None], kv[None], kv[None], attn_mask=mask, need_weights=True,
                 average_attn_weights=False)
    _close(projected, got[0], f"{where} output")
    _close(a, w[0], f"{where} weights")
    out.update(q=q, k=k, v=v, scores=e, weights=a, heads=z, concat=concat, projected=projected)
    if rel:
        out["relative"] = relative
    return out


def _layer(layer, x, mem, mask, rel, stack, index, subs):
    """One nn.TransformerEncoderLayer (mem None) or DecoderLayer; appends its attention
    sublayers to subs and returns the layer output (checked against layer(...))."""
    pre = layer.norm_first
    blocks = [("self", layer.self_attn, layer.norm1)]
    if mem is not None:
        blocks.append(("cross", layer.multihead_attn, layer.norm2))
    h = x
    for kind, mha, norm in blocks:
        sub = norm(h) if pre else h
        kv = sub if kind == "self" else mem
        s = _attention(mha, h, sub, kv, mask if kind == "self" else None,
                       rel and kind == "self", f"{stack} layer {index} {kind}")
        s["residual"] = h + s["projected"] if pre else norm(h + s["projected"])
        subs.append({"stack": stack, "layer": index, "kind": kind, **s})
        h = s["residual"]
    norm = layer.norm3 if mem is not None else layer.norm2
    y = h + layer._ff_block(norm(h)) if pre else norm(h + layer._ff_block(h))
    want = (layer(x[None], src_mask=mask) if mem is None
            else layer(x[None], mem[None], tgt_mask=mask))[0]
    _close(y, want, f"{stack} layer {index} output")
    return y


def states(model, src, tgt=None):
    """The states dict of docs/states.md for one forward: variant, embedded {encoder?,
    decoder?}, sublayers [{stack, layer, kind, input, normed?, q, k, v, scores, relative?,
    weights, heads, concat, projected, residual}], layerOutputs [{stack, layer, output}],
    final {encoder?, decoder?}, logits [n, V]. A single stack is named after the variant."""
    dev = model.out.weight.device
    causal = lambda n: torch.ones(n, n, dtype=torch.bool, device=dev).triu(1)  # noqa: E731
    rel = model._keys["positions"] == "relative"
    subs, outs = [], []
    st = {"variant": model.variant, "sublayers": subs, "layerOutputs": outs}

    def stack(layers, x, mem, mask, name, norm):
        for i, layer in enumerate(layers):
            x = _layer(layer, x, mem, mask, rel, name, i, subs)
            outs.append({"stack": name, "layer": i, "output": x})
        return norm(x) if norm is not None else x

    if model.variant == "encoder-decoder":
        xs = model.embed(model.src_embedding, list(src))[0]
        mem = stack(model.encoder.layers, xs, None, None, "encoder", model.encoder.norm)
        xt = model.embed(model.tgt_embedding, list(tgt))[0]
        y = stack(model.decoder.layers, xt, mem, causal(len(tgt)), "decoder", model.decoder.norm)
        st["embedded"] = {"encoder": xs, "decoder": xt}
        st["final"] = {"encoder": mem, "decoder": y}
    else:
        x = model.embed(model.embedding, list(src))[0]
        mask = causal(len(src)) if model.variant == "decoder" else None
        y = stack(model.layers, x, None, mask, model.variant, getattr(model, "norm", None))
        st["embedded"] = {model.variant: x}
        st["final"] = {model.variant: y}
    st["logits"] = model.out(y)
    return st
