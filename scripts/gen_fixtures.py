#!/usr/bin/env python3
"""Generate attnlab's PyTorch reference fixtures in tests/fixtures/*.safetensors.

Regenerate by hand (from any directory; paths are relative to this file), with Debian's
python3-torch 1.13:

    /usr/bin/python3 scripts/gen_fixtures.py          # every fixture file
    /usr/bin/python3 scripts/gen_fixtures.py sdpa     # just tests/fixtures/sdpa.safetensors
    /usr/bin/python3 scripts/gen_fixtures.py --list   # the registered fixture files

then commit the .safetensors files. CI never runs this script and never needs Python or
PyTorch: the tests (tests/js/fixtures.js and friends) only read the committed files. Output is
byte-for-byte deterministic, so regenerating without changing this script leaves `git status`
clean; a diff in a fixture means the generator changed. Each run prints size and sha256.

Holds: a registry of fixture files (one function per file, registered with @fixture(name));
the float64 reference for scaled dot-product attention and its cross-check against
torch.nn.functional.softmax; the `roundtrip` file that tests the safetensors reader itself.

Adding a mechanism, e.g. additive attention: in a module scripts/fixture_modules/<group>.py
(imported automatically), write `@fixture("additive") def additive():` (decorator and helpers
from fixtures_lib) that
returns (tensors, metadata) with metadata["cases"] a JSON list of {"name": ..., ...} and every
tensor named "<case>.<tensor>"; run `scripts/gen_fixtures.py additive`; read it in a node test
with `loadFixture('additive')` from tests/js/fixtures.js.

Does not: run kernels, compare attnlab against anything (the node tests do that), or use
torch.nn.functional.scaled_dot_product_attention (torch 1.13 has none). The SDPA reference is
computed here in float64 from the float32 inputs, then stored as float32.

SDPA follows Vaswani et al. 2017, "Attention Is All You Need", eq. (1):
    Attention(Q, K, V) = softmax(Q Kᵀ · scale) V,   scale = 1/sqrt(D) unless given,
with PyTorch's conventions for masks (torch.nn.MultiheadAttention key_padding_mask: true/1 =
ignore that key; is_causal: query i sees key j only when j <= i, i.e. tril(ones(L, S)), top-left
aligned even when L != S). A row whose keys are all masked has weights 0 and output 0 (torch
would give NaN). Shapes: query [..., L, D], key [..., S, D], value [..., S, Dv] where ... is
nothing, [H] or [B, H]; key_padding_mask U8 [S] (no batch) or [B, S] (broadcast over heads);
output [..., L, Dv]; weights [..., L, S].
"""

import hashlib
import json
import math
import os
import sys
import zlib

import numpy as np
import torch
import torch.nn.functional as F

sys.dont_write_bytecode = True  # keep scripts/__pycache__ out of the working tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fixtures_lib import (FIXTURES, case_rng, dump_cases, f32, fixture,  # noqa: E402
                          read_safetensors, rng, write_safetensors)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "tests", "fixtures")

# ---------------------------------------------------------------------------------------------
# Scaled dot-product attention


def sdpa_masked(L, S, rank, causal, mask):
    """Boolean array broadcastable to scores [..., L, S]; True = the query may not see the key."""
    masked = np.zeros((L, S), dtype=bool)
    if causal:
        masked |= ~np.tril(np.ones((L, S), dtype=bool))  # j > i is hidden
    if mask is not None:
        m = np.asarray(mask).astype(bool)
        if m.ndim == 1:                  # [S]: same keys hidden for every row, head and batch
            masked = masked | m[None, :]
        elif m.ndim == 2 and rank == 4:  # [B, S] -> [B, 1, 1, S]: broadcast over heads and rows
            masked = masked | m[:, None, None, :]
        else:
            raise ValueError(f"key_padding_mask {m.shape} does not fit a rank-{rank} query")
    return masked


def sdpa_reference(q, k, v, *, causal=False, scale=None, mask=None):
    """float64 SDPA from float32 inputs -> (output, weights, scores), all float64.

    q [..., L, D], k [..., S, D], v [..., S, Dv]; mask U8 [S] or [B, S], 1 = ignore the key.
    Fully masked rows get weights 0 and output 0, replaced explicitly rather than via NaN."""
    q, k, v = (np.asarray(t, dtype=np.float64) for t in (q, k, v))
    L, D = q.shape[-2:]
    S = k.shape[-2]
    assert k.shape[:-2] == q.shape[:-2] == v.shape[:-2] and k.shape[-1] == D and v.shape[-2] == S
    if scale is None:
        scale = 1.0 / math.sqrt(D)
    scores = np.matmul(q, np.swapaxes(k, -1, -2)) * scale          # [..., L, S]
    masked = np.broadcast_to(sdpa_masked(L, S, q.ndim, causal, mask), scores.shape)
    scores = np.where(masked, -np.inf, scores)
    row_max = scores.max(axis=-1, keepdims=True)                   # -inf on fully masked rows
    dead = np.isneginf(row_max)
    e = np.exp(scores - np.where(dead, 0.0, row_max))              # exp(-inf) = 0 where masked
    total = e.sum(axis=-1, keepdims=True)
    weights = np.where(dead, 0.0, e / np.where(dead, 1.0, total))
    output = np.matmul(weights, v)                                 # [..., L, Dv]; 0 on dead rows
    return output, weights, scores


