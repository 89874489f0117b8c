"""The "New session" dialog: name, folder, VP roster and default VP, model service.

The folder decides the Project: a session created with a folder is bound to
it for good (to work elsewhere, fork), so the dialog says so. Without a
folder the session lands in Recents and may be bound once later.

Create does not close the dialog by itself: it runs ``create`` and closes
only when that succeeded. A wrong folder (or any refusal) is shown inside
the dialog and everything typed stays, so the person fixes one field and
tries again. Browse… opens the working-directory picker (ui/picker).

A folder in a git repository offers *In a new git worktree* (README
"Sessions"): Foya adds a worktree beside the repository on a new branch named
after the session, or on the branch the person picks, and binds the session to
that worktree — its own project, so the binding rule holds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.model import OMNI, VP, Connection, Project, Session
from foya_desktop.ui import theme
from foya_desktop.ui.error_text import error_text
from foya_desktop.ui.fit import fit_placeholder
from foya_desktop.ui.picker import folders
from foya_desktop.ui.picker.dialog import choose_folder


@dataclass(frozen=True, slots=True)
class NewSessionValues:
    """What the person chose."""

    title: str
    workdir: str | None
    roster: tuple[str, ...]
    default_vp: str
    connection: str
    model: str
    worktree: bool = False
    """Start in a new git worktree of the folder's repository."""
    branch: str = ""
    """With ``worktree``: the branch (empty: a new one named after the session)."""


Probe = Callable[[str], Awaitable[list[str] | None]]
"""The branches of the repository a folder is in, ``None`` when it is in none."""
Create = Callable[[NewSessionValues], Awaitable[Session | None]]
"""Creates the session; ``None`` when the person cancelled a confirmation (the dialog stays)."""


