"""attnlab's safetensors files in Python: a byte-for-byte deterministic writer and a strict reader.

Holds: `write_safetensors(path, tensors, metadata)` (what `attnlab.export` and
scripts/gen_fixtures.py write), `read_safetensors(path)` (the raw stored arrays), `dequantize`
(an attnlab model file's tensors as float32, exactly as the C loader widens them:
src/io/safetensors.c, docs/model-format.md "dtypes"), and two conveniences for fixture functions
(`rng`, `f32`).

Deliberately does not: depend on the `safetensors` pip package (numpy only, torch optional, so it
runs on Debian's python3-torch without PyPI); write F16 or I8 itself (the JS library's
saveModel / scripts/quantize.mjs do: one quantiser); memory-map files; know any architecture.

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
Widening (dequantize): F16 and BF16 exactly to float32; I8 (a 2-D weight W with float32 scales
"W:scale" [rows]) as float32(q) * scale[row], one float32 product per weight, as C does.
"""

import json
import os
import struct

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
    "F16": np.dtype("<f2"),
    "BF16": np.dtype("<u2"),   # raw bits: numpy has no bfloat16 (dequantize widens it)
    "I8": np.dtype("i1"),
}
SCALE_SUFFIX = ":scale"   # an I8 tensor W's per-row scales are the F32 tensor "W:scale" [rows]

MAX_HEADER = 16 << 20  # the C loader's cap (src/io/safetensors.c; 16 MiB)
MAX_NAME = 1024        # a tensor name's length, as C
MAX_RANK = 8           # dimensions of one tensor
MAX_DEPTH = 64         # JSON nesting
MAX_NUMEL = 2 ** 31 - 1  # elements of one tensor


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
        if dtype != "BF16" and arr.dtype.kind == dt.kind and arr.dtype.itemsize == dt.itemsize:
            return dtype
    raise ValueError(
        f"tensor {name!r}: dtype {arr.dtype} is not one of "
        f"{', '.join(d for d in DTYPES if d != 'BF16')} (cast it first, e.g. with f32())")


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


def _int(v):
    """v is a JSON integer (not a bool, a float or a string)."""
    return isinstance(v, int) and not isinstance(v, bool)


def _no_duplicates(what):
    def hook(pairs):
        seen = {}
        for k, v in pairs:
            if k in seen:
                raise ValueError(f"duplicate {what} {k!r}")
            seen[k] = v
        return seen
    return hook


