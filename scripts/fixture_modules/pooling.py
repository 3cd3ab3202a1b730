"""PyTorch fixtures for the pooling attentions: tests/fixtures/pooling.safetensors.

Regenerate by hand with Debian's python3-torch 1.13:

    /usr/bin/python3 scripts/gen_fixtures.py pooling

Holds float64 torch reference modules written from the papers' equations, with autograd for the
gradients; inputs are drawn in float32 and promoted, references are stored as float32:

  attention_pooling          Zhou et al. 2016, eqs. 9-12: M = tanh(H), α = softmax(M w),
                             r = Hᵀα, h* = tanh(r)
  context_pooling            Yang et al. 2016 (HAN), eqs. 5-7: uᵢ = tanh(W hᵢ + b),
                             α = softmax(uᵢᵀ u), s = Σ αᵢ hᵢ
  structured_self_attention  Lin et al. 2017, eqs. 6-8: A = softmax(W_s2 tanh(W_s1 Hᵀ)) over n
                             for each of the r hops, M = A H, penalty = ‖A Aᵀ − I‖²_F

Masks follow PyTorch (True/1 = ignore that position); a fully masked sequence has zero weights
(torch's softmax would give NaN), so r = s = M = 0, h* = tanh(0) = 0 and the penalty is ‖−I‖² = r.

Each case has settings {"name", "op", "batched"} and tensors named "<case>.<tensor>":
inputs H [n,d] or [B,n,d], the parameters by their API names (w | W, b, u | W_s1, W_s2), mask
(U8 [n] or [B,n], when the case has one); outputs by their API names (r, hStar, weights | s,
weights | M, weights, penalty: [] or [B]); upstream gradients "up_<output>" (random, one for
every output); gradients "grad_<input or parameter>" of L = Σ up_o · o over the outputs o.

Does not: run attnlab, or test masks broadcast over a batch (the JS tests do that).
"""

import json

import numpy as np
import torch

from fixtures_lib import case_rng, dump_cases, f32, fixture

NAME = "pooling"


def masked_softmax(scores, mask):
    """Softmax over the last axis; mask (bool, broadcastable, True = ignore) positions get 0,
    and a row with every position masked is all zeros (not NaN)."""
    if mask is None:
        return torch.softmax(scores, dim=-1)
    keep = (~mask).to(scores.dtype)
    hidden = scores.masked_fill(mask, float("-inf"))
    mx = hidden.max(dim=-1, keepdim=True).values.detach()
    mx = torch.where(torch.isfinite(mx), mx, torch.zeros_like(mx))
    e = torch.exp(scores - mx) * keep
    den = e.sum(dim=-1, keepdim=True)
    return e / torch.where(den > 0, den, torch.ones_like(den))


def attention_pooling(H, p, mask):
    M = torch.tanh(H)                                     # eq. 9
    alpha = masked_softmax(M @ p["w"], mask)              # eq. 10: softmax(wᵀ M)
    r = (alpha.unsqueeze(-1) * H).sum(-2)                 # eq. 11: r = H αᵀ
    return {"r": r, "hStar": torch.tanh(r), "weights": alpha}  # eq. 12


def context_pooling(H, p, mask):
    U = torch.tanh(H @ p["W"].T + p["b"])                 # eq. 5
    alpha = masked_softmax(U @ p["u"], mask)              # eq. 6
    s = (alpha.unsqueeze(-1) * H).sum(-2)                 # eq. 7
    return {"s": s, "weights": alpha}


def structured_self_attention(H, p, mask):
    T = torch.tanh(p["W_s1"] @ H.transpose(-1, -2))       # [..., da, n]
    m = None if mask is None else mask.unsqueeze(-2)      # shared by the r hops
    A = masked_softmax(p["W_s2"] @ T, m)                  # eq. 6, [..., r, n]
    M = A @ H                                             # eq. 7
    r = A.shape[-2]
    G = A @ A.transpose(-1, -2) - torch.eye(r, dtype=A.dtype)
    penalty = (G * G).sum((-1, -2))                       # eq. 8, squared Frobenius norm
    return {"M": M, "weights": A, "penalty": penalty}


OPS = {
    "attentionPooling": attention_pooling,
    "contextPooling": context_pooling,
    "structuredSelfAttention": structured_self_attention,
}


