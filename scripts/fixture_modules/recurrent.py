"""PyTorch fixtures of the recurrent family: tests/fixtures/{rnn,lstm,gru}.safetensors.

Each case runs torch.nn.RNN / nn.LSTM / nn.GRU itself (batch_first=True) in float64 on inputs
and weights that are float32 numbers, then backpropagates a random upstream gradient on
output, h_n (and c_n) with autograd. Everything is stored as float32 (F32).

Tensors of case <c> (names as the JS API uses them):
  <c>.x                      [T, I] (unbatched) or [B, T, I]
  <c>.weight_ih_l0, ...      the module's state_dict, keys unchanged (_reverse for direction 2)
  <c>.h0, <c>.c0             [L·D, H] or [L·D, B, H], only when the case passes them
  <c>.output, <c>.hN, <c>.cN the forward results (cN: LSTM only)
  <c>.d_output, <c>.d_hN, <c>.d_cN   the upstream gradient
  <c>.grad_x, <c>.grad_h0, <c>.grad_c0, <c>.grad_<param>   autograd's gradients; grad_h0 and
                             grad_c0 are stored also when h0/c0 were not passed (the gradient
                             with respect to the zero initial state)
Case settings (metadata "cases"): name, numLayers, bidirectional, batched, bias, h0, c0,
nonlinearity (RNN only).

Weights are uniform in ±1/√H (PyTorch's own init range), inputs standard normal; sequences are
short enough (T <= 20) that the recurrences are far from chaotic, so float32 kernels can match to
the whole-model tolerances (atol 1e-5, rtol 1e-4).
"""

import numpy as np
import torch

from fixtures_lib import case_rng, dump_cases, f32, fixture

# (name, settings): I input size, H hidden, T steps, B batch (None: unbatched x [T, I]),
# L layers, bidir, h0 (and c0) given, bias.
BASE = dict(I=3, H=4, T=4, B=2, L=1, bidir=False, h0=True, c0=True, bias=True)
CASES = [
    ("basic", {}),
    ("no_h0", dict(h0=False, c0=False)),
    ("unbatched", dict(B=None, T=5)),
    ("unbatched_no_h0", dict(B=None, T=5, h0=False, c0=False)),
    ("bidirectional", dict(bidir=True)),
    ("two_layers", dict(L=2)),
    ("bidir_two_layers", dict(L=2, bidir=True)),
    ("bidir_two_layers_unbatched_no_h0", dict(L=2, bidir=True, B=None, h0=False, c0=False)),
    ("t1", dict(T=1, bidir=True)),
    ("t1_unbatched", dict(T=1, B=None)),
    ("odd_sizes", dict(I=5, H=7, T=6, B=3, bidir=True)),
    ("no_bias", dict(bias=False, L=2, bidir=True)),
    ("no_bias_unbatched", dict(bias=False, B=None, h0=False, c0=False)),
    ("batch1", dict(B=1, I=2, H=5, T=7)),
    ("long", dict(B=1, I=4, H=16, T=20, h0=False, c0=False)),
]
LSTM_EXTRA = [("h0_only", dict(c0=False)), ("c0_only", dict(h0=False))]
RNN_EXTRA = [
    ("relu", dict(nonlinearity="relu")),
    ("relu_no_h0", dict(nonlinearity="relu", h0=False)),
    ("relu_bidir_two_layers", dict(nonlinearity="relu", L=2, bidir=True)),
    ("relu_odd_unbatched", dict(nonlinearity="relu", I=5, H=7, T=6, B=None)),
]


