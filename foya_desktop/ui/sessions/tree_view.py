"""The sidebar: the session tree with phase spinners and a context menu.

The spinner timer runs only while some session is busy; an idle sidebar
costs nothing. Every action is a request signal — the view never calls the
kernel, and the tree changes only when the kernel reports the change.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPoint, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QContextMenuEvent, QFont, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
    QWidget,
)

from foya_desktop.core.model import Phase
from foya_desktop.ui import theme
from foya_desktop.ui.sessions.nodes import Node
from foya_desktop.ui.sessions.tree_model import NODE_ROLE, SESSION_ID_ROLE, SessionTreeModel

AnyIndex = QModelIndex | QPersistentModelIndex


class SessionDelegate(QStyledItemDelegate):
    """Group rows as small captions; session rows with a phase mark, pin and title.

    Signals:
        (none of its own; painting only)
    """

    def __init__(self, view: SessionTreeView) -> None:
        super().__init__(view)
        self._view = view

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        """Roomy rows: this list is clicked all day."""
        node: Node = index.data(NODE_ROLE)
        return QSize(200, 30 if node.kind == "session" else 28)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        """Selection background (from the style), then the mark and the title."""
        node: Node = index.data(NODE_ROLE)
        self.initStyleOption(option, index)
        option.text = ""
        style = self._view.style()
        style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, option, painter, self._view)
        rect: QRect = option.rect
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if node.kind == "session":
            selected = bool(option.state & QStyle.StateFlag.State_Selected)
            self._paint_session(painter, rect, node, selected)
        else:
            self._paint_group(painter, rect, node, bool(option.state & QStyle.StateFlag.State_Open))
        painter.restore()

    def _paint_group(self, painter: QPainter, rect: QRect, node: Node, expanded: bool) -> None:
        font = QFont(theme.small_font())
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(theme.dim_color() if node.kind == "recents" else theme.text_color())
        glyph = ("▾ " if expanded else "▸ ") if node.kind == "project" else ""
        area = rect.adjusted(4, 0, -4, 0)
        if node.missing:
            painter.setPen(theme.error_color())
            note = self.tr("folder missing")
            width = painter.fontMetrics().horizontalAdvance(note) + 6
            painter.drawText(area, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, note)
            area = area.adjusted(0, 0, -width, 0)
            painter.setPen(theme.dim_color())
        text = painter.fontMetrics().elidedText(glyph + node.title, Qt.TextElideMode.ElideRight, area.width())
        painter.drawText(area, Qt.AlignmentFlag.AlignVCenter, text)

    def _paint_session(self, painter: QPainter, rect: QRect, node: Node, selected: bool) -> None:
        mark = QRect(rect.left() + 4, rect.center().y() - 5, 10, 10)
        self._paint_phase(painter, mark, node.phase)
        painter.setFont(theme.small_font() if not selected else _bold(theme.small_font()))
        painter.setPen(theme.text_color())
        title = ("📌 " if node.session and node.session.pinned and theme.has_emoji_font() else
                 "★ " if node.session and node.session.pinned else "") + node.title
        area = rect.adjusted(22, 0, -24 if node.waiting else -6, 0)
        if node.worktree:  # the branch and its marks, right-aligned and dim; the title gives way
            painter.setPen(theme.dim_color())
            branch = painter.fontMetrics().elidedText(node.worktree, Qt.TextElideMode.ElideMiddle,
                                                      area.width() // 2)
            painter.drawText(area, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, branch)
            area = area.adjusted(0, 0, -painter.fontMetrics().horizontalAdvance(branch) - 6, 0)
            painter.setPen(theme.text_color())
        text = painter.fontMetrics().elidedText(title, Qt.TextElideMode.ElideRight, area.width())
        painter.drawText(area, Qt.AlignmentFlag.AlignVCenter, text)
        if node.waiting:  # NOTE: after the title: the badge leaves its white pen behind
            self._paint_waiting(painter, QRect(rect.right() - 20, rect.center().y() - 7, 14, 14))

    def _paint_waiting(self, painter: QPainter, box: QRect) -> None:
        """An orange "!" badge: a turn in this session waits for the person."""
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(theme.warning_color())
        painter.drawEllipse(box)
        painter.setPen(QColor("#1b1b1f") if theme.is_dark() else QColor("white"))  # dark: a light orange
        painter.setFont(_bold(theme.small_font()))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, "!")

    def _paint_phase(self, painter: QPainter, box: QRect, phase: Phase) -> None:
        if phase == Phase.TURN:
            pen = QPen(theme.speaker_color("omni", 0), 2)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(pen)
            painter.drawArc(box, -self._view.spin_angle * 16, 270 * 16)
        elif phase == Phase.COMPACTION:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(theme.warning_color())
            painter.drawEllipse(box.adjusted(2, 2, -2, -2))
        else:
            painter.setPen(QPen(theme.dim_color(), 1))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(box.adjusted(3, 3, -3, -3))


def _bold(font: QFont) -> QFont:
    bold = QFont(font)
    bold.setBold(True)
    return bold


class SessionTreeView(QTreeView):
    """The session tree.

    Signals:
        session_activated(str): the person selected a session.
        new_session_requested(str): "New session" on a project row (project id; "" for none).
        pin_requested(str, bool): pin or unpin a session.
        bind_requested(str, str): bind a Recents session to a project (session id, project id).
        menu_requested(QMenu, str): a session's context menu is being built (menu, session id);
            connected slots add their actions (branch, compact, delete…) before it opens.
        project_menu_requested(QMenu, str): the same for a project row (menu, project id).
    """

    session_activated = Signal(str)
    new_session_requested = Signal(str)
    pin_requested = Signal(str, bool)
    bind_requested = Signal(str, str)
    menu_requested = Signal(QMenu, str)
    project_menu_requested = Signal(QMenu, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spin_angle = 0
        self._spinner = QTimer(self, interval=80)
        self._spinner.timeout.connect(self._spin)
        self.setHeaderHidden(True)
        self.setItemDelegate(SessionDelegate(self))
        self.setIndentation(14)
        self.setRootIsDecorated(False)
        self.setExpandsOnDoubleClick(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.setDropIndicatorShown(True)
        # Opaque: painting fills the sidebar's colour itself, so a spinner frame repaints its row
        # alone, not the window and splitter behind it as well (13 times a second in a turn).
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)

    def setModel(self, model: SessionTreeModel) -> None:  # type: ignore[override]
        """Attach the tree model; keep groups expanded and the spinner in step with phases."""
        super().setModel(model)
        model.rowsInserted.connect(self._expand_new)
        model.dataChanged.connect(self._update_spinner)
        self.selectionModel().currentChanged.connect(self._on_current)
        self.clicked.connect(self._toggle_group)
        self.expandAll()

    def empty_hint(self) -> str:
        """What the empty sidebar says (a blank column looks broken; peers say "no chats yet")."""
        return self.tr("No sessions yet.\nCtrl+N starts one.")

    def paintEvent(self, event: QPaintEvent) -> None:
        """The rows; with no session at all, a quiet line under the groups that says what to do."""
        theme.fill_background(self.viewport(), event.rect(), "sidebar")
        super().paintEvent(event)
        model = self.model()
        if not isinstance(model, SessionTreeModel) or model.session_ids():
            return
        painter = QPainter(self.viewport())
        painter.setFont(theme.small_font())
        painter.setPen(theme.dim_color())
        rows = sum(self.visualRect(model.index(r, 0)).height() for r in range(model.rowCount()))
        area = self.viewport().rect().adjusted(12, rows + 12, -12, 0)
        flags = Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter | Qt.TextFlag.TextWordWrap
        painter.drawText(area, flags, self.empty_hint())
        painter.end()

    def tree(self) -> SessionTreeModel:
        """The model, typed."""
        model = self.model()
        assert isinstance(model, SessionTreeModel)
        return model

    def select_session(self, session_id: str) -> None:
        """Make ``session_id`` current (and visible)."""
        index = self.tree().index_of_session(session_id)
        if index.isValid():
            self.setCurrentIndex(index)
            self.scrollTo(index)

    def neighbour_of(self, session_id: str) -> str | None:
        """The session listed just below ``session_id`` (else just above) beside it: where the
        person lands when it is deleted, rather than on the empty Welcome page."""
        index = self.tree().index_of_session(session_id)
        if not index.isValid():
            return None
        model = index.model()
        for row in (*range(index.row() + 1, model.rowCount(index.parent())), *range(index.row() - 1, -1, -1)):
            sid = model.index(row, 0, index.parent()).data(SESSION_ID_ROLE)
            if sid:
                return str(sid)
        return None

    def current_session_id(self) -> str | None:
        """The session under the tree's cursor, if the cursor is on a session."""
        sid = self.currentIndex().data(SESSION_ID_ROLE)
        return str(sid) if sid else None

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        node: Node | None = current.data(NODE_ROLE) if current.isValid() else None
        if node is not None and node.kind == "session":
            self.session_activated.emit(node.key)

    def rowsAboutToBeRemoved(self, parent: AnyIndex, start: int, end: int) -> None:
        """A deleted session on screen leaves nothing selected until the window opens the one beside
        it (``neighbour_of``; the empty state when it was the last).

        NOTE: otherwise the selection model moves "current" to a neighbour while the rows go,
        which would silently open another session in the middle of a deletion.
        """
        current = self.currentIndex()
        while current.isValid() and current.parent() != parent:
            current = current.parent()
        if current.isValid() and start <= current.row() <= end:
            self.selectionModel().clear()
        super().rowsAboutToBeRemoved(parent, start, end)

    def _toggle_group(self, index: QModelIndex) -> None:
        """Project rows fold and unfold with a single click (there is no branch arrow)."""
        node: Node = index.data(NODE_ROLE)
        if node.kind != "session":
            self.setExpanded(index, not self.isExpanded(index))

    def _expand_new(self, parent: QModelIndex, first: int, last: int) -> None:
        for row in range(first, last + 1):
            self.expand(self.tree().index(row, 0, parent))
        if parent.isValid():
            self.expand(parent)

    def _update_spinner(self, *_args: object) -> None:
        busy = bool(self.tree().running_sessions())
        if busy and not self._spinner.isActive():
            self._spinner.start()
        elif not busy:
            self._spinner.stop()

    def _spin(self) -> None:
        """Repaint only the rows whose spinner turns (issue 14: repainting the whole tree 12.5
        times a second cost a share of the CPU while a reply streams)."""
        self.spin_angle = (self.spin_angle + 30) % 360
        tree = self.tree()
        area = self.viewport().rect()
        for session_id in tree.running_sessions():
            if tree.phase(session_id) == Phase.TURN:
                rect = self.visualRect(tree.index_of_session(session_id))
                if rect.intersects(area):
                    self.viewport().update(rect)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """Rename, pin, bind to a project, or start a session in a project."""
        node: Node | None = self.indexAt(event.pos()).data(NODE_ROLE)
        if node is None:
            return
        menu = self._menu_for(node)
        if not menu.isEmpty():
            menu.popup(event.globalPos())

    def _menu_for(self, node: Node) -> QMenu:
        menu = QMenu(self)
        if node.kind == "project":
            menu.addAction(self.tr("New session here"), lambda: self.new_session_requested.emit(node.key))
            self.project_menu_requested.emit(menu, node.key)
        if node.kind != "session" or node.session is None:
            return menu
        index = self.tree().index_of_session(node.key)
        menu.addAction(self.tr("Rename"), lambda: self.edit(index))
        pinned = node.session.pinned
        menu.addAction(self.tr("Unpin") if pinned else self.tr("Pin to top"),
                       lambda: self.pin_requested.emit(node.key, not pinned))
        if node.session.project_id is None and node.session.parent_id is None:
            target = menu.addMenu(self.tr("Move to project"))
            for project in self.tree().projects():
                target.addAction(project.name, self._binder(node.key, project.id))
            target.setEnabled(bool(self.tree().projects()))
        self.menu_requested.emit(menu, node.key)
        return menu

    def _binder(self, session_id: str, project_id: str) -> Callable[[], None]:
        return lambda: self.bind_requested.emit(session_id, project_id)

    def menu_at(self, pos: QPoint) -> QMenu | None:
        """The context menu a right-click at ``pos`` would show (tests)."""
        node: Node | None = self.indexAt(pos).data(NODE_ROLE)
        return self._menu_for(node) if node is not None else None
