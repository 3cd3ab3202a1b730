"""python/tests/test_malformed.py: attnlab.load on hostile and broken files (issue 33, rows 1,
1b, 1c and 2). Every malformed file is refused with attnlab.LoadError whose message names the
problem (the kinds of tests/js/safetensors.test.js, plus deep nesting, strings and floats where
integers belong, configs at every cap with no tensors, huge vocabularies, op files past their
caps). The size cases run in a fresh Python each and assert its peak memory (ru_maxrss after
the load minus before it, < 200 MB) and, as a guard against a hang only, a generous time bound.
"""

import json
import os
import re
import struct
import subprocess
import sys

import numpy as np
import pytest

import attnlab
from attnlab import LoadError
from attnlab.limits import CONFIG_LIMITS, OP_LIMITS
from attnlab.safetensors import read_safetensors, write_safetensors

from conftest import MODELS

SMALL = os.path.join(MODELS, "dates-dot.safetensors")
T1 = '"dtype": "F32", "shape": [1], "data_offsets": [0, 4]'
F1 = np.float32(1).tobytes()


def st(header, data=b"", n=None):
    """safetensors bytes: header (JSON text, or an object dumped as JSON), then data;
    n overrides the 8-byte header length."""
    text = header if isinstance(header, (str, bytes)) else json.dumps(header)
    text = text.encode("utf-8") if isinstance(text, str) else text
    return struct.pack("<Q", len(text) if n is None else n) + text + data


def with_config(config, tensors=None, key="config"):
    """A model file's bytes: config (object or JSON text) in __metadata__[key], tensors."""
    meta = {key: config if isinstance(config, str) else json.dumps(config)}
    header, data = {"__metadata__": meta}, b""
    for name, arr in (tensors or {}).items():
        b = np.ascontiguousarray(arr, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(arr.shape),
                        "data_offsets": [len(data), len(data) + len(b)]}
        data += b
    return st(header, data)


def small_config():
    return json.loads(read_safetensors(SMALL)[1]["config"])


def small_tensors():
    return {k: v for k, v in attnlab.load(SMALL).state_dict().items()}


def at_caps(arch, **over):
    lim = CONFIG_LIMITS[arch]
    c = {"architecture": arch}
    if arch == "seq2seq":
        c.update(cell="lstm", embeddingSize=lim["embeddingSize"], hiddenSize=lim["hiddenSize"],
                 numLayers=lim["numLayers"], bidirectional=True, maxLength=lim["maxLength"],
                 attention="local-p", style="luong", inputFeeding=True, score="concat",
                 window=lim["window"], positionSize=lim["positionSize"],
                 attentionSize=lim["attentionSize"])
    else:
        c.update(variant="decoder", embeddingSize=lim["embeddingSize"],
                 numHeads=lim["numHeads"], feedforwardSize=lim["feedforwardSize"],
                 numLayers=lim["numLayers"], positions="learned",
                 maxPositions=lim["maxPositions"], maxLength=lim["maxLength"])
    c["tokenizer"] = {"type": "char", "srcVocab": ["<pad>", "<s>", "</s>", "a"],
                      "tgtVocab": ["<pad>", "<s>", "</s>", "a"], "pad": "<pad>", "bos": "<s>", "unk": "a",
                      "eos": "</s>"}
    c.update(over)
    return c