def sdpa_torch_check(name, q, k, v, *, causal, scale, mask, output, weights):
    """Recompute in float32 with torch.nn.functional.softmax and assert it agrees with the
    float64 reference on every row that is not fully masked (torch gives NaN on those)."""
    tq, tk, tv = (torch.from_numpy(f32(t)) for t in (q, k, v))
    D = tq.shape[-1]
    s = torch.matmul(tq, tk.transpose(-2, -1)) * (scale if scale is not None else D ** -0.5)
    # The mask is rebuilt here the torch way (not with sdpa_masked) so the two paths are
    # independent: torch.tril for causal, view() broadcasting for key_padding_mask.
    masked = torch.zeros(s.shape, dtype=torch.bool)
    if causal:
        masked |= torch.ones(s.shape[-2:]).tril() == 0
    if mask is not None:
        tm = torch.from_numpy(np.array(mask)).bool()
        masked |= tm if tm.dim() == 1 else tm.view(tm.shape[0], 1, 1, tm.shape[1])
    w = F.softmax(s.masked_fill(masked, float("-inf")), dim=-1)
    live = ~masked.all(dim=-1)                                     # [..., L]
    assert torch.isnan(w[~live]).all(), f"{name}: torch should give NaN on fully masked rows"
    w = torch.where(live[..., None], w, torch.zeros_like(w))
    out = torch.matmul(w, tv)
    # float32 scores near 100 carry ~1e-5 absolute rounding, hence the whole-model tolerances.
    torch.testing.assert_close(w, torch.from_numpy(f32(weights)), atol=1e-5, rtol=1e-4,
                               msg=lambda m: f"{name}: weights vs torch: {m}")
    torch.testing.assert_close(out, torch.from_numpy(f32(output)), atol=1e-5, rtol=1e-4,
                               msg=lambda m: f"{name}: output vs torch: {m}")


class SdpaCases:
    """Collects SDPA cases: inputs stored as float32, expected values from sdpa_reference."""

    def __init__(self, fixture_name):
        self.fixture_name = fixture_name
        self.tensors = {}
        self.cases = []
        self.results = {}

    def rng(self, name):
        return case_rng(self.fixture_name, name)

    def add(self, name, q, k, v, *, causal=False, scale=None, mask=None):
        assert "." not in name and name not in self.results, name
        q, k, v = f32(q), f32(k), f32(v)
        if mask is not None:
            mask = np.ascontiguousarray(mask, dtype=np.uint8)
            assert set(np.unique(mask)) <= {0, 1}, f"{name}: mask must be 0/1"
        output, weights, scores = sdpa_reference(q, k, v, causal=causal, scale=scale, mask=mask)
        sdpa_torch_check(name, q, k, v, causal=causal, scale=scale, mask=mask,
                         output=output, weights=weights)
        self.tensors.update({f"{name}.query": q, f"{name}.key": k, f"{name}.value": v,
                             f"{name}.output": f32(output), f"{name}.weights": f32(weights)})
        if mask is not None:
            self.tensors[f"{name}.key_padding_mask"] = mask
        self.cases.append({"name": name, "causal": causal, "scale": scale,
                           "mask": mask is not None})
        self.results[name] = (output, weights, scores)
        return output, weights, scores


