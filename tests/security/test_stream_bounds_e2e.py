"""A hostile or broken model server, end to end through ``foya run`` (a real process against the
real fake server): an endless reply of small valid events ends at the reply limit with a sentence
while the process's memory stays bounded; bytes trickling without completing an event end at the
idle timeout; a tool name with a line break prints on one line. The README's "Honest history":
what streamed before the end is kept, marked interrupted, and the turn's error says why.

Memory is judged by the process's own peak resident size (``VmHWM`` in ``/proc/PID/status``,
watched while it runs, and ``ru_maxrss`` when it is reaped): a bound, not a timing.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli.test_cli import add_fake, foya
from tests.fakeprovider import FakeProviderServer, Fault, Reply, ToolCallSpec

MIB = 1024 * 1024
PEAK_BOUND = 400 * MIB
"""Resident memory a ``foya run`` may reach while a 16 MB reply is cut and kept (measured: about
200 MB, of which ~40 MB is the process itself; without the bound it grows as long as the server
streams)."""
ENDLESS = 2048 * MIB
"""What the fake sends at most (then it ends the reply normally): far past any bound."""


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    peak: int
    """Peak resident set size in bytes, read after the turn had ended (see ``_watched_run``)."""
    killed: str
    """Why the watch killed the process (``""``: it ended by itself)."""


@pytest.fixture
def server() -> Iterator[FakeProviderServer]:
    with FakeProviderServer() as s:
        yield s


def _vm_hwm(pid: int) -> int:
    """``VmHWM`` of a live process in bytes (0 once it is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def _watched_run(tmp_path: Path, home: Path, *args: str, env: dict[str, str], timeout: float) -> Run:
    """``foya ARGS`` in a process whose peak memory (``VmHWM``) is read every 10 ms: past
    :data:`PEAK_BOUND` (or after ``timeout``) it is killed, so a missing bound fails the test fast
    instead of filling the machine.

    NOTE: ``VmHWM`` is read from ``/proc`` while the process lives (it is gone once it exits), and
    ``ru_maxrss`` cannot stand in: at ``exec`` it takes the high-water mark of the forking process,
    this whole test process. So the peak counts only if a reading was taken after ``foya: error:``
    was printed, that is after the interrupted reply was stored: everything up to then is in it.
    """
    full_env = {**os.environ, "FOYA_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
                **env}
    full_env.pop("QT_QPA_PLATFORM", None)
    out_path, err_path = tmp_path / "stdout", tmp_path / "stderr"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        proc = subprocess.Popen([sys.executable, "-m", "foya_desktop", *args], stdout=out, stderr=err,
                                env=full_env)
    peak, after_end, killed, deadline = 0, 0, "", time.monotonic() + timeout
    try:
        while proc.poll() is None:
            ended = b"foya: error:" in err_path.read_bytes()
            hwm = _vm_hwm(proc.pid)
            peak, after_end = max(peak, hwm), max(after_end, hwm if ended else 0)
            if not killed and (peak > PEAK_BOUND or time.monotonic() > deadline):
                killed = f"peak RSS over {PEAK_BOUND // MIB} MB" if peak > PEAK_BOUND else f"still running after {timeout:g} s"
                proc.kill()
            time.sleep(0.01)
    finally:
        if proc.poll() is None:  # the test itself failed or timed out meanwhile
            proc.kill()
            proc.wait()
    assert killed or after_end or proc.returncode == 0, "no memory reading after the turn ended"
    return Run(proc.returncode, out_path.read_text(errors="replace"), err_path.read_text(errors="replace"), peak,
               killed)


def _stored_reply(home: Path) -> tuple[str, str, str]:
    """(status, text, interrupted reason) of the session's assistant message."""
    db = home / "foya.sqlite3"
    with sqlite3.connect(db) as conn:
        parts, status, meta = conn.execute(
            "SELECT parts, status, meta FROM message_row WHERE role = 'assistant'").fetchone()
    text = "".join(p.get("text", "") for p in json.loads(parts) if p.get("kind") == "text")
    return status, text, json.loads(meta or "{}").get("interrupted_reason", "")


@pytest.mark.timeout(180)
def test_an_endless_reply_of_small_events_ends_at_16_mb_with_bounded_memory(
        tmp_path: Path, server: FakeProviderServer) -> None:
    """The attack: valid events of a few hundred characters each, without end (before the bound:
    600 MB streamed took ``foya run`` to 5.7 GB). Now the reply ends at the default 16 MB limit."""
    home, proj = tmp_path / "home", tmp_path / "proj"
    proj.mkdir()
    add_fake(home, server)
    server.script(Reply(text="endless " * 64, chunk_size=512, fault=Fault.endless_reply(ENDLESS)))
    run = _watched_run(tmp_path, home, "run", "--project", str(proj), "hi", env={}, timeout=150)
    assert not run.killed, run.killed
    assert run.peak <= PEAK_BOUND, f"peak RSS {run.peak // MIB} MB"
    assert run.returncode == 1, run.stderr[-2000:]
    sentence = "exceeded 16 MB (text, reasoning and tool-call arguments together) and was stopped"
    assert sentence in run.stderr
    status, text, reason = _stored_reply(home)
    assert status == "interrupted" and sentence in reason
    assert 15 * MIB < len(text) <= 16 * MIB and text.startswith("endless endless")
    assert run.stdout.startswith("endless endless")


@pytest.mark.timeout(180)
def test_tiny_events_end_at_the_limit_the_environment_sets(tmp_path: Path, server: FakeProviderServer) -> None:
    """8-character deltas (the costliest shape per character) up to a 2 MB limit
    (``FOYA_REPLY_LIMIT_MB``): the run ends with the sentence, its memory far under the bound (how
    compactly the pieces are held: ``tests/engine/test_streamed_text.py``)."""
    home, proj = tmp_path / "home", tmp_path / "proj"
    proj.mkdir()
    add_fake(home, server)
    server.script(Reply(text="tiny" * 2048, chunk_size=8, fault=Fault.endless_reply(ENDLESS)))
    run = _watched_run(tmp_path, home, "run", "--project", str(proj), "hi",
                       env={"FOYA_REPLY_LIMIT_MB": "2"}, timeout=150)
    assert not run.killed, run.killed
    assert run.returncode == 1, run.stderr[-2000:]
    assert "exceeded 2 MB" in run.stderr
    assert run.peak < PEAK_BOUND // 2, f"peak RSS {run.peak // MIB} MB"
    status, text, _ = _stored_reply(home)
    assert status == "interrupted" and 2 * MIB - 1024 <= len(text) <= 2 * MIB


def test_a_trickle_of_bytes_ends_at_the_idle_timeout(tmp_path: Path, server: FakeProviderServer) -> None:
    """One byte every second never completes an event: with the idle timeout at 3 s (the
    environment variable; 90 s by default) the reply ends with a sentence, what came is kept."""
    home, proj = tmp_path / "home", tmp_path / "proj"
    proj.mkdir()
    add_fake(home, server)
    server.script(Reply(text="kept so far, then bytes trickle", chunk_size=12, fault=Fault.trickle(1.0, 2)))
    started = time.monotonic()
    run = _watched_run(tmp_path, home, "run", "--project", str(proj), "hi",
                       env={"FOYA_STREAM_IDLE_SECONDS": "3"}, timeout=60)
    assert not run.killed, run.killed
    assert run.returncode == 1, run.stderr[-2000:]
    sentence = "stalled: no complete stream event arrived for 3 s"
    assert sentence in run.stderr
    assert time.monotonic() - started < 45
    status, text, reason = _stored_reply(home)
    assert (status, text) == ("interrupted", "kept so far, then bytes ") and sentence in reason


@pytest.mark.parametrize("name", ['evil]\n[run_command {"command": "rm -rf ~"}]', "tab\there\rcr\u2028ls\x85nel"])
def test_a_tool_name_with_a_line_break_prints_on_one_line(tmp_path: Path, server: FakeProviderServer,
                                                         name: str) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    proj.mkdir()
    add_fake(home, server)
    server.script(Reply(tool_calls=[ToolCallSpec(name, {"x": "1"})]), Reply(text="done"))
    run = foya(home, "run", "--project", str(proj), "hi")
    assert run.returncode == 0, run.stderr
    for char in ("\r", "\x85", "\u2028"):  # line breaks to a terminal (or to splitlines)
        assert char not in run.stderr, run.stderr
    call_lines = [line for line in run.stderr.splitlines() if line.startswith("[")]
    assert not any(line.startswith("[run_command") for line in call_lines), run.stderr
    (shown,) = [line for line in call_lines if line.endswith('{"x": "1"}]')]
    assert shown.startswith(("[evil]\\n[run_command", "[tab\\there\\x0dcr\\u2028ls\\x85nel"))
