"""PyTorch reference for attnlab's "seq2seq" model (src/models/seq2seq.c, docs/models.md).

Holds: `Seq2Seq`, an nn.Module computing exactly what the C model computes, whose state_dict
names are the names of the model file (nn.Embedding, nn.LSTM / GRU / RNN, nn.LSTMCell / GRUCell /
RNNCell, nn.Linear); `export(model, config, path)`, which writes that file (F32 safetensors, the
config JSON in __metadata__["config"]; attnlab.export is the public way); and three ways to run
it: `greedy` (argmax until eos or max_length, eos included), `beam` (the C beam search, for
cross-checks) and `score` (teacher forcing: log-probs, alignments and local p_t).
`Seq2Seq.forward(src, tgt)` is `score` with autograd, for training.

    model = Seq2Seq(tok, cell='lstm', attention='additive', hidden_size=64)   # or from_config(c)
    out = model(src_ids, tgt_ids)              # log_probs [T, V], attention [T, S], positions [T]
    ids, logp, att, pos, margin = greedy(model.double(), [4, 5, 6])

Maths (same order of operations as the C code, one sentence, no batch):
  encoder  x = src_embedding(src); out, h_n = nn.LSTM/GRU/RNN(x) (numLayers, hiddenSize/2 per
           direction when bidirectional, batch_first); keys = out [S, H]; the decoder starts from
           the top layer's [forward; reverse] final state (LSTM: c too).
  step t   y = tgt_embedding(previous token, bos at t = 0)
           bahdanau: c, a = attend(s_{t-1}); s_t = cell([y; c], s_{t-1}); logits = out([s_t; c])
           luong:    h_t = cell([y; h~_{t-1}] or y, h_{t-1}); c, a = attend(h_t);
                     h~_t = tanh(W_c [c; h_t]); logits = out(h~_t)
           none:     s_t = cell(y, s_{t-1}); logits = out(s_t)
  attend   additive  e_j = v . tanh(W_q q + W_k h_j + bias)               (Bahdanau 2015)
           dot / general / concat   q . h_j,  q . W_a h_j,  v_a . tanh(W_a [q; h_j])  (Luong 2015)
           local-m / local-p   p_t = t or S * sigmoid(v_p . tanh(W_p q)); window: integers j with
                     p_t - D <= j <= p_t + D (clipped), softmax over the window, times
                     exp(-(j - p_t)^2 / (2 (D/2)^2)), not renormalised
           key-query   a = softmax((W_K h_j) . (W_Q q) [/ sqrt(dk)]), c = sum_j a_j W_V h_j
One sequence a call: a batch ([2, n] ids, a list of texts) or an empty input is refused by name
(_inputs.py); tensors are made on the module's device, so `.to("cuda")` runs as on the CPU.
Does not: batch, or train by itself (Seq2Seq.fit, or a loop over example_loss: docs/python.md).
"""

import json
import math

import torch
from torch import nn

from ..safetensors import f32, write_safetensors
from ._config import ConfigModule, smoothing_of, token_nll, tokens_of
from ._inputs import count_of, device_of, ids_of

CELLS = {"lstm": (nn.LSTM, nn.LSTMCell), "gru": (nn.GRU, nn.GRUCell), "rnn": (nn.RNN, nn.RNNCell)}
LUONG = ("dot", "general", "concat", "local-m", "local-p")


def _p(*shape):
    return nn.Parameter(torch.empty(*shape))


