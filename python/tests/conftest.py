"""Shared by the Python tests: the repository's paths, running the JS library in Node
(node_run.mjs) and recording the worst differences seen, printed at the end of the run.

Node is found on PATH; NODE_PATH=/usr/share/nodejs as the Makefile sets it. Tolerances are the
house ones for whole models against PyTorch (atol 1e-5); each comparison records its worst
absolute difference under a name, and pytest's summary lists them (docs/python.md quotes them).
"""

import json
import os
import subprocess

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS = os.path.join(ROOT, "web", "models")
WORST = {}


def node(jobs, simd=True):
    """Run jobs in one Node process (node_run.mjs) -> their results, in order."""
    env = dict(os.environ, NODE_PATH=os.environ.get("NODE_PATH", "/usr/share/nodejs"))
    p = subprocess.run(["node", os.path.join(HERE, "node_run.mjs")], cwd=ROOT, env=env,
                       input=json.dumps({"simd": simd, "jobs": jobs}), capture_output=True,
                       text=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError(f"node_run.mjs exited {p.returncode}: {p.stderr[-2000:]}")
    return json.loads(p.stdout)["results"]


def close(name, js, py, atol=1e-5, rtol=0.0):
    """Assert |js - py| <= atol + rtol |py| everywhere; record the worst difference under name."""
    a = np.asarray(js, dtype=np.float64)
    b = np.asarray(py.detach().double().numpy() if hasattr(py, "detach") else py, dtype=np.float64)
    assert a.shape == b.shape or a.size == b.size, f"{name}: shapes {a.shape} (JS) and {b.shape}"
    a = a.reshape(b.shape)
    d = np.abs(a - b)
    worst = float(d.max()) if d.size else 0.0
    key = name.split(":")[0]
    if worst >= WORST.get(key, (0.0, ""))[0]:
        WORST[key] = (worst, name[len(key) + 1:].strip())
    excess = d - (atol + rtol * np.abs(b))
    where = np.unravel_index(int(excess.argmax()), d.shape) if d.size else ()
    assert not d.size or excess.max() <= 0, \
        f"{name}: |JS - PyTorch| {d[where]:.3g} at {where} (JS {a[where]}, PyTorch {b[where]}) " \
        f"exceeds atol {atol} + rtol {rtol}; worst difference {worst:.3g}"
    return worst


def pytest_terminal_summary(terminalreporter):
    if WORST:
        terminalreporter.write_sep("-", "worst |JS - PyTorch| differences seen")
        for k in sorted(WORST):
            value, where = WORST[k]
            terminalreporter.write_line(f"{k:40s} {value:.2e}  {where}")


@pytest.fixture(scope="session")
def tmp_models(tmp_path_factory):
    return tmp_path_factory.mktemp("models")
