"""AskUser: questions the engine awaits and the person answers exactly once.

An answer is *accepted* only after it was written to the session's event log;
then the waiting tool call resumes and ``QuestionAnswered`` is published.
Resending the same answer for the same question id is harmless (it confirms
again); a question that expired, was cancelled or was lost in a restart can
never be answered — the VP must ask again. Nothing is ever invented as an answer.
"""

from __future__ import annotations

import asyncio
import enum
from dataclasses import dataclass, field

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.events import QuestionAnswered, QuestionAsked, QuestionClosed, QuestionCloseReason
from foya_desktop.core.ids import new_id
from foya_desktop.engine.bus import EventBus
from foya_desktop.store.events_log import append_event
from foya_desktop.store.store import Store

DEFAULT_TTL_S = 3600.0


class AnswerStatus(enum.StrEnum):
    """What happened to a submitted answer."""

    ACCEPTED = "accepted"
    ALREADY_ANSWERED = "already_answered"
    EXPIRED = "expired"
    """Expired, cancelled or lost: the VP must ask again."""


class QuestionUnanswered(FoyaError):
    """The question closed without an answer (``reason`` says why); part of the engine's error tree."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class _Open:
    event: QuestionAsked
    future: asyncio.Future[str]


@dataclass
class QuestionBroker:
    """Open questions by id; answered ones are remembered for idempotent resends."""

    bus: EventBus
    store: Store
    interactive: bool = False
    ttl_s: float = DEFAULT_TTL_S
    _open: dict[str, _Open] = field(default_factory=dict)
    _answered: dict[str, QuestionAnswered] = field(default_factory=dict)

    async def ask(self, asked: QuestionAsked) -> str:
        """Publish the question and wait for an accepted answer."""
        if not self.interactive:
            raise QuestionUnanswered("nobody can answer questions in this run (no window)")
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._open[asked.question_id] = _Open(asked, future)
        self.bus.publish(asked)
        reason: QuestionCloseReason | None = "cancelled"
        try:
            async with asyncio.timeout(self.ttl_s):
                answer = await future
            reason = None
            return answer
        except TimeoutError:
            reason = "expired"
            raise QuestionUnanswered("the question expired without an answer") from None
        finally:
            self._open.pop(asked.question_id, None)
            if reason is not None:
                self.bus.publish(QuestionClosed(asked.session_id, asked.question_id, reason))

    async def answer(self, question_id: str, text: str) -> AnswerStatus:
        """Persist and deliver an answer; resends of an answered question only re-confirm."""
        if question_id in self._answered:
            self.bus.publish(self._answered[question_id])
            return AnswerStatus.ALREADY_ANSWERED
        entry = self._open.get(question_id)
        if entry is None or entry.future.done():
            return AnswerStatus.EXPIRED
        sid = entry.event.session_id
        await self.store.write(append_event, sid, "question_answered",
                               {"question_id": question_id, "call_id": entry.event.call_id, "answer": text})
        if entry.future.done():  # cancelled while we were writing
            return AnswerStatus.EXPIRED
        entry.future.set_result(text)
        confirmed = QuestionAnswered(sid, question_id, text)
        self._answered[question_id] = confirmed
        self.bus.publish(confirmed)
        return AnswerStatus.ACCEPTED

    def pending(self, session_id: str) -> list[QuestionAsked]:
        """Questions of a session still waiting for an answer (for re-showing cards)."""
        return [o.event for o in self._open.values() if o.event.session_id == session_id]

    def cancel_session(self, session_id: str) -> None:
        """Close every open question of a session (deletion)."""
        for qid, entry in list(self._open.items()):
            if entry.event.session_id == session_id and not entry.future.done():
                entry.future.cancel()
                self._open.pop(qid, None)
                self.bus.publish(QuestionClosed(session_id, qid, "cancelled"))


def new_question(session_id: str, speaker: str, call_id: str, question: str,
                 choices: tuple[str, ...], turn_id: str = "") -> QuestionAsked:
    """A question event with a fresh id."""
    return QuestionAsked(session_id, new_id("q"), speaker, call_id, question, choices, True, turn_id)