def _depth(value):
    """How deeply value nests (a scalar 0, [] 1), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (list, dict)):
            deepest = max(deepest, d)
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return deepest


def parse_json(text, what):
    """JSON text -> value; duplicate keys, nesting deeper than the C loader's 64 levels,
    NaN / Infinity and invalid JSON refused as ValueError naming `what`."""
    def constant(c):
        raise ValueError(f"{what}: {c} is not JSON")
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates("key"),
                           parse_constant=constant)
        if _depth(value) > MAX_DEPTH:
            raise ValueError(f"nesting deeper than {MAX_DEPTH} levels")
        return value
    except RecursionError:
        raise ValueError(f"{what}: nesting deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{what} is not valid JSON: {e}") from None
    except ValueError as e:
        raise ValueError(f"{what}: {e}") from None


def read_safetensors(path):
    """Read a safetensors file -> (tensors {name: numpy array}, metadata {str: str}).

    Strict, every refusal a ValueError naming the problem: a header that overruns the file or
    the 16 MiB cap, a header that is not a JSON object, nesting too deep, duplicate names,
    unknown dtypes, shapes and offsets that are not lists of non-negative integers (strings,
    floats and booleans refused), sizes that disagree with shapes, and data ranges that do not
    tile the buffer (tests/js/fixtures.js applies the same rules in JS). `path` may also be the
    file's bytes. Nothing is allocated beyond the file's own bytes. BF16 tensors come back as
    their raw uint16 bits; `dequantize` widens everything to float32."""
    if isinstance(path, (bytes, bytearray, memoryview)):
        raw, path = bytes(path), "<bytes>"
    else:
        with open(path, "rb") as f:
            raw = f.read()
    if len(raw) < 8:
        raise ValueError(f"{path}: {len(raw)} bytes, shorter than the 8-byte header length")
    (n,) = struct.unpack("<Q", raw[:8])
    if n < 2:
        raise ValueError(f"{path}: header length {n} is too short")
    if n > MAX_HEADER:
        raise ValueError(f"{path}: header length {n} is over the header cap of {MAX_HEADER} "
                         "bytes (16 MiB)")
    if 8 + n > len(raw):
        raise ValueError(f"{path}: header length {n} is larger than the {len(raw) - 8} bytes "
                         "after it: truncated file?")
    try:
        text = raw[8:8 + n].decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: header is not valid UTF-8: byte 0x{raw[8 + e.start]:02x} at "
                         f"header offset {e.start}") from None
    header = parse_json(text, f"{path}: header")
    if not isinstance(header, dict):
        raise ValueError(f"{path}: header is {type(header).__name__}, not a JSON object")
    metadata = header.pop("__metadata__", {})
    if not isinstance(metadata, dict):
        raise ValueError(f"{path}: __metadata__ must be an object of str -> str")
    for k, v in metadata.items():
        if not isinstance(v, str):
            raise ValueError(f"{path}: __metadata__ {k!r} must be a string, found "
                             f"{type(v).__name__}")
    buf = raw[8 + n:]
    tensors = {}
    ranges = []
    for name, info in header.items():
        who = f"{path}: tensor {name[:64]!r}"
        if not name or "\0" in name or len(name) > MAX_NAME:
            raise ValueError(f"{who}: a name must be 1 to {MAX_NAME} characters, no NUL")
        if not isinstance(info, dict):
            raise ValueError(f"{who}: entry is {type(info).__name__}, not an object")
        for k in ("dtype", "shape", "data_offsets"):
            if k not in info:
                raise ValueError(f"{who}: missing {k!r}")
        if set(info) != {"dtype", "shape", "data_offsets"}:
            extra = sorted(set(info) - {"dtype", "shape", "data_offsets"})[0]
            raise ValueError(f"{who}: unknown field {extra!r}")
        dtype, shape, offsets = info["dtype"], info["shape"], info["data_offsets"]
        if not isinstance(dtype, str) or dtype not in DTYPES:
            raise ValueError(f"{who}: unknown dtype {dtype!r} (known: {', '.join(DTYPES)})")
        if not isinstance(shape, list) or len(shape) > MAX_RANK \
                or not all(_int(d) and d >= 0 for d in shape):
            raise ValueError(f"{who}: shape {shape!r} must be a list of at most {MAX_RANK} "
                             "non-negative integers")
        if not isinstance(offsets, list) or len(offsets) != 2 \
                or not all(_int(o) and o >= 0 for o in offsets):
            raise ValueError(f"{who}: data_offsets {offsets!r} must be two non-negative integers")
        dt = DTYPES[dtype]
        begin, end = offsets
        numel = 1
        for d in shape:   # Python integers: no overflow, whatever the shape claims
            numel *= d
        if numel > MAX_NUMEL:
            raise ValueError(f"{who}: shape {shape} holds {numel} elements, over the cap of "
                             f"{MAX_NUMEL}")
        size = numel * dt.itemsize
        if not begin <= end <= len(buf) or end - begin != size:
            raise ValueError(f"{who}: offsets {begin}..{end} do not fit shape {shape} {dtype} "
                             f"({size} bytes) in {len(buf)} data bytes")
        tensors[name] = np.frombuffer(buf, dtype=dt, count=size // dt.itemsize,
                                      offset=begin).reshape(shape)
        ranges.append((begin, end, name))
    pos = 0
    for begin, end, name in sorted(ranges):
        if begin != pos:
            raise ValueError(f"{path}: tensor {name!r} starts at {begin}, expected {pos} "
                             f"({'overlaps the one before' if begin < pos else 'a gap before it'})")
        pos = end
    if pos != len(buf):
        raise ValueError(f"{path}: {len(buf) - pos} data bytes not covered by any tensor")
    return tensors, metadata


def _f16_to_f32(bits):
    """binary16 -> float32, exact (numpy's half conversion is exact, subnormals included)."""
    return bits.astype(np.float32)


def dequantize(tensors, path="the file"):
    """A model file's stored tensors ({name: array} from read_safetensors) -> {name: float32
    array}, as the C loader reads them: F32 as is, F16 exactly, BF16 as the top half of a
    float32, I8 W [rows, cols] as float32(q) * float32(W:scale[row]); the ":scale" tensors
    leave the table. An I8 tensor without its scales, scales without their I8 tensor, a non-2-D
    I8 tensor, -128, a negative or non-finite scale are refused by name."""
    out = {}
    scales = {k for k in tensors if k.endswith(SCALE_SUFFIX)}
    for name, arr in tensors.items():
        if name in scales:
            base = name[:-len(SCALE_SUFFIX)]
            if base not in tensors or tensors[base].dtype != DTYPES["I8"]:
                raise ValueError(f"{path}: tensor {name!r} holds scales but {base!r} is not an I8 "
                                 "tensor")
            continue
        if arr.dtype == DTYPES["F32"]:
            out[name] = np.array(arr, dtype=np.float32)
        elif arr.dtype == DTYPES["F16"]:
            out[name] = _f16_to_f32(arr)
        elif arr.dtype == DTYPES["BF16"]:
            out[name] = (arr.astype(np.uint32) << 16).view(np.float32)
        elif arr.dtype == DTYPES["I8"]:
            sc = tensors.get(name + SCALE_SUFFIX)
            if arr.ndim != 2:
                raise ValueError(f"{path}: I8 tensor {name!r} has shape {list(arr.shape)}; "
                                 "attnlab reads I8 only as 2-D weights [rows, cols]")
            if sc is None or sc.dtype != DTYPES["F32"] or sc.shape != (arr.shape[0],):
                raise ValueError(f"{path}: I8 tensor {name!r} needs its scales "
                                 f"{name + SCALE_SUFFIX!r}, F32 [{arr.shape[0]}]")
            if (arr == -128).any():
                raise ValueError(f"{path}: I8 tensor {name!r} holds -128; I8 weights are "
                                 "symmetric, in [-127, 127]")
            if not np.isfinite(sc).all() or np.signbit(sc).any():
                raise ValueError(f"{path}: the scales of {name!r} must be finite and >= 0")
            out[name] = arr.astype(np.float32) * sc.astype(np.float32)[:, None]
        else:
            raise ValueError(f"{path}: tensor {name!r} is {arr.dtype}; attnlab model files hold "
                             "F32, F16, BF16 or I8 weights")
    return out
