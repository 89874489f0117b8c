"""Small confirmation and information dialogs, awaited without nested event loops.

``QMessageBox.question()`` and ``QDialog.exec()`` spin a nested loop that
breaks qasync (DESIGN §3), so these dialogs are opened with ``open()`` and
awaited through ``run_dialog``. They are real ``QDialog``s rather than
message boxes so a destructive choice can say exactly what goes (a list of
child sessions, files), and so tests can find and click their buttons.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.ui import theme
from foya_desktop.ui.aio import run_dialog

MARGINS = (20, 18, 20, 14)
MAX_LISTED = 12
"""Longer lists are cut with "… and N more" (the dialog must fit on screen)."""


def bullet_list(items: Sequence[str], limit: int = MAX_LISTED) -> str:
    """An HTML bullet list of escaped ``items``, cut after ``limit``."""
    shown = [f"<li>{html.escape(i)}</li>" for i in items[:limit]]
    if len(items) > limit:
        more = QCoreApplication.translate("ConfirmDialog", "… and %n more", "", len(items) - limit)
        shown.append(f"<li><i>{html.escape(more)}</i></li>")
    return f"<ul style='margin-top:2px; margin-bottom:2px'>{''.join(shown)}</ul>" if shown else ""


def heading_font_label(text: str) -> QLabel:
    """A bold, slightly larger label for a dialog's question."""
    label = QLabel(text)
    font = theme.body_font()
    font.setPointSizeF(font.pointSizeF() + 1.5)
    font.setBold(True)
    label.setFont(font)
    label.setWordWrap(True)
    return label


class ConfirmDialog(QDialog):
    """A question, an explanation (rich text), and Cancel / a named confirm button.

    Cancel is the default button: Enter never confirms something irreversible. With
    ``scroll_height`` the body scrolls past that height (long file lists); ``notice`` is a
    hidden line above the body for warnings that come later.

    Signals:
        (QDialog's own: accepted, rejected, finished)
    """

    def __init__(self, title: str, question: str, body_html: str, confirm_text: str, *,
                 destructive: bool = False, scroll_height: int = 0,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setModal(True)
        self.setMinimumWidth(460)
        self.question = heading_font_label(question)
        self.body = QLabel(body_html)
        self.body.setTextFormat(Qt.TextFormat.RichText)
        self.body.setWordWrap(True)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.notice = QLabel()
        self.notice.setWordWrap(True)
        self.notice.hide()
        self.buttons = buttons = QDialogButtonBox()
        self.cancel_button = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.confirm_button = QPushButton(confirm_text)
        buttons.addButton(self.confirm_button, QDialogButtonBox.ButtonRole.AcceptRole)
        if destructive:
            self.confirm_button.setStyleSheet(
                f"QPushButton {{ color: white; background: {theme.error_color().name()};"
                " border-radius: 4px; padding: 4px 14px; }")
        self.cancel_button.setDefault(True)
        self.confirm_button.setAutoDefault(False)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(*MARGINS)
        layout.setSpacing(10)
        layout.addWidget(self.question)
        layout.addWidget(self.notice)
        self.scroll_area = _scrolling(self.body, scroll_height) if scroll_height else None
        layout.addWidget(self.scroll_area or self.body)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(buttons)
        layout.addLayout(row)


    def fit_body(self) -> None:
        """Grow (or shrink) to the body's text, scrolling only past ``scroll_height``.

        NOTE: a scroll area's size hint ignores its content's height, so without this the
        dialog opens squeezed and does not grow when the text changes (a fresh preview).
        """
        if self.scroll_area is not None:
            width = max(self.width(), self.minimumWidth()) - MARGINS[0] - MARGINS[2] - 16
            wanted = self.body.heightForWidth(width) + 4
            self.scroll_area.setMinimumHeight(min(wanted, self.scroll_area.maximumHeight()))
        self.adjustSize()


def _scrolling(body: QLabel, height: int) -> QScrollArea:
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setMaximumHeight(height)
    area.setWidget(body)
    return area


class InfoDialog(QDialog):
    """A plain-words message with one OK button (why an operation was refused, a summary).

    Signals:
        (QDialog's own: accepted, rejected, finished)
    """

    def __init__(self, title: str, heading: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setModal(True)
        self.setMinimumWidth(420)
        self.setMaximumWidth(640)
        self.heading = heading_font_label(heading)
        self.text = QLabel(text)
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        buttons.accepted.connect(self.accept)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 18, 20, 14)
        layout.setSpacing(10)
        layout.addWidget(self.heading)
        layout.addWidget(self.text)
        layout.addWidget(buttons)


async def confirm(dialog: ConfirmDialog) -> bool:
    """Show ``dialog`` and wait; True when the person confirmed."""
    try:
        return await run_dialog(dialog) == QDialog.DialogCode.Accepted
    finally:
        dialog.deleteLater()


async def inform(parent: QWidget, title: str, heading: str, text: str) -> None:
    """Show a message and wait until it is dismissed."""
    dialog = InfoDialog(title, heading, text, parent)
    try:
        await run_dialog(dialog)
    finally:
        dialog.deleteLater()
