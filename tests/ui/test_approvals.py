"""Approval cards: one request at a time per session, answered exactly as clicked.

The four answers run against the REAL kernel (SQLite, approvals broker, file
tools) with the HTTP fake model calling ``write_file`` in ask mode.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QColor

from foya_desktop.core.events import ApprovalRequested
from foya_desktop.core.model import Phase
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.cards.approval_card import ApprovalCard, argument_lines, no_project_tip, no_rule_tip
from foya_desktop.ui.cards.diff_view import DiffView, line_kind
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.sessions.tree_model import NODE_ROLE
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.ui.fakes import FakeKernel
from tests.ui.helpers import Events, open_session, settle, show, wait_until

DIFF = """--- a/src/app.py
+++ b/src/app.py
@@ -1,3 +1,3 @@
 import sys
-import pandas as pd
+import json
 def main() -> int:
"""


def _request(sid: str, rid: str, **kw: object) -> ApprovalRequested:
    fields: dict[str, object] = {"speaker": "omni", "tool": "edit_file",
                                 "arguments": {"path": "src/app.py", "old": "import pandas as pd", "new": "import json"},
                                 "summary": "Edit src/app.py", "diff": DIFF, "paths": ("src/app.py",),
                                 "reason": "file changes need approval in ask mode"}
    fields.update(kw)
    return ApprovalRequested(sid, rid, **fields)  # type: ignore[arg-type]


async def _fake_session(window: MainWindow, kernel: FakeKernel, workdir: str | None = "/tmp/proj") -> str:
    session = await kernel.sessions.create_session(title="Needs approval", workdir=workdir)
    await settle()
    await show(window, session.id)
    return session.id


# ---- the card on its own (fake kernel) --------------------------------------------------------

async def test_requests_queue_one_at_a_time_with_a_count(fake_window: MainWindow, fake_kernel: FakeKernel) -> None:
    sid = await _fake_session(fake_window, fake_kernel)
    for rid in ("r1", "r2", "r3"):
        fake_kernel.ask(_request(sid, rid))
    await settle()
    panel = fake_window.pane.attention
    assert panel.pending_ids() == ["r1", "r2", "r3"]
    assert panel.card is not None and panel.card.request.request_id == "r1"
    assert len(panel.findChildren(ApprovalCard)) == 1
    assert panel.card.waiting.text() == "+2 more waiting"
    assert fake_window.tree_model.index_of_session(sid).data(NODE_ROLE).waiting
    panel.card.buttons["once"].click()
    await settle()
    assert fake_kernel.called("answer_approval") == [("r1", "once", "")]
    assert panel.card is not None and panel.card.request.request_id == "r2"
    assert panel.card.waiting.text() == "+1 more waiting"
    panel.card.buttons["session"].click()
    await settle()
    panel.card.buttons["deny"].click()
    await settle()
    assert [c[1] for c in fake_kernel.called("answer_approval")] == ["once", "session", "deny"]
    assert panel.card is None and not panel.isVisible()
    assert not fake_window.tree_model.index_of_session(sid).data(NODE_ROLE).waiting


async def test_card_shows_tool_arguments_diff_reason_and_disables_always_when_no_rule(
        fake_window: MainWindow, fake_kernel: FakeKernel) -> None:
    sid = await _fake_session(fake_window, fake_kernel)
    fake_kernel.ask(_request(sid, "r1", can_always=False))
    await settle()
    card = fake_window.pane.attention.card
    assert card is not None
    texts = " | ".join(label.text() for label in card.findChildren(type(card.waiting)))
    assert "Omni wants to use edit_file" in texts and "Edit src/app.py" in texts
    assert "path: src/app.py" in texts and "file changes need approval" in texts
    assert card.diff is not None and card.diff.kinds == ["h", "h", "@", " ", "-", "+", " "]
    always = card.buttons["always"]
    assert not always.isEnabled() and always.toolTip() == no_rule_tip()
    assert card.buttons["once"].isEnabled() and card.buttons["session"].isEnabled()


async def test_always_is_disabled_for_a_session_without_a_project(fake_window: MainWindow,
                                                                  fake_kernel: FakeKernel) -> None:
    sid = await _fake_session(fake_window, fake_kernel, workdir=None)
    fake_kernel.ask(_request(sid, "r1", tool="run_command", command="make clean", diff="", arguments={"command": "make clean"}))
    await settle()
    card = fake_window.pane.attention.card
    assert card is not None and card.diff is None
    assert not card.buttons["always"].isEnabled() and card.buttons["always"].toolTip() == no_project_tip()


async def test_deny_button_says_whether_the_turn_stops(fake_window: MainWindow, fake_kernel: FakeKernel) -> None:
    sid = await _fake_session(fake_window, fake_kernel)
    fake_kernel.ask(_request(sid, "r1"))
    await settle()
    card = fake_window.pane.attention.card
    assert card is not None
    assert card.buttons["deny"].text() == "Deny && stop"
    card.feedback.setText("keep pandas, it is used in reports")
    assert card.buttons["deny"].text() == "Deny && tell the agent"
    card.feedback.returnPressed.emit()
    await settle()
    assert fake_kernel.called("answer_approval") == [("r1", "deny", "keep pandas, it is used in reports")]


def test_diff_lines_are_coloured_by_kind(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = DiffView(DIFF)
    qtbot.addWidget(view)
    assert [line_kind(x) for x in ("+++ b/x", "--- a/x", "@@ -1 +1 @@", "+new", "-old", " same")] == \
        ["h", "h", "@", "+", "-", " "]
    colours = view.line_colors()
    assert view.kinds[4:6] == ["-", "+"]
    assert colours[4] == (QColor("#cf222e"), QColor("#ffebe9"))  # removed: red text on a full-width red tint
    assert colours[5] == (QColor("#1a7f37"), QColor("#e6ffec"))  # added: green
    assert colours[2][1] == QColor("#ddf4ff") and 3 not in colours  # hunk header tinted, context plain
    assert argument_lines({"path": "a.txt", "content": "one\ntwo\nthree"}) == "path: a.txt\ncontent: one  … (3 lines)"


# ---- the four answers against the real kernel ----------------------------------------------------

def _write(content: str, path: str = "notes.txt") -> Reply:
    return Reply(tool_calls=[ToolCallSpec("write_file", {"path": path, "content": content})])


async def _ask_mode_session(window: MainWindow, kernel: Kernel, tmp_path: Path) -> tuple[str, Path]:
    project = tmp_path / "proj"
    project.mkdir()
    sid = await open_session(window, kernel, title="Write", workdir=str(project), approval_mode="ask")
    return sid, project


async def _send_and_wait_card(window: MainWindow, text: str) -> ApprovalCard:
    window.pane.composer.input.setPlainText(text)
    window.pane.send()
    await wait_until(lambda: window.pane.attention.card is not None, timeout=10, what="approval card")
    card = window.pane.attention.card
    assert card is not None
    return card


async def test_allow_once_writes_the_file_and_asks_again_next_time(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    fake_provider.script(_write("hi"), Reply(text="Written."), _write("again"), Reply(text="Again."))
    sid, project = await _ask_mode_session(real_window, real_kernel, tmp_path)
    events = Events(real_kernel)
    card = await _send_and_wait_card(real_window, "write the notes")
    assert card.request.tool == "write_file" and card.diff is not None and "+" in card.diff.kinds
    assert not (project / "notes.txt").exists()
    card.buttons["once"].click()
    assert (await events.turns(1))[0].status == "completed"
    assert (project / "notes.txt").read_text() == "hi"
    await wait_until(lambda: real_window.pane.attention.card is None, what="card gone")
    card = await _send_and_wait_card(real_window, "once more")  # once means once
    card.buttons["once"].click()
    await events.turns(2)
    assert (project / "notes.txt").read_text() == "again"
    assert len(events.of(ApprovalRequested, sid)) == 2


async def test_allow_for_this_session_skips_the_second_identical_write(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    fake_provider.script(_write("one"), Reply(text="Done."), _write("two"), Reply(text="Done again."))
    sid, project = await _ask_mode_session(real_window, real_kernel, tmp_path)
    events = Events(real_kernel)
    card = await _send_and_wait_card(real_window, "write it")
    card.buttons["session"].click()
    await events.turns(1)
    assert (project / "notes.txt").read_text() == "one"
    real_window.pane.composer.input.setPlainText("write it again")
    real_window.pane.send()
    turns = await events.turns(2)
    assert [t.status for t in turns] == ["completed", "completed"]
    assert (project / "notes.txt").read_text() == "two"
    assert len(events.of(ApprovalRequested, sid)) == 1  # the second write asked nothing
    assert real_window.pane.attention.card is None


async def test_always_for_this_project_persists_a_rule(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    fake_provider.script(_write("one"), Reply(text="Done."), _write("two"), Reply(text="Done."))
    sid, project = await _ask_mode_session(real_window, real_kernel, tmp_path)
    events = Events(real_kernel)
    card = await _send_and_wait_card(real_window, "write it")
    assert card.buttons["always"].isEnabled()
    card.buttons["always"].click()
    await events.turns(1)
    session = await real_kernel.sessions.get_session(sid)
    assert session.project_id is not None
    assert await real_kernel.store.project_rules(session.project_id) == {"write:notes.txt"}
    other = await open_session(real_window, real_kernel, title="Same project", workdir=str(project),
                               approval_mode="ask")
    real_window.pane.composer.input.setPlainText("write it from another session")
    real_window.pane.send()
    await events.turns(1, other)
    assert (project / "notes.txt").read_text() == "two"
    assert events.of(ApprovalRequested, other) == []


async def test_deny_with_feedback_keeps_the_turn_going(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    fake_provider.script(_write("hi"), Reply(text="Understood, I will use notes.md instead."))
    _sid, project = await _ask_mode_session(real_window, real_kernel, tmp_path)
    events = Events(real_kernel)
    card = await _send_and_wait_card(real_window, "write the notes")
    card.feedback.setText("not there, use notes.md")
    card.buttons["deny"].click()
    turns = await events.turns(1)
    assert turns[0].status == "completed"
    assert not (project / "notes.txt").exists()
    assert "not there, use notes.md" in str(fake_provider.requests[1].body["messages"][-1]["content"])
    await settle()
    texts = [real_window.pane.timeline_model.row_at(i).plain_text()
             for i in range(real_window.pane.timeline_model.rowCount())]
    assert "Understood, I will use notes.md instead." in texts


async def test_deny_without_feedback_stops_the_turn(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    fake_provider.script(_write("hi"), Reply(text="never requested"))
    _sid, project = await _ask_mode_session(real_window, real_kernel, tmp_path)
    events = Events(real_kernel)
    card = await _send_and_wait_card(real_window, "write the notes")
    card.buttons["deny"].click()
    turns = await events.turns(1)
    assert turns[0].status == "stopped"
    assert len(fake_provider.requests) == 1 and not (project / "notes.txt").exists()
    await wait_until(lambda: real_window.pane.attention.card is None, what="card gone")


async def test_a_queued_message_never_approves(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    fake_provider.script(_write("hi"), Reply(text="Written."), Reply(text="You said yes."))
    sid, project = await _ask_mode_session(real_window, real_kernel, tmp_path)
    events = Events(real_kernel)
    card = await _send_and_wait_card(real_window, "write the notes")
    real_window.pane.composer.input.setPlainText("yes, allow it")
    real_window.pane.send()  # the session is busy: this waits in the queue
    await wait_until(lambda: [i.text for i in real_window.pane.queue.items()] == ["yes, allow it"], what="queued")
    await settle(10)
    assert real_window.pane.attention.card is card and not (project / "notes.txt").exists()
    assert [r.request_id for r in real_kernel.asks.pending_approvals(sid)] == [card.request.request_id]
    assert real_kernel.turns.phase(sid) == Phase.TURN
    card.buttons["once"].click()
    turns = await events.turns(2)
    assert [t.status for t in turns] == ["completed", "completed"]
    assert (project / "notes.txt").read_text() == "hi"


async def test_pending_request_comes_back_after_switching_sessions(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    fake_provider.script(_write("hi"), Reply(text="Written."))
    sid, project = await _ask_mode_session(real_window, real_kernel, tmp_path)
    events = Events(real_kernel)
    card = await _send_and_wait_card(real_window, "write the notes")
    request_id = card.request.request_id
    other = await open_session(real_window, real_kernel, title="Elsewhere")
    assert real_window.pane.session is not None and real_window.pane.session.id == other
    assert real_window.pane.attention.card is None and not real_window.pane.attention.isVisible()
    await show(real_window, sid)
    back = real_window.pane.attention.card
    assert back is not None and back.request.request_id == request_id and back.isVisible()
    back.buttons["once"].click()
    await events.turns(1)
    assert (project / "notes.txt").read_text() == "hi"


async def test_answer_to_a_request_the_engine_no_longer_has_drops_the_card(
        fake_window: MainWindow, fake_kernel: FakeKernel) -> None:
    sid = await _fake_session(fake_window, fake_kernel)
    fake_kernel.ask(_request(sid, "r1"))
    fake_kernel.ask(_request(sid, "r2"))
    await settle()
    fake_kernel.approvals.clear()  # the turn ended meanwhile (no ApprovalResolved reached us yet)
    panel = fake_window.pane.attention
    assert panel.card is not None
    panel.card.buttons["session"].click()
    await settle()
    assert fake_kernel.called("answer_approval") == [("r1", "session", "")]
    assert panel.card is not None and panel.card.request.request_id == "r2"
