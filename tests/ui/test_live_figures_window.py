"""The window's status line on the real kernel and the fake provider: live only, honest when old.

Yeaft seed Y46 (live figures are not kept after the turn ends or the provider
connection drops, nor after a restart), Y44 (an old run's "failed" says its
per-tool detail is not available), Y43 ("tokens: not provided", never 0) and
Foya F23 through the window (an approval-mode change made in the composer
while a ``write_file`` call streams applies to that very call).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from foya_desktop.core.events import PartDelta, StreamEnded, TurnFinished, VPStatus
from foya_desktop.core.ids import now_ms
from foya_desktop.core.model import ApprovalMode, Connection, Phase, ProviderKind
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.session.status import turn_status
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store import sessions
from foya_desktop.store.home import Home
from foya_desktop.store.schema import ClaimRow, LeaseRow
from foya_desktop.ui.main_window import MainWindow
from tests.fakeprovider import FakeProviderServer, Fault, Reply, ToolCallSpec
from tests.helpers.fake_keyring import MemoryKeyring
from tests.ui.conftest import _window
from tests.ui.helpers import open_session, settle, wait_until

FIXTURES = Path(__file__).resolve().parents[1] / "store" / "fixtures"


def _finished(kernel: Kernel) -> list[TurnFinished]:
    seen: list[TurnFinished] = []
    kernel.bus.subscribe(lambda e: seen.append(e) if isinstance(e, TurnFinished) else None)
    return seen


@pytest.mark.parametrize("ending", ["connection_dropped", "stopped"])
async def test_live_figures_go_when_the_connection_drops_or_the_vp_is_stopped(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path, ending: str) -> None:
    """Y46: while streaming the block shows live figures; after a cut or a Stop, nothing is left."""
    project = tmp_path / "proj"
    project.mkdir()
    (project / "README.md").write_text("hello\n")
    second = Reply(text="this answer streams slowly and then " * 6, chunk_size=4, delay_per_chunk=0.03,
                   fault=Fault.cut(after_chunks=25) if ending == "connection_dropped" else None)
    fake_provider.script(Reply(tool_calls=[ToolCallSpec("read_file", {"path": "README.md"})], usage=(900, 20)),
                         second)
    await open_session(real_window, real_kernel, workdir=str(project), approval_mode=ApprovalMode.AUTO)
    finished = _finished(real_kernel)
    states: list[str] = []
    real_kernel.bus.subscribe(lambda e: states.append(e.state) if isinstance(e, VPStatus) else None)
    pane = real_window.pane
    panel = pane.status.vp_panel
    pane.composer.input.setPlainText("read it and tell me")
    pane.composer.send_button.click()
    await wait_until(lambda: "omni" in panel.blocks
                     and "2 model requests" in panel.blocks["omni"].figures_label.text(),
                     timeout=15, what="live figures of the second request")
    block = panel.blocks["omni"]
    assert "input 900 · output 20 tokens" in block.figures_label.text()
    assert block.state_label.text() == "Running"
    if ending == "stopped":
        block.stop_button.click()
    await wait_until(lambda: finished, timeout=20, what="turn finished")
    await settle(3)
    # a VP stopped on its own ends its chain; with no other VP the turn was stopped, not completed
    assert finished[0].status == ("error" if ending == "connection_dropped" else "stopped")
    assert states[-1] == ("error" if ending == "connection_dropped" else "stopped")
    assert not panel.blocks and not panel.isVisibleTo(pane), "no live figures once the turn has ended"
    assert pane.status.phase_label.text() == "Idle"
    real_window.grab().save(str(shots / f"status_line_after_{ending}.png"))


async def test_after_a_crash_and_restart_the_window_shows_no_live_figures(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_provider: FakeProviderServer) -> None:
    """Y46 after recovery: a turn left mid-way by a dead process shows nothing live on restart."""
    root = tmp_path / "foya-home"
    monkeypatch.setenv("FOYA_HOME", str(root))
    keys = KeyStore(MemoryKeyring())
    first = build_kernel(Home(root), keystore=keys)
    await first.connections.add_connection(Connection("fake", ProviderKind.OPENAI, fake_provider.base_url, "fake-model"))
    fake_provider.script(Reply(text="hello", usage=(77, 3)))
    s = await first.sessions.create_session(connection="fake", model="fake-model", title="Crashed")
    await first.turns.send(s.id, "hi")
    await first.turns.wait_idle()

    def crash() -> None:  # what a killed window leaves: phase "turn", a claim by a dead process
        sessions.set_phase(s.id, Phase.TURN)
        LeaseRow.insert(id="lease_dead", pid=999_999, start_time=1, kind="window", created_at=now_ms()).execute()
        ClaimRow.insert(session_id=s.id, lease_id="lease_dead", what="running a turn", since=now_ms()).execute()
    await first.store.write(crash)
    interrupted = await turn_status(first.store, s.id)
    assert interrupted is not None and interrupted.interrupted and not interrupted.running
    await first.close()
    kernel = build_kernel(Home(root), keystore=keys)
    try:
        async with _window(kernel) as window:
            window.tree_view.select_session(s.id)
            await wait_until(lambda: window.pane.session is not None and window.pane.session.id == s.id)
            await window.runner.drain()
            await settle(3)
            pane = window.pane
            assert not pane.status.vp_panel.blocks and not pane.status.vp_panel.isVisibleTo(pane)
            assert pane.status.phase_label.text() == "Idle" and kernel.turns.phase(s.id) == Phase.IDLE
    finally:
        await kernel.close()


async def test_failed_on_a_run_recorded_by_an_older_foya_says_the_detail_is_not_available(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shots: Path) -> None:
    """Y44 "old agents": the schema-1 fixture's turn has tool calls but no per-call outcome.

    Its figures come from the store (``turn_status``) of a real kernel opened on the
    migrated fixture; the status block's "failed" then says the breakdown is not
    available instead of an empty table.
    """
    root = tmp_path / "old-home"
    shutil.copytree(FIXTURES / "schema-1", root)
    monkeypatch.setenv("FOYA_HOME", str(root))
    kernel = build_kernel(Home(root), keystore=KeyStore(MemoryKeyring()))
    try:
        async with _window(kernel) as window:
            old = None
            for session in await kernel.sessions.list_sessions():
                status = await turn_status(kernel.store, session.id)
                if status is not None and any(not f.tool_detail for _s, f in status.vps):
                    old = (session.id, status)
                    break
            assert old is not None, "the fixture holds a turn with tool calls"
            sid, status = old
            window.tree_view.select_session(sid)
            await wait_until(lambda: window.pane.session is not None and window.pane.session.id == sid)
            await window.runner.drain()
            speaker, figures = status.vps[0]
            window.pane.status.set_vp_status(VPStatus(sid, status.turn_id, speaker, "done", figures.requests,
                                                      figures.executions, figures.failures, figures=figures))
            block = window.pane.status.vp_panel.blocks[speaker]
            assert "<a href='failed'>" in block.figures_label.text(), "failed is clickable without detail"
            block.figures_label.linkActivated.emit("failed")
            assert block.tools_label.isVisibleTo(window.pane)
            text = block.tools_label.text()
            assert "Per-tool detail is not available for this run" in text and "<table" not in text
            await settle(3)
            block.grab().save(str(shots / "status_old_run_no_detail.png"))
    finally:
        await kernel.close()


async def test_read_only_chosen_in_the_composer_while_a_write_streams_refuses_that_write(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    """F23 through the window: the approval combo's change applies at the very next tool call."""
    project = tmp_path / "proj"
    project.mkdir()
    fake_provider.script(Reply(tool_calls=[ToolCallSpec("write_file", {"path": "notes.txt", "content": "x" * 400})],
                               chunk_size=8, delay_per_chunk=0.05),
                         Reply(text="understood"))
    sid = await open_session(real_window, real_kernel, workdir=str(project), approval_mode=ApprovalMode.AUTO)
    events: list[object] = []
    real_kernel.bus.subscribe(events.append)
    finished = _finished(real_kernel)
    pane = real_window.pane
    pane.composer.input.setPlainText("write the notes")
    pane.composer.send_button.click()
    await wait_until(lambda: any(isinstance(e, PartDelta) and e.kind == "tool_args" for e in events),
                     timeout=15, what="the write_file call streaming")
    combo = pane.status.approval
    combo.setCurrentIndex(combo.findData("read_only"))
    combo.activated.emit(combo.currentIndex())
    await wait_until(lambda: pane.session is not None and pane.session.approval_mode == ApprovalMode.READ_ONLY,
                     what="the session saved read-only")
    assert not any(isinstance(e, StreamEnded) for e in events), "the change landed while the call streamed"
    await wait_until(lambda: finished, timeout=20, what="turn finished")
    assert not (project / "notes.txt").exists()
    results = [m.tool_result for m in await real_kernel.history.history_page(sid) if m.tool_result is not None]
    assert len(results) == 1 and results[0].is_error and "read-only" in results[0].content