# (id, file bytes, the LoadError message's expected fragment)
CASES = [
    ("empty file", b"", "0 bytes, shorter than the 8-byte header length"),
    ("5 bytes", bytes([16, 0, 0, 0, 0]), "5 bytes, shorter than the 8-byte header length"),
    ("header length beyond the file", st("{}" + " " * 18, n=100),
     "header length 100 is larger than the 20 bytes after it"),
    ("header length 2^64 - 1", st("{}", n=2 ** 64 - 1), "header length 18446744073709551615 is over"),
    ("header length 0", st("{}", n=0), "header length 0 is too short"),
    ("over the 16 MiB cap", st("{}", n=(16 << 20) + 1), "header cap of 16777216 bytes"),
    ("an HTML page", b"<!DOCTYPE html>\n<html><head><title>404</title></head></html>\n",
     "header length .* is over the header cap"),
    ("invalid UTF-8", st(bytes([0x7B, 0x22, 0x61, 0xFF, 0x22, 0x3A, 0x7B, 0x7D, 0x7D])),
     "header is not valid UTF-8: byte 0xff at header offset 3"),
    ("not JSON", st("hello, world"), "header is not valid JSON"),
    ("truncated JSON", st('{"w": {"dtype": "F3'), "header is not valid JSON: Unterminated string"),
    ("non-object header", st("[1, 2]"), "header is list, not a JSON object"),
    ("a number header", st("42"), "header is int, not a JSON object"),
    ("NaN in the header", st('{"__metadata__": {"a": NaN}}'), "NaN is not JSON"),
    ("100,000 deep", st('{"a":' + "[" * 100000), "header(: nesting deeper| is not valid JSON)"),
    ("100,000 deep balanced", st('{"a":' + "[" * 100000 + "]" * 100000 + "}"),
     "header: nesting deeper than 64 levels"),
    ("65 deep", st('{"a":' + "[" * 64 + "]" * 64 + "}"), "header: nesting deeper than 64 levels"),
    ("duplicate names", st(f'{{"w": {{{T1}}}, "w": {{{T1}}}}}', F1), "duplicate key 'w'"),
    ("duplicate metadata keys", st('{"__metadata__": {"k": "a", "k": "b"}}'), "duplicate key 'k'"),
    ("NUL in a name", st(f'{{"a\\u0000b": {{{T1}}}}}', F1), "no NUL"),
    ("1 MB name", st(f'{{"{"n" * (1 << 20)}": {{{T1}}}}}', F1), "1 to 1024 characters"),
    ("metadata not an object", st('{"__metadata__": [1]}'), "__metadata__ must be an object"),
    ("metadata number", st('{"__metadata__": {"layers": 2}}'),
     "__metadata__ 'layers' must be a string, found int"),
    ("entry not an object", st('{"w": [1, 2]}'), "tensor 'w': entry is list, not an object"),
    ("unknown dtype", st('{"w": {"dtype": "F31", "shape": [1], "data_offsets": [0, 4]}}', F1),
     "tensor 'w': unknown dtype 'F31'"),
    ("dtype a number", st('{"w": {"dtype": 32, "shape": [1], "data_offsets": [0, 4]}}', F1),
     "tensor 'w': unknown dtype 32"),
    ("missing shape", st('{"w": {"dtype": "F32", "data_offsets": [0, 4]}}', F1),
     "tensor 'w': missing 'shape'"),
    ("extra field", st(f'{{"w": {{{T1}, "layout": "nchw"}}}}', F1),
     "tensor 'w': unknown field 'layout'"),
    ("shape a string", st('{"w": {"dtype": "F32", "shape": "[1]", "data_offsets": [0, 4]}}', F1),
     "tensor 'w': shape '\\[1\\]' must be a list"),
    ("shape of strings", st('{"w": {"dtype": "F32", "shape": ["1"], "data_offsets": [0, 4]}}', F1),
     "tensor 'w': shape \\['1'\\] must be a list of at most 8 non-negative integers"),
    ("shape of floats", st('{"w": {"dtype": "F32", "shape": [1.0], "data_offsets": [0, 4]}}', F1),
     "tensor 'w': shape \\[1.0\\] must be"),
    ("shape of booleans", st('{"w": {"dtype": "F32", "shape": [true], "data_offsets": [0, 4]}}',
                             F1), "tensor 'w': shape \\[True\\] must be"),
    ("negative dimension", st('{"w": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}}',
                              F1), "tensor 'w': shape \\[-1\\] must be"),
    ("rank 9", st('{"w": {"dtype": "F32", "shape": [1,1,1,1,1,1,1,1,1], "data_offsets": [0, 4]}}',
                  F1), "at most 8"),
    ("huge shape", st('{"w": {"dtype": "F32", "shape": [4294967296, 4294967296, 4294967296], '
                      '"data_offsets": [0, 4]}}', F1),
     "holds 79228162514264337593543950336 elements, over the cap of 2147483647"),
    ("offsets as strings", st('{"w": {"dtype": "F32", "shape": [1], "data_offsets": ["0", "4"]}}',
                              F1), "data_offsets \\['0', '4'\\] must be two non-negative"),
    ("offsets a string", st('{"w": {"dtype": "F32", "shape": [1], "data_offsets": "0,4"}}', F1),
     "data_offsets '0,4' must be"),
    ("negative offsets", st('{"w": {"dtype": "F32", "shape": [1], "data_offsets": [-4, 0]}}', F1),
     "data_offsets \\[-4, 0\\] must be two non-negative"),
    ("three offsets", st('{"w": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4, 8]}}', F1),
     "must be two"),
    ("offsets beyond the data", st('{"w": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}}',
                                   F1), "offsets 4..8 do not fit shape \\[1\\] F32 \\(4 bytes\\) "
     "in 4 data bytes"),
    ("offsets against shape", st('{"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 4]}}',
                                 F1), "do not fit shape \\[2\\] F32 \\(8 bytes\\)"),
    ("overlapping offsets", st(f'{{"a": {{{T1}}}, "b": {{"dtype": "F32", "shape": [1], '
                               '"data_offsets": [0, 4]}}', F1 * 2), "overlaps the one before"),
    ("a gap", st('{"a": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}}', F1 * 2),
     "tensor 'a' starts at 4, expected 0 \\(a gap before it\\)"),
    ("bytes no tensor covers", st(f'{{"w": {{{T1}}}}}', F1 * 2),
     "4 data bytes not covered by any tensor"),
    ("a NaN weight", st('{"w": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}',
                        np.float32("nan").tobytes()), "tensor 'w' holds NaN or infinite values"),
    ("an F64 tensor", st('{"w": {"dtype": "F64", "shape": [1], "data_offsets": [0, 8]}}',
                         bytes(8)), "tensor 'w' is float64; attnlab model files hold F32"),
    ("no config", st('{"__metadata__": {"x": "y"}}'), 'no "config"'),
    ("config not JSON", with_config("{nope"), '__metadata__ "config" is not valid JSON'),
    ("config nested deeply", with_config('{"a":' + "[" * 100000 + "]" * 100000 + "}"),
     '__metadata__ "config": nesting deeper than 64 levels'),
    ("config not an object", with_config("[1]"), "config is not a JSON object"),
    ("architecture a list", with_config({"architecture": ["seq2seq"]}),
     'config "architecture": unknown value \\[\'seq2seq\'\\]'),
    ("unknown architecture", with_config({"architecture": "lstm"}),
     'config "architecture": unknown value \'lstm\''),
    ("hiddenSize a string", with_config(dict(small_config(), hiddenSize="64")),
     'config "hiddenSize": \'64\' is out of range \\(an integer in \\[1, 4096\\]\\)'),
    ("hiddenSize a float", with_config(dict(small_config(), hiddenSize=64.0)),
     'config "hiddenSize": 64.0 is out of range'),
    ("hiddenSize 0", with_config(dict(small_config(), hiddenSize=0)),
     'config "hiddenSize": 0 is out of range'),
    ("numLayers past the cap", with_config(dict(small_config(), numLayers=10 ** 9)),
     'config "numLayers": 1000000000 is out of range \\(an integer in \\[1, 8\\]\\)'),
    ("bidirectional a string", with_config(dict(small_config(), bidirectional="yes")),
     'config "bidirectional" must be true or false'),
    ("no tokenizer", with_config({k: v for k, v in small_config().items() if k != "tokenizer"}),
     "tokenizer"),
    ("tokenizer a string", with_config(dict(small_config(), tokenizer="char")), "tokenizer"),
    ("vocabulary of numbers", with_config(dict(small_config(), tokenizer=dict(
        small_config()["tokenizer"], srcVocab=[1, 2, 3]))), "tokenizer: vocab must be a list of strings"),
    ("unknown config key", with_config(dict(small_config(), layers=2)), 'unknown key "layers"'),
    ("op not an object", with_config("[1]", key="op"), '__metadata__ "op" is not a JSON object'),
    ("op unknown", with_config({"op": "conv"}, key="op"), "unknown op 'conv'"),
    ("op unknown key", with_config({"op": "multiHeadAttention", "embedDim": 4, "numHeads": 2,
                                    "kdim": 3}, key="op"), 'op: unknown key "kdim"'),
    ("embedDim 30000", with_config({"op": "multiHeadAttention", "embedDim": 30000, "numHeads": 2},
                                   key="op"), 'op "embedDim": 30000 is out of range '
     "\\(an integer in \\[1, 4096\\]\\)"),
    ("embedDim a string", with_config({"op": "multiHeadAttention", "embedDim": "8",
                                       "numHeads": 2}, key="op"), 'op "embedDim": \'8\''),
    ("numHeads 0", with_config({"op": "multiHeadAttention", "embedDim": 8, "numHeads": 0},
                               key="op"), 'op "numHeads": 0 is out of range'),
    ("embedDim not a multiple", with_config({"op": "multiHeadAttention", "embedDim": 9,
                                             "numHeads": 2}, key="op"),
     'op "embedDim" 9 is not a multiple of "numHeads" 2'),
    ("op without tensors", with_config({"op": "multiHeadAttention", "embedDim": 8,
                                        "numHeads": 2}, key="op"),
     "missing tensor 'in_proj_weight' \\(the config needs shape \\[24, 8\\]\\)"),
]


