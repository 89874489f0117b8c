"""What other processes wrote, told to this one: ``foya`` commands run while the window is open.

The window and ``foya`` share the database (the cross-process rules are in ``store/leases.py``:
one turn or operation per session across processes). Without this, a ``foya run --session S``
beside the window would leave the window showing S as it was, and a session created, renamed or
deleted from a terminal would not appear in the sidebar until a restart.

How it sees them, cheaply:

* **``PRAGMA data_version``** on the read connection, once a second: it changes only when
  another connection committed, so an idle app does one tiny query per second and nothing else
  (no repaint, no event).
* **The event log is the change feed.** Every durable change of a session appends to
  ``event_row`` (whose integer id only grows), so "what changed" is the events after the last
  id seen; deleted sessions leave a tombstone.
* **Its own writes are not news.** This process publishes its own changes on the bus right after
  they commit. A session this process runs a turn or operation in is skipped; a message id this
  process already published is not told again; a reload (rewind, compaction) is told only when
  this process published none for that session since the previous look. Nothing is skipped for
  a whole session because of unrelated local events, so a window that merely refreshed a
  session's status still sees the terminal's messages. (The timeline and the tree also ignore a
  message id they already show, so a rare overlap is harmless.)

What is published: ``SessionChanged`` (created, renamed, settings), ``MessageAdded`` /
``MessageUpdated`` (a turn run by ``foya run``), ``HistoryRewound`` with no text (a rewind or
compaction elsewhere: views reload), ``SessionDeletedEvent`` (a tombstone).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import peewee as pw

from foya_desktop.core.errors import FoyaError, NotFound
from foya_desktop.core.events import (
    CompactionCheckpoint,
    Event,
    HistoryRewound,
    MessageAdded,
    MessageUpdated,
    SessionChanged,
    SessionDeletedEvent,
)
from foya_desktop.core.messages import Message
from foya_desktop.core.model import Session
from foya_desktop.engine.bus import EventBus
from foya_desktop.store import sessions
from foya_desktop.store.codec import message_from_row
from foya_desktop.store.schema import MessageRow, TombstoneRow, database_proxy
from foya_desktop.store.store import Store

log = logging.getLogger(__name__)

POLL_S = 1.0
"""How often the read connection is asked whether anyone else committed."""
OWN_MESSAGES_KEPT = 20_000
"""Message ids this process published that are remembered (a long turn writes a few hundred)."""
MAX_EVENTS = 2000
"""Events read per look; a bulk import elsewhere is told as a reload, not row by row."""

MESSAGE_EVENTS = frozenset({"message_added", "message_updated"})
RELOAD_EVENTS = frozenset({"history_rewound", "compaction_checkpoint"})


@dataclass(slots=True)
class Changes:
    """What one look found: per session, the kinds of events and the messages they name."""

    version: int
    last_event: int
    last_tombstone: int
    touched: dict[str, set[str]] = field(default_factory=dict)
    messages: dict[str, list[str]] = field(default_factory=dict)
    """Per session, the ids of messages added or updated, in the order their events were written."""
    added: set[str] = field(default_factory=set)
    """Message ids that were added (not only updated) in this batch."""
    deleted: list[str] = field(default_factory=list)


def _look(version: int, last_event: int, last_tombstone: int) -> Changes | None:
    """Reader thread: ``None`` when nobody committed since ``version``, else what changed."""
    now = int(database_proxy.execute_sql("PRAGMA data_version").fetchone()[0])
    if now == version:
        return None
    changes = Changes(now, last_event, last_tombstone)
    rows = database_proxy.execute_sql(
        "SELECT id, session_id, type, payload FROM event_row WHERE id > ? ORDER BY id LIMIT ?",
        (last_event, MAX_EVENTS)).fetchall()
    for event_id, session_id, kind, payload in rows:
        changes.last_event = max(changes.last_event, int(event_id))
        changes.touched.setdefault(session_id, set()).add(kind)
        if kind in MESSAGE_EVENTS:
            with contextlib.suppress(ValueError, KeyError, TypeError):
                message_id = str(json.loads(payload)["id"])
                named = changes.messages.setdefault(session_id, [])
                if message_id not in named:
                    named.append(message_id)
                if kind == "message_added":
                    changes.added.add(message_id)
    if len(rows) == MAX_EVENTS:  # more than one look can tell: the views reload instead
        for kinds in changes.touched.values():
            kinds.add("history_rewound")
    for tomb in TombstoneRow.select().where(TombstoneRow.deleted_at > last_tombstone):
        changes.deleted.append(tomb.session_id)
        changes.last_tombstone = max(changes.last_tombstone, int(tomb.deleted_at))
    return changes


def _start_point() -> tuple[int, int, int]:
    """Reader thread: where the feed stands now (nothing before it is news)."""
    version = int(database_proxy.execute_sql("PRAGMA data_version").fetchone()[0])
    last_event = database_proxy.execute_sql("SELECT coalesce(max(id), 0) FROM event_row").fetchone()[0]
    last_tomb = TombstoneRow.select(pw.fn.coalesce(pw.fn.MAX(TombstoneRow.deleted_at), 0)).scalar()
    return version, int(last_event), int(last_tomb or 0)


def _messages(ids: list[str]) -> list[Message]:
    rows = MessageRow.select().where(MessageRow.id.in_(ids) & MessageRow.valid).order_by(MessageRow.seq)
    return [message_from_row(r) for r in rows]


class OutsideWrites:
    """Polls the database for other processes' commits and publishes them as engine events.

    ``busy_here(session_id)`` says whether this process runs something in the session (its own
    events come from its own code then). Start with :meth:`start`, stop with :meth:`stop`.
    """

    def __init__(self, store: Store, bus: EventBus, busy_here: Callable[[str], bool],
                 poll_s: float = POLL_S) -> None:
        self._store = store
        self._bus = bus
        self._busy_here = busy_here
        self._poll_s = poll_s
        self._task: asyncio.Task[None] | None = None
        self._local_reloads: set[str] = set()
        self._local_deleted: set[str] = set()
        self._last_told: dict[str, Session] = {}
        """The newest session metadata this process's listeners were told (by anyone)."""
        self._own_messages: dict[str, None] = {}
        """Ids of messages this process published (insertion-ordered, the oldest dropped past a cap)."""
        self._publishing = False
        self._unsubscribe = bus.subscribe(self._on_local)

    def _on_local(self, event: Event) -> None:
        if isinstance(event, SessionChanged):
            self._last_told[event.session_id] = event.session
        if self._publishing:
            return
        if isinstance(event, MessageAdded | MessageUpdated):
            self._own_messages[event.message.id] = None
            if len(self._own_messages) > OWN_MESSAGES_KEPT:
                del self._own_messages[next(iter(self._own_messages))]
        elif isinstance(event, HistoryRewound | CompactionCheckpoint):
            self._local_reloads.add(event.session_id)
        elif isinstance(event, SessionDeletedEvent):
            self._local_deleted.add(event.session_id)

    def start(self) -> None:
        """Begin watching (idempotent)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="foya-outside-writes")

    async def stop(self) -> None:
        """Stop watching; waits for the current look to end."""
        self._unsubscribe()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        version, last_event, last_tomb = await self._store.read(_start_point)
        while True:
            await asyncio.sleep(self._poll_s)
            reloads, self._local_reloads = self._local_reloads, set()
            try:
                changes = await self._store.read(_look, version, last_event, last_tomb)
            except FoyaError as error:  # a storage fault: say it in the log, keep the app running
                log.warning("could not look for other processes' changes: %s", error)
                continue
            if changes is None:
                continue
            version, last_event, last_tomb = changes.version, changes.last_event, changes.last_tombstone
            await self._tell(changes, reloads | self._local_reloads)

    async def _tell(self, changes: Changes, local_reloads: set[str]) -> None:
        for session_id, kinds in changes.touched.items():
            if self._busy_here(session_id) or session_id in changes.deleted:
                continue
            try:
                session = await self._store.read(sessions.get_session, session_id)
            except NotFound:
                continue
            events: list[Event] = ([] if self._last_told.get(session_id) == session
                                   else [SessionChanged(session_id, session)])
            if kinds & RELOAD_EVENTS:
                if session_id not in local_reloads:
                    events.append(HistoryRewound(session_id, "", 0, ""))
            else:
                ids = [i for i in changes.messages.get(session_id, []) if i not in self._own_messages]
                messages = await self._store.read(_messages, ids) if ids else []
                events.extend(MessageAdded(session_id, m) if m.id in changes.added
                              else MessageUpdated(session_id, m) for m in messages)
            self._publish(events)
        self._publish([SessionDeletedEvent(sid) for sid in changes.deleted if sid not in self._local_deleted])

    def _publish(self, events: list[Event]) -> None:
        self._publishing = True
        try:
            for event in events:
                self._bus.publish(event)
        finally:
            self._publishing = False
