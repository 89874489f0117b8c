"""The per-VP status line and the agent-mode controls, on the real kernel and the fake provider.

Yeaft seed Y40-Y46 (one title line with name, state and Stop; tokens as full
numbers; requests, executions, failures incl. blocked; "failed" expands per
tool; "Run details"; nothing kept after the turn), Y08 (effort selector in the
composer), Foya F15 (agent mode switch apart from the approval mode).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from foya_desktop.core.events import TurnFinished, VPStatus
from foya_desktop.core.model import VP, AgentMode, ApprovalMode, Connection, ProviderKind
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui import i18n
from foya_desktop.ui.composer.vp_status import tokens_phrase
from foya_desktop.ui.main_window import MainWindow
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.ui.helpers import open_session, settle, show, wait_until


async def test_status_line_shows_live_figures_and_expands_failures(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "README.md").write_text("hello\n")
    fake_provider.script(
        Reply(tool_calls=[ToolCallSpec("write_file", {"path": "a.txt", "content": "x"}),
                          ToolCallSpec("read_file", {"path": "README.md"})], usage=(12345, 67)),
        Reply(text="Reading done; writing is not allowed in read-only mode. " * 6, usage=(20000, 300),
              chunk_size=4, delay_per_chunk=0.03))
    sid = await open_session(real_window, real_kernel, workdir=str(project), approval_mode=ApprovalMode.READ_ONLY)
    finished: list[TurnFinished] = []
    real_kernel.bus.subscribe(lambda e: finished.append(e) if isinstance(e, TurnFinished) else None)
    pane = real_window.pane
    panel = pane.status.vp_panel
    pane.composer.input.setPlainText("read and write")
    pane.composer.send_button.click()
    await wait_until(lambda: "omni" in panel.blocks
                     and "2 model requests" in panel.blocks["omni"].figures_label.text(),
                     timeout=15, what="figures while the second request streams")
    block = panel.blocks["omni"]
    assert block.state_label.text() == "Running"
    # one VP runs: its Stop is on its title line (Y40), the composer's stops the turn
    assert block.stop_button.isVisibleTo(pane) and pane.composer.stop_button.isVisibleTo(pane)
    text = block.figures_label.text()
    assert "input 12,345 · output 67 tokens" in text
    assert "2 model requests · 1 tool execution" in text
    block.figures_label.linkActivated.emit("failed")
    block.figures_label.linkActivated.emit("details")
    assert block.tools_label.isVisibleTo(pane) and block.details_label.isVisibleTo(pane)
    assert "write_file</td><td align='right'>0</td><td align='right'>1</td><td align='right'>1" in (
        block.tools_label.text())
    assert "New evidence does not mean the task is done." in block.details_label.text()
    await settle(3)
    real_window.grab().save(str(shots / "status_line_running.png"))
    await wait_until(lambda: finished, timeout=20, what="turn finished")
    await settle(3)
    assert not panel.blocks and not panel.isVisibleTo(pane), "live figures are not kept after the turn"
    assert sid


async def test_not_provided_when_the_provider_reports_no_usage(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer) -> None:
    fake_provider.script(Reply(text="no usage here " * 10, report_usage=False, chunk_size=4,
                               delay_per_chunk=0.02))
    await open_session(real_window, real_kernel)
    seen: list[str] = []
    panel = real_window.pane.status.vp_panel
    real_kernel.bus.subscribe(lambda e: seen.append(panel.blocks["omni"].figures_label.text())
                              if isinstance(e, VPStatus) and e.state == "done" and "omni" in panel.blocks
                              else None)
    real_window.pane.composer.input.setPlainText("hi")
    real_window.pane.composer.send_button.click()
    await wait_until(lambda: seen, timeout=15, what="final status")
    await settle(2)
    assert seen and "tokens: not provided by the service · 1 model request" in seen[-1]
    assert " 0 tokens" not in seen[-1] and "input" not in seen[-1], "one sentence, never 0"


async def test_effort_and_agent_mode_controls_change_the_session(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    fake_provider.script(Reply(text="1. Look around. 2. Change things."), Reply(text="Doing it."))
    sid = await open_session(real_window, real_kernel, workdir=str(project))
    status = real_window.pane.status
    status.effort.setCurrentIndex(status.effort.findData("high"))
    status.effort.activated.emit(status.effort.currentIndex())
    status.agent_mode.click()
    await wait_until(lambda: status.agent_mode.text() == "Mode: Plan", what="plan mode shown")
    session = await real_kernel.sessions.get_session(sid)
    assert (session.reasoning_effort, session.agent_mode) == ("high", AgentMode.PLAN)
    assert status.approval.currentData() == "ask", "the agent mode is apart from the approval mode"
    real_window.pane.composer.input.setPlainText("make a plan")
    real_window.pane.composer.send_button.click()
    await wait_until(lambda: status.confirm_bar.isVisibleTo(real_window), timeout=15, what="confirm bar")
    assert status.agent_mode.text() == "Mode: Plan (awaiting confirmation)"
    await settle(3)
    real_window.grab().save(str(shots / "status_line_plan_ready.png"))
    status.confirm_button.click()
    await wait_until(lambda: len(fake_provider.requests) == 2, timeout=15, what="execution turn")
    await wait_until(lambda: status.agent_mode.text() == "Mode: Execute", what="execute mode shown")
    assert not status.confirm_bar.isVisibleTo(real_window)
    assert fake_provider.requests[1].body.get("reasoning_effort") == "high"


def test_token_phrase_says_what_was_not_provided_in_english_and_chinese(qapp: QApplication) -> None:
    """Y43: a proper phrase whichever side is missing; zh_CN through the window's catalogue."""
    assert tokens_phrase(None, None) == "tokens: not provided by the service"
    assert tokens_phrase(1234, None) == "input 1,234 tokens · output: not provided"
    assert tokens_phrase(None, 5) == "input: not provided · output 5 tokens"
    assert tokens_phrase(0, 0) == "input 0 · output 0 tokens", "a reported zero is a zero"
    i18n.install("zh_CN", qapp)
    try:
        assert tokens_phrase(None, None) == "token 用量：服务未提供"
        assert tokens_phrase(1234, None) == "输入 1,234 token · 输出：未提供"
    finally:
        i18n.install("en", qapp)


