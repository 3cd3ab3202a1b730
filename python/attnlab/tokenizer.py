"""attnlab's tokenizers in Python: the "char" and "word" tokenizers of a model config, with the
normalisation named in tokenizer.normalize, so PyTorch reads text exactly as Node and the page do.

    tok = Tokenizer.from_config(config)          # any architecture's config (docs/models.md)
    tok.split('The movie wasn’t great!')        # ['the', 'movie', 'was', "n't", 'great', '!']
    tok.encode('the movie')                      # source ids; unknown words -> unk
    tok = Tokenizer.fit(['the cat sat', 'a dog ran'], type='word', normalize=['lowercase'])

A mirror of wasm/model/normalize.js and wasm/model/tokenizer.js (the reference: where they
differ, this file is wrong; python/tests/test_tokenizer.py runs both on the same strings). The
steps, always in this order whatever the order of the list (docs/models.md, "Normalisation"):
nfc, quotes, lowercase, whitespace, punctuation, contractions, elision, spelling (the last needs
the vocabulary: the Tokenizer applies it, spelling.py). JavaScript's regular
expressions (\\p{L}, \\p{M}, \\p{N}, \\s, lookbehinds) are written out as a scanner over code points
here, because Python's `re` has no Unicode property classes and the `regex` package is not in
Debian's python3-torch setup.
An optional unknown_shapes list (config key tokenizer.unknownShapes) names shape classes of
UNKNOWN_SHAPES: an unknown word whose shape fits one (shape_of: "jars" -> "<unk-s>") reads as that
token instead of unk; shape_of is tokenizer.js's shapeOf, rule for rule. An optional spelling_keep
list (config key tokenizer.spellingKeep, with the "spelling" step only) names real words the
vocabulary lacks that the spelling step leaves as typed.
Deliberately not here: subwords, and the vocabulary-specific rules of an architecture (the
memory-rnn's bos/eos around text live in its module's `encode`).
"""

import unicodedata

from .spelling import spelling_corrector
from .plurals import IRREGULAR_PLURALS

STEPS = ("nfc", "quotes", "lowercase", "whitespace", "punctuation", "contractions", "elision",
         "spelling")
WORD_ONLY = {"punctuation", "contractions", "elision", "spelling"}

