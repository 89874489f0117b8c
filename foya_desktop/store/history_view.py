"""A session's history as it is read: the messages it inherits, then its own (copy-on-write).

Why: a branch or fork used to copy every message of its source, so making one from a
50,000-message session cost a hundred times a 500-message one (issue 14). Now the new
session records a *base* — the session whose valid messages up to ``base_seq`` begin its
history (``SessionRow.base_session_id`` / ``base_seq``, schema 9) — and stores only what it
adds; its own seqs continue after ``base_seq``. A base may have a base in turn, so a view is
a short chain of :class:`Segment`\\ s, newest first: the session's own rows, then its base's
rows in ``(base's base_seq, base_seq]``, and so on.

Every read of a session's messages goes through a :class:`View`: ``sql()`` for plain SQL,
``rows()`` and ``count()`` for reads segment by segment (each an index range; a page of the
newest rows never sorts the whole history), and ``decode()``, which presents an inherited row
as the reading session's message — its session id, no provider signatures (Y26: a branch
continues from rebuildable text), attachments that could not be read at fork time marked (Y19). A session
without a base reads exactly as before (one segment, the same query plans).

Writes stay on stored rows. Inherited rows belong to finished turns (the boundary's own turn is
always copied, ``ops_copy``), so nothing updates them. When the session storing them is about to
lose rows that others inherit — it is rewound, or deleted — :func:`hand_over` first moves those
rows (same ids, same seqs) to the dependant that inherits the most and points the others at
it: no view changes, and nothing is copied.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import peewee as pw

from foya_desktop.core.messages import Message, ReasoningPart, attachments_in_order
from foya_desktop.store.codec import message_from_row
from foya_desktop.store.events_log import append_event
from foya_desktop.store.schema import MessageRow, SessionRow, database_proxy

_VALID = MessageRow.valid == True  # noqa: E712  (an explicit comparison keeps the composite index)

_BASE_SQL = ('SELECT "base_session_id", "base_seq", "inherited_seq", "unavailable" FROM "session_row" '
             'WHERE "id" = ?')


@dataclass(frozen=True, slots=True)
class Segment:
    """The valid rows of ``session_id`` with ``after < seq <= through`` (``through`` ``None``: no bound)."""

    session_id: str
    after: int
    through: int | None

    def holds(self, seq: int) -> bool:
        """Whether a row of this segment's session at ``seq`` lies in it."""
        return seq > self.after and (self.through is None or seq <= self.through)

    def narrowed(self, after: int, through: int | None) -> Segment | None:
        """The part of this segment with ``after < seq <= through`` (``None`` when nothing is left)."""
        low = max(self.after, after)
        high = self.through if through is None else (
            through if self.through is None else min(self.through, through))
        if high is not None and high <= low:
            return None
        return Segment(self.session_id, low, high)

    def sql(self, alias: str = "m") -> tuple[str, list[Any]]:
        """The segment as an SQL condition with its parameters (columns prefixed by ``alias``)."""
        prefix = f"{alias}." if alias else ""
        term, args = f"{prefix}session_id = ?", list[Any]([self.session_id])
        if self.after:
            term += f" AND {prefix}seq > ?"
            args.append(self.after)
        if self.through is not None:
            term += f" AND {prefix}seq <= ?"
            args.append(self.through)
        return (f"({term})" if len(args) > 1 else term), args