class NewSessionDialog(QDialog):
    """Collects the settings of a new session and creates it. Open with ``run_dialog``.

    ``created`` holds the new session once the dialog was accepted.

    Signals:
        (QDialog's own: accepted, rejected, finished)
    """

    def __init__(self, vps: list[VP], projects: list[Project], connections: list[Connection],
                 folder: str = "", parent: QWidget | None = None, *, create: Create | None = None,
                 default_dir: str = "", probe: Probe | None = None) -> None:
        super().__init__(parent)
        self._create = create
        self._probe = probe
        self._probing: asyncio.Task[None] | None = None
        self._default_dir = default_dir or str(Path.home())
        self._task: asyncio.Task[None] | None = None
        self.created: Session | None = None
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {theme.error_color().name()};")
        self.error.hide()
        self.setWindowTitle(self.tr("New session"))
        self.setMinimumWidth(480)
        self.title = QLineEdit(placeholderText=self.tr("What is this session about? (optional)"))
        self.folder = QLineEdit(folder, placeholderText=self.tr("No folder — the session goes to Recents"))
        fit_placeholder(self.folder)
        self.project_choice = QComboBox()
        self.project_choice.addItem(self.tr("Choose a project…"), "")
        for project in projects:
            self.project_choice.addItem(f"{project.name} — {project.path}", project.path)
        self.project_choice.activated.connect(self._on_project)
        self.worktree = QCheckBox(self.tr("In a new git worktree (a folder and branch of its own)"))
        self.worktree.hide()
        self.branch = QComboBox(editable=True)
        if (edit := self.branch.lineEdit()) is not None:
            edit.setPlaceholderText(self.tr("New branch named after the session"))
        self.branch.hide()
        self.worktree.toggled.connect(self.branch.setVisible)
        self.folder.textChanged.connect(self._probe_folder)
        self.checks = {vp.id: QCheckBox(f"{vp.name}  ({vp.display_name})") for vp in [OMNI, *vps]}
        self.checks[OMNI.id].setChecked(True)
        self.default_vp = QComboBox()
        self.connection = QComboBox()
        for conn in connections:
            self.connection.addItem(f"{conn.name} · {conn.model}" if conn.model else conn.name, conn.name)
        self._models = {c.name: c.model for c in connections}
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Create session"))
        self.buttons.accepted.connect(self._submit)
        self.buttons.rejected.connect(self.reject)
        for check in self.checks.values():
            check.toggled.connect(self._refresh_default)
        self._layout(connections)
        self._refresh_default()

    def _layout(self, connections: list[Connection]) -> None:
        form = QFormLayout()
        form.addRow(self.tr("Name"), self.title)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder, 1)
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self._browse)
        folder_row.addWidget(browse)
        form.addRow(self.tr("Folder"), folder_row)
        if self.project_choice.count() > 1:
            form.addRow("", self.project_choice)
        note = QLabel(self.tr("A session with a folder stays bound to that project."))
        note.setEnabled(False)
        form.addRow("", note)
        form.addRow("", self.worktree)
        form.addRow("", self.branch)
        roster = QVBoxLayout()
        for check in self.checks.values():
            roster.addWidget(check)
        form.addRow(self.tr("VPs"), roster)
        form.addRow(self.tr("Answers by default"), self.default_vp)
        if connections:
            form.addRow(self.tr("Model service"), self.connection)
        else:
            form.addRow(self.tr("Model service"), QLabel(self.tr("None yet — add one under Connections…")))
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        if self.folder.text().strip():
            self._probe_folder(self.folder.text())

    def _probe_folder(self, text: str) -> None:
        """Offer the worktree checkbox when the typed folder is in a git repository."""
        if self._probe is None:
            return
        if self._probing is not None:
            self._probing.cancel()
        self._probing = asyncio.ensure_future(self._show_branches(self._probe, text.strip()))

    async def _show_branches(self, probe: Probe, typed: str) -> None:
        branches = await probe(folders.resolve_typed(typed, self._default_dir)) if typed else None
        self.worktree.setVisible(branches is not None)
        self.branch.setVisible(branches is not None and self.worktree.isChecked())
        text = self.branch.currentText()
        self.branch.clear()
        self.branch.addItems(branches or [])
        self.branch.setCurrentIndex(-1)
        self.branch.setEditText(text)

    def _on_project(self, index: int) -> None:
        path = self.project_choice.itemData(index)
        if path:
            self.folder.setText(str(path))

    def _browse(self) -> None:
        self._task = asyncio.ensure_future(self._pick())

    async def _pick(self) -> None:
        chosen = await choose_folder(
            self,
            start=self.folder.text().strip() or self._default_dir,
            default_dir=self._default_dir,
            title=self.tr("Choose the project folder"),
        )
        if chosen is not None:
            self.folder.setText(chosen)

    def _submit(self) -> None:
        """Create: run ``create`` and close only when it worked (plain accept without one)."""
        if self._create is None:
            self.accept()
            return
        self.buttons.setEnabled(False)
        self.error.hide()
        self._task = asyncio.ensure_future(self._create_now(self._create))

    async def _create_now(self, create: Create) -> None:
        try:
            self.created = await create(self.values())
        except FoyaError as error:
            self.show_error(error_text(error))
            return
        except OSError as error:
            self.show_error(
                self.tr("The folder cannot be used: {reason}.").format(reason=error.strerror or error)
            )
            return
        finally:
            self.buttons.setEnabled(True)
        if self.created is not None:
            self.accept()

    def show_error(self, text: str) -> None:
        """Say inside the dialog why the session was not created; the input stays."""
        self.error.setText("⚠ " + text)
        self.error.show()

    def _refresh_default(self) -> None:
        current = self.default_vp.currentData()
        self.default_vp.clear()
        for vp_id, check in self.checks.items():
            if check.isChecked():
                self.default_vp.addItem(check.text().split("  ")[0], vp_id)
        index = self.default_vp.findData(current)
        self.default_vp.setCurrentIndex(max(0, index))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(self.default_vp.count() > 0)

    def values(self) -> NewSessionValues:
        """The settings to create the session with."""
        roster = tuple(vp_id for vp_id, check in self.checks.items() if check.isChecked())
        connection = str(self.connection.currentData() or "")
        typed = self.folder.text().strip()
        workdir = folders.resolve_typed(typed, self._default_dir) if typed else None
        return NewSessionValues(
            title=self.title.text().strip(), workdir=workdir, roster=roster,
            default_vp=str(self.default_vp.currentData() or (roster[0] if roster else OMNI.id)),
            connection=connection, model=self._models.get(connection, ""),
            worktree=workdir is not None and not self.worktree.isHidden() and self.worktree.isChecked(),
            branch=self.branch.currentText().strip())
