"""Stock PyTorch modules that export (docs/python.md, "Stock modules"), each against the JS
library in Node at atol 1e-5: a bare nn.MultiheadAttention (an op file for
ops.multiHeadAttention: output and per-head weights), an nn.TransformerEncoder handed its
embedding, positions and output layer (a "transformer" encoder, or decoder with causal=True:
logits and every attention map), and an nn.LSTM encoder with attention pooling written as in the
docs (a "classifier": probabilities and weights). attnlab.load gives an equal module back."""

import torch
from torch import nn

import attnlab
from attnlab.torch import AttentionPooling
from conftest import close, node

WORDS = ["<pad>", "<s>", "</s>", "<unk>", "the", "cat", "sat", "on", "a", "mat", "dog", "ran"]


class AttentionClassifier(nn.Module):
    """The docs' example: embedding -> bidirectional LSTM -> attention pooling -> linear."""

    def __init__(self, V, E, H, C):
        super().__init__()
        self.embedding = nn.Embedding(V, E)
        self.encoder = nn.LSTM(E, H // 2, batch_first=True, bidirectional=True)
        self.pooling = AttentionPooling(H)
        self.classifier = nn.Linear(H, C)

    def forward(self, ids):                      # ids: LongTensor [n]
        H = self.encoder(self.embedding(ids)[None])[0][0]
        h, alpha = self.pooling(H)
        return self.classifier(h), alpha


def test_multihead_attention(tmp_models):
    torch.manual_seed(1)
    mha = nn.MultiheadAttention(8, 2, batch_first=True)
    with torch.no_grad():
        mha.in_proj_bias.uniform_(-0.5, 0.5)
        mha.out_proj.bias.uniform_(-0.5, 0.5)
    path = tmp_models / "mha.safetensors"
    attnlab.export(mha, path)
    q, k, v = torch.randn(3, 8), torch.randn(5, 8), torch.randn(5, 8)
    js = node([{"op": "multiHeadAttention", "file": str(path), "query": q.tolist(),
                "key": k.tolist(), "value": v.tolist()}])[0]
    with torch.no_grad():
        out, w = mha(q[None], k[None], v[None], need_weights=True, average_attn_weights=False)
    close("stock nn.MultiheadAttention output", js["output"]["data"], out[0])
    close("stock nn.MultiheadAttention weights", js["weights"]["data"], w[0])
    back = attnlab.load(path)
    assert type(back) is nn.MultiheadAttention and back.num_heads == 2 and back.batch_first
    for key, t in mha.state_dict().items():
        assert torch.equal(t, back.state_dict()[key]), key


def _encoder(norm_first, final):
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True,
                                       norm_first=norm_first, activation="gelu")
    return nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(8) if final else None,
                                 enable_nested_tensor=False)


def test_transformer_encoder_with_embedding_positions_and_out(tmp_models):
    torch.manual_seed(2)
    tok = attnlab.Tokenizer(WORDS, tgt_vocab=["O", "DET", "NOUN", "VERB"], unk="<unk>")
    ids = tok.encode("the cat sat on a mat")
    n = len(ids)
    cases = []
    for name, causal, positions in (("encoder-learned", False, "learned"),
                                    ("decoder-sinusoidal", True, "sinusoidal")):
        enc, emb, out = _encoder(causal, not causal), nn.Embedding(len(WORDS), 8), nn.Linear(8, 4)
        lm_tok = tok if not causal else attnlab.Tokenizer(WORDS, unk="<unk>", eos="</s>")
        if causal:
            out = nn.Linear(8, len(WORDS))
        pos = nn.Embedding(10, 8) if positions == "learned" else "sinusoidal"
        table = pos.weight[:n] if positions == "learned" else \
            attnlab.torch.transformer.sinusoidal(n, 8, torch.float32)
        mask = torch.ones(n, n, dtype=torch.bool).triu(1) if causal else None
        with torch.no_grad():
            logits = out(enc(emb(torch.tensor([ids])) + table, mask=mask))[0]
        path = tmp_models / f"stock-{name}.safetensors"
        config = attnlab.export(enc, path, tokenizer=lm_tok, embedding=emb, positions=pos, out=out,
                                causal=causal)
        assert config["variant"] == ("decoder" if causal else "encoder")
        cases.append((name, path, logits))
    results = node([{"file": str(p), "calls": [["forward", ids]]} for _, p, _ in cases])
    for (name, path, logits), (js,) in zip(cases, results):
        close(f"stock nn.TransformerEncoder logits: {name}", js["logits"]["data"], logits)
        back = attnlab.load(path)
        with torch.no_grad():
            again = back(ids)
        close(f"stock nn.TransformerEncoder logits: {name} loaded", again["logits"], logits,
              atol=1e-6)
        for a, b in zip(js["attention"], again["attention"]):
            close(f"stock nn.TransformerEncoder attention: {name}", a["weights"]["data"],
                  b["weights"])


def test_lstm_with_attention_pooling_as_in_the_docs(tmp_models):
    torch.manual_seed(3)
    tok = attnlab.Tokenizer(WORDS, unk="<unk>", normalize=["lowercase", "punctuation"])
    model = AttentionClassifier(len(WORDS), 6, 8, 3)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    data = [("the cat sat", 0), ("a dog ran", 1), ("the mat", 2)]
    for _ in range(5):
        opt.zero_grad()
        loss = sum(nn.functional.cross_entropy(model(torch.tensor(tok.encode(t)))[0][None],
                                               torch.tensor([y])) for t, y in data)
        loss.backward()
        opt.step()
    path = tmp_models / "stock-lstm-pooling.safetensors"
    config = attnlab.export(model, path, tokenizer=tok, labels=["cats", "dogs", "mats"])
    assert config["pooling"] == "attention" and config["hiddenSize"] == 8
    text = "The dog sat on a zebra."
    (js,) = node([{"file": str(path), "calls": [["classify", text]]}])[0]
    with torch.no_grad():
        logits, alpha = model(torch.tensor(tok.encode(text)))
    close("stock LSTM + attention pooling probs", js["probs"], torch.softmax(logits, -1))
    close("stock LSTM + attention pooling weights", js["attention"][0]["weights"]["data"], alpha)
    assert js["label"] == ["cats", "dogs", "mats"][int(logits.argmax())]
    back = attnlab.load(path)
    with torch.no_grad():
        close("stock LSTM + attention pooling loaded", back(tok.encode(text))["probs"],
              torch.softmax(logits, -1), atol=1e-6)
