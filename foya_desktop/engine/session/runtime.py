"""Per-session scheduling: one turn at a time, a FIFO queue, stop and interrupt.

The queue lives in memory only (it is not restored after a restart). Every
change publishes a full ``QueueChanged`` snapshot.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import QueueChanged, QueueItem
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.model import Phase
from foya_desktop.engine.bus import EventBus

Attachment = tuple[str, bytes]


@dataclass
class SessionRuntime:
    """In-memory state of one session: phase, running turn, queue."""

    session_id: str
    phase: Phase = Phase.IDLE
    task: asyncio.Task[None] | None = None
    queue: list[QueueItem] = field(default_factory=list)
    attachments: dict[str, tuple[Attachment, ...]] = field(default_factory=dict)
    paused: bool = False
    """After "stop, keep queue": queued items wait until resumed."""
    vp_tasks: dict[str, asyncio.Task[str]] = field(default_factory=dict)
    """The running turn's per-VP runs by speaker (one VP can be stopped alone)."""

    @property
    def busy(self) -> bool:
        """A turn (or compaction) is running."""
        return self.task is not None and not self.task.done()


class QueueOps:
    """Queue edits with snapshot events."""

    def __init__(self, bus: EventBus) -> None:
        self._bus = bus

    def snapshot(self, rt: SessionRuntime) -> None:
        """Publish the queue as it is now."""
        self._bus.publish(QueueChanged(rt.session_id, tuple(rt.queue)))

    def push(self, rt: SessionRuntime, text: str, attachments: tuple[Attachment, ...]) -> QueueItem:
        """Append a message to the queue."""
        item = QueueItem(new_id("que"), text, now_ms())
        rt.queue.append(item)
        if attachments:
            rt.attachments[item.id] = attachments
        self.snapshot(rt)
        return item

    def pop(self, rt: SessionRuntime) -> tuple[QueueItem, tuple[Attachment, ...]] | None:
        """Take the first item."""
        if not rt.queue:
            return None
        item = rt.queue.pop(0)
        self.snapshot(rt)
        return item, rt.attachments.pop(item.id, ())

    def move(self, rt: SessionRuntime, item_id: str, index: int) -> None:
        """Move an item to ``index`` (clamped)."""
        item = self._find(rt, item_id)
        rt.queue.remove(item)
        rt.queue.insert(max(0, min(index, len(rt.queue))), item)
        self.snapshot(rt)

    def edit(self, rt: SessionRuntime, item_id: str, text: str) -> None:
        """Replace an item's text (keeps its place and id)."""
        item = self._find(rt, item_id)
        if not text.strip() and item.id not in rt.attachments:
            raise InvalidOperation("A queued message cannot be empty; remove it instead.")
        rt.queue[rt.queue.index(item)] = QueueItem(item.id, text, item.created_at)
        self.snapshot(rt)

    def remove(self, rt: SessionRuntime, item_id: str) -> None:
        """Drop an item."""
        rt.queue.remove(self._find(rt, item_id))
        rt.attachments.pop(item_id, None)
        self.snapshot(rt)

    def clear(self, rt: SessionRuntime) -> None:
        """Drop every item."""
        rt.queue.clear()
        rt.attachments.clear()
        self.snapshot(rt)

    @staticmethod
    def _find(rt: SessionRuntime, item_id: str) -> QueueItem:
        for item in rt.queue:
            if item.id == item_id:
                return item
        raise InvalidOperation(f"No queued message {item_id} (it may have been sent already).")