@fixture("sdpa")
def sdpa():
    c = SdpaCases("sdpa")

    def randn(r, *shape, std=1.0):
        return r.standard_normal(shape) * std

    # Length 1: softmax of one score is 1, so output = value.
    r = c.rng("l1_s1")
    c.add("l1_s1", randn(r, 1, 4), randn(r, 1, 4), randn(r, 1, 4))

    # Key length != query length.
    r = c.rng("l3_s7")
    c.add("l3_s7", randn(r, 3, 8), randn(r, 7, 8), randn(r, 7, 8))

    # Head dims that are not a multiple of the 4-lane SIMD width, and Dv != D.
    r = c.rng("d5")
    c.add("d5", randn(r, 4, 5), randn(r, 6, 5), randn(r, 6, 5))
    r = c.rng("d7_dv3")
    c.add("d7_dv3", randn(r, 5, 7), randn(r, 4, 7), randn(r, 4, 3))

    # Leading [H].
    r = c.rng("heads3")
    c.add("heads3", randn(r, 3, 4, 6), randn(r, 3, 5, 6), randn(r, 3, 5, 6))

    # Leading [B, H] with a [B, S] key-padding mask: batch 0 hides keys 1 and 4, batch 1 hides
    # every key, so all of its rows are fully masked (weights 0, output 0).
    r = c.rng("batch_heads_mask")
    mask = np.array([[0, 1, 0, 0, 1, 0], [1, 1, 1, 1, 1, 1]])
    _, w, _ = c.add("batch_heads_mask", randn(r, 2, 2, 3, 4), randn(r, 2, 2, 6, 4),
                    randn(r, 2, 2, 6, 5), mask=mask)
    assert (w[1] == 0).all() and np.allclose(w[0].sum(-1), 1) and (w[0][..., [1, 4]] == 0).all()

    # Causal, top-left aligned, with L < S (keys past L are never seen) and L > S.
    r = c.rng("causal_l3_s6")
    c.add("causal_l3_s6", randn(r, 3, 4), randn(r, 6, 4), randn(r, 6, 4), causal=True)
    r = c.rng("causal_l6_s3")
    c.add("causal_l6_s3", randn(r, 6, 4), randn(r, 3, 4), randn(r, 3, 4), causal=True)

    # Causal + mask: key 0 hidden, so query 0 (which sees only key 0) is fully masked.
    r = c.rng("causal_mask")
    _, w, _ = c.add("causal_mask", randn(r, 2, 5, 4), randn(r, 2, 5, 4), randn(r, 2, 5, 4),
                    causal=True, mask=np.array([1, 0, 0, 1, 0]))
    assert (w[:, 0] == 0).all() and np.allclose(w[:, 1:].sum(-1), 1)
    # ... and with [B, H], [B, S] and L != S: batch 1 hides keys 0-1, so its queries 0-1 are dead.
    r = c.rng("causal_mask_bh")
    _, w, _ = c.add("causal_mask_bh", randn(r, 2, 2, 4, 4), randn(r, 2, 2, 6, 4),
                    randn(r, 2, 2, 6, 3), causal=True,
                    mask=np.array([[0, 0, 1, 0, 0, 1], [1, 1, 0, 0, 0, 0]]))
    assert (w[1, :, :2] == 0).all() and np.allclose(w[1, :, 2:].sum(-1), 1)

    # A custom scale (exact in float32, so a float32 kernel and this reference agree on it).
    r = c.rng("scale_1_25")
    c.add("scale_1_25", randn(r, 4, 4), randn(r, 5, 4), randn(r, 5, 4), scale=1.25)

    # Scores in [90, 100]: exp(score) overflows float32 (max ~ e^88.7) unless the row max is
    # subtracted first. score = 0.5 * (2 * (95 + w_j) + u·v) = 95 + w_j + u·v / 2, with
    # |w_j| <= 3 so the weights are far from uniform.
    r = c.rng("scores_90_100")
    H, L, S = 2, 4, 8
    q = np.concatenate([np.full((H, L, 1), 2.0), r.uniform(-1, 1, (H, L, 3))], axis=-1)
    k = np.concatenate([95 + r.uniform(-3, 3, (H, S, 1)), r.uniform(-1, 1, (H, S, 3))], axis=-1)
    _, w, s = c.add("scores_90_100", q, k, randn(r, H, S, 4))
    assert 90 <= s.min() and s.max() <= 100, f"scores_90_100: {s.min()}..{s.max()}"
    assert s.min() > math.log(np.finfo(np.float32).max), "scores_90_100: naive exp must overflow"
    assert w.max(-1).min() > 0.2, "scores_90_100: weights should be far from uniform"

    # A few large outliers per row: background scores are small, and 1-2 keys per row get +4 or
    # so, so the top two weights carry most of the mass (near-uniform weights cannot pass).
    # Even rows favour keys 2 and 9 (via dimension 0), odd rows key 5 (via dimension 1).
    r = c.rng("outliers")
    L, S, D = 6, 16, 8
    q = randn(r, L, D, std=0.3)
    k = randn(r, S, D, std=0.3)
    q[0::2, 0] = r.uniform(3, 4, (L + 1) // 2)
    q[1::2, 1] = r.uniform(4, 5, L // 2)
    k[:, :2] = 0.0
    k[[2, 9], 0] = [4.0, 3.0]
    k[5, 1] = 4.0
    _, w, _ = c.add("outliers", q, k, randn(r, S, 5))
    top2 = np.sort(w, axis=-1)[:, -2:].sum(-1)
    assert top2.min() > 0.7 and (w.max(-1) > 10 / S).all(), f"outliers: top-2 mass {top2}"

    # Long rows: n = 300 with small D, and a short query over 300 keys with a padding mask.
    # std 1.5 spreads scores (std ~2.25) so the 300 weights per row are far from 1/300.
    r = c.rng("n300")
    c.add("n300", randn(r, 300, 5, std=1.5), randn(r, 300, 5, std=1.5), randn(r, 300, 5))
    r = c.rng("l20_s300_mask")
    mask = (r.uniform(size=300) < 0.3).astype(np.uint8)
    c.add("l20_s300_mask", randn(r, 20, 5, std=1.5), randn(r, 300, 5, std=1.5),
          randn(r, 300, 3), mask=mask)

    metadata = {
        "fixture": "sdpa",
        "generator": "scripts/gen_fixtures.py (float64 reference, cross-checked with torch)",
        "cases": dump_cases(c.cases),
    }
    return c.tensors, metadata


# ---------------------------------------------------------------------------------------------
# Reader self-test: every dtype, edge values, a scalar and an empty tensor. Values are spelled
# out again in tests/js/fixtures.test.js, so this file tests the JS reader, not the generator.


@fixture("roundtrip")
def roundtrip():
    f32max = float(np.finfo(np.float32).max)
    f32tiny = float(np.float32(2.0 ** -149))  # smallest float32 subnormal
    tensors = {
        "dtypes.f32": np.array([[0.0, -0.0, 1.5], [-2.25, f32max, f32tiny],
                                [np.inf, -np.inf, np.nan]], dtype=np.float32),
        "dtypes.f64": np.array([0.1, -1e308, 5e-324], dtype=np.float64),
        "dtypes.u8": np.array([[0, 1], [127, 255]], dtype=np.uint8),
        "dtypes.bool": np.array([True, False, False, True]),
        "dtypes.i32": np.array([-2 ** 31, 0, 2 ** 31 - 1], dtype=np.int32),
        "dtypes.i64": np.array([-(2 ** 53) - 1, 2 ** 63 - 1], dtype=np.int64),
        "dtypes.scalar": np.array(7.5, dtype=np.float32),
        "dtypes.empty": np.zeros((0, 3), dtype=np.float32),
        "shapes.x": torch.arange(24, dtype=torch.float32).reshape(2, 3, 4) * 0.5 - 3,
    }
    metadata = {
        "fixture": "roundtrip",
        "cases": dump_cases([{"name": "dtypes"}, {"name": "shapes", "note": "torch input"}]),
        "note": 'quote " backslash \\ and é',
    }
    return tensors, metadata


# ---------------------------------------------------------------------------------------------


def check_layout(name, tensors, metadata):
    """The contract tests/js/fixtures.js relies on: metadata "cases" is a JSON list of objects
    with unique "name"s, and every tensor is "<case>.<tensor>" for a listed case."""
    cases = json.loads(metadata["cases"])
    names = [case["name"] for case in cases]
    assert len(set(names)) == len(names), f"{name}: duplicate case names"
    for t in tensors:
        assert "." in t and t.split(".", 1)[0] in names, f"{name}: tensor {t!r} has no case"


def generate(name):
    tensors, metadata = FIXTURES[name]()
    check_layout(name, tensors, metadata)
    os.makedirs(OUT_DIR, exist_ok=True)
    path = os.path.join(OUT_DIR, f"{name}.safetensors")
    write_safetensors(path, tensors, metadata)

    back, back_meta = read_safetensors(path)  # prove the file reads back exactly
    assert back_meta == metadata and sorted(back) == sorted(tensors), f"{name}: header differs"
    for t, arr in tensors.items():
        arr = np.asarray(arr.numpy() if isinstance(arr, torch.Tensor) else arr)
        assert back[t].shape == arr.shape and back[t].tobytes() == arr.tobytes(), t

    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    n_cases = len(json.loads(metadata["cases"]))
    print(f"{os.path.relpath(path, ROOT)}: {os.path.getsize(path)} bytes, "
          f"{n_cases} cases, {len(tensors)} tensors, sha256 {digest}")


def load_modules():
    """Import scripts/fixture_modules/*.py: each registers its files with @fixture(name)."""
    import importlib
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixture_modules")
    for fn in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if fn.endswith(".py") and not fn.startswith("_"):
            importlib.import_module(f"fixture_modules.{fn[:-3]}")


def main(argv):
    load_modules()
    if argv in (["--list"], ["-l"]):
        print("\n".join(FIXTURES))
        return 0
    if any(a.startswith("-") for a in argv):
        usage = "\n\n".join(__doc__.split("\n\n")[:4])
        print(usage, file=sys.stderr)
        return 0 if argv in (["--help"], ["-h"]) else 2
    unknown = [a for a in argv if a not in FIXTURES]
    if unknown:
        print(f"unknown fixture(s) {', '.join(unknown)}; known: {', '.join(FIXTURES)}",
              file=sys.stderr)
        return 2
    for name in argv or list(FIXTURES):
        generate(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
