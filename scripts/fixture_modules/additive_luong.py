"""PyTorch reference fixtures for the additive_luong family: additive (Bahdanau), Luong global and
local, and key-query attention, forward outputs and autograd gradients.

Writes tests/fixtures/{additive,luong,luong_local,key_query}.safetensors:

    /usr/bin/python3 scripts/gen_fixtures.py additive luong luong_local key_query

Each module below is written straight from the paper's equations in torch float64 (inputs are
float32 values, promoted), and the gradients come from torch.autograd on the loss
    L = Σ context·up_context + Σ weights·up_weights [+ Σ h̃·up_attentionalHidden + Σ p_t·up_position]
with random float32 upstream gradients, so every output's backward path is exercised.

Tensor names per case ("<case>.<name>"): the inputs and parameters under their API names
(query, keys, values, keyPaddingMask (U8, 1 = ignore), W_q, W_k, bias, v, W_a, v_a, W_c, W_p, v_p,
W_Q, W_K, W_V), the outputs (context, weights, attentionalHidden, position), the upstream
gradients (upstream_<output>) and the gradients (grad_<input or parameter>). Case settings in the
metadata: batched, score, position ('monotonic' | 'predictive'), window, t, scaled.

Conventions followed (docs/additive-luong.md): softmax over keys; masked keys get weight 0; a fully
masked row gives zero weights and a zero context (torch would give NaN, so the softmax below zeroes
those rows explicitly, and their gradients are zero). Local attention (Luong et al. 2015, eq. 9-10):
window = integer s (0-based) with p_t − D <= s <= p_t + D clipped to [0, n−1]; softmax over
in-window unmasked positions only; a_s = softmax_s · exp(−(s − p_t)²/(2σ²)), σ = D/2, not
renormalised. The window is decided from p_t's value (held fixed for the gradient), while the
Gaussian is differentiated through p_t.

Does not: run attnlab or compare anything (tests/js/additive-luong.test.js does).
"""

import math

import numpy as np
import torch

from fixtures_lib import case_rng, dump_cases, f32, fixture

DT = torch.float64


def t64(x):
    return torch.tensor(f32(x), dtype=DT, requires_grad=True)


def masked_softmax(e, mask):
    """softmax over the last axis; mask bool (True = excluded) or None; fully excluded rows → 0."""
    if mask is None:
        return torch.softmax(e, -1)
    dead = mask.all(-1, keepdim=True)
    e = e.masked_fill(mask, float("-inf")).masked_fill(dead, 0.0)
    return torch.softmax(e, -1).masked_fill(dead, 0.0)


class Cases:
    """Collects one fixture file's cases: inputs/params (float32), reference outputs and grads."""

    def __init__(self, fixture_name):
        self.fixture_name = fixture_name
        self.tensors = {}
        self.cases = []

    def rng(self, name):
        return case_rng(self.fixture_name, name)

    def add(self, name, settings, inputs, mask, forward):
        """inputs: {name: float array}; mask: U8 array or None; forward(leaves, mask_bool) returns
        {output name: tensor}. Stores inputs, outputs, random upstreams and autograd grads."""
        assert "." not in name
        r = self.rng(name + "/upstream")
        leaves = {k: t64(v) for k, v in inputs.items()}
        mbool = None if mask is None else torch.from_numpy(np.asarray(mask, dtype=np.uint8)).bool()
        outs = forward(leaves, mbool)
        loss = 0.0
        for k, v in outs.items():
            up = f32(r.standard_normal(tuple(v.shape)))
            self.tensors[f"{name}.{k}"] = f32(v.detach())
            self.tensors[f"{name}.upstream_{k}"] = up
            loss = loss + (v * torch.from_numpy(up).to(DT)).sum()
            assert torch.isfinite(v).all(), f"{name}: {k} is not finite"
        grads = torch.autograd.grad(loss, list(leaves.values()), allow_unused=True)
        for (k, leaf), g in zip(leaves.items(), grads):
            self.tensors[f"{name}.{k}"] = f32(leaf.detach())
            self.tensors[f"{name}.grad_{k}"] = f32(torch.zeros_like(leaf) if g is None else g)
        if mask is not None:
            self.tensors[f"{name}.keyPaddingMask"] = np.ascontiguousarray(mask, dtype=np.uint8)
        self.cases.append({"name": name, **settings})
        return {k: v.detach().numpy() for k, v in outs.items()}

    def result(self, generator):
        return self.tensors, {"fixture": self.fixture_name, "generator": generator,
                              "cases": dump_cases(self.cases)}


