"""Models trained by the JS library (createModel + createTrainer, as the page's Train view and
`make models` do), saved as F32, F16 and I8: attnlab.load gives PyTorch modules that compute what
loadModel computes on the saved file (outputs, log-probabilities, attention, probabilities), one
per architecture."""

import pytest
import torch

import attnlab
from attnlab.safetensors import read_safetensors
from conftest import close, node

CHARS = ["<pad>", "<s>", "</s>", "<unk>"] + list("abcde")
WORDS = ["<pad>", "<unk>", "<s>", "</s>", ".", "the", "cat", "dog", "sat", "ran", "a", "mat"]
CASES = {
    "seq2seq-I8": (dict(architecture="seq2seq", cell="gru", embeddingSize=8, hiddenSize=34,
                        numLayers=1, bidirectional=True, attention="additive", style="bahdanau",
                        attentionSize=32, maxLength=8,
                        tokenizer=dict(type="char", srcVocab=CHARS, tgtVocab=CHARS, bos="<s>",
                                       eos="</s>", unk="<unk>", pad="<pad>")),
                   [{"src": s, "tgt": s[::-1]} for s in ["abc", "bcd", "cde", "dea"]], "I8",
                   ["run", "adcb"]),
    "transformer-F16": (dict(architecture="transformer", variant="decoder", embeddingSize=8,
                             numHeads=2, feedforwardSize=16, numLayers=2, positions="relative",
                             maxRelativePosition=3, normFirst=True, maxLength=6,
                             tokenizer=dict(type="char", srcVocab=CHARS, tgtVocab=CHARS,
                                            unk="<unk>", eos="</s>")),
                        [{"src": s} for s in ["abcde", "bcdea", "cdeab"]], "F16",
                        ["run", "abc"]),
    "classifier-F32": (dict(architecture="classifier", cell="lstm", embeddingSize=6, hiddenSize=8,
                            numLayers=1, bidirectional=True, pooling="han", attentionSize=5,
                            sentenceSeparator=".", labels=["cat", "dog"],
                            tokenizer=dict(type="word", vocab=WORDS, unk="<unk>", pad="<pad>",
                                           normalize=["lowercase", "punctuation"])),
                       [{"src": "the cat sat . a cat", "label": "cat"},
                        {"src": "a dog ran . the mat", "label": 1}], "F32",
                       ["classify", "The cat ran. A dog sat on the mat."]),
    "memory-rnn-I8": (dict(architecture="memory-rnn", cell="lstmn", embeddingSize=6,
                           hiddenSize=40, head="lm",
                           tokenizer=dict(type="word", vocab=WORDS, unk="<unk>", bos="<s>",
                                          eos="</s>")),
                      [{"src": "the cat sat"}, {"src": "a dog ran . the mat"}], "I8",
                      ["run", "the dog sat on a mat", {"distributions": True}]),
}


@pytest.fixture(scope="module")
def trained(tmp_models):
    names = list(CASES)
    jobs = [{"train": c, "examples": ex, "steps": 10, "dtype": dt,
             "file": str(tmp_models / f"js-{n}.safetensors"), "calls": [call]}
            for n, (c, ex, dt, call) in CASES.items()]
    return dict(zip(names, node(jobs))), {n: j["file"] for n, j in zip(names, jobs)}


@pytest.mark.parametrize("name", list(CASES))
def test_pytorch_equals_the_js_trained_model(trained, name):
    results, files = trained
    (js,) = results[name]
    m = attnlab.load(files[name])
    config, _, dtype, call = CASES[name]
    stored = {str(v.dtype) for v in read_safetensors(files[name])[0].values()}
    assert {"I8": "int8", "F16": "float16", "F32": "float32"}[dtype] in stored, stored
    assert m.config == config
    text = call[1]
    with torch.no_grad():
        py = m.double().run(text)
    if name.startswith("seq2seq"):
        assert list(js["ids"]) == py["ids"]
        close(f"JS-trained log-probs: {name}", js["logProbs"], py["log_probs"])
        close(f"JS-trained attention: {name}", js["attention"][0]["weights"]["data"],
              py["attention"])
    elif name.startswith("transformer"):
        assert list(js["ids"]) == py["ids"]
        close(f"JS-trained log-probs: {name}", js["logProbs"], py["log_probs"])
        for a, b in zip(js["attention"], py["attention"]):
            close(f"JS-trained attention: {name}", a["weights"]["data"], b["weights"])
    elif name.startswith("classifier"):
        assert js["label"] == py["label"]
        close(f"JS-trained probs: {name}", js["probs"], py["probs"])
        for a, b in zip(js["attention"], py["attention"]):
            close(f"JS-trained attention: {name}", a["weights"]["data"], b)
    else:
        close(f"JS-trained log-probs: {name}", js["logProbs"], py["token_log_probs"])
        close(f"JS-trained distributions: {name}", js["distributions"]["data"], py["log_probs"])
        close(f"JS-trained attention: {name}", js["attention"][0]["weights"]["data"],
              py["attention"][0])
