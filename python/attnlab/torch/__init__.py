"""attnlab.torch: reference nn.Modules that are exactly attnlab's architectures (docs/models.md),
built from PyTorch's own layers under the model file's tensor names.

    from attnlab.torch import Seq2Seq, TransformerSeq2Seq, Transformer, Classifier, MemoryRNN
    model = Seq2Seq(tok, cell='gru', attention='general', hidden_size=64)
    out = model(src_ids, tgt_ids)     # log_probs [T, V], attention [T, S] (the JS shapes)
    model.config                      # the model file's config, exactly as docs/models.md

Each class takes keyword arguments (the config keys in snake_case) or a config
(`from_config`), carries an optional Tokenizer, and has `forward` (autograd, one sequence) and
`run` (what the JS Model.run returns). The reference functions the fixtures use (greedy, beam,
score, forward, classify, loss, nll) stay in the submodules. Deliberately not here: batching
(one sequence per call, as the C models), training loops, file I/O (attnlab.export / load).
"""

from ..tokenizer import Tokenizer
from .classifier import AttentionPooling, Classifier
from .memory_rnn import MemoryRNN
from .seq2seq import Seq2Seq
from .transformer import RelativeMultiheadAttention, Transformer, TransformerSeq2Seq

ARCHITECTURES = {"seq2seq": Seq2Seq, "transformer": Transformer, "classifier": Classifier,
                 "memory-rnn": MemoryRNN}

__all__ = ["Tokenizer", "Seq2Seq", "Transformer", "TransformerSeq2Seq", "Classifier", "MemoryRNN",
           "RelativeMultiheadAttention", "AttentionPooling", "ARCHITECTURES"]
