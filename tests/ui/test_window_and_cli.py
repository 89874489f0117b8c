"""The window's engine and ``foya`` commands on one database, as two real processes (issue 14,
"Two processes, one database"; issue 12, "the CLI's run and session commands keep working while
the window is open").

The window runs here, in the test process, on the real kernel (``kind="window"``) and the real
main window; every ``foya`` is a separate process started with asyncio's subprocess API, so the
window's loop keeps running its turn meanwhile. The window's turn runs a command that waits for a
file the test creates: the CLI processes are started while its tool call is genuinely running.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from foya_desktop.core.errors import SessionBusyElsewhere
from foya_desktop.core.model import ApprovalMode, Connection, Phase, ProviderKind
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.engine.kernel import Kernel
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.home import Home
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.timeline.rows import MessageRow
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.helpers.cli_process import foya_async
from tests.helpers.fake_keyring import MemoryKeyring
from tests.ui.conftest import _window
from tests.ui.helpers import show, wait_until

HOLD = "while [ ! -e release-me ]; do sleep 0.05; done; echo released"


def _rows(home: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    con = sqlite3.connect(f"file:{home / 'foya.sqlite3'}?mode=ro", uri=True, timeout=10)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


@pytest.fixture
async def window_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                        fake_provider: FakeProviderServer) -> AsyncIterator[Kernel]:
    root = tmp_path / "foya-home"
    monkeypatch.setenv("FOYA_HOME", str(root))
    kernel = build_kernel(Home(root), keystore=KeyStore(MemoryKeyring()), kind="window")
    await kernel.connections.add_connection(Connection("fake", ProviderKind.OPENAI, fake_provider.base_url, "fake-model"))
    yield kernel
    await kernel.close()


async def test_cli_commands_beside_a_window_running_a_turn(
        window_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    home = tmp_path / "foya-home"
    project = tmp_path / "proj"
    project.mkdir()
    fake_provider.script(Reply(tool_calls=[ToolCallSpec("run_command", {"command": HOLD}, "c1")]),
                         Reply(text="all done"))
    async with _window(window_kernel) as window:
        session = await window_kernel.sessions.create_session(title="In the window", workdir=str(project),
                                                     connection="fake", model="fake-model",
                                                     approval_mode=ApprovalMode.AUTO)
        sid = session.id
        await show(window, sid)
        window.pane.composer.input.setPlainText("wait for the file")
        window.pane.send()
        await wait_until(lambda: bool(_rows(home, "SELECT 1 FROM message_row WHERE session_id=? AND "
                                               "parts LIKE '%\"state\": \"running\"%'", sid)),
                         timeout=30, what="the window's tool call running")

        code, out, err = await foya_async(home, "sessions", "list")  # reading: no lease, no recovery
        assert code == 0 and "In the window" in out, err
        code, _, err = await foya_async(home, "run", "--session", sid, "me too")
        assert code == 10 and f"in the Foya window (pid {os.getpid()})" in err, err
        first_user = _rows(home, "SELECT id FROM message_row WHERE session_id=? AND role='user'", sid)[0][0]
        for args in (("sessions", "rewind", sid, "--to", str(first_user)), ("sessions", "delete", sid, "--yes"),
                     ("sessions", "compact", sid)):
            code, _, err = await foya_async(home, *args)
            assert code == 10 and f"pid {os.getpid()}" in err and "Traceback" not in err, (args, err)
        # another process's start-up recovery did not touch the window's running call or its phase
        assert window_kernel.turns.phase(sid) == Phase.TURN
        assert _rows(home, "SELECT phase FROM session_row WHERE id=?", sid) == [("turn",)]

        (project / "release-me").write_text("")
        await wait_until(lambda: window_kernel.turns.phase(sid) == Phase.IDLE, timeout=60, what="the turn ended")
        history = await window_kernel.history.messages(sid)
        results = [m for m in history if m.role == "tool"]
        assert len(results) == 1 and "released" in str(results[0].parts) and "interrupted" not in str(results[0].meta)
        assert "me too" not in " ".join(m.text for m in history)
        assert history[-1].text == "all done"

        # once the window is done with it, the CLI may run a turn there
        fake_provider.script(Reply(text="from the command line"))
        code, out, err = await foya_async(home, "run", "--session", sid, "now you")
        assert code == 0 and "from the command line" in out, err


def _cli_env(home: Path) -> dict[str, str]:
    env = {**os.environ, "FOYA_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    env.pop("QT_QPA_PLATFORM", None)
    return env


def _holding_call(home: Path, sid: str) -> bool:
    """The CLI's HOLD call is running (read from the database: it is another process's call)."""
    return bool(_rows(home, "SELECT 1 FROM message_row WHERE session_id=? AND role='assistant' AND "
                            "parts LIKE '%release-me%' AND parts LIKE '%\"state\": \"running\"%'", sid))


async def test_window_started_beside_a_cli_turn_leaves_it_alone_and_is_refused(
        fake_provider: FakeProviderServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The window opened while ``foya run`` is inside a tool call: the window's start-up recovery
    must not take that call for a crash's leftover (no interrupted result, phase not reset), and
    sending from the window's composer into that session is refused with a sentence naming the
    process, instead of starting a second turn that interleaves with the CLI's."""
    home, project = tmp_path / "foya-home", tmp_path / "proj"
    project.mkdir()
    monkeypatch.setenv("FOYA_HOME", str(home))
    code, _, err = await foya_async(home, "connections", "add", "fake", "--kind", "openai", "--base-url",
                                    fake_provider.base_url, "--model", "fake-model")
    assert code == 0, err
    fake_provider.script(Reply(text="first reply"))
    code, _, err = await foya_async(home, "run", "--project", str(project), "hello")
    assert code == 0, err
    sid = err.split("Session ", 1)[1].split()[0]
    fake_provider.script(Reply(tool_calls=[ToolCallSpec("run_command", {"command": HOLD}, "c1")]),
                         Reply(text="all done"))
    cli = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "foya_desktop", "run", "--session", sid, "--approval", "auto", "wait for the file",
        env=_cli_env(home), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    kernel: Kernel | None = None
    try:
        await wait_until(lambda: _holding_call(home, sid) or cli.returncode is not None, timeout=60,
                         what="the CLI's tool call running")
        assert cli.returncode is None, await cli.communicate()

        kernel = build_kernel(Home(home), keystore=KeyStore(MemoryKeyring()), kind="window")  # recovery runs
        assert _holding_call(home, sid)
        assert _rows(home, "SELECT phase FROM session_row WHERE id=?", sid) == [("turn",)]
        assert _rows(home, "SELECT count(*) FROM message_row WHERE session_id=? AND role='tool'", sid) == [(0,)]

        async with _window(kernel) as window:
            await show(window, sid)
            failures: list[str] = []
            window.runner.failed.connect(failures.append)
            window.pane.composer.input.setPlainText("from the window")
            window.pane.send()
            await wait_until(lambda: bool(failures), timeout=30, what="the window's send refused")
            # the status bar says it in the window's own words (error code session_busy_elsewhere)
            # the window says what the CLI would: the same sentence, naming what runs and where
            said = f"This session is running a turn in another foya process (pid {cli.pid})."
            assert said in failures[0], failures
            assert said in window.statusBar().currentMessage()
            assert window.pane.composer.input.toPlainText() == "from the window"  # the words are kept
            with pytest.raises(SessionBusyElsewhere) as refused:  # the engine's sentence behind it
                await kernel.turns.send(sid, "from the window")
            assert f"running a turn in another foya process (pid {cli.pid})" in str(refused.value)

            assert _holding_call(home, sid)
            assert _rows(home, "SELECT phase FROM session_row WHERE id=?", sid) == [("turn",)]
            (project / "release-me").write_text("")
            out, err_b = await asyncio.wait_for(cli.communicate(), 90)
            assert cli.returncode == 0 and b"all done" in out, err_b
            history = await kernel.history.messages(sid)
            results = [m for m in history if m.role == "tool"]
            assert len(results) == 1 and "released" in str(results[0].parts), results
            assert "interrupted" not in str(results[0].meta)
            assert "from the window" not in " ".join(m.text for m in history)

            # the CLI gone, the same composer sends there
            fake_provider.script(Reply(text="now from the window"))
            window.pane.send()
            await wait_until(lambda: kernel is not None and kernel.turns.phase(sid) == Phase.IDLE
                             and "now from the window" in _texts(window), timeout=30, what="the window's turn")
    finally:
        (project / "release-me").write_text("")
        if cli.returncode is None:
            try:
                await asyncio.wait_for(cli.communicate(), 90)
            except TimeoutError:
                cli.kill()
                await cli.communicate()
        if kernel is not None:
            await kernel.close()


