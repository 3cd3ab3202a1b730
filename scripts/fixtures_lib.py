"""Small helpers for writing attnlab's PyTorch reference fixtures.

Holds: the fixture registry shared by gen_fixtures.py and scripts/fixture_modules/*.py
(`fixture`, `FIXTURES`, `case_rng`, `dump_cases`), and, re-exported from the attnlab Python
package (python/attnlab/safetensors.py, the one copy), the deterministic safetensors writer and
strict reader and the `rng` / `f32` conveniences.

Deliberately does not: need the package installed (python/ is put on sys.path here, so the
generator still runs with /usr/bin/python3 and Debian's python3-torch, no venv), or know anything
about attention. Fixture contents live in gen_fixtures.py and scripts/fixture_modules/.
"""

import json
import os
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from attnlab.safetensors import (DTYPES, MAX_HEADER, f32, read_safetensors, rng,  # noqa: E402
                                 write_safetensors)

__all__ = ["DTYPES", "MAX_HEADER", "f32", "read_safetensors", "rng", "write_safetensors",
           "FIXTURES", "fixture", "case_rng", "dump_cases"]


# The fixture registry, shared by gen_fixtures.py and scripts/fixture_modules/*.py

# name -> function returning (tensors {name: array}, metadata {str: str}); file = <name>.safetensors
FIXTURES = {}


def fixture(name):
    """Register a function as the generator of tests/fixtures/<name>.safetensors."""
    def register(fn):
        if name in FIXTURES:
            raise ValueError(f"fixture {name!r} registered twice")
        FIXTURES[name] = fn
        return fn
    return register


def case_rng(fixture_name, case_name):
    """A Generator seeded from the case's own name, so cases are independent of each other and
    of their order: adding or reordering cases never changes an existing case's numbers."""
    return rng(zlib.crc32(f"{fixture_name}/{case_name}".encode()))


def dump_cases(cases):
    return json.dumps(cases, separators=(",", ":"), allow_nan=False)