class Attention(nn.Module):
    """The attention of a seq2seq config; parameter names are the tensor names under
    "attention." (W_q, W_k, bias, v, W_a, v_a, W_c, W_p, v_p, W_Q, W_K, W_V)."""

    def __init__(self, cfg):
        super().__init__()
        H, a = cfg["hiddenSize"], cfg["attention"]
        self.kind = a
        self.score = {"dot": "dot", "general": "general", "concat": "concat"}.get(
            a, cfg.get("score", "general"))
        self.window = cfg.get("window")
        self.scaled = cfg.get("scaled", True)
        if a == "additive":
            da = cfg["attentionSize"]
            self.W_q, self.W_k, self.bias, self.v = _p(da, H), _p(da, H), _p(da), _p(da)
        elif a == "key-query":
            dk, dv = cfg["keySize"], cfg["valueSize"]
            self.W_Q, self.W_K, self.W_V = _p(dk, H), _p(dk, H), _p(dv, H)
        elif a in LUONG:
            if self.score == "general":
                self.W_a = _p(H, H)
            elif self.score == "concat":
                da = cfg["attentionSize"]
                self.W_a, self.v_a = _p(da, 2 * H), _p(da)
            if a == "local-p":
                dp = cfg["positionSize"]
                self.W_p, self.v_p = _p(dp, H), _p(dp)
        dc = cfg["valueSize"] if a == "key-query" else H
        if cfg["style"] == "luong":
            self.W_c = _p(H, dc + H)

    def forward(self, q, keys, t, trace=None):
        """q [H], keys [S, H], t the output step -> context [dc], weights [S], p_t (a float).
        trace (a dict, optional) gets "scores": e [S] before the softmax (local: before the
        Gaussian, -inf outside the window)."""
        S = keys.shape[0]
        p = 0.0
        if trace is None:
            trace = {}
        if self.kind == "additive":
            e = torch.tanh(self.W_q @ q + self.bias + keys @ self.W_k.T) @ self.v
            a = torch.softmax(e, -1)
            trace["scores"] = e
            return a @ keys, a, p
        if self.kind == "key-query":
            e = (keys @ self.W_K.T) @ (self.W_Q @ q)
            if self.scaled:
                e = e / math.sqrt(self.W_Q.shape[0])
            a = torch.softmax(e, -1)
            trace["scores"] = e
            return a @ (keys @ self.W_V.T), a, p
        if self.score == "dot":
            e = keys @ q
        elif self.score == "general":
            e = keys @ (self.W_a.T @ q)
        else:
            H = q.shape[0]
            e = torch.tanh(q @ self.W_a[:, :H].T + keys @ self.W_a[:, H:].T) @ self.v_a
        if self.kind in ("local-m", "local-p"):
            if self.kind == "local-m":
                pt = torch.tensor(float(t), dtype=q.dtype, device=q.device)
            else:
                pt = S * torch.sigmoid(self.v_p @ torch.tanh(self.W_p @ q))
            D = float(self.window)
            j = torch.arange(S, dtype=q.dtype, device=q.device)
            inside = (j >= pt.detach() - D) & (j <= pt.detach() + D)
            a = q.new_zeros(S)
            if inside.any():
                a = q.new_zeros(S).masked_scatter(
                    inside, torch.softmax(e[inside], -1))
            a = a * torch.exp(-(j - pt) ** 2 / (2 * (D / 2) ** 2))
            p = float(pt)
            trace["scores"] = torch.where(inside, e, torch.full_like(e, -math.inf))
        else:
            a = torch.softmax(e, -1)
            trace["scores"] = e
        return a @ keys, a, p


