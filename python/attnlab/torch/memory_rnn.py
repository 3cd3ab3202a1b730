"""PyTorch reference for attnlab's "memory-rnn" model (src/models/memory_rnn_model.c,
docs/models.md): an LSTMN, a self-attention RNN or a plain nn.LSTM over word embeddings, with a
language-model head or a sentence-classifier head.

Holds: `MemoryRNN`, an nn.Module computing exactly what the C model computes, whose state_dict
names are the names of the model file; `export(model, config, path)`, which writes that file
(F32 safetensors, the config JSON in __metadata__["config"]); `encode(config, text)`, the word
tokenizer (whitespace split, unknown words -> unk, bos/eos around the text when the tokenizer
names them); `forward(model, ids)`, the reference forward returning log-probabilities (lm) or
probabilities (classifier) and the attention weights; `loss(model, ids, label=None)`, the
summed training loss of one example with autograd.

    model = MemoryRNN(tok, cell="lstmn", head="lm")   # or MemoryRNN.from_config(config)
    r = model(model.encode("the cat sat"))    # logits [n, V], attention [[n, n]] (JS shapes)
    out = forward(model.double(), encode(config, "the cat sat"))
    out["logp"], out["dist"], out["weights"]  # lm; a classifier has out["probs"]

Maths (one sequence, no batch; a Python loop over t, nothing fused):
  embed     x_t = embedding(id_t)                                              [n, E]
  lstmn     (Cheng, Dong & Lapata 2016, section 3.1; gate order i, f, g, o)
            a_i = v^T tanh(W_h h_i + W_x x_t + W_ht h~_{t-1}), i < t;  s = softmax(a);
            h~_t = sum s_i h_i, c~_t = sum s_i c_i (h~_0 = c~_0 = 0: empty tape);
            [i; f; g; o] = W [h~_t; x_t] + b;  c_t = f*c~_t + i*g;  h_t = o*tanh(c_t)
  self-attention-rnn
            h_t = tanh(A [x_t; c_{t-1}] + b),  c_t = sum_{i<=t} alpha_i h_i,  c_{-1} = 0,
            alpha = softmax_i(v^T tanh(W_h h_i + W_s h_t))   ("align": "additive")
                  = softmax_i((W_K h_i)^T (W_Q h_t))          ("align": "dot")
  lstm      nn.LSTM(E, H) (batch_first, zero initial state); no attention (weights zeros)
  lm        logp_t = log_softmax(out(h_t)): the distribution of token t+1;
            loss = sum_{t < n-1} -logp_t[id_{t+1}]
  classifier
            f = h_{n-1} ("pool": "last") or mean_t h_t ("mean"); probs = softmax(classifier(f));
            loss = -log probs[label]
Initialisation (reset_parameters): PyTorch's defaults, as attnlab's createModel (docs/training.md):
embedding N(0, 1); nn.LSTM U(+-1/sqrt(H)); every other matrix [out, in] U(+-1/sqrt(in)); cell.b
U(+-1/sqrt(E + H)); cell.v U(+-1/sqrt(len)); out/classifier bias U(+-1/sqrt(H)).
Does not: batch, pad or mask (one sequence at a time: a batch or an empty input is refused by
name, _inputs.py), generate text. Tensors are made on the module's device.
"""

import json
import math

import torch
from torch import nn

from ..safetensors import f32, write_safetensors
from ..tokenizer import Tokenizer
from ._config import ConfigModule, smoothing_of, token_nll, tokens_of
from ._inputs import device_of, ids_of


def _p(*shape):
    return nn.Parameter(torch.empty(*shape))


