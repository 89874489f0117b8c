"""Full-text search over every session's messages: SQLite FTS5 with the trigram tokenizer.

Why this shape:

* **Trigram** matches substrings and code identifiers (``parse_args`` inside
  ``argparse.parse_args()``) in any script, CJK included, without a
  language-specific tokenizer.
* **Indexed in batches, searched at once** (schemas 8 and 10). FTS5 writes a new
  index segment at every commit, which made it most of a single-message append's
  cost (issue 14: append vs raw ``sqlite3``). So an append writes nothing for the
  index at all: the index records in ``search_state`` the highest message rowid
  it has caught up to, and every row above that mark is *the tail* (rowids grow
  with insertion). Schema 8 queued each new rowid in ``search_pending`` from an
  insert trigger; that one-row table was one more B-tree page written to the WAL
  per append (~40 µs of ~300, measured), so schema 10 keeps the queue only for
  rows that change (an edit, a rewind's ``valid`` flag, a hand-over to another
  session), which the update trigger queues. The writer indexes queue and tail in
  one go every ``BATCH`` rows written (:func:`note_queued` → :func:`catch_up`,
  inside the appending transaction) and when a writing store opens. :func:`search`
  reads the index *and* what waits (queue and tail), so a stored message is found
  the moment it commits — by any process, read-only ones included — and a rewound
  (invalid) or deleted one disappears at once (the update and delete triggers take
  it out of the index and the queue; the tail is read live). SQLite gives a new row
  the largest rowid + 1, so a rowid can be used again only after the newest rows
  are deleted: the tail trigger then lowers the mark to the largest rowid left, so
  a reused rowid is in the tail, never under the mark unindexed. No indexing ever
  runs on the GUI thread. Only the text parts of user and assistant messages are
  indexed (tool output would drown every query).
* **The FTS rowid is the message's rowid**, which grows with insertion, so
  "newest first" is ``ORDER BY rowid DESC`` — FTS5 walks its index backwards
  and stops at the limit instead of sorting every match.
* **Short terms** (fewer than three characters, e.g. the two-character Chinese
  word 数据) are below the trigram minimum; they are matched with ``LIKE``
  over the indexed text, newest first, stopping at the limit.

NOTE: the SQL here is assembled from this module's constants only (``S608``
is silenced for that); every value the person typed goes in as a parameter.
"""

# ruff: noqa: S608

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

import peewee as pw

from foya_desktop.core.errors import NotFound
from foya_desktop.core.messages import Message
from foya_desktop.store.history_view import view_of
from foya_desktop.store.schema import MessageRow, database_proxy

TABLE = "message_search"
MIN_TRIGRAM = 3
SNIPPET_CHARS = 160

_TEXT_OF = ("(SELECT group_concat(json_extract(value, '$.text'), char(10)) FROM json_each({row}.parts) "
            "WHERE json_extract(value, '$.kind') = 'text')")


def _insert(row: str, source: str = "") -> str:
    """INSERT of the indexed text of message ``row`` (``NEW`` in a trigger, ``m`` FROM ``source``)."""
    rows = (f"SELECT {row}.rowid AS rid, {_TEXT_OF.format(row=row)} AS body, {row}.session_id AS sid, "
            f"{row}.id AS mid, coalesce({row}.speaker, '') AS spk, {row}.role AS role, "
            f"{row}.created_at AS at {source} WHERE {_SEARCHED.format(row=row)}")
    return (f"INSERT INTO {TABLE}(rowid, body, session_id, message_id, speaker, role, created_at) "
            f"SELECT rid, body, sid, mid, spk, role, at FROM ({rows}) WHERE body > ''")


PENDING = "search_pending"
"""Rowids of changed message rows not yet indexed again (``catch_up`` empties it)."""

STATE = "search_state"
"""One row: ``indexed_upto``, the highest message rowid :func:`catch_up` has indexed (or queued)."""

