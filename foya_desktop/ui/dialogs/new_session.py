"""The "New session" dialog: name, folder, VP roster and default VP, model service.

The folder decides the Project: a session created with a folder is bound to
it for good (to work elsewhere, fork), so the dialog says so. Without a
folder the session lands in Recents and may be bound once later.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.core.model import OMNI, VP, Connection, Project


@dataclass(frozen=True, slots=True)
class NewSessionValues:
    """What the person chose."""

    title: str
    workdir: str | None
    roster: tuple[str, ...]
    default_vp: str
    connection: str
    model: str


class NewSessionDialog(QDialog):
    """Collects the settings of a new session. Open with ``run_dialog``.

    Signals:
        (QDialog's own: accepted, rejected, finished)
    """

    def __init__(self, vps: list[VP], projects: list[Project], connections: list[Connection],
                 folder: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New session")
        self.setMinimumWidth(480)
        self.title = QLineEdit(placeholderText="What is this session about? (optional)")
        self.folder = QLineEdit(folder, placeholderText="No folder — the session goes to Recents")
        self.project_choice = QComboBox()
        self.project_choice.addItem("Choose a project…", "")
        for project in projects:
            self.project_choice.addItem(f"{project.name} — {project.path}", project.path)
        self.project_choice.activated.connect(self._on_project)
        self.checks = {vp.id: QCheckBox(f"{vp.name}  ({vp.display_name})") for vp in [OMNI, *vps]}
        self.checks[OMNI.id].setChecked(True)
        self.default_vp = QComboBox()
        self.connection = QComboBox()
        for conn in connections:
            self.connection.addItem(f"{conn.name} · {conn.model}" if conn.model else conn.name, conn.name)
        self._models = {c.name: c.model for c in connections}
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Create session")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        for check in self.checks.values():
            check.toggled.connect(self._refresh_default)
        self._layout(connections)
        self._refresh_default()

    def _layout(self, connections: list[Connection]) -> None:
        form = QFormLayout()
        form.addRow("Name", self.title)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder, 1)
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        folder_row.addWidget(browse)
        form.addRow("Folder", folder_row)
        if self.project_choice.count() > 1:
            form.addRow("", self.project_choice)
        note = QLabel("A session with a folder stays bound to that project.")
        note.setEnabled(False)
        form.addRow("", note)
        roster = QVBoxLayout()
        for check in self.checks.values():
            roster.addWidget(check)
        form.addRow("VPs", roster)
        form.addRow("Answers by default", self.default_vp)
        if connections:
            form.addRow("Model service", self.connection)
        else:
            form.addRow("Model service", QLabel("None yet — add one under Connections…"))
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.buttons)

    def _on_project(self, index: int) -> None:
        path = self.project_choice.itemData(index)
        if path:
            self.folder.setText(str(path))

    def _browse(self) -> None:
        dialog = QFileDialog(self, "Choose the project folder", self.folder.text())
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly)
        dialog.fileSelected.connect(self.folder.setText)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

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
        return NewSessionValues(
            title=self.title.text().strip(), workdir=self.folder.text().strip() or None, roster=roster,
            default_vp=str(self.default_vp.currentData() or (roster[0] if roster else OMNI.id)),
            connection=connection, model=self._models.get(connection, ""))
