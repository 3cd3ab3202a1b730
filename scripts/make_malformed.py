#!/usr/bin/python3
"""Write the safetensors loader's committed test inputs (run by hand, never in CI).

    /usr/bin/python3 scripts/make_malformed.py            # Debian's python3 has torch 1.13

Writes:
  tests/fixtures/torch-linear.safetensors  a PyTorch nn.Linear + LayerNorm state_dict (F32) with
                                           a JSON config in __metadata__, through
                                           fixtures_lib.write_safetensors
  tests/fixtures/torch-half.safetensors    the same weights as PyTorch F16 and BF16 next to
                                           PyTorch's own float32 conversion of them ("*.f32"), so
                                           the loader's conversion is checked against torch's
  tests/fuzz/corpus/safetensors/*          the fuzzer's seed corpus: tiny valid files of every
                                           accepted kind and a few malformed ones (a few KB)

    python3 scripts/make_malformed.py --i8-seeds          # only the I8 seeds: no torch needed

Deliberately does not write the malformed suite itself: tests/c/test_safetensors.c and
tests/js/safetensors.test.js build those bytes inline, beside the assertion they belong to.
Format: https://github.com/huggingface/safetensors ("Format").
"""

import json
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus", "safetensors")
if sys.argv[1:] != ["--i8-seeds"]:  # the I8 seeds need neither torch nor numpy
    import numpy as np  # noqa: F401
    import torch

    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from fixtures_lib import write_safetensors  # noqa: E402

SIZES = {"F32": 4, "F16": 2, "BF16": 2, "I64": 8, "U8": 1}


def raw_bytes(t):
    """torch tensor -> (dtype name, little-endian bytes), F16/BF16 included."""
    t = t.detach().contiguous()
    if t.dtype == torch.float32:
        return "F32", t.numpy().astype("<f4").tobytes()
    if t.dtype == torch.float16:
        return "F16", t.numpy().astype("<f2").tobytes()
    if t.dtype == torch.bfloat16:  # numpy has no bfloat16: take the bits
        return "BF16", t.view(torch.int16).numpy().astype("<i2").tobytes()
    raise ValueError(t.dtype)


def pack(tensors, metadata=None, pad_to=8, extra_pad=0):
    """Deterministic safetensors bytes from {name: torch tensor} (reference layout: widest
    dtype first, then by name; header space-padded so the data starts pad_to-aligned, plus
    extra_pad spaces to misalign it on purpose)."""
    entries = sorted(((n,) + raw_bytes(t) + (list(t.shape),) for n, t in tensors.items()),
                     key=lambda e: (-SIZES[e[1]], e[0]))
    header = {}
    if metadata is not None:
        header["__metadata__"] = metadata
    blobs, off = [], 0
    for name, dtype, data, shape in entries:
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [off, off + len(data)]}
        blobs.append(data)
        off += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((-(8 + len(text)) % pad_to) + extra_pad)
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def raw_file(header_text, data=b""):
    h = header_text.encode() if isinstance(header_text, str) else header_text
    return struct.pack("<Q", len(h)) + h + data


def i8_seeds():
    """I8 corpus seeds (docs/model-format.md "I8"): int8 [2, 3] with its F32 "W:scale" [2] beside
    an F16 bias, and the same with the scales missing, negative, or a -128 weight. No torch."""
    q = struct.pack("<6b", 127, -1, 0, 5, -127, 64)
    scales = struct.pack("<2f", 0.5, 0.1)
    bias = b"\x00\x3c\x00\xc0"  # F16 1, -2
    w = '"W":{"dtype":"I8","shape":[2,3],"data_offsets":[0,6]}'
    s = '"W:scale":{"dtype":"F32","shape":[2],"data_offsets":[6,14]}'
    b = '"b":{"dtype":"F16","shape":[2],"data_offsets":[14,18]}'
    return {
        "i8": raw_file("{" + ",".join([s, w, b]) + "}", q + scales + bias),
        "i8-no-scale": raw_file("{" + w + "}", q),
        "i8-negative-scale": raw_file("{" + w + "," + s + "}", q + struct.pack("<2f", 0.5, -0.1)),
        "i8-minus-128": raw_file("{" + w + "," + s + "}", q[:4] + b"\x80" + q[5:] + scales),
    }


