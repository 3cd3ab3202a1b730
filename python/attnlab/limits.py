"""The caps of a model config (src/models/config_limits.h), Python's one copy: per
architecture, each integer config key's upper bound (every size is at least 1), plus "vocab"
(entries of each vocabulary) and "labels" (class names). attnlab.torch's config checks read it.

tests/js/config-limits-python.test.js checks it equals wasm/config-limits.js, which
tests/js/limits.test.js checks against the C library. Deliberately not here: any import (the
test runs this file alone), enumerations and defaults (docs/models.md), the per-call limits.
"""

CONFIG_LIMITS = {
    "seq2seq": {
        "embeddingSize": 4096, "hiddenSize": 4096, "attentionSize": 4096, "positionSize": 4096,
        "keySize": 4096, "valueSize": 4096, "numLayers": 8, "window": 1024, "maxLength": 1024,
        "vocab": 1048576,
    },
    "transformer": {
        "embeddingSize": 4096, "feedforwardSize": 4096, "numHeads": 64,
        "numLayers": 16,                        # encoder, decoder
        "numLayersEncoderDecoder": 8,           # per stack
        "numLayersEncoderDecoderRelative": 7,   # per stack, positions "relative"
        "maxPositions": 4096, "maxRelativePosition": 4096, "maxLength": 1024, "vocab": 1048576,
    },
    "classifier": {
        "embeddingSize": 4096, "hiddenSize": 4096, "attentionSize": 4096,
        "sentenceHiddenSize": 4096, "sentenceAttentionSize": 4096, "numLayers": 8, "hops": 64,
        "penaltyCoefficient": 10000,            # a number in [0, 10000]
        "temperature": 1000,                    # a number in (0, 1000]
        "vocab": 1048576, "labels": 65536,
    },
    "memory-rnn": {
        "embeddingSize": 4096, "hiddenSize": 4096, "attentionSize": 4096, "vocab": 1048576,
        "labels": 65536,
    },
}

# An op file's caps (attnlab.load of an nn.MultiheadAttention export). The C library reads op
# files as bare tensors and has no table for them, so these live here alone (tested in
# python/tests/test_malformed.py): the model caps' widest dimension and most heads.
OP_LIMITS = {
    "multiHeadAttention": {"embedDim": 4096, "numHeads": 64},
}
