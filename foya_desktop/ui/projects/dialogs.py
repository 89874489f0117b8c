"""Small edit dialogs for projects (rename, project instruction), awaited without nested loops."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.ui.aio import run_dialog


class TextDialog(QDialog):
    """One text to edit: a line (a name) or a multi-line box (an instruction).

    Signals:
        (QDialog's own: accepted, rejected, finished)
    """

    def __init__(self, title: str, explanation: str, text: str, *, multiline: bool = False,
                 confirm_text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        confirm_text = confirm_text or self.tr("Save")
        self.setWindowTitle(title)
        self.setMinimumWidth(480)
        label = QLabel(explanation)
        label.setWordWrap(True)
        editor: QWidget
        self.line: QLineEdit | None = None
        self.box: QPlainTextEdit | None = None
        if multiline:
            editor = self.box = QPlainTextEdit(text)
            self.box.setMinimumHeight(160)
        else:
            editor = self.line = QLineEdit(text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setText(confirm_text)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(editor)
        layout.addWidget(buttons)

    def text(self) -> str:
        """The edited text."""
        return self.line.text() if self.line is not None else self.box.toPlainText() if self.box else ""


async def edit_text(parent: QWidget, title: str, explanation: str, text: str, *,
                    multiline: bool = False) -> str | None:
    """Show a ``TextDialog``; the new text, or None when cancelled."""
    dialog = TextDialog(title, explanation, text, multiline=multiline, parent=parent)
    try:
        return dialog.text() if await run_dialog(dialog) == QDialog.DialogCode.Accepted else None
    finally:
        dialog.deleteLater()
