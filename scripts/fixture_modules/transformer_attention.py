"""PyTorch fixtures for the transformer attention family (tests/js/transformer-attention*.test.js).

Writes three files, each a list of cases with float32 inputs and float32 expected values computed
in float64 from those inputs (torch autograd for every gradient):

  sdpa_backward  gradients of scaled dot-product attention (Vaswani et al. 2017, eq. 1) with the
                 conventions of the `sdpa` fixture in scripts/gen_fixtures.py: query [..., L, D],
                 key [..., S, D], value [..., S, Dv] with ... = none, [H] or [B, H]; mask U8 [S]
                 or [B, S], 1 = ignore; causal top-left; custom scale.
  mha            torch.nn.MultiheadAttention itself (float64, batch_first=True, dropout 0, eval,
                 average_attn_weights=False) with its state dict (in_proj_weight, in_proj_bias,
                 out_proj.weight, out_proj.bias).
  relative       Shaw, Uszkoreit & Vaswani 2018 relative position self-attention, a reference
                 module written here from eqs. (3)-(4), since torch has none.

Upstream gradients: every case stores random `upstream_output` and `upstream_weights`; the loss
is Σ upstream_output·output + Σ upstream_weights·weights, and `grad.<input>` holds its gradient
with respect to each input and parameter. A case with "upstream": ["output"] stores only the
output upstream (the JS API treats a missing entry as zero).

Fully masked rows (a query with no visible key): torch gives NaN in weights and output there. The
attnlab convention is zero weights and a zero context (for MHA the context is then projected, so
the output row is out_proj.bias, as newer torch's safe softmax gives), so the expected forward
values are torch's with those NaN rows replaced explicitly (asserted to be NaN first). Gradients cannot come from torch's NaN graph, so for those
cases they come from `mha_safe`, a float64 reimplementation of F.multi_head_attention_forward
with a NaN-free softmax and the zero-context rule, which is asserted equal to nn.MultiheadAttention on
every live row and, on the cases without dead rows, in every gradient.

Shaw with h heads: head h uses columns h·Dh .. h·Dh+Dh−1 (Dh = dz/h) of the projections and the
SAME rel_K/rel_V tables [2k+1, Dh]; the scale is 1/√Dh (the paper's dz read as the per-head
size; for h = 1 it is 1/√dz). Heads are concatenated to [n, dz]; no output projection.
"""

import math

import numpy as np
import torch
import torch.nn.functional as F

from fixtures_lib import case_rng, dump_cases, f32, fixture



def t64(x):
    """float32-representable values as a float64 torch tensor that requires grad."""
    return torch.tensor(f32(x), dtype=torch.float64, requires_grad=True)


def visible(L, S, causal, mask):
    """Bool [B or 1, L, S]: True where query i may see key j (mask U8 [S] or [B, S] or None)."""
    ok = torch.ones(L, S, dtype=torch.bool)
    if causal:
        ok = torch.ones(L, S).tril().bool()
    ok = ok[None]
    if mask is not None:
        m = torch.from_numpy(np.asarray(mask)).bool()
        m = m[None] if m.dim() == 1 else m
        ok = ok & ~m[:, None, :]
    return ok


def safe_softmax(scores, ok):
    """softmax over the last axis where ok, 0 elsewhere; a row with nothing visible is all 0,
    with zero gradient (no NaN anywhere in the graph)."""
    dead = ~ok.any(-1, keepdim=True)
    s = scores.masked_fill(~ok, float("-inf")).masked_fill(dead, 0.0)
    return F.softmax(s, dim=-1).masked_fill(dead, 0.0)


def grads_of(loss, named):
    """{name: float32 gradient} of loss with respect to each named leaf (zeros if unused)."""
    leaves = list(named.values())
    gs = torch.autograd.grad(loss, leaves, allow_unused=True)
    return {n: f32(torch.zeros_like(t) if g is None else g) for (n, t), g in zip(named.items(), gs)}


def upstream_loss(output, weights, up_out, up_w):
    loss = (output * torch.from_numpy(up_out).double()).sum()
    if up_w is not None:
        loss = loss + (weights * torch.from_numpy(up_w).double()).sum()
    return loss


