"""Cases nobody wrote by hand (issue 33: "checked again on cases you do not see"): every shipped
model file, mutated at random (seeded: the same cases every run) in its header and in its bytes:
bytes flipped, cut short, spliced, header numbers changed. `attnlab.load` either loads the file
(a mutation that left it valid) or raises `attnlab.LoadError`; never any other exception, and a
file it loads has finite weights. The hand-written kinds are in test_malformed.py."""

import os
import random
import re
import struct

import pytest
import torch

import attnlab
from attnlab import LoadError
from conftest import MODELS

NAMES = sorted(f for f in os.listdir(MODELS) if f.endswith(".safetensors"))


def mutations(data, rng, n):
    """n mutated copies of data: the header's numbers changed, bytes flipped, cut, spliced."""
    (hlen,) = struct.unpack("<Q", data[:8])
    header = data[8 : 8 + hlen].decode("utf-8")
    numbers = [m.span() for m in re.finditer(r"\d+", header)]
    for k in range(n):
        kind = k % 4
        if kind == 0 and numbers:  # a number of the header (an offset, a shape, a config size)
            a, b = numbers[rng.randrange(len(numbers))]
            new = rng.choice(["0", "1", "-1", "65536", "4294967296", "99999999999999999999", "1e9"])
            h = (header[:a] + new + header[b:]).encode("utf-8")
            yield struct.pack("<Q", len(h)) + h + data[8 + hlen :]
        elif kind == 1:  # bytes flipped anywhere
            out = bytearray(data)
            for _ in range(rng.randint(1, 8)):
                out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
            yield bytes(out)
        elif kind == 2:  # cut short
            yield data[: rng.randrange(len(data))]
        else:  # a slice of the file spliced in elsewhere
            a, b = sorted(rng.randrange(len(data)) for _ in range(2))
            at = rng.randrange(len(data))
            yield data[:at] + data[a:b] + data[at:]


@pytest.mark.parametrize("name", NAMES)
def test_mutated_model_is_loaded_or_a_load_error(name, tmp_path):
    data = open(os.path.join(MODELS, name), "rb").read()
    rng = random.Random(f"mutations:{name}")
    path = tmp_path / "m.safetensors"
    loaded = refused = 0
    for i, bad in enumerate(mutations(data, rng, 24)):
        path.write_bytes(bad)
        try:
            model = attnlab.load(str(path))
        except LoadError:
            refused += 1
            continue
        except Exception as e:  # noqa: BLE001: the point is that nothing else escapes
            pytest.fail(f"{name} mutation {i}: {type(e).__name__}: {e}")
        loaded += 1
        for p in model.parameters():
            assert torch.isfinite(p).all(), f"{name} mutation {i}: a non-finite weight loaded"
    assert refused > 0, f"{name}: no mutation was refused"