@dataclass(frozen=True, slots=True)
class View:
    """Where one session's history is stored (see the module docstring)."""

    session_id: str
    segments: tuple[Segment, ...]
    """Newest first; disjoint in seq, each below the one before it."""
    inherited_seq: int = 0
    unavailable: frozenset[str] = frozenset()

    @property
    def shared(self) -> bool:
        """Whether part of the history is stored by another session."""
        return len(self.segments) > 1 or self.segments[0].session_id != self.session_id

    def sql(self, alias: str = "m") -> tuple[str, list[Any]]:
        """The history as an SQL condition (valid or not; add ``valid = 1``) with its parameters
        (column names prefixed by ``alias``)."""
        terms: list[str] = []
        args: list[Any] = []
        for s in self.segments:
            term, targs = s.sql(alias)
            terms.append(term)
            args += targs
        return ("(" + " OR ".join(terms) + ")" if len(terms) > 1 else terms[0]), args

    def named_sql(self, alias: str = "m", prefix: str = "view") -> tuple[str, dict[str, Any]]:
        """:meth:`sql` with named parameters ``:<prefix>0``, ``:<prefix>1``… (for statements that
        use named ones)."""
        text, args = self.sql(alias)
        pieces = text.split("?")
        named = "".join(f"{piece}:{prefix}{i}" for i, piece in enumerate(pieces[:-1])) + pieces[-1]
        return named, {f"{prefix}{i}": a for i, a in enumerate(args)}

    def holds(self, row: MessageRow) -> bool:
        """Whether a stored row belongs to this history (valid or not)."""
        return any(s.session_id == row.session_id and s.holds(int(row.seq)) for s in self.segments)

    def rows(self, where: Any = None, *, newest_first: bool = False, limit: int | None = None,
             after: int = 0, through: int | None = None) -> Iterator[MessageRow]:
        """The valid rows matching ``where`` with ``after < seq <= through``, in seq order, segment
        by segment (each an index range), so a page of the newest rows never sorts the whole history.

        NOTE: seq bounds go in ``after``/``through``, not ``where``: they are merged with each
        segment's own, so every segment is one index range. A second bound in ``where``
        (``seq < X`` beside the segment's ``seq <= base_seq``) is only a filter to SQLite, which
        uses one upper bound of the index: a one-row page before an early seq walked a whole
        inherited 50,000-message segment (3 ms a page; opening a branch looked for its first
        message with ~20 such pages).
        """
        left = limit
        for whole in (self.segments if newest_first else reversed(self.segments)):
            if left is not None and left <= 0:
                return
            segment = whole.narrowed(after, through)
            if segment is None:
                continue
            cond = _segment_condition(segment) & _VALID
            if where is not None:
                cond &= where
            query = MessageRow.select().where(cond).order_by(
                MessageRow.seq.desc() if newest_first else MessageRow.seq)
            if left is not None:
                query = query.limit(left)
            for row in query:
                if left is not None:
                    left -= 1
                yield row

    def count(self, where: Any = None) -> int:
        """How many valid rows match ``where``."""
        total = 0
        for segment in self.segments:  # each an index range (an OR of them would collect every rowid)
            cond = _segment_condition(segment) & _VALID
            total += int(MessageRow.select().where(cond if where is None else cond & where).count())
        return total

    def decode(self, row: MessageRow) -> Message:
        """The stored row as this session's message (inherited ones as the module docstring says)."""
        message = message_from_row(row)
        if row.session_id != self.session_id:
            message = replace(message, session_id=self.session_id)
        if message.seq > self.inherited_seq:
            return message
        parts = tuple(replace(p, signature="") if isinstance(p, ReasoningPart) and p.signature else p
                      for p in message.parts)
        missing = [s for s in attachments_in_order(message) if s in self.unavailable]
        meta = {**message.meta, "unavailable_attachments": missing} if missing else message.meta
        return replace(message, parts=parts, meta=meta)


def _segment_condition(s: Segment) -> Any:
    """The segment as a Peewee condition (the twin of :meth:`Segment.sql`)."""
    cond = MessageRow.session == s.session_id
    if s.after:
        cond &= MessageRow.seq > s.after
    if s.through is not None:
        cond &= MessageRow.seq <= s.through
    return cond


def view_of(session_id: str) -> View:
    """The session's view: its own rows, then each base's share (one key lookup per link)."""
    con = database_proxy.connection()
    segments: list[Segment] = []
    sid: str | None = session_id
    through: int | None = None
    inherited, unavailable = 0, frozenset[str]()
    seen: set[str] = set()
    while sid is not None and sid not in seen:
        seen.add(sid)
        found = con.execute(_BASE_SQL, (sid,)).fetchone()
        if found is None:
            break
        base, base_seq = found[0], int(found[1])
        if sid == session_id:
            inherited, unavailable = int(found[2]), frozenset(json.loads(found[3] or "[]"))
        after = base_seq if base is not None else 0
        if through is None or through > after:
            segments.append(Segment(sid, after, through))
        if base is None:
            break
        through = base_seq if through is None else min(through, base_seq)
        sid = base
    return View(session_id, tuple(segments) or (Segment(session_id, 0, None),), inherited, unavailable)