async def test_coming_back_to_a_running_session_shows_its_figures_so_far(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    """Y41: switch away and back while a reply streams: the figures so far, not an empty line;
    then gone when the turn ends (Y46)."""
    project = tmp_path / "proj"
    project.mkdir()
    (project / "README.md").write_text("hello\n")
    fake_provider.script(Reply(tool_calls=[ToolCallSpec("read_file", {"path": "README.md"})], usage=(4321, 12)),
                         Reply(text="a long answer that streams slowly " * 10, chunk_size=4, delay_per_chunk=0.03,
                               usage=(5000, 40)))
    busy = await open_session(real_window, real_kernel, workdir=str(project), approval_mode=ApprovalMode.AUTO,
                       title="Busy")
    other = await real_kernel.sessions.create_session(connection="fake", model="fake-model", title="Other")
    await wait_until(lambda: real_window.tree_model.session(other.id) is not None, what="other row")
    finished = _finished(real_kernel)
    deltas: list[PartDelta] = []
    real_kernel.bus.subscribe(lambda e: deltas.append(e) if isinstance(e, PartDelta) and e.kind == "text" else None)
    pane = real_window.pane
    pane.composer.input.setPlainText("read it")
    pane.composer.send_button.click()
    await wait_until(lambda: len(deltas) > 2, timeout=15, what="the second reply streaming")
    real_window.tree_view.select_session(other.id)
    await wait_until(lambda: pane.session is not None and pane.session.id == other.id, what="other shown")
    assert not pane.status.vp_panel.blocks, "another session shows none of this turn's figures"
    seen = len(deltas)
    real_window.tree_view.select_session(busy)
    await wait_until(lambda: "omni" in pane.status.vp_panel.blocks, timeout=10, what="figures so far")
    assert not finished, "the figures came while the turn still ran"
    text = pane.status.vp_panel.blocks["omni"].figures_label.text()
    assert "input 4,321 · output 12 tokens" in text and "1 tool execution" in text
    assert pane.status.vp_panel.blocks["omni"].state_label.text() == "Running"
    # the reply goes on streaming after the figures came (waited for: coming back can take less
    # than one chunk's 30 ms since opening a session stopped walking its history, stop 26)
    await wait_until(lambda: len(deltas) > seen, timeout=10, what="the reply still streaming")
    await wait_until(lambda: finished, timeout=20, what="turn finished")
    await settle(3)
    assert not pane.status.vp_panel.blocks
