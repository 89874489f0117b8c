"""The AskUser card widget: the question, its choices, a text field, and where the answer stands.

A card is a view of a ``CardView`` (see question_view.py); it never decides
on its own that a question was answered. It keeps one set of child widgets
and only shows or hides them, so typed text survives a state refresh.

NOTE: every child's visibility is set explicitly: the card is measured with
``heightForWidth`` before it is first shown, and a never-shown child counts
as hidden (zero height) in that measurement.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLineEdit, QPushButton, QWidget

from foya_desktop.ui import theme
from foya_desktop.ui.cards.common import FlowLayout, button, card_frame, label, recolor
from foya_desktop.ui.cards.question_view import CardView, Mode


class QuestionCard(QFrame):
    """One AskUser question, in the timeline where the VP asked it (or above the composer).

    Signals:
        submitted(str, str): question id and the chosen or typed answer.
        resend_requested(str): question id whose unconfirmed answer should be sent again.
    """

    submitted = Signal(str, str)
    resend_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view: CardView | None = None
        self._layout = card_frame(self, theme.dim_color())
        self.title = label(bold=True)
        self.question = label(select=True)
        self._choice_box = QWidget()
        self._choices = FlowLayout(self._choice_box)
        self.choice_buttons: list[QPushButton] = []
        self.free = QLineEdit(placeholderText=self.tr("Type your answer"))
        self.send = button(self.tr("Send answer"), self._send_typed)
        self.free.returnPressed.connect(self._send_typed)
        self._free_row = QWidget()
        row = QHBoxLayout(self._free_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.free, 1)
        row.addWidget(self.send)
        self.status = label(select=True)
        self.detail = label(color=theme.dim_color(), select=True)
        self.resend = button(self.tr("Resend answer"), self._resend, self.tr(
            "Sends the same answer for the same question again; it can never be answered twice."))
        for widget in (self.title, self.question, self._choice_box, self._free_row, self.status, self.detail):
            self._layout.addWidget(widget)
        self._layout.addWidget(self.resend, 0, Qt.AlignmentFlag.AlignLeft)
        self.title.setVisible(True)
        self.question.setVisible(True)

    def set_view(self, view: CardView) -> bool:
        """Show ``view``; returns whether anything changed (the row may need a new height)."""
        if view == self.view:
            return False
        old, self.view = self.view, view
        self.title.setText(f"{theme.tool_icon('ask_user')}  " + self.tr("{who} asks").format(who=view.who))
        self.question.setText(view.question)
        if old is None or old.choices != view.choices:
            self._set_choices(view.choices)
        inputs = view.mode == Mode.INPUT
        self._choice_box.setVisible(inputs and bool(view.choices))
        self._free_row.setVisible(inputs and view.free_text)
        self.status.setText(view.status)
        self.status.setVisible(bool(view.status))
        self.status.setStyleSheet(f"color: {self._status_color(view.mode).name()};")
        self.detail.setText(view.detail)
        self.detail.setVisible(bool(view.detail))
        self.resend.setVisible(view.mode == Mode.RESEND)
        recolor(self, self._accent(view.mode))
        return True

    def height_for(self, width: int) -> int:
        """The height this card needs at ``width`` (it may not have been shown yet)."""
        self.ensurePolished()
        return max(self._layout.totalHeightForWidth(width), self._layout.totalMinimumSize().height())

    def _set_choices(self, choices: tuple[str, ...]) -> None:
        for old in self.choice_buttons:
            self._choices.removeWidget(old)
            old.deleteLater()
        self.choice_buttons = [button(c, lambda c=c: self._choose(c)) for c in choices]  # type: ignore[misc]
        for choice in self.choice_buttons:
            self._choices.addWidget(choice)
            choice.setVisible(True)

    def _choose(self, text: str) -> None:
        if self.view is not None and self.view.mode == Mode.INPUT:
            self.submitted.emit(self.view.question_id, text)

    def _send_typed(self) -> None:
        text = self.free.text().strip()
        if text and self.view is not None and self.view.mode == Mode.INPUT:
            self.submitted.emit(self.view.question_id, text)

    def _resend(self) -> None:
        if self.view is not None and self.view.mode == Mode.RESEND:
            self.resend_requested.emit(self.view.question_id)

    @staticmethod
    def _accent(mode: Mode) -> QColor:
        if mode == Mode.ANSWERED:
            return theme.success_color()
        if mode in (Mode.CLOSED, Mode.RESEND):
            return theme.warning_color()
        return theme.speaker_color("omni")

    @staticmethod
    def _status_color(mode: Mode) -> QColor:
        if mode == Mode.ANSWERED:
            return theme.success_color()
        if mode in (Mode.CLOSED, Mode.RESEND):
            return theme.warning_color()
        return theme.dim_color()
