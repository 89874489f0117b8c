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
    _assert_quiet_exit(done.stderr)


EXIT_COMPLAINTS = ("Traceback", "Event loop is closed", "Task was destroyed but it is pending",
                   "was never awaited", "Exception ignored")
"""What asyncio and Python print when tasks or transports outlive the loop at exit (issue 8)."""


def _assert_quiet_exit(stderr: str) -> None:
    for complaint in EXIT_COMPLAINTS:
        assert complaint not in stderr, stderr


def test_the_app_started_on_a_folder_quits_without_asyncio_complaints(tmp_path: Path) -> None:
    """``foya FOLDER``: the window opens a session there (a task in flight at start-up) and quits;
    nothing is left pending or closed under a running loop."""
    home, folder = tmp_path / "foya-home", tmp_path / "work"
    folder.mkdir()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "FOYA_HOME": str(home), SMOKE_ENV: "300",
           "PYTHONFAULTHANDLER": "1"}
    done = subprocess.run([sys.executable, "-m", "foya_desktop", str(folder)], env=env, capture_output=True,
                          text=True, timeout=90, check=False)
    assert done.returncode == 0, done.stderr
    assert SMOKE_PAINTED in done.stdout.splitlines(), (done.stdout, done.stderr)
    _assert_quiet_exit(done.stderr)
