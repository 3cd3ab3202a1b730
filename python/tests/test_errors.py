"""Bad input gets a clear error naming the module, the parameter or the file, and export writes
nothing when it refuses: unknown module types, missing tokenizers or special tokens, shapes that
do not fit the tokenizer or the config, extra and non-finite parameters, stock modules attnlab's
format cannot hold; files without a config, of an unknown architecture, with a missing, extra or
misshapen tensor, or a broken I8 tensor."""

import json

import numpy as np
import pytest
import torch
from torch import nn

import attnlab
from attnlab import ExportError, LoadError
from attnlab.safetensors import write_safetensors
from attnlab.torch import Classifier, MemoryRNN, Seq2Seq, Transformer

CHARS = ["<pad>", "<s>", "</s>", "<unk>", "a", "b", "c"]


def tok(**kw):
    return attnlab.Tokenizer(CHARS, type="char", bos="<s>", eos="</s>", **kw)


def refuses(path, match, fn, *args, **kw):
    with pytest.raises((ExportError, TypeError), match=match):
        fn(*args, **kw)
    assert not path.exists(), "export wrote a file although it refused"


def test_export_errors_name_the_module_and_parameter(tmp_path):
    p = tmp_path / "x.safetensors"
    refuses(p, r"attnlab.export: Linear: not a module attnlab knows", attnlab.export,
            nn.Linear(2, 2), p)
    bare = Seq2Seq(src_vocab_size=7, tgt_vocab_size=7, hidden_size=4, embedding_size=3)
    refuses(p, r"Seq2Seq has no tokenizer: pass tokenizer=", attnlab.export, bare, p)
    big = attnlab.Tokenizer(CHARS + ["d", "e"], type="char", bos="<s>", eos="</s>")
    refuses(p, r"Seq2Seq parameter 'src_embedding.weight' has shape \[7, 3\] but the config and "
            r"tokenizer need \[9, 3\] \(the tokenizer's source vocabulary has 9 entries\)",
            attnlab.export, bare, p, tokenizer=big)
    no_eos = attnlab.Tokenizer(CHARS, type="char", bos="<s>")
    refuses(p, r"the tokenizer needs eos", attnlab.export, bare, p, tokenizer=no_eos)
    m = Seq2Seq(tok(), hidden_size=4, embedding_size=3)
    m.out = nn.Linear(4, 3)
    refuses(p, r"Seq2Seq parameter 'out.weight' has shape \[3, 4\] but the config", attnlab.export,
            m, p)
    m = Seq2Seq(tok(), hidden_size=4, embedding_size=3)
    m.extra = nn.Parameter(torch.zeros(2))
    refuses(p, r"Seq2Seq has a parameter 'extra' \(shape \[2\]\) that the attnlab format does "
            r"not use", attnlab.export, m, p)
    m = MemoryRNN(attnlab.Tokenizer(CHARS), hidden_size=4, embedding_size=3)
    with torch.no_grad():
        m.cell.W_h[0, 0] = float("nan")
    refuses(p, r"MemoryRNN parameter 'cell.W_h' holds NaN", attnlab.export, m, p)
    refuses(p, r"unknown keyword 'dtype'", attnlab.export, m, p, dtype="F16")
    refuses(p, r"embedding= are for stock modules", attnlab.export, m, p,
            embedding=nn.Embedding(3, 3))


def test_stock_module_errors(tmp_path):
    p = tmp_path / "x.safetensors"
    refuses(p, r"parameter 'in_proj_bias' is missing \(bias=False\)", attnlab.export,
            nn.MultiheadAttention(4, 2, bias=False), p)
    refuses(p, r"kdim / vdim differ", attnlab.export, nn.MultiheadAttention(4, 2, kdim=3), p)
    refuses(p, r"no vocabulary or other parts", attnlab.export, nn.MultiheadAttention(4, 2), p,
            tokenizer=tok())
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0), 1,
                                enable_nested_tensor=False)
    refuses(p, r"TransformerEncoder: an nn.TransformerEncoder exports with embedding=.*out= is "
            r"missing", attnlab.export, enc, p, tokenizer=tok(), embedding=nn.Embedding(7, 4),
            positions="sinusoidal")
    refuses(p, r"positions='rotary': a string must be 'sinusoidal'", attnlab.export, enc, p,
            tokenizer=tok(), embedding=nn.Embedding(7, 4), positions="rotary",
            out=nn.Linear(4, 7))
    odd = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0,
                                                           layer_norm_eps=1e-6), 1,
                                enable_nested_tensor=False)
    refuses(p, r"layers.0.norm1: attnlab's layer norm has eps 1e-5", attnlab.export, odd, p,
            tokenizer=tok(), embedding=nn.Embedding(7, 4), positions="sinusoidal",
            out=nn.Linear(4, 7))
    refuses(p, r"pooling must hold one parameter, w", attnlab.export, nn.LSTM(3, 4), p,
            tokenizer=tok(), embedding=nn.Embedding(7, 3), pooling=nn.Linear(4, 1),
            classifier=nn.Linear(4, 2))