async def test_session_status_names_the_announcement_and_the_roster(
        real_window: MainWindow, real_kernel: Kernel, shots: Path) -> None:
    """Y38: the session's status under its title: folder, announcement and who is on the roster
    (active background tasks have their panel: tests/ui/test_tasks.py)."""
    await real_kernel.vps.add_vp(VP("linus", "Linus", "Linus the implementer", "You implement."))
    sid = await open_session(real_window, real_kernel, roster=("omni", "linus"), default_vp="linus")
    await real_kernel.sessions.update_session(sid, announcement="Keep answers short.")
    pane = real_window.pane
    await wait_until(lambda: "📣 Keep answers short." in pane.subtitle.text(), what="announcement shown")
    assert "VPs: @Linus, @Omni" in pane.subtitle.text(), "the default VP first"
    await settle(2)
    real_window.grab().save(str(shots / "session_status_header.png"))


async def test_a_session_on_the_default_service_shows_the_service_it_runs_on(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer) -> None:
    """A session made by `foya run` keeps an empty connection setting ("the first configured one"): the
    status line names that service and its model, not "Choose a service" with an empty model."""
    await real_kernel.connections.add_connection(
        Connection("other", ProviderKind.OPENAI, fake_provider.base_url, "other-model"))
    session = await real_kernel.sessions.create_session(title="From the CLI")
    assert session.connection == "" and session.model == ""
    await wait_until(lambda: real_window.tree_model.session(session.id) is not None, what="tree row")
    await show(real_window, session.id)
    status = real_window.pane.status
    await wait_until(lambda: status.connection.currentText() == "fake", what="the first configured service")
    assert status.model.currentText() == "fake-model"
    fake_provider.script(Reply(text="ran on fake"))
    await real_kernel.turns.send(session.id, "which one?")
    await wait_until(lambda: bool(fake_provider.requests), timeout=10, what="a request")
    assert fake_provider.requests[0].body["model"] == "fake-model", "the engine uses the one the window shows"


async def _session_asking_to_write(window: MainWindow, kernel: Kernel, provider: FakeProviderServer,
                                   tmp_path: Path, answer: str, delay: float) -> tuple[str, Path]:
    """A session in ask mode, shown, whose next turn asks to write ``a.txt`` and then streams ``answer``."""
    project = tmp_path / "proj"
    project.mkdir()
    provider.script(
        Reply(tool_calls=[ToolCallSpec("write_file", {"path": "a.txt", "content": "x"})]),
        Reply(text=answer, chunk_size=4, delay_per_chunk=delay))
    sid = await open_session(window, kernel, workdir=str(project), approval_mode=ApprovalMode.ASK)
    return sid, project


async def test_a_vp_waiting_for_an_approval_says_so_not_running(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path) -> None:
    """While the VP's approval card is open its status (and the phase) says "Waiting for you", not
    "Running"/"Working…" (it does not work until the person answers); after the answer it runs
    again. Leaving the session and coming back keeps the word (the state is the engine's pending
    requests, not the card)."""
    sid, project = await _session_asking_to_write(real_window, real_kernel, fake_provider, tmp_path,
                                                  "Written and done. " * 20, delay=0.05)
    pane = real_window.pane
    panel = pane.status.vp_panel
    pane.composer.input.setPlainText("write it")
    pane.composer.send_button.click()
    await wait_until(lambda: pane.attention.card is not None, timeout=15, what="the approval card")
    await wait_until(lambda: "omni" in panel.blocks and panel.blocks["omni"].state_label.text() == "Waiting for you",
                     timeout=10, what="the VP waiting for the person")
    assert pane.status.phase_label.text() == "Waiting for you", "the phase is not 'Working…'"
    assert not pane.status.idle_state.isVisibleTo(pane), "said once, in the VP's block, not beside it too"
    real_window.grab().save(str(shots / "status_waiting_for_you.png"))
    other = await real_kernel.sessions.create_session(title="Elsewhere")
    await show(real_window, other.id)
    await show(real_window, sid)
    await wait_until(lambda: "omni" in panel.blocks and panel.blocks["omni"].state_label.text() == "Waiting for you",
                     timeout=10, what="still waiting after coming back")
    card = pane.attention.card
    assert card is not None
    card.buttons["once"].click()
    await wait_until(lambda: panel.blocks.get("omni") is None
                     or panel.blocks["omni"].state_label.text() == "Running", timeout=10, what="running again")
    await wait_until(lambda: pane.status.phase_label.text() != "Waiting for you", what="the phase moves on")
    assert (project / "a.txt").read_text() == "x"