def randn(r, *shape, std=1.0):
    return r.standard_normal(shape) * std


def batch_in(x, batched):
    """unbatched tensors get a leading batch of 1 inside the modules"""
    return x if batched else x.unsqueeze(0)


def batch_out(x, batched):
    return x if batched else x.squeeze(0)


# ---------------------------------------------------------------------------------------------
# Additive attention: Bahdanau et al. 2015, eq. (6) and appendix A.1.2.


def additive_module(p, mask, batched, use_values):
    q = batch_in(p["query"], batched)                       # [B, dq]
    K = batch_in(p["keys"], batched)                        # [B, n, dk]
    V = batch_in(p["values"], batched) if use_values else K
    m = None if mask is None else (mask if mask.dim() == 2 else mask.expand(K.shape[0], -1))
    # e_j = vᵀ tanh(W_q s + W_k h_j + b)
    e = torch.tanh((q @ p["W_q"].T + p["bias"])[:, None, :] + K @ p["W_k"].T) @ p["v"]
    w = masked_softmax(e, m)                                # α = softmax(e)
    c = (w[..., None] * V).sum(-2)                          # c = Σ_j α_j h_j
    return {"context": batch_out(c, batched), "weights": batch_out(w, batched)}


@fixture("additive")
def additive():
    cs = Cases("additive")

    def case(name, B, n, dq, dk, da, dv=None, mask=None, kstd=1.0, vstd=1.0):
        r = cs.rng(name)
        lead = (B,) if B else ()
        inputs = {"query": randn(r, *lead, dq), "keys": randn(r, *lead, n, dk, std=kstd),
                  "W_q": randn(r, da, dq, std=0.6), "W_k": randn(r, da, dk, std=0.6),
                  "bias": randn(r, da, std=0.3), "v": randn(r, da, std=vstd)}
        if dv:
            inputs["values"] = randn(r, *lead, n, dv)
        settings = {"batched": bool(B), "values": bool(dv), "mask": mask is not None}
        return cs.add(name, settings, inputs, mask,
                      lambda p, m: additive_module(p, m, bool(B), bool(dv)))

    case("n1", 0, 1, 5, 7, 3)
    case("odd", 0, 6, 5, 7, 3)
    case("values", 0, 6, 5, 7, 3, dv=4)
    case("mask", 0, 6, 5, 7, 3, mask=np.array([0, 1, 0, 0, 1, 0]))
    case("outliers", 0, 9, 4, 4, 8, kstd=2.0, vstd=3.0)
    case("lanes", 0, 19, 8, 6, 17, dv=5)
    case("batch", 2, 5, 5, 7, 3)
    out = case("batch_mask_values", 2, 6, 5, 7, 3, dv=4,
               mask=np.array([[0, 0, 1, 0, 1, 0], [1, 1, 1, 1, 1, 1]]))
    assert (out["weights"][1] == 0).all() and (out["context"][1] == 0).all()
    return cs.result("scripts/fixture_modules/additive_luong.py (torch float64 autograd)")


# ---------------------------------------------------------------------------------------------
# Luong et al. 2015, eq. (5)-(10).


