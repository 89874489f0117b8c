"""The right-hand side of the window: one session's timeline, status, queue and composer.

The pane shows one session at a time, but engine events arrive for all of
them; each handler ignores sessions not on screen (the window keeps the
cross-session state: live streams, phases). Every kernel call is a small
named operation started on the ``TaskRunner`` so failures surface in words.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from foya_desktop.core.events import (
    HistoryRewound,
    MessageAdded,
    MessageUpdated,
    QueueChanged,
    StreamEnded,
    StreamStarted,
    TurnFinished,
    TurnStarted,
    VPStatus,
)
from foya_desktop.core.messages import Message
from foya_desktop.core.model import Connection, Phase, Session
from foya_desktop.ui import theme
from foya_desktop.ui.aio import TaskRunner
from foya_desktop.ui.attention import AttentionPanel
from foya_desktop.ui.cards.timeline_cards import TimelineCards
from foya_desktop.ui.composer.attachments import read_paths
from foya_desktop.ui.composer.composer import Composer, SentAttachment
from foya_desktop.ui.composer.queue_widget import QueueWidget
from foya_desktop.ui.composer.status_line import StatusLine
from foya_desktop.ui.debug_panel import DebugPanel
from foya_desktop.ui.dialogs.session_settings import Binder, SessionSettingsDialog, open_session_settings
from foya_desktop.ui.dialogs.usage import UsageDialog, open_usage
from foya_desktop.ui.error_text import turn_error_text
from foya_desktop.ui.images.browser import ImageBrowser
from foya_desktop.ui.kernel_api import KernelApi
from foya_desktop.ui.reading.jump import reveal_call
from foya_desktop.ui.speakers import SpeakerDirectory
from foya_desktop.ui.tasks.panel import TasksPanel
from foya_desktop.ui.timeline.activity_rows import repaint_activity_rows
from foya_desktop.ui.timeline.call_outcome import Activity
from foya_desktop.ui.timeline.live import LiveStreams
from foya_desktop.ui.timeline.model import TimelineModel
from foya_desktop.ui.timeline.render import RowRenderer
from foya_desktop.ui.timeline.thumbnails import ThumbnailCache
from foya_desktop.ui.timeline.view import TimelineView

EMPTY_SESSION_TEXT = str(QT_TRANSLATE_NOOP(
    "SessionPane", "Start the conversation.\n\n@mention a VP to address it · Enter sends · "
    "Shift+Enter adds a line · messages sent while a reply runs wait in the queue"))


class SessionPane(QWidget):
    """Timeline, status line, queue and composer of the session on screen.

    Signals:
        sent(str): a message for this session id was accepted by the kernel (sent or queued).
    """

    sent = Signal(str)

    def __init__(self, kernel: KernelApi, runner: TaskRunner, live: LiveStreams,
                 speakers: SpeakerDirectory, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._kernel, self._runner, self._live, self._speakers = kernel, runner, live, speakers
        self.session: Session | None = None
        self.thumbnails = ThumbnailCache(kernel.history.read_artifact, parent=self)
        self.renderer = RowRenderer(speakers, self.thumbnails)
        self.timeline_model = TimelineModel(theme.body_font(), self)
        self.timeline_view = TimelineView(self.renderer)
        self.timeline_view.setModel(self.timeline_model)
        self.timeline_view.placeholder = self.tr(EMPTY_SESSION_TEXT)
        self.title, self.subtitle = QLabel(), QLabel()
        self.settings_button = QPushButton(self.tr("Settings…"))
        self.settings_button.setToolTip(
            self.tr("Title, announcement, VPs, model, effort, approval and agent mode")
        )
        self.settings_dialog: SessionSettingsDialog | None = None
        self._binder: Binder | None = None
        self.usage_dialog: UsageDialog | None = None
        self.status = StatusLine(speakers)
        self.attention = AttentionPanel(speakers, kernel.asks.answer_approval)
        self.renderer.activity = self  # tool rows ask whether a call without a result still runs
        self._turns: dict[str, str] = {}
        """The turn running in each session, by session id (from the turn events)."""
        self._jump_target: int | None = None
        """Where the session scroll bar was dragged last (``_jump_loop`` goes there)."""
        self._jumping = False
        self._finding_oldest = False
        self.cards = TimelineCards(self.timeline_view, self.timeline_model, kernel, runner, speakers, self)
        self.images = ImageBrowser(self.timeline_view, self.timeline_model, kernel.history.read_artifact,
                                   self)
        self.tasks = TasksPanel(kernel, runner)
        self.debug = DebugPanel()
        self.debug.hide()
        self.queue = QueueWidget()
        self.composer = Composer()
        self.composer.add_pickers(self.status.pickers)
        self._layout()
        self._connect_signals()

    def _layout(self) -> None:
        font = theme.body_font()
        font.setPointSizeF(font.pointSizeF() + 2)
        font.setBold(True)
        self.title.setFont(font)
        self.subtitle.setEnabled(False)
        self.subtitle.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        header = QVBoxLayout()
        header.setContentsMargins(20, 10, 20, 6)
        header.setSpacing(0)
        self._title_row = QHBoxLayout()
        self._title_row.addWidget(self.title, 1)
        self._title_row.addWidget(self.settings_button)
        header.addLayout(self._title_row)
        header.addWidget(self.subtitle)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(header)
        layout.addWidget(self.timeline_view, 1)
        layout.addWidget(self.debug, 1)
        layout.addWidget(self.tasks)
        layout.addWidget(self.status)
        layout.addWidget(self.attention)
        layout.addWidget(self.queue)
        layout.addWidget(self.composer)

    def add_header_action(self, widget: QWidget) -> None:
        """Put a window-level action (the fork icon) at the right end of the title row.

        The row's layout places it, so it can never overlap the other header buttons.
        """
        self._title_row.addWidget(widget)

    def _connect_signals(self) -> None:
        self.composer.drops.install(self.timeline_view.viewport())  # drop a screenshot anywhere
        self.thumbnails.loaded.connect(lambda _sha: self.timeline_view.viewport().update())
        self.timeline_view.near_top.connect(self._fetch_older)
        self.timeline_view.jump_requested.connect(self._jump_to_seq)
        self.timeline_view.oldest_wanted.connect(self._find_oldest)
        self.timeline_view.reload_requested.connect(self._reload)
        self.composer.send_requested.connect(self.send)
        self.composer.stop_requested.connect(self._stop)
        self.composer.interrupt_requested.connect(self._interrupt)
        self.composer.files_chosen.connect(self._attach_files)
        self.queue.interrupt_requested.connect(self._interrupt)
        self.queue.move_requested.connect(lambda i, n: self._queue_op(self._kernel.queue.move, i, n))
        self.queue.edit_requested.connect(lambda i, t: self._queue_op(self._kernel.queue.edit, i, t))
        self.queue.remove_requested.connect(lambda i: self._queue_op(self._kernel.queue.remove, i))
        self.queue.resume_requested.connect(self._resume)
        self.status.connection_chosen.connect(self._choose_connection)
        self.cards.fallback_changed.connect(self.attention.set_questions)
        self.attention.show_call.connect(lambda call_id: self._runner.spawn(
            self.show_call(call_id), self.tr("Showing the call")))
        self.status.approval_chosen.connect(
            lambda mode: self._update(approval_mode=mode) if self.session else None)
        self.status.effort_chosen.connect(
            lambda effort: self._update(reasoning_effort=effort) if self.session else None)
        self.status.agent_mode_chosen.connect(
            lambda mode: self._update(agent_mode=mode) if self.session else None)
        self.status.confirm_plan.connect(
            lambda: self._plan_op(self._kernel.turns.confirm_plan, self.tr("Confirming the plan")))
        self.status.keep_planning.connect(
            lambda: self._plan_op(self._kernel.turns.keep_planning, self.tr("Back to planning")))
        self.status.stop_requested.connect(self._stop_vp)
        self.status.debug_toggled.connect(self._toggle_debug)
        self.settings_button.clicked.connect(self._open_settings)
        self.status.usage_requested.connect(self.open_usage)

    # ---- showing a session ----------------------------------------------------------------

    async def show_session(self, session: Session | None) -> None:
        """Switch to ``session`` (or to nothing): header, roster, phase, queue, then history."""
        self.session = session
        self._show_meta(session)
        self.status.clear_vp_status()
        self.tasks.show_session(session.id if session else None)
        if session is None:
            self.attention.show_session(None, has_project=False)
            await self.timeline_model.load(None, None)
            return
        self._refresh_run_state()
        self._load_debug()
        if self._kernel.turns.phase(session.id) == Phase.TURN:
            self._runner.spawn(self._catch_up(session.id), self.tr("Loading the turn's figures"))

        async def loader(before: int | None, limit: int) -> list[Message]:
            return await self._kernel.history.history_page(session.id, before_seq=before, limit=limit)

        await self.timeline_model.load(session.id, loader, lambda: self._live.of(session.id))

    def _show_meta(self, session: Session | None) -> None:
        self.settings_button.setEnabled(session is not None and session.parent_id is None)
        self.title.setText(session.title or self.tr("Untitled session") if session else "")
        folder = session.workdir if session and session.workdir else self.tr("No folder (Recents)")
        extra = f"  ·  📣 {session.announcement}" if session and session.announcement else ""
        if session is not None:
            self._speakers.set_roster(session.roster, session.default_vp)
            # the session status names who is on the roster (Yeaft Y38), default VP first
            names = ", ".join("@" + self._speakers.name(vp) for vp in self._speakers.roster)
            extra += "  ·  " + self.tr("VPs: {names}").format(names=names) if names else ""
        self.subtitle.setText(folder + extra if session else "")
        if session is not None:
            self.composer.set_mentions(self._speakers.handles(), self._speakers.name(session.default_vp))
            self.composer.folder = session.workdir or ""
            self.status.show_session(session)

    def _refresh_run_state(self) -> None:
        if self.session is None:
            return
        sid = self.session.id
        phase = self._kernel.turns.phase(sid)
        self.status.set_phase(str(phase))
        self.composer.set_busy(phase != Phase.IDLE)
        items = self._kernel.queue.items(sid)
        self.queue.set_items(items, self._kernel.queue.paused(sid))
        self.composer.set_queue(items)
        self.attention.show_session(sid, has_project=bool(self.session.project_id),
                                    approvals=self._kernel.asks.pending_approvals(sid))

    def set_connections(self, connections: list[Connection]) -> None:
        """The configured model services changed."""
        self.status.set_connections(connections)
        if self.session is not None:
            self.status.show_session(self.session)

    # ---- engine events (for every session; ignore the others) -----------------------------

    def on_session_changed(self, session: Session) -> None:
        """Metadata of some session changed."""
        if self.session is not None and session.id == self.session.id:
            self.session = session
            self._show_meta(session)

    def on_message_added(self, event: MessageAdded) -> None:
        """A stored message (the model ignores other sessions)."""
        self.timeline_model.add_message(event.message)

    def on_message_updated(self, event: MessageUpdated) -> None:
        """A stored message changed in place."""
        self.timeline_model.update_message(event.message)

    def on_stream_started(self, event: StreamStarted) -> None:
        """A VP began streaming."""
        self.timeline_model.start_stream(event)

    def on_stream_delta(self, session_id: str, message_id: str, _speaker: str, kind: str, text: str) -> None:
        """Coalesced streamed text."""
        self.timeline_model.append_delta(session_id, message_id, kind, text)

    def on_stream_ended(self, event: StreamEnded) -> None:
        """A VP's step finished streaming."""
        self.timeline_model.end_stream(event.session_id, event.message_id)

    def on_turn_started(self, event: TurnStarted) -> None:
        """A new turn: per-VP progress starts over."""
        self._turns[event.session_id] = event.turn_id
        if self._is_current(event.session_id):
            self.status.clear_vp_status()

    def on_turn_finished(self, event: TurnFinished) -> None:
        """Drop streams that will never complete; refresh run state; say why a turn failed."""
        self.timeline_model.finish_turn(event.session_id, event.turn_id)
        if self._turns.get(event.session_id) == event.turn_id:
            del self._turns[event.session_id]
        if self._is_current(event.session_id):
            repaint_activity_rows(self.timeline_view)  # open calls of the turn now read "interrupted"
            self.status.clear_vp_status()  # live figures are not kept as history (Yeaft Y46)
            self._load_debug()
            self._refresh_run_state()
            if event.status == "error":
                text = turn_error_text(event.error_code, event.error_params, event.error)
                self.status.set_error(text or self.tr("The turn failed."))

    async def _catch_up(self, session_id: str) -> None:
        """Back on a session whose turn runs: its figures so far, from the store, until live ones come.

        Only while that turn still runs here (a turn that ended meanwhile shows nothing: Y46), and
        never over a VP's live block (the event is newer than the store).
        """
        status = await self._kernel.turns.turn_status(session_id)
        if status is None or not status.running or not self._is_current(session_id) \
                or self._turns.get(session_id) != status.turn_id:
            return  # that turn ended (or another began) while the figures were read
        for speaker, f in status.vps:
            if speaker not in self.status.vp_panel.blocks:
                self.status.set_vp_status(VPStatus(session_id, status.turn_id, speaker, "running", f.requests,
                                                   f.executions, f.failures, figures=f))

    def on_vp_status(self, event: VPStatus) -> None:
        """Per-VP progress."""
        if self._is_current(event.session_id):
            self.status.set_vp_status(event)

    def on_phase_changed(self, session_id: str, phase: str) -> None:
        """Idle ↔ turn ↔ compaction."""
        if self._is_current(session_id):
            self.status.set_phase(phase)
            self.composer.set_busy(phase != Phase.IDLE)
            self.cards.refresh()  # a call without its question is "opening" only while a turn runs
            repaint_activity_rows(self.timeline_view)  # so is a tool row "running…"

    def on_queue_changed(self, event: QueueChanged) -> None:
        """A new queue snapshot."""
        if self._is_current(event.session_id):
            self.queue.set_items(event.items, self._kernel.queue.paused(event.session_id))
            self.composer.set_queue(event.items)

    def on_history_rewound(self, event: HistoryRewound) -> None:
        """The valid history shrank: reload, and the rewound words go back to the composer."""
        if self._is_current(event.session_id):
            self.composer.restore(event.text, [])
            self._reload()

    def call_activity(self, session_id: str, turn_id: str, call_id: str) -> Activity:
        """For tool rows without a result (``CallActivity``): waiting for an approval, running, or neither.

        A call runs only while its session runs that very turn; after a stop, a rejection or
        a restart it does not, whatever state the stored call still has.
        """
        if any(a.call_id == call_id for a in self._kernel.asks.pending_approvals(session_id)):
            return "approval"
        if self._kernel.turns.phase(session_id) == Phase.IDLE:
            return ""
        running = self._turns.get(session_id)
        return "running" if running is None or not turn_id or running == turn_id else ""

    async def show_call(self, call_id: str) -> bool:
        """Bring the row of tool call ``call_id`` on screen (an approval card's "Show the call")."""
        if reveal_call(self, call_id):
            return True
        if self.timeline_model.detached:  # the window was moved back in history (find, search)
            await self.show_session(self.session)
        return reveal_call(self, call_id)

    def _is_current(self, session_id: str) -> bool:
        return self.session is not None and self.session.id == session_id

    # ---- for window-level actions (narrow collaborators, see ui/ops/ports.py) -------------

    def put_back(self, session_id: str, text: str) -> None:
        """Words the person wrote earlier go back into the composer, above any draft there."""
        if not self._is_current(session_id):
            return
        box = self.composer.input
        draft = box.toPlainText()
        if text not in draft:
            box.setPlainText(text + ("\n\n" + draft if draft.strip() else ""))
        box.setFocus()
        box.moveCursor(box.textCursor().MoveOperation.End)

    def insert_above_composer(self, widget: QWidget) -> None:
        """A strip that belongs right above the composer (the sub-agent banner)."""
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        layout.insertWidget(layout.indexOf(self.composer), widget)

    # ---- actions --------------------------------------------------------------------------

    def send(self) -> None:
        """Send the composer's text (the kernel runs it now or queues it)."""
        if self.session is None:
            return
        text, attachments = self.composer.take()
        if text or attachments:
            self._runner.spawn(self._send(self.session.id, text, attachments), self.tr("Sending the message"))

    async def _send(self, session_id: str, text: str, attachments: list[SentAttachment]) -> None:
        try:
            await self._kernel.turns.send(session_id, text, attachments=attachments)
        except BaseException:
            self.composer.restore(text, attachments)
            raise
        self.timeline_view.jump_to_latest()
        self.sent.emit(session_id)

    def _stop(self, keep_queue: bool) -> None:
        if self.session is not None:
            self._runner.spawn(self._kernel.turns.stop(self.session.id, keep_queue=keep_queue),
                               self.tr("Stopping"))

    def _interrupt(self, item_id: str) -> None:
        if self.session is not None:
            self._runner.spawn(self._kernel.turns.interrupt(self.session.id, item_id),
                               self.tr("Interrupting"))

    def _queue_op(self, op: object, *args: object) -> None:
        if self.session is not None and callable(op):
            op(self.session.id, *args)

    def _resume(self) -> None:
        if self.session is not None:
            self._kernel.queue.resume(self.session.id)
            self._refresh_run_state()

    def _stop_vp(self, speaker: str) -> None:
        if self.session is not None:
            self._runner.spawn(self._kernel.turns.stop_vp(self.session.id, speaker), self.tr("Stopping"))

    def open_usage(self) -> None:
        """The usage window: this session's tokens (when one is open) and all time."""
        sid = self.session.id if self.session else None

        async def show() -> None:
            self.usage_dialog = await open_usage(self._kernel, self._runner, sid, self)
        self._runner.spawn(show(), self.tr("Opening token usage"))

    def set_binder(self, binder: Binder) -> None:
        """The window's one binding flow (picker + irreversible confirmation), for the settings dialog."""
        self._binder = binder

    def _open_settings(self) -> None:
        if self.session is None:
            return
        session = self.session

        async def show() -> None:
            self.settings_dialog = await open_session_settings(self._kernel, self._runner, session, self,
                                                               self._binder)
        self._runner.spawn(show(), self.tr("Opening session settings"))

    def _toggle_debug(self, shown: bool) -> None:
        self.debug.setVisible(shown)
        self._load_debug()

    def _load_debug(self) -> None:
        if self.session is None or not self.debug.isVisible():
            return
        sid = self.session.id

        async def load() -> None:
            traces = await self._kernel.turns.debug_traces(sid)
            if self._is_current(sid):
                self.debug.set_traces(traces)
        self._runner.spawn(load(), self.tr("Loading debug traces"))

    def _plan_op(self, op: Callable[[str], Coroutine[Any, Any, object]], what: str) -> None:
        if self.session is not None:
            self._runner.spawn(op(self.session.id), what)

    def _choose_connection(self, name: str, model: str) -> None:
        if self.session is not None:
            self._update(connection=name, model=model)

    def _update(self, **changes: object) -> None:
        assert self.session is not None
        self._runner.spawn(
            self._kernel.sessions.update_session(self.session.id, **changes), self.tr("Saving the setting")
        )

    def _fetch_older(self) -> None:
        if not self.timeline_model.loading:
            self._runner.spawn(self.timeline_model.fetch_older(), self.tr("Loading older messages"))

    def _jump_to_seq(self, seq: int) -> None:
        """The session scroll bar was dragged: one jump at a time, always to the latest target."""
        self._jump_target = seq
        if not self._jumping:
            self._jumping = True
            self._runner.spawn(self._jump_loop(), self.tr("Showing that part of the session"))

    async def _jump_loop(self) -> None:
        try:
            while self._jump_target is not None:
                seq, self._jump_target = self._jump_target, None
                row = await self.timeline_model.jump_to(seq)
                if row is not None:
                    self.timeline_view.show_row_at_top(row)
        finally:
            self._jumping = False

    def _find_oldest(self) -> None:
        if not self._finding_oldest:
            self._finding_oldest = True
            self._runner.spawn(self._oldest(), self.tr("Showing that part of the session"))

    async def _oldest(self) -> None:
        try:
            await self.timeline_model.find_oldest_seq()
        finally:
            self._finding_oldest = False
        self.timeline_view.sync_session_bar()

    def _reload(self) -> None:
        self._runner.spawn(self.show_session(self.session), self.tr("Loading the newest messages"))

    def _attach_files(self, paths: list[str]) -> None:
        self._runner.spawn(self._read_files(paths), self.tr("Attaching files"))

    async def _read_files(self, paths: list[str]) -> None:
        self.composer.add_intake(await read_paths(paths))
