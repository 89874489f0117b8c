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
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

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
        for args in (("sessions", "rewind", sid, "--to", str(first_user)), ("sessions", "delete", sid, "--yes")):
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
