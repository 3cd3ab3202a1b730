"""Small helpers for writing attnlab's PyTorch reference fixtures.

Holds: a byte-for-byte deterministic safetensors writer (`write_safetensors`), a strict reader
used only to check what the writer produced (`read_safetensors`), and two conveniences for
fixture functions (`rng`, `f32`).

Deliberately does not: depend on the `safetensors` pip package (numpy and torch only, so the
generator runs on Debian's python3-torch without a venv); support dtypes the fixtures do not
need (F16, BF16, I8, ...); memory-map files; or know anything about attention. Fixture
contents live in gen_fixtures.py.

Format followed: https://github.com/huggingface/safetensors ("Format" section). A file is
  8 bytes   N, the header length, unsigned 64-bit little-endian
  N bytes   a UTF-8 JSON object {name: {"dtype", "shape", "data_offsets": [begin, end]},
            "__metadata__": {str: str}}, padded with spaces (0x20) so 8 + N is a multiple of 8
  rest      the tensors' raw little-endian bytes; offsets are relative to the start of this
            buffer, and the tensors tile it exactly (no gaps, no overlaps).
Determinism: "__metadata__" first (its keys sorted), then the tensors ordered by element size,
widest first, then by name (as the reference Rust writer does, so every tensor is aligned to
its element size); header order and data order are the same. json separators (',', ':'),
ASCII-only JSON, and nothing time- or machine-dependent.
"""

import json
import os
import struct
import zlib

import numpy as np

try:  # torch is optional here: the writer also takes plain numpy arrays.
    import torch
except ImportError:  # pragma: no cover - Debian's python3-torch is the supported setup
    torch = None

# safetensors dtype name -> numpy dtype with an explicit little-endian byte order.
DTYPES = {
    "F32": np.dtype("<f4"),
    "F64": np.dtype("<f8"),
    "U8": np.dtype("u1"),
    "BOOL": np.dtype("?"),
    "I32": np.dtype("<i4"),
    "I64": np.dtype("<i8"),
}

MAX_HEADER = 100 << 20  # same cap as the reference implementation


def rng(seed):
    """A numpy Generator (PCG64) for fixture inputs; one seed per fixture case keeps cases
    independent, so adding a case never changes the bytes of the others."""
    return np.random.default_rng(seed)


def f32(x):
    """x (numpy array, torch tensor, list or scalar) as a C-contiguous float32 numpy array."""
    return np.ascontiguousarray(_to_numpy(x), dtype=np.float32)


def _to_numpy(x):
    if torch is not None and isinstance(x, torch.Tensor):
        return x.detach().cpu().contiguous().numpy()
    return np.asarray(x)


def _dtype_name(arr, name):
    """safetensors dtype name for a numpy array (either byte order; the writer swaps)."""
    for dtype, dt in DTYPES.items():
        if arr.dtype.kind == dt.kind and arr.dtype.itemsize == dt.itemsize:
            return dtype
    raise ValueError(
        f"tensor {name!r}: dtype {arr.dtype} is not one of "
        f"{', '.join(DTYPES)} (cast it first, e.g. with f32())")


