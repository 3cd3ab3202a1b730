"""PyTorch fixtures for the transformer layers (tests/js/transformer-layers*.test.js).

Writes tests/fixtures/transformer_layers.safetensors: cases of torch.nn.TransformerEncoderLayer
and torch.nn.TransformerDecoderLayer themselves, in float64, with batch_first=True, dropout 0,
eval mode, activation 'relu' or 'gelu', norm_first both ways. Inputs are stored as float32 and
the expected values are computed in float64 from those float32 values.

Tensors of a case "<case>.<name>": x, memory (decoder), every state dict entry under its own
name (self_attn.in_proj_weight, ..., norm3.bias), output, weights (encoder) or selfWeights and
crossWeights (decoder), upstream.<output name>, grad.<input or parameter name>, and the masks
key_padding_mask (encoder) / tgt_key_padding_mask, memory_key_padding_mask (decoder), U8,
1 = ignore. Unbatched cases ("batched": false) store x [T,E] etc. without the batch axis.

How the attention weights are obtained: the layers call their attention submodules with
need_weights=False, so each submodule's `forward` is replaced, on that instance only, by a
wrapper that calls the original nn.MultiheadAttention.forward with the same arguments but
need_weights=True, average_attn_weights=False, records the per-head weights and returns the
output. The weights are thus those of the very call inside the layer (same normalised input,
same graph), and the loss Σ upstream.output·output + Σ upstream.weights·weights is
differentiated by torch autograd for every input and parameter.

Fully masked rows (a query that sees no key: a fully masked batch element, or causal with the
first key masked): torch 1.13 gives NaN in that row's weights, and the NaN goes on through the
row's residual, norms and feed-forward. attnlab's convention (as multiHeadAttention's) is zero
weights and a zero context, so the attention block outputs out_proj.bias for that row. For such
cases a second wrapper replaces the attention call by `mha_safe` (the NaN-free float64
reimplementation of F.multi_head_attention_forward in transformer_attention.py, using the
submodule's own parameters); the rest of the layer (residuals, LayerNorms, linear1/2,
activation) is still torch's own code. The script asserts that the two runs agree on every live
row (output and weights) and that torch's output is NaN exactly on the dead rows, and, on every
case without dead rows, that the two runs agree in every gradient too. Expected values and
gradients of dead-row cases come from the safe run; of the others, from torch's own run.

Run: /usr/bin/python3 scripts/gen_fixtures.py transformer_layers
"""

import math

import numpy as np
import torch
import torch.nn.functional as F

from fixtures_lib import case_rng, dump_cases, f32, fixture
from fixture_modules.transformer_attention import mha_safe, visible

ATTN = {"self_attn": True, "multihead_attn": False}  # submodule -> is it the self-attention


def t64(x):
    return torch.tensor(f32(x), dtype=torch.float64, requires_grad=True)


def state_dict(r, E, F_, dec):
    """Random parameters with PyTorch's names; scaled so activations stay O(1)."""
    u = lambda shape, fan: r.uniform(-1, 1, shape) * math.sqrt(3.0 / fan)  # noqa: E731
    sd = {}
    for m in (["self_attn", "multihead_attn"] if dec else ["self_attn"]):
        sd[f"{m}.in_proj_weight"] = u((3 * E, E), E)
        sd[f"{m}.in_proj_bias"] = r.uniform(-0.5, 0.5, 3 * E)
        sd[f"{m}.out_proj.weight"] = u((E, E), E)
        sd[f"{m}.out_proj.bias"] = r.uniform(-0.5, 0.5, E)
    sd["linear1.weight"] = u((F_, E), E)
    sd["linear1.bias"] = r.uniform(-0.5, 0.5, F_)
    sd["linear2.weight"] = u((E, F_), F_)
    sd["linear2.bias"] = r.uniform(-0.5, 0.5, E)
    for k in (["norm1", "norm2", "norm3"] if dec else ["norm1", "norm2"]):
        sd[f"{k}.weight"] = 1.0 + 0.3 * r.standard_normal(E)
        sd[f"{k}.bias"] = 0.3 * r.standard_normal(E)
    return {k: f32(v) for k, v in sd.items()}


