"""attnlab.collate and attnlab.BatchLoss: attnlab's modules under a torch DataLoader,
DistributedDataParallel or nn.DataParallel (docs/python.md, "Bigger than the browser").

    loader = DataLoader(pairs, batch_size=8, shuffle=True, collate_fn=attnlab.collate)
    step = attnlab.BatchLoss(model)          # step(batch): the batch's summed loss, one forward
    for batch in loader:                     # batch: a list of examples, as the dataset gave them
        opt.zero_grad(); step(batch).backward(); opt.step()

The modules read one sequence a call (as the C models), so a batch is a list of examples, not a
padded tensor: torch's default collation turns a batch of (source, target) pairs into two tuples
of strings, which the modules refuse ("one sequence at a time"); `collate` keeps each example
whole. `BatchLoss` makes the loss of a whole batch one forward call, which is what DDP needs (its
gradient hooks are armed in forward: a loop of model.example_loss calls on ddp.module would skip
the all-reduce and the replicas would drift apart). attnlab.export unwraps it, as it unwraps DDP
and nn.DataParallel (`.module`). Deliberately not here: padding, masks, samplers (torch's own).
"""

import numpy as np
import torch
from torch import nn


def _plain(x):
    """A tensor or numpy value of an example -> Python (ids as a list, a label as an int)."""
    if isinstance(x, (torch.Tensor, np.ndarray)):
        return x.tolist()
    if isinstance(x, (tuple, list)):
        return type(x)(_plain(v) for v in x)
    return x


def collate(batch):
    """A DataLoader collate_fn for attnlab's examples: the list of examples of one batch, each
    kept whole (text, (source, target), (text, label), (text, [label per token])); tensors and
    numpy arrays inside an example become lists / numbers. Every architecture's example_loss
    (and attnlab.BatchLoss) reads these."""
    if not isinstance(batch, (list, tuple)):
        raise TypeError(f"attnlab.collate: expected the list of a batch's examples, got "
                        f"{type(batch).__name__}")
    return [_plain(ex) for ex in batch]


class BatchLoss(nn.Module):
    """The summed training loss of a batch of examples, in one forward: BatchLoss(model)(batch)
    = sum of model.example_loss(example) over the batch (a list, as attnlab.collate gives it).
    Wrap it, not the model, in DistributedDataParallel; `.module` is the model (export unwraps
    it)."""

    def __init__(self, model):
        super().__init__()
        if not hasattr(model, "example_loss"):
            raise TypeError(f"attnlab.BatchLoss: {type(model).__name__} is not an attnlab.torch "
                            "module (Seq2Seq, Transformer, TransformerSeq2Seq, Classifier, "
                            "MemoryRNN): it has no example_loss")
        self.module = model

    def forward(self, batch):
        if not isinstance(batch, (list, tuple)) or not batch:
            got = "an empty list" if isinstance(batch, (list, tuple)) else type(batch).__name__
            raise ValueError("attnlab.BatchLoss: the batch must be a non-empty list of examples "
                             f"(DataLoader(..., collate_fn=attnlab.collate)), got {got}")
        return sum(self.module.example_loss(ex) for ex in batch)