@pytest.mark.parametrize("data,match", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_malformed_file_is_a_load_error(data, match):
    with pytest.raises(LoadError, match=match):
        attnlab.load(data)


def test_card_not_json():
    meta = {"config": json.dumps(small_config()), "card": "{"}
    tensors = small_tensors()
    header, data = {"__metadata__": meta}, b""
    for name, t in tensors.items():
        b = t.numpy().astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape),
                        "data_offsets": [len(data), len(data) + len(b)]}
        data += b
    with pytest.raises(LoadError, match='__metadata__ "card" is not valid JSON'):
        attnlab.load(st(header, data))


def test_tensors_against_config():
    """The file's tensors against what the config needs: missing, misshapen, extra."""
    t = small_tensors()
    cfg = small_config()
    missing = {k: v.numpy() for k, v in t.items() if k != "out.bias"}
    with pytest.raises(LoadError, match="missing tensor 'out.bias'"):
        attnlab.load(with_config(cfg, missing))
    bent = {k: v.numpy() for k, v in t.items()}
    bent["out.bias"] = np.zeros(3, np.float32)
    with pytest.raises(LoadError, match="tensor 'out.bias' has shape \\[3\\] but the config "
                                        "needs \\[14\\]"):
        attnlab.load(with_config(cfg, bent))
    extra = dict({k: v.numpy() for k, v in t.items()}, spare=np.zeros(2, np.float32))
    with pytest.raises(LoadError, match="unexpected tensor 'spare'"):
        attnlab.load(with_config(cfg, extra))
    ok = attnlab.load(with_config(cfg, {k: v.numpy() for k, v in t.items()}))
    assert ok.config["hiddenSize"] == cfg["hiddenSize"]


