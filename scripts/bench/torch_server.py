"""torch_server.py: PyTorch CPU (one thread) as a benchmark contender for scripts/bench.mjs.

Speaks the same line protocol as scripts/bench/native.c on stdin/stdout, so its rounds
interleave with the other contenders:
    matmul <id> <M> <K> <N> <in.bin> <out.bin>
    sdpa <id> <B> <H> <T> <S> <D> <Dv> <causal> <weights> <in.bin> <out.bin>
    mha <id> <L> <E> <H> <in> <out>           nn.MultiheadAttention(E, H, batch_first), self-attention
    additive <id> <n> <dq> <dk> <da> <in> <out>   softmax(tanh(keys W_k^T + W_q s + b) v) keys
    lstm|gru <id> <T> <I> <H> <in> <out>      nn.LSTM / nn.GRU, one layer, batch 1
    model <id> <file> <S> <in> <out>          python/attnlab/torch/seq2seq.py greedy -> log-probs
    train <id> <file> <B> <S> <T> <lr> <clip> <in> <out>
                                              one Adam step of the seq2seq model on a padded batch
                                              -> [loss, gradient norm before clipping]
    labtrain <id> <model.safetensors> <batches.json> <lr> <clip> <out>
                                              a lab preset's model (torch_train.py), one Adam step
                                              per call on the next batch -> [loss, gradient norm]
                                              of the first step (batch 0, the initial weights)
    labgrad <id> <gradients.safetensors> <out> the initial weights' gradient on batch 0 against
                                              attnlab's (trainer.gradients()): [max |Δ| / max |g|,
                                              max |Δ|] over every tensor (no update)
    hello 0            -> {"ok": true, "version": ..., "blas": torch_train.blas_info()} once
                          torch has loaded
Usage: torch_server.py [--threads N] (default 1; torch.set_num_threads(N)). The BLAS is whatever
the dynamic loader finds: scripts/bench/blas.mjs starts this with LD_LIBRARY_PATH pointing at
Debian's OpenBLAS (libopenblas0-pthread) and OPENBLAS_NUM_THREADS = N.
    time <id> <reps>   -> {"ms": per-call milliseconds}
    free <id>, quit
Attention is written out as PyTorch 1.13 has no fused scaled_dot_product_attention:
softmax((q * scale) @ k^T + causal bias) @ v, the bias built once outside the timed call.
Training runs the whole batch at once (padded, the encoder on packed sequences, the decoder
masked per step, loss = summed token NLL / number of target tokens, as attnlab's trainer), the
way one would train it in PyTorch; configs with local attention (whose window is per sentence)
fall back to seq2seq.py's one-sentence loop, and the reply says which ran.
It deliberately does no checking or statistics: bench.mjs does both for every contender.
"""
import json
import sys
import time

try:
    import numpy as np
    import torch
    from torch import nn
except ImportError as e:  # the harness reports this and skips the contender
    sys.stdout.write(json.dumps({"error": "PyTorch not importable: " + str(e)}) + "\n")
    sys.exit(0)

import os

THREADS = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 1
torch.set_num_threads(THREADS)
torch.set_grad_enabled(False)

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
sys.path.insert(0, SCRIPTS)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(SCRIPTS), "python"))
import torch_train  # noqa: E402
cases = {}
_s2s = None


def s2s():
    """python/attnlab/torch/seq2seq.py (the package's reference), imported on first use."""
    global _s2s
    if _s2s is None:
        sys.path.insert(0, os.path.join(os.path.dirname(SCRIPTS), "python"))
        from attnlab.torch import seq2seq
        _s2s = seq2seq
    return _s2s


def load_seq2seq(path):
    """A model file (F32, F16 or I8: widened as the C loader does) -> (Seq2Seq, config)."""
    s2s()
    import attnlab
    model = attnlab.load(path)
    return model, model.config


def attend_batched(att, q, keys, mask):
    """The attention of seq2seq.py's Attention.forward for a batch: q [B,H], keys [B,S,H],
    mask [B,S] (True = padding) -> context [B,dc]."""
    if att.kind == "additive":
        e = torch.tanh((q @ att.W_q.T + att.bias)[:, None, :] + keys @ att.W_k.T) @ att.v
        vals = keys
    elif att.kind == "key-query":
        e = ((keys @ att.W_K.T) @ (q @ att.W_Q.T)[:, :, None]).squeeze(-1)
        if att.scaled:
            e = e / (att.W_Q.shape[0] ** 0.5)
        vals = keys @ att.W_V.T
    elif att.score == "dot":
        e = (keys @ q[:, :, None]).squeeze(-1)
        vals = keys
    elif att.score == "general":
        e = (keys @ (q @ att.W_a)[:, :, None]).squeeze(-1)
        vals = keys
    else:
        H = q.shape[1]
        e = torch.tanh((q @ att.W_a[:, :H].T)[:, None, :] + keys @ att.W_a[:, H:].T) @ att.v_a
        vals = keys
    a = torch.softmax(e.masked_fill(mask, float("-inf")), -1)
    return (a[:, None, :] @ vals).squeeze(1)