async def test_vp_blocks_are_made_between_turns_and_reused_folded(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer) -> None:
    """Issue 14 (the first message's longest frame): the VP block a turn shows is made and polished
    before the turn — a moment after the session is shown — and kept for the next turn, which shows
    it as new (its sections folded, its VP's name). Y40-Y46: nothing of a turn's figures is kept."""
    sid = await open_session(real_window, real_kernel)
    panel = real_window.pane.status.vp_panel
    await wait_until(lambda: panel.spares, what="a block made ahead")
    ready = panel.spares[0]
    assert not ready.isVisibleTo(real_window.pane)
    finished: list[TurnFinished] = []
    real_window.bridge.turn_finished.connect(finished.append)
    fake_provider.script(Reply(text="First answer " * 30, chunk_size=4, delay_per_chunk=0.02),
                         Reply(text="Second answer " * 30, chunk_size=4, delay_per_chunk=0.02))
    await real_kernel.turns.send(sid, "first")
    await wait_until(lambda: "omni" in panel.blocks, timeout=10, what="the VP's block")
    block = panel.blocks["omni"]
    assert block is ready and not panel.spares, "the turn took the block made ahead"
    assert "Omni" in block.name_label.text() and block.state_label.text() == "Running"
    assert block.isVisibleTo(real_window.pane)
    block.figures_label.linkActivated.emit("details")
    assert block.details_label.isVisibleTo(real_window.pane)
    await wait_until(lambda: len(finished) == 1, timeout=15, what="the first turn")
    await settle(2)
    assert not panel.blocks and panel.spares == [block] and not panel.isVisibleTo(real_window.pane)
    await real_kernel.turns.send(sid, "second")
    await wait_until(lambda: "omni" in panel.blocks, timeout=10, what="the VP's block again")
    assert panel.blocks["omni"] is block, "the next turn reuses it"
    assert not block.details_label.isVisibleTo(real_window.pane), "folded, as a new block"
    await wait_until(lambda: len(finished) == 2, timeout=15, what="the second turn")
    assert "1 model request ·" in block.figures_label.text(), "this turn's figures only"


async def test_a_turn_does_not_resize_the_status_line_or_the_timeline(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path) -> None:
    """Issue 14 (no relayout per turn): one VP's block takes the place of the idle lines (the phase
    over the last error) and is as high as they are, so the status line — and the timeline's
    viewport above it — keep their height at idle, while the VP runs, while it waits for an
    approval and after the turn (before, the block was added above the row: a 41 px jump of the
    reading column and a full relayout of the timeline twice per turn)."""
    _, project = await _session_asking_to_write(real_window, real_kernel, fake_provider, tmp_path,
                                                "Written. " * 40, delay=0.03)
    pane = real_window.pane
    status, viewport = pane.status, pane.timeline_view.viewport()
    await settle()
    idle = (status.height(), viewport.height())
    assert status.idle_state.isVisibleTo(pane) and status.phase_label.text()
    real_window.grab().save(str(shots / "status_height_idle.png"))
    finished: list[TurnFinished] = []
    real_window.bridge.turn_finished.connect(finished.append)
    pane.composer.input.setPlainText("write it")
    pane.composer.send_button.click()
    await wait_until(lambda: pane.attention.card is not None, timeout=15, what="the approval card")
    block = status.vp_panel.blocks["omni"]
    await wait_until(lambda: block.state_label.text() == "Waiting for you", what="the VP waiting")
    await settle()
    assert block.isVisibleTo(pane) and not status.idle_state.isVisibleTo(pane)
    assert status.height() == idle[0], "waiting: the block stands where the idle lines stood"
    real_window.grab().save(str(shots / "status_height_waiting.png"))
    card = pane.attention.card
    assert card is not None
    card.buttons["once"].click()
    await wait_until(lambda: block.state_label.text() == "Running" and status.vp_panel.blocks.get("omni") is block,
                     timeout=10, what="running again")
    await settle()
    running = (status.height(), viewport.height())
    real_window.grab().save(str(shots / "status_height_running.png"))
    await wait_until(lambda: bool(finished), timeout=20, what="the end of the turn")
    await settle()
    assert status.idle_state.isVisibleTo(pane) and not status.vp_panel.blocks
    after = (status.height(), viewport.height())
    assert running == idle and after == idle, f"idle {idle}, running {running}, after {after}"
    assert (project / "a.txt").read_text() == "x"
