"""PyTorch reference for attnlab's "classifier" model (src/models/classifier.c, docs/models.md).

Holds: `Classifier`, an nn.Module computing exactly what the C model computes, whose state_dict
names are the names of the model file (nn.Embedding, nn.LSTM / GRU / RNN, nn.Linear and the
pooling parameters); `export(model, config, path)`, which writes that file
(F32 safetensors, the config JSON in __metadata__["config"]); `encode(config, text)`, the word
tokenizer (whitespace split, unknown words -> unk); and `classify(model, ids)`, the reference
forward pass returning class probabilities, attention weights and, per pooling, the extras.

    model = Classifier(tok, pooling="attention", labels=["neg", "pos"])  # or from_config(config)
    out = model(tok.encode("the cat sat"))      # logits, probs, attention (the JS maps' shapes)
    out = classify(model.double(), encode(config, "the cat sat . a dog ran"))
    out["probs"], out["weights"], out.get("sentence_weights"), out.get("penalty")
    st = classify(model.double(), ids, states=True)["states"]   # every intermediate

Maths (one document, no batch; the same order of operations as the C code):
  embed      x = embedding(ids)                                         [n, E]
  encoder    H = nn.LSTM / GRU / RNN(x) (numLayers, hiddenSize/2 per direction when
             bidirectional, batch_first, zero initial state)             [n, d], d = hiddenSize
  attention  (Zhou et al. 2016, eqs. 9-12) M = tanh(H); a = softmax(M w); r = H^T a;
             h* = tanh(r); logits = classifier(h*)
  structured (Lin et al. 2017, eqs. 6-8) A = softmax_n(W_s2 tanh(W_s1 H^T))  [r, n];
             M = A H [r, d], flattened row by row to [r d]; logits = classifier(M);
             penalty P = ||A A^T - I||_F^2 (reported; `loss` adds penaltyCoefficient * P)
  han        (Yang et al. 2016, eqs. 5-10) the document is split into sentences at the
             sentenceSeparator token (the separator ends its sentence and belongs to it; a
             trailing run without one is the last sentence). Each sentence i on its own:
             H_i = word_encoder(embedding(words_i)); u = tanh(H_i W^T + b);
             a_i = softmax(u u_w); s_i = H_i^T a_i.  Then over the sentence vectors S [m, d]:
             G = sentence_encoder(S); v = context pooling of G with sentence_pooling.*;
             logits = classifier(v)
  output     probs = softmax(logits / temperature) (the config's "temperature", default 1: a
             calibration fitted after training, issue 30; the logits are left as they are)
Training loss of one document (src/models/classifier_train.h, docs/training.md):
  `loss(model, ids, label)` = -log softmax(logits)[label] + penaltyCoefficient * P (structured
  only; the config key defaults to 0), differentiable (`forward` is `classify` with autograd).
  The loss ignores the temperature, as the C trainer does.
Does not: batch, pad or mask (one document at a time, every position real: a batch or an empty
input is refused by name, _inputs.py), or optimise. Tensors are made on the module's device.
"""

import json

import torch
from torch import nn

from ..safetensors import f32, write_safetensors
from ..tokenizer import Tokenizer
from ._config import ConfigModule, smoothing_of, token_nll, tokens_of
from ._inputs import device_of, ids_of

LAYERS = {"lstm": nn.LSTM, "gru": nn.GRU, "rnn": nn.RNN}


def _p(*shape):
    return nn.Parameter(torch.empty(*shape))


def _rnn(cfg, inp, hidden):
    bi = cfg.get("bidirectional", False)
    extra = {"nonlinearity": cfg.get("nonlinearity", "tanh")} if cfg["cell"] == "rnn" else {}
    return LAYERS[cfg["cell"]](inp, hidden // 2 if bi else hidden, cfg["numLayers"],
                               batch_first=True, bidirectional=bi, **extra)


