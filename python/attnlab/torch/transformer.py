"""PyTorch reference for attnlab's "transformer" model (src/models/transformer.c, docs/models.md).

Holds: `Transformer(config)`, an nn.Module built from nn.TransformerEncoderLayer /
nn.TransformerDecoderLayer themselves (dropout 0, batch_first), whose state_dict names are the
names of the model file; `export(model, config, path)`, which writes that file (F32
safetensors, the config JSON in __metadata__["config"]); `forward(model, src, tgt=None)`, which
returns the logits and every layer's per-head attention; `greedy(model, src, max_len)`.

    model = Transformer(config)                # config: the dict documented in docs/models.md
    export(model, config, "lm.safetensors")    # then: const m = await loadModel('lm.safetensors')
    logits, att = forward(model.double(), [4, 5, 6])

Maths (docs/models.md, "Architecture transformer"):
  x = emb(ids) * (sqrt(E) if scaleEmbedding) + P[:n]   P learned (pos_embedding) or sinusoidal;
                                                       "relative": no P, and every self-attention
                                                       is RelativeMultiheadAttention (Shaw et al.
                                                       2018) with tables relative_key/value
  encoder          layers.{i} (nn.TransformerEncoderLayer), optional norm, out  (per position)
  decoder          the same with the causal mask (a decoder-only language model)
  encoder-decoder  encoder.layers / encoder.norm over the source, decoder.layers (causal self-
                   attention + attention over the memory) / decoder.norm over bos + outputs, out
The modules run in train() mode with dropout 0 (identical to eval, and it keeps torch 1.13 off
its fused "fast path", which cannot return per-head weights). Attention weights are recorded by
wrapping each attention submodule's forward (on that instance) to call the original with
need_weights=True, average_attn_weights=False.
`nll(model, src, tgt)` is the training loss of one example (docs/training.md), with autograd.
Does not: batch, train, or tokenize (token ids in, ids out).
"""

import json
import math
import os
import sys

import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from fixtures_lib import f32, write_safetensors  # noqa: E402


def sinusoidal(n, E, dtype=torch.float64):
    """P[t, 2i] = sin(t / 10000^(2i/E)), P[t, 2i+1] = cos(t / 10000^(2i/E)) (Vaswani §3.5)."""
    P = torch.zeros(n, E, dtype=torch.float64)
    for t in range(n):
        for j in range(E):
            a = t / math.pow(10000.0, (j - j % 2) / E)
            P[t, j] = math.cos(a) if j % 2 else math.sin(a)
    return P.to(dtype)


