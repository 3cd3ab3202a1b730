"""attnlab.attention(module, *inputs, **kwargs) (python/attnlab/capture.py) on stock PyTorch
modules: nn.TransformerEncoder (batch first or not, train and eval: the fused fast path and the
nested-tensor path are PyTorch 1.13's in eval), nn.TransformerDecoder, nn.Transformer, a module
of one's own holding nn.MultiheadAttention layers. Each map equals softmax(Q Kᵀ / √d) computed
here from the layer's own in_proj weights in float64 (the layer inputs recomputed layer by layer),
its rows sum to 1, masked keys (padding, causal) weigh 0; the module's output is what it is
without the capture; every patched attribute is put back, also when the module raises.
"""

import math

import pytest
import torch
from torch import nn

import attnlab

E, H, FF = 16, 4, 32


def encoder(batch_first=True, layers=2, norm_first=False):
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(E, H, FF, dropout=0.0, batch_first=batch_first,
                                       norm_first=norm_first)
    return nn.TransformerEncoder(layer, layers).double()


def reference(mha, q_in, k_in, mask=None, key_padding=None, batch_first=True):
    """softmax(Q Kᵀ / √d + masks) per head from mha's in_proj weights: [B, H, T, S] (float64)."""
    if not batch_first:
        q_in, k_in = q_in.transpose(0, 1), k_in.transpose(0, 1)
    Wq, Wk, _ = mha.in_proj_weight.detach().double().chunk(3)
    bq, bk, _ = mha.in_proj_bias.detach().double().chunk(3)
    B, T, S, d = q_in.shape[0], q_in.shape[1], k_in.shape[1], E // H
    Q = (q_in.double() @ Wq.T + bq).view(B, T, H, d).transpose(1, 2)
    K = (k_in.double() @ Wk.T + bk).view(B, S, H, d).transpose(1, 2)
    scores = Q @ K.transpose(-1, -2) / math.sqrt(d)
    if mask is not None:
        scores = scores.masked_fill(mask, -math.inf)
    if key_padding is not None:
        scores = scores.masked_fill(key_padding[:, None, None, :], -math.inf)
    return torch.softmax(scores, -1)


def layer_inputs(enc, x, **kw):
    """The input of each encoder layer's self-attention, computed layer by layer."""
    out = []
    for layer in enc.layers:
        out.append(layer.norm1(x) if layer.norm_first else x)
        x = layer(x, **kw)
    return out


def saved_state(module):
    """What the capture patches, to compare before and after."""
    state = []
    for m in module.modules():
        state.append(("forward" in m.__dict__, getattr(m, "activation_relu_or_gelu", None),
                      getattr(m, "enable_nested_tensor", None), m.training))
    return state


def output_during(module, fn):
    """The module's output during fn() (a forward hook) and fn()'s result."""
    seen = []
    h = module.register_forward_hook(lambda m, i, o: seen.append(o))
    try:
        r = fn()
    finally:
        h.remove()
    return seen[-1], r


@pytest.mark.parametrize("batch_first", [True, False])
@pytest.mark.parametrize("mode", ["train", "eval"])
@pytest.mark.parametrize("norm_first", [False, True])
def test_encoder_weights_are_softmax_qk(batch_first, mode, norm_first):
    enc = encoder(batch_first, norm_first=norm_first)
    getattr(enc, mode)()
    torch.manual_seed(1)
    x = torch.randn((2, 5, E) if batch_first else (5, 2, E), dtype=torch.float64)
    before = saved_state(enc)
    calls = []
    hook = enc.layers[0].self_attn.register_forward_hook(lambda *a: calls.append(1))
    with torch.no_grad():
        plain = enc(x)
    hook.remove()
    # eval, batch first: PyTorch 1.13's fused layer skips nn.MultiheadAttention altogether
    assert len(calls) == (0 if mode == "eval" and batch_first else 1)
    with torch.no_grad():
        during, att = output_during(enc, lambda: attnlab.attention(enc, x))
        ins = layer_inputs(enc, x)
    assert saved_state(enc) == before
    assert isinstance(att, tuple) and len(att) == 2
    for layer, a, xi in zip(enc.layers, att, ins):
        assert a.shape == (2, H, 5, 5) and a.dtype == torch.float64
        ref = reference(layer.self_attn, xi, xi, batch_first=batch_first)
        assert torch.allclose(a, ref, atol=1e-12, rtol=0), float((a - ref).abs().max())
        assert torch.allclose(a.sum(-1), torch.ones(2, H, 5, dtype=torch.float64), atol=1e-12)
    # the ordinary path in both; eval's fused path (batch first, no mask) agrees to rounding
    tol = 1e-12 if mode == "train" or not batch_first else 1e-10
    assert torch.allclose(during, plain, atol=tol, rtol=0), float((during - plain).abs().max())


