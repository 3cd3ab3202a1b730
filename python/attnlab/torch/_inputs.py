"""What every attnlab.torch module checks in the text or ids of one call, and the device its own
tensors are made on (docs/python.md, "Bigger than the browser").

    ids = ids_of(model, "the cat", "Seq2Seq.run")          # text through model.tokenizer
    ids = ids_of(model, torch.tensor([4, 5]), "Seq2Seq.run", vocab=model.Vs)
    x = torch.tensor([ids], device=device_of(model))

The modules take one sequence a call, as the C models: text, or token ids as a list, a tuple,
a 1-D integer tensor or numpy array. Anything else is refused with the JS library's wording
(wasm/model/common.js sourceIds, wasm/tensors.js idsFrom): an empty input ("the input is empty
(no tokens)"), an id outside the vocabulary ("input[3] = 99 is not a token id in [0, 7)"), and
a batch ("one sequence at a time: got a batch of shape [2, 5]"), which names the ways on: a
loop over the rows, or attnlab.collate with a DataLoader. Deliberately not here: padding or
batching itself.
"""

import numpy as np
import torch

BATCH_HINT = ("; loop over the rows, or give a DataLoader collate_fn=attnlab.collate and "
              "sum model.example_loss over each batch (docs/python.md, \"Bigger than the "
              "browser\")")


def device_of(module):
    """The device of the module's parameters (where its index tensors are made); cpu if none."""
    for p in module.parameters():
        return p.device
    return torch.device("cpu")


def _shape(s):
    return "[" + ", ".join(str(int(n)) for n in s) + "]"


def _kind(v):
    if isinstance(v, torch.Tensor):
        return f"a {str(v.dtype).replace('torch.', '')} tensor of shape {_shape(v.shape)}"
    if isinstance(v, np.ndarray):
        return f"a {v.dtype} array of shape {_shape(v.shape)}"
    return type(v).__name__


def ids_of(module, value, what, vocab=None, encode=None, name="input"):
    """Text or token ids of one sequence -> a list of ints, checked. what: "Seq2Seq.run"; vocab:
    the ids' bound (default: the tokenizer's source vocabulary); encode: text -> ids (default:
    module.tokenizer.encode); name: what the value is called in the message ("input", "tgt")."""
    the = "the input" if name == "input" else name
    if isinstance(value, str):
        if encode is None:
            if getattr(module, "tokenizer", None) is None:
                raise ValueError(f"{what}: {the} is text but the module has no tokenizer "
                                 "(give tokenizer=, or token ids)")
            encode = module.tokenizer.encode
        ids = list(encode(value))
    else:
        ids = _ids_from(value, what, name)
    if not ids:
        raise ValueError(f"{what}: {the} is empty (no tokens)")
    if vocab is not None:
        for i, v in enumerate(ids):
            if not 0 <= v < vocab:
                raise ValueError(f"{what}: {name}[{i}] = {v} is not a token id in [0, {vocab})")
    return ids


def count_of(value, what, name, default=None):
    """An option that counts (max_length, beam_width): None -> default, else an int >= 1 (the
    JS library's "maxLength 0 must be an integer in [1, ...]"; PyTorch has no upper cap)."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{what}: {name} {value!r} must be an integer >= 1")
    return int(value)


def _ids_from(value, what, name):
    if isinstance(value, (torch.Tensor, np.ndarray)):
        if value.ndim >= 2:
            raise ValueError(f"{what}: one sequence at a time: got a batch of shape "
                             f"{_shape(value.shape)}" + BATCH_HINT)
        if value.ndim == 0:
            raise ValueError(f"{what}: {name} must be text or a sequence of token ids, got "
                             f"{_kind(value)} (one id: wrap it, [id])")
        integer = (not value.dtype.is_floating_point and not value.dtype.is_complex
                   and value.dtype != torch.bool) if isinstance(value, torch.Tensor) \
            else np.issubdtype(value.dtype, np.integer)
        if not integer:
            raise ValueError(f"{what}: {name} must be token ids (integers), got {_kind(value)}")
        return [int(v) for v in value.tolist()]
    if not isinstance(value, (list, tuple, range)):
        raise ValueError(f"{what}: {name} must be text or a sequence of token ids, got "
                         f"{_kind(value)}")
    out = []
    for i, v in enumerate(value):
        if isinstance(v, str) and not out and all(isinstance(x, str) for x in value):
            raise ValueError(f"{what}: one sequence at a time: got a batch of {len(value)} "
                             "texts" + BATCH_HINT)
        if isinstance(v, (list, tuple, torch.Tensor, np.ndarray)) and \
                not (getattr(v, "ndim", 1) == 0):
            lens = {len(x) if hasattr(x, "__len__") else -1 for x in value}
            shape = f"[{len(value)}, {lens.pop()}]" if len(lens) == 1 else \
                f"of {len(value)} sequences"
            raise ValueError(f"{what}: one sequence at a time: got a batch "
                             f"{'of shape ' if shape[0] == '[' else ''}{shape}" + BATCH_HINT)
        if isinstance(v, (torch.Tensor, np.ndarray)):
            v = v.item()
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise ValueError(f"{what}: {name}[{i}] = {v!r} is not a token id (an integer)")
        out.append(int(v))
    return out
