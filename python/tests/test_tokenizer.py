"""attnlab.Tokenizer against the JS tokenizer (wasm/model/tokenizer.js, normalize.js) on the same
strings: every normalisation step alone and combined, the shipped models' own tokenizers, Unicode
(NFC, typographic quotes, dashes, no-break spaces, astral characters, final sigma), case,
punctuation inside and outside numbers, n't and the other clitics, French elision; plus known
answers from docs/models.md, so a change that breaks both sides alike still fails."""

import glob
import itertools
import json
import os

import pytest

from attnlab import Tokenizer
from attnlab.safetensors import read_safetensors
from conftest import MODELS, node

TEXTS = [
    "The movie wasn’t great!", "I didn't like it, didnt you?", "Can't, won't, shan't; cannot.",
    "It's 3.5 or 1,000 at 10:30 — really…", "o'clock rock'n'roll y'all I'd've",
    "“Quoted” ‘single’ «guillemets» – dash", "e\u0301te\u0301 ÉTÉ cafe\u0301", "ΟΔΟΣ Σίσυφος",
    "  5  May \t 1850 \n", "a\u00a0b\u202fc\u2007d", "n't 's 're alone ' ' '", "rock 'n' roll",
    "l'os n'aiment qu'elle jusqu'ici lorsqu'il s'en c'est", "L'HOMME Qu'Il N'T n'a",
    "İstanbul straße ﬁne Kelvin\u212a ſhip", "emoji 😀 and 𝒜𝒷𝒸 and 中文字符", "",
    "ab''s x'' 'd ''s can''t", "DONT Dont dont im IM thats", "3.a 1,,2 4:5:6 .5 7.",
    "hasOwnProperty isn't __proto__ constructorn't toStringn't", "tab\tnew\nline\rcr\u2028ls", "x.y,z:w", "don’t’s",
]

STEP_SETS = [
    [], ["lowercase"], ["nfc", "quotes"], ["punctuation"], ["quotes", "punctuation"],
    ["nfc", "quotes", "lowercase", "punctuation", "contractions"],
    ["punctuation", "contractions"], ["punctuation", "elision"],
    ["nfc", "quotes", "lowercase", "punctuation", "contractions", "elision"],
    ["whitespace", "lowercase", "punctuation", "contractions"],
]
CHAR_STEP_SETS = [[], ["lowercase", "whitespace"], ["nfc", "quotes", "lowercase", "whitespace"]]
VOCAB = ["<unk>", "the", "movie", "was", "n't", "great", "!", ".", "can", "will", "l'", "os", "é"]


def shipped_tokenizers():
    out = []
    for path in sorted(glob.glob(os.path.join(MODELS, "*.safetensors"))):
        cfg = json.loads(read_safetensors(path)[1]["config"])
        out.append((os.path.basename(path), cfg))
    return out


def test_python_tokenizers_equal_the_js_ones():
    cases = [{"type": "word", "srcVocab": VOCAB, "tgtVocab": VOCAB, "unk": "<unk>",
              "normalize": s} for s in STEP_SETS]
    cases += [{"type": "char", "srcVocab": VOCAB, "tgtVocab": VOCAB, "unk": "<unk>",
               "normalize": s} for s in CHAR_STEP_SETS]
    # the JS tokenizer takes srcVocab/tgtVocab: give a classifier's "vocab" as both
    shipped = []
    for name, cfg in shipped_tokenizers():
        t = dict(cfg["tokenizer"])
        if "vocab" in t:
            v = t.pop("vocab")
            t["srcVocab"] = t["tgtVocab"] = v
        shipped.append((name, t))
    jobs = [{"tokenizer": c, "texts": TEXTS} for c in cases] + \
        [{"tokenizer": t, "texts": TEXTS} for _, t in shipped]
    results = node(jobs)
    names = [f"normalize={c['normalize']} {c['type']}" for c in cases] + [n for n, _ in shipped]
    configs = cases + [t for _, t in shipped]
    checked = 0
    for name, cfg, js in zip(names, configs, results):
        assert "error" not in js, f"{name}: {js}"
        tok = Tokenizer.from_config({"tokenizer": cfg})
        for text, split, norm, enc in zip(TEXTS, js["split"], js["normalize"], js["encode"]):
            assert tok.split(text) == split, f"{name}: split({text!r})"
            assert tok.normalize(text) == norm, f"{name}: normalize({text!r})"
            assert tok.encode(text) == enc, f"{name}: encode({text!r})"
            checked += 1
    assert checked == len(TEXTS) * len(configs) and len(shipped) >= 20


