"""Print the crash test's figures in the terminal summary (visible without ``-s``)."""

from __future__ import annotations

import pytest


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    from tests.durability.test_crash import FIGURES
    if FIGURES:
        terminalreporter.section("durability figures")
        for line in FIGURES:
            terminalreporter.write_line(line)
