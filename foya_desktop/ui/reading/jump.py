"""Bringing one stored message on screen, wherever it is in a long session.

The timeline holds a window of at most ~1,000 rows. A message inside the
window is scrolled to and selected; one outside is reached by reloading the
window so it ends a little after the message (the window is then
"detached": the jump-to-latest button brings the newest messages back).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtWidgets import QAbstractItemView

from foya_desktop.core.messages import Message
from foya_desktop.core.model import Session
from foya_desktop.ui.timeline.model import TimelineModel
from foya_desktop.ui.timeline.rows import MessageRow
from foya_desktop.ui.timeline.view import TimelineView

if TYPE_CHECKING:
    from foya_desktop.ui.kernel_api import KernelApi


class SessionPane(Protocol):
    """What a jump needs of the session pane (``ui/session_pane.py``), which itself uses
    :func:`reveal_call`: a Protocol instead of an import keeps the two out of a circle."""

    @property
    def session(self) -> Session | None: ...

    @property
    def timeline_model(self) -> TimelineModel: ...

    @property
    def timeline_view(self) -> TimelineView: ...

AFTER = 20
"""Messages loaded after the target, so it does not sit at the very bottom."""


def row_of_message(pane: SessionPane, message_id: str) -> int | None:
    """The timeline row showing ``message_id`` (a tool result shows in its call's row)."""
    model = pane.timeline_model
    for i in range(model.rowCount()):
        row = model.row_at(i)
        if isinstance(row, MessageRow) and (row.message.id == message_id
                                            or any(m.id == message_id for m in row.results.values())):
            return i
    return None


async def reveal(pane: SessionPane, kernel: KernelApi, message_id: str) -> bool:
    """Scroll to and select ``message_id`` in the session on screen; False if it is gone."""
    session = pane.session
    if session is None:
        return False
    row = row_of_message(pane, message_id)
    if row is None:
        seq = await kernel.search.message_seq(message_id)
        sid = session.id

        async def loader(before: int | None, limit: int) -> list[Message]:
            return await kernel.history.history_page(sid, before_seq=before, limit=limit)

        await pane.timeline_model.load(sid, loader, before_seq=seq + AFTER + 1)
        row = row_of_message(pane, message_id)
    if row is None:
        return False
    index = pane.timeline_model.index(row, 0)
    view = pane.timeline_view
    view.setCurrentIndex(index)
    view.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
    view.viewport().update()
    return True


def reveal_call(pane: SessionPane, call_id: str) -> bool:
    """Scroll to the row holding tool call ``call_id`` (where its approval or question card is)."""
    model = pane.timeline_model
    for i in range(model.rowCount()):
        row = model.row_at(i)
        if isinstance(row, MessageRow) and any(c.call_id == call_id for c in row.message.tool_calls):
            index = model.index(i, 0)
            pane.timeline_view.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
            pane.timeline_view.viewport().update()
            return True
    return False
