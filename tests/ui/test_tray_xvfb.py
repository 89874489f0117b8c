"""A real tray host under Xvfb (``trayer``): the window closes mid-turn, the turn goes on and is
stored, and the tray's notification appears — read from the balloon Qt shows next to the icon.

Skips cleanly when Xvfb or trayer is missing (``.ci/run`` installs both).
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

pytestmark = pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("trayer")),
                                reason="needs Xvfb and trayer (apt-get install xvfb trayer)")


@pytest.fixture
def tray_display() -> Iterator[str]:
    """Xvfb with trayer holding the system-tray selection."""
    number = 600 + os.getpid() % 300
    server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    host: subprocess.Popen[bytes] | None = None
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{number}").exists():
            if time.monotonic() > deadline or server.poll() is not None:
                pytest.skip("Xvfb did not start")
            time.sleep(0.05)
        env = {k: v for k, v in os.environ.items() if k != "DBUS_SESSION_BUS_ADDRESS"}
        host = subprocess.Popen(["trayer", "--edge", "top", "--align", "right", "--widthtype", "request",
                                 "--height", "24", "--SetDockType", "true"],
                                env={**env, "DISPLAY": f":{number}"}, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        yield f":{number}"
    finally:
        if host is not None:
            host.terminate()
            host.wait(5)
        server.terminate()
        server.wait(5)


def test_closing_mid_turn_the_turn_finishes_and_the_tray_shows_a_notification(tray_display: str) -> None:
    # no session bus: Qt talks XEmbed to trayer (with one, it would look for a StatusNotifier host)
    env = {k: v for k, v in os.environ.items() if k != "DBUS_SESSION_BUS_ADDRESS"}
    env.update({"DISPLAY": tray_display, "QT_QPA_PLATFORM": "xcb", "PYTHONFAULTHANDLER": "1"})
    done = subprocess.run([sys.executable, "-m", "tests.ui.tray_app"], capture_output=True, text=True, env=env, timeout=120,
                          cwd=str(Path(__file__).parents[2]), check=False)
    if "platform plugin" in done.stderr and not done.stdout:
        pytest.skip("Qt's xcb platform cannot start here (apt-get install libxcb-cursor0)")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["tray"], "trayer did not provide a system tray"
    assert result["tray_icon_visible"] and result["running"]
    assert result["hidden_mid_turn"]  # the window went to the tray while the reply was streaming
    assert result["told"] == ["Foya is still running"]
    assert result["finished"] == "completed"
    assert result["stored"][-2:] == ["user", "assistant"]
    assert result["notified"] == [["finished", "Reply finished", "Long answer"]]
    assert "Reply finished" in result["balloon"] and "Long answer" in result["balloon"]
