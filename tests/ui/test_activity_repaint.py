"""A phase change or a finished turn repaints only the timeline rows whose look follows what runs
now — tool calls without a result — never the whole viewport (issue 14, "first message sent into a
50,000-message session": four to five full repaints per turn, 3–5 ms of GUI time each, were part of
its longest frames). A turn's end repaints through the same function.

On the real kernel: the phase is set through the session's owner (the store write and the event the
engine publishes, delivered by the window's bridge).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QPaintEvent, QRegion

from foya_desktop.core.ids import now_ms
from foya_desktop.core.messages import Message, TextPart, ToolCallPart, ToolState
from foya_desktop.core.model import Phase
from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.history import append_messages
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.timeline.activity_rows import repaint_activity_rows
from tests.ui.helpers import open_session, settle


class PaintedRegion(QObject):
    """Everything painted in a widget since it was installed (the union of its paint regions)."""

    def __init__(self, widget: QObject) -> None:
        super().__init__()
        self.region = QRegion()
        self.paints = 0
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(event, QPaintEvent):
            self.region = self.region.united(event.region())
            self.paints += 1
        return False


def _history(sid: str, *, open_call: bool) -> list[Message]:
    out = [Message(f"u{i}", sid, "user", (TextPart(f"Question {i}"),)) for i in range(3)]
    if open_call:  # left open by a turn that is not running: it reads "interrupted" while idle
        call = ToolCallPart("call_open", "read_file", {"path": "notes.txt"}, ToolState.PENDING)
        out.append(Message("a_open", sid, "assistant", (call,), speaker="omni", turn_id="t_old",
                           created_at=now_ms()))
    out.append(Message("a_last", sid, "assistant", (TextPart("The last answer."),), speaker="omni"))
    return out


async def _shown(window: MainWindow, kernel: Kernel, *, open_call: bool) -> str:
    sid = await open_session(window, kernel, title="Phases")
    await kernel.store.write(append_messages, sid, _history(sid, open_call=open_call))
    await window.pane.show_session(await kernel.sessions.get_session(sid))
    await settle(10)
    return sid


async def test_a_phase_change_repaints_the_open_call_row_only(real_window: MainWindow,
                                                              real_kernel: Kernel) -> None:
    sid = await _shown(real_window, real_kernel, open_call=True)
    view, model = real_window.pane.timeline_view, real_window.pane.timeline_model
    row = model.row_of_call("call_open")
    assert row is not None
    open_rect, last_rect = view.row_rect(row), view.row_rect(model.rowCount() - 1)
    viewport = view.viewport().rect()
    assert open_rect.intersects(viewport) and last_rect.intersects(viewport), "both rows on screen"
    painted = PaintedRegion(view.viewport())
    owner = real_kernel.turn_manager.owner(sid)
    await owner.set_phase(Phase.COMPACTION)
    await settle(10)
    assert painted.region.contains(open_rect.adjusted(0, 0, 0, -1).center()), "the open call is redrawn"
    assert not painted.region.intersects(QRegion(last_rect)), "a plain reply is not"
    await owner.set_phase(Phase.IDLE)
    await settle(10)
    assert not painted.region.intersects(QRegion(last_rect))
    assert repaint_activity_rows(view) == 1


async def test_without_open_calls_a_phase_change_paints_nothing_in_the_timeline(
        real_window: MainWindow, real_kernel: Kernel) -> None:
    sid = await _shown(real_window, real_kernel, open_call=False)
    view = real_window.pane.timeline_view
    painted = PaintedRegion(view.viewport())
    owner = real_kernel.turn_manager.owner(sid)
    await owner.set_phase(Phase.COMPACTION)
    await owner.set_phase(Phase.IDLE)
    await settle(10)
    assert real_window.pane.status.phase_label.text() == "Idle", "the status line followed"
    assert painted.paints == 0, f"nothing in the timeline changed, yet {painted.region} was painted"

