"""Runs the *Retry* and *Continue* buttons under replies (``ui.timeline.reply_actions`` paints them;
``kernel.turns.act_on_reply`` does the work: docs/index.md "Honest history")."""

from __future__ import annotations

from PySide6.QtCore import QObject

from foya_desktop.ui.window_parts import WindowParts


class ReplyActions(QObject):
    """Runs the reply buttons' clicks on the kernel for the session on screen.

    Signals:
        (none)
    """

    def __init__(self, window: WindowParts) -> None:
        super().__init__(window.pane)
        self._w = window
        window.pane.timeline_view.timeline_delegate.reply_action_clicked.connect(self.act)

    def act(self, message_id: str) -> None:
        """Retry or continue the reply ``message_id`` (a new turn, or queued behind the running one)."""
        session = self._w.pane.session
        if session is not None:
            self._w.runner.spawn(self._act(session.id, message_id), self.tr("Sending again"))

    async def _act(self, session_id: str, message_id: str) -> None:
        await self._w.kernel.turns.act_on_reply(session_id, message_id)
        self._w.pane.timeline_view.jump_to_latest()
