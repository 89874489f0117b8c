"""Shared fixtures for the attack tests (the engine's), and the attack figures in the summary."""

from __future__ import annotations

import pytest

from tests.engine.conftest import fake, kernel, keyring_backend, rec

__all__ = ["fake", "kernel", "keyring_backend", "rec"]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Attacks tried/held per approval mode and false refusals (printed with or without ``-s``)."""
    from tests.security.test_attack_suite import FIGURES
    if FIGURES:
        terminalreporter.section("issue-8 attack suite")
        for line in FIGURES:
            terminalreporter.write_line(line)
