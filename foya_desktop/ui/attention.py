"""Cards for what a turn is waiting on: tool approvals and AskUser questions.

A turn blocks on these until the person answers, so they sit right above the
composer, never hidden in a dialog that could be closed by accident. An
approval is answered exactly as far as the person said (once, for this
session, always, or deny with a reason). A question's card says "waiting for
confirmation" until the engine has stored the answer — no answer is never an
answer, and no card claims success early.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.core.events import (
    ApprovalRequested,
    ApprovalResolved,
    Event,
    QuestionAnswered,
    QuestionAsked,
    QuestionClosed,
)
from foya_desktop.ui import theme
from foya_desktop.ui.kernel_api import ApprovalAnswer
from foya_desktop.ui.speakers import SpeakerDirectory

APPROVAL_ANSWERS: dict[str, ApprovalAnswer] = {"once": "once", "session": "session", "always": "always",
                                               "deny": "deny"}

_CARD_STYLE = ("QFrame#attentionCard { border: 1px solid %s; border-radius: 8px;"
               " background: palette(base); }")


def _card(color: str) -> tuple[QFrame, QVBoxLayout]:
    frame = QFrame()
    frame.setObjectName("attentionCard")
    frame.setStyleSheet(_CARD_STYLE % color)
    layout = QVBoxLayout(frame)
    layout.setContentsMargins(12, 8, 12, 8)
    layout.setSpacing(4)
    return frame, layout


def _title(text: str, color: str) -> QLabel:
    label = QLabel(text)
    label.setStyleSheet(f"color: {color}; font-weight: bold;")
    label.setWordWrap(True)
    return label


def _const(text: str) -> Callable[[], str]:
    return lambda: text


def _mono(text: str, max_lines: int) -> QPlainTextEdit:
    view = QPlainTextEdit(text)
    view.setReadOnly(True)
    view.setFont(theme.mono_font())
    lines = min(max_lines, max(1, text.count("\n") + 1))
    view.setFixedHeight(lines * view.fontMetrics().lineSpacing() + 12)
    return view


class AttentionPanel(QWidget):
    """Pending approvals and questions of the session on screen.

    Signals:
        approval_answered(str, str, str): request id, answer kind (once | session | always | deny), feedback.
        question_answered(str, str): question id and the answer text.
    """

    approval_answered = Signal(str, str, str)
    question_answered = Signal(str, str)

    def __init__(self, speakers: SpeakerDirectory, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._speakers = speakers
        self._cards: dict[str, QFrame] = {}
        self._status: dict[str, QLabel] = {}
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(12, 4, 12, 0)
        self._layout.setSpacing(6)
        self.setVisible(False)

    def show_pending(self, approvals: list[ApprovalRequested], questions: list[QuestionAsked]) -> None:
        """Replace every card with the session's current pending items."""
        for key in list(self._cards):
            self.remove(key)
        for request in approvals:
            self.add_approval(request)
        for question in questions:
            self.add_question(question)

    def apply(self, event: Event) -> None:
        """Add or drop a card for an approval/question event of this session."""
        if isinstance(event, ApprovalRequested):
            self.add_approval(event)
        elif isinstance(event, QuestionAsked):
            self.add_question(event)
        elif isinstance(event, ApprovalResolved):
            self.remove(event.request_id)
        elif isinstance(event, (QuestionAnswered, QuestionClosed)):
            self.remove(event.question_id)

    def pending_ids(self) -> list[str]:
        """Ids of the cards on screen (request ids and question ids)."""
        return list(self._cards)

    def add_approval(self, request: ApprovalRequested) -> None:
        """A tool call waits for the person's decision."""
        warn = theme.warning_color().name()
        frame, layout = _card(warn)
        who = self._speakers.name(request.speaker)
        layout.addWidget(_title(f"⚠ {who} asks to use {request.tool}: {request.summary}", warn))
        if request.command:
            layout.addWidget(_mono(request.command, 4))
        elif request.paths:
            layout.addWidget(QLabel(", ".join(request.paths)))
        if request.diff:
            layout.addWidget(_mono(request.diff, 10))
        if request.reason:
            reason = QLabel(f"Why you are asked: {request.reason}")
            reason.setEnabled(False)
            reason.setWordWrap(True)
            layout.addWidget(reason)
        layout.addLayout(self._approval_buttons(request))
        self._add(request.request_id, frame)

    def _approval_buttons(self, request: ApprovalRequested) -> QHBoxLayout:
        row = QHBoxLayout()
        feedback = QLineEdit(placeholderText="Reason for denying (optional, the agent sees it)")
        choices = [("Allow once", "once"), ("Allow for this session", "session")]
        if request.can_always:
            choices.append(("Always allow in this project", "always"))
        for text, kind in choices:
            row.addWidget(self._button(text, self._answer(request.request_id, kind, None)))
        row.addStretch(1)
        row.addWidget(feedback, 2)
        row.addWidget(self._button("Deny", self._answer(request.request_id, "deny", feedback)))
        return row

    def _answer(self, request_id: str, kind: str, feedback: QLineEdit | None) -> Callable[[], None]:
        def answer() -> None:
            self.approval_answered.emit(request_id, kind, feedback.text().strip() if feedback else "")
        return answer

    def add_question(self, question: QuestionAsked) -> None:
        """A VP asks the person something."""
        accent = theme.speaker_color(question.speaker).name()
        frame, layout = _card(accent)
        layout.addWidget(_title(f"❓ {self._speakers.name(question.speaker)} asks", accent))
        text = QLabel(question.question)
        text.setWordWrap(True)
        text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(text)
        row = QHBoxLayout()
        for choice in question.choices:
            row.addWidget(self._button(choice, self._reply(question.question_id, _const(choice))))
        if question.allow_free_text:
            free = QLineEdit(placeholderText="Your answer")
            send = self._button("Answer", self._reply(question.question_id, free.text))
            free.returnPressed.connect(send.click)
            row.addWidget(free, 1)
            row.addWidget(send)
        else:
            row.addStretch(1)
        layout.addLayout(row)
        status = QLabel()
        status.setEnabled(False)
        layout.addWidget(status)
        self._status[question.question_id] = status
        self._add(question.question_id, frame)

    def _reply(self, question_id: str, text: Callable[[], str]) -> Callable[[], None]:
        def reply() -> None:
            answer = text().strip()
            if answer:
                self.set_question_status(question_id, "Sent — waiting for the agent to confirm…")
                self.question_answered.emit(question_id, answer)
        return reply

    def set_question_status(self, question_id: str, text: str) -> None:
        """Say where an answer stands (sent, not accepted…)."""
        label = self._status.get(question_id)
        if label is not None:
            label.setText(text)

    def _button(self, text: str, slot: Callable[[], None]) -> QPushButton:
        button = QPushButton(text)
        button.clicked.connect(slot)
        return button

    def _add(self, key: str, frame: QFrame) -> None:
        self.remove(key)
        self._cards[key] = frame
        self._layout.addWidget(frame)
        self.setVisible(True)

    def remove(self, key: str) -> None:
        """The request was resolved or the question closed."""
        frame = self._cards.pop(key, None)
        self._status.pop(key, None)
        if frame is not None:
            self._layout.removeWidget(frame)
            frame.deleteLater()
        self.setVisible(bool(self._cards))