class LSTMNCell(nn.Module):
    """cell.W_h [H, H], W_x [H, E], W_ht [H, H], v [H], W [4H, H+E], b [4H]."""

    def __init__(self, E, H):
        super().__init__()
        self.H = H
        self.W_h, self.W_x, self.W_ht, self.v = _p(H, H), _p(H, E), _p(H, H), _p(H)
        self.W, self.b = _p(4 * H, H + E), _p(4 * H)

    def forward(self, x, trace=None):
        """x [n, E] -> h [n, H], weights [n, n] (row t: s_t over i < t). trace (a dict,
        optional) gets scores [n, n] (a before the softmax, -inf for i >= t), memory [n, H] c_t,
        summary [n, H] h~_t, memorySummary [n, H] c~_t."""
        n, H = x.shape[0], self.H
        zero = x.new_zeros(H)
        hs, cs, rows, ht_prev = [], [], [], zero
        scores, hts, cts = [], [], []
        for t in range(n):
            if t == 0:
                ht, ct, s = zero, zero, x.new_zeros(0)
                a = s
            else:
                Hh, Cc = torch.stack(hs), torch.stack(cs)
                a = torch.tanh(Hh @ self.W_h.T + self.W_x @ x[t] + self.W_ht @ ht_prev) @ self.v
                s = torch.softmax(a, 0)
                ht, ct = s @ Hh, s @ Cc
            scores.append(torch.cat([a, x.new_full((n - t,), -math.inf)]))
            hts.append(ht)
            cts.append(ct)
            i, f, g, o = (self.W @ torch.cat([ht, x[t]]) + self.b).chunk(4)
            c = torch.sigmoid(f) * ct + torch.sigmoid(i) * torch.tanh(g)
            hs.append(torch.sigmoid(o) * torch.tanh(c))
            cs.append(c)
            rows.append(torch.cat([s, x.new_zeros(n - t)]))
            ht_prev = ht
        if trace is not None:
            trace.update(scores=torch.stack(scores), memory=torch.stack(cs),
                         summary=torch.stack(hts), memorySummary=torch.stack(cts))
        return torch.stack(hs), torch.stack(rows)


class SelfAttentionRNNCell(nn.Module):
    """cell.A [H, E+H], b [H]; additive W_h, W_s [da, H], v [da]; dot W_K, W_Q [dk, H]."""

    def __init__(self, E, H, da, align):
        super().__init__()
        self.H, self.align = H, align
        self.A, self.b = _p(H, E + H), _p(H)
        if align == "additive":
            self.W_h, self.W_s, self.v = _p(da, H), _p(da, H), _p(da)
        else:
            self.W_K, self.W_Q = _p(da, H), _p(da, H)

    def forward(self, x, trace=None):
        """x [n, E] -> h [n, H], weights [n, n] (row t: alpha_t over i <= t). trace (a dict,
        optional) gets scores [n, n] (e before the softmax, -inf for i > t) and summary [n, H]
        c_t (what replaces h_t at step t+1)."""
        n = x.shape[0]
        c, hs, rows = x.new_zeros(self.H), [], []
        scores, summary = [], []
        for t in range(n):
            h = torch.tanh(self.A @ torch.cat([x[t], c]) + self.b)
            hs.append(h)
            Hh = torch.stack(hs)
            if self.align == "additive":
                e = torch.tanh(Hh @ self.W_h.T + self.W_s @ h) @ self.v
            else:
                e = (Hh @ self.W_K.T) @ (self.W_Q @ h)
            a = torch.softmax(e, 0)
            c = a @ Hh
            rows.append(torch.cat([a, x.new_zeros(n - t - 1)]))
            scores.append(torch.cat([e, x.new_full((n - t - 1,), -math.inf)]))
            summary.append(c)
        if trace is not None:
            trace.update(scores=torch.stack(scores), summary=torch.stack(summary))
        return torch.stack(hs), torch.stack(rows)


class LSTMCellStack(nn.LSTM):
    """nn.LSTM(E, H) as a cell: x [n, E] -> h [n, H], zero weights (no attention)."""

    def forward(self, x, trace=None):  # noqa: D401
        h = super().forward(x[None])[0][0]
        if trace is not None:  # c_t of every step: the same LSTM one step at a time
            state, cs = None, []
            for t in range(x.shape[0]):
                state = super().forward(x[None, t:t + 1], state)[1]
                cs.append(state[1][0, 0])
            trace["memory"] = torch.stack(cs)
        return h, x.new_zeros(x.shape[0], x.shape[0])