def test_every_pair_of_steps_on_random_mixtures():
    """All 2-step word combinations the JS accepts, on strings glued from the pieces above."""
    pieces = ["Don’t", "l'os", "3.5", "…", "ÉTÉ", "'s", "n't", " ", "\u00a0", "!", "𝒜", "qu'"]
    texts = ["".join(p) for p in itertools.islice(itertools.permutations(pieces, 4), 0, 4000, 37)]
    combos = []
    for a, b in itertools.combinations(["nfc", "quotes", "lowercase", "whitespace", "punctuation",
                                        "contractions", "elision"], 2):
        steps = [a, b]
        if ("contractions" in steps or "elision" in steps) and "punctuation" not in steps:
            steps.append("punctuation")
        combos.append(steps)
    jobs = [{"tokenizer": {"type": "word", "srcVocab": VOCAB, "tgtVocab": VOCAB, "unk": "<unk>",
                           "normalize": s}, "texts": texts} for s in combos]
    for steps, js in zip(combos, node(jobs)):
        tok = Tokenizer(VOCAB, normalize=steps)
        assert [tok.split(t) for t in texts] == js["split"], steps


@pytest.mark.parametrize("text, steps, tokens", [
    ("The movie wasn’t great!", ["nfc", "quotes", "lowercase", "punctuation", "contractions"],
     ["the", "movie", "was", "n't", "great", "!"]),
    ("I didn't", ["punctuation", "contractions"], ["I", "did", "n't"]),
    ("can't won't shan't cannot", ["punctuation", "contractions"],
     ["can", "n't", "will", "n't", "shall", "n't", "can", "not"]),
    ("3.5 1,000 10:30 great.", ["punctuation"], ["3.5", "1,000", "10:30", "great", "."]),
    ("o'clock well-made", ["punctuation"], ["o'clock", "well", "-", "made"]),
    ("n'aiment qu'elle", ["punctuation", "elision"], ["n'", "aiment", "qu'", "elle"]),
    ("dont im", ["punctuation", "contractions"], ["do", "n't", "i", "'m"]),
])
def test_known_answers(text, steps, tokens):
    assert Tokenizer(["<unk>"], normalize=steps).split(text) == tokens


def test_char_tokenizer_and_decode():
    tok = Tokenizer(["<unk>", "a", "b"], type="char", tgt_vocab=["<s>", "</s>", "a", "b"],
                    bos="<s>", eos="</s>", normalize=["lowercase", "whitespace"])
    assert tok.split("  A b ") == ["a", " ", "b"]
    assert tok.encode("AbC") == [1, 2, 0]
    assert tok.decode([0, 2, 3, 1]) == "ab"
    elided = Tokenizer(["<unk>"], normalize=["punctuation", "elision"])
    assert elided.join(["l'", "os", "n'", "t"]) == "l'os n' t"


def test_bad_normalize_lists_are_refused_by_name():
    with pytest.raises(ValueError, match='unknown normalize step "stem"|unknown normalize step \'stem\''):
        Tokenizer(["<unk>"], normalize=["stem"])
    with pytest.raises(ValueError, match='"contractions" needs "punctuation"'):
        Tokenizer(["<unk>"], normalize=["contractions"])
    with pytest.raises(ValueError, match="for word tokenizers only"):
        Tokenizer(["<unk>"], type="char", normalize=["punctuation"])
    with pytest.raises(ValueError, match="unk '<unk>' is not in the vocabulary"):
        Tokenizer(["a"])


def test_spelling_step_mirrors_the_js_tokenizer():
    # tests/js/spelling.test.js: the same vocabulary and text give the same tokens
    tok = Tokenizer(["<unk>", "i", "recommend", "it", "would", "n't", "."],
                    normalize=["lowercase", "punctuation", "contractions", "spelling"])
    text = "uninstalled after a day, wouldnt reccomend it."
    assert tok.split("wouldnt reccomend it.") == ["would", "n't", "recommend", "it", "."]
    assert tok.corrections(text) == [["reccomend", "recommend"]]
    assert tok.unknown_words(text) == ["uninstalled", "after", "a", "day", ",", "reccomend"]
    assert tok.encode("I reccomend it") == [1, 2, 3]
    plain = Tokenizer(tok.vocab, normalize=["lowercase", "punctuation", "contractions"])
    assert plain.encode("I reccomend it") == [1, 0, 3] and plain.corrections(text) == []
    with pytest.raises(ValueError, match='"spelling" is for word tokenizers only'):
        Tokenizer(["<unk>", "a"], type="char", normalize=["spelling"])