_QUOTES = [
    ("\u2018\u2019\u201A\u201B\u02BC\u2032\u0060\u00B4", "'"),
    ("\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB", '"'),
    ("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
    ("\u2026", "..."),
    ("\u00A0\u2007\u202F", " "),
]
_QUOTE_MAP = {ord(c): to for chars, to in _QUOTES for c in chars}

# JavaScript's \s (and String.prototype.trim): WhiteSpace and LineTerminator code points
_JS_SPACE = frozenset("\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
                      "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")

NT_STEMS = {"ca": "can", "wo": "will", "sha": "shall"}
CONTRACTION_TYPOS = {
    "dont": "don't", "doesnt": "doesn't", "didnt": "didn't", "isnt": "isn't", "arent": "aren't",
    "wasnt": "wasn't", "werent": "weren't", "havent": "haven't", "hasnt": "hasn't",
    "hadnt": "hadn't", "wont": "won't", "cant": "can't", "couldnt": "couldn't",
    "shouldnt": "shouldn't", "wouldnt": "wouldn't", "mustnt": "mustn't", "neednt": "needn't",
    "aint": "ain't", "im": "i'm", "ive": "i've", "youre": "you're", "youve": "you've",
    "theyre": "they're", "theyve": "they've", "thats": "that's", "whats": "what's",
    "theres": "there's", "youd": "you'd", "theyd": "they'd", "youll": "you'll",
    "theyll": "they'll",
}
_CLITICS = ("'s", "'re", "'ve", "'ll", "'d", "'m", "n't")    # the order of the JS alternation
_ELIDED = ("jusqu", "lorsqu", "puisqu", "qu", "c", "d", "j", "l", "m", "n", "s", "t")


UNKNOWN_SHAPES = ("<unk-num>", "<unk-ing>", "<unk-ed>", "<unk-ly>", "<unk-s>")


def shape_of(word):
    """The shape class of a word (one of UNKNOWN_SHAPES) or None: a word with a digit 0-9; an
    irregular plural noun of plurals.py ("geese": "<unk-s>"); then words of letters (parts joined
    by - or ') ending in -ing (5+ code points), -ed (4+), -ly (4+), -s (4+, not -ss, -us, -is).
    tokenizer.js shapeOf."""
    if any("0" <= ch <= "9" for ch in word):
        return "<unk-num>"
    if word in IRREGULAR_PLURALS:
        return "<unk-s>"
    parts = word.replace("'", "-").split("-")
    if not all(p and all(_letter(ch) for ch in p) for p in parts):
        return None
    n = len(word)
    if n >= 5 and word.endswith("ing"):
        return "<unk-ing>"
    if n >= 4 and word.endswith("ed"):
        return "<unk-ed>"
    if n >= 4 and word.endswith("ly"):
        return "<unk-ly>"
    if n >= 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return "<unk-s>"
    return None


def _shapes_of(shapes, type, src):
    """A config's unknownShapes list, checked as tokenizer.js does (same messages)."""
    if shapes is None:
        return ()
    what = 'tokenizer: "unknownShapes"'
    if isinstance(shapes, str) or not isinstance(shapes, (list, tuple)):
        raise ValueError(f"{what} must be an array of names")
    if type != "word":
        raise ValueError(f"{what} is for word tokenizers only")
    out = []
    for name in shapes:
        if not isinstance(name, str) or name not in UNKNOWN_SHAPES:
            known = ", ".join(UNKNOWN_SHAPES)
            shown = '"' + name + '"' if isinstance(name, str) else repr(name)
            raise ValueError(f"{what}: unknown shape class {shown} (known: {known})")
        if name in out:
            raise ValueError(f'{what}: "{name}" is listed twice')
        if name not in src:
            raise ValueError(f'{what}: "{name}" is not in the vocabulary')
        out.append(name)
    return tuple(out)


def _keep_of(keep, steps):
    """A config's spellingKeep list, checked as tokenizer.js does (same messages)."""
    if keep is None:
        return ()
    what = 'tokenizer: "spellingKeep"'
    if isinstance(keep, str) or not isinstance(keep, (list, tuple)) or \
            not all(isinstance(w, str) for w in keep):
        raise ValueError(f"{what} must be an array of words (strings)")
    if "spelling" not in steps:
        raise ValueError(f'{what} needs the normalize step "spelling" (it names the words that '
                         f"step leaves as typed)")
    return tuple(keep)


def _lmn(ch):
    """[\\p{L}\\p{M}\\p{N}]: a letter, mark or number."""
    return unicodedata.category(ch)[0] in "LMN"


def _letter(ch):
    return unicodedata.category(ch)[0] == "L"


def _number(ch):
    return unicodedata.category(ch)[0] == "N"


def _fold(ch):
    """Simple case folding of one code point as JavaScript's /iu compares ASCII letters (the
    long s and the Kelvin sign fold to s and k)."""
    return {"\u017f": "s", "\u212a": "k"}.get(ch, ch.lower() if ch.isascii() else ch)


def _ieq(text, ascii_word):
    """text equals ascii_word under /iu matching (same length in code points)."""
    return len(text) == len(ascii_word) and all(_fold(a) == b for a, b in zip(text, ascii_word))


def steps_of(steps, type="word"):
    """Validate a tokenizer.normalize list (None: none) -> the frozenset of steps; the errors
    are the JS library's messages."""
    if steps is None:
        return frozenset()
    if isinstance(steps, str) or not isinstance(steps, (list, tuple)):
        raise ValueError('tokenizer: "normalize" must be an array of step names')
    out = set()
    for s in steps:
        if not isinstance(s, str) or s not in STEPS:
            raise ValueError(f"tokenizer: unknown normalize step {s!r} (known: {', '.join(STEPS)})")
        if s in out:
            raise ValueError(f'tokenizer: normalize step "{s}" is listed twice')
        if type == "char" and s in WORD_ONLY:
            raise ValueError(f'tokenizer: normalize step "{s}" is for word tokenizers only')
        out.add(s)
    for s in ("contractions", "elision"):
        if s in out and "punctuation" not in out:
            raise ValueError(f'tokenizer: normalize step "{s}" needs "punctuation" '
                             "(the apostrophe is punctuation)")
    return frozenset(out)


def _prepare(text, steps):
    s = text
    if "nfc" in steps:
        s = unicodedata.normalize("NFC", s)
    if "quotes" in steps:
        s = s.translate(_QUOTE_MAP)
    if "lowercase" in steps:
        s = s.lower()    # full Unicode mapping with final sigma, as toLowerCase()
    if "whitespace" in steps:
        s = " ".join(_js_split(s))
    return s


def _js_split(s):
    """s.split(/\\s+/u) without empty strings."""
    out, cur = [], []
    for ch in s:
        if ch in _JS_SPACE:
            if cur:
                out.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        out.append("".join(cur))
    return out


def normalize_chars(text, steps):
    """A char tokenizer's text after its steps."""
    return _prepare(text, steps)


def _scan(s, clitics, elision):
    """The tokens of TOKEN_RE (normalize.js) over s, in order: at each position the first of
    NUMBER, CLITIC (with contractions), ELIDED_TOKEN (with elision), WORD, any other character;
    whitespace between matches is skipped."""
    n, i, out = len(s), 0, []
    while i < n:
        ch = s[i]
        if ch in _JS_SPACE:
            i += 1
            continue
        # NUMBER  \p{N}+(?:[.,:]\p{N}+)+
        if _number(ch):
            j = i
            while j < n and _number(s[j]):
                j += 1
            k, groups = j, 0
            while k + 1 < n and s[k] in ".,:" and _number(s[k + 1]):
                k += 1
                while k < n and _number(s[k]):
                    k += 1
                groups += 1
            if groups:
                out.append(s[i:k])
                i = k
                continue
        before_ok = i == 0 or not _lmn(s[i - 1])
        # CLITIC  (?<![LMN])(?:'(?:s|re|ve|ll|d|m)|n't)(?![LMN'])   (case-sensitive)
        if clitics and before_ok:
            hit = next((c for c in _CLITICS if s.startswith(c, i)
                        and not (i + len(c) < n and (_lmn(s[i + len(c)]) or s[i + len(c)] == "'"))),
                       None)
            if hit:
                out.append(hit)
                i += len(hit)
                continue
        # ELIDED_TOKEN  (?<![LMN])(?:jusqu|lorsqu|puisqu|qu|[cdjlmnst])'(?![LMN])   (case-sensitive)
        if elision and before_ok:
            hit = next((e + "'" for e in _ELIDED if s.startswith(e + "'", i)
                        and not (i + len(e) + 1 < n and _lmn(s[i + len(e) + 1]))), None)
            if hit:
                out.append(hit)
                i += len(hit)
                continue
        # WORD  [LMN]+(?:'[LMN]+)*
        if _lmn(ch):
            j = i
            while j < n and _lmn(s[j]):
                j += 1
            while j + 1 < n and s[j] == "'" and _lmn(s[j + 1]):
                j += 1
                while j < n and _lmn(s[j]):
                    j += 1
            out.append(s[i:j])
            i = j
            continue
        out.append(ch)   # \S: any other single code point
        i += 1
    return out


def _split_clitics(w):
    """normalize.js splitClitics: one token -> its tokens with the clitics split off."""
    w = CONTRACTION_TYPOS.get(w, w)
    if w == "cannot":
        return ["can", "not"]
    if len(w) > 3 and w[-3:].lower() == "n't":
        stem, clitic = w[:-3], w[-3:]
        stem = NT_STEMS.get(stem, stem)
    else:
        # /^(.+?)('(?:s|re|ve|ll|d|m))$/iu: the apostrophe 2 or 3 code points from the end
        stem = clitic = None
        for k in (len(w) - 2, len(w) - 3):   # the lazy stem: the shorter one first
            if k >= 1 and w[k] == "'" and any(_ieq(w[k + 1:], c[1:]) for c in _CLITICS[:6]):
                if stem is None or k < len(stem):
                    stem, clitic = w[:k], w[k:]
        if stem is None:
            return [w]
    head = _split_clitics(stem[:-1]) + ["'"] if stem.endswith("'") else _split_clitics(stem)
    return [t for t in head if t] + [clitic]


def _elided_prefix(w):
    """ELIDED_RE /^((?:jusqu|lorsqu|puisqu|qu|[cdjlmnst])')(?=[\\p{L}])/iu -> the prefix or None."""
    for e in _ELIDED:
        k = len(e)
        if len(w) > k + 1 and _ieq(w[:k], e) and w[k] == "'" and _letter(w[k + 1]):
            return w[:k + 1]
    return None


def normalize_words(text, steps):
    """A word tokenizer's text -> its tokens after the steps (normalize.js normalizeWords)."""
    s = _prepare(text, steps)
    if "punctuation" not in steps:
        return _js_split(s)
    clitics, elision = "contractions" in steps, "elision" in steps
    out = []
    for w in _scan(s, clitics, elision):
        if elision:
            e = _elided_prefix(w)
            while e and w.lower() != "n't":
                out.append(e)
                w = w[len(e):]
                e = _elided_prefix(w)
        out.extend(_split_clitics(w) if clitics else [w])
    return out


def _elided_alone(w):
    return any(_ieq(w, e + "'") for e in _ELIDED)


def join_tokens(tokens, steps):
    """Tokens -> text as a word tokenizer writes it (normalize.js joinTokens)."""
    if "elision" not in steps:
        return " ".join(tokens)
    s = ""
    for i, w in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        glue = _elided_alone(w) and (w + nxt).lower() != "n't" if nxt is not None else True
        s += w + ("" if glue else " ")
    return s


def _index(vocab):
    m = {}
    for i, t in enumerate(vocab):
        m.setdefault(t, i)
    return m


class Tokenizer:
    """A model's tokenizer (docs/models.md, "tokenizer"): `type` "char" or "word", the source
    vocabulary (`vocab`, or `src_vocab`) and for seq2seq / transformer models the target one
    (`tgt_vocab`, default: the source's), the special tokens, and `normalize` (a list of steps).
    `config(architecture)` is the config's "tokenizer" object for that architecture."""

    def __init__(self, vocab=None, *, type="word", src_vocab=None, tgt_vocab=None, bos=None,
                 eos=None, unk="<unk>", pad=None, normalize=None, unknown_shapes=None,
                 spelling_keep=None):
        if type not in ("char", "word"):
            raise ValueError(f"tokenizer: unknown type {type!r} (known: char, word)")
        src = src_vocab if src_vocab is not None else vocab
        if vocab is not None and src_vocab is not None:
            raise ValueError("tokenizer: give vocab or src_vocab, not both")
        if src is None:
            raise ValueError("tokenizer: no vocabulary (vocab=[...] or src_vocab=[...])")
        for what, v in (("vocab", src), ("tgt_vocab", tgt_vocab)):
            if v is not None and (isinstance(v, str) or not all(isinstance(t, str) for t in v)):
                raise ValueError(f"tokenizer: {what} must be a list of strings")
        self.type = type
        self.src_vocab = list(src)
        self.tgt_vocab = list(tgt_vocab) if tgt_vocab is not None else None
        self.bos, self.eos, self.unk, self.pad = bos, eos, unk, pad
        self.steps = steps_of(normalize, type)
        self.normalization = [s for s in STEPS if s in self.steps]
        self._normalize_given = list(normalize) if normalize is not None else None
        self.src = _index(self.src_vocab)
        self.tgt = _index(self.tgt_vocab if self.tgt_vocab is not None else self.src_vocab)
        if unk not in self.src:
            raise ValueError(f"tokenizer: unk {unk!r} is not in the vocabulary")
        self.unk_id = self.src[unk]
        self.spelling_keep = _keep_of(spelling_keep, self.steps)
        self._correct = (spelling_corrector(self.src_vocab, self.spelling_keep)
                         if "spelling" in self.steps else None)
        self.unknown_shapes = _shapes_of(unknown_shapes, type, self.src)
        for what in ("bos", "eos", "pad"):
            t = getattr(self, what)
            if t is not None and t not in self.tgt and t not in self.src:
                raise ValueError(f"tokenizer: {what} {t!r} is not in the vocabulary")

    # -- ids
    def unknown_token(self, word):
        """The token an unknown word reads as: its shape class when listed, else unk."""
        shape = shape_of(word) if self.unknown_shapes else None
        return shape if shape in self.unknown_shapes else self.unk

    def id(self, token):
        """A source token's id: its own, else its shape class's, else unk's (tokenizer.js id)."""
        i = self.src.get(token)
        return i if i is not None else self.src.get(self.unknown_token(token), self.unk_id)

    @property
    def vocab(self):
        return self.src_vocab

    def _tgt_id(self, t):
        return -1 if t is None else self.tgt.get(t, -1)

    @property
    def bos_id(self):
        return self._tgt_id(self.bos)

    @property
    def eos_id(self):
        return self._tgt_id(self.eos)

    @property
    def pad_id(self):
        return self._tgt_id(self.pad)

    # -- text
    def split_typed(self, text):
        """Text -> its tokens after every normalisation step but spelling."""
        if not isinstance(text, str):
            batch = isinstance(text, (list, tuple)) and text and \
                all(isinstance(t, str) for t in text)
            raise TypeError(f"tokenizer: expected text, got {type(text).__name__}" + (
                f" of {len(text)} texts: one sequence at a time (a batch? a DataLoader's default "
                "collation makes one: give it collate_fn=attnlab.collate)" if batch else ""))
        if self.type == "char":
            return list(normalize_chars(text, self.steps))
        return normalize_words(text, self.steps)

    def split(self, text):
        """Text -> its tokens (strings) after the normalisation, not looked up (with "spelling":
        unknown words as the corrector reads them)."""
        tokens = self.split_typed(text)
        if self._correct is None:
            return tokens
        return [t if t == self.unk else (self._correct(t) or t) for t in tokens]

    def corrections(self, text):
        """With "spelling": [typed, read] for each typed word read as another, once, in order."""
        if self._correct is None:
            return []
        out, seen = [], set()
        for t in self.split_typed(text):
            if t == self.unk or t in seen:
                continue
            seen.add(t)
            r = self._correct(t)
            if r is not None:
                out.append([t, r])
        return out

    def join(self, tokens):
        return "".join(tokens) if self.type == "char" else join_tokens(list(tokens), self.steps)

    def normalize(self, text):
        """The text as the model reads it (Model.normalize in JS)."""
        return self.join(self.split(text))

    def encode(self, text):
        """Source text -> list of source ids (unknown tokens -> the unk id)."""
        return [self.id(t) for t in self.split(text)]

    def encode_target(self, text):
        """Target text -> list of target ids (unknown -> unk when the target vocabulary has it)."""
        unk = self.tgt.get(self.unk, -1)
        out = []
        for t in self.split(text):
            i = self.tgt.get(t, self.tgt.get(self.unknown_token(t), unk))
            if i < 0:
                raise ValueError(f'tokenizer: "{t}" is not in tgtVocab, which has no unk token')
            out.append(i)
        return out

    def unknown_words(self, text):
        """The source tokens not in the vocabulary as typed (read as unk, or corrected with
        "spelling"), each once, in order (unk itself not counted)."""
        out = []
        for t in self.split_typed(text):
            if t not in self.src and t != self.unk and t not in out:
                out.append(t)
        return out

    def decode(self, ids):
        """Target ids -> text, leaving out bos, eos and pad."""
        vocab = self.tgt_vocab if self.tgt_vocab is not None else self.src_vocab
        skip = {self.bos_id, self.eos_id, self.pad_id}
        return self.join([vocab[i] if 0 <= i < len(vocab) else self.unk
                          for i in ids if i not in skip])

    # -- configs
    @classmethod
    def fit(cls, texts, targets=None, *, type="word", normalize=None, specials=("<pad>", "<s>", "</s>", "<unk>"),
            min_count=1):
        """A tokenizer whose vocabulary is every token of `texts` (after normalisation) seen at
        least min_count times, in order of first appearance, after the special tokens (pad, bos,
        eos, unk). With `targets`, a separate target vocabulary from them (seq2seq)."""
        pad, bos, eos, unk = specials

        def vocab_of(lines):
            probe = cls([unk], type=type, unk=unk, normalize=normalize)
            counts = {}
            for line in lines:
                for t in probe.split(line):
                    counts[t] = counts.get(t, 0) + 1
            return list(specials) + [t for t, c in counts.items()
                                     if c >= min_count and t not in specials]

        src = vocab_of(texts)
        tgt = vocab_of(targets) if targets is not None else None
        return cls(src, type=type, tgt_vocab=tgt, bos=bos, eos=eos, unk=unk, pad=pad,
                   normalize=normalize)

    @classmethod
    def from_config(cls, config):
        """The tokenizer of a model config (any architecture) or of its "tokenizer" object."""
        t = config.get("tokenizer", config) if isinstance(config, dict) else None
        if not isinstance(t, dict):
            raise ValueError('config: missing key "tokenizer" (an object)')
        known = {"type", "vocab", "srcVocab", "tgtVocab", "bos", "eos", "unk", "pad", "normalize",
                 "unknownShapes", "spellingKeep"}
        extra = sorted(set(t) - known)
        if extra:
            raise ValueError(f'config "tokenizer": unknown key "{extra[0]}"')
        if "vocab" in t:
            tok = cls(t["vocab"], type=t.get("type"), bos=t.get("bos"), eos=t.get("eos"),
                      unk=t.get("unk"), pad=t.get("pad"), normalize=t.get("normalize"),
                      unknown_shapes=t.get("unknownShapes"), spelling_keep=t.get("spellingKeep"))
        else:
            tok = cls(src_vocab=t.get("srcVocab"), tgt_vocab=t.get("tgtVocab"), type=t.get("type"),
                      bos=t.get("bos"), eos=t.get("eos"), unk=t.get("unk"), pad=t.get("pad"),
                      normalize=t.get("normalize"), unknown_shapes=t.get("unknownShapes"),
                      spelling_keep=t.get("spellingKeep"))
        tok._section = dict(t)
        return tok

    def config(self, architecture):
        """The "tokenizer" object of a config of that architecture: srcVocab / tgtVocab for
        seq2seq and transformer, vocab for classifier and memory-rnn (labels are not here)."""
        if getattr(self, "_section", None) is not None:
            src_style = "srcVocab" in self._section
            if src_style == (architecture in ("seq2seq", "transformer")):
                return dict(self._section)
        out = {"type": self.type}
        if architecture in ("seq2seq", "transformer"):
            out["srcVocab"] = list(self.src_vocab)
            out["tgtVocab"] = list(self.tgt_vocab if self.tgt_vocab is not None else self.src_vocab)
        else:
            out["vocab"] = list(self.src_vocab)
        # a classifier reads no bos / eos (its config refuses the keys); the others name them
        for k in ("unk", "pad") if architecture == "classifier" else ("bos", "eos", "unk", "pad"):
            if getattr(self, k) is not None:
                out[k] = getattr(self, k)
        if self._normalize_given is not None:
            out["normalize"] = list(self._normalize_given)
        if self.unknown_shapes:
            out["unknownShapes"] = list(self.unknown_shapes)
        if self.spelling_keep:
            out["spellingKeep"] = list(self.spelling_keep)
        return out

    def __repr__(self):
        tgt = f", tgt_vocab=[{len(self.tgt_vocab)}]" if self.tgt_vocab is not None else ""
        return (f"Tokenizer(type={self.type!r}, vocab=[{len(self.src_vocab)}]{tgt}, "
                f"normalize={self.normalization})")
