"""A real drag under Xvfb: xdotool presses, moves and releases the mouse; X11 drag-and-drop
carries a file from a Qt drag source onto Foya's composer, which attaches it.

Skips cleanly when Xvfb or xdotool is missing (``.ci/run`` installs both).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

APP = Path(__file__).with_name("drag_app.py")
pytestmark = pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("xdotool")),
                                reason="needs Xvfb and xdotool (apt-get install xvfb xdotool)")


@pytest.fixture
def display() -> Iterator[str]:
    number = 90 + os.getpid() % 500
    server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{number}").exists():
            if time.monotonic() > deadline or server.poll() is not None:
                pytest.skip("Xvfb did not start")
            time.sleep(0.05)
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(5)


def _xdotool(display: str, *args: str) -> None:
    subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": display}, check=True, timeout=10)


def test_real_drag_of_a_file_onto_the_composer(display: str, tmp_path: Path) -> None:
    dropped = tmp_path / "notes.md"
    dropped.write_text("# dragged for real\n")
    env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}
    app = subprocess.Popen([sys.executable, str(APP), str(dropped)], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, env=env, cwd=str(Path(__file__).parents[2]))
    try:
        assert app.stdout is not None and app.stderr is not None
        first = app.stdout.readline()
        if not first:
            problem = app.stderr.read()
            if "platform plugin" in problem:
                pytest.skip("Qt's xcb platform cannot start here (apt-get install libxcb-cursor0)")
            raise AssertionError(problem)
        where = json.loads(first)
        sx, sy = where["source"]
        tx, ty = where["target"]
        _xdotool(display, "mousemove", str(sx), str(sy))
        _xdotool(display, "mousedown", "1")
        for step in range(1, 21):  # a person's drag: many small moves
            _xdotool(display, "mousemove", str(sx + (tx - sx) * step // 20), str(sy + (ty - sy) * step // 20))
            time.sleep(0.03)
        time.sleep(0.2)
        _xdotool(display, "mouseup", "1")
        line = app.stdout.readline()
        assert line, "the composer received no drop"
        assert json.loads(line) == {"dropped": [str(dropped)]}
    finally:
        app.kill()
        app.communicate(timeout=5)  # reaps it and closes both pipes (no ResourceWarning)
