"""The kernel is a composition of small area façades, not a mixin (issue 7).

``mypy --strict`` proves the real ``Kernel`` satisfies ``ui/kernel_api.py``'s
``KernelApi`` (``tests/typing_checks.py``); these checks keep the shape: no base
classes to inherit doors from, no area method back on the kernel itself, and
one Protocol per area the UI uses, named like the kernel's attribute.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import foya_desktop
from foya_desktop.engine.kernel import Kernel

KERNEL_API = Path(foya_desktop.__file__).parent / "ui" / "kernel_api.py"
OWN = {"watch_other_processes", "close"}
"""What the composition root itself does; everything else is a door of one area."""


def _protocols() -> dict[str, ast.ClassDef]:
    tree = ast.parse(KERNEL_API.read_text(encoding="utf-8"))
    return {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}


def _members(cls: ast.ClassDef) -> list[str]:
    return [n.name for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


async def test_the_kernel_and_its_areas_inherit_nothing(kernel: Kernel) -> None:
    """A mixin cannot come back: neither the kernel nor any area object has a base class."""
    assert Kernel.__bases__ == (object,)
    areas = {name: value for name, value in vars(kernel).items()
             if not name.startswith("_") and name not in ("svc", "bus", "store", "turn_manager", "vp_library")}
    assert len(areas) >= 10
    for name, area in areas.items():
        assert type(area).__bases__ == (object,), f"kernel.{name} inherits {type(area).__bases__}"


def test_no_area_door_sits_on_the_kernel_itself() -> None:
    """The kernel's own methods are the composition root's: start watching, close."""
    own = {n for n, v in vars(Kernel).items() if not n.startswith("_") and inspect.isfunction(v)}
    assert own == OWN


async def test_every_area_of_the_ui_protocol_is_an_area_of_the_kernel(kernel: Kernel) -> None:
    """``KernelApi`` is the composition of per-area Protocols; each names a real area and its doors."""
    protocols = _protocols()
    api = protocols["KernelApi"]
    props = {n.name: n.returns for n in api.body if isinstance(n, ast.FunctionDef)
             and any(isinstance(d, ast.Name) and d.id == "property" for d in n.decorator_list)}
    assert set(props) - {"bus"}, "KernelApi lists its areas as properties"
    for name, returns in props.items():
        if name == "bus":
            continue
        assert isinstance(returns, ast.Name) and returns.id in protocols, name
        area = getattr(kernel, name)
        for door in _members(protocols[returns.id]):
            assert callable(getattr(area, door, None)), f"kernel.{name}.{door} is missing"
    assert [n for n in _members(api) if n not in props] == ["close"]