class Cases:
    def __init__(self, fixture_name):
        self.fixture_name = fixture_name
        self.tensors = {}
        self.cases = []

    def rng(self, name):
        return case_rng(self.fixture_name, name)

    def put(self, case, **tensors):
        for k, v in tensors.items():
            self.tensors[f"{case}.{k}"] = v


# ---------------------------------------------------------------------------------------------
# SDPA backward


def sdpa_torch(q, k, v, *, causal, scale, mask):
    """float64 SDPA on [B?, H?, L, D] tensors; mask U8 [S] or [B, S] (broadcast over heads)."""
    L, D = q.shape[-2:]
    S = k.shape[-2]
    scale = 1.0 / math.sqrt(D) if scale is None else scale
    ok = visible(L, S, causal, mask)                     # [B or 1, L, S]
    if q.dim() == 4:
        ok = ok[:, None]                                 # [B or 1, 1, L, S]
    else:
        assert ok.shape[0] == 1
        ok = ok[0]
    ok = ok.expand(*q.shape[:-2], L, S)
    w = safe_softmax(torch.matmul(q, k.transpose(-1, -2)) * scale, ok)
    return torch.matmul(w, v), w, ok


@fixture("sdpa_backward")
def sdpa_backward():
    c = Cases("sdpa_backward")

    def add(name, Lq, Sk, D, Dv, lead=(), causal=False, scale=None, mask=None, up_weights=True):
        r = c.rng(name)
        q = t64(r.standard_normal((*lead, Lq, D)))
        k = t64(r.standard_normal((*lead, Sk, D)))
        v = t64(r.standard_normal((*lead, Sk, Dv)))
        out, w, ok = sdpa_torch(q, k, v, causal=causal, scale=scale, mask=mask)
        # cross-check the live rows against plain torch softmax with -inf masking
        ref = F.softmax((torch.matmul(q, k.transpose(-1, -2)) * (scale or D ** -0.5))
                        .masked_fill(~ok, float("-inf")), dim=-1)
        live = ok.any(-1)
        assert torch.allclose(ref[live], w[live], atol=1e-12), name
        assert torch.isnan(ref[~live]).all() and (w[~live] == 0).all(), name
        up_out = f32(r.standard_normal(out.shape))
        up_w = f32(r.standard_normal(w.shape)) if up_weights else None
        g = grads_of(upstream_loss(out, w, up_out, up_w), {"query": q, "key": k, "value": v})
        assert all(np.isfinite(x).all() for x in g.values()), name
        c.put(name, query=f32(q), key=f32(k), value=f32(v), output=f32(out), weights=f32(w),
              upstream_output=up_out, **{f"grad.{n}": x for n, x in g.items()})
        if up_w is not None:
            c.put(name, upstream_weights=up_w)
        if mask is not None:
            c.put(name, key_padding_mask=np.ascontiguousarray(mask, dtype=np.uint8))
        c.cases.append({"name": name, "causal": causal, "scale": scale, "mask": mask is not None,
                        "upstream": ["output", "weights"] if up_weights else ["output"]})

    add("l1_s1", 1, 1, 4, 4)
    add("l3_s7", 3, 7, 8, 8)
    add("d7_dv3", 5, 4, 7, 3)
    add("heads3", 4, 5, 6, 6, lead=(3,))
    add("batch_heads_mask", 3, 6, 4, 5, lead=(2, 2),
        mask=np.array([[0, 1, 0, 0, 1, 0], [1, 1, 1, 1, 1, 1]]))  # batch 1 fully masked
    add("causal_l3_s6", 3, 6, 4, 4, causal=True)
    add("causal_l6_s3", 6, 3, 4, 4, causal=True)
    add("causal_mask", 5, 5, 4, 4, lead=(2,), causal=True, mask=np.array([1, 0, 0, 1, 0]))
    add("causal_mask_bh", 4, 6, 4, 3, lead=(2, 2), causal=True,
        mask=np.array([[0, 0, 1, 0, 0, 1], [1, 1, 0, 0, 0, 0]]))
    add("scale_1_25", 4, 5, 4, 4, scale=1.25)
    add("output_only", 4, 6, 5, 3, lead=(2,), up_weights=False)
    return c.tensors, {"fixture": "sdpa_backward", "cases": dump_cases(c.cases),
                       "generator": "scripts/fixture_modules/transformer_attention.py"}


# ---------------------------------------------------------------------------------------------
# Multi-head attention


