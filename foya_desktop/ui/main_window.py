"""The main window: session tree | session pane, menus, toolbar, and all the wiring.

Every signal connection of the window lives in ``_connect_signals()`` (one
place to read how events flow), which ends by releasing the bridge: events
published while the window was being built are delivered then, in order.
Nothing built here connects itself to the bridge or to another part of the
window; each part is handed only the collaborators it uses.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import QMainWindow, QSplitter, QStackedWidget, QToolBar, QVBoxLayout, QWidget

from foya_desktop.core.events import (
    ApprovalResolved,
    Event,
    Notice,
    QuestionAnswered,
    QuestionClosed,
    SessionChanged,
)
from foya_desktop.core.model import ApprovalMode, Session
from foya_desktop.engine.connections.discovery import Offer
from foya_desktop.store.preferences import PreferencesFile
from foya_desktop.ui import i18n, theme
from foya_desktop.ui.aio import TaskRunner, run_dialog
from foya_desktop.ui.bridge import EngineBridge
from foya_desktop.ui.cards.memory_notice import MemoryNotices
from foya_desktop.ui.dialogs.connections import ConnectionsDialog
from foya_desktop.ui.dialogs.mcp_servers import McpServersDialog
from foya_desktop.ui.dialogs.new_session import NewSessionDialog, NewSessionValues
from foya_desktop.ui.dialogs.preferences import PreferencesDialog
from foya_desktop.ui.dialogs.vp_library import VPLibraryDialog
from foya_desktop.ui.error_text import notice_text
from foya_desktop.ui.first_run import FirstRunOffers
from foya_desktop.ui.icons import app_icon, icon
from foya_desktop.ui.kernel_api import KernelApi
from foya_desktop.ui.keyboard import KeyboardActions
from foya_desktop.ui.lifecycle import QuitController, bring_to_front
from foya_desktop.ui.look import Look
from foya_desktop.ui.ops.flows import SessionFlows
from foya_desktop.ui.ops.reply_actions import ReplyActions
from foya_desktop.ui.ops.session_actions import SessionActions
from foya_desktop.ui.ops.transfer import SessionTransfer
from foya_desktop.ui.ops.worktree_actions import WorktreeActions
from foya_desktop.ui.picker.dialog import choose_folder
from foya_desktop.ui.prefs import PreferencesState
from foya_desktop.ui.projects.actions import ProjectActions, default_workdir
from foya_desktop.ui.projects.broad import confirm_broad
from foya_desktop.ui.reading.actions import FindActions
from foya_desktop.ui.reading.jump import reveal_call
from foya_desktop.ui.reading.message_actions import MessageActions
from foya_desktop.ui.reading.outline import OutlineActions
from foya_desktop.ui.reading.selection import TextSelection
from foya_desktop.ui.session_pane import SessionPane
from foya_desktop.ui.sessions.tree_model import SessionTreeModel
from foya_desktop.ui.sessions.tree_view import SessionTreeView
from foya_desktop.ui.speakers import SpeakerDirectory
from foya_desktop.ui.timeline.activity_rows import repaint_activity_rows
from foya_desktop.ui.timeline.live import LiveStreams
from foya_desktop.ui.tray.agent import TrayAgent, WindowWatcher
from foya_desktop.ui.welcome import WelcomePage
from foya_desktop.ui.window_state import WindowMemory


class MainWindow(QMainWindow):
    """Foya's window.

    Signals:
        session_shown(str): the pane finished loading a session (id); tests wait on it.
    """

    session_shown = Signal(str)
    language_changed = Signal(str)
    """The person chose another language in Preferences (the window host rebuilds the window)."""

    def __init__(self, kernel: KernelApi, bridge: EngineBridge, *, use_tray: bool | None = None,
                 preferences: PreferencesFile | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kernel, self.bridge = kernel, bridge
        self.prefs = PreferencesState(preferences, self)  # the one owner of preferences (None: in memory)
        theme.apply_theme(self.prefs.current.theme)  # before any widget takes its colours
        self.runner = TaskRunner(self)
        self.live = LiveStreams()
        self.speakers = SpeakerDirectory()
        self.tree_model = SessionTreeModel(self)
        self.tree_view = SessionTreeView()
        self.tree_view.setModel(self.tree_model)
        self.pane = SessionPane(kernel, self.runner, self.live, self.speakers)
        self.memory_notices = MemoryNotices(kernel, self.runner, self.speakers)
        self.welcome = WelcomePage()
        self.first_run = FirstRunOffers()  # connections found on this computer (ui/first_run.py)
        self.first_run.hide()
        self.welcome.add_offers(self.first_run)
        self._offers_searched = False
        self._showing: str | None = None
        """The session last asked for (``show_session``); a slower earlier switch gives way to it."""
        self.stack = QStackedWidget()
        self.quit_controller = QuitController(kernel, self.tree_model.session_ids, self.runner, self,
                                              use_tray=use_tray, preferences=self.prefs)
        self.preferences_dialog: PreferencesDialog | None = None
        self.tray_agent = TrayAgent(self.quit_controller, kernel, self.tree_model.session_ids,
                                    self._session_title, self.session_in_view, self.prefs.load, self,
                                    self.runner)
        self.mcp_dialog: McpServersDialog | None = None
        self._mcp_offered: set[str] = set()
        """The open MCP servers panel (tests drive it)."""
        self._actions = self._make_actions()
        self.session_actions = self._make_session_actions()  # branch, rewind, delete, compact (ui/ops)
        self._build()
        self._connect_signals()
        # issue 11's parts wire themselves to the views they extend (none touches the bridge)
        self.project_actions = ProjectActions(self)  # new project, bind once, manage (ui/projects)
        self.worktree_actions = WorktreeActions(self)  # branch marks, Merge back… (ui/ops)
        self.pane.set_binder(self.project_actions.bind_to_folder)  # the settings dialog binds the same way
        self.find_actions = FindActions(self)  # Ctrl+F, search all sessions (ui/reading)
        self.message_actions = MessageActions(self)  # quote, edit as new (ui/reading)
        self.reply_actions = ReplyActions(self)  # Retry / Continue under a failed or cut reply (ui/ops)
        self.outline_actions = OutlineActions(self)  # history outline beside the timeline (ui/reading)
        self.text_selection = TextSelection(self, self.message_actions)  # select text in a message
        self.transfer = SessionTransfer(self.kernel, self.runner, self.tree_view, self.statusBar(), self)
        self.transfer.attach(self.file_menu, self._actions["close"], self.pane)  # export / import (ui/ops)
        self.tree_view.menu_requested.connect(self.transfer.tree_actions)
        self.look = Look(self, self)  # theme: the person's choice or the system's, live (ui/look)
        self.memory = WindowMemory(self, self.splitter, self.prefs)  # geometry, splitter, last session
        self.keyboard = KeyboardActions(self, self, self.file_menu, self.preferences_flow)  # ui/keyboard
        self.memory.restore()
        self.session_shown.connect(self.memory.remember_session)
        self.quit_controller.finished.connect(self.memory.save)

    def _make_session_actions(self) -> SessionActions:
        pane, tree = self.pane, self.tree_model
        flows = SessionFlows(self.kernel, tree, self.tree_view, pane, self.statusBar(), self)
        return SessionActions(flows, self.kernel, self.runner, tree, self.tree_view, pane,
                              pane.timeline_model, pane.composer, self)

    def _open_usage(self) -> None:
        """File → Token usage…: the same window as the status line's usage icon."""
        self.pane.open_usage()

    def _make_actions(self) -> dict[str, QAction]:
        specs: dict[str, tuple[str, QKeySequence, str]] = {
            "new": (self.tr("New session"), QKeySequence(QKeySequence.StandardKey.New), "new"),
            "connections": (self.tr("Connections…"), QKeySequence(), "connections"),
            "vps": (self.tr("VPs…"), QKeySequence("Ctrl+Shift+V"), "vps"),
            "mcp": (self.tr("MCP servers…"), QKeySequence(), ""),
            "usage": (self.tr("Token usage…"), QKeySequence(), "usage"),
            "close": (self.tr("Close window"), QKeySequence(QKeySequence.StandardKey.Close), ""),
            "quit": (self.tr("Quit"), QKeySequence(QKeySequence.StandardKey.Quit), "")}
        actions = {}
        for name, (text, shortcut, glyph) in specs.items():
            action = QAction(text, self)
            action.setShortcut(shortcut)
            if glyph:
                action.setIcon(icon(glyph))
            action.setToolTip(_tip(text, shortcut))
            actions[name] = action
        return actions

    def _build(self) -> None:
        self.setWindowIcon(app_icon())
        self.setWindowTitle(self.tr("Foya"))
        self.resize(1200, 800)
        self.stack.addWidget(self.welcome)
        self.stack.addWidget(self.pane)
        self.tree_view.setObjectName("sessionTree")
        self.splitter = splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.tree_view)
        splitter.addWidget(self.stack)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([260, 940])
        splitter.setChildrenCollapsible(False)
        splitter.setHandleWidth(1)
        central = QWidget()  # memory notices above the sessions (ui/cards/memory_notice.py)
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.memory_notices)
        column.addWidget(splitter, 1)
        self.setCentralWidget(central)
        self.file_menu = menu = self.menuBar().addMenu(self.tr("&File"))
        for name in ("new", "connections", "vps", "mcp", "usage"):
            menu.addAction(self._actions[name])
        menu.addSeparator()
        menu.addAction(self._actions["close"])
        menu.addAction(self._actions["quit"])
        self.menuBar().addMenu(self.session_actions.session_menu)
        self.tree_view.addAction(self.session_actions.delete_action)
        self.pane.insert_above_composer(self.session_actions.banner)
        self.session_actions.attach_fork_button(self.pane.add_header_action)
        self.toolbar = toolbar = QToolBar(self.tr("Main"))
        toolbar.setObjectName("mainToolbar")
        toolbar.setMovable(False)
        toolbar.setIconSize(QSize(18, 18))
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        toolbar.addAction(self._actions["new"])
        toolbar.addAction(self._actions["connections"])
        toolbar.addAction(self._actions["vps"])
        self.addToolBar(toolbar)
        self.statusBar().setSizeGripEnabled(False)

    def _connect_signals(self) -> None:
        """Every connection of the window, then ``release()``: buffered events arrive wired."""
        self._connect_bridge()
        self._connect_views()
        self.bridge.release()

    def _connect_bridge(self) -> None:
        """Engine events to their handlers: one typed bridge signal per event kind."""
        b, pane, live, ops = self.bridge, self.pane, self.live, self.session_actions
        # sessions
        b.session_changed.connect(self._on_session_changed)
        b.session_changed.connect(ops.refresh_banner)
        b.session_deleted.connect(self._on_session_deleted)
        b.phase_changed.connect(self.tree_model.set_phase)
        b.phase_changed.connect(pane.on_phase_changed)
        b.phase_changed.connect(ops.refresh_banner)  # Qt drops the arguments it does not take
        b.history_rewound.connect(pane.on_history_rewound)
        b.compaction_checkpoint.connect(ops.on_compaction_checkpoint)
        b.memory_changed.connect(ops.on_memory_changed)
        b.memory_changed.connect(self.memory_notices.on_memory_changed)
        # messages and streams
        b.message_added.connect(live.message_added)
        b.message_added.connect(pane.on_message_added)
        b.message_updated.connect(pane.on_message_updated)
        b.stream_started.connect(live.start)
        b.stream_started.connect(pane.on_stream_started)
        b.stream_delta.connect(live.delta)
        b.stream_delta.connect(pane.on_stream_delta)
        b.stream_ended.connect(live.end)
        b.stream_ended.connect(pane.on_stream_ended)
        # turns and the queue
        b.turn_started.connect(pane.on_turn_started)
        b.turn_finished.connect(live.turn_finished)
        b.turn_finished.connect(pane.on_turn_finished)
        b.vp_status.connect(pane.on_vp_status)
        b.queue_changed.connect(pane.on_queue_changed)
        b.notice.connect(self._on_notice)
        # what waits for the person: cards in the pane, a mark in the tree
        b.approval_requested.connect(pane.attention.on_approval_requested)
        b.approval_resolved.connect(pane.attention.on_approval_resolved)
        for asked in (b.approval_requested, b.approval_resolved):  # tool rows say "waiting for approval"
            asked.connect(lambda _event: repaint_activity_rows(pane.timeline_view))
        b.question_asked.connect(pane.cards.book.on_asked)
        b.question_answered.connect(pane.cards.book.on_answered)
        b.question_closed.connect(pane.cards.book.on_closed)
        for waiting in (b.approval_requested, b.approval_resolved, b.question_asked,
                        b.question_answered, b.question_closed):
            waiting.connect(self._on_waiting_changed)
        b.task_changed.connect(pane.tasks.on_task_changed)
        # the tray: icon state, menu, notifications (ui/tray/agent.py)
        tray = self.tray_agent
        b.phase_changed.connect(tray.on_phase_changed)
        b.turn_finished.connect(tray.on_turn_finished)
        b.approval_requested.connect(tray.on_approval_requested)
        b.question_asked.connect(tray.on_question_asked)
        for settled in (b.approval_resolved, b.question_answered, b.question_closed):
            settled.connect(tray.on_settled)
        b.session_deleted.connect(tray.on_session_deleted)

    def _connect_views(self) -> None:
        """The window's own parts to each other: tree, pane, session operations, menus."""
        pane, ops = self.pane, self.session_actions
        # the session tree
        self.tree_view.session_activated.connect(self.open_session)
        self.tree_view.new_session_requested.connect(self._new_session_in_project)
        self.tree_view.pin_requested.connect(lambda sid, pin: self._update(sid, pinned=pin))
        self.tree_view.menu_requested.connect(ops.tree_actions)
        self.tree_model.rename_requested.connect(lambda sid, title: self._update(sid, title=title))
        self.tree_model.project_missing.connect(lambda _pid: self.runner.spawn(self._load_projects()))
        # session operations in the pane
        pane.timeline_view.menu_requested.connect(ops.timeline_actions)
        pane.timeline_model.modelReset.connect(ops.on_timeline_reset)
        ops.banner.open_requested.connect(self.tree_view.select_session)
        # welcome page, menus, lifecycle
        self.welcome.new_session_requested.connect(self._actions["new"].trigger)
        self.welcome.open_folder_requested.connect(
            lambda: self.runner.spawn(self.open_folder_flow(), self.tr("Open a folder")))
        self.welcome.connections_requested.connect(self._actions["connections"].trigger)
        self.first_run.chosen.connect(lambda offer: self.runner.spawn(
            self.use_offer(offer), self.tr("Creating the connection")))
        self._actions["new"].triggered.connect(
            lambda: self.runner.spawn(self.new_session_flow(), self.tr("New session")))
        self._actions["connections"].triggered.connect(
            lambda: self.runner.spawn(self.connections_flow(), self.tr("Connections")))
        self._actions["usage"].triggered.connect(self._open_usage)
        self._actions["vps"].triggered.connect(lambda: self.runner.spawn(self.vps_flow(), self.tr("VPs")))
        self._actions["mcp"].triggered.connect(
            lambda: self.runner.spawn(self.mcp_flow(), self.tr("MCP servers")))
        self._actions["close"].triggered.connect(self.close)
        self._actions["quit"].triggered.connect(self.quit_controller.request_quit)
        self.quit_controller.progress.connect(self.statusBar().showMessage)
        self.tray_agent.open_requested.connect(lambda sid, target, token: self.runner.spawn(
            self.open_at(sid, target, token), self.tr("Opening the session")))
        self.tray_agent.show_requested.connect(self.quit_controller.show_window)
        self.tray_agent.new_session_requested.connect(self.quit_controller.show_window)
        self.tray_agent.new_session_requested.connect(self._actions["new"].trigger)
        self.session_shown.connect(self._maybe_seen)
        self._window_watcher = WindowWatcher(self.tray_agent, self.current_session_id, self)
        self.runner.failed.connect(lambda text: self.statusBar().showMessage("⚠ " + text, 15000))

    # ---- start-up and sessions ------------------------------------------------------------

    async def start(self) -> None:
        """Fill the tree and open the most recent session; from now on "ask" asks this window."""
        self.kernel.asks.set_interactive(True)
        projects, sessions, vps, _ = await asyncio.gather(
            self.kernel.projects.list_projects(), self.kernel.sessions.list_sessions(),
            self.kernel.vps.list_vps(), self.refresh_connections())
        self.speakers.set_vps(vps)
        for project in projects:
            self.tree_model.upsert_project(project)
        for session in sessions:
            self.tree_model.upsert_session(session)
        self.tree_view.expandAll()
        latest = max(sessions, key=lambda s: (s.updated_at, s.created_at), default=None)
        last = next((s for s in sessions if s.id == self.memory.last_session()), None)
        latest = last or latest  # the session open when the window closed, else the newest
        if latest is not None:
            self.tree_view.select_session(latest.id)
        else:
            await self.show_session(None)

    def open_session(self, session_id: str) -> None:
        """Show a session picked in the tree."""
        session = self.tree_model.session(session_id)
        if session is not None and self._showing != session_id:
            self._showing = session_id
            self.runner.spawn(self._show(session), self.tr("Opening the session"))

    async def show_session(self, session: Session | None) -> None:
        """Switch the pane (or the welcome page) to ``session``."""
        self._showing = session.id if session is not None else None
        await self._show(session)

    async def _show(self, session: Session | None) -> None:
        """NOTE: the last switch asked for wins. Reading the VPs awaits; a click on another
        session meanwhile must not be overtaken by this one (the pane, its composer
        placeholder and the tree selection then named different sessions)."""
        wanted = session.id if session is not None else None
        if self._showing != wanted:
            return
        self.stack.setCurrentWidget(self.pane if session is not None else self.welcome)
        if session is not None and any(self.speakers.vp(v) is None for v in session.roster):
            vps = await self.kernel.vps.list_vps()  # a VP added since start-up
            if self._showing != wanted:
                return
            self.speakers.set_vps(vps)
        self.setWindowTitle(self._title_for(session) if session else self.tr("Foya"))
        await self.pane.show_session(session)
        if session is not None:
            self.pane.status.set_waiting(self._waiting_speakers(session.id))
            self.session_shown.emit(session.id)
            if session.project_id and session.project_id not in self._mcp_offered:
                self._mcp_offered.add(session.project_id)
                self.runner.spawn(self._offer_mcp_trust(session.project_id), self.tr("MCP servers"))

    async def _offer_mcp_trust(self, project_id: str) -> None:
        """Once per project and run: project MCP servers waiting for trust open the panel's prompt."""
        rows = await self.kernel.mcp.overview(project_id)
        waiting = any(r.scope == "project" and r.trust in ("untrusted", "changed") for r in rows)
        current = self.pane.session
        if waiting and self.mcp_dialog is None and current is not None and current.project_id == project_id:
            await self.mcp_flow(ask_trust=True)

    def current_session_id(self) -> str | None:
        """The session on screen (None on the welcome page)."""
        return self.pane.session.id if self.pane.session is not None else None

    def session_in_view(self, session_id: str) -> bool:
        """Whether the person is looking at ``session_id``: the window shown, not minimised, active."""
        return (self.isVisible() and not self.isMinimized() and self.isActiveWindow()
                and self.current_session_id() == session_id)

    async def open_at(self, session_id: str, target: str = "", activation_token: str = "") -> None:
        """Bring the window to the front with ``session_id`` open at the approval or question ``target``
        (``activation_token``: the desktop's, for the notification click that asked)."""
        self.quit_controller.show_window(activation_token)
        if self.current_session_id() != session_id:
            if self.tree_model.session(session_id) is None:
                return
            shown: asyncio.Future[None] = asyncio.get_running_loop().create_future()

            def on_shown(sid: str) -> None:
                if sid == session_id and not shown.done():
                    shown.set_result(None)

            self.session_shown.connect(on_shown)
            try:
                self.tree_view.select_session(session_id)  # the tree opens it (open_session)
                await asyncio.wait_for(shown, 10)
            finally:
                self.session_shown.disconnect(on_shown)
        calls = {r.request_id: r.call_id for r in self.kernel.asks.pending_approvals(session_id)}
        calls.update({q.question_id: q.call_id for q in self.kernel.asks.pending_questions(session_id)})
        call_id = calls.get(target)
        if call_id:
            reveal_call(self.pane, call_id)
        self.tray_agent.seen(session_id)

    def _maybe_seen(self, session_id: str) -> None:
        if self.session_in_view(session_id):
            self.tray_agent.seen(session_id)

    def handle_launch(self, folder: str = "", activation_token: str = "") -> None:
        """Another launch of Foya handed over (single instance): come to the front — also from the
        tray or minimised — and a folder gets a new session there."""
        if not self.quit_controller.quitting:
            bring_to_front(self, activation_token)
        if folder:
            self.runner.spawn(self.start_in_folder(folder), self.tr("New session"))

    async def open_folder_flow(self) -> Session | None:
        """The welcome page's "Open a folder…": pick a folder, then a session there (as ``foya PATH``)."""
        folder = await choose_folder(self, start=default_workdir(), default_dir=default_workdir(),
                                     title=self.tr("Open a project folder"),
                                     confirm_text=self.tr("Start a session here"))
        return await self.start_in_folder(folder) if folder else None

    async def start_in_folder(self, folder: str) -> Session | None:
        """Create a session bound to ``folder`` with the Preferences' defaults, and open it
        (after a confirmation when the folder is broad; ``None`` when the person cancelled)."""
        p = self.prefs.current
        allow_broad = await confirm_broad(self.kernel, self, folder)
        if allow_broad is None:
            return None
        session = await self.kernel.sessions.create_session(
            workdir=folder, connection=p.default_connection,
            model=p.default_model if p.default_connection else "",
            approval_mode=_approval_mode(p.default_approval), allow_broad=allow_broad)
        await self._load_projects()
        self.tree_model.upsert_session(session)
        self.tree_view.select_session(session.id)
        self.pane.composer.input.setFocus()
        return session

    def _session_title(self, session_id: str) -> str:
        session = self.tree_model.session(session_id)
        return session.title if session is not None else ""

    def _on_session_changed(self, event: SessionChanged) -> None:
        self.tree_model.upsert_session(event.session)
        self.pane.on_session_changed(event.session)
        if self.pane.session is not None and self.pane.session.id == event.session.id:
            self.setWindowTitle(self._title_for(event.session))

    def _title_for(self, session: Session) -> str:
        return self.tr("{title} — Foya").format(title=session.title or self.tr("Untitled session"))

    def _on_session_deleted(self, session_id: str) -> None:
        shown = self.pane.session is not None and self.pane.session.id == session_id
        neighbour = self.tree_view.neighbour_of(session_id) if shown else None
        self.tree_model.remove_session(session_id)
        self.live.drop_session(session_id)
        if neighbour is not None:
            self.tree_view.select_session(neighbour)  # the session beside it opens, as in a list
        elif shown:
            self.runner.spawn(self.show_session(None))

    def _on_waiting_changed(self, event: Event) -> None:
        """Sessions waiting for the person get a mark in the tree, even when not on screen."""
        sid = event.session_id
        # NOTE: an answered question (or resolved approval) is still listed as pending while
        # its event is delivered; leave it out, or the badge outlives the answer.
        done = _settled_id(event)
        waiting = self._waiting_speakers(sid, done)
        self.tree_model.set_waiting(sid, bool(waiting))
        if self.pane.session is not None and self.pane.session.id == sid:
            self.pane.status.set_waiting(waiting)

    def _waiting_speakers(self, session_id: str, settled: str | None = None) -> set[str]:
        """The VPs whose approval or question waits for the person in ``session_id``."""
        asks = self.kernel.asks
        return {a.speaker for a in asks.pending_approvals(session_id) if a.request_id != settled} | {
            q.speaker for q in asks.pending_questions(session_id) if q.question_id != settled}

    def _on_notice(self, notice: Notice) -> None:
        mark = {"error": "✗ ", "warning": "⚠ "}.get(notice.level, "")
        self.statusBar().showMessage(mark + notice_text(notice.code, notice.params, notice.text), 15000)

    async def _load_projects(self) -> None:
        for project in await self.kernel.projects.list_projects():
            self.tree_model.upsert_project(project)

    async def refresh_connections(self) -> None:
        """Reload model services into the status line."""
        connections = await self.kernel.connections.list_connections()
        self.pane.set_connections(connections)
        # Keyring backend discovery (D-Bus, entry points) runs on a worker thread, never on the GUI's.
        problem = await asyncio.to_thread(self.kernel.connections.keyring_problem)
        self.welcome.set_has_connections(bool(connections), problem)
        self.first_run.setVisible(not connections)
        if not connections and not self._offers_searched:
            self._offers_searched = True
            self.first_run.searching()
            self.runner.spawn(self.find_offers(), self.tr("Looking for model services"))

    async def find_offers(self) -> None:
        """First run: what can be set up in one click (keys in the environment, local servers)."""
        self.first_run.set_offers(await self.kernel.connections.offers())

    async def use_offer(self, offer: Offer) -> None:
        """Create the offered connection (an environment key by reference) and make it the default."""
        await self.kernel.connections.add_connection(offer.connection)
        if not self.prefs.current.default_connection:
            self.prefs.update(default_connection=offer.connection.name)
        await self.refresh_connections()
        self.statusBar().showMessage(self.tr("Connection “{name}” created.").format(
            name=offer.connection.name), 15000)

    def _update(self, session_id: str, **changes: object) -> None:
        self.runner.spawn(self.kernel.sessions.update_session(session_id, **changes),
                          self.tr("Saving the session"))

    # ---- dialogs --------------------------------------------------------------------------

    def _new_session_in_project(self, project_id: str) -> None:
        path = next((p.path for p in self.tree_model.projects() if p.id == project_id), "")
        self.runner.spawn(self.new_session_flow(path), self.tr("New session"))

    async def new_session_flow(self, folder: str = "") -> Session | None:
        """Ask for settings, create the session, and open it."""
        vps, projects, connections = await asyncio.gather(
            self.kernel.vps.list_vps(), self.kernel.projects.list_projects(),
            self.kernel.connections.list_connections())
        self.speakers.set_vps(vps)
        dialog = NewSessionDialog(vps, projects, connections, folder, self, create=self._create_session,
                                  probe=self.kernel.worktrees.branches)
        preferred = dialog.connection.findData(self.prefs.current.default_connection)
        if self.prefs.current.default_connection and preferred >= 0:
            dialog.connection.setCurrentIndex(preferred)  # Preferences → New sessions → Model service
        if await run_dialog(dialog) != NewSessionDialog.DialogCode.Accepted or dialog.created is None:
            return None
        session = dialog.created
        self.tree_model.upsert_session(session)
        self.tree_view.select_session(session.id)
        self.pane.composer.input.setFocus()
        return session

    async def _create_session(self, v: NewSessionValues) -> Session | None:
        """Create the session; Preferences' defaults fill in the model and the approval mode.
        A broad folder is confirmed first (``None``: cancelled, the dialog stays open)."""
        allow_broad = await confirm_broad(self.kernel, self, v.workdir) if v.workdir else False
        if allow_broad is None:
            return None
        p = self.prefs.current
        model = p.default_model if p.default_model and v.connection == p.default_connection else v.model
        approval = _approval_mode(p.default_approval)
        if v.worktree and v.workdir:
            return await self.kernel.worktrees.create_session(
                workdir=v.workdir, title=v.title, branch=v.branch, roster=v.roster, default_vp=v.default_vp,
                connection=v.connection, model=model, approval_mode=approval, allow_broad=allow_broad)
        return await self.kernel.sessions.create_session(
            title=v.title, workdir=v.workdir, roster=v.roster, default_vp=v.default_vp,
            connection=v.connection, model=model, approval_mode=approval, allow_broad=allow_broad)

    async def preferences_flow(self) -> None:
        """Edit the preferences; they are saved and applied when the person presses OK."""
        connections = await self.kernel.connections.list_connections()
        folder = self.prefs.file.path.parent if self.prefs.file is not None else None
        dialog = PreferencesDialog(self.prefs.current, connections, folder, self)
        self.preferences_dialog = dialog
        try:
            if await run_dialog(dialog) == PreferencesDialog.DialogCode.Accepted:
                new = self.prefs.replace(dialog.values())
                if self.prefs.problem:
                    self.statusBar().showMessage("⚠ " + self.prefs.problem, 15000)
                if i18n.resolve(new.language) != i18n.active():
                    self.language_changed.emit(new.language)  # applied at once (ui/window_host.py)
        finally:
            self.preferences_dialog = None
            dialog.deleteLater()

    async def vps_flow(self) -> None:
        """Create, edit, duplicate and delete VPs; the composer's @completion refreshes afterwards."""
        dialog = VPLibraryDialog(self.kernel, self)
        dialog.follow(self.bridge.catalog_changed, self.runner)
        dialog.new_button.clicked.connect(dialog.start_new)
        spawn = self.runner.spawn
        dialog.save_button.clicked.connect(lambda: spawn(dialog.save(), self.tr("Saving the VP")))
        dialog.duplicate_button.clicked.connect(lambda: spawn(dialog.duplicate(), self.tr("Duplicating")))
        dialog.delete_button.clicked.connect(lambda: spawn(dialog.delete(), self.tr("Deleting the VP")))
        dialog.agent_file_button.clicked.connect(lambda: spawn(dialog.add_agent_file(),
                                                               self.tr("Adding an agent file")))
        await dialog.refresh()
        try:
            await run_dialog(dialog)
        finally:
            dialog.deleteLater()

    async def mcp_flow(self, *, ask_trust: bool = False) -> None:
        """Open the MCP servers panel for the open session's project (user-level servers alone
        without one); with ``ask_trust`` it opens with the trust prompt. Returns once it is open
        (the panel is window-modal; nothing waits for it to close)."""
        if self.mcp_dialog is not None:
            self.mcp_dialog.raise_()
            return
        session = self.pane.session
        project_id = session.project_id if session is not None else None
        name = ""
        if project_id is not None:
            projects = await self.kernel.projects.list_projects()
            name = next((p.name for p in projects if p.id == project_id), "")
        dialog = McpServersDialog(self.kernel, self.runner, project_id, name, self)
        self.mcp_dialog = dialog

        def closed() -> None:
            self.mcp_dialog = None
            dialog.deleteLater()

        dialog.finished.connect(closed)
        await dialog.refresh()
        dialog.open()
        if ask_trust:
            QTimer.singleShot(0, dialog.ask_trust)

    async def connections_flow(self) -> None:
        """Manage model services; the status line refreshes afterwards."""
        dialog = ConnectionsDialog(self.kernel, self.runner, self)
        dialog.follow(self.bridge.catalog_changed)
        await dialog.refresh()
        try:
            await run_dialog(dialog)
        finally:
            dialog.deleteLater()  # it follows the engine's events while it lives
        await self.refresh_connections()

    def closeEvent(self, event: QCloseEvent) -> None:
        """Hide to the tray, or quit once running turns have finished (see lifecycle.py)."""
        self.memory.save()  # geometry and splitter, before the window is hidden
        if self.quit_controller.window_closing():
            event.ignore()
        else:
            event.accept()


def _approval_mode(value: str) -> ApprovalMode:
    """Preferences.default_approval as a mode ("" or an unknown value: ask before acting)."""
    try:
        return ApprovalMode(value) if value else ApprovalMode.ASK
    except ValueError:
        return ApprovalMode.ASK


def _tip(text: str, shortcut: QKeySequence) -> str:
    """A toolbar tooltip: the action's name and, when it has one, its shortcut."""
    name = text.rstrip("…").replace("&", "")
    keys = shortcut.toString(QKeySequence.SequenceFormat.NativeText)
    return f"{name} ({keys})" if keys else name


def _settled_id(event: Event) -> str | None:
    """The question or approval an event settles, if any."""
    if isinstance(event, (QuestionAnswered, QuestionClosed)):
        return event.question_id
    return event.request_id if isinstance(event, ApprovalResolved) else None