class MemoryRNN(ConfigModule):
    """The "memory-rnn" architecture. Keywords are the config keys in snake_case
    (docs/models.md, "Architecture memory-rnn"): cell ('lstmn', 'self-attention' or
    'self-attention-rnn', 'lstm'), head ('lm', 'classifier'), align ('additive', 'dot'),
    embedding_size, hidden_size, attention_size, pool ('last', 'mean'), labels (classifier: a
    list of strings or a count). The vocabulary size comes from `tokenizer` or vocab_size."""

    ARCHITECTURE = "memory-rnn"
    KEYS = ("cell", "align", "embeddingSize", "hiddenSize", "attentionSize", "head", "pool",
            "labels")
    ENUMS = {"cell": ("lstmn", "self-attention-rnn", "lstm"), "align": ("additive", "dot"),
             "head": ("lm", "classifier"), "pool": ("last", "mean")}

    def __init__(self, tokenizer=None, *, vocab_size=None, cell=None, head=None,
                 embedding_size=None, hidden_size=None, labels=None, _strict=False, **options):
        super().__init__()
        if cell == "self-attention" and not _strict:
            cell = "self-attention-rnn"
        if isinstance(labels, int):
            labels = [str(i) for i in range(labels)]
        cfg = self._keys_from(dict(cell=cell, head=head, embedding_size=embedding_size,
                                   hidden_size=hidden_size, labels=labels, **options), _strict)
        kind = self._need("cell", "lstmn", "lstmn, self-attention-rnn or lstm")
        hd = self._need("head", "lm", "lm or classifier")
        E = self._need("embeddingSize", 32, "an integer")
        H = self._need("hiddenSize", 64, "an integer")
        if kind == "self-attention-rnn":
            self._need("attentionSize", H, 'needed by cell "self-attention-rnn"')
        if hd == "classifier" and "labels" not in cfg:
            raise ValueError('MemoryRNN: head "classifier" needs labels= (class names or a count)')
        V = self._tokenizer_sizes(tokenizer, {"vocab_size": vocab_size})["vocab_size"]
        self.E, self.H = E, H
        self.lm = cfg["head"] == "lm"
        self.mean = cfg.get("pool", "last") == "mean"
        self.embedding = nn.Embedding(V, E)
        kind = cfg["cell"]
        if kind == "lstmn":
            self.cell = LSTMNCell(E, H)
        elif kind == "self-attention-rnn":
            self.cell = SelfAttentionRNNCell(E, H, cfg["attentionSize"], cfg.get("align", "additive"))
        else:
            self.cell = LSTMCellStack(E, H, batch_first=True)
        if self.lm:
            self.out = nn.Linear(H, V)
        else:
            self.classifier = nn.Linear(H, len(cfg["labels"]))
        self.reset_parameters()

    @torch.no_grad()
    def reset_parameters(self):
        """PyTorch's default schemes (see the module docstring)."""
        lstm = isinstance(self.cell, nn.LSTM)
        for name, p in self.named_parameters():
            if name == "embedding.weight":
                nn.init.normal_(p)
                continue
            fan = p.shape[1] if p.dim() == 2 else self.H
            if lstm and name.startswith("cell."):
                fan = self.H
            elif name == "cell.b":
                fan = self.E + self.H
            elif name == "cell.v":
                fan = p.shape[0]
            nn.init.uniform_(p, -1 / math.sqrt(fan), 1 / math.sqrt(fan))

    def logits(self, ids, trace=None):
        """ids (list of ints) -> logits [n, V] (lm) or [C], weights [n, n]. trace (a dict,
        optional) gets the states of docs/states.md (forward(states=True))."""
        x = self.embedding(torch.tensor(ids, device=device_of(self)))
        h, w = self.cell(x, trace)
        if trace is not None:
            kind = self._keys["cell"]
            trace.update(embedded=x, hidden=h)
            if kind == "self-attention-rnn":
                trace.update(cell="sarnn", align=self._keys.get("align", "additive"))
            else:
                trace["cell"] = kind
            if kind != "lstm":
                trace["weights"] = w
        if self.lm:
            return self.out(h), w
        return self.classifier(h.mean(0) if self.mean else h[-1]), w

    @property
    def labels(self):
        return self._keys.get("labels")

    def ids(self, value, what):
        """Text (through encode: bos / eos around it when the tokenizer names them, as in JS) or
        ids of one sequence -> a list of ids, checked (_inputs.ids_of: empty, batch, vocabulary)."""
        return ids_of(self, value, what, vocab=self.embedding.num_embeddings,
                      encode=self.encode if self.tokenizer is not None else None)

    def encode(self, text):
        """Text -> ids as the JS tokenizer reads it: normalised words, bos / eos around them
        when the tokenizer names them."""
        tok = self.tokenizer
        return ([tok.src[tok.bos]] if tok.bos is not None else []) + tok.encode(text) + \
            ([tok.src[tok.eos]] if tok.eos is not None else [])

    def forward(self, ids, states=False):
        """One sequence (ids [n]) with autograd -> dict logits ([n, V] lm, [C] classifier),
        log_probs (lm: [n, V] log-distributions; log p of token t+1 is log_probs[t, ids[t+1]])
        or probs (classifier, [C]), attention: the JS maps' weights, [[n, n]] (row t: what the
        cell read at step t), [] for the "lstm" cell. states=True adds "states", the
        intermediate states with the names of `{ states: true }` in JS (docs/states.md): cell
        ('lstmn', 'sarnn', 'lstm'), align (sarnn), embedded [n, E], hidden [n, H], memory
        [n, H] (lstmn, lstm), scores, weights [n, n], summary [n, H] (lstmn, sarnn),
        memorySummary [n, H] (lstmn)."""
        ids = self.ids(ids, "MemoryRNN.forward")
        trace = {} if states else None
        logits, w = self.logits(ids, trace)
        out = {"logits": logits, "attention": [] if isinstance(self.cell, nn.LSTM) else [w]}
        if states:
            out["states"] = trace
        if self.lm:
            out["log_probs"] = torch.log_softmax(logits, -1)
        else:
            out["probs"] = torch.softmax(logits, -1)
        return out

    def example_loss(self, example, label_smoothing=0.0):
        """lm: a text -> sum_t -log p(token t+1); classifier: (text, label) -> -log p(label);
        label-smoothed by label_smoothing."""
        ls = label_smoothing
        if self.lm:
            return loss(self, self.encode(example), label_smoothing=ls)[0]
        text, label = self._pair(example, "(text, label)")
        return loss(self, self.encode(text), self._label_id(label), ls)[0]

    @torch.no_grad()
    def run(self, text):
        """Model.run in JS: lm: ids, log_probs [n-1] of each next token, perplexity, attention;
        classifier: label, label_id, probs, attention; both: tokens (as JS's)."""
        ids = self.ids(text, "MemoryRNN.run")
        out = self(ids)
        if self.lm:
            dev = out["log_probs"].device
            lp = out["log_probs"][torch.arange(len(ids) - 1, device=dev),
                                  torch.tensor(ids[1:], device=dev)]
            ppl = float(torch.exp(-lp.mean())) if len(ids) > 1 else None
            return {"ids": ids, "token_log_probs": lp, "perplexity": ppl,
                    "tokens": tokens_of(self.tokenizer, ids), **out}
        best = int(out["probs"].argmax())
        return {"label": self.labels[best], "label_id": best, "ids": ids,
                "tokens": tokens_of(self.tokenizer, ids), **out}


