"""Fixtures for the tool tests, and the vector counts printed at the end of every run."""

from __future__ import annotations

from pathlib import Path

import pytest

from foya_desktop.tools.base import ToolContext
from tests.tools.world import build_world


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(base, root, data_dir) shared by a module; tests must leave it unchanged."""
    base = tmp_path_factory.mktemp("world")
    root, data = build_world(base)
    return base, root, data


@pytest.fixture
def world_ctx(world: tuple[Path, Path, Path]) -> ToolContext:
    _, root, data = world
    return ToolContext(session_id="ses_test", workdir=root, data_dir=data)


@pytest.fixture
def project(tmp_path: Path) -> ToolContext:
    """A fresh, ordinary project for tests that change files."""
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "README.md").write_text("line one\nline two\nline three\n")
    (root / "src" / "app.py").write_text("def main():\n    return 1\n")
    data = tmp_path / "data"
    data.mkdir()
    return ToolContext(session_id="ses_test", workdir=root, data_dir=data)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Report how many security vectors this run exercised (printed with or without ``-s``)."""
    from tests.tools.tool_vectors import (
        ALLOWED_COMMANDS,
        FILE_TOOL_NAMES,
        NOT_ALLOWED_COMMANDS,
        PATH_VECTORS,
        WRITE_ONLY_VECTORS,
    )

    ran = [r for r in terminalreporter.stats.get("passed", []) if "tests/tools/" in r.nodeid]
    if not ran:
        return
    terminalreporter.write_sep("-", "tool security vectors")
    terminalreporter.write_line(
        f"path vectors: {len(PATH_VECTORS)} (each through all {len(FILE_TOOL_NAMES)} file tools, "
        f"+{len(WRITE_ONLY_VECTORS)} hard-link vectors through write/edit), "
        f"command vectors: {len(NOT_ALLOWED_COMMANDS)} not auto-allowed, "
        f"positive: {len(ALLOWED_COMMANDS)} allowed")
