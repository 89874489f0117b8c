"""Projects in the window: create through the picker, bind a Recents session once.

Binding is irreversible (F09: a bound session never moves), so every way to
bind — "Bind to a folder…" in a session's menu, "Move to project", a drag
onto a project — asks first and says so. Folders are always chosen with the
working-directory picker (ui/picker), the same dialog as for new sessions.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.model import Project, Session
from foya_desktop.ui.ops.confirm import ConfirmDialog, confirm, inform
from foya_desktop.ui.picker.dialog import choose_folder

if TYPE_CHECKING:
    from foya_desktop.ui.main_window import MainWindow

NEW_PROJECT = "New project…"
BIND_FOLDER = "Bind to a folder…"


def default_workdir() -> str:
    """Where the picker starts and relative paths begin: the home folder of this machine."""
    return str(Path.home())


class ProjectActions(QObject):
    """Project creation and binding, wired into the File menu and the session tree.

    Signals:
        (none; flows run as named tasks on the window's ``TaskRunner``)
    """

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._w = window
        self.new_project_action = QAction(NEW_PROJECT, window)
        self.new_project_action.triggered.connect(
            lambda: window.runner.spawn(self.new_project(), "New project"))
        file_menu = window.menuBar().actions()[0].menu()
        if isinstance(file_menu, QMenu):
            file_menu.insertAction(file_menu.actions()[1], self.new_project_action)
        window.tree_view.menu_requested.connect(self._session_menu)
        window.tree_view.bind_requested.connect(self._bind_requested)
        window.tree_model.bind_requested.connect(self._bind_requested)

    # ---- flows ------------------------------------------------------------------------------

    async def new_project(self) -> Project | None:
        """Pick a folder and register it as a project (the folder itself is not touched)."""
        path = await choose_folder(self._w, start=default_workdir(), default_dir=default_workdir(),
                                   title="New project — choose its folder", confirm_text="Create project")
        if path is None:
            return None
        try:
            project = await self._w.kernel.add_project(path)
        except FoyaError as error:
            await inform(self._w, "New project", "Cannot create the project", str(error))
            return None
        self._w.tree_model.upsert_project(project)
        self._w.statusBar().showMessage(f"Project “{project.name}” added — {project.path}", 10_000)
        return project

    async def bind_to_folder(self, session_id: str) -> Session | None:
        """Choose a folder for a Recents session, then bind it (after a confirmation)."""
        path = await choose_folder(self._w, start=default_workdir(), default_dir=default_workdir(),
                                   title="Bind the session to a folder", confirm_text="Use this folder")
        if path is None:
            return None
        try:
            project = await self._w.kernel.add_project(path)
        except FoyaError as error:
            await inform(self._w, "Bind", "Cannot use this folder", str(error))
            return None
        self._w.tree_model.upsert_project(project)
        return await self.bind(session_id, project)

    async def bind(self, session_id: str, project: Project) -> Session | None:
        """Bind once, after saying that it cannot be undone."""
        session = self._w.tree_model.session(session_id)
        if session is None:
            return None
        if session.project_id is not None or session.parent_id is not None:
            await inform(self._w, "Move session", "This session cannot move",
                         "A session bound to a project stays in it (and a sub-agent session follows "
                         "its parent). Branch it to continue in another place.")
            return None
        question = ConfirmDialog(
            "Bind session", f"Bind “{session.title}” to {project.name}?",
            f"<p>From now on its tools work in <b>{html.escape(project.path)}</b> and it uses the "
            "project's instruction.</p><p><b>This cannot be undone</b>: a bound session stays in "
            "its project. No files are moved.</p>", "Bind", parent=self._w)
        if not await confirm(question):
            return None
        try:
            return await self._w.kernel.bind_project(session_id, project.id)
        except FoyaError as error:
            await inform(self._w, "Bind", "Cannot bind the session", str(error))
            return None

    # ---- menus and drops ----------------------------------------------------------------------

    def _session_menu(self, menu: QMenu, session_id: str) -> None:
        session = self._w.tree_model.session(session_id)
        if session is None or session.project_id is not None or session.parent_id is not None:
            return
        menu.addAction(BIND_FOLDER, lambda: self._w.runner.spawn(self.bind_to_folder(session_id), "Binding"))

    def _bind_requested(self, session_id: str, project_id: str) -> None:
        project = next((p for p in self._w.tree_model.projects() if p.id == project_id), None)
        if project is not None:
            self._w.runner.spawn(self.bind(session_id, project), "Binding")