def inherit(session_id: str, base_id: str, through_seq: int, unavailable: set[str]) -> None:
    """Make a just-created session begin with ``base_id``'s history up to ``through_seq``
    (inside the creating transaction; its own seqs continue after it). It references the base's
    blobs, so they outlive the base."""
    base = SessionRow.get_by_id(base_id)
    database_proxy.execute_sql('INSERT OR IGNORE INTO "artifact_ref_row" ("session_id", "artifact_id") '
                               'SELECT ?, "artifact_id" FROM "artifact_ref_row" WHERE "session_id" = ?',
                               (session_id, base_id))
    marked = sorted(unavailable | set(json.loads(base.unavailable or "[]")))
    (SessionRow.update(base_session_id=base_id, base_seq=through_seq, inherited_seq=through_seq,
                       head_seq=pw.fn.MAX(SessionRow.head_seq, through_seq), unavailable=json.dumps(marked))
     .where(SessionRow.id == session_id).execute())
    append_event(session_id, "history_inherited", {"base_session_id": base_id, "through_seq": through_seq})


def shared_prefix(a_id: str, b_id: str) -> int:
    """The seq up to which two sessions' histories are the same stored rows (0: none), e.g. a
    source and its branch up to where the branch's own messages begin."""
    through = 0
    for sa, sb in zip(reversed(view_of(a_id).segments), reversed(view_of(b_id).segments), strict=False):
        if sa.session_id != sb.session_id or sa.after != sb.after:
            break
        ends = [t for t in (sa.through, sb.through) if t is not None]
        if not ends:
            break  # one and the same session
        through = min(ends)
        if sa.through != sb.through:
            break
    return through


def hand_over(session_id: str, from_seq: int | None) -> None:
    """Before ``session_id`` loses the rows of its history with ``seq >= from_seq`` (a rewind) or
    all of them (``from_seq`` ``None``: it is being deleted), give the sessions that inherit them
    what they inherit, so their views stay the same. Writer thread, inside the caller's transaction.

    The dependant that inherits the most receives the session's own valid rows it needs (moved:
    same ids and seqs; the search index follows them by its update trigger) and is pointed past
    them at what remains; the other affected dependants are pointed at it.
    """
    me = SessionRow.get_or_none(SessionRow.id == session_id)
    if me is None:
        return
    cond = SessionRow.base_session_id == session_id
    if from_seq is not None:
        cond &= SessionRow.base_seq >= from_seq
    dependants = list(SessionRow.select(SessionRow.id, SessionRow.base_seq).where(cond)
                      .order_by(SessionRow.base_seq.desc(), SessionRow.id))
    if not dependants:
        return
    receiver, reach = dependants[0].id, int(dependants[0].base_seq)
    own_after = int(me.base_seq) if me.base_session_id is not None else 0
    moved = (MessageRow.session == session_id) & _VALID & (MessageRow.seq <= reach)
    if from_seq is not None:
        moved &= MessageRow.seq >= from_seq
    handed = int(MessageRow.update(session=receiver).where(moved).execute())
    from foya_desktop.store import search  # search reads through views: imported here, not at the top

    search.note_queued_count(handed)  # re-indexed under their new session in this transaction
    if from_seq is not None and from_seq > own_after:
        new_base: str | None = session_id  # what stays valid here is still shared
        new_seq = from_seq - 1
    else:
        new_base = str(me.base_session_id) if me.base_session_id is not None else None
        new_seq = min(reach, own_after)
    (SessionRow.update(base_session_id=new_base, base_seq=new_seq if new_base is not None else 0)
     .where(SessionRow.id == receiver).execute())
    others = [d.id for d in dependants[1:]]
    if others:
        SessionRow.update(base_session_id=receiver).where(SessionRow.id.in_(others)).execute()


def lower_base(session_id: str, from_seq: int) -> None:
    """A rewind of ``session_id`` from ``from_seq``: inherited messages from there on leave its view
    (its own rows are invalidated by the caller)."""
    (SessionRow.update(base_seq=from_seq - 1)
     .where((SessionRow.id == session_id) & SessionRow.base_session_id.is_null(False)
            & (SessionRow.base_seq >= from_seq)).execute())


def row_in(view: View, message_id: str) -> MessageRow | None:
    """The stored row of ``message_id`` if it belongs to ``view`` (valid or not)."""
    row = MessageRow.get_or_none(MessageRow.id == message_id)
    return row if row is not None and view.holds(row) else None

