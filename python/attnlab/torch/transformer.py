"""PyTorch reference for attnlab's "transformer" model (src/models/transformer.c, docs/models.md).

Holds: `Transformer(variant=...)` and `TransformerSeq2Seq` (variant "encoder-decoder"), an
nn.Module built from nn.TransformerEncoderLayer /
nn.TransformerDecoderLayer themselves (dropout 0, batch_first), whose state_dict names are the
names of the model file; `export(model, config, path)`, which writes that file (F32
safetensors, the config JSON in __metadata__["config"]); `forward(model, src, tgt=None)`, which
returns the logits and every layer's per-head attention; `greedy(model, src, max_len)`.

    model = TransformerSeq2Seq(tok, num_layers=2, num_heads=2)   # or Transformer.from_config(c)
    out = model(src_ids, tgt_ids)   # logits [T, V], attention: the JS maps, one per layer and head
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
One sequence a call: a batch, an empty input or one past maxPositions is refused by name
(Transformer.ids); tensors are made on the module's device (`.to("cuda")` runs as on the CPU).
Does not: batch, or train by itself (fit, or a loop over example_loss: docs/python.md).
"""

import json
import math

import torch
from torch import nn

from ..limits import CONFIG_LIMITS
from ..safetensors import f32, write_safetensors
from ._config import ConfigModule, smoothing_of, token_nll, tokens_of
from ._inputs import count_of, device_of, ids_of


def sinusoidal(n, E, dtype=torch.float64, device=None):
    """P[t, 2i] = sin(t / 10000^(2i/E)), P[t, 2i+1] = cos(t / 10000^(2i/E)) (Vaswani §3.5)."""
    P = [[math.cos(a) if j % 2 else math.sin(a)
          for j, a in ((j, t / math.pow(10000.0, (j - j % 2) / E)) for j in range(E))]
         for t in range(n)]
    return torch.tensor(P, dtype=torch.float64, device=device).reshape(n, E).to(dtype)


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
        pos = torch.arange(n, device=query.device)
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