class RelativeMultiheadAttention(nn.MultiheadAttention):
    """Self-attention with relative position representations (Shaw, Uszkoreit & Vaswani 2018,
    eqs. 3-4) in nn.MultiheadAttention's clothes: the same in_proj_* / out_proj.* parameters
    (and names), plus relative_key / relative_value = nn.Embedding(2k+1, E/H), shared by the
    heads. With r_ij = clip(j - i, -k, k) + k, per head:
        e_ij = q_i . (k_j + relative_key[r_ij]) / sqrt(E/H),   a_i = softmax_j(e_ij + mask)
        z_i  = sum_j a_ij (v_j + relative_value[r_ij]),       out = out_proj(concat_h z)
    Self-attention only (query is key is value); batch_first; dropout 0; returns the per-head
    weights [B, H, n, n] (averaged when average_attn_weights, as the parent)."""

    def __init__(self, E, H, k):
        super().__init__(E, H, dropout=0.0, batch_first=True)
        self.max_relative = k
        self.relative_key = nn.Embedding(2 * k + 1, E // H)
        self.relative_value = nn.Embedding(2 * k + 1, E // H)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True,
                attn_mask=None, average_attn_weights=True):
        B, n, E = query.shape
        H = self.num_heads
        Dh = E // H
        q, k, v = nn.functional.linear(query, self.in_proj_weight, self.in_proj_bias).split(E, -1)
        q, k, v = (t.reshape(B, n, H, Dh).transpose(1, 2) for t in (q, k, v))  # [B, H, n, Dh]
        pos = torch.arange(n)
        r = (pos[None, :] - pos[:, None]).clamp(-self.max_relative, self.max_relative)
        r = r + self.max_relative                                            # [i, j]: j - i
        aK, aV = self.relative_key.weight[r], self.relative_value.weight[r]  # [n, n, Dh]
        e = (q @ k.transpose(-1, -2) + torch.einsum("bhid,ijd->bhij", q, aK)) / math.sqrt(Dh)
        if attn_mask is not None:
            e = e.masked_fill(attn_mask, float("-inf")) if attn_mask.dtype == torch.bool \
                else e + attn_mask
        if key_padding_mask is not None:
            e = e.masked_fill(key_padding_mask[:, None, None, :].bool(), float("-inf"))
        a = torch.softmax(e, -1)
        z = a @ v + torch.einsum("bhij,ijd->bhid", a, aV)
        out = self.out_proj(z.transpose(1, 2).reshape(B, n, E))
        if not need_weights:
            return out, None
        return out, a.mean(1) if average_attn_weights else a


class Transformer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        E, H, F_, L = cfg["embeddingSize"], cfg["numHeads"], cfg["feedforwardSize"], cfg["numLayers"]
        tok = cfg["tokenizer"]
        Vs, Vt = len(tok["srcVocab"]), len(tok["tgtVocab"])
        self.variant = cfg["variant"]
        kw = dict(dim_feedforward=F_, dropout=0.0, activation=cfg.get("activation", "relu"),
                  batch_first=True, norm_first=cfg.get("normFirst", False))
        final = cfg.get("finalNorm", False)
        rel = cfg["positions"] == "relative"

        def relative(layer):  # Shaw self-attention in place of nn.MultiheadAttention
            if rel:
                layer.self_attn = RelativeMultiheadAttention(E, H, cfg["maxRelativePosition"])
            return layer
        if self.variant == "encoder-decoder":
            self.src_embedding = nn.Embedding(Vs, E)
            self.tgt_embedding = nn.Embedding(Vt, E)
        else:
            self.embedding = nn.Embedding(Vs, E)
        if cfg["positions"] == "learned":
            self.pos_embedding = nn.Embedding(cfg["maxPositions"], E)
        if self.variant == "encoder-decoder":
            self.encoder = nn.TransformerEncoder(relative(nn.TransformerEncoderLayer(E, H, **kw)), L,
                                                 norm=nn.LayerNorm(E) if final else None,
                                                 enable_nested_tensor=False)
            self.decoder = nn.TransformerDecoder(relative(nn.TransformerDecoderLayer(E, H, **kw)), L,
                                                 norm=nn.LayerNorm(E) if final else None)
        else:
            self.layers = nn.ModuleList([relative(nn.TransformerEncoderLayer(E, H, **kw))
                                         for _ in range(L)])
            if final:
                self.norm = nn.LayerNorm(E)
        self.out = nn.Linear(E, Vt)
        self.train()  # dropout is 0: train() only keeps torch off its fused fast path

    def embed(self, table, ids):
        E = self.cfg["embeddingSize"]
        x = table(torch.tensor([ids]))
        if self.cfg.get("scaleEmbedding", False):
            x = x * math.sqrt(E)
        n = len(ids)
        if self.cfg["positions"] == "learned":
            return x + self.pos_embedding.weight[:n]
        if self.cfg["positions"] == "relative":
            return x
        return x + sinusoidal(n, E, x.dtype)


def _record(mha, store, key):
    orig = mha.forward

    def fwd(query, k, v, key_padding_mask=None, need_weights=True, attn_mask=None,
            average_attn_weights=True, **rest):
        out, w = orig(query, k, v, key_padding_mask=key_padding_mask, need_weights=True,
                      attn_mask=attn_mask, average_attn_weights=False, **rest)
        store[key] = w[0]  # [H, T, S]
        return out, None

    mha.forward = fwd
    return orig


def forward(model, src, tgt=None):
    """logits [n, Vt] and att {(stack, kind, layer): [H, T, S]} for one sentence.
    encoder / decoder: src is the sequence; encoder-decoder: tgt is the decoder input."""
    store, restore = {}, []
    causal = lambda n: torch.ones(n, n, dtype=torch.bool).triu(1)  # noqa: E731  True = hidden
    if model.variant == "encoder-decoder":
        for i, layer in enumerate(model.encoder.layers):
            restore.append((layer.self_attn, _record(layer.self_attn, store, ("encoder", "self", i))))
        for i, layer in enumerate(model.decoder.layers):
            restore.append((layer.self_attn, _record(layer.self_attn, store, ("decoder", "self", i))))
            restore.append((layer.multihead_attn,
                            _record(layer.multihead_attn, store, ("decoder", "cross", i))))
        mem = model.encoder(model.embed(model.src_embedding, src))
        y = model.decoder(model.embed(model.tgt_embedding, tgt), mem, tgt_mask=causal(len(tgt)))
    else:
        x = model.embed(model.embedding, src)
        mask = causal(len(src)) if model.variant == "decoder" else None
        for i, layer in enumerate(model.layers):
            restore.append((layer.self_attn, _record(layer.self_attn, store, ("encoder", "self", i))))
            x = layer(x, src_mask=mask)
        y = model.norm(x) if hasattr(model, "norm") else x
    for mod, orig in restore:
        mod.forward = orig
    return model.out(y)[0], store


def nll(model, src, tgt=None):
    """The training loss of one example (docs/training.md), summed over its terms, with autograd:
    encoder-decoder: src, tgt (ending in eos), decoder fed bos, tgt[:-1]: sum_t -log p(tgt[t]);
    decoder: the sequence src: sum_{t < S-1} -log p(src[t+1] | src[<=t]);
    encoder: src and tgt = one label per position: sum_t -log p(tgt[t] | src)."""
    if model.variant == "encoder-decoder":
        bos = model.cfg["tokenizer"]["tgtVocab"].index(model.cfg["tokenizer"]["bos"])
        logits, _ = forward(model, src, [bos] + list(tgt[:-1]))
        target = list(tgt)
    elif model.variant == "decoder":
        logits, _ = forward(model, src)
        logits, target = logits[:-1], list(src[1:])
    else:
        logits, _ = forward(model, src)
        target = list(tgt)
    logp = torch.log_softmax(logits, -1)
    return -logp[torch.arange(len(target)), torch.tensor(target)].sum()


def greedy(model, src, max_len):
    """Greedy decoding (decoder: continue src; encoder-decoder: from bos) -> ids, log-probs, the
    fed sequence and the smallest top-1 margin over the steps."""
    tok = model.cfg["tokenizer"]
    eos = tok["tgtVocab"].index(tok["eos"])
    ed = model.variant == "encoder-decoder"
    fed = [tok["tgtVocab"].index(tok["bos"])] if ed else list(src)
    ids, lps, margin = [], [], float("inf")
    for _ in range(max_len):
        logits, _ = forward(model, src, fed) if ed else forward(model, fed)
        row = torch.log_softmax(logits[-1], -1)
        top = torch.topk(row, 2).values
        margin = min(margin, float(top[0] - top[1]))
        i = int(torch.argmax(row))
        ids.append(i)
        lps.append(float(row[i]))
        if i == eos or len(ids) == max_len:
            break
        fed.append(i)
    return ids, lps, fed, margin


def export(model, config, path, state_dict=None):
    """Write model's state_dict (or the given one) as F32 safetensors with json.dumps(config) in
    __metadata__["config"]."""
    sd = model.state_dict() if state_dict is None else state_dict
    tensors = {k: f32(v) for k, v in sd.items()}
    write_safetensors(path, tensors, {"config": json.dumps(config, separators=(",", ":"))})