def test_op_limits_are_the_model_caps():
    """The op caps (limits.py alone: C has no op table) are the transformer's widest
    dimension and most heads, and an op file at them loads."""
    assert OP_LIMITS["multiHeadAttention"] == {
        "embedDim": CONFIG_LIMITS["transformer"]["embeddingSize"],
        "numHeads": CONFIG_LIMITS["transformer"]["numHeads"]}


def test_op_file_loads(tmp_path):
    from torch import nn
    m = nn.MultiheadAttention(8, 2)
    path = tmp_path / "mha.safetensors"
    attnlab.export(m, path)
    back = attnlab.load(path)
    assert back.embed_dim == 8 and back.num_heads == 2
    assert (back.in_proj_weight == m.in_proj_weight).all()


def test_vocabulary_over_the_cap():
    cap = CONFIG_LIMITS["seq2seq"]["vocab"]
    cfg = small_config()
    cfg["tokenizer"] = dict(cfg["tokenizer"], srcVocab=["x"] * (cap + 1))
    with pytest.raises(LoadError, match=f'"srcVocab" has {cap + 1} entries, over the cap of '
                                        f"{cap}"):
        attnlab.load(with_config(cfg))


# The size cases: each in a fresh Python, its peak memory and time measured around the load.
CHILD = r"""
import resource, sys, time
import attnlab
data = open(sys.argv[1], "rb").read()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
try:
    attnlab.load(data)
    print("loaded")
except attnlab.LoadError as e:
    print("LoadError", e)
except BaseException as e:
    print(type(e).__name__, e)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) / 1024, time.perf_counter() - t)
"""