def main():
    torch.manual_seed(20240607)
    fixtures = os.path.join(ROOT, "tests", "fixtures")
    lin = torch.nn.Linear(4, 3)
    norm = torch.nn.LayerNorm(3)
    with torch.no_grad():
        norm.weight.uniform_(0.5, 1.5)
        norm.bias.uniform_(-0.5, 0.5)
    state = {"linear." + k: v for k, v in lin.state_dict().items()}
    state.update({"norm." + k: v for k, v in norm.state_dict().items()})
    x = torch.randn(2, 4)
    state["example.input"] = x
    state["example.output"] = norm(lin(x)).detach()
    config = {"d_in": 4, "d_out": 3, "torch": torch.__version__}
    write_safetensors(os.path.join(fixtures, "torch-linear.safetensors"), state,
                      {"config": json.dumps(config, sort_keys=True), "format": "pt"})

    w = torch.randn(3, 5) * 4
    w[0, 0] = 1e-6  # an F16 subnormal
    w[1, 1] = 60000.0  # near the F16 maximum
    half = {"w.f16": w.half(), "w.bf16": w.bfloat16(),
            "w.f16.f32": w.half().float(), "w.bf16.f32": w.bfloat16().float()}
    with open(os.path.join(fixtures, "torch-half.safetensors"), "wb") as f:
        f.write(pack(half, {"note": "w.f16 and w.bf16 next to torch's own float32 conversion"}))

    corpus = CORPUS
    os.makedirs(corpus, exist_ok=True)
    small = torch.tensor([[1.0, -2.0, 0.5], [3.25, 0.0, -0.125]])
    seeds = {
        "empty-header": raw_file("{}"),
        "padded-empty": raw_file("{}      "),
        "metadata-only": raw_file(json.dumps({"__metadata__": {"config": "{\"d\": 2}", "k": ""}})),
        "f32": pack({"w": small}),
        "f16-bf16": pack({"h": small.half(), "b": small.bfloat16()}, {"format": "pt"}),
        "mixed": pack({"a": small, "h": small.half(), "b": small.bfloat16(),
                       "scalar": torch.tensor(2.5), "empty": torch.zeros(0, 3)},
                      {"config": json.dumps(config)}),
        "misaligned": pack({"w": small}, pad_to=1, extra_pad=3),
        "escapes": raw_file('{"\\u00e9\\ud83d\\ude00\\n":{"dtype":"F32","shape":[],"data_offsets":[0,4]},'
                            '"__metadata__":{"\\"k\\"":"v\\\\\\/"}}', struct.pack("<f", 1.0)),
        "rank8": raw_file('{"w":{"dtype":"BF16","shape":[1,1,1,1,1,1,1,2],"data_offsets":[0,4]}}',
                          b"\x80\x3f\x00\xc0"),
        "nan": raw_file('{"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}', b"\x00\x00\xc0\x7f"),
        "html": b"<!DOCTYPE html>\n<html><body>404</body></html>\n",
        "dup": raw_file('{"w":{"dtype":"F32","shape":[0],"data_offsets":[0,0]},'
                        '"w":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}}'),
        "i64": raw_file('{"ids":{"dtype":"I64","shape":[1],"data_offsets":[0,8]}}', bytes(8)),
        "deep": raw_file('{"a":' + "[" * 70 + "]" * 70 + "}"),
        "gap": raw_file('{"a":{"dtype":"F16","shape":[1],"data_offsets":[0,2]},'
                        '"b":{"dtype":"F16","shape":[1],"data_offsets":[4,6]}}', bytes(6)),
    }
    seeds.update(i8_seeds())
    for name, data in seeds.items():
        with open(os.path.join(corpus, name + ".safetensors"), "wb") as f:
            f.write(data)
    print(f"wrote 2 fixtures and {len(seeds)} corpus seeds")


if __name__ == "__main__":
    if sys.argv[1:] == ["--i8-seeds"]:
        for name, data in i8_seeds().items():
            with open(os.path.join(CORPUS, name + ".safetensors"), "wb") as f:
                f.write(data)
        print(f"wrote {len(i8_seeds())} I8 corpus seeds")
    else:
        main()
