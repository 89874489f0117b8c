"""Projects in the window: create, rename, delete, instruction, relink; binding and drag rules.

Binding is irreversible (F09: a bound session never moves), so every way to
bind — "Bind to a folder…" in a session's menu or in its settings dialog,
"Move to project", a drag onto a project — asks first and says so; dragging a bound session elsewhere
is refused with the reason and the offer to branch it. Dragging within a
group reorders (pinned sessions stay on top). Folders are always chosen with
the working-directory picker (ui/picker), the same dialog as for new
sessions. Projects whose folder is gone are marked and can be relinked;
deleting a project never touches its folder (F11).
"""

from __future__ import annotations

import html
from collections.abc import Awaitable
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QObject, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.model import Project, Session
from foya_desktop.ui.error_text import error_text
from foya_desktop.ui.ops.confirm import ConfirmDialog, bullet_list, confirm, inform
from foya_desktop.ui.picker.dialog import choose_folder
from foya_desktop.ui.projects.broad import confirm_broad
from foya_desktop.ui.projects.dialogs import edit_text
from foya_desktop.ui.sessions.nodes import RECENTS_ID
from foya_desktop.ui.window_parts import WindowParts

NEW_PROJECT = str(QT_TRANSLATE_NOOP("ProjectActions", "New project…"))
BIND_FOLDER = str(QT_TRANSLATE_NOOP("ProjectActions", "Bind to a folder…"))
RENAME = str(QT_TRANSLATE_NOOP("ProjectActions", "Rename project…"))
INSTRUCTION = str(QT_TRANSLATE_NOOP("ProjectActions", "Project instruction…"))
RELINK = str(QT_TRANSLATE_NOOP("ProjectActions", "Relink to the moved folder…"))
SCOPED_RECALL = str(QT_TRANSLATE_NOOP("ProjectActions", "Scoped recall of sibling sessions"))
DELETE_PROJECT = str(QT_TRANSLATE_NOOP("ProjectActions", "Delete project…"))


def default_workdir() -> str:
    """Where the picker starts and relative paths begin: the home folder of this machine."""
    return str(Path.home())