class AttentionPooling(nn.Module):
    """Zhou et al. 2016, eqs. 9-12: pooling.w [d]; H [n, d] -> (h* = tanh(H^T alpha) [d],
    alpha = softmax(tanh(H) w) [n]). Usable in your own module (docs/python.md, "Stock
    modules"): attnlab.export maps embedding / encoder / pooling / classifier to a classifier."""

    def __init__(self, d):
        super().__init__()
        self.w = _p(d)
        nn.init.uniform_(self.w, -1 / d ** 0.5, 1 / d ** 0.5)

    def forward(self, H):
        a = torch.softmax(torch.tanh(H) @ self.w, -1)
        return torch.tanh(a @ H), a


class ContextPooling(nn.Module):
    """Yang et al. 2016: W [dw, d], b [dw], u [dw] (the context vector u_w / u_s)."""

    def __init__(self, d, dw):
        super().__init__()
        self.W, self.b, self.u = _p(dw, d), _p(dw), _p(dw)

    def forward(self, H):
        a = torch.softmax(torch.tanh(H @ self.W.T + self.b) @ self.u, -1)
        return a @ H, a


class StructuredPooling(nn.Module):
    """Lin et al. 2017: W_s1 [da, d], W_s2 [r, da] (no biases, as in the paper)."""

    def __init__(self, d, da, r):
        super().__init__()
        self.W_s1, self.W_s2 = _p(da, d), _p(r, da)

    def forward(self, H):
        A = torch.softmax(self.W_s2 @ torch.tanh(self.W_s1 @ H.T), -1)   # [r, n]
        M = A @ H
        I = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
        P = ((A @ A.T - I) ** 2).sum()
        return M.reshape(-1), A, P