class Seq2Seq(ConfigModule):
    """The "seq2seq" architecture. Keywords are the config keys in snake_case (docs/models.md,
    "Config keys"): cell ('lstm', 'gru', 'rnn'), attention ('additive', 'dot', 'general',
    'concat', 'local-m', 'local-p', 'key-query', 'none'), style ('bahdanau', 'luong'; default:
    bahdanau for additive, key-query and none, luong for the Luong scores), embedding_size,
    hidden_size, num_layers, bidirectional, input_feeding, score, attention_size, window,
    position_size, key_size, value_size, scaled, nonlinearity, max_length. The vocabulary
    sizes come from `tokenizer` (an attnlab.Tokenizer with bos and eos) or src_vocab_size /
    tgt_vocab_size."""

    ARCHITECTURE = "seq2seq"
    KEYS = ("cell", "nonlinearity", "embeddingSize", "hiddenSize", "numLayers", "bidirectional",
            "attention", "style", "inputFeeding", "score", "attentionSize", "window",
            "positionSize", "keySize", "valueSize", "scaled", "maxLength")
    ENUMS = {"cell": ("lstm", "gru", "rnn"), "nonlinearity": ("tanh", "relu"),
             "attention": ("none", "additive", "dot", "general", "concat", "local-m", "local-p",
                           "key-query"),
             "style": ("bahdanau", "luong"), "score": ("dot", "general", "concat")}

    def __init__(self, tokenizer=None, *, src_vocab_size=None, tgt_vocab_size=None, cell=None,
                 attention=None, style=None, embedding_size=None, hidden_size=None,
                 num_layers=None, _strict=False, **options):
        super().__init__()
        keys = self._keys_from(dict(cell=cell, attention=attention, style=style,
                                    embedding_size=embedding_size, hidden_size=hidden_size,
                                    num_layers=num_layers, **options), _strict)
        a = self._need("attention", "additive", "none, additive, dot, ...")
        self._need("cell", "lstm", "lstm, gru or rnn")
        self._need("style", "luong" if a in LUONG else "bahdanau", "bahdanau or luong")
        self._need("embeddingSize", 32, "an integer")
        H = self._need("hiddenSize", 64, "an integer")
        self._need("numLayers", 1, "an integer")
        local = a in ("local-m", "local-p")
        if a in ("additive", "concat") or (local and keys.get("score") == "concat"):
            self._need("attentionSize", H, f'needed by attention "{a}"')
        if local:
            self._need("window", 4, f'needed by attention "{a}"')
        if a == "local-p":
            self._need("positionSize", H, 'needed by attention "local-p"')
        if a == "key-query":
            self._need("keySize", H, 'needed by attention "key-query"')
            self._need("valueSize", H, 'needed by attention "key-query"')
        sizes = self._tokenizer_sizes(tokenizer, {"src_vocab_size": src_vocab_size,
                                                  "tgt_vocab_size": tgt_vocab_size})
        self._build(keys, sizes["src_vocab_size"], sizes["tgt_vocab_size"])
        self._init_own_parameters()

    @property
    def bos(self):
        return self.tokenizer.bos_id if self.tokenizer is not None else -1

    @property
    def eos(self):
        return self.tokenizer.eos_id if self.tokenizer is not None else -1

    def _build(self, cfg, Vs, Vt):
        E, H, L = cfg["embeddingSize"], cfg["hiddenSize"], cfg["numLayers"]
        bi = cfg.get("bidirectional", False)
        if bi and H % 2:
            raise ValueError(f'Seq2Seq: config "hiddenSize": {H} must be even when bidirectional')
        a, style = cfg["attention"], cfg["style"]
        self.Vs, self.Vt = Vs, Vt
        self.max_length = cfg.get("maxLength", 50)
        self.src_embedding = nn.Embedding(self.Vs, E)
        self.tgt_embedding = nn.Embedding(self.Vt, E)
        Layer, Cell = CELLS[cfg["cell"]]
        extra = {"nonlinearity": cfg.get("nonlinearity", "tanh")} if cfg["cell"] == "rnn" else {}
        self.encoder = Layer(E, H // 2 if bi else H, L, batch_first=True, bidirectional=bi, **extra)
        dc = 0 if a == "none" else cfg["valueSize"] if a == "key-query" else H
        feed = cfg.get("inputFeeding", False)
        din = E + dc if style == "bahdanau" else E + (H if feed else 0)
        self.decoder = Cell(din, H, **extra)
        self.attention = Attention(cfg) if a != "none" else None
        self.out = nn.Linear(H + dc if style == "bahdanau" else H, self.Vt)
        self.style, self.feed, self.dc, self.H = style, feed, dc, H
        self.lstm = cfg["cell"] == "lstm"
        self.dirs = 2 if bi else 1

    def forward(self, src, tgt, states=False):
        """Teacher forcing with autograd (Model.score in JS): src ids [S], tgt ids [T] (eos at
        the end to score it) -> dict log_probs [T, V] (log p of every word at each step; the
        loss is -log_probs[t, tgt[t]] summed), attention [T, S], positions [T] (p_t of local
        attention, else 0). states=True adds "states", the intermediate states with the names
        of `{ states: true }` in JS (docs/states.md): style, attention, embedded [S, E],
        encoder [S, H], initial [H], query [T, H], scores [T, S], weights [T, S], context
        [T, dc], decoder [T, H], attentional [T, H] (luong), positions [T] (local),
        logProbs [T, V]; query, scores and context absent without attention. Greedy decoding's
        states are these with tgt = its output."""
        src = ids_of(self, src, "Seq2Seq.forward", vocab=self.Vs)
        tgt = ids_of(self, tgt, "Seq2Seq.forward", vocab=self.Vt, name="tgt",
                     encode=self.tokenizer.encode_target if self.tokenizer else None)
        keys, state = self.encode(src)
        init = state[0]
        dists, atts, pos, traces = [], [], [], []
        for t in range(len(tgt)):
            trace = {} if states else None
            logp, att, p, state = self.step(keys, state, tgt[t - 1] if t else self.bos, t, trace)
            dists.append(logp)
            atts.append(att)
            pos.append(p)
            traces.append(trace)
        out = {"log_probs": torch.stack(dists), "attention": torch.stack(atts),
               "positions": torch.tensor(pos, dtype=keys.dtype, device=keys.device)}
        if states:
            out["states"] = self._states(src, keys, init, traces, out)
        return out

    def _states(self, src, keys, init, traces, out):
        """The states dict of forward(states=True) from the per-step traces."""
        cfg = self._keys
        st = {"style": self.style, "attention": cfg["attention"],
              "embedded": self.src_embedding.weight[torch.tensor(src, device=keys.device)],
              "encoder": keys,
              "initial": init}
        names = ["query", "scores", "context"] if self.attention is not None else []
        if self.attention is not None and self.style == "luong":
            names.append("attentional")
        for name in names + ["decoder"]:
            st[name] = torch.stack([tr[name] for tr in traces])
        st["weights"] = out["attention"]
        if cfg["attention"] in ("local-m", "local-p"):
            st["positions"] = out["positions"]
        st["logProbs"] = out["log_probs"]
        return st

    def example_loss(self, example, label_smoothing=0.0):
        """(source text, target text) -> sum_t -log p(target[t]), eos included (label-smoothed
        by label_smoothing: _config.token_nll)."""
        src, tgt = self._pair(example, "(source, target)")
        t = self.tokenizer.encode_target(tgt) + [self.eos]
        return nll(self, self.tokenizer.encode(src), t, label_smoothing)

    @torch.no_grad()
    def run(self, text, max_length=None, beam_width=1):
        """Decoding of text (or source ids), as Model.run in JS: greedy, or the C beam search
        with beam_width > 1 (then the winner's per-step values, from teacher forcing). -> dict
        output (text, eos left out), ids (eos included), log_probs [T], probs [T] (each output
        token's probability, exp(log_probs), as JS's probs), min_prob (the weakest, a float; as
        JS's minProb), attention [T, S], positions [T], tokens (the ids' target tokens, as JS's)
        and src_tokens (the source's; the labels attnlab.show draws)."""
        src = ids_of(self, text, "Seq2Seq.run", vocab=self.Vs)
        max_length = count_of(max_length, "Seq2Seq.run", "max_length")
        beam_width = count_of(beam_width, "Seq2Seq.run", "beam_width")
        if beam_width > 1:
            ids = beam(self, src, beam_width, max_length)
            lps, att, pos, _ = score(self, src, ids)
        else:
            ids, lps, att, pos, _ = greedy(self, src, max_length)
        probs = torch.exp(lps)
        return {"output": self.tokenizer.decode(ids) if self.tokenizer is not None else None,
                "ids": ids, "log_probs": lps, "probs": probs, "min_prob": float(probs.min()),
                "attention": att, "positions": pos, "src": src,
                "tokens": tokens_of(self.tokenizer, ids, True), "src_tokens": tokens_of(self.tokenizer, src)}

    def encode(self, src):
        """src: list of ids -> keys [S, H], the decoder's initial state (h, c, h~)."""
        x = self.src_embedding(torch.tensor([src], device=device_of(self)))
        out, hn = self.encoder(x)
        if self.lstm:
            hn, cn = hn
        h0 = hn[-self.dirs:, 0].reshape(-1)          # [forward; reverse] of the top layer
        c0 = cn[-self.dirs:, 0].reshape(-1) if self.lstm else torch.zeros_like(h0)
        return out[0], (h0, c0, torch.zeros_like(h0))

    def step(self, keys, state, y, t, trace=None):
        """One decoder step -> (log-probs [Vt], attention [S], p_t, new state). trace (a dict,
        optional) gets what the step computed: query, scores, context, decoder, attentional."""
        h, c, feed = state
        if trace is None:
            trace = {}
        e = self.tgt_embedding.weight[y]
        S = keys.shape[0]
        att, p = keys.new_zeros(S), 0.0

        def cell(x):
            if self.lstm:
                return self.decoder(x[None], (h[None], c[None]))
            return self.decoder(x[None], h[None]), None

        if self.style == "bahdanau":
            ctx = None
            if self.attention is not None:
                ctx, att, p = self.attention(h, keys, t, trace)
                trace.update(query=h, context=ctx)
                e = torch.cat([e, ctx])
            hn, cn = cell(e)
            hn = hn[0]
            cn = cn[0] if cn is not None else torch.zeros_like(hn)
            feat = hn if ctx is None else torch.cat([hn, ctx])
            new_feed = torch.zeros_like(hn)
        else:
            if self.feed:
                e = torch.cat([e, feed])
            hn, cn = cell(e)
            hn = hn[0]
            cn = cn[0] if cn is not None else torch.zeros_like(hn)
            if self.attention is not None:
                ctx, att, p = self.attention(hn, keys, t, trace)
                new_feed = torch.tanh(self.attention.W_c @ torch.cat([ctx, hn]))
                trace.update(query=hn, context=ctx, attentional=new_feed)
            else:
                new_feed = hn
            feat = new_feed
        trace["decoder"] = hn
        logp = torch.log_softmax(self.out(feat), -1)
        return logp, att, p, (hn, cn, new_feed)


@torch.no_grad()
def greedy(model, src, max_length=None):
    """-> ids, per-step log-probs of the chosen ids, attention [T, S], p_t [T] (lists/tensors)."""
    src = ids_of(model, src, "seq2seq.greedy", vocab=model.Vs)
    max_length = count_of(max_length, "seq2seq.greedy", "max_length", model.max_length)
    keys, state = model.encode(src)
    y, ids, lps, atts, pos, margins = model.bos, [], [], [], [], []
    for t in range(max_length):
        logp, att, p, state = model.step(keys, state, y, t)
        top = torch.topk(logp, 2).values if logp.numel() > 1 else logp
        margins.append(float(top[0] - top[-1]))
        y = int(torch.argmax(logp))
        ids.append(y)
        lps.append(float(logp[y]))
        atts.append(att)
        pos.append(p)
        if y == model.eos:
            break
    dev = keys.device
    return (ids, torch.tensor(lps, dtype=torch.float64, device=dev), torch.stack(atts),
            torch.tensor(pos, dtype=torch.float64, device=dev), min(margins))


def nll(model, src, tgt, label_smoothing=0.0):
    """The training loss of one pair of ids (tgt ending in eos), with autograd: the decoder fed
    bos, tgt[:-1]; sum_t -log p(tgt[t]), label-smoothed by label_smoothing (_config.token_nll)."""
    ls = smoothing_of(label_smoothing, "seq2seq.nll")
    return token_nll(model(src, tgt)["log_probs"], list(tgt), ls)


@torch.no_grad()
def score(model, src, tgt):
    """Teacher forcing -> log p(tgt[t]) [T], attention [T, S], p_t [T], log-probs [T, Vt]."""
    src = ids_of(model, src, "seq2seq.score", vocab=model.Vs)
    tgt = ids_of(model, tgt, "seq2seq.score", vocab=model.Vt, name="tgt",
                 encode=model.tokenizer.encode_target if model.tokenizer else None)
    keys, state = model.encode(src)
    lps, atts, pos, dists = [], [], [], []
    for t, y in enumerate(tgt):
        logp, att, p, state = model.step(keys, state, tgt[t - 1] if t else model.bos, t)
        lps.append(logp[y])
        atts.append(att)
        pos.append(p)
        dists.append(logp)
    return (torch.stack(lps), torch.stack(atts),
            torch.tensor(pos, dtype=torch.float64, device=keys.device),
            torch.stack(dists))


@torch.no_grad()
def beam(model, src, width, max_length=None):
    """The C beam search (src/models/seq2seq.c): best-first candidates, eos among the top
    `width` finishes a hypothesis, stop at `width` finished or max_length, winner by
    (sum log p) / length. -> ids."""
    src = ids_of(model, src, "seq2seq.beam", vocab=model.Vs)
    width = count_of(width, "seq2seq.beam", "width")
    max_length = count_of(max_length, "seq2seq.beam", "max_length", model.max_length)
    keys, state = model.encode(src)
    live = [(0.0, [], state)]
    finished = []
    t = 0
    for t in range(max_length):
        cands = []
        for i, (cum, ids, st) in enumerate(live):
            logp, _, _, nst = model.step(keys, st, ids[-1] if ids else model.bos, t)
            for v in range(model.Vt):
                cands.append((cum + float(logp[v]), i, v, nst))
        cands.sort(key=lambda c: -c[0])
        new = []
        for rank, (sc, i, v, nst) in enumerate(cands):
            if len(new) == width:
                break
            if v == model.eos:
                if rank < width:
                    finished.append((sc / (len(live[i][1]) + 1), live[i][1] + [v]))
            else:
                new.append((sc, live[i][1] + [v], nst))
        live = new
        if len(finished) >= width or not live:
            break
    pool = list(finished)
    if len(finished) < width:
        pool += [(sc / (t + 1), ids) for sc, ids, _ in live]
    return max(pool, key=lambda p: p[0])[1]


def export(model, config, path):
    """Write model's state_dict as F32 safetensors with json.dumps(config) in
    __metadata__["config"] (the fixtures' writer; attnlab.export checks before it writes)."""
    tensors = {k: f32(v) for k, v in model.state_dict().items()}
    write_safetensors(path, tensors, {"config": json.dumps(config, separators=(",", ":"))})
