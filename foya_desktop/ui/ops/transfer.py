"""Export a session to a file and import a JSON export, from File and the session's context menu.

Export first says what the file will hold (tool output, and debug data on
request, may contain secrets) and only then asks where to save; the file is
written readable by its owner only. Import opens a JSON export, and a file
that cannot be imported gets the engine's one sentence, never a traceback.

The folder an imported session works in is the person's choice, never the
file's: when the folder the export was made in exists here, the
working-directory picker opens on it and the person binds the session there
(or anywhere else they browse to), or imports it without a folder; a broad
folder is confirmed as everywhere else (``ui/projects/broad``). The engine
caps the approval mode at ``ask``; its notes say what was not taken over.
All dialogs are opened with ``open()`` and awaited (no nested event loops).
"""

from __future__ import annotations

import asyncio
import html
import os
import re
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QFileDialog, QMenu, QWidget

from foya_desktop.core.errors import FoyaError
from foya_desktop.engine.transfer.export_json import EXPORT_WARNING
from foya_desktop.engine.transfer.importing import ParsedExport
from foya_desktop.engine.transfer.ops import ExportFormat
from foya_desktop.ui.aio import TaskRunner, run_dialog
from foya_desktop.ui.kernel_api import KernelApi
from foya_desktop.ui.ops.confirm import ConfirmDialog, InfoDialog
from foya_desktop.ui.ops.ports import SessionSelector, ShownSession, StatusReporter
from foya_desktop.ui.picker.dialog import FolderPicker
from foya_desktop.ui.projects.broad import confirm_broad

_UNSAFE = re.compile(r"[^\w\- .]+")
IMPORT_PICKER = "importFolderPicker"
"""Object name of the folder picker the import opens (tests find it by this name)."""


