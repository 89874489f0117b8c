"""The engine has no import cycles — counting function-local and TYPE_CHECKING imports (issue 7).

``lint-imports`` keeps the layer contract of ``foya_desktop.engine``'s packages;
this test also catches a cycle between two modules of one package, which a
layers contract does not see.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.helpers.import_cycles import import_cycles


def test_engine_has_no_import_cycles() -> None:
    assert import_cycles("foya_desktop.engine") == []


def test_the_checker_sees_function_local_and_type_checking_imports(tmp_path: Path) -> None:
    """A cycle made only of a TYPE_CHECKING import and a function-local import is still a cycle."""
    pkg = tmp_path / "cyclepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from cyclepkg import b\n")
    (pkg / "b.py").write_text("def f() -> None:\n    from cyclepkg import a\n")
    (pkg / "c.py").write_text("from cyclepkg import b\n")
    sys.path.insert(0, str(tmp_path))
    try:
        assert import_cycles("cyclepkg", root="cyclepkg") == [["cyclepkg.a", "cyclepkg.b"]]
    finally:
        sys.path.remove(str(tmp_path))