class ProjectActions(QObject):
    """Project creation and binding, wired into the File menu and the session tree.

    Signals:
        (none; flows run as named tasks on the window's ``TaskRunner``)
    """

    def __init__(self, window: WindowParts) -> None:
        super().__init__(window.pane)
        self._w = window
        self.new_project_action = QAction(self.tr(NEW_PROJECT), self)
        self.new_project_action.triggered.connect(
            lambda: window.runner.spawn(self.new_project(), self.tr("New project")))
        file_menu = window.menuBar().actions()[0].menu()
        if isinstance(file_menu, QMenu):
            file_menu.insertAction(file_menu.actions()[1], self.new_project_action)
        window.tree_view.menu_requested.connect(self._session_menu)
        window.tree_view.project_menu_requested.connect(self._project_menu)
        window.tree_view.bind_requested.connect(self._bind_requested)
        window.tree_model.bind_requested.connect(self._bind_requested)
        window.tree_model.move_refused.connect(
            lambda sid, target: window.runner.spawn(self.refuse_move(sid, target), self.tr("Moving")))
        window.tree_model.reorder_requested.connect(
            lambda _group, ids: window.runner.spawn(self.reorder(ids), self.tr("Reordering")))
        self._check_timer = QTimer(self, singleShot=True, interval=150)
        self._check_timer.timeout.connect(
            lambda: window.runner.spawn(self.refresh_missing(), self.tr("Checking project folders")))
        window.tree_model.rowsInserted.connect(lambda parent, *_: None if parent.isValid()
                                               else self._check_timer.start())
        window.pane.window().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Coming back to the window re-checks project folders (one may have been moved)."""
        if event.type() == QEvent.Type.WindowActivate:
            self._check_timer.start()
        return super().eventFilter(watched, event)

    # ---- flows ------------------------------------------------------------------------------

    async def new_project(self) -> Project | None:
        """Pick a folder and register it as a project (the folder itself is not touched)."""
        path = await choose_folder(
            self._w.pane,
            start=default_workdir(),
            default_dir=default_workdir(),
            title=self.tr("New project — choose its folder"),
            confirm_text=self.tr("Create project"),
        )
        if path is None:
            return None
        allow_broad = await confirm_broad(self._w.kernel, self._w.pane, path)
        if allow_broad is None:
            return None
        try:
            project = await self._w.kernel.projects.add_project(path, allow_broad=allow_broad)
        except FoyaError as error:
            await inform(
                self._w.pane, self.tr("New project"), self.tr("Cannot create the project"), error_text(error)
            )
            return None
        self._w.tree_model.upsert_project(project)
        self._w.statusBar().showMessage(self.tr("Project “{name}” added — {path}").format(
            name=project.name, path=project.path), 10_000)
        return project

    async def bind_to_folder(self, session_id: str, parent: QWidget | None = None) -> Session | None:
        """Choose a folder for a Recents session, then bind it (after a confirmation).

        ``parent``: the dialog the flow starts from (the session settings dialog), so the
        picker and the confirmation stack above it; the session pane otherwise.
        """
        owner = parent or self._w.pane
        path = await choose_folder(
            owner,
            start=default_workdir(),
            default_dir=default_workdir(),
            title=self.tr("Bind the session to a folder"),
            confirm_text=self.tr("Use this folder"),
        )
        if path is None:
            return None
        allow_broad = await confirm_broad(self._w.kernel, owner, path)
        if allow_broad is None:
            return None
        try:
            project = await self._w.kernel.projects.add_project(path, allow_broad=allow_broad)
        except FoyaError as error:
            await inform(owner, self.tr("Bind"), self.tr("Cannot use this folder"), error_text(error))
            return None
        self._w.tree_model.upsert_project(project)
        return await self.bind(session_id, project, owner, allow_broad=allow_broad)

    async def bind(self, session_id: str, project: Project, parent: QWidget | None = None, *,
                   allow_broad: bool | None = None) -> Session | None:
        """Bind once, after saying that it cannot be undone (and, for a broad project folder not
        confirmed yet, after that confirmation too: ``allow_broad`` is the answer already given)."""
        owner = parent or self._w.pane
        session = self._w.tree_model.session(session_id)
        if session is None:
            return None
        if session.project_id is not None or session.parent_id is not None:
            await inform(owner, self.tr("Move session"), self.tr("This session cannot move"),
                         self.tr("A session bound to a project stays in it (and a sub-agent session follows "
                         "its parent). Branch it to continue in another place."))
            return None
        question = ConfirmDialog(
            self.tr("Bind session"),
            self.tr("Bind “{title}” to {project}?").format(title=session.title, project=project.name),
            self.tr(
                "<p>From now on its tools work in <b>{path}</b> and it uses the project's instruction.</p>"
                "<p><b>This cannot be undone</b>: a bound session stays in its project. No files are "
                "moved.</p>"
            ).format(path=html.escape(project.path)),
            self.tr("Bind"),
            parent=owner,
        )
        if not await confirm(question):
            return None
        if allow_broad is None:
            allow_broad = await confirm_broad(self._w.kernel, owner, project.path)
            if allow_broad is None:
                return None
        try:
            return await self._w.kernel.sessions.bind_project(session_id, project.id, allow_broad=allow_broad)
        except FoyaError as error:
            await inform(owner, self.tr("Bind"), self.tr("Cannot bind the session"), error_text(error))
            return None

    async def rename(self, project_id: str) -> Project | None:
        """A new display name; the folder keeps its own."""
        project = self._w.tree_model.project(project_id)
        if project is None:
            return None
        name = await edit_text(
            self._w.pane,
            self.tr("Rename project"),
            self.tr("A name for the project in {path}. The folder itself is not renamed.").format(
                path=project.path),
            project.name,
        )
        if name is None or not name.strip() or name.strip() == project.name:
            return None
        return await self._apply(self._w.kernel.projects.rename_project(project_id, name),
                                 self.tr("Rename project"))

    async def edit_instruction(self, project_id: str) -> Project | None:
        """The one instruction every session of the project gets, from its next model step."""
        project = self._w.tree_model.project(project_id)
        if project is None:
            return None
        text = await edit_text(
            self._w.pane,
            self.tr("Project instruction — {name}").format(name=project.name),
            self.tr(
                "Every session in this project gets this instruction (from its next "
                "reply on). Leave it empty for none."
            ),
            project.instruction,
            multiline=True,
        )
        if text is None:
            return None
        return await self._apply(self._w.kernel.projects.set_project_instruction(project_id, text),
                                 self.tr("Project instruction"))

    async def set_scoped_recall(self, project_id: str, enabled: bool) -> Project | None:
        """Switch scoped recall for the project (its sessions' next requests follow)."""
        return await self._apply(self._w.kernel.memory.set_project_scoped_recall(project_id, enabled),
                                 self.tr(SCOPED_RECALL))

    async def relink(self, project_id: str) -> Project | None:
        """Point the project at the folder's new place; its sessions stay in the project."""
        project = self._w.tree_model.project(project_id)
        if project is None:
            return None
        path = await choose_folder(self._w.pane, start=default_workdir(), default_dir=default_workdir(),
                                   title=self.tr("Where is {name} now? (was {path})").format(
                                       name=project.name, path=project.path),
                                   confirm_text=self.tr("Relink here"))
        if path is None:
            return None
        allow_broad = await confirm_broad(self._w.kernel, self._w.pane, path)
        if allow_broad is None:
            return None
        relinked = await self._apply(
            self._w.kernel.projects.relink_project(project_id, path, allow_broad=allow_broad),
            self.tr("Relink project"),
        )
        await self.refresh_missing()
        return relinked

    async def delete(self, project_id: str) -> bool:
        """Delete Foya's data about the project after a confirmation; the folder stays."""
        project = self._w.tree_model.project(project_id)
        if project is None:
            return False
        ids = await self._w.kernel.projects.project_sessions(project_id)
        titles = [(s.title if (s := self._w.tree_model.session(i)) is not None else "") or i for i in ids]
        folder = html.escape(project.path)
        if ids:
            body = self.tr(
                "<p>The folder <b>{folder}</b> and its files are <b>not touched</b>. Foya forgets the "
                "project: its instruction and “always allow” rules, and %n session(s) with their "
                "history:</p>",
                "",
                len(ids),
            ).format(folder=folder) + bullet_list(titles)
        else:
            body = self.tr(
                "<p>The folder <b>{folder}</b> and its files are <b>not touched</b>. Foya forgets the "
                "project: its instruction and “always allow” rules.</p>"
            ).format(folder=folder)
        body += self.tr("<p>This cannot be undone.</p>")
        question = ConfirmDialog(self.tr("Delete project"),
                                 self.tr("Delete the project “{name}”?").format(name=project.name), body,
                                 self.tr("Delete project"), destructive=True, parent=self._w.pane)
        if not await confirm(question):
            return False
        try:
            await self._w.kernel.projects.delete_project(project_id)
        except FoyaError as error:
            await inform(
                self._w.pane,
                self.tr("Delete project"),
                self.tr("Cannot delete the project"),
                error_text(error),
            )
            return False
        self._w.tree_model.remove_project(project_id)
        self._w.statusBar().showMessage(self.tr("Project “{name}” deleted; {path} is untouched.").format(
            name=project.name, path=project.path),
                                        10_000)
        return True

    async def refuse_move(self, session_id: str, target: str) -> None:
        """A bound session stays in its project: say why, and offer to branch it instead."""
        session = self._w.tree_model.session(session_id)
        if session is None:
            return
        where = (
            self.tr("Recents")
            if target == RECENTS_ID
            else (
                (
                    self._w.tree_model.project(target)
                    or Project(id=target, name=self.tr("that project"), path="")
                ).name
            )
        )
        question = ConfirmDialog(
            self.tr("Move session"), self.tr("“{title}” cannot move to {where}").format(
                title=session.title, where=where),
            self.tr("<p>A session bound to a project stays in it, so its history and its tools keep "
            "working in the same folder.</p><p>To continue this conversation elsewhere, branch it "
            "from its latest reply; the branch gets the same history and the original stays "
            "as it is.</p>"), self.tr("Branch it"), parent=self._w.pane)
        if await confirm(question):
            await self._w.session_actions.flows.branch_latest(session_id)

    async def reorder(self, session_ids: list[str]) -> None:
        """The person's order within a group (pinned sessions still come first)."""
        for order, session_id in enumerate(session_ids, start=1):
            current = self._w.tree_model.session(session_id)
            if current is not None and current.sort_order != order:
                await self._w.kernel.sessions.update_session(session_id, sort_order=order)

    async def refresh_missing(self) -> None:
        """Mark projects whose folder is gone."""
        self._w.tree_model.set_missing(set(await self._w.kernel.projects.missing_projects()))

    async def _apply(self, op: Awaitable[Project], what: str) -> Project | None:
        try:
            project = await op
        except FoyaError as error:
            await inform(self._w.pane, what, self.tr("{what} failed").format(what=what), error_text(error))
            return None
        self._w.tree_model.upsert_project(project)
        return project

    # ---- menus and drops ----------------------------------------------------------------------

    def _project_menu(self, menu: QMenu, project_id: str) -> None:
        spawn = self._w.runner.spawn
        if self._w.tree_model.is_missing(project_id):
            menu.addAction(self.tr(RELINK), lambda: spawn(self.relink(project_id), self.tr("Relink project")))
        menu.addSeparator()
        menu.addAction(self.tr(RENAME), lambda: spawn(self.rename(project_id), self.tr("Rename project")))
        menu.addAction(
            self.tr(INSTRUCTION),
            lambda: spawn(self.edit_instruction(project_id), self.tr("Project instruction")),
        )
        project = self._w.tree_model.project(project_id)
        recall = menu.addAction(self.tr(SCOPED_RECALL))
        recall.setCheckable(True)
        recall.setChecked(bool(project and project.scoped_recall))
        recall.setToolTip(self.tr("Sessions of this project see read-only summaries (title, id and a short "
                                  "summary) of their sibling sessions — never their transcripts."))
        recall.toggled.connect(
            lambda on: spawn(self.set_scoped_recall(project_id, on), self.tr(SCOPED_RECALL)))
        if not self._w.tree_model.is_missing(project_id):
            menu.addAction(self.tr("Relink to another folder…"),
                           lambda: spawn(self.relink(project_id), self.tr("Relink project")))
        menu.addSeparator()
        menu.addAction(
            self.tr(DELETE_PROJECT), lambda: spawn(self.delete(project_id), self.tr("Delete project"))
        )

    def _session_menu(self, menu: QMenu, session_id: str) -> None:
        session = self._w.tree_model.session(session_id)
        if session is None or session.project_id is not None or session.parent_id is not None:
            return
        menu.addAction(
            self.tr(BIND_FOLDER),
            lambda: self._w.runner.spawn(self.bind_to_folder(session_id), self.tr("Binding")),
        )

    def _bind_requested(self, session_id: str, project_id: str) -> None:
        project = next((p for p in self._w.tree_model.projects() if p.id == project_id), None)
        if project is not None:
            self._w.runner.spawn(self.bind(session_id, project), self.tr("Binding"))