BATCH = 64
"""Rows written after which the writing transaction indexes what waits (one FTS5 segment per batch)."""

_SEARCHED = "{row}.valid AND {row}.role IN ('user', 'assistant')"
"""The rows the index holds (tool output would drown every query)."""

_UPTO = f"(SELECT indexed_upto FROM {STATE})"

_TOP = "coalesce((SELECT max(rowid) FROM message_row), 0)"

_WAITING = (f"(SELECT rid FROM {PENDING} UNION SELECT rowid FROM message_row WHERE rowid > {_UPTO})")
"""Rowids of every row the index has not caught up with: the queue and the tail (never both, but
``UNION`` would not count one twice)."""

_QUEUE = (f"INSERT OR IGNORE INTO {PENDING}(rid) SELECT NEW.rowid "
          f"WHERE {_SEARCHED.format(row='NEW')} AND NEW.rowid <= {_UPTO}")

INSTALL = [
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {TABLE} USING fts5(body, session_id UNINDEXED, "
    "message_id UNINDEXED, speaker UNINDEXED, role UNINDEXED, created_at UNINDEXED, tokenize='trigram')",
    f"CREATE TABLE IF NOT EXISTS {PENDING} (rid INTEGER PRIMARY KEY)",
    # a new database (nothing stored) or one of schema 7–9, whose rows are all indexed or queued
    f"CREATE TABLE IF NOT EXISTS {STATE} (id INTEGER PRIMARY KEY CHECK (id = 1), "
    "indexed_upto INTEGER NOT NULL)",
    f"INSERT OR IGNORE INTO {STATE}(id, indexed_upto) VALUES (1, {_TOP})",
    f"CREATE TRIGGER IF NOT EXISTS {TABLE}_update AFTER UPDATE OF parts, valid, role, session_id "
    "ON message_row BEGIN "
    f"DELETE FROM {TABLE} WHERE rowid = OLD.rowid; DELETE FROM {PENDING} WHERE rid = OLD.rowid; "
    f"{_QUEUE}; END",
    f"CREATE TRIGGER IF NOT EXISTS {TABLE}_delete AFTER DELETE ON message_row BEGIN "
    f"DELETE FROM {TABLE} WHERE rowid = OLD.rowid; DELETE FROM {PENDING} WHERE rid = OLD.rowid; END",
    # the newest row deleted: its rowid may be given again, so it must not sit under the mark
    f"CREATE TRIGGER IF NOT EXISTS {TABLE}_tail AFTER DELETE ON message_row WHEN OLD.rowid > {_TOP} "
    f"BEGIN UPDATE {STATE} SET indexed_upto = min(indexed_upto, {_TOP}); END",
]
TRIGGERS = ("insert", "update", "delete", "tail")
"""Every trigger name this module has used (``insert``: schemas 8–9 queued each new row)."""

def install(db: pw.Database) -> None:
    """Create the index, its queue and its triggers if missing (every start; cheap when present)."""
    for statement in INSTALL:
        db.execute_sql(statement)  # type: ignore[no-untyped-call]


def reinstall_triggers(db: pw.Database) -> None:
    """Replace older triggers of the same names (schema 7 → 8: they indexed every row at once;
    8 → 9: a row that changes session is indexed again, under its new session; 9 → 10: new rows are
    the tail, not queued)."""
    for name in TRIGGERS:
        db.execute_sql(f"DROP TRIGGER IF EXISTS {TABLE}_{name}")  # type: ignore[no-untyped-call]
    install(db)


def backfill(db: pw.Database) -> None:
    """Index every message already stored (the schema 1 → 2 migration)."""
    db.execute_sql(f"DELETE FROM {TABLE}")  # type: ignore[no-untyped-call]
    db.execute_sql(_insert("m", "FROM message_row AS m"))  # type: ignore[no-untyped-call]
    db.execute_sql(f"DELETE FROM {PENDING}")  # type: ignore[no-untyped-call]
    db.execute_sql(f"UPDATE {STATE} SET indexed_upto = {_TOP}")  # type: ignore[no-untyped-call]


_queued_since_catch_up = 0
"""Rows this process wrote or changed since it last indexed (one writer thread per process writes it)."""


def note_queued(messages: Iterable[Message]) -> None:
    """Writer thread, inside the transaction that wrote ``messages``: index what waits every
    ``BATCH`` rows written (any role: a long run of tool results must not grow the tail without end)."""
    note_queued_count(sum(1 for _ in messages))


def note_queued_count(count: int) -> None:
    """:func:`note_queued` for ``count`` rows written in SQL (``ops_copy``, ``history_view``)."""
    global _queued_since_catch_up
    _queued_since_catch_up += count
    if _queued_since_catch_up >= BATCH:
        catch_up()


def catch_up() -> None:
    """Index every row that waits now — the queue and the tail (writer thread, inside a
    transaction). Rows another process wrote are indexed too: the queue and the mark are in the
    database.

    Only queued rows (edits, rewinds, hand-overs) can have an entry to replace: a tail row was
    never indexed (the mark moves past a row only here and in ``backfill``, and a deleted row's
    entry goes with it), so the waiting set is read once, by the insert.
    """
    global _queued_since_catch_up
    _queued_since_catch_up = 0
    db = database_proxy
    db.execute_sql(f"DELETE FROM {TABLE} WHERE rowid IN (SELECT rid FROM {PENDING})")
    db.execute_sql(_insert("m", f"FROM {_WAITING} AS p CROSS JOIN message_row AS m ON m.rowid = p.rid"))
    db.execute_sql(f"DELETE FROM {PENDING}")
    db.execute_sql(f"UPDATE {STATE} SET indexed_upto = max(indexed_upto, {_TOP})")


def waiting_count() -> int:
    """Rows the index has not caught up with yet (queued or in the tail; any role)."""
    return int(database_proxy.execute_sql(f"SELECT count(*) FROM {_WAITING}").fetchone()[0])


@dataclass(frozen=True, slots=True)
class SearchQuery:
    """What to look for and where."""

    text: str
    session_id: str | None = None
    project_id: str | None = None
    speaker: str | None = None
    """A VP id, or ``user`` for the person's own messages."""
    since_ms: int | None = None
    until_ms: int | None = None
    limit: int = 50


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One matching message."""

    message_id: str
    session_id: str
    session_title: str
    role: str
    speaker: str
    created_at: int
    snippet: str
    """The matched text with some context, on one line."""


def split_terms(text: str) -> tuple[list[str], list[str]]:
    """(terms long enough for the trigram index, shorter terms matched with LIKE)."""
    terms = [t for t in text.split() if t]
    return [t for t in terms if len(t) >= MIN_TRIGRAM], [t for t in terms if len(t) < MIN_TRIGRAM]


def _phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _like(term: str) -> str:
    return "%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def search(query: SearchQuery) -> list[SearchHit]:
    """Matching messages, newest first (sync; reader thread): the index plus the queued tail.

    A message a branch inherits is stored once, by the session that wrote it: searching all
    sessions finds it there; searching the branch finds it as the branch's (``history_view``).
    """
    long_terms, short_terms = split_terms(query.text)
    if not long_terms and not short_terms:
        return []
    limit = max(1, query.limit)
    rows = _indexed_matches(query, long_terms, short_terms, limit) + _queued_matches(
        query, long_terms + short_terms, limit)
    rows.sort(key=lambda r: r[7], reverse=True)  # rowid: insertion order, newest first
    terms = long_terms + short_terms
    hits = [SearchHit(r[0], r[1], r[2], r[3], r[4], int(r[5]), snippet(r[6], terms)) for r in rows[:limit]]
    if query.session_id and any(h.session_id != query.session_id for h in hits):
        title = next((h.session_title for h in hits if h.session_id == query.session_id), None)
        if title is None:
            title = str(database_proxy.execute_sql('SELECT "title" FROM "session_row" WHERE "id" = ?',
                                                   (query.session_id,)).fetchone()[0])
        hits = [replace(h, session_id=query.session_id, session_title=title) for h in hits]
    return hits


_HIT_COLUMNS = ("SELECT s.message_id, s.session_id, coalesce(r.title, ''), s.role, s.speaker, s.created_at, "
                "s.body, s.rowid ")


def _indexed_matches(query: SearchQuery, long_terms: list[str], short_terms: list[str],
                     limit: int) -> list[tuple[Any, ...]]:
    filtered = _filters(query)
    if filtered is None:
        return []  # the session has no message yet
    where, args = filtered
    bounds = _rowid_bounds(query)
    if bounds is not None:
        if bounds[0] is None:
            return []  # the project has no message yet
        where.append("s.rowid BETWEEN ? AND ?")
        args.extend(bounds)
    if long_terms:
        where.insert(0, f"{TABLE} MATCH ?")
        args.insert(0, " ".join(_phrase(t) for t in long_terms))
    return _hits(TABLE, where, args, short_terms, limit)


_QUEUED = (f"(SELECT m.rowid AS rowid, {_TEXT_OF.format(row='m')} AS body, m.session_id AS session_id, "
           "m.id AS message_id, coalesce(m.speaker, '') AS speaker, m.role AS role, "
           "m.created_at AS created_at "
           f"FROM {_WAITING} AS p CROSS JOIN message_row AS m ON m.rowid = p.rid "
           f"WHERE {_SEARCHED.format(row='m')})")


def _queued_matches(query: SearchQuery, terms: list[str], limit: int) -> list[tuple[Any, ...]]:
    """Matches among rows not indexed yet (queue and tail: fewer than ``BATCH`` per writing process).

    Every term is a substring match (``LIKE``, ASCII case folded) — what the trigram index
    does for long terms and the ``LIKE`` fallback for short ones.
    """
    filtered = _filters(query)
    if filtered is None:
        return []
    where, args = filtered
    where.append("s.body IS NOT NULL")
    return _hits(_QUEUED, where, args, terms, limit)


def _hits(source: str, where: list[str], args: list[Any], like_terms: list[str],
          limit: int) -> list[tuple[Any, ...]]:
    """The newest ``limit`` hit rows of ``source`` (the index or the queue) under ``where``, each of
    ``like_terms`` matched as a substring."""
    for term in like_terms:
        where.append("s.body LIKE ? ESCAPE '\\'")
        args.append(_like(term))
    sql = (f"{_HIT_COLUMNS}FROM {source} AS s JOIN session_row AS r ON r.id = s.session_id "
           f"WHERE {' AND '.join(where)} ORDER BY s.rowid DESC LIMIT ?")
    return list(database_proxy.execute_sql(sql, [*args, limit]).fetchall())


_EDGE = ("(SELECT m.rowid FROM message_row AS m WHERE m.session_id = r.id AND m.valid = 1 "
         "ORDER BY m.seq {order} LIMIT 1)")


def _rowid_bounds(query: SearchQuery) -> tuple[int, int] | tuple[None, None] | None:
    """The rowid range a project filter can match in, or ``None`` without one (a session filter
    has its own ranges: :func:`_session_ranges`).

    Messages are appended, so a session's rows lie between the rowids of its first and last valid
    message (two index lookups each, on ``(session, valid, seq)``). Handing that range to FTS5 lets
    it skip every newer match of other sessions instead of walking and discarding them — the cost
    that grew with the database for a project or session that was not the latest one written.
    """
    if query.session_id or not query.project_id:
        return None
    row = database_proxy.execute_sql(
        f"SELECT min({_EDGE.format(order='ASC')}), max({_EDGE.format(order='DESC')}) "
        "FROM session_row AS r WHERE r.project_id = ?", [query.project_id]).fetchone()
    if row is None or row[0] is None:
        return None, None
    return int(row[0]), int(row[1])


_SEGMENT_EDGE = ("SELECT rowid FROM message_row WHERE {segment} AND valid = 1 ORDER BY seq {order} LIMIT 1")


def _session_ranges(session_id: str) -> tuple[str, list[Any]] | None:
    """Where one session's messages are: per segment of its history (``history_view``), the
    storing session and the rowid range of the segment's valid rows (rows are appended, so a
    stretch of a session's seqs is a stretch of rowids). ``None`` when it has none."""
    terms: list[str] = []
    args: list[Any] = []
    for segment in view_of(session_id).segments:
        cond, cargs = segment.sql("")
        first = database_proxy.execute_sql(_SEGMENT_EDGE.format(segment=cond, order="ASC"), cargs).fetchone()
        if first is None:
            continue
        last = database_proxy.execute_sql(_SEGMENT_EDGE.format(segment=cond, order="DESC"), cargs).fetchone()
        terms.append("(s.session_id = ? AND s.rowid BETWEEN ? AND ?)")
        args += [segment.session_id, int(first[0]), int(last[0])]
    if not terms:
        return None
    return ("(" + " OR ".join(terms) + ")" if len(terms) > 1 else terms[0]), args


def session_matches(session_id: str, text: str, speaker: str | None = None) -> list[str]:
    """Ids of every message of one session matching ``text`` (and speaker), oldest first.

    The find bar's counts and next/previous walk this list, so it covers the
    whole session, not only the page on screen.
    """
    if not text.split():
        return _speaker_messages(session_id, speaker) if speaker else []
    hits = search(SearchQuery(text, session_id=session_id, speaker=speaker, limit=1_000_000))
    return [h.message_id for h in reversed(hits)]


def _speaker_messages(session_id: str, speaker: str) -> list[str]:
    cond = (MessageRow.role == "user") if speaker == "user" else (
        (MessageRow.role == "assistant") & (MessageRow.speaker == speaker))
    return [r.id for r in view_of(session_id).rows(cond)]


def message_seq(message_id: str) -> int:
    """The seq of a valid message (to open its session there)."""
    row = MessageRow.get_or_none((MessageRow.id == message_id) & MessageRow.valid)
    if row is None:
        raise NotFound("That message is no longer in its session (rewound or deleted).")
    return int(row.seq)


def _filters(query: SearchQuery) -> tuple[list[str], list[Any]] | None:
    """The WHERE terms of a query (``None``: its session has no message, nothing can match)."""
    where: list[str] = []
    args: list[Any] = []
    if query.session_id:
        ranges = _session_ranges(query.session_id)
        if ranges is None:
            return None
        where.append(ranges[0])
        args.extend(ranges[1])
    if query.project_id:
        where.append("r.project_id = ?")
        args.append(query.project_id)
    if query.speaker == "user":
        where.append("s.role = 'user'")
    elif query.speaker:
        where.append("s.speaker = ? AND s.role = 'assistant'")
        args.append(query.speaker)
    if query.since_ms is not None:
        where.append("s.created_at >= ?")
        args.append(query.since_ms)
    if query.until_ms is not None:
        where.append("s.created_at < ?")
        args.append(query.until_ms)
    return where, args


def snippet(body: str, terms: list[str]) -> str:
    """A one-line excerpt around the first matching term."""
    flat = " ".join(body.split())
    lower = flat.casefold()
    found = [i for i in (lower.find(t.casefold()) for t in terms) if i >= 0]
    start = max(0, min(found) - SNIPPET_CHARS // 3) if found else 0
    text = flat[start:start + SNIPPET_CHARS]
    return ("…" if start else "") + text + ("…" if start + SNIPPET_CHARS < len(flat) else "")