class Classifier(ConfigModule):
    """The "classifier" architecture. Keywords are the config keys in snake_case
    (docs/models.md, "The classifier architecture"): cell ('lstm', 'gru', 'rnn'), pooling
    ('attention', 'han', 'structured'), labels (a list of strings, or a count: '0', '1', ...),
    embedding_size, hidden_size, num_layers, bidirectional, attention_size, hops,
    sentence_hidden_size, sentence_attention_size, sentence_separator, penalty_coefficient,
    nonlinearity, temperature (classify's probs = softmax(logits / temperature), default 1). The vocabulary size comes from `tokenizer` or vocab_size (han needs the
    tokenizer: its separator is a word)."""

    ARCHITECTURE = "classifier"
    KEYS = ("cell", "nonlinearity", "embeddingSize", "hiddenSize", "numLayers", "bidirectional",
            "pooling", "attentionSize", "hops", "sentenceHiddenSize", "sentenceAttentionSize",
            "sentenceSeparator", "penaltyCoefficient", "temperature", "labels")
    ENUMS = {"cell": ("lstm", "gru", "rnn"), "nonlinearity": ("tanh", "relu"),
             "pooling": ("attention", "han", "structured")}

    def __init__(self, tokenizer=None, *, vocab_size=None, labels=None, cell=None, pooling=None,
                 embedding_size=None, hidden_size=None, num_layers=None, _strict=False, **options):
        super().__init__()
        if isinstance(labels, int):
            labels = [str(i) for i in range(labels)]
        cfg = self._keys_from(dict(labels=labels, cell=cell, pooling=pooling,
                                   embedding_size=embedding_size, hidden_size=hidden_size,
                                   num_layers=num_layers, **options), _strict)
        if "labels" not in cfg:
            raise ValueError("Classifier: needs labels= (a list of class names, or their count)")
        self._need("cell", "lstm", "lstm, gru or rnn")
        kind = self._need("pooling", "attention", "attention, han or structured")
        E = self._need("embeddingSize", 32, "an integer")
        H = self._need("hiddenSize", 64, "an integer")
        self._need("numLayers", 1, "an integer")
        if kind in ("han", "structured"):
            self._need("attentionSize", H, f'needed by pooling "{kind}"')
        if kind == "structured":
            self._need("hops", 4, 'needed by pooling "structured"')
        if kind == "han":
            self._need("sentenceSeparator", ".", 'needed by pooling "han"')
        sizes = self._tokenizer_sizes(tokenizer, {"vocab_size": vocab_size})
        self.kind = kind
        self.V, self.C = sizes["vocab_size"], len(cfg["labels"])
        E, H = cfg["embeddingSize"], cfg["hiddenSize"]
        if kind == "han":
            if tokenizer is None or cfg["sentenceSeparator"] not in tokenizer.src:
                raise ValueError(f'Classifier: config "sentenceSeparator": '
                                 f'{cfg["sentenceSeparator"]!r} is not in tokenizer.vocab')
        self.embedding = nn.Embedding(self.V, E)
        if self.kind == "han":
            Hs = cfg.get("sentenceHiddenSize", H)
            da = cfg["attentionSize"]
            self.sep = tokenizer.src[cfg["sentenceSeparator"]]
            self.word_encoder = _rnn(cfg, E, H)
            self.word_pooling = ContextPooling(H, da)
            self.sentence_encoder = _rnn(cfg, H, Hs)
            self.sentence_pooling = ContextPooling(Hs, cfg.get("sentenceAttentionSize", da))
            K = Hs
        else:
            self.encoder = _rnn(cfg, E, H)
            if self.kind == "attention":
                self.pooling = AttentionPooling(H)
                K = H
            else:
                self.pooling = StructuredPooling(H, cfg["attentionSize"], cfg["hops"])
                K = cfg["hops"] * H
        self.classifier = nn.Linear(K, self.C)
        self._init_own_parameters()

    @property
    def labels(self):
        return self._keys["labels"]

    def forward(self, ids, states=False):
        """One document (ids [n]) with autograd (Model.classify in JS) -> dict logits [C],
        probs [C], attention: the JS maps' weights, [1, n] (attention, han: the words) or
        [r, n] (structured), and for han a second [1, m] over the sentences; han also
        sentences [(start, end)], structured penalty (a 0-d tensor); states=True also
        states, every intermediate (Model.classify(input, { states: true }))."""
        out = forward(self, ids, states, what="Classifier.forward")
        w = out["weights"]
        out["attention"] = [w if w.dim() == 2 else w[None]]
        if "sentence_weights" in out:
            out["attention"].append(out["sentence_weights"][None])
        return out

    def example_loss(self, example, label_smoothing=0.0):
        """(text, label name or index) -> -log p(label) (+ the structured penalty term),
        label-smoothed by label_smoothing."""
        text, label = self._pair(example, "(text, label)")
        return loss(self, self.tokenizer.encode(text), self._label_id(label), label_smoothing)

    @torch.no_grad()
    def run(self, text):
        """Model.classify in JS: dict label, label_id, ids, tokens (as JS's: the source tokens)
        and forward's entries."""
        ids = ids_of(self, text, "Classifier.run", vocab=self.V)
        out = self(ids)
        best = int(out["probs"].argmax())
        return {"label": self.labels[best], "label_id": best, "ids": ids,
                "tokens": tokens_of(self.tokenizer, ids), **out}


def sentences(ids, sep):
    """[start, end) of each sentence: a separator ends (and belongs to) its sentence."""
    out, start = [], 0
    for i, t in enumerate(ids):
        if t == sep:
            out.append((start, i + 1))
            start = i + 1
    if start < len(ids):
        out.append((start, len(ids)))
    return out


@torch.no_grad()
def classify(model, ids, states=False):
    """-> dict: probs [C], logits [C], weights [n] (structured: [r, n]); han: sentence_weights
    [m] and sentences [(start, end)]; structured: penalty (a float); states=True: states
    (forward's)."""
    out = forward(model, ids, states, what="classifier.classify")
    if "penalty" in out:
        out["penalty"] = float(out["penalty"])
    return out


