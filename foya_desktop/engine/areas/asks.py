"""The person in the loop: answer approvals and AskUser questions, list the open ones."""

from __future__ import annotations

from typing import TYPE_CHECKING

from foya_desktop.core.events import ApprovalRequested, QuestionAsked
from foya_desktop.engine.asks.approvals import Answer, AnswerKind
from foya_desktop.engine.asks.questions import AnswerStatus

if TYPE_CHECKING:
    from foya_desktop.engine.services import Services


class Asks:
    """Approvals and questions waiting for the person."""

    def __init__(self, svc: Services) -> None:
        self._svc = svc

    def set_interactive(self, interactive: bool) -> None:
        """Whether a window is attached that can answer approvals and questions.

        Without one (``foya run``), "ask" is answered "deny" and questions are
        reported as unanswerable — never answered on the person's behalf.
        """
        self._svc.approvals.interactive = interactive
        self._svc.questions.interactive = interactive

    def answer_approval(self, request_id: str, kind: AnswerKind, feedback: str = "") -> bool:
        """Answer a pending approval: once, session, always or deny."""
        return self._svc.approvals.answer(request_id, Answer(kind, feedback))

    def pending_approvals(self, session_id: str) -> list[ApprovalRequested]:
        """Approval requests of a session still waiting (oldest first)."""
        return self._svc.approvals.pending_requests(session_id)

    async def answer_question(self, question_id: str, answer: str) -> AnswerStatus:
        """Submit (or resend) an AskUser answer; ``accepted`` only once it is persisted."""
        return await self._svc.questions.answer(question_id, answer)

    def pending_questions(self, session_id: str) -> list[QuestionAsked]:
        """Open AskUser questions of a session (to show their cards again)."""
        return self._svc.questions.pending(session_id)