def mha_safe(query, key, value, W_in, b_in, W_out, b_out, h, causal, mask):
    """F.multi_head_attention_forward (batch_first, no dropout, per-head weights) in float64
    with a NaN-free softmax; a query row with no visible key gives weights 0 and a zero context,
    so its output row is out_proj.bias (out_proj of a zero context)."""
    B, L, E = query.shape
    S = key.shape[1]
    Dh = E // h
    Wq, Wk, Wv = W_in.chunk(3)
    bq, bk, bv = b_in.chunk(3)
    split = lambda x: x.view(B, -1, h, Dh).transpose(1, 2)  # noqa: E731  [B, h, *, Dh]
    Q, K, V = split(query @ Wq.T + bq), split(key @ Wk.T + bk), split(value @ Wv.T + bv)
    ok = visible(L, S, causal, mask)[:, None].expand(B, h, L, S)
    w = safe_softmax(Q @ K.transpose(-1, -2) / math.sqrt(Dh), ok)
    ctx = (w @ V).transpose(1, 2).reshape(B, L, E)
    out = ctx @ W_out.T + b_out
    return out, w


@fixture("mha")
def mha():
    c = Cases("mha")
    names = ["in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"]

    def add(name, L, S, E, h, B=None, causal=False, mask=None, self_attn=False):
        r = c.rng(name)
        Bt = B or 1
        x = lambda n: r.standard_normal((Bt, n, E))  # noqa: E731
        q_np = x(L)
        k_np, v_np = (q_np, q_np) if self_attn else (x(S), x(S))
        sd = {"in_proj_weight": r.uniform(-1, 1, (3 * E, E)) * math.sqrt(3.0 / E),
              "in_proj_bias": r.uniform(-0.5, 0.5, 3 * E),
              "out_proj.weight": r.uniform(-1, 1, (E, E)) * math.sqrt(3.0 / E),
              "out_proj.bias": r.uniform(-0.5, 0.5, E)}
        module = torch.nn.MultiheadAttention(E, h, batch_first=True, dtype=torch.float64).eval()
        module.load_state_dict({k: torch.from_numpy(f32(v)).double() for k, v in sd.items()})
        query, key, value = t64(q_np), t64(k_np), t64(v_np)
        attn_mask = torch.ones(L, S, dtype=torch.bool).triu(1) if causal else None
        kpm = None
        if mask is not None:
            m = torch.from_numpy(np.asarray(mask)).bool()
            kpm = m[None].expand(Bt, S) if m.dim() == 1 else m
        params = {k: t64(v) for k, v in sd.items()}
        out_t, w_t = module(query, key, value, key_padding_mask=kpm, need_weights=True,
                            attn_mask=attn_mask, average_attn_weights=False)
        out_s, w_s = mha_safe(query, key, value, params["in_proj_weight"], params["in_proj_bias"],
                              params["out_proj.weight"], params["out_proj.bias"], h, causal, mask)
        live = visible(L, S, causal, mask).expand(Bt, L, S).any(-1)  # [B, L]
        # torch on the live rows = the safe reference; NaN on the dead rows, replaced by the
        # convention: zero weights, zero context, so the output row is out_proj.bias
        assert torch.allclose(out_t[live], out_s[live], atol=1e-12), name
        assert torch.allclose(w_t.transpose(1, 2)[live], w_s.transpose(1, 2)[live], atol=1e-12), name
        assert torch.isnan(out_t[~live]).all() and torch.isnan(w_t.transpose(1, 2)[~live]).all(), name
        out_t = torch.where(live[..., None], out_t, params["out_proj.bias"].expand_as(out_t))
        w_t = torch.where(live[:, None, :, None], w_t, torch.zeros_like(w_t))
        up_out = f32(r.standard_normal(out_t.shape))
        up_w = f32(r.standard_normal(w_t.shape))
        inputs = {"query": query, "key": key, "value": value}
        g = grads_of(upstream_loss(out_s, w_s, up_out, up_w), {**inputs, **params})
        if live.all():  # no NaN in torch's graph: its own gradients must agree
            mod_params = dict(module.named_parameters())
            gt = grads_of(upstream_loss(out_t, w_t, up_out, up_w),
                          {**inputs, **{n: mod_params[n] for n in names}})
            for n in g:
                assert np.allclose(g[n], gt[n], atol=1e-6), f"{name}: grad {n}"
        unbatch = (lambda a: a[0]) if B is None else (lambda a: a)  # noqa: E731
        c.put(name, query=unbatch(f32(query)), key=unbatch(f32(key)), value=unbatch(f32(value)),
              output=unbatch(f32(out_t)), weights=unbatch(f32(w_t)),
              upstream_output=unbatch(up_out), upstream_weights=unbatch(up_w),
              **{k: f32(v) for k, v in sd.items()},
              **{f"grad.{n}": (unbatch(x) if n in inputs else x) for n, x in g.items()})
        if mask is not None:
            c.put(name, key_padding_mask=np.ascontiguousarray(mask, dtype=np.uint8))
        c.cases.append({"name": name, "numHeads": h, "causal": causal, "mask": mask is not None,
                        "self": self_attn, "batched": B is not None,
                        "dead_rows": int((~live).sum())})

    add("l3_s5_e6_h2", 3, 5, 6, 2)
    add("e6_h3_causal", 4, 4, 6, 3, causal=True)
    add("e12_h4_batch", 5, 3, 12, 4, B=2)
    add("n1", 1, 1, 4, 1)
    add("self_causal", 5, 5, 6, 2, causal=True, self_attn=True)
    add("self_batch", 4, 4, 6, 3, B=3, self_attn=True)
    add("mask_dead_batch", 3, 4, 6, 2, B=2, mask=np.array([[0, 1, 0, 0], [1, 1, 1, 1]]))
    add("causal_mask_batch", 4, 4, 8, 2, B=2, causal=True,
        mask=np.array([[1, 0, 0, 0], [0, 0, 1, 1]]))           # batch 0, query 0 sees nothing
    add("mask_unbatched", 3, 5, 6, 3, mask=np.array([0, 0, 1, 0, 1]))
    add("causal_l5_s3", 5, 3, 6, 2, causal=True)
    add("causal_l2_s4", 2, 4, 6, 2, causal=True)
    return c.tensors, {"fixture": "mha", "cases": dump_cases(c.cases),
                       "generator": "scripts/fixture_modules/transformer_attention.py "
                                    "(torch.nn.MultiheadAttention, float64)"}