def loss(model, ids, label, label_smoothing=0.0):
    """-log p(label | ids) + penaltyCoefficient * P (structured), with autograd; the
    cross-entropy label-smoothed by label_smoothing (_config.token_nll), the penalty not."""
    ls = smoothing_of(label_smoothing, "classifier.loss")
    out = forward(model, ids, what="classifier.loss")
    value = token_nll(torch.log_softmax(out["logits"], -1)[None], [label], ls)
    if "penalty" in out:
        value = value + model._keys.get("penaltyCoefficient", 0) * out["penalty"]
    return value


def _context_states(pool, H):
    """A ContextPooling's projected u = tanh(H W^T + b) [n, dw] and scores u . u_w [n]."""
    U = torch.tanh(H @ pool.W.T + pool.b)
    return U, U @ pool.u


def forward(model, ids, states=False, what="classifier.forward"):
    """classify's dict with autograd (structured: penalty a 0-d tensor). states=True adds
    "states", every intermediate of the forward as Model.classify(input, { states: true })
    names them (docs/states.md): embedded [n, E], hidden [n, d], projected, scores and weights
    [hops, n], pooled [rows, d], logits, probs [C], penalty (structured) and, for han,
    sentences {hidden, projected, scores, weights, pooled}."""
    ids = ids_of(model, ids, what, vocab=model.V)
    x = model.embedding(torch.tensor([ids], device=device_of(model)))
    out = {}
    st = {"pooling": model.kind, "embedded": x[0]}
    if model.kind == "han":
        spans = sentences(ids, model.sep)
        vecs, w, hs, us, es = [], [], [], [], []
        for a, b in spans:
            Hi = model.word_encoder(x[:, a:b])[0][0]
            s, al = model.word_pooling(Hi)
            vecs.append(s)
            w.append(al)
            U, e = _context_states(model.word_pooling, Hi)
            hs.append(Hi)
            us.append(U)
            es.append(e)
        G = model.sentence_encoder(torch.stack(vecs)[None])[0][0]
        feat, sa = model.sentence_pooling(G)
        out.update(weights=torch.cat(w), sentence_weights=sa, sentences=spans)
        Us, e = _context_states(model.sentence_pooling, G)
        st.update(hidden=torch.cat(hs), projected=torch.cat(us), scores=torch.cat(es)[None],
                  weights=torch.cat(w)[None], pooled=torch.stack(vecs),
                  sentences={"hidden": G, "projected": Us, "scores": e[None],
                             "weights": sa[None], "pooled": feat[None]})
    else:
        H = model.encoder(x)[0][0]
        st["hidden"] = H
        if model.kind == "attention":
            feat, a = model.pooling(H)
            out["weights"] = a
            M = torch.tanh(H)
            st.update(projected=M, scores=(M @ model.pooling.w)[None], weights=a[None],
                      pooled=(a @ H)[None])
        else:
            feat, A, P = model.pooling(H)
            out.update(weights=A, penalty=P)
            T = torch.tanh(H @ model.pooling.W_s1.T)
            st.update(projected=T, scores=model.pooling.W_s2 @ T.T, weights=A,
                      pooled=A @ H, penalty=P)
    logits = model.classifier(feat)
    T = model._keys.get("temperature", 1)
    out.update(logits=logits, probs=torch.softmax(logits / T, -1))
    if states:
        st.update(logits=logits, probs=out["probs"])
        out["states"] = st
    return out


def encode(cfg, text):
    """The word tokenizer of the config (normalisation included): unknown words -> unk (first
    index of a repeat)."""
    return Tokenizer.from_config(cfg).encode(text)


def export(model, config, path):
    """Write model's state_dict as F32 safetensors with json.dumps(config) in
    __metadata__["config"]."""
    tensors = {k: f32(v) for k, v in model.state_dict().items()}
    write_safetensors(path, tensors, {"config": json.dumps(config, separators=(",", ":"))})
