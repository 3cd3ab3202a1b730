"""scripts/gen_fixtures.py imports the PyTorch references from this package (python/attnlab,
one copy): it still lists its fixtures, and regenerating the classifier and memory-rnn reference
fixtures in a scratch copy of the tree gives the committed files byte for byte."""

import filecmp
import os
import shutil
import subprocess
import sys

from conftest import ROOT


def test_gen_fixtures_still_writes_the_committed_bytes(tmp_path):
    for d in ("scripts", "python"):
        shutil.copytree(os.path.join(ROOT, d), tmp_path / d,
                        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
    (tmp_path / "tests" / "fixtures").mkdir(parents=True)
    gen = str(tmp_path / "scripts" / "gen_fixtures.py")
    listed = subprocess.run([sys.executable, gen, "--list"], capture_output=True, text=True,
                            check=True).stdout.split()
    assert {"model_reference", "classifier_reference", "memory_rnn_model_reference",
            "transformer_model_reference"} <= set(listed)
    subprocess.run([sys.executable, gen, "classifier_reference", "memory_rnn_model_reference"],
                   capture_output=True, text=True, check=True)
    written = sorted(os.listdir(tmp_path / "tests" / "fixtures"))
    assert len(written) >= 15
    for name in written:
        assert filecmp.cmp(tmp_path / "tests" / "fixtures" / name,
                           os.path.join(ROOT, "tests", "fixtures", name), shallow=False), name
