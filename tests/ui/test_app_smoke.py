"""Smoke test: the real window entry (``python -m foya_desktop`` → ``foya_desktop.app``) starts
in its own process, paints its window offscreen and quits cleanly.

This is the one test that runs the composition root exactly as a person's launch does
(argument parsing, logging set-up, the qasync loop, opening the kernel off the GUI
thread, the quit controller); every other UI test builds the window in-process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from foya_desktop.app import SMOKE_ENV, SMOKE_PAINTED


def test_the_app_paints_and_quits_cleanly(tmp_path: Path) -> None:
    home = tmp_path / "foya-home"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "FOYA_HOME": str(home), SMOKE_ENV: "300",
           "PYTHONFAULTHANDLER": "1"}
    done = subprocess.run([sys.executable, "-m", "foya_desktop"], env=env, capture_output=True,
                          text=True, timeout=90, check=False)
    assert done.returncode == 0, done.stderr
    assert SMOKE_PAINTED in done.stdout.splitlines(), (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    assert (home / "foya.sqlite3").is_file()  # the real kernel opened the data folder