# ---------------------------------------------------------------------------------------------
# Relative position attention (Shaw et al. 2018)


def shaw(x, W_Q, W_K, W_V, rel_K, rel_V, k, h, causal, mask):
    """Shaw et al. 2018 eqs. (3)-(4), x [B, n, d] -> (z [B, n, dz], alpha [B, h, n, n])."""
    B, n, _ = x.shape
    dz = W_Q.shape[0]
    Dh = dz // h
    split = lambda t: t.view(B, n, h, Dh).transpose(1, 2)  # noqa: E731  [B, h, n, Dh]
    Q, K, V = split(x @ W_Q.T), split(x @ W_K.T), split(x @ W_V.T)
    pos = torch.arange(n)
    idx = (pos[None, :] - pos[:, None]).clamp(-k, k) + k   # [i, j] = clip(j - i, -k, k) + k
    aK, aV = rel_K[idx], rel_V[idx]                        # [n, n, Dh], shared by the heads
    # e_ij = x_i W^Q (x_j W^K + a^K_ij)^T / sqrt(Dh)         (eq. 4)
    e = (Q @ K.transpose(-1, -2) + torch.einsum("bhid,ijd->bhij", Q, aK)) / math.sqrt(Dh)
    ok = visible(n, n, causal, mask)[:, None].expand(B, h, n, n)
    alpha = safe_softmax(e, ok)
    # z_i = sum_j alpha_ij (x_j W^V + a^V_ij)                (eq. 3)
    z = alpha @ V + torch.einsum("bhij,ijd->bhid", alpha, aV)
    return z.transpose(1, 2).reshape(B, n, dz), alpha