@pytest.mark.parametrize("mode", ["train", "eval"])
def test_padding_and_causal_masks_weigh_zero(mode):
    enc = getattr(encoder(True), mode)()
    torch.manual_seed(2)
    x = torch.randn(3, 6, E, dtype=torch.float64)
    pad = torch.tensor([[False] * 6, [False] * 4 + [True] * 2, [False] * 3 + [True] * 3])
    with torch.no_grad():
        plain = enc(x, src_key_padding_mask=pad)
        during, att = output_during(enc, lambda: attnlab.attention(enc, x, src_key_padding_mask=pad))
        ins = layer_inputs(enc, x, src_key_padding_mask=pad)
    for layer, a, xi in zip(enc.layers, att, ins):
        assert (a.masked_select(pad[:, None, None, :].expand_as(a)) == 0).all()
        assert a[0].min() > 0  # the unpadded sentence: no zero
        ref = reference(layer.self_attn, xi, xi, key_padding=pad)
        assert torch.allclose(a, ref, atol=1e-12, rtol=0)
        assert torch.allclose(a.sum(-1), torch.ones(3, H, 6, dtype=torch.float64), atol=1e-12)
    keep = ~pad  # eval: PyTorch's nested-tensor path writes 0 at padded positions, the ordinary one does not
    assert torch.allclose(during[keep], plain[keep], atol=1e-10, rtol=0)
    if mode == "train":
        assert torch.equal(during, plain)
    assert enc.enable_nested_tensor is True

    causal = nn.Transformer.generate_square_subsequent_mask(6).double()
    with torch.no_grad():
        att = attnlab.attention(enc, x, mask=causal)
        ins = layer_inputs(enc, x, src_mask=causal)
    upper = torch.ones(6, 6, dtype=torch.bool).triu(1)
    for layer, a, xi in zip(enc.layers, att, ins):
        assert (a[..., upper] == 0).all() and (a[..., ~upper] > 0).all()
        assert torch.allclose(a, reference(layer.self_attn, xi, xi, mask=upper), atol=1e-12, rtol=0)


def test_decoder_and_transformer_in_call_order():
    torch.manual_seed(3)
    model = nn.Transformer(E, H, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=FF,
                           dropout=0.0, batch_first=True).double().eval()
    src = torch.randn(2, 5, E, dtype=torch.float64)
    tgt = torch.randn(2, 4, E, dtype=torch.float64)
    causal = model.generate_square_subsequent_mask(4).double()
    with torch.no_grad():
        plain = model(src, tgt, tgt_mask=causal)
        during, att = output_during(model, lambda: attnlab.attention(model, src, tgt, tgt_mask=causal))
        memory = model.encoder(src)
    # encoder 2 self, then decoder per layer: self [4, 4], cross [4, 5]
    assert [tuple(a.shape) for a in att] == [(2, H, 5, 5)] * 2 + [(2, H, 4, 4), (2, H, 4, 5)] * 2
    assert torch.allclose(during, plain, atol=1e-10, rtol=0)
    ins = layer_inputs(model.encoder, src)
    for i, layer in enumerate(model.encoder.layers):
        assert torch.allclose(att[i], reference(layer.self_attn, ins[i], ins[i]), atol=1e-12, rtol=0)
    upper = torch.ones(4, 4, dtype=torch.bool).triu(1)
    y = tgt
    for i, layer in enumerate(model.decoder.layers):
        self_w, cross_w = att[2 + 2 * i], att[3 + 2 * i]
        assert torch.allclose(self_w, reference(layer.self_attn, y, y, mask=upper), atol=1e-12, rtol=0)
        mid = layer.norm1(y + layer._sa_block(y, causal, None))
        assert torch.allclose(cross_w, reference(layer.multihead_attn, mid, memory), atol=1e-12, rtol=0)
        assert (self_w[..., upper] == 0).all()
        y = layer(y, memory, tgt_mask=causal)
    # the decoder alone: the same four maps
    with torch.no_grad():
        dec = attnlab.attention(model.decoder, tgt, memory, tgt_mask=causal)
    assert len(dec) == 4 and all(torch.allclose(a, b, atol=1e-12) for a, b in zip(dec, att[2:]))


