"""PyTorch references for the memory-RNN family: tests/fixtures/self_attention_rnn.safetensors and
tests/fixtures/lstmn.safetensors.

Holds: float64 torch modules written from the equations (a Python loop over t, nothing fused),
for
  - the SimpleRNN with self-attention over its own states:
        h_t = tanh(A [x_t; c_{t-1}] + b),  c_t = sum_{i<=t} alpha_i h_i,
        alpha = softmax_i(align(h_i, h_t)) over i = 1..t (t itself included),  c_0 = 0;
        additive align v^T tanh(W_h h_i + W_s h_t), dot align (W_K h_i)^T (W_Q h_t);
  - the LSTMN of Cheng, Dong & Lapata 2016 ("Long Short-Term Memory-Networks for Machine
    Reading", section 3.1), with PyTorch's gate order i, f, g, o:
        a_i = v^T tanh(W_h h_i + W_x x_t + W_ht h~_{t-1}), i < t;  s = softmax(a);
        h~_t = sum s_i h_i, c~_t = sum s_i c_i (h~_1 = c~_1 = 0, empty tape);
        [i; f; g; o] = W [h~_t; x_t] + b;  c_t = f*c~_t + i*g;  h_t = o*tanh(c_t);
and, per case, the outputs plus autograd gradients of sum(up_<out> * <out>) for random upstream
on every output (tensors grad_<input>).

Cases: T = 1 and T = 5 with odd sizes (in = 3, H = 5, da = 4), both aligns, and batch B = 2.
Inputs are drawn in float32 (what the tests feed attnlab) and widened to float64 for the
reference; recurrent weights are scaled to about 0.5/sqrt(H) so nothing saturates or explodes,
score weights are larger so the attention is far from uniform.

Does not: use torch.nn.RNN/LSTM (neither has the tape), or depend on attnlab.
"""

import math

import numpy as np
import torch

from fixtures_lib import case_rng, dump_cases, f32, fixture


def _u(r, shape, scale):
    return f32(r.uniform(-scale, scale, size=shape))


def _t(a):
    return torch.tensor(np.asarray(a), dtype=torch.float64, requires_grad=True)


def self_attention_rnn_ref(x, p, align):
    """x [B, T, in] float64 -> h [B, T, H], weights [B, T, T]."""
    B, T, _ = x.shape
    H = p["A"].shape[0]
    hs, ws = [], []
    for bi in range(B):
        c_prev = torch.zeros(H, dtype=torch.float64)
        h_list, rows = [], []
        for t in range(T):
            h_t = torch.tanh(p["A"] @ torch.cat([x[bi, t], c_prev]) + p["b"])
            h_list.append(h_t)
            hist = torch.stack(h_list)                      # [t+1, H], h_t included
            if align == "additive":
                scores = torch.tanh(hist @ p["W_h"].T + p["W_s"] @ h_t) @ p["v"]
            else:
                scores = (hist @ p["W_K"].T) @ (p["W_Q"] @ h_t)
            alpha = torch.softmax(scores, dim=0)
            c_prev = alpha @ hist
            rows.append(torch.cat([alpha, torch.zeros(T - t - 1, dtype=torch.float64)]))
        hs.append(torch.stack(h_list))
        ws.append(torch.stack(rows))
    return {"h": torch.stack(hs), "weights": torch.stack(ws)}


def lstmn_ref(x, p):
    """x [B, T, in] float64 -> h, c [B, T, H], weights [B, T, T]."""
    B, T, _ = x.shape
    H = p["W_h"].shape[0]
    hs, cs, ws = [], [], []
    for bi in range(B):
        h_list, c_list, rows = [], [], []
        ht_prev = torch.zeros(H, dtype=torch.float64)       # h~_{t-1}
        for t in range(T):
            x_t = x[bi, t]
            if t == 0:                                       # empty tape
                ht = torch.zeros(H, dtype=torch.float64)
                ct = torch.zeros(H, dtype=torch.float64)
                rows.append(torch.zeros(T, dtype=torch.float64))
            else:
                hist_h, hist_c = torch.stack(h_list), torch.stack(c_list)   # [t, H]
                a = torch.tanh(hist_h @ p["W_h"].T + p["W_x"] @ x_t + p["W_ht"] @ ht_prev) @ p["v"]
                s = torch.softmax(a, dim=0)
                ht, ct = s @ hist_h, s @ hist_c
                rows.append(torch.cat([s, torch.zeros(T - t, dtype=torch.float64)]))
            gates = p["W"] @ torch.cat([ht, x_t]) + p["b"]
            i, f, g, o = gates.chunk(4)
            c_t = torch.sigmoid(f) * ct + torch.sigmoid(i) * torch.tanh(g)
            h_t = torch.sigmoid(o) * torch.tanh(c_t)
            h_list.append(h_t)
            c_list.append(c_t)
            ht_prev = ht
        hs.append(torch.stack(h_list))
        cs.append(torch.stack(c_list))
        ws.append(torch.stack(rows))
    return {"h": torch.stack(hs), "c": torch.stack(cs), "weights": torch.stack(ws)}


