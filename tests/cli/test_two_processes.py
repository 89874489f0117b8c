"""Two real processes on one database: a ``foya run`` holding a session mid-tool-call, and
other ``foya`` processes started meanwhile (issue 14, "Two processes, one database").

Process A runs a turn whose tool call waits for a file the test creates, so the other
processes are started while A's call is genuinely running. Nothing here is timed: the
test waits for database states, not for durations.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from foya_desktop.core.events import Notice
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.home import Home
from tests.cli.test_cli import add_fake, foya
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.helpers.fake_keyring import MemoryKeyring

HOLD = "while [ ! -e release-me ]; do sleep 0.05; done; echo released"


def _env(home: Path) -> dict[str, str]:
    env = {**os.environ, "FOYA_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    env.pop("QT_QPA_PLATFORM", None)
    return env


def _rows(home: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    con = sqlite3.connect(f"file:{home / 'foya.sqlite3'}?mode=ro", uri=True, timeout=10)
    try:
        return con.execute(sql, args).fetchall()
    except sqlite3.OperationalError:
        return []
    finally:
        con.close()


def _wait_for(predicate: Callable[[], bool], what: str, proc: subprocess.Popen[str], limit: float = 90) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if predicate():
            return
        if proc.poll() is not None:
            raise AssertionError(f"process A ended before {what}: {proc.communicate()}")
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _running_call(home: Path) -> bool:
    return bool(_rows(home, "SELECT 1 FROM message_row WHERE role='assistant' AND parts LIKE '%\"state\": \"running\"%'"))


def _holding_call(home: Path) -> bool:
    """A's HOLD call runs (not merely an earlier call of its turn, which is running only briefly)."""
    return bool(_rows(home, "SELECT 1 FROM message_row WHERE role='assistant' AND parts LIKE '%release-me%' "
                            "AND parts LIKE '%\"state\": \"running\"%'"))


Held = tuple[Path, str, "subprocess.Popen[str]", Path]


