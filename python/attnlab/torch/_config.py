"""What the four reference modules share: building a docs/models.md config from keyword
arguments (`Seq2Seq(cell='gru', hidden_size=64)` -> "cell": "gru", "hiddenSize": 64), the
reverse (`from_config`), the `.config` property, and the tokenizer a module carries.

Keyword names are the config keys in snake_case; a keyword left at None is left out of the
config (the format's default applies). `from_config` is strict where the keyword constructor is
kind: a key the config needs but lacks is an error there (as the JS loader's), while a keyword
call fills it with a documented default. Free-form keys (name, description, training) ride
along unchanged. Also `fit` (Adam over text examples, each class's `example_loss`). Deliberately not here: the
maths (each module's file) and file I/O (attnlab.io).
"""

import re

import torch
from torch import nn

from ..limits import CONFIG_LIMITS
from ..tokenizer import Tokenizer

FREE_FORM = ("name", "description", "training")
# CONFIG_LIMITS' entries that are not an integer key's upper bound (checked on their own below)
NOT_INTEGER = ("penaltyCoefficient", "temperature", "labels", "vocab")
BOOLS = ("bidirectional", "inputFeeding", "scaled", "normFirst", "finalNorm", "scaleEmbedding")


def camel(key):
    head, *rest = key.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def snake(key):
    return re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), key)


def smoothing_of(value, who):
    """label_smoothing checked as createTrainer's labelSmoothing is: a real number in [0, 1)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1:
        raise ValueError(f"{who}: label_smoothing must be a number in [0, 1), got {value!r}")
    return float(value)


def token_nll(lp, targets, label_smoothing=0.0):
    """Σ_rows −lp[row, target] for log-probabilities lp [n, V]; with label_smoothing ε > 0 each
    row's target is (1 − ε)·onehot + ε/V, PyTorch's F.cross_entropy(label_smoothing=ε) and what
    createTrainer's labelSmoothing trains (docs/training.md, "Label smoothing")."""
    rows = torch.arange(len(targets), device=lp.device)
    picked = lp[rows, torch.tensor(targets, device=lp.device)]
    if not label_smoothing:
        return -picked.sum()
    return -((1 - label_smoothing) * picked + label_smoothing * lp.mean(-1)).sum()


