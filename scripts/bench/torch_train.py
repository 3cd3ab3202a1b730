"""torch_train.py: the lab presets' models trained in PyTorch the way a researcher would, for the
train:<preset> rows of scripts/bench.mjs (scripts/bench/train.mjs; torch_server.py's "labtrain").

The module is the package's own reference (python/attnlab/torch: Seq2Seq, Transformer), loaded
from the safetensors file attnlab's createModel() wrote (the same initial weights); only the
loss is written here, batched:
  seq2seq      src [B, S] through the embedding and the encoder on packed sequences (LSTM / GRU /
               RNN, uni- or bidirectional); the decoder steps all B sentences at once ([B, H]
               states), padded keys masked (-inf) in the softmax; additive attention projects the
               keys ONCE per batch (K W_kᵀ + b, [B, S, da]), the query per step; Bahdanau
               (attend s_{t-1}, cell on [y; c], out([s_t; c])) or Luong (cell on [y; h~_{t-1}]
               with input feeding, attend h_t, h~_t = tanh(W_c [c; h_t]), out(h~_t)); the output
               layer and log-softmax ONCE over all [B, T] decoder features.
  transformer  nn.TransformerEncoder / Decoder (the package's modules: pre-norm, learned or
               relative positions) on the padded batch with src_key_padding_mask and
               memory_key_padding_mask, the causal mask on the decoder (padded target positions
               come after every real one, so they are only masked in the loss).
  loss         sum over real target tokens (eos included) of -log p / number of target tokens,
               as attnlab's trainer (docs/training.md).
An optimiser step: zero_grad, loss, backward, clip_grad_norm_ (global norm, attnlab's clip),
Adam (attnlab's defaults: betas 0.9 / 0.999, eps 1e-8).
Deliberately no timing or checking (bench.mjs and train.mjs do both).
"""
import json

import numpy as np
import torch
from torch import nn


def load_batches(path):
    """The batches file of train.mjs: JSON {bos, batches: [{B, S, T, src, srcLen, tgt, tgtLen}]}
    (ids padded with 0, row-major) -> (bos, list of (src, src_len, tgt, tgt_len) long tensors)."""
    with open(path) as f:
        spec = json.load(f)
    out = []
    for b in spec["batches"]:
        B, S, T = b["B"], b["S"], b["T"]
        out.append((torch.tensor(b["src"], dtype=torch.long).reshape(B, S),
                    torch.tensor(b["srcLen"], dtype=torch.long),
                    torch.tensor(b["tgt"], dtype=torch.long).reshape(B, T),
                    torch.tensor(b["tgtLen"], dtype=torch.long)))
    return int(spec["bos"]), out


def masked_nll(logits, tgt, tgt_len):
    """logits [B, T, V] -> sum of -log p(tgt) over the real tokens / their number."""
    T = tgt.shape[1]
    logp = torch.log_softmax(logits, -1)
    nll = -logp.gather(2, tgt[:, :, None]).squeeze(2)
    real = torch.arange(T)[None, :] < tgt_len[:, None]
    return (nll * real).sum() / tgt_len.sum()


def seq2seq_loss(model, bos, src, src_len, tgt, tgt_len):
    """The batched teacher-forced loss of a python/attnlab/torch/seq2seq.py Seq2Seq."""
    B, S = src.shape
    T = tgt.shape[1]
    x = model.src_embedding(src)
    packed = nn.utils.rnn.pack_padded_sequence(x, src_len, batch_first=True, enforce_sorted=False)
    out, hn = model.encoder(packed)
    keys, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=S)
    if model.lstm:
        hn, cn = hn
    h = hn[-model.dirs:].transpose(0, 1).reshape(B, -1)  # [forward; reverse] of the top layer
    c = cn[-model.dirs:].transpose(0, 1).reshape(B, -1) if model.lstm else None
    pad = (torch.arange(S)[None, :] >= src_len[:, None])[:, :, None]  # [B, S, 1], True = padding
    att = model.attention
    kind = None if att is None else att.kind
    if kind not in (None, "additive", "dot", "general"):
        raise ValueError(f"attention {kind!r} has no batched form here")
    if kind == "additive":
        kproj = keys @ att.W_k.T + att.bias  # [B, S, da]: once per batch, not per decoder step
    elif kind == "general":
        kproj = keys @ att.W_a.T  # q . W_a h_j: the keys projected once, [B, S, H]

    def attend(q):  # q [B, H] -> context [B, H]
        if kind == "additive":
            e = torch.tanh((q @ att.W_q.T)[:, None, :] + kproj) @ att.v[:, None]  # [B, S, 1]
        else:
            e = (keys if kind == "dot" else kproj) @ q[:, :, None]  # [B, S, 1]
        a = torch.softmax(e.masked_fill(pad, float("-inf")), 1)
        return (a * keys).sum(1)

    ys = torch.cat([torch.full((B, 1), bos, dtype=torch.long), tgt[:, :-1]], 1)
    emb = model.tgt_embedding(ys)  # [B, T, E]: every step's input at once (teacher forcing)
    feed = torch.zeros_like(h)
    feats = []
    for t in range(T):
        e = emb[:, t]
        ctx = None
        if model.style == "bahdanau":
            if att is not None:
                ctx = attend(h)
                e = torch.cat([e, ctx], 1)
        elif model.feed:
            e = torch.cat([e, feed], 1)
        if model.lstm:
            h, c = model.decoder(e, (h, c))
        else:
            h = model.decoder(e, h)
        if model.style == "bahdanau":
            feats.append(h if ctx is None else torch.cat([h, ctx], 1))
        elif att is not None:
            feed = torch.tanh(torch.cat([attend(h), h], 1) @ att.W_c.T)
            feats.append(feed)
        else:  # Luong without attention: h~_t = h_t (fed back with input feeding)
            feed = h
            feats.append(h)
    return masked_nll(model.out(torch.stack(feats, 1)), tgt, tgt_len)


