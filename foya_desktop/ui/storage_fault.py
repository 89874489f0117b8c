"""The dialog for a data folder Foya cannot open: what is wrong, and what the person can do.

Shown by the app's start-up (``app.run_app``) over the start frame (``ui/start_window.py``), before
the real window exists, for every storage
fault the store reports in plain words (``store/faults.py``): a damaged database, a locked
one, a full disk, a read-only folder, a schema this version does not know. It offers what
fits the fault:

* **Restore the newest backup** — only for a damaged database with a backup in
  ``backups/``; the damaged file is kept beside it (``store/restore.py``);
* **Try again** — for a database another program keeps locked, a full disk (after the
  person made room), and a folder or file where the database or the data folder belongs (after
  the person moved it away);
* **Open the data folder** — always, so the person can look, copy or repair (does not close);
* **Quit** — the fault's exit code, as the CLI gives it.
"""

from __future__ import annotations

from typing import Literal

from PySide6.QtCore import Qt, QUrl, SignalInstance
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPushButton, QVBoxLayout, QWidget

from foya_desktop.core.errors import DatabaseCorrupt, DatabaseLocked, DiskFull, FoyaError, WrongFileType
from foya_desktop.store.faults import newest_backup
from foya_desktop.store.home import Home
from foya_desktop.ui.aio import run_dialog
from foya_desktop.ui.error_text import error_text

Choice = Literal["restore", "retry", "quit"]


class StorageFaultDialog(QDialog):
    """One storage fault, its sentence and the ways out that fit it."""

    def __init__(self, error: FoyaError, home: Home, note: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Foya cannot open its data"))
        self.choice: Choice = "quit"
        self._home = home
        self.heading = QLabel(self.tr("Foya cannot open its data folder ({folder}).").format(
            folder=home.root))
        self.heading.setWordWrap(True)
        self.heading.setStyleSheet("font-weight: 600;")
        self.detail = QLabel(error_text(error))
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note = QLabel(note)
        self.note.setWordWrap(True)
        self.note.setVisible(bool(note))
        self.buttons = QDialogButtonBox()
        self.restore_button: QPushButton | None = None
        self.retry_button: QPushButton | None = None
        backup = newest_backup(home) if isinstance(error, DatabaseCorrupt) else None
        if backup is not None:
            self.restore_button = self.buttons.addButton(self.tr("Restore the newest backup"),
                                                         QDialogButtonBox.ButtonRole.AcceptRole)
            self.restore_button.setToolTip(self.tr(
                "Puts {backup} in place; the damaged file is kept beside it for a repair.").format(
                backup=backup.name))
            self.restore_button.clicked.connect(lambda: self._close_with("restore"))
        if isinstance(error, DatabaseLocked | DiskFull | WrongFileType):
            self.retry_button = self.buttons.addButton(self.tr("Try again"),
                                                       QDialogButtonBox.ButtonRole.AcceptRole)
            self.retry_button.clicked.connect(lambda: self._close_with("retry"))
        self.folder_button = self.buttons.addButton(self.tr("Open the data folder"),
                                                    QDialogButtonBox.ButtonRole.ActionRole)
        self.folder_button.clicked.connect(self._open_folder)
        self.quit_button = self.buttons.addButton(self.tr("Quit"), QDialogButtonBox.ButtonRole.RejectRole)
        self.quit_button.clicked.connect(lambda: self._close_with("quit"))
        box = QVBoxLayout(self)
        box.setContentsMargins(18, 16, 18, 14)
        box.setSpacing(12)
        for label in (self.heading, self.detail, self.note):
            box.addWidget(label)
        # Wrapped labels are first measured narrower than they end up, and the height left over
        # was spread between them (a blank band under the heading): it goes above the buttons.
        box.addStretch(1)
        box.addWidget(self.buttons)
        self.setMinimumWidth(520)
        self.resize(520, box.heightForWidth(520))

    def _close_with(self, choice: Choice) -> None:
        self.choice = choice
        self.done(QDialog.DialogCode.Accepted if choice != "quit" else QDialog.DialogCode.Rejected)

    def _open_folder(self) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(self._home.root)))


async def ask(error: FoyaError, home: Home, note: str = "", parent: QWidget | None = None,
              cancel: SignalInstance | None = None) -> Choice:
    """Show the dialog for ``error`` (over ``parent``, the start frame) and wait for the person's
    choice (Esc or closing: quit); ``cancel`` firing closes it with "quit" (SIGTERM meanwhile)."""
    dialog = StorageFaultDialog(error, home, note, parent)
    if cancel is not None:
        cancel.connect(dialog.reject)
    await run_dialog(dialog)
    choice = dialog.choice
    dialog.deleteLater()
    return choice
