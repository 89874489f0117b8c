"""The CLI talks to the kernel's façade only, never to its store (issue 7)."""

from __future__ import annotations

import ast
from pathlib import Path

import foya_desktop.cli


def test_the_cli_never_reaches_into_kernel_store() -> None:
    package = Path(foya_desktop.cli.__file__).parent
    reaching = [f"{source.name}:{node.lineno}"
                for source in sorted(package.glob("*.py"))
                for node in ast.walk(ast.parse(source.read_text()))
                if isinstance(node, ast.Attribute) and node.attr in ("store", "svc")]
    assert reaching == []