class SessionTransfer(QObject):
    """The export and import flows of the window.

    Signals:
        (none; flows run as named tasks on the window's ``TaskRunner``)
    """

    def __init__(self, kernel: KernelApi, runner: TaskRunner, selector: SessionSelector,
                 status: StatusReporter, parent: QWidget) -> None:
        super().__init__(parent)
        self._kernel, self._runner, self._selector, self._status = kernel, runner, selector, status
        self._parent = parent
        self.dialog: QDialog | None = None
        """The dialog on screen (the warning, the file chooser or an error), for tests."""
        self._shown: ShownSession | None = None

    def attach(self, file_menu: QMenu, before: QAction, shown: ShownSession) -> None:
        """Put Import / Export into the File menu (above ``before``); Export acts on ``shown``."""
        self._shown = shown
        self.import_action = QAction(self.tr("Import session…"), self)
        self.import_action.triggered.connect(lambda _checked=False: self.start_import())
        self.export_md_action = QAction(self.tr("Export session as Markdown…"), self)
        self.export_md_action.triggered.connect(lambda _checked=False: self._export_shown("md"))
        self.export_json_action = QAction(self.tr("Export session as JSON…"), self)
        self.export_json_action.triggered.connect(lambda _checked=False: self._export_shown("json"))
        file_menu.insertActions(before, [self.import_action, self.export_md_action, self.export_json_action])
        file_menu.insertSeparator(before)
        file_menu.aboutToShow.connect(self._enable_export)

    def _enable_export(self) -> None:
        shown = self._shown.session if self._shown is not None else None
        self.export_md_action.setEnabled(shown is not None)
        self.export_json_action.setEnabled(shown is not None)

    def _export_shown(self, fmt: ExportFormat) -> None:
        shown = self._shown.session if self._shown is not None else None
        if shown is not None:
            self.start_export(shown.id, fmt)

    def tree_actions(self, menu: QMenu, session_id: str) -> None:
        """The session tree's context menu: add the export entries."""
        self.add_export_actions(menu, session_id)

    def add_export_actions(self, menu: QMenu, session_id: str) -> None:
        """"Export as Markdown…" / "Export as JSON…" for ``session_id``."""
        menu.addAction(self.tr("Export as Markdown…"), lambda: self.start_export(session_id, "md"))
        menu.addAction(self.tr("Export as JSON…"), lambda: self.start_export(session_id, "json"))

    def start_export(self, session_id: str, fmt: ExportFormat) -> None:
        """Run the export flow as a task."""
        self._runner.spawn(self.export(session_id, fmt), self.tr("Exporting"))

    def start_import(self) -> None:
        """Run the import flow as a task."""
        self._runner.spawn(self.import_file(), self.tr("Importing"))

    async def export(self, session_id: str, fmt: ExportFormat) -> Path | None:
        """Warn, ask where, write. Returns the file written (``None`` when cancelled)."""
        session = await self._kernel.sessions.get_session(session_id)
        what = self.tr("Markdown") if fmt == "md" else self.tr("JSON")
        warning = ConfirmDialog(self.tr("Export session"),
                                self.tr("Export “{title}” as {what}?").format(title=session.title, what=what),
                                html.escape(EXPORT_WARNING), self.tr("Choose file…"), parent=self._parent)
        if not await self._show(warning):
            return None
        name = (_UNSAFE.sub("_", session.title).strip() or session.id)[:60] + f".{fmt}"
        chooser = QFileDialog(self._parent, self.tr("Export session"), str(Path.home() / name))
        chooser.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        chooser.setNameFilters([self.tr("Markdown (*.md)") if fmt == "md" else self.tr("JSON (*.json)")])
        chooser.setDefaultSuffix(fmt)
        chosen = await self._choose(chooser)
        if chosen is None:
            return None
        target = Path(chosen)
        try:
            text = await self._kernel.transfer.export_session(session_id, fmt)
            await asyncio.to_thread(_write_private, target, text)
        except (FoyaError, OSError) as exc:
            await self._error(self.tr("Export failed"), str(exc))
            return None
        self._status.showMessage(self.tr("Exported “{title}” to {path}").format(title=session.title,
                                                                              path=target), 8000)
        return target

    async def import_file(self) -> str | None:
        """Ask for a JSON export, then where the session works, and import it; returns the new
        session's id (``None`` when the file was not chosen or could not be imported)."""
        chooser = QFileDialog(self._parent, self.tr("Import session"), str(Path.home()))
        chooser.setFileMode(QFileDialog.FileMode.ExistingFile)
        chooser.setNameFilters([self.tr("Foya session export (*.json)"), self.tr("All files (*)")])
        chosen = await self._choose(chooser)
        if chosen is None:
            return None
        try:
            parsed = await self._kernel.transfer.read_export(chosen)
        except FoyaError as exc:
            await self._error(self.tr("Import failed"), str(exc))
            return None
        folder, allow_broad = await self._folder_for(parsed)
        try:
            result = await self._kernel.transfer.import_export(parsed, folder=folder, allow_broad=allow_broad)
        except FoyaError as exc:
            await self._error(self.tr("Import failed"), str(exc))
            return None
        self._selector.select_session(result.session.id)
        notes = " ".join(result.notes)
        done = (self.tr("Imported “{title}” into {folder}.").format(title=result.session.title,
                                                                  folder=result.session.workdir)
                if result.session.workdir else
                self.tr("Imported “{title}” without a folder.").format(title=result.session.title))
        self._status.showMessage(done + (f" {notes}" if notes else ""), 10000)
        return result.session.id

    async def _folder_for(self, parsed: ParsedExport) -> tuple[str | None, bool]:
        """The folder the person binds the imported session to (``None``: none) and whether they
        confirmed it as a broad one. Asked only when the export's folder exists here: the picker
        opens on it, Cancel imports without a folder."""
        exported = await self._kernel.transfer.exported_folder_here(parsed)
        if exported is None:
            return None, False
        picker = FolderPicker(
            exported, str(Path.home()), title=self.tr("Import session — choose its folder"),
            confirm_text=self.tr("Bind to this folder"), cancel_text=self.tr("Import without a folder"),
            intro=self.tr("“{title}” was exported from {folder}. The session's tools will read and change "
                          "files in the folder you bind it to, and a bound session stays there for good. "
                          "Bind it only to a folder you mean it to work in, or import it without a folder."
                          ).format(
                title=parsed.title, folder=exported),
            parent=self._parent)
        picker.setObjectName(IMPORT_PICKER)
        self.dialog = picker
        try:
            accepted = await run_dialog(picker) == QDialog.DialogCode.Accepted
            folder = picker.chosen() if accepted else None
        finally:
            self.dialog = None
            picker.deleteLater()
        if folder is None:
            return None, False
        allow_broad = await confirm_broad(self._kernel, self._parent, folder)
        return (None, False) if allow_broad is None else (folder, allow_broad)

    async def _show(self, dialog: QDialog) -> bool:
        self.dialog = dialog
        try:
            return await run_dialog(dialog) == QDialog.DialogCode.Accepted
        finally:
            self.dialog = None
            dialog.deleteLater()

    async def _choose(self, chooser: QFileDialog) -> str | None:
        """The file picked in ``chooser`` (read before the dialog is deleted), ``None`` if cancelled."""
        picked: list[str] = []
        chooser.fileSelected.connect(picked.append)
        accepted = await self._show(chooser)
        return picked[-1] if accepted and picked else None

    async def _error(self, title: str, text: str) -> None:
        await self._show(InfoDialog(title, title, text, self._parent))


def _write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
