"""Where every AskUser question stands, across sessions, from the window's point of view.

The engine owns a question; the window only knows what it was told. So the
state here moves forward only on the engine's word: submitting makes it
*sending* (never answered), ``QuestionAnswered`` or an ``accepted`` /
``already_answered`` reply makes it *answered*, ``QuestionClosed`` or an
``expired`` reply makes it *closed* (the VP must ask again). If no
confirmation comes within ``RESEND_AFTER_S``, the card offers to resend the
same answer under the same question id — the engine confirms a resend of an
answered question without answering twice. The book outlives session
switches, so a card shows the same state when the person comes back.
"""

from __future__ import annotations

import enum
import logging
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

from foya_desktop.core.events import QuestionAnswered, QuestionAsked, QuestionClosed
from foya_desktop.ui.aio import TaskRunner, describe_error
from foya_desktop.ui.kernel_api import KernelApi

log = logging.getLogger(__name__)

RESEND_AFTER_S = 15.0
"""Seconds without the engine's confirmation before "Resend answer" is offered (tests shorten it)."""


def close_reason(reason: str) -> str:
    """Why a question closed unanswered, in the window's language (the engine's word if unknown)."""
    translate = QCoreApplication.translate
    return {
        "expired": translate("Questions", "The question expired before an answer was accepted."),
        "cancelled": translate("Questions", "The turn was stopped before an answer was accepted."),
        "lost": translate(
            "Questions", "The app restarted while the question was open, so the waiting request is gone."
        ),
    }.get(reason, reason)


class Stage(enum.StrEnum):
    """Where a question stands for the window."""

    OPEN = "open"
    """Waiting for the person."""
    SENDING = "sending"
    """Submitted; waiting for the engine to confirm (not answered yet)."""
    SLOW = "slow"
    """Submitted, but no confirmation after ``RESEND_AFTER_S``: resend is offered."""
    FAILED = "failed"
    """The engine could not take the answer just now: resend is offered."""
    ANSWERED = "answered"
    """The engine accepted and stored the answer."""
    CLOSED = "closed"
    """Expired, cancelled or lost: nothing can answer it; the VP must ask again."""


@dataclass(slots=True)
class QuestionState:
    """One question as the window knows it."""

    asked: QuestionAsked
    stage: Stage = Stage.OPEN
    answer: str = ""
    """The submitted answer, replaced by the engine's confirmed one."""
    detail: str = ""
    """Why it closed, or why delivery failed."""
    attempts: int = 0
    """How often the answer was sent (resends keep the question id)."""

    @property
    def final(self) -> bool:
        """Answered or closed: nothing more can happen."""
        return self.stage in (Stage.ANSWERED, Stage.CLOSED)


class QuestionBook(QObject):
    """Every question seen since start, by question id and by tool call id.

    Signals:
        changed(str): the state of this question id changed.
    """

    changed = Signal(str)

    def __init__(self, kernel: KernelApi, runner: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._kernel, self._runner = kernel, runner
        self._states: dict[str, QuestionState] = {}
        self._by_call: dict[str, str] = {}
        self._timers: dict[str, QTimer] = {}

    def state(self, question_id: str) -> QuestionState | None:
        """The state of one question, if it was ever seen."""
        return self._states.get(question_id)

    def for_call(self, call_id: str) -> QuestionState | None:
        """The question an ``ask_user`` tool call opened, if it was seen."""
        qid = self._by_call.get(call_id)
        return self._states.get(qid) if qid else None

    def of_session(self, session_id: str) -> list[QuestionState]:
        """Questions of one session, in the order they were asked."""
        return [s for s in self._states.values() if s.asked.session_id == session_id]

    def seed(self, pending: list[QuestionAsked]) -> None:
        """Questions the engine still waits on (coming back to a session)."""
        for asked in pending:
            self._learn(asked)

    def on_asked(self, event: QuestionAsked) -> None:
        """A question was asked (in any session)."""
        self._learn(event)

    def on_answered(self, event: QuestionAnswered) -> None:
        """The engine accepted and stored an answer."""
        self._confirm(event.question_id, event.answer)

    def on_closed(self, event: QuestionClosed) -> None:
        """The question can no longer be answered."""
        self._close(event.question_id, close_reason(event.reason))

    def submit(self, question_id: str, answer: str) -> None:
        """Send the person's answer; the state says *sending* until the engine confirms."""
        state = self._states.get(question_id)
        if state is None or state.final or not answer.strip():
            return
        state.stage, state.answer, state.detail = Stage.SENDING, answer.strip(), ""
        state.attempts += 1
        self._arm(question_id)
        self.changed.emit(question_id)
        self._runner.spawn(self._send(question_id, state.answer), self.tr("Answering the question"))

    def resend(self, question_id: str) -> None:
        """Send the same answer again under the same question id."""
        state = self._states.get(question_id)
        if state is not None and state.stage in (Stage.SLOW, Stage.FAILED):
            self.submit(question_id, state.answer)

    async def _send(self, question_id: str, answer: str) -> None:
        try:
            status = await self._kernel.asks.answer_question(question_id, answer)
        except Exception as exc:  # the agent is unavailable: say so, offer a retry
            log.warning("answering %s failed", question_id, exc_info=exc)
            self._fail(question_id, describe_error(exc))
            return
        if status in ("accepted", "already_answered"):
            self._confirm(question_id, None)
        elif status == "expired":
            self._close(question_id, self.tr("This question is no longer open."))

    def _learn(self, asked: QuestionAsked) -> None:
        if asked.question_id not in self._states:
            self._states[asked.question_id] = QuestionState(asked)
            self._by_call[asked.call_id] = asked.question_id
            self.changed.emit(asked.question_id)

    def _confirm(self, question_id: str, answer: str | None) -> None:
        state = self._states.get(question_id)
        if state is None or state.stage == Stage.CLOSED:
            return
        changed = state.stage != Stage.ANSWERED or (answer is not None and answer != state.answer)
        state.stage = Stage.ANSWERED
        state.answer = answer if answer is not None else state.answer
        self._disarm(question_id)
        if changed:
            self.changed.emit(question_id)

    def _close(self, question_id: str, why: str) -> None:
        state = self._states.get(question_id)
        if state is None or state.final:
            return
        state.stage, state.detail = Stage.CLOSED, why
        self._disarm(question_id)
        self.changed.emit(question_id)

    def _fail(self, question_id: str, why: str) -> None:
        state = self._states.get(question_id)
        if state is not None and state.stage in (Stage.SENDING, Stage.SLOW):
            state.stage, state.detail = Stage.FAILED, why
            self._disarm(question_id)
            self.changed.emit(question_id)

    def _arm(self, question_id: str) -> None:
        timer = self._timers.get(question_id)
        if timer is None:
            timer = self._timers[question_id] = QTimer(self, singleShot=True)
            timer.timeout.connect(lambda: self._too_slow(question_id))
        timer.start(round(RESEND_AFTER_S * 1000))

    def _disarm(self, question_id: str) -> None:
        timer = self._timers.pop(question_id, None)
        if timer is not None:
            timer.stop()
            timer.deleteLater()

    def _too_slow(self, question_id: str) -> None:
        state = self._states.get(question_id)
        if state is not None and state.stage == Stage.SENDING:
            state.stage = Stage.SLOW
            self.changed.emit(question_id)
