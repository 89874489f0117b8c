"""One app per data folder, with real processes: a second launch hands over to the running app
through its local socket (and ``foya FOLDER`` starts a session there), the CLI keeps working while
the window is open, and a socket left by a crash does not block start-up."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from foya_desktop.app import SMOKE_ENV, SMOKE_PAINTED
from foya_desktop.ui.tray.single_instance import instance_address
from tests.fakeprovider import FakeProviderServer, Reply

ROOT = Path(__file__).parents[2]


def _env(home: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "FOYA_HOME": str(home), "PYTHONFAULTHANDLER": "1",
            **extra}


def _foya(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "foya_desktop", *args], env=_env(home), capture_output=True,
                          text=True, timeout=90, check=False, cwd=str(ROOT))


@pytest.fixture
def running_app(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    """The window app in its own process, painted (it would quit by itself after 10 minutes)."""
    home = tmp_path / "foya-home"
    app = subprocess.Popen([sys.executable, "-m", "foya_desktop"], env=_env(home, **{SMOKE_ENV: "600000"}),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(ROOT))
    try:
        assert app.stdout is not None and app.stderr is not None
        line = app.stdout.readline()
        assert line.strip() == SMOKE_PAINTED, app.stderr.read()
        yield home, app
    finally:
        if app.poll() is None:
            app.send_signal(signal.SIGTERM)  # quits the normal way (running turns finish first)
            try:
                app.wait(30)
            except subprocess.TimeoutExpired:
                app.kill()
                app.wait(5)
        for pipe in (app.stdout, app.stderr):
            if pipe is not None:
                pipe.close()


def _sessions(home: Path) -> list[dict[str, object]]:
    done = _foya(home, "sessions", "list", "--json")
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout))


def _wait(predicate: object, what: str, timeout: float = 30) -> None:
    assert callable(predicate)
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def test_a_second_launch_hands_over_and_a_folder_gets_a_new_session(
        running_app: tuple[Path, subprocess.Popen[str]], tmp_path: Path) -> None:
    home, app = running_app
    project = tmp_path / "project"
    project.mkdir()
    plain = _foya(home)  # `foya` again: the running app comes to the front, this one exits
    assert plain.returncode == 0, plain.stderr
    assert "already running" in plain.stdout
    with_folder = _foya(home, str(project))  # `foya PATH`
    assert with_folder.returncode == 0, with_folder.stderr
    assert f"with a new session in {project}" in with_folder.stdout
    _wait(lambda: any(s["workdir"] == str(project) for s in _sessions(home)), "the session in the folder")
    assert app.poll() is None  # still the one app
    log = (home / "logs" / "foya.log").read_text(encoding="utf-8")
    assert log.count("second launch handed over") == 2
    app.send_signal(signal.SIGTERM)
    assert app.wait(30) == 0


def test_the_cli_runs_turns_while_the_window_is_open(
        running_app: tuple[Path, subprocess.Popen[str]], fake_provider: FakeProviderServer) -> None:
    home, app = running_app
    fake_provider.script(Reply(text="Answered from the command line."))
    added = _foya(home, "connections", "add", "fake", "--kind", "openai", "--base-url", fake_provider.base_url,
                  "--model", "fake-model")
    assert added.returncode == 0, added.stderr
    run = _foya(home, "run", "--connection", "fake", "hello")
    assert run.returncode == 0, run.stderr
    assert "Answered from the command line." in run.stdout
    assert len(_sessions(home)) == 1 and app.poll() is None


def test_a_stale_socket_left_by_a_crash_does_not_block_start_up(tmp_path: Path) -> None:
    home = tmp_path / "foya-home"
    address = instance_address(home)
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(address)  # a socket file with nobody listening, as a killed app leaves it
    stale.close()
    try:
        assert Path(address).exists()
        done = subprocess.run([sys.executable, "-m", "foya_desktop"], env=_env(home, **{SMOKE_ENV: "200"}),
                              capture_output=True, text=True, timeout=90, check=False, cwd=str(ROOT))
        assert done.returncode == 0, done.stderr
        assert SMOKE_PAINTED in done.stdout.splitlines() and "already running" not in done.stdout
    finally:
        Path(address).unlink(missing_ok=True)