def shaw_loops(x, W_Q, W_K, W_V, rel_K, rel_V, k, h):
    """The same equations with explicit loops (no mask), to cross-check the vectorised one."""
    x, W_Q, W_K, W_V, rel_K, rel_V = (np.asarray(t.detach(), dtype=np.float64)
                                      for t in (x, W_Q, W_K, W_V, rel_K, rel_V))
    n, dz = x.shape[0], W_Q.shape[0]
    Dh = dz // h
    z = np.zeros((n, dz))
    for hd in range(h):
        sl = slice(hd * Dh, (hd + 1) * Dh)
        q, kk, v = x @ W_Q[sl].T, x @ W_K[sl].T, x @ W_V[sl].T
        for i in range(n):
            r = [min(max(j - i, -k), k) + k for j in range(n)]
            e = np.array([q[i] @ (kk[j] + rel_K[r[j]]) for j in range(n)]) / math.sqrt(Dh)
            a = np.exp(e - e.max())
            a /= a.sum()
            z[i, sl] = sum(a[j] * (v[j] + rel_V[r[j]]) for j in range(n))
    return z


@fixture("relative")
def relative():
    c = Cases("relative")
    pnames = ["W_Q", "W_K", "W_V", "rel_K", "rel_V"]

    def add(name, n, d, dz, h, k, B=None, causal=False, mask=None):
        r = c.rng(name)
        Bt = B or 1
        Dh = dz // h
        x = t64(r.standard_normal((Bt, n, d)))
        p = {"W_Q": t64(r.uniform(-1, 1, (dz, d)) * math.sqrt(3.0 / d)),
             "W_K": t64(r.uniform(-1, 1, (dz, d)) * math.sqrt(3.0 / d)),
             "W_V": t64(r.uniform(-1, 1, (dz, d)) * math.sqrt(3.0 / d)),
             "rel_K": t64(r.standard_normal((2 * k + 1, Dh))),
             "rel_V": t64(r.standard_normal((2 * k + 1, Dh)))}
        z, alpha = shaw(x, *(p[n_] for n_ in pnames), k, h, causal, mask)
        if not causal and mask is None:
            loops = shaw_loops(x[0], *(p[n_] for n_ in pnames), k, h)
            assert np.allclose(loops, z[0].detach().numpy(), atol=1e-12), name
        live = visible(n, n, causal, mask).expand(Bt, n, n).any(-1)
        assert (z[~live] == 0).all() and (alpha.transpose(1, 2)[~live] == 0).all(), name
        up_out = f32(r.standard_normal(z.shape))
        up_w = f32(r.standard_normal(alpha.shape))
        g = grads_of(upstream_loss(z, alpha, up_out, up_w), {"x": x, **p})
        unbatch = (lambda a: a[0]) if B is None else (lambda a: a)  # noqa: E731
        c.put(name, x=unbatch(f32(x)), output=unbatch(f32(z)), weights=unbatch(f32(alpha)),
              upstream_output=unbatch(up_out), upstream_weights=unbatch(up_w),
              **{n_: f32(t) for n_, t in p.items()},
              **{f"grad.{n_}": (unbatch(t) if n_ == "x" else t) for n_, t in g.items()})
        if mask is not None:
            c.put(name, key_padding_mask=np.ascontiguousarray(mask, dtype=np.uint8))
        c.cases.append({"name": name, "maxRelativePosition": k, "numHeads": h, "causal": causal,
                        "mask": mask is not None, "batched": B is not None})

    add("k2_n5_h1", 5, 4, 4, 1, 2)                  # k < n: clipping at both ends
    add("k6_n4_h1", 4, 3, 5, 1, 6)                  # k > n: no clipping, unused table rows
    add("k1_n6_h2", 6, 5, 8, 2, 1)                  # two heads sharing the tables
    add("k5_n3_h2_causal", 3, 4, 6, 2, 5, causal=True)
    add("k0_n4", 4, 3, 3, 1, 0)                      # one shared relative vector
    add("n1", 1, 3, 4, 2, 2)
    add("batch_mask_dead", 4, 3, 4, 2, 1, B=2, mask=np.array([[0, 0, 1, 0], [1, 1, 1, 1]]))
    add("batch_causal_mask", 5, 3, 6, 3, 2, B=2, causal=True,
        mask=np.array([[1, 0, 0, 0, 1], [0, 1, 0, 0, 0]]))  # batch 0, query 0 sees nothing
    return c.tensors, {"fixture": "relative", "cases": dump_cases(c.cases),
                       "generator": "scripts/fixture_modules/transformer_attention.py "
                                    "(torch reference from Shaw et al. 2018 eqs. 3-4, float64)"}