class Transformer(ConfigModule):
    """The "transformer" architecture. Keywords are the config keys in snake_case
    (docs/models.md, "Architecture transformer"): variant ('encoder', 'decoder',
    'encoder-decoder'), embedding_size, num_heads, feedforward_size, num_layers, positions
    ('learned', 'sinusoidal', 'relative'), max_relative_position, max_positions, norm_first,
    activation ('relu', 'gelu'), final_norm, scale_embedding, max_length. Vocabulary sizes from
    `tokenizer` or src_vocab_size / tgt_vocab_size (the decoder variant: one vocabulary)."""

    ARCHITECTURE = "transformer"
    KEYS = ("variant", "embeddingSize", "numHeads", "feedforwardSize", "numLayers", "positions",
            "maxRelativePosition", "maxPositions", "normFirst", "activation", "finalNorm",
            "scaleEmbedding", "maxLength")
    ENUMS = {"variant": ("encoder", "decoder", "encoder-decoder"),
             "positions": ("learned", "sinusoidal", "relative"), "activation": ("relu", "gelu")}
    DEFAULT_VARIANT = None

    def __init__(self, tokenizer=None, *, src_vocab_size=None, tgt_vocab_size=None, variant=None,
                 embedding_size=None, num_heads=None, feedforward_size=None, num_layers=None,
                 positions=None, _strict=False, **options):
        super().__init__()
        cfg = self._keys_from(dict(variant=variant, embedding_size=embedding_size,
                                   num_heads=num_heads, feedforward_size=feedforward_size,
                                   num_layers=num_layers, positions=positions, **options), _strict)
        if self.DEFAULT_VARIANT and cfg.setdefault("variant", self.DEFAULT_VARIANT) != self.DEFAULT_VARIANT:
            raise ValueError(f'{type(self).__name__}: variant is "{self.DEFAULT_VARIANT}"')
        if "variant" not in cfg:
            raise ValueError('Transformer: variant= is required ("encoder", "decoder" or '
                             '"encoder-decoder"; TransformerSeq2Seq is the encoder-decoder)')
        E = self._need("embeddingSize", 32, "an integer")
        H = self._need("numHeads", 2, "an integer")
        self._need("feedforwardSize", 4 * E, "an integer")
        self._need("numLayers", 2, "an integer")
        pos = self._need("positions", "learned", "learned, sinusoidal or relative")
        if pos == "learned":
            self._need("maxPositions", 64, 'needed by positions "learned"')
        if pos == "relative":
            self._need("maxRelativePosition", 4, 'needed by positions "relative"')
        limits = CONFIG_LIMITS["transformer"]  # numLayers (16) was checked with the other keys
        top = (limits["numLayersEncoderDecoderRelative" if pos == "relative" else
                      "numLayersEncoderDecoder"] if cfg["variant"] == "encoder-decoder"
               else limits["numLayers"])
        if not 1 <= cfg["numLayers"] <= top:
            raise ValueError(f'{type(self).__name__}: config "numLayers": {cfg["numLayers"]} is '
                             f"out of range (an integer in [1, {top}] for this variant)")
        if E % H:
            raise ValueError(f'{type(self).__name__}: config "numHeads": {H} does not divide '
                             f'"embeddingSize" {E}')
        sizes = self._tokenizer_sizes(tokenizer, {"src_vocab_size": src_vocab_size,
                                                  "tgt_vocab_size": tgt_vocab_size})
        E, H, F_, L = cfg["embeddingSize"], cfg["numHeads"], cfg["feedforwardSize"], cfg["numLayers"]
        Vs, Vt = sizes["src_vocab_size"], sizes["tgt_vocab_size"]
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
        self._init_own_parameters()

    def train(self, mode=True):
        """Always train mode: dropout is 0, so eval() would change nothing but send torch 1.13's
        nn.TransformerEncoderLayer down its fused fast path, which returns no weights."""
        return super().train(True)

    def forward(self, src, tgt=None, states=False):
        """One forward pass with autograd (Model.forward in JS): encoder / decoder: src ids [n];
        encoder-decoder: src ids [S] and the decoder input tgt ids [T] (bos first). -> dict
        logits [n or T, V_t] and attention: the JS result's maps, in its order (encoder self,
        then decoder self, then cross, each by layer then head), each a dict layer, head, kind
        ('self' or 'cross'), stack ('encoder' or 'decoder'), weights [rows, cols].
        states=True adds "states", every intermediate (transformer_states.states)."""
        who = f"{type(self).__name__}.forward"
        if self.variant == "encoder-decoder" and tgt is None:
            raise ValueError(f"{who}: needs the decoder input tgt (bos first)")
        src = self.ids(src, who)
        tgt = None if tgt is None else self.ids(tgt, who, "tgt")
        logits, store = forward(self, src, tgt)
        out = {"logits": logits, "attention": attention_maps(self, store)}
        if states:
            from .transformer_states import states as all_states
            out["states"] = all_states(self, src, tgt)
        return out

    def example_loss(self, example, label_smoothing=0.0):
        """encoder-decoder: (source, target) text; decoder: a text; encoder: (text, one label
        per token) -> the summed loss of `nll` (docs/training.md), label-smoothed by
        label_smoothing."""
        tok, ls = self.tokenizer, label_smoothing
        if self.variant == "encoder-decoder":
            src, tgt = self._pair(example, "(source, target)")
            return nll(self, tok.encode(src), tok.encode_target(tgt) + [tok.eos_id], ls)
        if self.variant == "decoder":
            return nll(self, tok.encode(example), label_smoothing=ls)
        text, labels = self._pair(example, "(text, [label per token])")
        return nll(self, tok.encode(text), [tok.tgt[x] if isinstance(x, str) else int(x)
                                           for x in labels], ls)

    @torch.no_grad()
    def run(self, text, max_length=None):
        """Model.run in JS: encoder: the argmax label per position; decoder: greedy
        continuation of text; encoder-decoder: greedy translation from bos. -> dict ids, tokens,
        output, log_probs (not for encoder), probs (each output token's probability: exp(log_probs);
        for encoder, the softmax probability of the label picked at each position) and min_prob
        (the weakest, a float), as JS's probs and minProb, logits and attention over the fed
        sequence; src_tokens and (decoder, encoder-decoder) fed_tokens label its maps."""
        src = self.ids(text, f"{type(self).__name__}.run")
        tgt_vocab = self.tokenizer.tgt_vocab or self.tokenizer.src_vocab
        if self.variant == "encoder":
            out = self(src)
            ids = [int(i) for i in out["logits"].argmax(-1)]
            tokens = [tgt_vocab[i] for i in ids]
            pick = torch.tensor(ids, device=out["logits"].device)[:, None]
            probs = torch.softmax(out["logits"], -1).gather(-1, pick)[:, 0]
            return {"ids": ids, "tokens": tokens, "output": " ".join(tokens), "probs": probs,
                    "min_prob": float(probs.min()),
                    "src_tokens": tokens_of(self.tokenizer, src), **out}
        max_length = count_of(max_length, f"{type(self).__name__}.run", "max_length",
                              self._keys.get("maxLength", 50))
        ids, lps, fed, _ = greedy(self, src, max_length)
        out = self(src, fed) if self.variant == "encoder-decoder" else self(fed)
        probs = torch.exp(torch.tensor(lps, dtype=torch.float64, device=device_of(self)))
        return {"ids": ids, "tokens": [tgt_vocab[i] for i in ids], "log_probs": lps,
                "probs": probs, "min_prob": float(probs.min()),
                "output": self.tokenizer.decode(ids), "fed": fed,
                "src_tokens": tokens_of(self.tokenizer, src),
                "fed_tokens": tokens_of(self.tokenizer, fed, True), **out}

    def ids(self, value, what, name="input"):
        """Text or ids of one sequence (src, or the decoder input tgt: name="tgt") -> a list of
        ids, checked (_inputs.ids_of: empty, batch, out of the vocabulary) and within
        maxPositions (learned positions), the JS wording."""
        ed = self.variant == "encoder-decoder"
        table = (self.tgt_embedding if name == "tgt" else self.src_embedding) if ed \
            else self.embedding
        tok = self.tokenizer
        encode = (tok.encode_target if name == "tgt" else tok.encode) if tok else None
        ids = ids_of(self, value, what, vocab=table.num_embeddings, encode=encode, name=name)
        P = self._keys.get("maxPositions") if self._keys["positions"] == "learned" else None
        if P is not None and len(ids) > P:
            raise ValueError(f'{what}: {name} has {len(ids)} tokens; this model takes at most '
                             f'{P} (config "maxPositions")')
        return ids

    def embed(self, table, ids):
        E = self._keys["embeddingSize"]
        x = table(torch.tensor([ids], device=device_of(self)))
        if self._keys.get("scaleEmbedding", False):
            x = x * math.sqrt(E)
        n = len(ids)
        if self._keys["positions"] == "learned":
            return x + self.pos_embedding.weight[:n]
        if self._keys["positions"] == "relative":
            return x
        return x + sinusoidal(n, E, x.dtype, x.device)