def run_case(kind, fixture_name, name, settings):
    s = dict(BASE, **settings)
    nonlin = s.get("nonlinearity", "tanh")
    r = case_rng(fixture_name, name)
    I, H, T, B, L = s["I"], s["H"], s["T"], s["B"], s["L"]
    D = 2 if s["bidir"] else 1
    if kind == "rnn":
        mod = torch.nn.RNN(I, H, num_layers=L, nonlinearity=nonlin, bias=s["bias"],
                           batch_first=True, bidirectional=s["bidir"])
    else:
        cls = torch.nn.LSTM if kind == "lstm" else torch.nn.GRU
        mod = cls(I, H, num_layers=L, bias=s["bias"], batch_first=True,
                  bidirectional=s["bidir"])
    mod = mod.double()
    k = 1.0 / np.sqrt(H)
    params = {}
    for pname, p in mod.named_parameters():
        w = f32(r.uniform(-k, k, tuple(p.shape)))
        params[pname] = w
        with torch.no_grad():
            p.copy_(torch.from_numpy(w.astype(np.float64)))

    xshape = (T, I) if B is None else (B, T, I)
    hshape = (L * D, H) if B is None else (L * D, B, H)
    x = f32(r.standard_normal(xshape))
    h0 = f32(r.standard_normal(hshape) * 0.5)
    c0 = f32(r.standard_normal(hshape) * 0.5)
    lstm = kind == "lstm"
    give_h0 = s["h0"]
    give_c0 = lstm and s["c0"]

    tx = torch.from_numpy(x.astype(np.float64)).requires_grad_(True)
    th0 = torch.from_numpy((h0 if give_h0 else np.zeros(hshape, np.float32)).astype(np.float64))
    th0.requires_grad_(True)
    tc0 = torch.from_numpy((c0 if give_c0 else np.zeros(hshape, np.float32)).astype(np.float64))
    tc0.requires_grad_(True)
    if lstm:
        out, (hn, cn) = mod(tx, (th0, tc0))
    else:
        out, hn = mod(tx, th0)
        cn = None
    d_out = f32(r.standard_normal(tuple(out.shape)))
    d_hn = f32(r.standard_normal(tuple(hn.shape)))
    loss = (out * torch.from_numpy(d_out.astype(np.float64))).sum()
    loss = loss + (hn * torch.from_numpy(d_hn.astype(np.float64))).sum()
    if lstm:
        d_cn = f32(r.standard_normal(tuple(cn.shape)))
        loss = loss + (cn * torch.from_numpy(d_cn.astype(np.float64))).sum()
    loss.backward()

    t = {"x": x, "output": f32(out), "hN": f32(hn), "d_output": d_out, "d_hN": d_hn,
         "grad_x": f32(tx.grad), "grad_h0": f32(th0.grad)}
    t.update(params)
    for pname, p in mod.named_parameters():
        t["grad_" + pname] = f32(p.grad)
    if give_h0:
        t["h0"] = h0
    if lstm:
        t.update({"cN": f32(cn), "d_cN": d_cn, "grad_c0": f32(tc0.grad)})
        if give_c0:
            t["c0"] = c0
    meta = {"name": name, "numLayers": L, "bidirectional": s["bidir"], "batched": B is not None,
            "bias": s["bias"], "h0": give_h0}
    if lstm:
        meta["c0"] = give_c0
    if kind == "rnn":
        meta["nonlinearity"] = nonlin
    return meta, t


def build(kind, extra):
    torch.manual_seed(0)  # module construction draws from torch's RNG; weights are overwritten
    cases, tensors = [], {}
    for name, settings in CASES + extra:
        meta, t = run_case(kind, kind, name, settings)
        cases.append(meta)
        for key, value in t.items():
            tensors[f"{name}.{key}"] = value
    metadata = {
        "fixture": kind,
        "generator": f"scripts/fixture_modules/recurrent.py (torch.nn.{kind.upper()} float64, "
                     "autograd gradients)",
        "cases": dump_cases(cases),
    }
    return tensors, metadata


@fixture("rnn")
def rnn_fixture():
    return build("rnn", RNN_EXTRA)


@fixture("lstm")
def lstm_fixture():
    return build("lstm", LSTM_EXTRA)


@fixture("gru")
def gru_fixture():
    return build("gru", [])
