"""Projects → sessions → child sessions, plus Recents for unbound sessions.

Updates from engine events are applied as precise inserts, moves and
``dataChanged``s, never resets, so selection and expansion survive a session
jumping to the top when it becomes active. A session is moved with
``beginMoveRows`` (not remove + insert) because the selected session moves on
every reply and must stay selected.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QCoreApplication,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from foya_desktop.core.model import Phase, Project, Session
from foya_desktop.ui.sessions.nodes import RECENTS_ID, Node, insertion_row

AnyIndex = QModelIndex | QPersistentModelIndex
SESSION_MIME = "application/x-foya-session-id"

NODE_ROLE = Qt.ItemDataRole.UserRole + 1
"""The ``Node`` behind an index (delegate, view)."""
SESSION_ID_ROLE = Qt.ItemDataRole.UserRole + 2
"""The session id, or ``None`` for group rows."""


class SessionTreeModel(QAbstractItemModel):
    """The sidebar's tree of projects and sessions.

    Signals:
        project_missing(str): a session refers to a project id the model does not know yet.
        bind_requested(str, str): a Recents session was dropped on a project (session id, project id).
        move_refused(str, str): a bound session was dropped outside its project (session id, target
            project id or ``RECENTS_ID``); the binding rule refuses, the owner says why.
        reorder_requested(str, list): sessions of one group in the person's new order (group key,
            session ids, pinned ones included).
        rename_requested(str, str): the person edited a session's title in place (id, new title).
    """

    project_missing = Signal(str)
    bind_requested = Signal(str, str)
    move_refused = Signal(str, str)
    reorder_requested = Signal(str, list)
    rename_requested = Signal(str, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._root = Node("root", "")
        self._recents = Node("recents", RECENTS_ID, parent=self._root)
        self._root.children.append(self._recents)
        self._by_uid: dict[int, Node] = {self._recents.uid: self._recents}
        self._projects: dict[str, Node] = {}
        self._sessions: dict[str, Node] = {}
        self._deleted: set[str] = set()
        """Ids removed for good: a late event for one of them must not bring it back."""

    # ---- updates ----------------------------------------------------------------------------

    def upsert_project(self, project: Project) -> None:
        """Add a project, or refresh its name and order."""
        node = self._projects.get(project.id)
        if node is None:
            node = Node("project", project.id, project=project)
            self._projects[project.id] = node
            self._insert(self._root, node)
        else:
            node.project = project
            self._reposition(node, self._root)

    def upsert_session(self, session: Session) -> None:
        """Add a session or apply new metadata, moving it only if its place changed."""
        if session.id in self._deleted:
            return
        node = self._sessions.get(session.id)
        if node is None:
            node = Node("session", session.id, session=session, phase=session.phase)
            self._sessions[session.id] = node
            self._insert(self._parent_for(session), node)
            self._adopt_children(node)
            return
        node.session = session
        self._reposition(node, self._parent_for(session))

    def set_phase(self, session_id: str, phase: str) -> None:
        """The kernel moved a session to another phase (spinner on or off)."""
        node = self._sessions.get(session_id)
        if node is not None and node.phase != phase:
            node.phase = Phase(phase)
            self._changed(node)

    def set_waiting(self, session_id: str, waiting: bool) -> None:
        """Mark a session that waits for the person (approval or question)."""
        node = self._sessions.get(session_id)
        if node is not None and node.waiting != waiting:
            node.waiting = waiting
            self._changed(node)

    def set_missing(self, project_ids: set[str]) -> None:
        """Mark the projects whose folder is gone (and unmark the others)."""
        for key, node in self._projects.items():
            if node.missing != (key in project_ids):
                node.missing = key in project_ids
                self._changed(node)

    def set_worktree_marks(self, marks: dict[str, str]) -> None:
        """Show each worktree session's branch mark (``marks``: session id → mark; others: none)."""
        for key, node in self._sessions.items():
            if node.worktree != marks.get(key, ""):
                node.worktree = marks.get(key, "")
                self._changed(node)

    def remove_project(self, project_id: str) -> None:
        """A deleted project (its sessions are removed by their own events)."""
        node = self._projects.pop(project_id, None)
        if node is None or node.parent is None:
            return
        for child in list(node.children):
            if child.kind == "session":
                self.remove_session(child.key)
        row = node.row()
        self.beginRemoveRows(QModelIndex(), row, row)
        self._root.children.pop(row)
        self._by_uid.pop(node.uid, None)
        self.endRemoveRows()

    def project(self, project_id: str) -> Project | None:
        """A known project."""
        node = self._projects.get(project_id)
        return node.project if node is not None else None

    def is_missing(self, project_id: str) -> bool:
        """Whether the project's folder was found gone."""
        node = self._projects.get(project_id)
        return node is not None and node.missing

    def remove_session(self, session_id: str) -> None:
        """A deleted session and anything still under it."""
        self._deleted.add(session_id)
        node = self._sessions.get(session_id)
        if node is None or node.parent is None:
            return
        parent, row = node.parent, node.row()
        self.beginRemoveRows(self._index_of(parent), row, row)
        parent.children.pop(row)
        for gone in node.walk():
            self._by_uid.pop(gone.uid, None)
            self._sessions.pop(gone.key, None)
            self._deleted.add(gone.key)
        self.endRemoveRows()

    # ---- lookups ----------------------------------------------------------------------------

    def session(self, session_id: str) -> Session | None:
        """Current metadata of a session in the tree."""
        node = self._sessions.get(session_id)
        return node.session if node is not None else None

    def sessions(self) -> list[Session]:
        """Every session in the tree (any order)."""
        return [n.session for n in self._sessions.values() if n.session is not None]

    def phase(self, session_id: str) -> Phase:
        """Last known phase of a session."""
        node = self._sessions.get(session_id)
        return node.phase if node is not None else Phase.IDLE

    def projects(self) -> list[Project]:
        """Known projects in tree order."""
        return [n.project for n in self._root.children if n.project is not None]

    def index_of_session(self, session_id: str) -> QModelIndex:
        """The index of a session row (invalid if unknown)."""
        node = self._sessions.get(session_id)
        return self._index_of(node) if node is not None else QModelIndex()

    def session_ids(self) -> list[str]:
        """Every session in the tree."""
        return list(self._sessions)

    def running_sessions(self) -> list[str]:
        """Sessions whose phase is not idle (the sidebar animates while any exist)."""
        return [sid for sid, node in self._sessions.items() if node.phase != Phase.IDLE]

    # ---- placement --------------------------------------------------------------------------

    def _parent_for(self, session: Session) -> Node:
        if session.parent_id and session.parent_id in self._sessions:
            return self._sessions[session.parent_id]
        if session.project_id:
            if session.project_id not in self._projects:
                self.upsert_project(Project(id=session.project_id, name="…", path=""))
                self.project_missing.emit(session.project_id)
            return self._projects[session.project_id]
        return self._recents

    def _adopt_children(self, node: Node) -> None:
        """Child sessions that arrived before their parent move under it."""
        for child in [n for n in self._sessions.values() if n.session and n.session.parent_id == node.key]:
            if child.parent is not node:
                self._reposition(child, node)

    def _insert(self, parent: Node, node: Node) -> None:
        row = insertion_row(parent.children, node)
        self.beginInsertRows(self._index_of(parent), row, row)
        parent.children.insert(row, node)
        node.parent = parent
        self._by_uid[node.uid] = node
        self.endInsertRows()

    def _reposition(self, node: Node, new_parent: Node) -> None:
        old_parent = node.parent
        assert old_parent is not None
        old_row = node.row()
        others = [n for n in new_parent.children if n is not node]
        new_row = insertion_row(others, node)
        if old_parent is new_parent and new_row == old_row:
            self._changed(node)
            return
        dest = new_row + 1 if old_parent is new_parent and new_row > old_row else new_row
        self.beginMoveRows(self._index_of(old_parent), old_row, old_row, self._index_of(new_parent), dest)
        old_parent.children.pop(old_row)
        new_parent.children.insert(new_row, node)
        node.parent = new_parent
        self.endMoveRows()
        self._changed(node)

    def _changed(self, node: Node) -> None:
        index = self._index_of(node)
        self.dataChanged.emit(index, index)

    def _index_of(self, node: Node) -> QModelIndex:
        if node is self._root or node.parent is None:
            return QModelIndex()
        return self.createIndex(node.row(), 0, node.uid)

    def node(self, index: AnyIndex) -> Node:
        """The node behind an index; the root for an invalid index."""
        if not index.isValid():
            return self._root
        return self._by_uid[index.internalId()]

    # ---- Qt model interface -----------------------------------------------------------------

    def index(self, row: int, column: int, parent: AnyIndex = QModelIndex()) -> QModelIndex:  # noqa: B008
        """Index of the ``row``-th child of ``parent``."""
        node = self.node(parent)
        if column != 0 or not 0 <= row < len(node.children):
            return QModelIndex()
        return self.createIndex(row, 0, node.children[row].uid)

    def parent(self, index: AnyIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        """The parent row (invalid for top-level rows)."""
        if not index.isValid():
            return QModelIndex()
        parent = self.node(index).parent
        return self._index_of(parent) if parent is not None else QModelIndex()

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        """Children of ``parent``."""
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self.node(parent).children)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        """One column; the delegate paints phase and title."""
        return 1

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Title, tooltip (folder), node object or session id."""
        if not index.isValid():
            return None
        node = self.node(index)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return node.title
        if role == Qt.ItemDataRole.ToolTipRole:
            return _tooltip(node)
        if role == NODE_ROLE:
            return node
        if role == SESSION_ID_ROLE:
            return node.key if node.kind == "session" else None
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        """Sessions are selectable; unbound top-level ones can be dragged onto a project."""
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        node = self.node(index)
        flags = Qt.ItemFlag.ItemIsEnabled
        if node.kind == "session":
            flags |= Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEditable
            if node.parent is not None and node.parent.kind != "session":  # top level: bind, reorder
                flags |= Qt.ItemFlag.ItemIsDragEnabled | Qt.ItemFlag.ItemIsDropEnabled
        elif node.kind in ("project", "recents"):
            flags |= Qt.ItemFlag.ItemIsDropEnabled
        return flags

    def setData(self, index: AnyIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        """An in-place rename is a request: the title changes when the kernel confirms it."""
        node = self.node(index)
        title = str(value).strip()
        if role == Qt.ItemDataRole.EditRole and node.kind == "session" and title and title != node.title:
            self.rename_requested.emit(node.key, title)
        return False

    def mimeTypes(self) -> list[str]:
        """Sessions travel as their id."""
        return [SESSION_MIME]

    def mimeData(self, indexes: list[QModelIndex]) -> QMimeData:  # type: ignore[override]
        """The dragged session's id."""
        data = QMimeData()
        ids = [self.node(i).key for i in indexes if self.node(i).kind == "session"]
        data.setData(SESSION_MIME, "\n".join(ids).encode())
        return data

    def supportedDropActions(self) -> Qt.DropAction:
        """Binding is a move in the person's eyes."""
        return Qt.DropAction.MoveAction

    def dropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int, column: int,
                     parent: AnyIndex) -> bool:
        """Turn a drop into a request; the tree changes only when the kernel says so.

        Dropped on a session or between the sessions of its own group: reorder. On a project
        from Recents: bind (the owner confirms). Anywhere else for a bound session: refused.
        """
        if not data.hasFormat(SESSION_MIME):
            return False
        target = self.node(parent)
        for session_id in bytes(data.data(SESSION_MIME).data()).decode().split("\n"):
            node = self._sessions.get(session_id)
            if node is not None and node.parent is not None:
                self._drop_one(node, target, row)
        return False

    def _drop_one(self, node: Node, target: Node, row: int) -> None:
        group = node.parent
        assert group is not None
        if target.kind == "session" and target.parent is group:
            row, target = target.row(), group
        if target is group:
            self._request_reorder(node, group, row)
        elif target.kind == "project" and group is self._recents:
            self.bind_requested.emit(node.key, target.key)
        elif target.kind in ("project", "recents"):
            self.move_refused.emit(node.key, target.key)

    def _request_reorder(self, node: Node, group: Node, row: int) -> None:
        """``row`` is the drop position among the group's rows (before that row; -1: the end)."""
        before = [n.key for n in group.children if n.kind == "session"]
        ids = list(before)
        old = ids.index(node.key)
        new = len(ids) if row < 0 else min(row, len(ids))
        ids.pop(old)
        ids.insert(new - 1 if new > old else new, node.key)
        if ids != before:
            self.reorder_requested.emit(group.key, ids)


def _tooltip(node: Node) -> str | None:
    if node.project is not None:
        return node.project.path
    if node.session is not None:
        return node.session.workdir or QCoreApplication.translate("TreeModel", "No folder (Recents)")
    return None
