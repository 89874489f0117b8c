"""A session's FIFO queue and its pause rule: messages sent while the session is busy.

The queue lives in memory only (it is not restored after a restart). Every
change publishes a full ``QueueChanged`` snapshot. "Stop, keep queue" pauses
it: queued items wait until the person resumes or sends again. The session
owner (``owner.py``) decides when the next item goes; this module only keeps
the items and the rules for editing them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import QueueChanged
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.records import QueueItem
from foya_desktop.engine.bus import EventBus

Attachment = tuple[str, bytes]
"""(mime type, bytes) of an image attached to a message."""


@dataclass(frozen=True, slots=True)
class Queued:
    """A queued message taken off the queue, with its attachments."""

    item: QueueItem
    attachments: tuple[Attachment, ...]


class SessionQueue:
    """The queued messages of one session, with snapshot events and the pause flag."""

    def __init__(self, session_id: str, bus: EventBus, changed: Callable[[], None]) -> None:
        self.session_id = session_id
        self._bus = bus
        self._changed = changed
        self._items: list[QueueItem] = []
        self._attachments: dict[str, tuple[Attachment, ...]] = {}
        self._paused = False

    @property
    def items(self) -> tuple[QueueItem, ...]:
        """The queue as it is now, first to go first."""
        return tuple(self._items)

    @property
    def paused(self) -> bool:
        """After "stop, keep queue": queued items wait until resumed."""
        return self._paused

    def pause(self) -> None:
        """Hold queued items back until :meth:`resume`."""
        self._paused = True
        self._changed()

    def resume(self) -> None:
        """Let queued items go again (the owner dispatches the next one)."""
        self._paused = False
        self._changed()

    def __len__(self) -> int:
        return len(self._items)

    def push(self, text: str, attachments: tuple[Attachment, ...]) -> QueueItem:
        """Append a message to the queue."""
        item = QueueItem(new_id("que"), text, now_ms())
        self._items.append(item)
        if attachments:
            self._attachments[item.id] = attachments
        self._snapshot()
        return item

    def pop(self) -> Queued | None:
        """Take the first item."""
        if not self._items:
            return None
        item = self._items.pop(0)
        self._snapshot()
        return Queued(item, self._attachments.pop(item.id, ()))

    def put_back(self, taken: Queued) -> None:
        """Return an item taken by :meth:`pop` to the head of the queue (it could not start)."""
        self._items.insert(0, taken.item)
        if taken.attachments:
            self._attachments[taken.item.id] = taken.attachments
        self._snapshot()

    def move(self, item_id: str, index: int) -> None:
        """Move an item to ``index`` (clamped)."""
        item = self._find(item_id)
        self._items.remove(item)
        self._items.insert(max(0, min(index, len(self._items))), item)
        self._snapshot()

    def edit(self, item_id: str, text: str) -> None:
        """Replace an item's text (keeps its place and id)."""
        item = self._find(item_id)
        if not text.strip() and item.id not in self._attachments:
            raise InvalidOperation("A queued message cannot be empty; remove it instead.")
        self._items[self._items.index(item)] = QueueItem(item.id, text, item.created_at)
        self._snapshot()

    def remove(self, item_id: str) -> None:
        """Drop an item."""
        self._items.remove(self._find(item_id))
        self._attachments.pop(item_id, None)
        self._snapshot()

    def clear(self, *, announce: bool = True) -> None:
        """Drop every item (a deleted session's queue goes silently)."""
        self._items.clear()
        self._attachments.clear()
        if announce:
            self._snapshot()
        else:
            self._changed()

    def _snapshot(self) -> None:
        self._bus.publish(QueueChanged(self.session_id, tuple(self._items)))
        self._changed()

    def _find(self, item_id: str) -> QueueItem:
        for item in self._items:
            if item.id == item_id:
                return item
        raise InvalidOperation(f"No queued message {item_id} (it may have been sent already).")