def test_spelling_keep_mirrors_the_js_tokenizer():
    # tests/js/spelling.test.js "spellingKeep": real words stay as typed, same messages
    vocab = ["<unk>", "the", "ruining", "liking", "recommend", "lining"]
    assert Tokenizer(vocab, normalize=["lowercase", "spelling"]).split("running reccomend") == \
        ["ruining", "recommend"]
    tok = Tokenizer(vocab, normalize=["lowercase", "spelling"], spelling_keep=["running", "living"])
    assert tok.split("Running reccomend living liniing") == \
        ["running", "recommend", "living", "lining"]
    assert tok.corrections("running reccomend") == [["reccomend", "recommend"]]
    assert tok.encode("the running") == [1, 0]
    cfg = tok.config("classifier")
    assert cfg["spellingKeep"] == ["running", "living"]
    assert Tokenizer.from_config(cfg).split("running") == ["running"]
    for bad in ("running", [1], [None], {"0": "a"}):
        with pytest.raises(ValueError, match=r'"spellingKeep" must be an array of words \(strings\)'):
            Tokenizer(vocab, normalize=["lowercase", "spelling"], spelling_keep=bad)
    with pytest.raises(ValueError, match='"spellingKeep" needs the normalize step "spelling"'):
        Tokenizer(vocab, normalize=["lowercase"], spelling_keep=["running"])


SHAPE_WORDS = [
    "jars", "dishes", "shelves", "glass", "bonus", "basis", "gas", "running", "sing", "walked",
    "red", "quickly", "fly", "1960s", "3.5", "well-dressed", "rock'n'roll", "co-ops", "x-s",
    "naïve", "cafés", "Σίσυφος", "stories", "was", "bus", "buses", "", "-s", "ok!", "geese",
    "oxen", "criteria", "firemen", "omen", "crying",
]
SHAPE_VOCAB = ["<unk>", "<unk-num>", "<unk-ing>", "<unk-ed>", "<unk-ly>", "<unk-s>", "the", "are"]


def test_unknown_shapes_equal_the_js_ones():
    """tokenizer.unknownShapes: every class, and a subset, read each word alike in JS and here;
    known answers too; a bad list is refused with the JS message."""
    subsets = [["<unk-num>", "<unk-ing>", "<unk-ed>", "<unk-ly>", "<unk-s>"], ["<unk-s>"]]
    texts = SHAPE_WORDS + [" ".join(SHAPE_WORDS)]
    cfgs = [{"type": "word", "srcVocab": SHAPE_VOCAB, "tgtVocab": SHAPE_VOCAB, "unk": "<unk>",
             "unknownShapes": s} for s in subsets]
    bad = [["<unk-plural>"], ["<unk-s>", "<unk-s>"], "<unk-s>"]
    bad_cfgs = [{"type": "word", "srcVocab": SHAPE_VOCAB, "tgtVocab": SHAPE_VOCAB, "unk": "<unk>",
                 "unknownShapes": s} for s in bad]
    bad_cfgs.append({"type": "word", "srcVocab": ["<unk>"], "tgtVocab": ["<unk>"], "unk": "<unk>",
                     "unknownShapes": ["<unk-s>"]})
    results = node([{"tokenizer": c, "texts": texts} for c in cfgs + bad_cfgs])
    for cfg, js in zip(cfgs, results):
        assert "error" not in js, js
        tok = Tokenizer.from_config({"tokenizer": cfg})
        assert [tok.encode(t) for t in texts] == js["encode"], cfg["unknownShapes"]
    for cfg, js in zip(bad_cfgs, results[len(cfgs):]):
        with pytest.raises(ValueError) as e:
            Tokenizer.from_config({"tokenizer": cfg})
        assert str(e.value) == js["error"], cfg["unknownShapes"]
    tok = Tokenizer.from_config({"tokenizer": cfgs[0]})
    shapes = {w: SHAPE_VOCAB[tok.encode(w)[0]] for w in ["jars", "glass", "running", "1960s",
                                                         "walked", "quickly", "geese", "omen",
                                                         "bus"]}
    assert shapes == {"jars": "<unk-s>", "glass": "<unk>", "running": "<unk-ing>",
                      "1960s": "<unk-num>", "walked": "<unk-ed>", "quickly": "<unk-ly>",
                      "geese": "<unk-s>", "omen": "<unk>", "bus": "<unk>"}
    assert "unknown shape class \"<unk-plural>\"" in results[len(cfgs)]["error"]
