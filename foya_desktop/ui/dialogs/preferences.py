"""The Preferences dialog (Ctrl+, · File → Preferences…).

It edits a copy of the person's :class:`Preferences` and hands the result
back; the window saves and applies it (theme at once, the send key at once,
notifications read by the tray when it next notifies, defaults used by the
next new session). Language needs a restart until the translation layer can
switch live, and the dialog says so.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.core.model import ApprovalMode, Connection
from foya_desktop.store.preferences import Preferences
from foya_desktop.ui import i18n, theme
from foya_desktop.ui.composer.status_line import approval_labels
from foya_desktop.ui.fit import ElidedLabel, fit_placeholder


class PreferencesDialog(QDialog):
    """Language, theme, notifications, new-session defaults, send key, data folder.

    After ``accept()``, :meth:`values` is the edited preferences.
    """

    def __init__(self, prefs: Preferences, connections: list[Connection], data_folder: Path | None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Preferences"))
        self._prefs = prefs
        self._folder = data_folder
        self.language = _combo(list(i18n.choices()), prefs.language)  # language names in their own language
        self.language_note = QLabel(i18n.restart_note())
        self.language_note.setEnabled(False)
        self.language_note.setFont(theme.scaled_font("caption"))
        self.theme = _combo([("system", self.tr("Same as the system")), ("light", self.tr("Light")),
                             ("dark", self.tr("Dark"))], prefs.theme)
        self.notify_finished = QCheckBox(self.tr("A reply finished"))
        self.notify_failed = QCheckBox(self.tr("A reply failed"))
        self.notify_needs_you = QCheckBox(self.tr("An approval or a question waits for you"))
        for box, on in ((self.notify_finished, prefs.notify_turn_finished),
                        (self.notify_failed, prefs.notify_turn_failed),
                        (self.notify_needs_you, prefs.notify_needs_you)):
            box.setChecked(on)
        self.connection = _combo([("", self.tr("The first one configured"))]
                                 + [(c.name, c.name) for c in connections], prefs.default_connection,
                                 keep_unknown=True)
        self.model = QLineEdit(prefs.default_model)
        self.model.setPlaceholderText(self.tr("The service's own default model"))
        fit_placeholder(self.model)
        self.approval = _combo([("", self.tr("Ask before acting (default)"))]
                               + [(str(m), label) for m, label in approval_labels().items()
                                  if m != ApprovalMode.ASK], prefs.default_approval)
        self.send_enter = QRadioButton(self.tr("Enter sends, Shift+Enter adds a line"))
        self.send_ctrl_enter = QRadioButton(self.tr("Ctrl+Enter sends, Enter adds a line"))
        (self.send_ctrl_enter if prefs.send_key == "ctrl_enter" else self.send_enter).setChecked(True)
        # read-only, one line: a long path is shortened in the middle, the whole of it on hover and Copy
        self.folder = ElidedLabel(str(data_folder) if data_folder else self.tr("(not stored: a test window)"))
        self.open_folder = QPushButton(self.tr("Open folder"))
        self.open_folder.setEnabled(data_folder is not None)
        self.open_folder.clicked.connect(self._open_folder)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self._layout()

    def _layout(self) -> None:
        look = QGroupBox(self.tr("Appearance and language"))
        form = QFormLayout(look)
        form.addRow(self.tr("Theme"), self.theme)
        form.addRow(self.tr("Language"), self.language)
        form.addRow("", self.language_note)
        notify = QGroupBox(self.tr("Notify me when"))
        box = QVBoxLayout(notify)
        for check in (self.notify_finished, self.notify_failed, self.notify_needs_you):
            box.addWidget(check)
        hint = QLabel(self.tr("Only for sessions not on screen; at most one per reply."))
        hint.setEnabled(False)
        hint.setFont(theme.scaled_font("caption"))
        box.addWidget(hint)
        defaults = QGroupBox(self.tr("New sessions"))
        form2 = QFormLayout(defaults)
        form2.addRow(self.tr("Model service"), self.connection)
        form2.addRow(self.tr("Model"), self.model)
        form2.addRow(self.tr("Approval mode"), self.approval)
        keys = QGroupBox(self.tr("Sending"))
        box2 = QVBoxLayout(keys)
        box2.addWidget(self.send_enter)
        box2.addWidget(self.send_ctrl_enter)
        data = QGroupBox(self.tr("Data folder"))
        row = QHBoxLayout(data)
        row.addWidget(self.folder, 1)
        row.addWidget(self.open_folder)
        layout = QVBoxLayout(self)
        layout.setSpacing(theme.SPACE + 4)
        for group in (look, notify, defaults, keys, data):
            layout.addWidget(group)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(560)

    def values(self) -> Preferences:
        """The preferences as edited (window state fields unchanged)."""
        return dataclasses.replace(
            self._prefs, language=self.language.currentData(), theme=self.theme.currentData(),
            notify_turn_finished=self.notify_finished.isChecked(),
            notify_turn_failed=self.notify_failed.isChecked(),
            notify_needs_you=self.notify_needs_you.isChecked(),
            default_connection=str(self.connection.currentData() or ""),
            default_model=self.model.text().strip(),
            default_approval=str(self.approval.currentData() or ""),
            send_key="ctrl_enter" if self.send_ctrl_enter.isChecked() else "enter")

    def _open_folder(self) -> None:
        if self._folder is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self._folder)))


def _combo(items: list[tuple[str, str]], current: str, *, keep_unknown: bool = False) -> QComboBox:
    """A combo of (value, label) with ``current`` selected; an unknown stored value is kept if asked."""
    combo = QComboBox()
    for value, label in items:
        combo.addItem(label, value)
    at = combo.findData(current)
    if at < 0 and keep_unknown and current:
        combo.addItem(QCoreApplication.translate("PreferencesDialog", "{name} (not configured)").format(
            name=current), current)
        at = combo.count() - 1
    combo.setCurrentIndex(max(0, at))
    return combo