class TransformerSeq2Seq(Transformer):
    """The "transformer" architecture's encoder-decoder variant (nn.Transformer's layers): the
    same keywords as Transformer, variant fixed."""

    DEFAULT_VARIANT = "encoder-decoder"

    @classmethod
    def from_config(cls, config):
        if cls is TransformerSeq2Seq and config.get("variant") != "encoder-decoder":
            return Transformer.from_config(config)
        return super().from_config(config)


def attention_maps(model, store):
    """forward's store {(stack, kind, layer): [H, T, S]} -> the JS result's list of maps."""
    order = [("encoder", "self"), ("decoder", "self"), ("decoder", "cross")] \
        if model.variant == "encoder-decoder" else [("encoder", "self")]
    stack_name = (lambda s: s) if model.variant == "encoder-decoder" else (lambda s: model.variant)
    out = []
    for stack, kind in order:
        layer = 0
        while (stack, kind, layer) in store:
            w = store[(stack, kind, layer)]
            for h in range(w.shape[0]):
                out.append({"layer": layer, "head": h, "kind": kind, "stack": stack_name(stack),
                            "weights": w[h]})
            layer += 1
    return out


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
    src = model.ids(src, "transformer.forward")
    tgt = None if tgt is None else model.ids(tgt, "transformer.forward", "tgt")
    store, restore = {}, []
    dev = device_of(model)
    causal = lambda n: torch.ones(n, n, dtype=torch.bool, device=dev).triu(1)  # noqa: E731
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


def nll(model, src, tgt=None, label_smoothing=0.0):
    """The training loss of one example (docs/training.md), summed over its terms, with autograd:
    encoder-decoder: src, tgt (ending in eos), decoder fed bos, tgt[:-1]: sum_t -log p(tgt[t]);
    decoder: the sequence src: sum_{t < S-1} -log p(src[t+1] | src[<=t]);
    encoder: src and tgt = one label per position: sum_t -log p(tgt[t] | src). Each term
    label-smoothed by label_smoothing (_config.token_nll)."""
    ls = smoothing_of(label_smoothing, "transformer.nll")
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
    return token_nll(torch.log_softmax(logits, -1), target, ls)


def greedy(model, src, max_len):
    """Greedy decoding (decoder: continue src; encoder-decoder: from bos) -> ids, log-probs, the
    fed sequence and the smallest top-1 margin over the steps."""
    src = model.ids(src, "transformer.greedy")
    max_len = count_of(max_len, "transformer.greedy", "max_len", model._keys.get("maxLength", 50))
    tok = model.cfg["tokenizer"]
    eos = tok["tgtVocab"].index(tok["eos"])
    ed = model.variant == "encoder-decoder"
    # as the C generator: the fed sequence never outgrows maxPositions (the last emitted token
    # is not fed), so at most maxPositions tokens (encoder-decoder) or maxPositions - S + 1
    P = model._keys.get("maxPositions", CONFIG_LIMITS["transformer"]["maxPositions"])
    max_len = min(max_len, P if ed else P - len(src) + 1)
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
