"""Where the session operations live in the window: context menus, the Del key, a Session menu.

A person coming from Claude Code, Cursor or Cherry Studio looks for these in
three places: right-click on a message (branch from here, rewind to here,
copy), right-click on a session in the sidebar (rename, pin, branch, compact,
delete), and the menu bar. The views only announce that a menu is being
built (``menu_requested``); this object adds the actions that make sense at
that spot and runs the flows (``flows.py``) as named tasks.

It is handed the few pieces it uses (``ports.py``), never the window, and it
connects nothing outside itself: the window's ``_connect_signals()`` wires the
views' and the bridge's signals to its slots, before the bridge is released.

It also keeps two pieces of pane state that follow from the session tree:
compaction markers (loaded whenever the timeline opens a session, added live)
and the sub-agent strip (read-only child sessions, running sub-agents).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QToolButton, QWidget

from foya_desktop.core.events import CompactionCheckpoint, MemoryChanged
from foya_desktop.core.messages import Message, MessageStatus
from foya_desktop.core.model import Phase, Session
from foya_desktop.ui.aio import TaskRunner
from foya_desktop.ui.composer.composer import Composer
from foya_desktop.ui.dialogs.memory import MemoryDialog
from foya_desktop.ui.icons import fork_icon
from foya_desktop.ui.kernel_api import KernelApi
from foya_desktop.ui.ops.boundaries import rewind_refusal, row_boundary, row_messages, valid_boundaries
from foya_desktop.ui.ops.child_banner import READ_ONLY_PLACEHOLDER, SubAgentBanner
from foya_desktop.ui.ops.flows import SessionFlows
from foya_desktop.ui.ops.ports import SessionSelector, ShownSession
from foya_desktop.ui.sessions.tree_model import SessionTreeModel
from foya_desktop.ui.timeline.model import TimelineModel
from foya_desktop.ui.timeline.rows import CheckpointRow, MessageRow

BRANCH_HERE = str(QT_TRANSLATE_NOOP("SessionActions", "Branch from here"))
REWIND_HERE = str(QT_TRANSLATE_NOOP("SessionActions", "Rewind to here…"))
BRANCH_LATEST = str(QT_TRANSLATE_NOOP("SessionActions", "Branch from latest reply"))
MERGE_WITH = str(QT_TRANSLATE_NOOP("SessionActions", "Merge with…"))
ROSTER = str(QT_TRANSLATE_NOOP("SessionActions", "Roster and default VP…"))
FORK_SESSION = str(QT_TRANSLATE_NOOP("SessionActions", "Fork session"))
FORK_TURN = str(QT_TRANSLATE_NOOP("SessionActions", "Fork from this turn"))
COMPACT_NOW = str(QT_TRANSLATE_NOOP("SessionActions", "Compact now"))
DELETE = str(QT_TRANSLATE_NOOP("SessionActions", "Delete…"))
SHOW_SUMMARY = str(QT_TRANSLATE_NOOP("SessionActions", "Show the summary…"))
MEMORY = str(QT_TRANSLATE_NOOP("SessionActions", "Memory…"))


class SessionActions(QObject):
    """Session operations wired into the window's menus, keys and pane.

    Signals:
        (none; operations run as named tasks on the window's ``TaskRunner``)
    """

    def __init__(self, flows: SessionFlows, kernel: KernelApi, runner: TaskRunner, tree: SessionTreeModel,
                 selector: SessionSelector, shown: ShownSession, timeline: TimelineModel,
                 composer: Composer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.flows = flows
        self._kernel, self._runner, self._tree, self._selector = kernel, runner, tree, selector
        self._shown, self._timeline, self._composer = shown, timeline, composer
        self.memory_dialog: MemoryDialog | None = None
        """The Memory window opened last (tests look at it)."""
        self.banner = SubAgentBanner()
        """The sub-agent strip; the window places it above the composer."""
        self.delete_action = QAction(self.tr("Delete session…"), self)
        """Del / Ctrl+Backspace on the session tree; the window adds it to the tree view."""
        self.delete_action.setShortcuts([QKeySequence(Qt.Key.Key_Delete),
                                         QKeySequence(Qt.Modifier.CTRL | Qt.Key.Key_Backspace)])
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.session_menu = QMenu(self.tr("&Session"), parent)
        """The menu bar's Session menu; the window adds it to its menu bar."""
        self.delete_action.triggered.connect(self._delete_current)
        self.session_menu.aboutToShow.connect(self._fill_session_menu)
        self.fork_button = QToolButton()
        """The fork icon at the top right of the conversation (see ``attach_fork_button``)."""
        self.fork_button.setText(self.tr("Fork"))
        self.fork_button.setIcon(fork_icon())
        self.fork_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.fork_button.setToolTip(self.tr("Fork this session: a copy with the same history and settings "
                                    "opens; this one goes on unchanged (also while it is replying)."))
        self.fork_button.setAutoRaise(True)
        self.fork_button.clicked.connect(self._fork_current)

    # ---- the timeline's context menu -----------------------------------------------------------

    def timeline_actions(self, menu: QMenu, row_number: int) -> None:
        """The timeline builds a context menu on row ``row_number``: branch, rewind, summary."""
        session = self._shown.session
        model = self._timeline
        if session is None or not 0 <= row_number < model.rowCount():
            return
        row = model.row_at(row_number)
        actions: list[QAction] = []
        if isinstance(row, MessageRow):
            after = row_boundary(row, valid_boundaries(self._window_messages()))
            if after is not None:
                actions.append(self._action(menu, self.tr(BRANCH_HERE), lambda: self._runner.spawn(
                    self.flows.branch(session.id, after), self.tr("Branching"))))
            if self._forkable_turn(session, row.message):
                turn_message = row.message.id
                actions.append(self._action(menu, self.tr(FORK_TURN), lambda: self._runner.spawn(
                    self.flows.fork(session.id, turn_message), self.tr("Forking"))))
            if row.message.role == "user":
                actions.append(self._rewind_action(menu, session, row.message))
        elif isinstance(row, CheckpointRow):
            summary, automatic = row.summary, row.automatic
            actions.append(self._action(menu, self.tr(SHOW_SUMMARY), lambda: self._runner.spawn(
                self.flows.show_summary(summary, automatic), self.tr("Showing the summary"))))
        existing = menu.actions()
        if actions and existing:  # ours first, then "Copy text"
            menu.insertActions(existing[0], actions)
            menu.insertSeparator(existing[0])
        elif actions:
            menu.addActions(actions)

    def _forkable_turn(self, session: Session, message: Message) -> bool:
        """Offered under a completed reply with a turn id, never on the turn that is generating."""
        if session.parent_id is not None or message.role != "assistant" or not message.turn_id:
            return False
        if message.status != MessageStatus.COMPLETE or message.tool_calls:
            return False
        if self._kernel.turns.phase(session.id) == Phase.IDLE:
            return True
        users = [m for m in self._window_messages() if m.role == "user"]
        return not users or users[-1].turn_id != message.turn_id

    def _rewind_action(self, menu: QMenu, session: Session, message: Message) -> QAction:
        refusal = rewind_refusal(message, self._kernel.turns.phase(session.id), session.parent_id is not None)
        action = self._action(menu, self.tr(REWIND_HERE), lambda: self._runner.spawn(
            self.flows.rewind(session.id, message.id), self.tr("Rewinding")))
        if refusal is not None:
            action.setText(f"{self.tr(REWIND_HERE)}  ({refusal})")
            action.setEnabled(False)
        return action

    @staticmethod
    def _action(menu: QMenu, text: str, slot: Callable[[], object]) -> QAction:
        action = QAction(text, menu)
        action.triggered.connect(lambda _checked=False: slot())
        return action

    def _window_messages(self) -> list[Message]:
        model = self._timeline
        rows = (model.row_at(i) for i in range(model.rowCount()))
        return [m for r in rows if isinstance(r, MessageRow) for m in row_messages(r)]

    # ---- the session tree's context menu, the Session menu and the Del key ----------------------

    def tree_actions(self, menu: QMenu, session_id: str) -> None:
        """The session tree builds a context menu on a session: branch, compact, delete."""
        session = self._tree.session(session_id)
        if session is None:
            return
        menu.addSeparator()
        self._add_session_actions(menu, session)

    def _add_session_actions(self, menu: QMenu, session: Session) -> None:
        sid = session.id
        if session.parent_id is None:
            fork = menu.addAction(
                self.tr(FORK_SESSION), lambda: self._runner.spawn(self.flows.fork(sid), self.tr("Forking"))
            )
            if self._kernel.lifecycle.fork_in_progress(sid):
                fork.setText(self.tr("{action}  (a fork is being made)").format(action=self.tr(FORK_SESSION)))
                fork.setEnabled(False)
        if session.parent_id is None:
            self._merge_menu(menu, session)
            menu.addAction(
                self.tr(ROSTER), lambda: self._runner.spawn(self.flows.edit_roster(sid), self.tr("Roster"))
            )
            menu.addAction(self.tr(MEMORY),
                           lambda: self._runner.spawn(self.open_memory(sid), self.tr("Memory")))
        menu.addAction(self.tr(BRANCH_LATEST), lambda: self._runner.spawn(self.flows.branch_latest(sid),
                                                                   self.tr("Branching")))
        if session.parent_id is None:
            compact = menu.addAction(self.tr(COMPACT_NOW), lambda: self._runner.spawn(self.flows.compact(sid),
                                                                              self.tr("Compacting")))
            if self._tree.phase(sid) != Phase.IDLE:
                compact.setText(self.tr("{action}  (wait for the reply to finish)").format(
                    action=self.tr(COMPACT_NOW)))
                compact.setEnabled(False)
        menu.addSeparator()
        delete = menu.addAction(
            self.tr(DELETE), lambda: self._runner.spawn(self.flows.delete(sid), self.tr("Deleting"))
        )
        delete.setShortcut(QKeySequence(Qt.Key.Key_Delete))  # shown as a hint; the tree owns the key

    async def open_memory(self, session_id: str) -> MemoryDialog:
        """The Memory window for ``session_id`` (every scope, ``ui/dialogs/memory.py``); returns once open."""
        session = self._tree.session(session_id) or await self._kernel.sessions.get_session(session_id)
        titles = {s.id: s.title for s in await self._kernel.sessions.list_sessions()}
        parent = self.parent()
        dialog = MemoryDialog(self._kernel, self._runner, session, await self._kernel.vps.list_vps(), titles,
                              parent if isinstance(parent, QWidget) else None)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.memory_dialog = dialog
        await dialog.refresh()
        dialog.open()
        return dialog

    def _merge_menu(self, menu: QMenu, session: Session) -> None:
        """"Merge with…" → every other top-level session; the flow previews before merging."""
        sub = menu.addMenu(self.tr(MERGE_WITH))
        others = [s for s in self._tree.sessions() if s.id != session.id and s.parent_id is None]
        for other in others:
            sub.addAction(other.title or other.id, self._merge_slot(session.id, other.id))
        if not others:
            sub.addAction(self.tr("No other session")).setEnabled(False)

    def _merge_slot(self, a_id: str, b_id: str) -> Callable[[], None]:
        def run() -> None:
            self._runner.spawn(self.flows.merge(a_id, b_id), self.tr("Merging"))
        return run

    def _fill_session_menu(self) -> None:
        menu = self.session_menu
        menu.clear()
        session = self._shown.session
        if session is None:
            menu.addAction(self.tr("No session open")).setEnabled(False)
            return
        self._add_session_actions(menu, self._tree.session(session.id) or session)

    # ---- the fork icon ---------------------------------------------------------------------------

    def attach_fork_button(self, add_to_header: Callable[[QWidget], None]) -> None:
        """Hand the fork icon to the conversation header (``SessionPane.add_header_action``)."""
        add_to_header(self.fork_button)
        self.place_fork_button()

    def place_fork_button(self) -> None:
        """Show and enable the icon for the session on screen (hidden for child sessions)."""
        session = self._shown.session
        self.fork_button.setVisible(session is not None and session.parent_id is None)
        self.fork_button.setEnabled(session is not None
                                    and not self._kernel.lifecycle.fork_in_progress(session.id))

    def _fork_current(self) -> None:
        session = self._shown.session
        if session is not None and not self._kernel.lifecycle.fork_in_progress(session.id):
            self.fork_button.setEnabled(False)
            self._runner.spawn(self._fork_and_restore(session.id), self.tr("Forking"))

    async def _fork_and_restore(self, session_id: str) -> None:
        try:
            await self.flows.fork(session_id)
        finally:
            self.place_fork_button()

    def _delete_current(self) -> None:
        sid = self._selector.current_session_id()
        if sid:
            self._runner.spawn(self.flows.delete(sid), self.tr("Deleting"))

    # ---- pane state: compaction markers and the sub-agent strip -------------------------------

    def on_timeline_reset(self) -> None:
        """The timeline (re)opened a session: fetch its checkpoints; sub-agent state may differ."""
        sid = self._timeline.session_id
        self.refresh_banner()
        self.place_fork_button()
        if sid is not None:
            self._runner.spawn(self._load_checkpoints(sid), self.tr("Loading compaction markers"))

    async def _load_checkpoints(self, session_id: str) -> None:
        checkpoints = await self._kernel.lifecycle.checkpoints(session_id)
        self._timeline.set_checkpoints(session_id, checkpoints)

    def on_memory_changed(self, _event: MemoryChanged) -> None:
        """A memory entry changed (a VP's save, the CLI, an undo): the open Memory window re-reads."""
        dialog = self.memory_dialog
        try:
            visible = dialog is not None and dialog.isVisible()
        except RuntimeError:  # its C++ side was deleted on close
            self.memory_dialog = None
            return
        if visible and dialog is not None:
            self._runner.spawn(dialog.refresh(), self.tr("Memory"))

    def on_compaction_checkpoint(self, event: CompactionCheckpoint) -> None:
        """A checkpoint was written: its marker appears (if the session is on screen)."""
        self._timeline.add_checkpoint(event.checkpoint)

    def refresh_banner(self) -> None:
        """Child session on screen: read-only, say so. Parent: list its running sub-agents."""
        shown = self._shown.session
        tree = self._tree
        session = (tree.session(shown.id) or shown) if shown is not None else None
        if session is None:
            self.banner.clear()
            return
        read_only = session.parent_id is not None
        composer = self._composer
        composer.setEnabled(not read_only)
        if read_only:
            parent = tree.session(session.parent_id or "")
            composer.input.setPlaceholderText(
                QCoreApplication.translate("ChildBanner", READ_ONLY_PLACEHOLDER)
            )
            running = tree.phase(session.id) != Phase.IDLE
            self.banner.show_child(session, parent.title if parent else "", running)
            return
        index = tree.index_of_session(session.id)
        nodes = tree.node(index).walk()[1:] if index.isValid() else []
        self.banner.show_running([n.session for n in nodes
                                  if n.session is not None and n.phase != Phase.IDLE])
