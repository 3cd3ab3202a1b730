"""Devices (docs/python.md, "Bigger than the browser"): every tensor the modules make during a
call is made on the module's device, so `model.to("cuda")` runs as on the CPU.

Two tests: on this machine's CPU, every tensor factory (torch.tensor, arange, zeros, ones, eye,
full, ...) that attnlab's own code calls during forward / run / greedy / beam / score /
classify of every architecture is given a device= (a factory without one makes a CPU tensor,
which a CUDA module cannot mix with its own); and on every device present (cpu here; cuda
when torch.cuda.is_available(), as on a GPU machine), each of those calls on a copy moved
there with .to(device) matches the CPU module's results within 1e-5, and the moved module
exports the same file."""

import copy
import sys

import pytest
import torch
from torch.overrides import TorchFunctionMode

import attnlab
from zoo import TEXT, calls, flat, zoo

DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.skipif(
    not torch.cuda.is_available(), reason="no CUDA device on this machine"))]
FACTORIES = {"tensor", "as_tensor", "arange", "zeros", "ones", "full", "eye", "empty", "rand",
             "randn", "randint", "linspace", "empty_strided"}


class Factories(TorchFunctionMode):
    """Records the torch factory calls made from attnlab's own code without a device=."""

    def __init__(self):
        super().__init__()
        self.without_device = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        if name in FACTORIES and kwargs.get("device") is None:
            caller = sys._getframe(1)   # the first frame outside torch's own dispatch
            while caller is not None and caller.f_globals.get("__name__", "").startswith("torch"):
                caller = caller.f_back
            where = caller.f_globals.get("__name__", "") if caller is not None else ""
            if where.startswith("attnlab"):
                self.without_device.append(f"{where}:{caller.f_lineno} torch.{name}")
        return func(*args, **kwargs)


def text_for(name):
    return TEXT if "han" in name else "a b c d"


def test_every_tensor_a_call_makes_names_a_device():
    seen = 0
    for name, m in zoo().items():
        for call, fn in calls(name, m):
            with Factories() as mode:
                fn(text_for(name))
            assert mode.without_device == [], f"{name} {call}: made on the CPU whatever the " \
                f"module's device: {sorted(set(mode.without_device))}"
            seen += 1
    assert seen == 38


def test_a_probe_without_device_is_caught():
    """The probe itself: a factory call without device= from attnlab code is recorded."""
    with Factories() as mode:
        torch.zeros(2)   # called from this test module: not attnlab's, not recorded
        exec("torch.zeros(2)", {"torch": torch, "__name__": "attnlab.fake"})
    assert mode.without_device == ["attnlab.fake:1 torch.zeros"]


@pytest.mark.parametrize("device", DEVICES)
def test_moved_modules_match_the_cpu(device, tmp_path):
    for name, m in zoo().items():
        moved = copy.deepcopy(m).to(device)
        assert all(p.device.type == device for p in moved.parameters())
        for (call, fn), (_, fn_moved) in zip(calls(name, m), calls(name, moved)):
            want, got = fn(text_for(name)), fn_moved(text_for(name))
            a, b = flat(want), flat(got)
            assert len(a) == len(b) and len(a) > 0, f"{name} {call}"
            for x, y in zip(a, b):
                assert x.shape == y.shape, f"{name} {call}: shapes {x.shape} and {y.shape}"
                assert torch.allclose(x, y, rtol=0, atol=1e-5), \
                    f"{name} {call} on {device}: differs by {float((x - y).abs().max()):.3g}"
            if call == "run" and isinstance(got, dict):
                tensors = [v for v in got.values() if isinstance(v, torch.Tensor)]
                assert all(t.device.type == device for t in tensors), f"{name} run"
        p, q = tmp_path / "cpu.safetensors", tmp_path / f"{device}.safetensors"
        attnlab.export(m, p)
        attnlab.export(moved, q)
        assert p.read_bytes() == q.read_bytes(), f"{name}: the export on {device} differs"
