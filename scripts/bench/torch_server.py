"""torch_server.py: PyTorch CPU (one thread) as a benchmark contender for scripts/bench.mjs.

Speaks the same line protocol as scripts/bench/native.c on stdin/stdout, so its rounds
interleave with the other contenders:
    matmul <id> <M> <K> <N> <in.bin> <out.bin>
    sdpa <id> <B> <H> <T> <S> <D> <Dv> <causal> <weights> <in.bin> <out.bin>
    hello 0            -> {"ok": true, "version": ...} once torch has loaded
    time <id> <reps>   -> {"ms": per-call milliseconds}
    free <id>, quit
Attention is written out as PyTorch 1.13 has no fused scaled_dot_product_attention:
softmax((q * scale) @ k^T + causal bias) @ v, the bias built once outside the timed call.
It deliberately does no checking or statistics: bench.mjs does both for every contender.
"""
import json
import sys
import time

try:
    import numpy as np
    import torch
except ImportError as e:  # the harness reports this and skips the contender
    sys.stdout.write(json.dumps({"error": "PyTorch not importable: " + str(e)}) + "\n")
    sys.exit(0)

torch.set_num_threads(1)
torch.set_grad_enabled(False)

cases = {}


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def setup(words):
    op, cid = words[0], int(words[1])
    if op == "matmul":
        M, K, N = map(int, words[2:5])
        inp, outp = words[5], words[6]
        x = np.fromfile(inp, dtype="<f4")
        a = torch.from_numpy(x[: M * K].reshape(M, K).copy())
        b = torch.from_numpy(x[M * K: M * K + K * N].reshape(K, N).copy())
        fn = lambda: torch.mm(a, b)  # noqa: E731
    else:
        B, H, T, S, D, Dv, causal, weights = map(int, words[2:10])
        inp, outp = words[10], words[11]
        x = np.fromfile(inp, dtype="<f4")
        nq, nk = B * H * T * D, B * H * S * D
        q = torch.from_numpy(x[:nq].reshape(B, H, T, D).copy())
        k = torch.from_numpy(x[nq: nq + nk].reshape(B, H, S, D).copy())
        v = torch.from_numpy(x[nq + nk: nq + nk + B * H * S * Dv].reshape(B, H, S, Dv).copy())
        scale = 1.0 / (D ** 0.5)
        bias = None
        if causal:
            bias = torch.triu(torch.full((T, S), float("-inf")), diagonal=1)

        def fn():
            e = torch.matmul(q * scale, k.transpose(-2, -1))
            if bias is not None:
                e = e + bias
            p = torch.softmax(e, dim=-1)
            o = torch.matmul(p, v)
            return (o, p) if weights else o

    cases[cid] = fn
    r = fn()
    out = r[0] if isinstance(r, tuple) else r
    out.contiguous().numpy().astype("<f4").tofile(outp)
    reply({"ok": True})


def main():
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        try:
            if words[0] == "quit":
                break
            if words[0] == "hello":
                reply({"ok": True, "version": torch.__version__})
                continue
            if words[0] in ("matmul", "sdpa"):
                setup(words)
            elif words[0] == "time":
                fn, reps = cases[int(words[1])], int(words[2])
                t0 = time.perf_counter()
                for _ in range(reps):
                    fn()
                reply({"ms": (time.perf_counter() - t0) * 1e3 / reps})
            elif words[0] == "free":
                cases.pop(int(words[1]), None)
                reply({"ok": True})
            else:
                reply({"error": "unknown command " + words[0]})
        except Exception as e:  # report to the harness, keep serving
            reply({"error": repr(e)})


if __name__ == "__main__":
    main()