def write_safetensors(path, tensors, metadata):
    """Write `tensors` ({name: numpy array or torch tensor}) and `metadata` ({str: str}) to
    `path` as safetensors. Same inputs give the same bytes on every run and machine."""
    if not isinstance(metadata, dict):
        raise TypeError("metadata must be a dict of str -> str")
    for k, v in metadata.items():
        if not isinstance(k, str) or not isinstance(v, str):
            raise TypeError(f"metadata {k!r}: keys and values must both be str "
                            "(json.dumps anything structured)")

    entries = []
    for name, value in tensors.items():
        if not isinstance(name, str) or not name or name == "__metadata__":
            raise ValueError(f"bad tensor name {name!r}")
        arr = _to_numpy(value)
        entries.append((name, arr, _dtype_name(arr, name)))
    # Widest element first, then by name (the reference writer's order): every tensor then
    # starts at a multiple of its own element size, so a C reader may use it in place.
    entries.sort(key=lambda e: (-DTYPES[e[2]].itemsize, e[0]))

    header = {"__metadata__": dict(sorted(metadata.items()))}
    blobs = []
    offset = 0
    for name, arr, dtype in entries:
        data = np.ascontiguousarray(arr, dtype=DTYPES[dtype]).tobytes()
        header[name] = {
            "dtype": dtype,
            "shape": [int(n) for n in arr.shape],
            "data_offsets": [offset, offset + len(data)],
        }
        blobs.append(data)
        offset += len(data)

    text = json.dumps(header, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False).encode("ascii")
    text += b" " * (-(8 + len(text)) % 8)  # tensor data starts 8-byte aligned
    tmp = f"{path}.tmp"  # write beside, then rename: a failed run never leaves half a file
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for data in blobs:
            f.write(data)
    os.replace(tmp, path)


def read_safetensors(path):
    """Read a safetensors file -> (tensors {name: numpy array}, metadata {str: str}).

    Strict: rejects a header that overruns the file, unknown dtypes, sizes that disagree with
    shapes, and data ranges that do not tile the buffer. Meant for checking what
    write_safetensors produced; tests/js/fixtures.js applies the same rules in JS."""
    with open(path, "rb") as f:
        raw = f.read()
    if len(raw) < 8:
        raise ValueError(f"{path}: {len(raw)} bytes, shorter than the 8-byte header length")
    (n,) = struct.unpack("<Q", raw[:8])
    if n > MAX_HEADER or 8 + n > len(raw):
        raise ValueError(f"{path}: header length {n} does not fit in {len(raw)} bytes")
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    if not isinstance(header, dict):
        raise ValueError(f"{path}: header is not a JSON object")
    metadata = header.pop("__metadata__", {})
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
        raise ValueError(f"{path}: __metadata__ must map str -> str")
    buf = raw[8 + n:]
    tensors = {}
    ranges = []
    for name, info in header.items():
        if set(info) != {"dtype", "shape", "data_offsets"} or info["dtype"] not in DTYPES:
            raise ValueError(f"{path}: tensor {name!r}: bad entry {info!r}")
        dt = DTYPES[info["dtype"]]
        shape = tuple(info["shape"])
        begin, end = info["data_offsets"]
        if not 0 <= begin <= end <= len(buf) or end - begin != int(np.prod(shape)) * dt.itemsize:
            raise ValueError(f"{path}: tensor {name!r}: offsets {begin}..{end} do not fit "
                             f"shape {list(shape)} {info['dtype']} in {len(buf)} data bytes")
        tensors[name] = np.frombuffer(buf[begin:end], dtype=dt).reshape(shape)
        ranges.append((begin, end, name))
    pos = 0
    for begin, end, name in sorted(ranges):
        if begin != pos:
            raise ValueError(f"{path}: tensor {name!r} starts at {begin}, expected {pos}")
        pos = end
    if pos != len(buf):
        raise ValueError(f"{path}: {len(buf) - pos} data bytes not covered by any tensor")
    return tensors, metadata


# ---------------------------------------------------------------------------------------------
# The fixture registry, shared by gen_fixtures.py and scripts/fixture_modules/*.py

# name -> function returning (tensors {name: array}, metadata {str: str}); file = <name>.safetensors
FIXTURES = {}


def fixture(name):
    """Register a function as the generator of tests/fixtures/<name>.safetensors."""
    def register(fn):
        if name in FIXTURES:
            raise ValueError(f"fixture {name!r} registered twice")
        FIXTURES[name] = fn
        return fn
    return register


def case_rng(fixture_name, case_name):
    """A Generator seeded from the case's own name, so cases are independent of each other and
    of their order: adding or reordering cases never changes an existing case's numbers."""
    return rng(zlib.crc32(f"{fixture_name}/{case_name}".encode()))


def dump_cases(cases):
    return json.dumps(cases, separators=(",", ":"), allow_nan=False)