def luong_module(p, mask, batched, score, local=None, window=None, t=None):
    h = batch_in(p["query"], batched)                       # [B, d]
    K = batch_in(p["keys"], batched)                        # [B, n, d]
    B, n, d = K.shape
    m = None if mask is None else (mask if mask.dim() == 2 else mask.expand(B, -1))
    if score == "dot":                                      # h_tᵀ h̄_s
        s = torch.einsum("bd,bnd->bn", h, K)
    elif score == "general":                                # h_tᵀ W_a h̄_s
        s = torch.einsum("bd,de,bne->bn", h, p["W_a"], K)
    else:                                                   # v_aᵀ tanh(W_a [h_t; h̄_s])
        hk = torch.cat([h[:, None, :].expand(B, n, d), K], -1)
        s = torch.tanh(hk @ p["W_a"].T) @ p["v_a"]
    outs = {}
    if local is None:
        a = masked_softmax(s, m)
    else:
        if local == "monotonic":
            pt = torch.full((B,), float(t), dtype=DT)       # p_t = t
        else:                                               # p_t = S·sigmoid(v_pᵀ tanh(W_p h_t))
            pt = n * torch.sigmoid(torch.tanh(h @ p["W_p"].T) @ p["v_p"])
        pos = torch.arange(n, dtype=DT)[None, :]
        pv = pt.detach()[:, None]
        outside = (pos < pv - window) | (pos > pv + window)  # the window, held fixed
        excl = outside if m is None else (outside | m)
        sigma = window / 2.0
        gauss = torch.exp(-(pos - pt[:, None]) ** 2 / (2 * sigma ** 2))
        a = masked_softmax(s, excl) * gauss
        outs["position"] = batch_out(pt, batched)
    c = torch.einsum("bn,bnd->bd", a, K)                    # c = Σ a_s h̄_s
    ht = torch.tanh(torch.cat([c, h], -1) @ p["W_c"].T)     # h̃ = tanh(W_c [c; h_t])
    outs = {"context": batch_out(c, batched), "weights": batch_out(a, batched),
            "attentionalHidden": batch_out(ht, batched), **outs}
    return outs


def luong_inputs(r, score, B, n, d, da):
    lead = (B,) if B else ()
    inputs = {"query": randn(r, *lead, d), "keys": randn(r, *lead, n, d)}
    if score == "general":
        inputs["W_a"] = randn(r, d, d, std=0.6)
    if score == "concat":
        inputs["W_a"] = randn(r, da, 2 * d, std=0.6)
        inputs["v_a"] = randn(r, da, std=1.5)
    inputs["W_c"] = randn(r, d, 2 * d, std=0.5)
    return inputs


@fixture("luong")
def luong():
    cs = Cases("luong")
    for score in ("dot", "general", "concat"):
        def case(name, B, n, d, da=3, mask=None):
            name = f"{score}_{name}"
            inputs = luong_inputs(cs.rng(name), score, B, n, d, da)
            settings = {"score": score, "batched": bool(B), "mask": mask is not None}
            return cs.add(name, settings, inputs, mask,
                          lambda p, m: luong_module(p, m, bool(B), score))
        case("n1", 0, 1, 5)
        case("odd", 0, 7, 5)
        case("mask", 0, 7, 6, da=5, mask=np.array([0, 0, 1, 0, 0, 1, 0]))
        case("batch", 2, 6, 5)
        out = case("batch_mask", 2, 6, 5, mask=np.array([[1, 1, 1, 1, 1, 1], [0, 1, 0, 0, 0, 0]]))
        assert (out["weights"][0] == 0).all() and (out["context"][0] == 0).all()
    return cs.result("scripts/fixture_modules/additive_luong.py (torch float64 autograd)")


def window_ok(p, D, n):
    """p_t − D and p_t + D well away from integers, so float32 and float64 agree on the window"""
    for x in (p - D, p + D):
        if abs(x - round(x)) < 1e-3:
            return False
    return True


