"""Print the runtime and test requirements minus everything Qt, one per line (for .ci/run)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

QT = {"pyside6", "pyside6-essentials", "shiboken6", "qasync", "pytest-qt"}
TOOLS = {"mypy", "ruff"}  # the Qt-free job only runs tests (import-linter stays: its grimp checks cycles)

project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())["project"]
for requirement in [*project["dependencies"], *project["optional-dependencies"]["dev"]]:
    name = re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower()
    if name not in QT | TOOLS:
        print(requirement)