class ConfigModule(nn.Module):
    """Base of Seq2Seq, Transformer, Classifier and MemoryRNN (not instantiated alone)."""

    ARCHITECTURE = None
    KEYS = ()            # the config keys (camelCase) besides architecture, tokenizer, free-form
    ENUMS = {}           # key -> the values it may take

    def _keys_from(self, kwargs, strict):
        """kwargs (snake_case, None = absent) -> self._keys; unknown keywords refused by name."""
        who = type(self).__name__
        keys = {}
        for k, v in kwargs.items():
            ck = camel(k)
            if ck not in self.KEYS:
                known = ", ".join(snake(x) for x in self.KEYS)
                raise TypeError(f"{who}: unknown keyword {k!r} (known: {known})")
            if v is not None:
                keys[ck] = v
        for k, values in self.ENUMS.items():
            if k in keys and keys[k] not in values:
                raise ValueError(f'{who}: config "{k}": unknown value {keys[k]!r} '
                                 f"(known: {', '.join(values)})")
        limits = CONFIG_LIMITS[self.ARCHITECTURE]
        for k, v in keys.items():
            top = None if k in NOT_INTEGER else limits.get(k)
            if top is not None and (not isinstance(v, int) or isinstance(v, bool)
                                    or not 1 <= v <= top):
                raise ValueError(f'{who}: config "{k}": {v!r} is out of range (an integer in '
                                 f"[1, {top}])")
            if k in BOOLS and not isinstance(v, bool):
                raise ValueError(f'{who}: config "{k}" must be true or false, not {v!r}')
        if "penaltyCoefficient" in keys and not (
                isinstance(keys["penaltyCoefficient"], (int, float))
                and 0 <= keys["penaltyCoefficient"] <= limits["penaltyCoefficient"]):
            raise ValueError(f'{who}: config "penaltyCoefficient": '
                             f'{keys["penaltyCoefficient"]!r} is out of range (a number in '
                             f'[0, {limits["penaltyCoefficient"]}])')
        if "temperature" in keys:
            T = keys["temperature"]
            if isinstance(T, bool) or not isinstance(T, (int, float)):
                raise ValueError(f'{who}: config "temperature" must be a number, not {T!r}')
            if not (0 < T <= limits["temperature"]):   # NaN fails too
                raise ValueError(f'{who}: config "temperature": {T!r} is out of range (a number '
                                 f'> 0 and <= {limits["temperature"]}; 1 leaves the '
                                 f'probabilities as they are)')
        if "labels" in keys and (isinstance(keys["labels"], str)
                                 or not all(isinstance(x, str) for x in keys["labels"])
                                 or not 1 <= len(keys["labels"]) <= limits["labels"]):
            raise ValueError(f'{who}: config "labels" must be 1 to {limits["labels"]} strings')
        self._keys, self._strict, self._extra = keys, strict, {}
        return keys

    def _need(self, key, default, why):
        """A key the config needs in this setting: present, or the keyword default (an error
        from a config, as the JS loader's)."""
        if key in self._keys:
            return self._keys[key]
        if self._strict:
            raise ValueError(f'{type(self).__name__}: config: missing key "{key}" ({why})')
        self._keys[key] = default
        return default

    SIZES = {"src_vocab_size": lambda t: len(t.src_vocab),
             "vocab_size": lambda t: len(t.src_vocab),
             "tgt_vocab_size": lambda t: len(t.tgt_vocab if t.tgt_vocab is not None else t.src_vocab)}

    def _tokenizer_sizes(self, tokenizer, given):
        """The vocabulary sizes {name: size or None} (names of SIZES): from the tokenizer, or
        given (both: they must agree)."""
        who = type(self).__name__
        if tokenizer is not None and not isinstance(tokenizer, Tokenizer):
            raise TypeError(f"{who}: tokenizer must be an attnlab Tokenizer, not "
                            f"{type(tokenizer).__name__}")
        out = {}
        for name, value in given.items():
            tv = self.SIZES[name](tokenizer) if tokenizer is not None else None
            if value is None and tv is None:
                raise ValueError(f"{who}: needs {name}= or tokenizer= (to size its embeddings)")
            if value is not None and tv is not None and value != tv:
                raise ValueError(f"{who}: {name}={value} but the tokenizer has {tv}")
            out[name] = value if value is not None else tv
        self.tokenizer = tokenizer
        return out

    @torch.no_grad()
    def _init_own_parameters(self):
        """PyTorch's layers initialise themselves; the parameters of attnlab's own submodules
        (attention, pooling) are made with torch.empty, so they get U(+-1/sqrt(fan_in)) here
        (fan_in: a matrix's columns, a vector's length), as nn.Linear would."""
        for mod in self.modules():
            if type(mod).__module__.startswith("attnlab.") and mod is not self \
                    and not isinstance(mod, (nn.MultiheadAttention, nn.RNNBase)):
                for p in mod.parameters(recurse=False):
                    fan = p.shape[-1]
                    nn.init.uniform_(p, -1 / fan ** 0.5, 1 / fan ** 0.5)

    def example_loss(self, example, label_smoothing=0.0):
        """The summed training loss of one example (each architecture defines it), its
        cross-entropy label-smoothed by label_smoothing (token_nll)."""
        raise NotImplementedError

    def _pair(self, example, what):
        """One example of two parts (what: "(source, target)") -> the pair; a batch made by a
        DataLoader's default collation (tuples of texts) is refused by name."""
        if isinstance(example, (list, tuple)) and len(example) == 2:
            return example
        who = f"{type(self).__name__}.example_loss"
        if isinstance(example, (list, tuple)) and example and \
                all(isinstance(x, str) for x in example):
            raise TypeError(f"{who}: expected one example {what}, got a "
                            f"{type(example).__name__} of {len(example)} texts: one sequence "
                            "at a time (a batch? a DataLoader's default collation makes one: "
                            "give it collate_fn=attnlab.collate)")
        raise TypeError(f"{who}: expected one example {what}, got {type(example).__name__}"
                        + (f" of {len(example)}" if isinstance(example, (list, tuple)) else ""))

    def _label_id(self, label):
        labels = self._keys.get("labels") or []
        if isinstance(label, str):
            if label not in labels:
                raise ValueError(f"{type(self).__name__}.fit: label {label!r} is not one of "
                                 f"{labels}")
            return labels.index(label)
        return int(label)

    def fit(self, examples, epochs=1, lr=1e-2, batch_size=8, seed=0, label_smoothing=0.0):
        """Train with Adam on `examples` (text, as docs/python.md lists per architecture:
        seq2seq (source, target) pairs; transformer encoder-decoder pairs, decoder texts,
        encoder (text, [label per token]); classifier and memory-rnn classifier (text, label);
        memory-rnn lm texts). Losses are summed over `batch_size` examples a step, examples
        shuffled each epoch with `seed`; label_smoothing in [0, 1) as createTrainer's
        labelSmoothing. Returns the mean loss per example of each epoch."""
        ls = smoothing_of(label_smoothing, f"{type(self).__name__}.fit")
        examples = list(examples)
        if not examples:
            raise ValueError(f"{type(self).__name__}.fit: no examples")
        if self.tokenizer is None:
            raise ValueError(f"{type(self).__name__}.fit: needs a tokenizer (to read the text)")
        opt = torch.optim.Adam(self.parameters(), lr=lr)
        gen = torch.Generator().manual_seed(seed)
        history = []
        for _ in range(epochs):
            order = torch.randperm(len(examples), generator=gen).tolist()
            total = 0.0
            for i in range(0, len(order), batch_size):
                opt.zero_grad()
                loss = sum(self.example_loss(examples[j], label_smoothing=ls)
                           for j in order[i:i + batch_size])
                loss.backward()
                opt.step()
                total += float(loss)
            history.append(total / len(examples))
        return history

    @property
    def config(self):
        """The model file's config (docs/models.md): architecture, every key set, the
        tokenizer's object when the module has a tokenizer, and the free-form keys."""
        c = {"architecture": self.ARCHITECTURE, **self._keys}
        if self.tokenizer is not None:
            c["tokenizer"] = self.tokenizer.config(self.ARCHITECTURE)
        c.update(self._extra)
        return c

    @property
    def cfg(self):   # the name the reference functions (greedy, score, ...) read
        return self.config

    @classmethod
    def config_kwargs(cls, config):
        """A config -> (tokenizer, keyword arguments, free-form keys); unknown keys refused."""
        who = cls.__name__
        if not isinstance(config, dict):
            raise TypeError(f"{who}.from_config: config must be a dict, not {type(config).__name__}")
        if config.get("architecture") != cls.ARCHITECTURE:
            raise ValueError(f'{who}.from_config: config "architecture" is '
                             f'{config.get("architecture")!r}, not "{cls.ARCHITECTURE}"')
        kwargs, extra = {}, {}
        for k, v in config.items():
            if k in ("architecture", "tokenizer"):
                continue
            if k in FREE_FORM:
                extra[k] = v
            elif k in cls.KEYS:
                kwargs[snake(k)] = v
            else:
                raise ValueError(f'{who}.from_config: config: unknown key "{k}"')
        tok = Tokenizer.from_config(config) if "tokenizer" in config else None
        return tok, kwargs, extra

    @classmethod
    def from_config(cls, config):
        """The module a config describes (weights freshly initialised)."""
        tok, kwargs, extra = cls.config_kwargs(config)
        m = cls(tokenizer=tok, _strict=True, **kwargs)
        m._extra = extra
        return m


def tokens_of(tokenizer, ids, target=False):
    """The tokens of ids in the source (or target) vocabulary, None without a tokenizer: the
    labels a run result carries (as JS's results do) and attnlab.show draws."""
    if tokenizer is None:
        return None
    vocab = (tokenizer.tgt_vocab or tokenizer.src_vocab) if target else tokenizer.src_vocab
    return [vocab[i] if 0 <= i < len(vocab) else tokenizer.unk for i in ids]