def _texts(window: MainWindow) -> list[str]:
    model = window.pane.timeline_model
    rows = [model.row_at(i) for i in range(model.rowCount())]
    return [r.message.text for r in rows if isinstance(r, MessageRow)]


async def test_what_foya_commands_write_shows_up_in_the_open_window(
        window_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    """A turn run by ``foya run --session`` streams into the timeline on screen (as stored messages),
    a rename and a new session appear in the sidebar, a deletion removes it — no restart, and the
    window's own turns are not shown twice."""
    home = tmp_path / "foya-home"
    project = tmp_path / "proj"
    project.mkdir()
    window_kernel.watch_other_processes()
    async with _window(window_kernel) as window:
        session = await window_kernel.sessions.create_session(title="Shared", workdir=str(project),
                                                     connection="fake", model="fake-model")
        sid = session.id
        await show(window, sid)
        fake_provider.script(Reply(text="typed in the window"))
        window.pane.composer.input.setPlainText("hello from the window")
        window.pane.send()
        await wait_until(lambda: _texts(window) == ["hello from the window", "typed in the window"],
                         timeout=30, what="the window's own turn")

        fake_provider.script(Reply(text="answered in a terminal"))
        code, _, err = await foya_async(home, "run", "--session", sid, "hello from a terminal")
        assert code == 0, err
        await wait_until(lambda: _texts(window)[2:] == ["hello from a terminal", "answered in a terminal"],
                         timeout=15, what="the terminal's turn in the open timeline")
        await asyncio.sleep(2.5)  # two more looks: nothing is told twice
        assert _texts(window) == ["hello from the window", "typed in the window",
                                  "hello from a terminal", "answered in a terminal"]

        code, _, err = await foya_async(home, "sessions", "set", sid, "--title", "Renamed in a terminal")
        assert code == 0, err
        await wait_until(lambda: (s := window.tree_model.session(sid)) is not None
                         and s.title == "Renamed in a terminal", timeout=15, what="the new title")

        fake_provider.script(Reply(text="a new one"))
        code, _, err = await foya_async(home, "run", "--project", str(project), "started in a terminal")
        assert code == 0, err
        (other,) = [s for s in await window_kernel.sessions.list_sessions() if s.id != sid]
        await wait_until(lambda: window.tree_model.session(other.id) is not None, timeout=15,
                         what="the terminal's new session in the sidebar")
        code, _, err = await foya_async(home, "sessions", "delete", other.id, "--yes")
        assert code == 0, err
        await wait_until(lambda: window.tree_model.session(other.id) is None, timeout=15,
                         what="the deleted session gone from the sidebar")