def batched_loss(model, src, src_len, tgt, tgt_len):
    """Mean token NLL of a padded batch: src [B,S], tgt [B,T] (long), lengths [B]."""
    B, S = src.shape
    T = tgt.shape[1]
    x = model.src_embedding(src)
    packed = nn.utils.rnn.pack_padded_sequence(x, src_len, batch_first=True, enforce_sorted=False)
    out, hn = model.encoder(packed)
    keys, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=S)
    if model.lstm:
        hn, cn = hn
    h = hn[-model.dirs:].transpose(0, 1).reshape(B, -1)  # [forward; reverse] of the top layer
    c = cn[-model.dirs:].transpose(0, 1).reshape(B, -1) if model.lstm else None
    feed = torch.zeros_like(h)
    mask = torch.arange(S)[None, :] >= src_len[:, None]
    y = torch.full((B,), model.bos, dtype=torch.long)
    total = 0.0
    for t in range(T):
        e = model.tgt_embedding(y)
        ctx = None
        if model.style == "bahdanau":
            if model.attention is not None:
                ctx = attend_batched(model.attention, h, keys, mask)
                e = torch.cat([e, ctx], 1)
        elif model.feed:
            e = torch.cat([e, feed], 1)
        if model.lstm:
            h, c = model.decoder(e, (h, c))
        else:
            h = model.decoder(e, h)
        if model.style == "bahdanau":
            feat = h if ctx is None else torch.cat([h, ctx], 1)
        elif model.attention is not None:
            ctx = attend_batched(model.attention, h, keys, mask)
            feed = torch.tanh(torch.cat([ctx, h], 1) @ model.attention.W_c.T)
            feat = feed
        else:
            feat = feed = h
        logp = torch.log_softmax(model.out(feat), -1)
        nll = -logp.gather(1, tgt[:, t:t + 1]).squeeze(1)
        total = total + (nll * (t < tgt_len)).sum()
        y = tgt[:, t]
    return total / tgt_len.sum()


def per_pair_loss(model, src, src_len, tgt, tgt_len):
    """The same loss, one sentence at a time through seq2seq.py's step (any config)."""
    total = 0.0
    for b in range(src.shape[0]):
        s = [int(v) for v in src[b, :src_len[b]]]
        g = [int(v) for v in tgt[b, :tgt_len[b]]]
        keys, state = model.encode(s)
        for t, yy in enumerate(g):
            logp, _, _, state = model.step(keys, state, g[t - 1] if t else model.bos, t)
            total = total - logp[yy]
    return total / tgt_len.sum()


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
    elif op in ("mha", "additive", "lstm", "gru", "model", "train"):
        fn, variant, outp = setup_other(op, words)
        cases[cid] = fn
        r = fn()
        if op == "model":
            out = torch.tensor(r[1], dtype=torch.float32)
        elif op == "train":
            out = torch.tensor(r, dtype=torch.float32)
        else:
            out = r
        out.contiguous().numpy().astype("<f4").tofile(outp)
        if op == "train":  # timing repeats the step (the weights move on; the cost does not)
            cases[cid] = fn
        reply({"ok": True, "variant": variant} if variant else {"ok": True})
        return
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