def wrap_attention(layer, store, safe, h, causal, self_mask, mem_mask):
    """Replace each attention submodule's forward (on this instance) by one that records the
    per-head weights; with `safe`, by mha_safe with the submodule's own parameters."""
    for name, is_self in ATTN.items():
        mod = getattr(layer, name, None)
        if mod is None:
            continue
        orig = mod.forward

        def fwd(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, _mod=mod, _orig=orig, _name=name, _self=is_self):
            if safe:
                out, w = mha_safe(query, key, value, _mod.in_proj_weight, _mod.in_proj_bias,
                                  _mod.out_proj.weight, _mod.out_proj.bias, h,
                                  causal if _self else False, self_mask if _self else mem_mask)
            else:
                out, w = _orig(query, key, value, key_padding_mask=key_padding_mask,
                               need_weights=True, attn_mask=attn_mask,
                               average_attn_weights=False)
            store[_name] = w
            return out, None

        mod.forward = fwd


def run(dec, sd, x_np, mem_np, E, h, F_, norm_first, act, causal, self_mask, mem_mask, safe):
    """One float64 layer call -> (output, {weights}, inputs, params) with autograd leaves."""
    cls = torch.nn.TransformerDecoderLayer if dec else torch.nn.TransformerEncoderLayer
    layer = cls(E, h, dim_feedforward=F_, dropout=0.0, activation=act, batch_first=True,
                norm_first=norm_first, dtype=torch.float64).eval()
    layer.load_state_dict({k: torch.from_numpy(v).double() for k, v in sd.items()})
    store = {}
    wrap_attention(layer, store, safe, h, causal, self_mask, mem_mask)
    B, T = x_np.shape[:2]
    x = t64(x_np)
    inputs = {"x": x}
    kpm = lambda m, n: None if m is None else torch.from_numpy(np.asarray(m)).bool().expand(B, n)  # noqa: E731
    causal_mask = torch.ones(T, T, dtype=torch.bool).triu(1) if causal else None
    if dec:
        mem = t64(mem_np)
        inputs["memory"] = mem
        out = layer(x, mem, tgt_mask=causal_mask, tgt_key_padding_mask=kpm(self_mask, T),
                    memory_key_padding_mask=kpm(mem_mask, mem_np.shape[1]))
        weights = {"selfWeights": store["self_attn"], "crossWeights": store["multihead_attn"]}
    else:
        out = layer(x, src_mask=causal_mask, src_key_padding_mask=kpm(self_mask, T))
        weights = {"weights": store["self_attn"]}
    params = dict(layer.named_parameters())
    assert sorted(params) == sorted(sd), sorted(params)
    return out, weights, inputs, params


def grads(out, weights, up, leaves):
    loss = (out * torch.from_numpy(up["output"]).double()).sum()
    for k, w in weights.items():
        loss = loss + (w * torch.from_numpy(up[k]).double()).sum()
    gs = torch.autograd.grad(loss, list(leaves.values()), allow_unused=True)
    return {n: f32(torch.zeros_like(t) if g is None else g) for (n, t), g in zip(leaves.items(), gs)}


