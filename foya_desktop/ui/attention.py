"""Above the composer: what the session on screen is waiting on from the person.

A turn blocks on an approval until the person answers, so the request sits
right above the composer, never in a dialog that could be closed by
accident. Several requests (parallel VPs) queue: one card at a time, with a
count of the rest, oldest first, so each decision is made on its own. The
queue is rebuilt from ``pending_approvals`` whenever the session is shown,
so switching away and back loses nothing. A card disappears only when the
engine says the request was resolved.

AskUser questions live in the timeline (ui/cards/timeline_cards.py); only a
question whose call is not in the timeline window is shown here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from foya_desktop.core.events import ApprovalRequested, ApprovalResolved
from foya_desktop.engine.asks.approvals import AnswerKind
from foya_desktop.ui.cards.approval_card import ApprovalCard
from foya_desktop.ui.speakers import SpeakerDirectory

APPROVAL_ANSWERS: dict[str, AnswerKind] = {"once": "once", "session": "session", "always": "always",
                                               "deny": "deny"}


AnswerApproval = Callable[[str, AnswerKind, str], bool]
"""``kernel.asks.answer_approval``: request id, answer, feedback → whether the request still existed."""


class AttentionPanel(QWidget):
    """The head of the session's approval queue, plus questions without a timeline card.

    Signals:
        approval_answered(str, str, str): request id, answer (once | session | always | deny), feedback;
            emitted after the answer was handed to the engine.
        show_call(str): the card's "Show the call" was clicked (tool call id).
    """

    approval_answered = Signal(str, str, str)
    show_call = Signal(str)

    def __init__(self, speakers: SpeakerDirectory, answer: AnswerApproval | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._speakers = speakers
        self._answer = answer
        self._session_id: str | None = None
        self._has_project = False
        self._queue: list[ApprovalRequested] = []
        self.card: ApprovalCard | None = None
        """The approval card on screen (the oldest pending request)."""
        self._questions: list[QWidget] = []
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(12, 6, 12, 2)
        self._layout.setSpacing(6)
        self.setVisible(False)

    def show_session(self, session_id: str | None, *, has_project: bool,
                     approvals: Sequence[ApprovalRequested] = ()) -> None:
        """Another session is on screen: its pending requests, oldest first."""
        self._session_id, self._has_project = session_id, has_project
        self._queue = [r for r in approvals if r.session_id == session_id]
        self._show_head()

    def on_approval_requested(self, event: ApprovalRequested) -> None:
        """A request was made (shown when it belongs to the session on screen)."""
        if event.session_id == self._session_id and event.request_id not in self.pending_ids():
            self._queue.append(event)
            self._show_head()

    def on_approval_resolved(self, event: ApprovalResolved) -> None:
        """A request was answered or dropped."""
        if event.session_id == self._session_id:
            self._queue = [r for r in self._queue if r.request_id != event.request_id]
            self._show_head()

    def pending_ids(self) -> list[str]:
        """Request ids waiting in this session, the one on screen first."""
        return [r.request_id for r in self._queue]

    def refused(self, request_id: str) -> None:
        """The engine no longer had the request: drop it."""
        if self.card is not None and self.card.request.request_id == request_id:
            self._queue = [r for r in self._queue if r.request_id != request_id]
            self._show_head()

    def set_questions(self, cards: list[QWidget]) -> None:
        """Question cards that have no place in the timeline window."""
        for old in self._questions:
            if old not in cards:
                self._layout.removeWidget(old)
        self._questions = list(cards)
        for card in cards:
            self._layout.addWidget(card)
            card.show()
        self._update_visible()

    def _show_head(self) -> None:
        head = self._queue[0] if self._queue else None
        if self.card is not None and head is not None and self.card.request.request_id == head.request_id:
            self.card.set_waiting(len(self._queue) - 1)
            return
        if self.card is not None:
            self._layout.removeWidget(self.card)
            self.card.deleteLater()
            self.card = None
        if head is not None:
            self.card = ApprovalCard(head, self._speakers.name(head.speaker), waiting=len(self._queue) - 1,
                                     has_project=self._has_project)
            self.card.answered.connect(self._answered)
            self.card.show_call.connect(self.show_call)
            self._layout.insertWidget(0, self.card)
        self._update_visible()

    def _answered(self, request_id: str, kind: str, feedback: str) -> None:
        answer = APPROVAL_ANSWERS.get(kind)
        if answer is None:
            return
        if self._answer is not None and not self._answer(request_id, answer, feedback):
            self.refused(request_id)  # the turn ended meanwhile: nothing to answer
        self.approval_answered.emit(request_id, kind, feedback)

    def _update_visible(self) -> None:
        self.setVisible(self.card is not None or bool(self._questions))