@torch.no_grad()
def forward(model, ids):
    """-> dict: lm: dist [n, V] log-distributions, logp [n-1]; classifier: probs [C], logits;
    both: weights [n, n]."""
    ids = model.ids(ids, "memory_rnn.forward")
    logits, w = model.logits(ids)
    out = {"weights": w, "logits": logits}
    if model.lm:
        dist = torch.log_softmax(logits, -1)
        dev = dist.device
        out.update(dist=dist, logp=dist[torch.arange(len(ids) - 1, device=dev),
                                        torch.tensor(ids[1:], device=dev)])
    else:
        out["probs"] = torch.softmax(logits, -1)
    return out


def loss(model, ids, label=None, label_smoothing=0.0):
    """The summed loss of one training example (with autograd) and its number of terms; the
    cross-entropy label-smoothed by label_smoothing (_config.token_nll)."""
    ls = smoothing_of(label_smoothing, "memory_rnn.loss")
    ids = model.ids(ids, "memory_rnn.loss")
    logits, _ = model.logits(ids)
    if model.lm:
        return token_nll(torch.log_softmax(logits[:-1], -1), list(ids[1:]), ls), len(ids) - 1
    return token_nll(torch.log_softmax(logits, -1)[None], [label], ls), 1


def encode(cfg, text):
    """The word tokenizer of the config (normalisation included): unknown words -> unk (first
    index of a repeat), tokenizer.bos / eos (when named) before and after the words."""
    tok = Tokenizer.from_config(cfg)
    return ([tok.src[tok.bos]] if tok.bos is not None else []) + tok.encode(text) + \
        ([tok.src[tok.eos]] if tok.eos is not None else [])


def export(model, config, path):
    """Write model's state_dict as F32 safetensors with json.dumps(config) in
    __metadata__["config"]."""
    tensors = {k: f32(v) for k, v in model.state_dict().items()}
    write_safetensors(path, tensors, {"config": json.dumps(config, separators=(",", ":"))})
