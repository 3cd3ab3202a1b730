"""attnlab for PyTorch: study and build attnlab's models in Python (docs/python.md).

    import attnlab
    from attnlab.torch import Seq2Seq
    tok = attnlab.Tokenizer.fit(sources, targets, type='char')
    model = Seq2Seq(tok, cell='gru', attention='additive')            # train it as any nn.Module
    attnlab.export(model, 'my.safetensors', card={'title': 'mine'})   # loadModel / the page read it
    same = attnlab.load('my.safetensors')                            # and back (F32, F16, I8)

Holds: export / load (attnlab.io), Tokenizer (attnlab.tokenizer, the JS normalisation),
the reference modules (attnlab.torch), the safetensors reader/writer (attnlab.safetensors).
`attnlab.show` (a notebook view, attnlab.show; standard library only); `attnlab.attention`
(every nn.MultiheadAttention's per-head weights from one run of any module, attnlab.capture).
`attnlab.collate` and `attnlab.BatchLoss` (attnlab.data): training under a DataLoader and DDP.
"""

from .data import BatchLoss, collate
from .io import ExportError, LoadError, export, load
from .tokenizer import Tokenizer
from .capture import attention
from . import torch  # noqa: F401  (attnlab.torch: the modules)
from .show import show  # noqa: E402  (after the submodule import: attnlab.show stays the function)

__version__ = "0.2.0"
__all__ = ["export", "load", "Tokenizer", "ExportError", "LoadError", "show", "attention", "torch",
           "collate", "BatchLoss"]

