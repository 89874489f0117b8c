"""Approval and AskUser cards: shown for the session on screen, answered exactly as clicked."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QLineEdit, QPushButton

from foya_desktop.core.events import ApprovalRequested, QuestionAsked, TurnFinished
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.sessions.tree_model import NODE_ROLE
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.ui.fakes import FakeKernel
from tests.ui.helpers import settle, wait_until


def _button(widget: MainWindow, text: str) -> QPushButton:
    return next(b for b in widget.pane.attention.findChildren(QPushButton) if b.text() == text)


async def _session(window: MainWindow, kernel: FakeKernel) -> str:
    session = await kernel.create_session(title="Needs approval")
    await settle()
    window.tree_view.select_session(session.id)
    await wait_until(lambda: window.pane.session is not None)
    await window.runner.drain()
    return session.id


async def test_approval_card_answers_once_session_always_or_deny(fake_window: MainWindow,
                                                                 fake_kernel: FakeKernel, shots: Path) -> None:
    sid = await _session(fake_window, fake_kernel)
    assert fake_kernel.called("set_interactive") == [(True,)]
    fake_kernel.ask(ApprovalRequested(sid, "r1", "omni", "run_command", {"command": "rm -rf build"},
                                      "run rm -rf build", command="rm -rf build",
                                      reason="commands that delete files always ask"))
    await settle()
    panel = fake_window.pane.attention
    assert panel.isVisible() and panel.pending_ids() == ["r1"]
    node = fake_window.tree_model.index_of_session(sid).data(NODE_ROLE)
    assert node.waiting
    fake_window.grab().save(str(shots / "window_approval.png"))
    panel.findChildren(QLineEdit)[0].setText("use make clean")
    _button(fake_window, "Deny").click()
    await settle()
    assert fake_kernel.called("answer_approval") == [("r1", "deny", "use make clean")]
    assert panel.pending_ids() == [] and not panel.isVisible()
    assert not fake_window.tree_model.index_of_session(sid).data(NODE_ROLE).waiting


async def test_question_card_waits_for_confirmation(fake_window: MainWindow, fake_kernel: FakeKernel) -> None:
    sid = await _session(fake_window, fake_kernel)
    fake_kernel.ask(QuestionAsked(sid, "q1", "omni", "call_1", "Which database?", ("SQLite", "Postgres")))
    await settle()
    panel = fake_window.pane.attention
    assert panel.pending_ids() == ["q1"]
    _button(fake_window, "SQLite").click()
    await fake_window.runner.drain()
    await settle()
    assert fake_kernel.called("answer_question") == [("q1", "SQLite")]
    assert panel.pending_ids() == []  # removed only when the engine confirmed (QuestionAnswered)


async def test_cards_come_back_when_returning_to_the_session(fake_window: MainWindow,
                                                             fake_kernel: FakeKernel) -> None:
    sid = await _session(fake_window, fake_kernel)
    other = await fake_kernel.create_session(title="Elsewhere")
    fake_window.tree_view.select_session(other.id)
    await wait_until(lambda: fake_window.pane.session is not None and fake_window.pane.session.id == other.id)
    fake_kernel.ask(QuestionAsked(sid, "q1", "omni", "call_1", "Still there?"))
    await settle()
    assert fake_window.pane.attention.pending_ids() == []  # not this session's card
    fake_window.tree_view.select_session(sid)
    await wait_until(lambda: fake_window.pane.session is not None and fake_window.pane.session.id == sid)
    await fake_window.runner.drain()
    assert fake_window.pane.attention.pending_ids() == ["q1"]


async def test_real_kernel_write_waits_for_allow_once(real_window: MainWindow, real_kernel: Kernel,
                                                      fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    fake_provider.script(Reply(tool_calls=[ToolCallSpec("write_file", {"path": "notes.txt", "content": "hi"})]),
                         Reply(text="Written."))
    session = await real_kernel.create_session(title="Write", workdir=str(project), connection="fake")
    await wait_until(lambda: real_window.tree_model.session(session.id) is not None)
    real_window.tree_view.select_session(session.id)
    await wait_until(lambda: real_window.pane.session is not None)
    await real_window.runner.drain()
    done: list[TurnFinished] = []
    real_kernel.bus.subscribe(lambda e: _keep_turns(done, e))
    real_window.pane.composer.input.setPlainText("write the notes")
    real_window.pane.send()
    await wait_until(real_window.pane.attention.pending_ids, timeout=10, what="approval card")
    assert not (project / "notes.txt").exists()
    _button(real_window, "Allow once").click()
    await wait_until(lambda: done, timeout=10, what="turn finished")
    assert done[0].status == "completed"
    assert (project / "notes.txt").read_text() == "hi"
    await settle()
    assert real_window.pane.attention.pending_ids() == []


def _keep_turns(done: list[TurnFinished], event: object) -> None:
    if isinstance(event, TurnFinished):
        done.append(event)