def _run(fixture_name, case, inputs, forward):
    """Forward in float64, random upstream on every output, autograd; tensors of one case."""
    r = case_rng(fixture_name, case["name"] + "/upstream")
    leaves = {k: _t(v) for k, v in inputs.items()}
    batched = case["B"] > 1
    x = leaves["x"] if batched else leaves["x"].unsqueeze(0)
    outs = forward(x, leaves)
    loss = 0
    tensors = {}
    for name, out in outs.items():
        out = out if batched else out.squeeze(0)
        up = _u(r, tuple(out.shape), 1.0)
        tensors[f"{name}"] = f32(out)
        tensors[f"up_{name}"] = up
        loss = loss + (out * torch.tensor(up, dtype=torch.float64)).sum()
    loss.backward()
    for k, v in leaves.items():
        tensors[k] = inputs[k]
        # a parameter the graph never reached (the tape at T = 1) has gradient 0, not None
        tensors[f"grad_{k}"] = f32(v.grad if v.grad is not None else torch.zeros_like(v))
    name = case["name"]
    return {f"{name}.{k}": v for k, v in tensors.items()}


@fixture("self_attention_rnn")
def self_attention_rnn():
    cases, tensors = [], {}
    for align in ("additive", "dot"):
        for label, B, T in (("T1", 1, 1), ("T5", 1, 5), ("batch", 2, 5)):
            case = {"name": f"{align}_{label}", "align": align, "B": B, "T": T,
                    "in": 3, "H": 5, "da": 4}
            r = case_rng("self_attention_rnn", case["name"])
            IN, H, DA = case["in"], case["H"], case["da"]
            rs = 0.5 / math.sqrt(H)
            x_shape = (B, T, IN) if B > 1 else (T, IN)
            inputs = {"x": _u(r, x_shape, 1.0), "A": _u(r, (H, IN + H), 2 * rs),
                      "b": _u(r, (H,), 0.2)}
            if align == "additive":
                inputs.update(W_h=_u(r, (DA, H), 1.5), W_s=_u(r, (DA, H), 1.5),
                              v=_u(r, (DA,), 2.0))
            else:
                inputs.update(W_K=_u(r, (DA, H), 1.5), W_Q=_u(r, (DA, H), 1.5))
            tensors.update(_run("self_attention_rnn", case, inputs,
                                lambda x, p, a=align: self_attention_rnn_ref(x, p, a)))
            cases.append(case)
    return tensors, {"cases": dump_cases(cases)}


@fixture("lstmn")
def lstmn():
    cases, tensors = [], {}
    for label, B, T in (("T1", 1, 1), ("T5", 1, 5), ("batch", 2, 5)):
        case = {"name": label, "B": B, "T": T, "in": 3, "H": 5}
        r = case_rng("lstmn", case["name"])
        IN, H = case["in"], case["H"]
        rs = 0.5 / math.sqrt(H)
        x_shape = (B, T, IN) if B > 1 else (T, IN)
        inputs = {"x": _u(r, x_shape, 1.0), "W_h": _u(r, (H, H), 1.5),
                  "W_x": _u(r, (H, IN), 1.0), "W_ht": _u(r, (H, H), rs),
                  "v": _u(r, (H,), 2.0), "W": _u(r, (4 * H, H + IN), 2 * rs),
                  "b": _u(r, (4 * H,), 0.3)}
        tensors.update(_run("lstmn", case, inputs, lstmn_ref))
        cases.append(case)
    return tensors, {"cases": dump_cases(cases)}