@fixture("transformer_layers")
def transformer_layers():
    tensors, cases = {}, []

    def add(name, dec, T, E, h, F_, S=None, B=None, norm_first=False, act="relu", causal=False,
            self_mask=None, mem_mask=None):
        r = case_rng("transformer_layers", name)
        Bt = B or 1
        sd = state_dict(r, E, F_, dec)
        x_np = f32(r.standard_normal((Bt, T, E)))
        mem_np = f32(r.standard_normal((Bt, S, E))) if dec else None
        args = (dec, sd, x_np, mem_np, E, h, F_, norm_first, act, causal, self_mask, mem_mask)
        out_t, w_t, in_t, p_t = run(*args, safe=False)
        out_s, w_s, in_s, p_s = run(*args, safe=True)
        # live rows: the query sees a key in the self-attention (and, decoder, in the memory)
        live = visible(T, T, causal, self_mask).expand(Bt, T, T).any(-1)
        if dec:
            live = live & visible(T, S, False, mem_mask).expand(Bt, T, S).any(-1)
        assert torch.allclose(out_t[live], out_s[live], atol=1e-12), name
        assert torch.isnan(out_t[~live]).all(), name
        for k in w_t:
            wt, ws = w_t[k].transpose(1, 2), w_s[k].transpose(1, 2)  # [B, T, h, *]
            ok = ~torch.isnan(wt).any(-1).any(-1)                      # rows torch computed
            assert torch.allclose(wt[ok], ws[ok], atol=1e-12), f"{name} {k}"
        assert torch.isfinite(out_s).all(), name
        up = {"output": f32(r.standard_normal(out_s.shape))}
        for k, w in w_s.items():
            up[k] = f32(r.standard_normal(w.shape))
        g = grads(out_s, w_s, up, {**in_s, **p_s})
        dead = int((~live).sum())
        if dead == 0:  # torch's own graph is NaN-free: its gradients must agree, and are stored
            gt = grads(out_t, w_t, up, {**in_t, **p_t})
            for n in g:
                assert np.allclose(g[n], gt[n], atol=1e-9), f"{name}: grad {n}"
            g, out, w = gt, out_t, w_t
        else:
            out, w = out_s, w_s
        unbatch = (lambda a: a[0]) if B is None else (lambda a: a)  # noqa: E731
        put = lambda k, v: tensors.__setitem__(f"{name}.{k}", v)   # noqa: E731
        put("x", unbatch(x_np))
        if dec:
            put("memory", unbatch(mem_np))
        for k, v in sd.items():
            put(k, v)
        put("output", unbatch(f32(out)))
        for k, v in w.items():
            put(k, unbatch(f32(v)))
        for k, v in up.items():
            put(f"upstream.{k}", unbatch(v))
        for k, v in g.items():
            put(f"grad.{k}", unbatch(v) if k in ("x", "memory") else v)
        masks = {("tgt_key_padding_mask" if dec else "key_padding_mask"): self_mask,
                 "memory_key_padding_mask": mem_mask}
        for k, m in masks.items():
            if m is not None:
                put(k, np.ascontiguousarray(m, dtype=np.uint8))
        cases.append({"name": name, "layer": "decoder" if dec else "encoder", "nhead": h,
                      "normFirst": norm_first, "activation": act, "causal": causal,
                      "batched": B is not None, "T": T, "S": S, "E": E, "F": F_,
                      "dead_rows": dead})

    # encoder
    add("enc_post_relu", False, 4, 6, 2, 10)
    add("enc_pre_gelu_causal", False, 5, 6, 3, 8, norm_first=True, act="gelu", causal=True)
    add("enc_t1", False, 1, 4, 2, 6, act="gelu")
    add("enc_batch_mask_dead", False, 4, 6, 2, 12, B=2,
        self_mask=np.array([[0, 1, 0, 0], [1, 1, 1, 1]]))                 # batch 1 sees nothing
    add("enc_pre_batch_causal_mask", False, 4, 8, 2, 6, B=2, norm_first=True, causal=True,
        self_mask=np.array([[1, 0, 0, 0], [0, 0, 1, 1]]))                 # batch 0, row 0 dead
    add("enc_pre_gelu_mask", False, 5, 6, 3, 7, norm_first=True, act="gelu",
        self_mask=np.array([0, 0, 1, 0, 1]))
    add("enc_batch_e6_h3", False, 3, 6, 3, 5, B=2, act="gelu", causal=True)
    # decoder
    add("dec_post_relu", True, 3, 6, 2, 10, S=5, causal=True)
    add("dec_pre_gelu", True, 4, 6, 3, 8, S=2, norm_first=True, act="gelu", causal=True)
    add("dec_post_gelu_noncausal", True, 3, 4, 2, 6, S=3, act="gelu")
    add("dec_t1", True, 1, 4, 2, 6, S=4, causal=True)
    add("dec_batch_masks_dead", True, 3, 6, 2, 9, S=4, B=2, causal=True,
        self_mask=np.array([[0, 0, 1], [0, 0, 0]]),
        mem_mask=np.array([[0, 1, 0, 0], [1, 1, 1, 1]]))                   # batch 1: no memory
    add("dec_pre_batch_masks", True, 3, 6, 3, 7, S=4, B=2, norm_first=True, act="gelu",
        causal=True, self_mask=np.array([[1, 0, 0], [0, 1, 0]]),          # batch 0, row 0 dead
        mem_mask=np.array([[0, 0, 0, 1], [0, 1, 1, 0]]))
    add("dec_pre_relu_unbatched_masks", True, 4, 6, 2, 8, S=5, norm_first=True,
        self_mask=np.array([0, 1, 0, 0]), mem_mask=np.array([1, 0, 0, 1, 0]))
    return tensors, {"fixture": "transformer_layers", "cases": dump_cases(cases),
                     "generator": "scripts/fixture_modules/transformer_layers.py "
                                  "(torch.nn.TransformerEncoderLayer / TransformerDecoderLayer, float64)"}