def transformer_loss(model, bos, src, src_len, tgt, tgt_len):
    """The batched teacher-forced loss of a python/attnlab/torch/transformer.py encoder-decoder."""
    B, S = src.shape
    T = tgt.shape[1]
    cfg = model._keys
    E = cfg["embeddingSize"]

    def embed(table, ids):
        x = table(ids)
        if cfg.get("scaleEmbedding", False):
            x = x * E ** 0.5
        n = ids.shape[1]
        if cfg["positions"] == "learned":
            return x + model.pos_embedding.weight[:n]
        if cfg["positions"] == "relative":
            return x
        from attnlab.torch.transformer import sinusoidal
        return x + sinusoidal(n, E, x.dtype)

    src_pad = torch.arange(S)[None, :] >= src_len[:, None]  # True = padding
    causal = torch.ones(T, T, dtype=torch.bool).triu(1)     # True = hidden
    ys = torch.cat([torch.full((B, 1), bos, dtype=torch.long), tgt[:, :-1]], 1)
    mem = model.encoder(embed(model.src_embedding, src), src_key_padding_mask=src_pad)
    y = model.decoder(embed(model.tgt_embedding, ys), mem, tgt_mask=causal,
                      memory_key_padding_mask=src_pad)
    return masked_nll(model.out(y), tgt, tgt_len)


class LabTrain:
    """One train:<preset> row: the model from its file, the batches, Adam and clipping.
    step() trains on the next batch (cycling) -> [loss, gradient norm before clipping]."""

    def __init__(self, model_path, batches_path, lr, clip):
        import attnlab
        self.model = attnlab.load(model_path)
        self.arch = self.model.config["architecture"]
        self.loss_fn = {"seq2seq": seq2seq_loss, "transformer": transformer_loss}[self.arch]
        self.bos, self.batches = load_batches(batches_path)
        self.params = list(self.model.parameters())
        self.opt = torch.optim.Adam(self.params, lr=lr, betas=(0.9, 0.999), eps=1e-8)
        self.clip = clip if clip > 0 else float("inf")
        self.i = 0

    def loss(self, k):
        return self.loss_fn(self.model, self.bos, *self.batches[k])

    def gradients(self, k=0):
        """The loss and {name: gradient} of batch k, no update (the Python-side check)."""
        with torch.enable_grad():
            self.opt.zero_grad()
            loss = self.loss(k)
            loss.backward()
        return float(loss), {n: p.grad.detach().clone() for n, p in self.model.named_parameters()}

    def step(self):
        k = self.i % len(self.batches)
        self.i += 1
        with torch.enable_grad():
            self.opt.zero_grad()
            loss = self.loss(k)
            loss.backward()
            norm = torch.nn.utils.clip_grad_norm_(self.params, self.clip)
            self.opt.step()
        return [float(loss), float(norm)]

    def describe(self):
        if self.arch == "seq2seq":
            a = self.model.attention
            kind = "no attention" if a is None else f"{a.kind} attention"
            additive = a is not None and a.kind == "additive"
            extra = "; keys projected once per batch" if additive else ""
            return (f"batched seq2seq ({kind}, {self.model.style}; packed encoder, [B, H] decoder "
                    f"steps, masked softmax{extra}; one output layer over [B, T]), Adam, "
                    f"clip_grad_norm_")
        return ("batched nn.TransformerEncoder/Decoder (padding masks, causal mask; "
                f"{self.model._keys['positions']} positions), Adam, clip_grad_norm_")


def sgemm_gflops(n=256, seconds=0.3):
    """GF/s of an n³ float32 matrix product on this process's BLAS and thread count."""
    a, b = torch.randn(n, n), torch.randn(n, n)
    for _ in range(3):
        torch.mm(a, b)
    import time
    reps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        torch.mm(a, b)
        reps += 1
    return 2 * n ** 3 * reps / (time.perf_counter() - t0) / 1e9


def blas_info():
    """Which BLAS this process loaded (from /proc/self/maps), and torch's own build report."""
    libs = set()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                p = line.split()[-1] if len(line.split()) >= 6 else ""
                if "blas" in p or "lapack" in p:
                    libs.add(p)
    except OSError:
        pass
    return {"libraries": sorted(libs), "config": torch.__config__.show(),
            "threads": torch.get_num_threads(), "sgemm256GFs": round(sgemm_gflops(), 2),
            "numpy": np.__version__}
