"""Engine events → Qt signals, in order, with streaming deltas coalesced.

The bridge is the only UI object that listens to the engine bus. It exists
before the main window (the kernel may publish while the window is being
built), so it buffers every event until ``release()`` is called at the end of
the window's ``_connect_signals()``; nothing is lost and nothing arrives
half-wired.

Streaming deltas arrive per token (hundreds per second across parallel VPs).
Repainting per token costs far more than the text is worth, so deltas are
merged per stream and kind and flushed at most ~60 times a second. Any other
event first flushes pending deltas, so a ``StreamEnded`` never overtakes the
text that preceded it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from foya_desktop.core.events import (
    Event,
    MessageAdded,
    MessageUpdated,
    Notice,
    PartDelta,
    PhaseChanged,
    QueueChanged,
    SessionChanged,
    SessionDeletedEvent,
    StreamEnded,
    StreamStarted,
    TurnFinished,
    TurnStarted,
    VPStatus,
)
from foya_desktop.ui.kernel_api import BusLike

FLUSH_INTERVAL_MS = 16
"""≈ 60 Hz: the most often streamed text is handed to the views."""


class EngineBridge(QObject):
    """Subscribes to the engine bus and re-emits events as Qt signals.

    Signals:
        session_changed(SessionChanged): metadata created or updated.
        session_deleted(str): a session id that is gone.
        message_added(MessageAdded): a stored message entered the history.
        message_updated(MessageUpdated): a stored message changed in place.
        stream_started(StreamStarted): a VP began a model step.
        stream_delta(str, str, str, str, str): session id, stream id, speaker, kind and the
            text accumulated since the last flush (kind: text | reasoning | tool_args).
        stream_ended(StreamEnded): a model step finished streaming.
        phase_changed(str, str): session id and its new phase.
        queue_changed(QueueChanged): a full snapshot of a session's queue.
        turn_started(TurnStarted): a turn began.
        turn_finished(TurnFinished): a turn ended (completed, stopped or error).
        vp_status(VPStatus): per-VP progress within a turn.
        notice(Notice): a plain-words message for the person.
        other_event(Event): any other engine event (approvals, questions, tasks, branches…),
            delivered in order, for views that need it.
    """

    session_changed = Signal(object)
    session_deleted = Signal(str)
    message_added = Signal(object)
    message_updated = Signal(object)
    stream_started = Signal(object)
    stream_delta = Signal(str, str, str, str, str)
    stream_ended = Signal(object)
    phase_changed = Signal(str, str)
    queue_changed = Signal(object)
    turn_started = Signal(object)
    turn_finished = Signal(object)
    vp_status = Signal(object)
    notice = Signal(object)
    other_event = Signal(object)

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
        for (session_id, stream_id, speaker, kind), pieces in pending.items():
            self.stream_delta.emit(session_id, stream_id, speaker, kind, "".join(pieces))

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
        if emit is not None:
            emit(event)
        else:
            self.other_event.emit(event)

    def _queue_delta(self, event: PartDelta) -> None:
        key = (event.session_id, event.stream_id, event.speaker, event.kind)
        self._pending.setdefault(key, []).append(event.text)
        if not self._timer.isActive() and self._buffer is None:
            self._timer.start()

    def _build_emitters(self) -> dict[type[Event], Callable[[Event], None]]:
        def phase(e: Event) -> None:
            assert isinstance(e, PhaseChanged)
            self.phase_changed.emit(e.session_id, str(e.phase))

        return {
            SessionChanged: self.session_changed.emit,
            SessionDeletedEvent: lambda e: self.session_deleted.emit(e.session_id),
            MessageAdded: self.message_added.emit,
            MessageUpdated: self.message_updated.emit,
            StreamStarted: self.stream_started.emit,
            StreamEnded: self.stream_ended.emit,
            PhaseChanged: phase,
            QueueChanged: self.queue_changed.emit,
            TurnStarted: self.turn_started.emit,
            TurnFinished: self.turn_finished.emit,
            VPStatus: self.vp_status.emit,
            Notice: self.notice.emit,
        }