@contextlib.contextmanager
def _holding(tmp_path: Path, *before: Reply) -> Iterator[Held]:
    """Session S with a turn of process A blocked inside a running tool call; yields (home, S, A, proj).

    ``before`` are model replies A's turn acts on first (e.g. starting a background job), so
    a test can give A more to own than the running call alone.
    """
    home, proj = tmp_path / "home", tmp_path / "proj"
    proj.mkdir()
    with FakeProviderServer() as server:
        add_fake(home, server)
        server.script(Reply(text="first reply"))
        first = foya(home, "run", "--project", str(proj), "hello")
        assert first.returncode == 0, first.stderr
        sid = first.stderr.split("Session ", 1)[1].split()[0]
        server.script(*before, Reply(tool_calls=[ToolCallSpec("run_command", {"command": HOLD})]),
                      Reply(text="all done"))
        a = subprocess.Popen([sys.executable, "-m", "foya_desktop", "run", "--session", sid, "--approval", "auto",
                              "wait for the file"], env=_env(home), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        try:
            _wait_for(lambda: _holding_call(home), "A's tool call to run", a)
            yield home, sid, a, proj
        finally:
            (proj / "release-me").touch()
            try:
                a.communicate(timeout=90)  # reaps A and closes its pipes
            except subprocess.TimeoutExpired:
                a.send_signal(signal.SIGKILL)
                a.communicate()


@pytest.fixture
def held_session(tmp_path: Path) -> Iterator[Held]:
    """Session S with a turn of process A blocked inside a running tool call; yields (home, S, A, proj)."""
    with _holding(tmp_path) as held:
        yield held


def _finish(a: subprocess.Popen[str], proj: Path) -> tuple[str, str]:
    (proj / "release-me").touch()
    out, err = a.communicate(timeout=90)
    assert a.returncode == 0, err
    return out, err


def test_cli_started_during_a_turn_leaves_it_alone_and_is_refused(held_session: Held) -> None:
    """Seed: one turn per session across processes; recovery only touches sessions no live process owns."""
    home, sid, a, proj = held_session
    listed = foya(home, "sessions", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    assert [s["id"] for s in json.loads(listed.stdout)] == [sid]
    shown = foya(home, "sessions", "show", sid)
    assert shown.returncode == 0, shown.stderr

    second = foya(home, "run", "--session", sid, "me too")
    assert second.returncode == 10, second.stderr
    assert f"in another foya process (pid {a.pid})" in second.stderr
    assert "Traceback" not in second.stderr

    user = _rows(home, "SELECT id FROM message_row WHERE session_id=? AND role='user' ORDER BY seq LIMIT 1", sid)
    for args in (("sessions", "rewind", sid, "--to", str(user[0][0])), ("sessions", "delete", sid, "--yes"),
                 ("sessions", "compact", sid)):
        refused = foya(home, *args)
        assert refused.returncode == 10, (args, refused.stderr)
        assert f"in another foya process (pid {a.pid})" in refused.stderr, (args, refused.stderr)
        assert "Traceback" not in refused.stderr, (args, refused.stderr)

    # nothing the other processes did touched A's running turn
    assert _running_call(home)
    assert _rows(home, "SELECT phase FROM session_row WHERE id=?", sid) == [("turn",)]
    out, _ = _finish(a, proj)
    assert "all done" in out
    results = _rows(home, "SELECT parts, meta FROM message_row WHERE session_id=? AND role='tool' AND valid", sid)
    assert len(results) == 1, results
    assert "released" in str(results[0][0]) and "interrupted" not in str(results[0][1])
    texts = [str(r[0]) for r in _rows(home, "SELECT parts FROM message_row WHERE session_id=? AND valid "
                                            "ORDER BY seq", sid)]
    assert "me too" not in "".join(texts)
    assert _rows(home, "SELECT phase FROM session_row WHERE id=?", sid) == [("idle",)]
    assert _rows(home, "SELECT count(*) FROM session_claim") == [(0,)]


def test_a_killed_owner_is_recovered_by_the_next_process(held_session: Held) -> None:
    """SIGKILL releases the OS lock: the next process sees the owner dead and repairs the session."""
    home, sid, a, _ = held_session
    a.send_signal(signal.SIGKILL)
    a.wait()
    after = foya(home, "sessions", "list")
    assert after.returncode == 0  # read-only: repairs nothing, still works
    assert _running_call(home)
    again = foya(home, "sessions", "compact", sid)  # any writing command recovers first
    assert again.returncode == 0 and "pid" not in again.stderr, again.stderr
    assert not _running_call(home)
    results = _rows(home, "SELECT meta FROM message_row WHERE session_id=? AND role='tool' AND valid", sid)
    assert len(results) == 1 and "interrupted" in str(results[0][0])
    assert _rows(home, "SELECT phase FROM session_row WHERE id=?", sid) == [("idle",)]


JOB = "while [ ! -e job-release ]; do sleep 0.05; done; echo job done"


def _jobs(home: Path) -> list[tuple[object, ...]]:
    return _rows(home, "SELECT state, exit_code, output_tail, lease_id FROM task_row")


def test_a_second_process_leaves_a_live_process_background_job_running(tmp_path: Path) -> None:
    """A job started by ``run_background`` lives in the process that started it, not in the
    database: another process's start-up recovery must not call it lost, nor end its command
    (the orphan sweep), while that process lives. Only A records how the job ended."""
    started = Reply(tool_calls=[ToolCallSpec("run_background", {"command": JOB})])
    with _holding(tmp_path, started) as (home, sid, a, proj):
        ((state, _, _, lease),) = _jobs(home)
        assert state == "running"
        assert _rows(home, "SELECT pid FROM process_lease WHERE id=?", lease) == [(a.pid,)]

        second = foya(home, "run", "--session", sid, "me too")  # a writing command: recovery runs first
        assert second.returncode == 10 and f"pid {a.pid}" in second.stderr, second.stderr
        assert [j[0] for j in _jobs(home)] == ["running"]

        (proj / "job-release").touch()  # the job ends while A lives: A's watcher records it
        _wait_for(lambda: [j[0] for j in _jobs(home)] != ["running"], "A to record the job's end", a)
        ((state, code, tail, _),) = _jobs(home)
        assert (state, code) == ("completed", 0) and "job done" in str(tail), (state, code, tail)
        out, _ = _finish(a, proj)
        assert "all done" in out
    assert [j[:2] for j in _jobs(home)] == [("completed", 0)]


HOLDER = """
import asyncio, sys
from foya_desktop.store.home import Home
from foya_desktop.store.store import Store

async def main() -> None:
    from pathlib import Path
    store = Store(Home(Path(sys.argv[1])), kind="window")
    await store.claim(sys.argv[2], "running a turn")
    print("held", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    await store.close()

asyncio.run(main())
"""


def test_the_window_holding_a_session_is_named(tmp_path: Path) -> None:
    """The second process is told the session runs in the Foya window (a real second process)."""
    home, proj = tmp_path / "home", tmp_path / "proj"
    proj.mkdir()
    with FakeProviderServer() as server:
        add_fake(home, server)
        server.script(Reply(text="first reply"))
        first = foya(home, "run", "--project", str(proj), "hello")
        sid = first.stderr.split("Session ", 1)[1].split()[0]
        window = subprocess.Popen([sys.executable, "-c", HOLDER, str(home), sid], env=_env(home),
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert window.stdout is not None and window.stdout.readline().strip() == "held"
            refused = foya(home, "run", "--session", sid, "hi")
            assert refused.returncode == 10
            assert f"This session is running a turn in the Foya window (pid {window.pid})" in refused.stderr
        finally:
            window.communicate("\n", timeout=60)
        server.script(Reply(text="now it works"))
        ok = foya(home, "run", "--session", sid, "hi")
        assert ok.returncode == 0 and "now it works" in ok.stdout, ok.stderr


async def test_a_queued_message_that_meets_another_process_waits_paused(tmp_path: Path) -> None:
    """README: "A queued message that meets such a claim waits (the queue pauses and says why)."
    The window's kernel keeps a message queued behind a stopped turn; a ``foya run`` takes the
    session; resuming the queue then neither runs the message beside the other process's turn nor
    loses it: it stays first in a paused queue, a notice names the process (the sentence the
    command line uses), and once that process is done, resuming sends it."""
    home, proj = tmp_path / "home", tmp_path / "proj"
    proj.mkdir()
    with FakeProviderServer() as server:
        add_fake(home, server)
        kernel = build_kernel(Home(home), keystore=KeyStore(MemoryKeyring()), kind="window")
        notices: list[Notice] = []
        kernel.bus.subscribe(lambda e: notices.append(e) if isinstance(e, Notice) else None)
        a: subprocess.Popen[str] | None = None
        try:
            session = await kernel.sessions.create_session(title="queue", workdir=str(proj), connection="fake",
                                                           model="fake-model")
            sid = session.id
            server.script(Reply(text="slow " * 400, chunk_size=1, delay_per_chunk=0.05))
            await kernel.turns.send(sid, "a long question")
            await _until(lambda: len(server.requests) == 1, "the window's turn streaming")
            queued = await kernel.turns.send(sid, "waits in the queue")
            assert queued.queue_item_id is not None
            await kernel.turns.stop(sid, keep_queue=True)
            assert kernel.queue.paused(sid) and len(kernel.queue.items(sid)) == 1

            server.script(Reply(tool_calls=[ToolCallSpec("run_command", {"command": HOLD})]), Reply(text="all done"))
            a = subprocess.Popen([sys.executable, "-m", "foya_desktop", "run", "--session", sid, "--approval",
                                  "auto", "hold it"], env=_env(home), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            await asyncio.to_thread(_wait_for, lambda: _holding_call(home), "A's tool call to run", a)

            kernel.queue.resume(sid)
            await _until(lambda: any(n.code == "queue_paused_elsewhere" for n in notices), "the notice")
            notice = next(n for n in notices if n.code == "queue_paused_elsewhere")
            assert notice.text == (f"This session is running a turn in another foya process (pid {a.pid}); "
                                   "the queue is paused: resume it once that has finished.")
            assert kernel.queue.paused(sid)
            assert [i.text for i in kernel.queue.items(sid)] == ["waits in the queue"]
            assert _holding_call(home)  # A's call runs on, untouched

            out, err = await asyncio.to_thread(_finish, a, proj)
            assert "all done" in out, err
            server.script(Reply(text="now the queued one"))
            kernel.queue.resume(sid)
            await _until(lambda: not kernel.queue.items(sid), "the queued message sent")
            await kernel.turns.wait_idle()
            users = [m.text for m in await kernel.history.messages(sid) if m.role == "user"]
            assert users[-1] == "waits in the queue" and users.count("waits in the queue") == 1
            assert (await kernel.history.messages(sid))[-1].text == "now the queued one"
        finally:
            if a is not None and a.poll() is None:
                (proj / "release-me").touch()
                a.communicate(timeout=90)
            await kernel.close()



async def _until(predicate: Callable[[], bool], what: str, limit: float = 60) -> None:
    """Poll ``predicate`` on the event loop until it holds."""
    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)
