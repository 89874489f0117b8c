"""What an AskUser card says, as a pure function of what the window knows.

Inputs: the book's state for the question (if the window saw it), the tool
call in the timeline (question text and choices survive in its arguments),
its stored result (the engine's durable word), and whether the call could
still be waiting for its question. Precedence: a stored result is final; then
the live state; a call with neither, outside a running turn, belongs to
history whose waiting request is gone (the app restarted) — the VP must ask
again. Nothing here ever says "answered" without the engine's confirmation.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from foya_desktop.core.messages import ToolCallPart, ToolResultPart
from foya_desktop.ui.cards.questions import QuestionState, Stage
from foya_desktop.ui.timeline.summaries import first_line

ANSWER_PREFIX = "The person answered: "
"""How the engine's tool result starts (parsed, never shown: not translated)."""


def _ask_again(who: str) -> str:
    return QCoreApplication.translate(
        "QuestionView", "Ask {who} to ask again if it still needs the answer."
    ).format(who=who)


def _the_vp() -> str:
    return QCoreApplication.translate("QuestionView", "the VP")

Asked = tuple[str, tuple[str, ...], bool, str]
"""Question text, choices, free text allowed, question id."""


class Mode(enum.StrEnum):
    """Which controls a card shows."""

    INPUT = "input"
    """Choices and a text field: the question is open."""
    WAITING = "waiting"
    """Sent, waiting for the engine's confirmation."""
    RESEND = "resend"
    """No confirmation (or delivery failed): "Resend answer" is offered."""
    ANSWERED = "answered"
    """The engine confirmed: a short summary."""
    CLOSED = "closed"
    """Can no longer be answered; no submit."""
    PENDING = "pending"
    """The call runs but its question has not reached the window yet."""


@dataclass(frozen=True, slots=True)
class CardView:
    """Everything a ``QuestionCard`` draws."""

    question_id: str
    question: str
    choices: tuple[str, ...]
    free_text: bool
    mode: Mode
    status: str = ""
    answer: str = ""
    who: str = ""
    """The asking VP's display name ("" until known: the card says "the VP")."""
    detail: str = ""
    """A dim second line (what the engine recorded when a question went unanswered)."""


def describe(state: QuestionState | None, call: ToolCallPart | None, result: ToolResultPart | None,
             *, running: bool, who: str = "") -> CardView:
    """The card for one question (see the module docstring for the precedence)."""
    translate = QCoreApplication.translate
    who = who or _the_vp()
    question, choices, free, qid = _question(state, call)
    base = CardView(qid, question, choices, free, Mode.CLOSED, who=who)
    if result is not None:
        if result.is_error:
            return _with(
                base,
                Mode.CLOSED,
                translate("QuestionView", "Not answered.") + " " + _ask_again(who),
                detail=first_line(result.content, 200),
            )
        confirmed = state.answer if state is not None and state.stage == Stage.ANSWERED else _answer(result)
        return _with(base, Mode.ANSWERED, "✓ " + translate("QuestionView", "You answered: {answer}").format(
            answer=confirmed), confirmed)
    if state is not None:
        return _from_state(base, state)
    if running:
        return _with(base, Mode.PENDING, translate("QuestionView", "Opening the question…"))
    return _with(base, Mode.CLOSED, translate(
        "QuestionView", "This question is no longer open (the turn ended or the app restarted).") + " "
        + _ask_again(who))


def _from_state(base: CardView, state: QuestionState) -> CardView:
    translate = QCoreApplication.translate
    quoted = first_line(state.answer, 80)
    if state.stage == Stage.OPEN:
        return _with(base, Mode.INPUT, "")
    if state.stage == Stage.SENDING:
        return _with(base, Mode.WAITING, translate(
            "QuestionView", "Sent “{answer}” — waiting for the agent to confirm…").format(answer=quoted),
            state.answer)
    if state.stage == Stage.SLOW:
        return _with(base, Mode.RESEND, translate(
            "QuestionView", "No confirmation for “{answer}” yet. Check the connection and resend — it is the "
            "same question, so it can never be answered twice.").format(answer=quoted), state.answer)
    if state.stage == Stage.FAILED:
        return _with(
            base,
            Mode.RESEND,
            translate(
                "QuestionView", "Could not deliver “{answer}”: {reason} Resend when the agent is available."
            ).format(answer=quoted, reason=state.detail),
            state.answer,
        )
    if state.stage == Stage.ANSWERED:
        return _with(base, Mode.ANSWERED, "✓ " + translate("QuestionView", "You answered: {answer}").format(
            answer=state.answer), state.answer)
    return _with(base, Mode.CLOSED, f"{state.detail} {_ask_again(base.who or _the_vp())}".strip())


def _question(state: QuestionState | None, call: ToolCallPart | None) -> Asked:
    if state is not None:
        a = state.asked
        return a.question, a.choices, a.allow_free_text, a.question_id
    args = call.arguments if call is not None else {}
    raw = args.get("choices")
    choices = tuple(c for c in raw if isinstance(c, str)) if isinstance(raw, list) else ()
    return (
        str(args.get("question") or QCoreApplication.translate("QuestionView", "(question not recorded)")),
        choices,
        True,
        "",
    )


def _answer(result: ToolResultPart) -> str:
    text = result.content
    return text[len(ANSWER_PREFIX):] if text.startswith(ANSWER_PREFIX) else first_line(text, 200)


def _with(base: CardView, mode: Mode, status: str, answer: str = "", *, detail: str = "") -> CardView:
    return CardView(base.question_id, base.question, base.choices, base.free_text, mode, status, answer,
                    base.who, detail)
