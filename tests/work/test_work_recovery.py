"""A ``foya work start`` killed with SIGKILL (or interrupted with Ctrl+C) in the middle of a WorkItem: the next start resumes it
from DBOS's records and finishes it, and the tool call that had run is not run again. While the
first process lives, a second executor is refused (a WorkItem never runs twice at once)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.fakeprovider import Reply, ToolCallSpec, last_user_text, system_prompt
from tests.helpers.agent_script import call_id
from tests.work.conftest import LINUS, Team, foya, ok_json

WRITE = "echo ran >> ledger.txt; printf draft > impl.txt"


def _wait_for(what: str, predicate: Callable[[], bool], proc: subprocess.Popen[str], limit: float = 90) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if predicate():
            return
        assert proc.poll() is None, f"the executor ended before {what}: {proc.communicate()}"
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.slow  # real processes, about 30-60 s on a loaded machine
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT], ids=["kill -9", "Ctrl+C"])
def test_a_killed_executor_resumes_and_runs_each_tool_call_once(team: Team, how: signal.Signals) -> None:
    held = threading.Event()
    release = threading.Event()

    def responder(body: dict[str, Any]) -> Reply:
        messages = body.get("messages", [])
        if LINUS in system_prompt(body) and messages and messages[-1].get("role") == "tool":
            if not held.is_set():  # the first process never gets this answer: it is killed meanwhile
                held.set()
                release.wait(60)
            return Reply(text="I wrote impl.txt.")
        if LINUS in system_prompt(body) and "Goal:" in last_user_text(body):
            return Reply(tool_calls=[ToolCallSpec("run_command", {"command": WRITE}, id=call_id())])
        return Reply(text="hi")

    team.server.responder = responder
    made = ok_json(team.home, "work", "create", "--from-session", team.session, "--goal", "Write impl.txt",
                   "--criterion", "impl.txt exists", "--check", "test -f impl.txt", "--vp", "Linus")
    env = {**os.environ, "FOYA_HOME": str(team.home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    env.pop("QT_QPA_PLATFORM", None)
    first = subprocess.Popen([sys.executable, "-m", "foya_desktop", "work", "start", made["id"]], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for("the tool call ran and the next model request is held", held.is_set, first)
        assert (team.project / "ledger.txt").read_text() == "ran\n"

        twice = foya(team.home, "work", "start", made["id"])
        assert twice.returncode == 10, twice.stderr
        assert f"another foya process (pid {first.pid})" in twice.stderr

        first.send_signal(how)
        first.wait(30)
    finally:
        release.set()
        if first.poll() is None:
            first.kill()
        _, err = first.communicate()
    if how == signal.SIGINT:  # ends at once, like a kill, and says so
        assert first.returncode == 130
        assert err.strip() == "foya: interrupted; WorkItems in flight resume at the next foya work start"
    assert ok_json(team.home, "work", "show", made["id"])["state"] == "running"  # in flight, nobody runs it

    resumed = ok_json(team.home, "work", "start", made["id"])
    assert resumed["state"] == "reviewing", resumed
    assert (team.project / "ledger.txt").read_text() == "ran\n"  # the recorded call was not run again
    runs = ok_json(team.home, "work", "runs", made["id"])
    assert [(r["action_id"], r["state"]) for r in runs] == [("implement", "done"), ("check-1", "done")]
    assert "I wrote impl.txt." in runs[0]["evidence"]
    tool_calls = _tool_call_count(team.home, runs[0]["session_id"])
    assert tool_calls == 1


def _tool_call_count(home: Path, session_id: str) -> int:
    import sqlite3
    con = sqlite3.connect(f"file:{home / 'foya.sqlite3'}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT parts FROM message_row WHERE session_id=? AND role='assistant'",
                           (session_id,)).fetchall()
    finally:
        con.close()
    return sum(parts.count('"kind": "tool_call"') for (parts,) in rows)


@pytest.mark.slow  # real processes, about 40 s on a loaded machine
def test_a_decision_beside_a_running_executor_wakes_it(team: Team, tmp_path: Path) -> None:
    """While one process runs the Work Center (busy with WorkItem A), ``foya work answer B`` from
    another process records the answer and wakes B's workflow there; that process finishes B."""
    held, release = threading.Event(), threading.Event()

    def responder(body: dict[str, Any]) -> Reply:
        messages = body.get("messages", [])
        if LINUS in system_prompt(body) and messages and messages[-1].get("role") == "tool":
            held.set()
            release.wait(60)
            return Reply(text="I wrote impl.txt.")
        if LINUS in system_prompt(body) and "Goal:" in last_user_text(body):
            return Reply(tool_calls=[ToolCallSpec("run_command", {"command": WRITE}, id=call_id())])
        return Reply(text="hi")

    team.server.responder = responder
    plan = tmp_path / "plan.json"
    plan.write_text('[{"id": "ask", "kind": "wait", "instruction": "Go?"},'
                    ' {"id": "check", "kind": "check", "command": "grep -q go answer.txt", "after": ["ask"]}]')
    (team.project / "answer.txt").write_text("go\n")
    b = ok_json(team.home, "work", "create", "--from-session", team.session, "--goal", "B", "--vp", "Linus",
                "--plan", str(plan))
    assert ok_json(team.home, "work", "start", b["id"])["state"] == "waiting"
    a = ok_json(team.home, "work", "create", "--from-session", team.session, "--goal", "A", "--vp", "Linus")
    env = {**os.environ, "FOYA_HOME": str(team.home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    env.pop("QT_QPA_PLATFORM", None)
    runner = subprocess.Popen([sys.executable, "-m", "foya_desktop", "work", "start", a["id"]], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for("A's model request is held", held.is_set, runner)
        answered = ok_json(team.home, "work", "answer", b["id"], "--text", "go")
        assert answered["state"] == "running"  # recorded; the running executor goes on with it
        _wait_for("B is finished by the other process",
                  lambda: ok_json(team.home, "work", "show", b["id"])["state"] == "reviewing", runner)
    finally:
        release.set()
        _, err = runner.communicate(timeout=120)
    assert runner.returncode == 0, err
    assert [(r["action_id"], r["outcome"]) for r in ok_json(team.home, "work", "runs", b["id"])] == [
        ("check", "pass")]
    assert ok_json(team.home, "work", "show", a["id"])["state"] == "reviewing"
