"""``foya run`` ends cleanly however the turn is left: no traceback, no asyncio complaint, no survivor.

The real command in its own process against the real fake provider, stopped
with Ctrl+C (SIGINT) while a confined command runs and while a reply is still
streaming, and left normally while a background task still runs. Its stderr
must hold none of "Traceback", "Event loop is closed", "Task was destroyed but
it is pending" (asyncio's messages when transports or tasks outlive the loop),
and no process the turn started may be alive afterwards.

Issue 8 class 7 ("no 'Event loop is closed' tracebacks at exit").
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.cli.test_cli import add_fake
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec

MARK = "foyaexitmark"
"""In every command line the turn starts, to find survivors."""
COMPLAINTS = ("Traceback", "Event loop is closed", "Task was destroyed but it is pending",
              "Exception ignored", "coroutine", "was never awaited")


@pytest.fixture
def server() -> Iterator[FakeProviderServer]:
    with FakeProviderServer() as s:
        yield s


def _marked() -> list[int]:
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if MARK.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _start(home: Path, proj: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "FOYA_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
           "PYTHONFAULTHANDLER": "1"}
    env.pop("QT_QPA_PLATFORM", None)
    return subprocess.Popen([sys.executable, "-m", "foya_desktop", "run", "--project", str(proj), *args, "go"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for(predicate: Callable[[], object], what: str, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.05)


def _finish(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


def _assert_clean(err: str) -> None:
    for complaint in COMPLAINTS:
        assert complaint not in err, err
    _wait_for(lambda: not _marked(), "every process the turn started has ended", limit=10)


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    folder = tmp_path / "proj"
    folder.mkdir()
    return folder


def test_ctrl_c_while_a_command_runs(tmp_path: Path, proj: Path, server: FakeProviderServer) -> None:
    home = tmp_path / "home"
    add_fake(home, server)
    server.script(Reply(tool_calls=[ToolCallSpec("run_command", {"command": f"sleep 120; echo {MARK}"})]),
                  Reply(text="done"))
    proc = _start(home, proj, "--approval", "auto")
    _wait_for(_marked, "the command started")
    proc.send_signal(signal.SIGINT)
    code, _, err = _finish(proc)
    assert code == 130, err
    _assert_clean(err)


def test_ctrl_c_while_the_reply_streams(tmp_path: Path, proj: Path, server: FakeProviderServer) -> None:
    home = tmp_path / "home"
    add_fake(home, server)
    server.script(Reply(text="word " * 400, delay_per_chunk=0.2))
    proc = _start(home, proj)
    assert proc.stdout is not None
    assert proc.stdout.read(4) == "word"
    proc.send_signal(signal.SIGINT)
    code, _, err = _finish(proc)
    assert code == 130, err
    _assert_clean(err)


def test_leaving_with_a_background_task_still_running(tmp_path: Path, proj: Path,
                                                      server: FakeProviderServer) -> None:
    home = tmp_path / "home"
    add_fake(home, server)
    server.script(Reply(tool_calls=[ToolCallSpec("run_background", {"command": f"sleep 300; echo {MARK}"})]),
                  Reply(text="started it"))
    proc = _start(home, proj, "--approval", "auto")
    code, out, err = _finish(proc)
    assert code == 0, err
    assert "started it" in out
    _assert_clean(err)