def big_vocab_config():
    words = [f"w{i}" for i in range(200000)]
    c = at_caps("seq2seq", attention="additive", style="bahdanau", numLayers=1)
    for k in ("inputFeeding", "score", "window", "positionSize"):
        c.pop(k)
    c["tokenizer"] = {"type": "word", "srcVocab": ["<pad>", "<unk>"] + words,
                      "tgtVocab": ["<pad>", "<s>", "</s>", "<unk>"] + words, "pad": "<pad>",
                      "bos": "<s>", "eos": "</s>", "unk": "<unk>"}
    return c


CHARS = {"type": "char", "vocab": ["<pad>", "<unk>", "a", "."], "pad": "<pad>", "unk": "<unk>"}
HAN_AT_CAPS = {"architecture": "classifier", "cell": "lstm", "embeddingSize": 4096,
               "hiddenSize": 4096, "numLayers": 8, "bidirectional": True, "pooling": "han",
               "attentionSize": 4096, "sentenceHiddenSize": 4096, "sentenceAttentionSize": 4096,
               "sentenceSeparator": ".", "labels": ["x"] * 65536, "tokenizer": CHARS}
LSTMN_AT_CAPS = {"architecture": "memory-rnn", "cell": "lstmn", "head": "lm",
                 "embeddingSize": 4096, "hiddenSize": 4096, "attentionSize": 4096,
                 "tokenizer": CHARS}


def encdec_at_caps():
    c = at_caps("transformer", variant="encoder-decoder", positions="relative",
                numLayers=CONFIG_LIMITS["transformer"]["numLayersEncoderDecoderRelative"],
                maxRelativePosition=CONFIG_LIMITS["transformer"]["maxRelativePosition"])
    c.pop("maxPositions")
    return c


SIZE_CASES = [
    ("seq2seq at every cap, no tensors", lambda: with_config(at_caps("seq2seq")),
     "missing tensor"),
    ("transformer at every cap, no tensors", lambda: with_config(at_caps("transformer")),
     "missing tensor"),
    ("encoder-decoder transformer at every cap, no tensors",
     lambda: with_config(encdec_at_caps()), "missing tensor"),
    ("HAN classifier at every cap, 65,536 labels, no tensors", lambda: with_config(HAN_AT_CAPS),
     "missing tensor 'embedding.weight'"),
    ("LSTMN at every cap, no tensors", lambda: with_config(LSTMN_AT_CAPS),
     "missing tensor 'embedding.weight'"),
    ("a 200,000-word vocabulary, no tensors", lambda: with_config(big_vocab_config()),
     "missing tensor"),
    ("an op file with embedDim 30000", lambda: with_config(
        {"op": "multiHeadAttention", "embedDim": 30000, "numHeads": 1}, key="op"),
     'op "embedDim": 30000 is out of range'),
    ("an op file at the caps, no tensors", lambda: with_config(
        {"op": "multiHeadAttention", "embedDim": 4096, "numHeads": 64}, key="op"),
     "missing tensor 'in_proj_weight' \\(the config needs shape \\[12288, 4096\\]\\)"),
]


@pytest.mark.parametrize("make,match", [c[1:] for c in SIZE_CASES],
                         ids=[c[0] for c in SIZE_CASES])
def test_size_claims_cost_nothing(make, match, tmp_path):
    data = make()
    path = tmp_path / "case.safetensors"
    path.write_bytes(data)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    p = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True,
                       env=env, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    outcome, numbers = p.stdout.strip().rsplit("\n", 1)
    peak_mb, seconds = map(float, numbers.split())
    assert outcome.startswith("LoadError"), outcome
    assert re.search(match, outcome), outcome
    assert peak_mb < 200, f"{len(data)}-byte file: peak memory grew {peak_mb:.0f} MB"
    # the time is printed, not asserted (a busy machine stretches it); the subprocess's timeout
    # is the hang guard
    print(f"{len(data)}-byte file: refused in {seconds:.2f} s, peak {peak_mb:.0f} MB")