class Cases:
    def __init__(self):
        self.cases = []
        self.tensors = {}

    def add(self, name, op, H, params, mask=None):
        """Run op in float64 from float32 inputs, backward with random upstream, store all."""
        r = case_rng(NAME, name + "/upstream")
        H = torch.tensor(f32(H), dtype=torch.float64, requires_grad=True)
        p = {k: torch.tensor(f32(v), dtype=torch.float64, requires_grad=True)
             for k, v in params.items()}
        m = None if mask is None else torch.tensor(np.asarray(mask, dtype=bool))
        out = OPS[op](H, p, m)
        loss = torch.zeros((), dtype=torch.float64)
        ups = {}
        for k, v in out.items():
            up = torch.tensor(f32(r.uniform(-1, 1, tuple(v.shape))), dtype=torch.float64)
            ups[k] = up
            loss = loss + (up * v).sum()
        loss.backward()
        for k, v in out.items():
            assert torch.isfinite(v).all(), f"{name}: {k} is not finite"
        t = self.tensors
        t[f"{name}.H"] = f32(H)
        for k, v in p.items():
            t[f"{name}.{k}"] = f32(v)
            t[f"{name}.grad_{k}"] = f32(v.grad)
        t[f"{name}.grad_H"] = f32(H.grad)
        if mask is not None:
            t[f"{name}.mask"] = np.asarray(mask, dtype=np.uint8)
        for k, v in out.items():
            t[f"{name}.{k}"] = f32(v)
            t[f"{name}.up_{k}"] = f32(ups[k])
        self.cases.append({"name": name, "op": op, "batched": H.dim() == 3})
        return {k: v.detach().numpy() for k, v in out.items()}


def normal(r, *shape, std=1.0):
    return r.normal(0.0, std, shape)


def not_uniform(w, name, n):
    """Weights must be far from 1/n, or a wrong softmax could pass."""
    w = np.asarray(w).reshape(-1, n)
    live = w[w.sum(-1) > 0]
    assert n == 1 or (live.max(-1) > 2.0 / n).all(), f"{name}: weights near uniform: {live}"


@fixture(NAME)
def pooling():
    c = Cases()
    # mask for B = 2, n = 5: item 0 hides positions 1 and 4, item 1 is fully masked
    bmask = np.array([[0, 1, 0, 0, 1], [1, 1, 1, 1, 1]], dtype=np.uint8)

    # ---- attention pooling (Zhou): scores tanh(H) w with |tanh| <= 1, so w is large
    for name, shape, mask in [("ap_n6_d5", (6, 5), None), ("ap_n1_d5", (1, 5), None),
                              ("ap_mask", (7, 5), np.array([0, 0, 1, 0, 1, 0, 0])),
                              ("ap_batch", (2, 9, 4), None), ("ap_batch_mask", (2, 5, 5), bmask)]:
        r = case_rng(NAME, name)
        d = shape[-1]
        out = c.add(name, "attentionPooling", normal(r, *shape, std=2.0),
                    {"w": normal(r, d, std=3.0)}, mask)
        not_uniform(out["weights"], name, shape[-2])

    # ---- context pooling (HAN): dw = 3; u large so uᵢᵀ u spreads
    for name, shape, dw, mask in [("cp_n6_d5", (6, 5), 3, None), ("cp_n1_d5", (1, 5), 3, None),
                                  ("cp_mask", (7, 5), 3, np.array([1, 0, 0, 1, 0, 0, 0])),
                                  ("cp_batch", (2, 8, 6), 4, None),
                                  ("cp_batch_mask", (2, 5, 5), 3, bmask)]:
        r = case_rng(NAME, name)
        d = shape[-1]
        out = c.add(name, "contextPooling", normal(r, *shape, std=1.5),
                    {"W": normal(r, dw, d, std=1.0), "b": normal(r, dw, std=0.5),
                     "u": normal(r, dw, std=3.0)}, mask)
        not_uniform(out["weights"], name, shape[-2])

    # ---- structured self-attention (Lin): da = 7, r = 1 and r = 3; W_s2 large
    for name, shape, hops, mask in [("ssa_r1", (6, 5), 1, None), ("ssa_r3", (6, 5), 3, None),
                                    ("ssa_n1_r3", (1, 5), 3, None),
                                    ("ssa_mask_r3", (7, 5), 3, np.array([0, 1, 0, 0, 0, 1, 0])),
                                    ("ssa_batch_r3", (2, 8, 5), 3, None),
                                    ("ssa_batch_mask_r3", (2, 5, 5), 3, bmask),
                                    ("ssa_batch_mask_r1", (2, 5, 5), 1, bmask)]:
        r = case_rng(NAME, name)
        d = shape[-1]
        out = c.add(name, "structuredSelfAttention", normal(r, *shape, std=1.5),
                    {"W_s1": normal(r, 7, d, std=1.0), "W_s2": normal(r, hops, 7, std=3.0)},
                    mask)
        not_uniform(out["weights"], name, shape[-2])
        if mask is not None and mask.ndim == 2:
            assert (out["weights"][1] == 0).all() and (out["M"][1] == 0).all()
            assert out["penalty"][1] == hops, "fully masked: penalty = ‖−I‖² = r"

    metadata = {
        "fixture": NAME,
        "generator": "scripts/fixture_modules/pooling.py (torch float64 autograd)",
        "cases": dump_cases(c.cases),
    }
    return c.tensors, metadata