def setup_other(op, words):
    """-> (timed function, variant name or None, output path) for the ops after sdpa."""
    if op in ("model", "train"):
        path = words[2]
        if op == "model":
            S = int(words[3])
            inp, outp = words[4], words[5]
            model, _ = load_seq2seq(path)
            model.eval()
            src = [int(v) for v in np.fromfile(inp, dtype="<i4")[:S]]
            greedy = s2s().greedy
            return (lambda: greedy(model, src)), None, outp
        B, S, T = map(int, words[3:6])
        lr, clip = float(words[6]), float(words[7])
        inp, outp = words[8], words[9]
        model, cfg = load_seq2seq(path)
        x = torch.from_numpy(np.fromfile(inp, dtype="<i4").astype(np.int64))
        src = x[:B * S].reshape(B, S)
        src_len = x[B * S:B * S + B]
        tgt = x[B * S + B:B * S + B + B * T].reshape(B, T)
        tgt_len = x[B * S + B + B * T:B * S + 2 * B + B * T]
        batched = not cfg["attention"].startswith("local")
        loss_fn = batched_loss if batched else per_pair_loss
        once = cfg["attention"] in ("additive", "dot", "general", "none")
        if once:  # torch_train.py's loss: keys projected once per batch, one output layer
            loss_fn = lambda m, *a: torch_train.seq2seq_loss(m, m.bos, *a)  # noqa: E731
        params = list(model.parameters())
        opt = torch.optim.Adam(params, lr=lr)

        def step():
            with torch.enable_grad():
                opt.zero_grad()
                loss = loss_fn(model, src, src_len, tgt, tgt_len)
                loss.backward()
                norm = torch.nn.utils.clip_grad_norm_(params, clip if clip > 0 else float("inf"))
                opt.step()
            return [float(loss), float(norm)]
        variant = ("batched seq2seq (packed encoder, masked decoder, keys projected once), Adam, "
                   "clip_grad_norm_" if once else
                   "batched seq2seq (packed encoder, masked decoder), Adam, clip_grad_norm_" if batched
                   else "seq2seq.py one sentence at a time (local attention), Adam, clip_grad_norm_")
        return step, variant, outp
    dims = list(map(int, words[2:-2]))
    inp, outp = words[-2], words[-1]
    x = torch.from_numpy(np.fromfile(inp, dtype="<f4").copy())
    parts = []

    def take(*shape):
        n = int(np.prod(shape))
        off = sum(p.numel() for p in parts)
        t = x[off:off + n].reshape(*shape)
        parts.append(t)
        return t
    if op == "mha":
        L, E, H = dims
        xx = take(1, L, E)
        m = nn.MultiheadAttention(E, H, batch_first=True)
        m.in_proj_weight.copy_(take(3 * E, E))
        m.in_proj_bias.copy_(take(3 * E))
        m.out_proj.weight.copy_(take(E, E))
        m.out_proj.bias.copy_(take(E))
        m.eval()
        return (lambda: m(xx, xx, xx, need_weights=False)[0]), None, outp
    if op == "additive":
        n, dq, dk, da = dims
        q, keys, W_q, W_k, bias, v = take(dq), take(n, dk), take(da, dq), take(da, dk), take(da), take(da)
        W_kT = W_k.T.contiguous()
        return (lambda: torch.softmax(torch.tanh(keys @ W_kT + (W_q @ q + bias)) @ v, -1) @ keys), None, outp
    T, I, H = dims
    G = 4 if op == "lstm" else 3
    xx = take(1, T, I)
    m = (nn.LSTM if op == "lstm" else nn.GRU)(I, H, batch_first=True)
    m.weight_ih_l0.copy_(take(G * H, I))
    m.weight_hh_l0.copy_(take(G * H, H))
    m.bias_ih_l0.copy_(take(G * H))
    m.bias_hh_l0.copy_(take(G * H))
    m.eval()
    return (lambda: m(xx)[0]), None, outp


def main():
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        try:
            if words[0] == "quit":
                break
            if words[0] == "hello":
                reply({"ok": True, "version": torch.__version__, "threads": THREADS,
                       "blas": torch_train.blas_info()})
                continue
            if words[0] == "labtrain":
                cid, path, batches, lr, clip, outp = words[1:7]
                lt = torch_train.LabTrain(path, batches, float(lr), float(clip))
                first = lt.step()
                np.array(first, dtype="<f4").tofile(outp)
                cases[int(cid)] = lt.step
                reply({"ok": True, "variant": lt.describe(), "loss": first[0], "norm": first[1]})
                continue
            if words[0] == "labgrad":
                cid, path, batches, gpath, outp = words[1:6]
                lt = torch_train.LabTrain(path, batches, 1e-3, 0)
                _, grads = lt.gradients(0)
                import attnlab.safetensors as st
                theirs = st.read_safetensors(gpath)[0]
                worst, scale, missing = 0.0, 0.0, []
                for name, g in grads.items():
                    if name not in theirs:
                        missing.append(name)
                        continue
                    want = torch.as_tensor(np.asarray(theirs[name]), dtype=g.dtype)
                    d = (g - want.reshape(g.shape)).abs().max()
                    worst, scale = max(worst, float(d)), max(scale, float(g.abs().max()))
                reply({"ok": True, "maxAbsDiff": worst, "maxAbs": scale, "missing": missing})
                continue
            if words[0] in ("matmul", "sdpa", "mha", "additive", "lstm", "gru", "model", "train"):
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
