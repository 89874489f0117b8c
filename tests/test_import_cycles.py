"""No import circles inside the packages that had them (issue 7, "Done means").

lint-imports checks the layers between packages; a circle *inside* a package
(module A imports B imports A) slips through it. This test builds the same
import graph lint-imports uses (grimp), which counts imports under
``if TYPE_CHECKING:`` and imports inside functions too: a circle hidden from
the interpreter is still a circle for a reader.
"""

from __future__ import annotations

import sys
from pathlib import Path

import grimp
import pytest

PACKAGES = ("foya_desktop.engine", "foya_desktop.ui", "foya_desktop.tools")


def _cycles(graph: grimp.ImportGraph, package: str) -> list[list[str]]:
    """Strongly connected components (more than one module) among ``package``'s modules (Tarjan)."""
    modules = sorted(m for m in graph.modules if m == package or m.startswith(package + "."))
    inside = set(modules)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) & inside) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in modules:
        if module not in index:
            visit(module)
    return found


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    """The package's import graph, type-only and function-local imports included."""
    return grimp.build_graph("foya_desktop", exclude_type_checking_imports=False)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycles_inside(graph: grimp.ImportGraph, package: str) -> None:
    """Every module of the package can be read after the ones it imports, none before."""
    assert _cycles(graph, package) == []


def test_the_check_sees_a_circle(graph: grimp.ImportGraph) -> None:
    """The check is real: one import back from the bridge to the window makes a circle it finds."""
    graph.add_import(importer="foya_desktop.ui.bridge", imported="foya_desktop.ui.main_window")
    try:
        found = _cycles(graph, "foya_desktop.ui")
        assert any({"foya_desktop.ui.bridge", "foya_desktop.ui.main_window"} <= set(c) for c in found)
    finally:
        graph.remove_import(importer="foya_desktop.ui.bridge", imported="foya_desktop.ui.main_window")


def test_the_check_sees_type_checking_and_function_local_imports(tmp_path: Path) -> None:
    """A circle made only of a ``TYPE_CHECKING`` import and a function-local import is found."""
    pkg = tmp_path / "cyclepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from cyclepkg import b\n")
    (pkg / "b.py").write_text("def f() -> None:\n    from cyclepkg import a\n")
    (pkg / "c.py").write_text("from cyclepkg import b\n")
    sys.path.insert(0, str(tmp_path))
    try:
        built = grimp.build_graph("cyclepkg", exclude_type_checking_imports=False, cache_dir=None)
        assert _cycles(built, "cyclepkg") == [["cyclepkg.a", "cyclepkg.b"]]
    finally:
        sys.path.remove(str(tmp_path))