@fixture("luong_local")
def luong_local():
    cs = Cases("luong_local")
    for score in ("dot", "general", "concat"):
        def case(name, B, n, d, position, window, t=None, dp=4, da=3, mask=None, wp=1.0):
            name = f"{score}_{name}"
            r = cs.rng(name)
            inputs = luong_inputs(r, score, B, n, d, da)
            if position == "predictive":
                inputs["W_p"] = randn(r, dp, d, std=wp)
                inputs["v_p"] = randn(r, dp, std=wp)
            settings = {"score": score, "batched": bool(B), "mask": mask is not None,
                        "position": position, "window": window, "t": t}
            out = cs.add(name, settings, inputs, mask,
                         lambda p, m: luong_module(p, m, bool(B), score, position, window, t))
            for pt in np.atleast_1d(out["position"]) if position == "predictive" else []:
                assert window_ok(float(pt), window, n), f"{name}: p_t {pt} too near a window edge"
            return out
        # local-m: the window clips at the start, the end, both ends; interior; batched with mask
        case("m_start", 0, 7, 5, "monotonic", 2, t=0)
        case("m_end", 0, 7, 5, "monotonic", 2, t=6, mask=np.array([0, 0, 1, 0, 0, 1, 0]))
        case("m_both", 0, 7, 5, "monotonic", 5, t=3)
        case("m_interior", 0, 9, 6, "monotonic", 1, t=4, da=5)
        case("m_n1", 0, 1, 5, "monotonic", 1, t=0)
        out = case("m_batch_mask", 2, 6, 5, "monotonic", 2, t=1,
                   mask=np.array([[0, 0, 1, 0, 0, 0], [1, 1, 1, 1, 0, 0]]))
        assert (out["weights"][1] == 0).all(), "window [0, 3] fully masked in row 1"
        # local-p: p_t real-valued; larger W_p/v_p push sigmoid towards 0 or 1 (the ends)
        case("p_mid", 0, 10, 5, "predictive", 2, dp=4)
        case("p_wide", 0, 7, 5, "predictive", 4, dp=3, wp=2.0)
        case("p_n1", 0, 1, 5, "predictive", 1, dp=3)
        out = case("p_batch_mask", 2, 8, 6, "predictive", 3, dp=5, wp=1.5, da=5,
                   mask=np.array([[0, 1, 0, 0, 0, 0, 1, 0], [1, 1, 1, 1, 1, 1, 1, 1]]))
        assert (out["weights"][1] == 0).all()
    return cs.result("scripts/fixture_modules/additive_luong.py (torch float64 autograd)")


# ---------------------------------------------------------------------------------------------
# Key-query attention: k_i = W_K h_i, q = W_Q s, v_i = W_V h_i, α = softmax(k_iᵀ q [/√dk]).


def key_query_module(p, mask, batched, scaled):
    s = batch_in(p["query"], batched)                       # [B, ds]
    H = batch_in(p["keys"], batched)                        # [B, n, dh]
    m = None if mask is None else (mask if mask.dim() == 2 else mask.expand(H.shape[0], -1))
    q = s @ p["W_Q"].T                                      # [B, dk]
    k = H @ p["W_K"].T                                      # [B, n, dk]
    v = H @ p["W_V"].T                                      # [B, n, dv]
    e = torch.einsum("bnk,bk->bn", k, q)
    if scaled:
        e = e / math.sqrt(q.shape[-1])
    w = masked_softmax(e, m)
    c = torch.einsum("bn,bnv->bv", w, v)
    return {"context": batch_out(c, batched), "weights": batch_out(w, batched)}


@fixture("key_query")
def key_query():
    cs = Cases("key_query")
    for scaled in (False, True):
        def case(name, B, n, ds, dh, dk, dv, mask=None):
            name = f"{'scaled' if scaled else 'unscaled'}_{name}"
            r = cs.rng(name)
            lead = (B,) if B else ()
            inputs = {"query": randn(r, *lead, ds), "keys": randn(r, *lead, n, dh),
                      "W_Q": randn(r, dk, ds, std=0.7), "W_K": randn(r, dk, dh, std=0.7),
                      "W_V": randn(r, dv, dh, std=0.7)}
            settings = {"scaled": scaled, "batched": bool(B), "mask": mask is not None}
            return cs.add(name, settings, inputs, mask,
                          lambda p, m: key_query_module(p, m, bool(B), scaled))
        case("n1", 0, 1, 5, 7, 3, 4)
        case("odd", 0, 6, 5, 7, 3, 4)
        case("mask", 0, 6, 4, 3, 6, 2, mask=np.array([1, 0, 0, 1, 0, 0]))
        case("batch", 2, 5, 5, 7, 3, 4)
        out = case("batch_mask", 2, 6, 4, 5, 8, 3,
                   mask=np.array([[0, 0, 0, 1, 0, 0], [1, 1, 1, 1, 1, 1]]))
        assert (out["weights"][1] == 0).all() and (out["context"][1] == 0).all()
    return cs.result("scripts/fixture_modules/additive_luong.py (torch float64 autograd)")