class TwoHeads(nn.Module):
    """A module of one's own: two nn.MultiheadAttention (one called twice, one unbatched)."""

    def __init__(self):
        super().__init__()
        self.a = nn.MultiheadAttention(E, 2, batch_first=True)
        self.b = nn.MultiheadAttention(E, 4)
        self.unused = nn.Linear(E, E)

    def forward(self, x):
        y, _ = self.a(x, x, x)  # averaged weights asked for: per head given
        y, _ = self.a(y, x, x, need_weights=False)
        z, _ = self.b(y[0], y[0], y[0])  # unbatched [T, E]
        return z


def test_module_of_ones_own_and_unbatched_calls():
    torch.manual_seed(4)
    m = TwoHeads().double()
    x = torch.randn(1, 3, E, dtype=torch.float64)
    with torch.no_grad():
        plain = m(x)
        att = attnlab.attention(m, x)
    assert [tuple(a.shape) for a in att] == [(1, 2, 3, 3), (1, 2, 3, 3), (1, 4, 3, 3)]
    with torch.no_grad():
        y, w = m.a(x, x, x, average_attn_weights=False)
    assert torch.allclose(att[0], w, atol=0, rtol=0)
    assert torch.allclose(m(x), plain, atol=0, rtol=0)
    assert "forward" not in m.a.__dict__ and "forward" not in m.b.__dict__


def test_attnlab_torch_transformer_agrees_with_its_own_maps():
    # relative positions: RelativeMultiheadAttention, a subclass; the module wraps its layers too
    torch.manual_seed(5)
    tok = attnlab.Tokenizer.fit(["a b c d", "b c a"], ["x y", "y z x"], type="word")
    m = attnlab.torch.TransformerSeq2Seq(tok, embedding_size=8, num_heads=2, feedforward_size=16,
                                         num_layers=2, positions="relative")
    src, tgt = tok.encode("a b c d"), [tok.bos_id] + tok.encode_target("x y")
    with torch.no_grad():
        own = m(src, tgt)["attention"]
        att = attnlab.attention(m, src, tgt)
        again = m(src, tgt)["attention"]
    # call order: encoder layers, then per decoder layer self, cross
    where = {("encoder", "self", 0): 0, ("encoder", "self", 1): 1, ("decoder", "self", 0): 2,
             ("decoder", "cross", 0): 3, ("decoder", "self", 1): 4, ("decoder", "cross", 1): 5}
    assert len(att) == 6 and len(own) == 12
    for a in own:
        w = att[where[(a["stack"], a["kind"], a["layer"])]][0, a["head"]]
        assert torch.equal(w, a["weights"]), (a["stack"], a["kind"], a["layer"], a["head"])
    assert all(torch.equal(a["weights"], b["weights"]) for a, b in zip(own, again))


def test_a_keyword_named_module_reaches_the_module():
    class Takes(nn.Module):
        def __init__(self):
            super().__init__()
            self.attn = nn.MultiheadAttention(4, 2)

        def forward(self, x, module=None):
            return self.attn(x, x, x)[0] * module

    att = attnlab.attention(Takes(), torch.ones(3, 4), module=2.0)
    assert att[0].shape == (1, 2, 3, 3)


def test_autograd_flows_through_the_weights():
    enc = encoder().train()
    x = torch.randn(1, 4, E, dtype=torch.float64)
    att = attnlab.attention(enc, x)
    att[1][0, 0, 0, 0].backward()
    assert enc.layers[0].self_attn.in_proj_weight.grad.abs().sum() > 0


def test_restored_after_an_error():
    enc = encoder().eval()
    before = saved_state(enc)
    with pytest.raises(AssertionError, match="embedding dimension"):  # PyTorch's own error
        attnlab.attention(enc, torch.randn(2, 5, E + 1, dtype=torch.float64))
    assert saved_state(enc) == before
    assert enc.layers[0].activation_relu_or_gelu == 1


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match=r"attnlab.attention: Sequential has no nn.MultiheadAttention layer"):
        attnlab.attention(nn.Sequential(nn.Linear(2, 2)), torch.zeros(1, 2))
    with pytest.raises(TypeError, match=r"attnlab.attention: expected an nn.Module to run, got function"):
        attnlab.attention(lambda x: x, torch.zeros(1))

    class Skips(nn.Module):
        def __init__(self):
            super().__init__()
            self.attn = nn.MultiheadAttention(4, 2)

        def forward(self, x):
            return x

    with pytest.raises(ValueError,
                       match=r"Skips ran but called none of its 1 nn.MultiheadAttention layer \(attn\)"):
        attnlab.attention(Skips(), torch.zeros(1, 4))
