"""Engine events → Qt signals, in order, with streaming deltas coalesced.

The bridge is the only UI object that listens to the engine bus. It exists
before the main window (the kernel may publish while the window is being
built), so it buffers every event until ``release()`` is called at the end of
the window's ``_connect_signals()``; nothing is lost and nothing arrives
half-wired.

Streaming deltas arrive per token (hundreds per second across parallel VPs).
Repainting per token costs far more than the text is worth, so deltas are
merged per stream and kind and flushed at most ~30 times a second (the view paints a
streaming row at most that often anyway; at ~60 the extra flushes were a fifth of the window's
streaming CPU, issue 14: 1.8–1.9× → 1.4–1.55× of headless). Any other
event first flushes pending deltas, so a ``StreamEnded`` never overtakes the
text that preceded it.

Every event kind has its own signal carrying its own type, so a view connects
to exactly what it handles and nothing downstream sorts events with
``isinstance``. An event kind without a signal is a programming error: it is
logged and dropped (and ``tests/ui/test_bridge.py`` fails for it).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from foya_desktop.core.events import (
    ApprovalRequested,
    ApprovalResolved,
    CatalogChanged,
    CompactionCheckpoint,
    Event,
    HistoryRewound,
    MemoryChanged,
    MessageAdded,
    MessageUpdated,
    Notice,
    PartDelta,
    PhaseChanged,
    QuestionAnswered,
    QuestionAsked,
    QuestionClosed,
    QueueChanged,
    SessionBranched,
    SessionChanged,
    SessionDeletedEvent,
    StreamEnded,
    StreamStarted,
    TaskChanged,
    TurnFinished,
    TurnStarted,
    VPStatus,
)
from foya_desktop.ui.kernel_api import BusLike

log = logging.getLogger(__name__)

FLUSH_INTERVAL_MS = 33
"""≈ 30 Hz: the most often streamed text is handed to the views (``timeline.view.STREAM_REPAINT_MS``)."""


class EngineBridge(QObject):
    """Subscribes to the engine bus and re-emits each event kind on its own typed signal.

    Signals:
        session_changed(SessionChanged): metadata created or updated.
        session_deleted(str): a session id that is gone.
        message_added(MessageAdded): a stored message entered the history.
        message_updated(MessageUpdated): a stored message changed in place.
        stream_started(StreamStarted): a VP began a model step.
        stream_delta(str, str, str, str, str): session id, message id, speaker, kind and the
            text accumulated since the last flush (kind: text | reasoning | tool_args).
        stream_ended(StreamEnded): a model step finished streaming.
        phase_changed(str, str): session id and its new phase.
        queue_changed(QueueChanged): a full snapshot of a session's queue.
        turn_started(TurnStarted): a turn began.
        turn_finished(TurnFinished): a turn ended (completed, stopped or error).
        vp_status(VPStatus): per-VP progress within a turn.
        notice(Notice): a plain-words message for the person.
        memory_changed(MemoryChanged): a memory entry was saved, edited or removed.
        catalog_changed(CatalogChanged): a VP or a connection was saved or removed.
        approval_requested(ApprovalRequested): a tool call waits for the person's decision.
        approval_resolved(ApprovalResolved): a pending approval was answered or dropped.
        question_asked(QuestionAsked): a VP asks the person something.
        question_answered(QuestionAnswered): the engine accepted an answer.
        question_closed(QuestionClosed): a question can no longer be answered.
        task_changed(TaskChanged): a background task record was created or changed.
        session_branched(SessionBranched): a session was branched from another.
        history_rewound(HistoryRewound): the valid history of a session shrank.
        compaction_checkpoint(CompactionCheckpoint): a compaction checkpoint was written.
    """

    session_changed = Signal(SessionChanged)
    session_deleted = Signal(str)
    message_added = Signal(MessageAdded)
    message_updated = Signal(MessageUpdated)
    stream_started = Signal(StreamStarted)
    stream_delta = Signal(str, str, str, str, str)
    stream_ended = Signal(StreamEnded)
    phase_changed = Signal(str, str)
    queue_changed = Signal(QueueChanged)
    turn_started = Signal(TurnStarted)
    turn_finished = Signal(TurnFinished)
    vp_status = Signal(VPStatus)
    notice = Signal(Notice)
    approval_requested = Signal(ApprovalRequested)
    approval_resolved = Signal(ApprovalResolved)
    question_asked = Signal(QuestionAsked)
    question_answered = Signal(QuestionAnswered)
    question_closed = Signal(QuestionClosed)
    task_changed = Signal(TaskChanged)
    session_branched = Signal(SessionBranched)
    history_rewound = Signal(HistoryRewound)
    compaction_checkpoint = Signal(CompactionCheckpoint)
    memory_changed = Signal(MemoryChanged)
    catalog_changed = Signal(CatalogChanged)

    def __init__(self, bus: BusLike, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._buffer: list[Event] | None = []
        # (session, stream, speaker, kind) → pieces, in arrival order (dicts keep insertion order).
        self._pending: dict[tuple[str, str, str, str], list[str]] = {}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FLUSH_INTERVAL_MS)
        self._timer.timeout.connect(self.flush_deltas)
        self._emitters = self._build_emitters()
        self._unsubscribe: Callable[[], None] | None = bus.subscribe(self._on_event)

    @property
    def buffering(self) -> bool:
        """True until ``release()``: events are held back for the window."""
        return self._buffer is not None

    def release(self) -> None:
        """Deliver everything buffered so far and go live. Call once, after wiring."""
        buffered, self._buffer = self._buffer or [], None
        for event in buffered:
            self._dispatch(event)
        self.flush_deltas()

    def close(self) -> None:
        """Stop listening to the bus (the kernel may outlive the window)."""
        self._timer.stop()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def flush_deltas(self) -> None:
        """Emit all pending streamed text now, merged per stream and kind."""
        self._timer.stop()
        pending, self._pending = self._pending, {}
        for (session_id, message_id, speaker, kind), pieces in pending.items():
            self.stream_delta.emit(session_id, message_id, speaker, kind, "".join(pieces))

    def handles(self, kind: type[Event]) -> bool:
        """Whether ``kind`` has a signal (``PartDelta`` goes to ``stream_delta``)."""
        return kind is PartDelta or kind in self._emitters

    def _on_event(self, event: Event) -> None:
        if self._buffer is not None:
            self._buffer.append(event)
        else:
            self._dispatch(event)

    def _dispatch(self, event: Event) -> None:
        if isinstance(event, PartDelta):
            self._queue_delta(event)
            return
        if self._pending:
            self.flush_deltas()
        emit = self._emitters.get(type(event))
        if emit is None:
            log.error("no bridge signal for %s; add one to ui/bridge.py", type(event).__name__)
            return
        emit(event)

    def _queue_delta(self, event: PartDelta) -> None:
        key = (event.session_id, event.message_id, event.speaker, event.kind)
        self._pending.setdefault(key, []).append(event.text)
        if not self._timer.isActive() and self._buffer is None:
            self._timer.start()

    def _build_emitters(self) -> dict[type[Event], Callable[[Any], None]]:
        """Event kind → what emits it; one line per kind, one signal per line."""
        return {
            SessionChanged: self.session_changed.emit,
            SessionDeletedEvent: lambda e: self.session_deleted.emit(e.session_id),
            MessageAdded: self.message_added.emit,
            MessageUpdated: self.message_updated.emit,
            StreamStarted: self.stream_started.emit,
            StreamEnded: self.stream_ended.emit,
            PhaseChanged: lambda e: self.phase_changed.emit(e.session_id, str(e.phase)),
            QueueChanged: self.queue_changed.emit,
            TurnStarted: self.turn_started.emit,
            TurnFinished: self.turn_finished.emit,
            VPStatus: self.vp_status.emit,
            Notice: self.notice.emit,
            ApprovalRequested: self.approval_requested.emit,
            ApprovalResolved: self.approval_resolved.emit,
            QuestionAsked: self.question_asked.emit,
            QuestionAnswered: self.question_answered.emit,
            QuestionClosed: self.question_closed.emit,
            TaskChanged: self.task_changed.emit,
            SessionBranched: self.session_branched.emit,
            HistoryRewound: self.history_rewound.emit,
            CompactionCheckpoint: self.compaction_checkpoint.emit,
            MemoryChanged: self.memory_changed.emit,
            CatalogChanged: self.catalog_changed.emit,
        }
