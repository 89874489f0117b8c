"""Tool rows never stay "running…" once their call was answered, denied or interrupted — also after a
restart — and an approval card points to its call in the timeline (issue 11, "Reading long sessions").

All on the real kernel with the HTTP fake model: a bare denial of the first of two calls, a stop
while a command runs, and a process that died mid-tool followed by a fresh start on the same data.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from foya_desktop.core.ids import now_ms
from foya_desktop.core.messages import Message, TextPart, ToolCallPart, ToolState
from foya_desktop.core.model import Connection, Phase, ProviderKind
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.engine.kernel import Kernel
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.home import Home
from foya_desktop.ui import theme
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.timeline.rows import MessageRow
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.helpers.fake_keyring import MemoryKeyring
from tests.ui.conftest import _window
from tests.ui.helpers import Events, open_session, settle, show, wait_until


def _row_line(window: MainWindow, call_id: str) -> str:
    """The tool line of ``call_id`` as the renderer draws it (its segments' text)."""
    pane = window.pane
    row_index = pane.timeline_model.row_of_call(call_id)
    assert row_index is not None, "the call is in the timeline"
    row = pane.timeline_model.row_at(row_index)
    assert isinstance(row, MessageRow)
    renderer = pane.renderer
    call = next(c for c in row.message.tool_calls if c.call_id == call_id)
    from foya_desktop.ui.timeline.call_outcome import outcome
    said = outcome(row.message, call, row.results.get(call_id), renderer.activity, renderer.small)
    if said is not None:
        return said.text.strip()
    result = row.result_for(call_id)
    assert result is not None
    return "result: " + result.content


def _visible(window: MainWindow, call_id: str) -> bool:
    view = window.pane.timeline_view
    row = window.pane.timeline_model.row_of_call(call_id)
    return row is not None and view.row_rect(row).intersects(view.viewport().rect())


@pytest.fixture(autouse=True)
def _light_afterwards() -> object:
    yield
    theme.apply_theme("light")


@pytest.mark.parametrize("choice", ["light", "dark"])
async def test_bare_denial_marks_the_call_denied_and_the_next_not_run(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path, choice: str) -> None:
    """Before: the denied call stayed "running…" (TurnStopped left it open) and so did the second."""
    real_window.prefs.update(theme=choice)
    project = tmp_path / "proj"
    project.mkdir()
    fake_provider.script(Reply(text="I will write both files.", tool_calls=[
        ToolCallSpec("write_file", {"path": "a.txt", "content": "a"}, id="call_a"),
        ToolCallSpec("write_file", {"path": "b.txt", "content": "b"}, id="call_b")]),
        Reply(text="never requested"))
    sid = await open_session(real_window, real_kernel, title="Deny", workdir=str(project), approval_mode="ask")
    events = Events(real_kernel)
    for i in range(40):  # history above, so the call is off screen once scrolled up
        await real_kernel.store.import_messages(sid, [Message(f"h{i:03d}", sid,
                                                              "user" if i % 2 == 0 else "assistant",
                                                              (TextPart(f"earlier message {i}\n\nwith a second paragraph"),),
                                                              speaker="" if i % 2 == 0 else "omni")])
    await real_window.pane.show_session(await real_kernel.sessions.get_session(sid))
    real_window.pane.composer.input.setPlainText("write a and b")
    real_window.pane.send()
    await wait_until(lambda: real_window.pane.attention.card is not None
                     and real_window.pane.timeline_model.row_of_call("call_a") is not None, 10, "approval card")
    await settle()
    assert _row_line(real_window, "call_a") == "· waiting for your approval"
    assert _row_line(real_window, "call_b") == "· queued"
    card = real_window.pane.attention.card
    assert card is not None and card.show_call_button.isVisible()
    real_window.pane.timeline_view.scrollToTop()
    await settle()
    assert not _visible(real_window, "call_a")
    card.show_call_button.click()
    await wait_until(lambda: _visible(real_window, "call_a"), 5, "the call on screen")
    await settle()
    real_window.grab().save(str(shots / f"approval_points_to_call_{choice}.png"))
    card.buttons["deny"].click()
    turns = await events.turns(1)
    assert turns[0].status == "stopped"
    await wait_until(lambda: real_kernel.turns.phase(sid) == Phase.IDLE)
    await settle(5)
    assert _row_line(real_window, "call_a") == "✗ denied"
    assert _row_line(real_window, "call_b") == "· not run (the turn stopped)"
    real_window.grab().save(str(shots / f"tool_rows_after_denial_{choice}.png"))
    # what the model is told next time: both calls have results
    page = await real_kernel.history.history_page(sid, limit=10)
    answered = {m.tool_result.call_id for m in page if m.tool_result is not None}
    assert {"call_a", "call_b"} <= answered


async def test_stop_while_a_command_runs_marks_it_interrupted(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    fake_provider.script(Reply(tool_calls=[ToolCallSpec("run_command", {"command": "sleep 30"}, id="call_s")]),
                         Reply(text="never requested"))
    sid = await open_session(real_window, real_kernel, title="Stop", workdir=str(project), approval_mode="auto")
    events = Events(real_kernel)
    real_window.pane.composer.input.setPlainText("wait a while")
    real_window.pane.send()
    await wait_until(lambda: real_window.pane.timeline_model.row_of_call("call_s") is not None
                     and _row_line(real_window, "call_s") == "· running…", 10, "the command running")
    await real_kernel.turns.stop(sid)
    await events.turns(1)
    await wait_until(lambda: real_kernel.turns.phase(sid) == Phase.IDLE)
    await settle(5)
    assert _row_line(real_window, "call_s") == "⚠ interrupted"
    real_window.grab().save(str(shots / "tool_row_after_stop.png"))


async def test_after_a_crash_and_restart_the_call_reads_interrupted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_provider: FakeProviderServer, shots: Path) -> None:
    """The dead process left the call "running" with no result; the next start closes it."""
    root = tmp_path / "home"
    monkeypatch.setenv("FOYA_HOME", str(root))

    def kernel() -> Kernel:
        return build_kernel(Home(root), keystore=KeyStore(MemoryKeyring()))

    first = kernel()
    await first.connections.add_connection(Connection("fake", ProviderKind.OPENAI, fake_provider.base_url, "fake-model"))
    session = await first.sessions.create_session(title="Crashed", connection="fake", model="fake-model")
    sid = session.id
    await first.store.import_messages(sid, [Message("u1", sid, "user", (TextPart("build it"),))])
    running = ToolCallPart("call_r", "run_command", {"command": "make"}, ToolState.RUNNING)
    await first.store.append_message(Message("a1", sid, "assistant", (running,), speaker="omni",
                                             turn_id="turn_dead", created_at=now_ms()))
    await first.close()  # as a killed process leaves it: no result, the call still "running"
    second = kernel()
    try:
        async with _window(second) as window:
            await show(window, sid)
            await settle(5)
            assert _row_line(window, "call_r") == "⚠ interrupted"
            window.grab().save(str(shots / "tool_row_after_restart.png"))
    finally:
        await second.close()


async def test_a_call_left_open_by_another_process_does_not_read_running(
        real_window: MainWindow, real_kernel: Kernel) -> None:
    """No result in the window and the session idle: the row says interrupted, never "running…"."""
    sid = await open_session(real_window, real_kernel, title="Open call")
    pending = ToolCallPart("call_p", "read_file", {"path": "x"}, ToolState.PENDING)
    await real_kernel.store.append_message(Message("a1", sid, "assistant", (pending,), speaker="omni",
                                                   turn_id="t_old", created_at=now_ms()))
    await real_window.pane.show_session(await real_kernel.sessions.get_session(sid))
    await settle()
    assert _row_line(real_window, "call_p") == "⚠ interrupted"
