"""``python -m benchmarks --help`` prints what would run instead of starting a run of minutes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_help_prints_the_sections_and_runs_nothing() -> None:
    done = subprocess.run([sys.executable, "-m", "benchmarks", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "usage: python -m benchmarks" in done.stdout and "benchmarks.startup" in done.stdout
    assert "== start-up ==" not in done.stdout  # no section started


def test_an_unknown_option_is_a_usage_error() -> None:
    done = subprocess.run([sys.executable, "-m", "benchmarks", "--bogus"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 2 and "unrecognized arguments: --bogus" in done.stderr
    assert "==" not in done.stdout