def test_keyword_and_config_errors():
    with pytest.raises(TypeError, match=r"Seq2Seq: unknown keyword 'hiden_size'"):
        Seq2Seq(tok(), hiden_size=4)
    with pytest.raises(ValueError, match=r'config "attention": unknown value \'bilinear\''):
        Seq2Seq(tok(), attention="bilinear")
    with pytest.raises(ValueError, match=r'Seq2Seq: config "numLayers": 0 is out of range '
                                         r'\(an integer in \[1, 8\]\)'):
        Seq2Seq(tok(), num_layers=0)
    with pytest.raises(ValueError, match=r'config "bidirectional" must be true or false, not 1'):
        Seq2Seq(tok(), bidirectional=1)
    with pytest.raises(ValueError, match=r'config "numLayers": 8 is out of range \(an integer in '
                                         r'\[1, 7\] for this variant\)'):
        Transformer(tok(), variant="encoder-decoder", positions="relative", num_layers=8)
    with pytest.raises(ValueError, match=r'config "penaltyCoefficient": -1 is out of range'):
        Classifier(tok(), labels=2, pooling="structured", penalty_coefficient=-1)
    with pytest.raises(ValueError, match=r"needs src_vocab_size= or tokenizer="):
        Seq2Seq(tgt_vocab_size=4)
    with pytest.raises(ValueError, match=r'missing key "attentionSize" \(needed by attention '
                                         r'"additive"\)'):
        Seq2Seq.from_config({"architecture": "seq2seq", "cell": "lstm", "attention": "additive",
                             "style": "bahdanau", "embeddingSize": 3, "hiddenSize": 4,
                             "numLayers": 1, "tokenizer": tok().config("seq2seq")})
    with pytest.raises(ValueError, match=r'config "numHeads": 3 does not divide "embeddingSize" 8'):
        Transformer(tok(), variant="encoder", embedding_size=8, num_heads=3)
    with pytest.raises(ValueError, match=r"sentenceSeparator.*is not in tokenizer.vocab"):
        Classifier(attnlab.Tokenizer(CHARS), labels=2, pooling="han")


def _file(path, tensors, meta):
    write_safetensors(str(path), tensors, meta)
    return path


def test_load_errors_name_the_file_and_tensor(tmp_path):
    m = MemoryRNN(attnlab.Tokenizer(CHARS), hidden_size=4, embedding_size=3, cell="lstm")
    good = tmp_path / "good.safetensors"
    attnlab.export(m, good)
    config = json.dumps(m.config)
    sd = {k: v.numpy() for k, v in m.state_dict().items()}
    with pytest.raises(LoadError, match=r'no "config" in the file\'s __metadata__'):
        attnlab.load(_file(tmp_path / "a.safetensors", sd, {}))
    with pytest.raises(LoadError, match=r'config "architecture": unknown value \'perceiver\''):
        attnlab.load(_file(tmp_path / "b.safetensors", sd,
                           {"config": json.dumps({**m.config, "architecture": "perceiver"})}))
    less = {k: v for k, v in sd.items() if k != "out.bias"}
    with pytest.raises(LoadError, match=r"c.safetensors: missing tensor 'out.bias' \(the config "
                                        r"needs shape \[7\]\)"):
        attnlab.load(_file(tmp_path / "c.safetensors", less, {"config": config}))
    with pytest.raises(LoadError, match=r"tensor 'out.bias' has shape \[6\] but the config needs "
                                        r"\[7\]"):
        attnlab.load(_file(tmp_path / "d.safetensors", {**sd, "out.bias": np.zeros(6, np.float32)},
                           {"config": config}))
    with pytest.raises(LoadError, match=r"unexpected tensor 'attention.W_a' \(shape \[2, 2\]\)"):
        attnlab.load(_file(tmp_path / "e.safetensors",
                           {**sd, "attention.W_a": np.zeros((2, 2), np.float32)},
                           {"config": config}))
    q = {**sd, "out.weight": np.ones((7, 4), np.int8)}
    with pytest.raises(LoadError, match=r"I8 tensor 'out.weight' needs its scales "
                                        r"'out.weight:scale'"):
        attnlab.load(_file(tmp_path / "f.safetensors", q, {"config": config}))
    raw = good.read_bytes()
    (tmp_path / "g.safetensors").write_bytes(raw[:-5])
    with pytest.raises(LoadError, match=r"g.safetensors: not a readable safetensors file"):
        attnlab.load(tmp_path / "g.safetensors")
