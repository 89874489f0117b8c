"""The user guide's generated parts (docs/_generated/) are what ``docs/gen.py`` makes from the code now.

They are the command-line reference (from the real argparse parser), the error- and exit-code
tables (from ``core/error_codes.py`` and the error classes) and the keyboard shortcuts (from a real
window's actions), so a changed option, a new error code or a new shortcut fails here until
``python docs/gen.py`` is run and its output committed. The generator runs in its own process: it
builds a QApplication and a window, which must not meet the test process's own.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GEN = ROOT / "docs" / "gen.py"

pytest.importorskip("PySide6", reason="the shortcuts are read from a real window's actions")


def _gen(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "FOYA_HOME"}
    return subprocess.run([sys.executable, str(GEN), *args], capture_output=True, text=True, timeout=110,
                          cwd=ROOT, env=env, check=False)


def test_the_committed_generated_pages_are_current() -> None:
    """``docs/gen.py --check`` finds every fragment equal to what the code gives now."""
    result = _gen("--check")
    assert result.returncode == 0, result.stderr


def test_the_check_names_a_fragment_that_went_stale(tmp_path: Path) -> None:
    """A fragment that differs from the code (one option's help changed by hand here) is named and
    fails the check, and only that one."""
    assert _gen("--out", str(tmp_path)).returncode == 0
    reference = tmp_path / "cli-reference.md"
    text = reference.read_text(encoding="utf-8")
    assert "### `foya sessions fork`" in text and "--allow-broad-project" in text
    reference.write_text(text.replace("--allow-broad-project", "--allow-any-project", 1), encoding="utf-8")
    stale = _gen("--check", "--out", str(tmp_path))
    assert stale.returncode == 1
    assert "cli-reference.md" in stale.stderr and "error-codes.md" not in stale.stderr
