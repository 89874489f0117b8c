"""Giving a new session a prefix of another's history (branch, fork): inherited, plus a copied tail.

Why: a branch or fork of a 50,000-message session used to copy every message — seconds of work
that grew with the history (issue 14: branch ≤ 2× from 500 to 50,000 messages). Now the new
session *inherits* the source's finished turns (``history_view``: nothing is copied, at any
size) and copies only the boundary's own turn — the part that may hold a call cut off by the
boundary, which the copy must close. Inherited messages are shown as the copy rules say
(``history_view.View.decode``: no provider signatures, unreadable attachments marked); older
turns have no call without a result (a stop or a crash recovery closes every call), so they
need no change. The tail is copied by a few ``INSERT … SELECT`` statements: SQLite does the
work and Python's ``sqlite3`` releases the GIL while a statement runs.

What a copy is (the rules ``engine.ops.branching.copy_history`` applies to ``Message``
objects, kept identical here): valid messages up to ``through_seq`` in order, each with a
fresh id, the new session's seqs and ``meta.imported_from`` naming the source message;
turn ids kept. Only the rare rows that need a change are touched from Python, after the
bulk copy: a tool call that never got a result in the prefix turns ``error`` and gets an
interrupted result right after its message; a reasoning part's provider signature is
emptied; unreadable attachments are listed in ``unavailable_attachments`` (fork). Then the
child's ``message_added`` events are written from the final rows (same payload shape as
``history.append_message``), so replaying the child's log equals its projection.

NOTE: the SQL here is assembled from this module's constants only.
"""

# ruff: noqa: S608

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from foya_desktop.core.errors import InvalidOperation, NotFound
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import Message, ToolResultPart, part_to_json
from foya_desktop.store import history, search
from foya_desktop.store.events_log import head_seq
from foya_desktop.store.history_view import View, inherit, row_in, view_of
from foya_desktop.store.indexes import OPEN_CALLS_WHERE
from foya_desktop.store.schema import MessageRow, database_proxy

INTERRUPTED_META = {"interrupted": True}

_FIRST_RESULT = ("(SELECT json_extract(r.value, '$.call_id') FROM json_each({row}.parts) AS r "
                 "WHERE json_extract(r.value, '$.kind') = 'tool_result' LIMIT 1)")
"""The call id of a message's first tool-result part (``Message.tool_result``)."""

_CALLS_IN = ("SELECT m.seq, m.id, m.turn_id, m.speaker, m.created_at, json_extract(c.value, '$.call_id'), "
             "json_extract(c.value, '$.name'), c.key FROM message_row AS m, json_each(m.parts) AS c "
             "WHERE {view} AND m.valid = 1 AND m.seq > ? AND m.seq <= ? AND instr(m.parts, 'tool_call') > 0 "
             "AND json_extract(c.value, '$.kind') = 'tool_call'")
_RESULTS_IN = (f"SELECT {_FIRST_RESULT.format(row='t')} FROM message_row AS t "
               "WHERE {view} AND t.valid = 1 AND t.seq {op} ? "
               "AND instr(t.parts, 'tool_result') > 0")


def _calls_sql(view: View, after_seq: int, through_seq: int, results_op: str,
               tail: str) -> tuple[str, list[Any]]:
    """``tail`` over ``calls`` (the calls in ``(after_seq, through_seq]``) and ``results`` (the
    results ``results_op`` ``through_seq``), both read through ``view``; with its parameters."""
    calls, calls_args = view.sql("m")
    results, results_args = view.sql("t")
    sql = (f"WITH calls(seq, mid, turn_id, speaker, created_at, call_id, name, pos) AS "
           f"({_CALLS_IN.format(view=calls)}), "
           f"results(call_id) AS ({_RESULTS_IN.format(view=results, op=results_op)}) {tail}")
    return sql, [*calls_args, after_seq, through_seq, *results_args, through_seq]


_DEAD_TAIL = ("SELECT seq, mid, turn_id, speaker, created_at, call_id, name FROM calls "
              "WHERE call_id NOT IN (SELECT call_id FROM results WHERE call_id IS NOT NULL) "
              "ORDER BY seq, pos")


@dataclass(frozen=True, slots=True)
class DeadCall:
    """A tool call in a prefix whose result is not in that prefix."""

    seq: int
    message_id: str
    turn_id: str
    speaker: str | None
    created_at: int
    call_id: str
    name: str


def dead_calls(session_id: str, through_seq: int, after_seq: int = 0) -> list[DeadCall]:
    """Calls among the valid messages in ``(after_seq, through_seq]`` without a result up to
    ``through_seq``, in order.

    One statement over the prefix's tool rows (SQLite's work, not Python's).
    """
    sql, args = _calls_sql(view_of(session_id), after_seq, through_seq, "<=", _DEAD_TAIL)
    rows = database_proxy.execute_sql(sql, args).fetchall()
    return [DeadCall(int(r[0]), r[1], r[2] or "", r[3], int(r[4]), str(r[5]), str(r[6] or "")) for r in rows]


def answered_after(session_id: str, seq: int, call_ids: set[str]) -> set[str]:
    """Which of ``call_ids`` get their result in a valid message after ``seq``."""
    if not call_ids:
        return set()
    view, args = view_of(session_id).sql("t")
    rows = database_proxy.execute_sql(_RESULTS_IN.format(view=view, op=">"), (*args, seq)).fetchall()
    return {r[0] for r in rows if r[0] in call_ids}


def calls_answered_after(session_id: str, seq: int) -> list[str]:
    """Names of the tool calls up to ``seq`` whose result comes after it, in order."""
    sql, args = _calls_sql(view_of(session_id), 0, seq, ">",
                           "SELECT name FROM calls WHERE call_id IN (SELECT call_id FROM results) "
                           "ORDER BY seq, pos")
    rows = database_proxy.execute_sql(sql, args).fetchall()
    return [str(r[0] or "") for r in rows]


def valid_message(session_id: str, message_id: str) -> Message:
    """A message of the session's valid history (``NotFound`` / ``InvalidOperation`` otherwise)."""
    view = view_of(session_id)
    row = row_in(view, message_id)
    if row is None:
        raise NotFound(f"No message {message_id} in session {session_id}.")
    if not row.valid:
        raise InvalidOperation("That message is no longer in the session's history (it was rewound).")
    return view.decode(row)


def last_valid_seq(session_id: str, below: int | None = None) -> int:
    """The newest valid seq (below ``below`` if given), 0 for none."""
    newest = next(view_of(session_id).rows(newest_first=True, limit=1,
                                           through=below - 1 if below is not None else None), None)
    return int(newest.seq) if newest is not None else 0


def message_id_at(session_id: str, seq: int) -> str:
    """The id of the valid message at ``seq`` ("" if none)."""
    found = next(view_of(session_id).rows(limit=1, after=seq - 1, through=seq), None)
    return str(found.id) if found is not None else ""


@dataclass(frozen=True, slots=True)
class TurnSpan:
    """Where a turn's valid messages lie: first and last seq, how many, and how many valid
    messages of any turn lie between them (equal counts: not interleaved)."""

    first: int
    last: int
    count: int
    between: int


def turn_span(session_id: str, turn_id: str) -> TurnSpan | None:
    """The span of a turn's valid messages (``None`` when it has none)."""
    view, args = view_of(session_id).sql("m")
    row = database_proxy.execute_sql(
        f"SELECT min(m.seq), max(m.seq), count(*) FROM message_row AS m WHERE {view} AND m.valid = 1 "
        "AND m.turn_id = ?", (*args, turn_id)).fetchone()
    if row is None or row[0] is None:
        return None
    between = database_proxy.execute_sql(
        f"SELECT count(*) FROM message_row AS m WHERE {view} AND m.valid = 1 AND m.seq BETWEEN ? AND ?",
        (*args, row[0], row[1])).fetchone()[0]
    return TurnSpan(int(row[0]), int(row[1]), int(row[2]), int(between))


_COPY_SQL = (
    'INSERT INTO "message_row" ("id", "session_id", "seq", "role", "speaker", "parts", "status", "turn_id", '
    '"meta", "valid", "created_at") '
    "SELECT printf('msg_%012x%04x%s', :stamp + ((:made + n) >> 16), (:made + n) & 65535, "
    "lower(hex(randomblob(4)))), :target, :base + n, role, speaker, parts, status, turn_id, "
    "json_set(meta, '$.imported_from', json_object('session_id', session_id, 'message_id', id)), 1, "
    "created_at "
    "FROM (SELECT *, row_number() OVER (ORDER BY seq) AS n FROM message_row AS m "
    "WHERE {view} AND valid = 1 AND seq > :lo AND seq <= :hi) ORDER BY n")
"""One contiguous stretch of the prefix, copied verbatim but for id, session, seq and meta. The ids
have ``new_id``'s shape (milliseconds, counter, randomness), so they sort in creation order."""

_EVENTS_SQL = (
    'INSERT INTO "event_row" ("session_id", "seq", "type", "payload", "created_at") '
    "SELECT session_id, seq, 'message_added', "
    "'{\"id\": ' || json_quote(id) || ', \"role\": ' || json_quote(role) || ', \"speaker\": ' || "
    "json_quote(speaker) || ', \"parts\": ' || parts || ', \"status\": ' || json_quote(status) || "
    "', \"turn_id\": ' || json_quote(turn_id) || ', \"created_at\": ' || created_at || ', \"meta\": ' || "
    "meta || '}', ? FROM message_row WHERE session_id = ? AND seq > ? ORDER BY seq")
"""The copies' ``message_added`` events, built from the final rows (``history._encoded``'s shape)."""

_SIGNED_SQL = ("SELECT id, parts FROM message_row WHERE session_id = ? AND instr(parts, '\"signature\"') > 0 "
               "AND EXISTS (SELECT 1 FROM json_each(parts) WHERE json_extract(value, '$.kind') = 'reasoning' "
               "AND coalesce(json_extract(value, '$.signature'), '') != '')")
_WITH_ARTIFACTS_SQL = ("SELECT id, parts, meta FROM message_row WHERE session_id = ? "
                       "AND instr(parts, '\"artifact\"') > 0")


_OPEN_CALL_SQL = (f"SELECT min(seq) FROM message_row INDEXED BY message_open_calls WHERE {OPEN_CALLS_WHERE} "
                  "AND {segment} AND seq <= ?")
"""The oldest message with a call still pending or running: the partial index ``message_open_calls``
(named: on its own SQLite's planner prefers walking ``(session, valid, seq)``, which reads every row)."""


def tail_after(session_id: str, through_seq: int) -> int:
    """Where the copied tail begins: the seq before the boundary's own turn (its newest valid user
    message up to ``through_seq``), or before an older message whose call never got closed
    (no stop or recovery wrote its result: found through a partial index, not a scan). 0 when
    there is no user message: everything is copied."""
    view = view_of(session_id)
    newest = next(view.rows(MessageRow.role == "user", newest_first=True, limit=1, through=through_seq), None)
    start = int(newest.seq) if newest is not None else 1
    for segment in view.segments:
        cond, args = segment.sql("")
        sql = _OPEN_CALL_SQL.format(segment=cond)
        found = database_proxy.execute_sql(sql, (*args, through_seq)).fetchone()
        if found is not None and found[0] is not None:
            start = min(start, int(found[0]))
    return start - 1


def share_history(source_id: str, target_id: str, through_seq: int, after_seq: int, dead: list[DeadCall],
                  interrupted_text: str, readable: Callable[[str], bool] | None = None) -> int:
    """Give ``target_id`` (a session just created, inside the caller's transaction) the valid
    history of ``source_id`` up to ``through_seq``: inherited up to ``after_seq``
    (:func:`tail_after`), copied after it. Returns how many messages it wrote (the copies and
    the results of calls that died).

    ``dead`` is :func:`dead_calls` for the copied tail; each gets a result saying
    ``interrupted_text`` (the engine's wording). ``readable(sha)`` (fork): attachments it
    says no to are marked in the copies' ``unavailable_attachments`` meta and in the inherited
    messages' (``history_view.View.decode``).
    """
    if after_seq > 0:
        refs = [r[0] for r in database_proxy.execute_sql(
            'SELECT "artifact_id" FROM "artifact_ref_row" WHERE "session_id" = ?', (source_id,))]
        inherit(target_id, source_id, after_seq,
                {sha for sha in refs if not readable(sha)} if readable is not None else set())
    return copy_messages(source_id, target_id, through_seq, dead, interrupted_text, readable, after_seq)


def copy_messages(source_id: str, target_id: str, through_seq: int, dead: list[DeadCall],
                  interrupted_text: str, readable: Callable[[str], bool] | None = None,
                  after_seq: int = 0) -> int:
    """Copy the valid messages of ``source_id`` in ``(after_seq, through_seq]`` into ``target_id``
    (inside the caller's transaction); returns how many messages it wrote.

    ``dead`` is :func:`dead_calls` for the same stretch; each gets a result saying
    ``interrupted_text`` (the engine's wording). ``readable(sha)`` (fork): attachments it
    says no to are listed in the copy's ``unavailable_attachments`` meta.
    """
    con = database_proxy.connection()
    start = head_seq(target_id)
    view, view_args = view_of(source_id).named_sql("m")
    copy_sql = _COPY_SQL.format(view=view)
    base, made, stamp, lo = start, 0, now_ms(), after_seq
    by_seq = {seq: list(calls) for seq, calls in groupby(dead, key=lambda c: c.seq)}
    fixes: dict[str, set[str]] = {}  # new message id -> call ids that died
    interrupted: list[tuple[object, ...]] = []
    for hi in sorted({*by_seq, through_seq}):
        if hi <= lo:
            continue
        n = con.execute(copy_sql, {"stamp": stamp, "made": made, "target": target_id, "base": base,
                                   "lo": lo, "hi": hi, **view_args}).rowcount
        base, made, lo = base + n, made + n, hi
        if hi in by_seq and n:
            call_message_id = con.execute('SELECT id FROM message_row WHERE session_id = ? AND seq = ?',
                                          (target_id, base)).fetchone()[0]
            fixes[call_message_id] = {c.call_id for c in by_seq[hi]}
            for call in by_seq[hi]:
                base += 1
                interrupted.append(_interrupted_row(target_id, base, call, interrupted_text))
    if interrupted:
        con.executemany(history.INSERT_MESSAGE_SQL, interrupted)
    _fix_parts(target_id, fixes)
    copied = base - start
    if copied:
        _fix_attachments(target_id, readable)
        now = now_ms()
        con.execute(_EVENTS_SQL, (now, target_id, start))
        con.execute('UPDATE "session_row" SET "head_seq" = ?, "updated_at" = ? WHERE "id" = ?',
                    (base, now, target_id))
        search.note_queued_count(copied)
    return copied


def _interrupted_row(session_id: str, seq: int, call: DeadCall, text: str) -> tuple[object, ...]:
    """The result a call that died gets in the copy, as a projection row."""
    part = ToolResultPart(call.call_id, call.name, text, is_error=True)
    parts = json.dumps([part_to_json(part)])
    return (new_id("msg"), session_id, seq, "tool", call.speaker, parts, "complete", call.turn_id,
            json.dumps(INTERRUPTED_META), 1, call.created_at)


def _fix_parts(target_id: str, dead: dict[str, set[str]]) -> None:
    """Dead calls turn ``error``; reasoning signatures are emptied (only the rows that need it)."""
    con = database_proxy.connection()
    rows: dict[str, str] = dict(con.execute(_SIGNED_SQL, (target_id,)).fetchall())
    for message_id in dead:
        rows.setdefault(message_id, con.execute("SELECT parts FROM message_row WHERE id = ?",
                                                (message_id,)).fetchone()[0])
    updates = []
    for message_id, parts_json in rows.items():
        parts = json.loads(parts_json)
        ids = dead.get(message_id, set())
        for p in parts:
            if p.get("kind") == "tool_call" and p.get("call_id") in ids:
                p["state"] = "error"
            elif p.get("kind") == "reasoning" and p.get("signature"):
                p["signature"] = ""
        updates.append((json.dumps(parts), message_id))
    if updates:
        con.executemany('UPDATE "message_row" SET "parts" = ? WHERE "id" = ?', updates)


def attachment_shas(parts: list[dict[str, Any]]) -> list[str]:
    """Image hashes of stored parts in order, then the first tool result's: what
    ``core.messages.attachments_in_order`` gives for the decoded message (``mark_unavailable``'s order)."""
    shas = [p["artifact"] for p in parts if p.get("kind") == "image"]
    result = next((p for p in parts if p.get("kind") == "tool_result"), None)
    if result is not None:
        shas += [i["artifact"] for i in result.get("images", [])]
    return shas


def _fix_attachments(target_id: str, readable: Callable[[str], bool] | None) -> None:
    """Reference the copies' blobs; list the unreadable ones in ``unavailable_attachments`` (fork)."""
    con = database_proxy.connection()
    known: dict[str, bool] = {}
    referenced: set[str] = set()
    metas = []
    for message_id, parts_json, meta_json in con.execute(_WITH_ARTIFACTS_SQL, (target_id,)).fetchall():
        parts = json.loads(parts_json)
        referenced.update(p["artifact"] for p in parts if p.get("kind") == "image")
        for p in parts:
            if p.get("kind") == "tool_result":
                referenced.update(i["artifact"] for i in p.get("images", []))
        if readable is None:
            continue
        missing = [s for s in attachment_shas(parts) if not known.setdefault(s, readable(s))]
        if missing:
            meta = {**json.loads(meta_json), "unavailable_attachments": missing}
            metas.append((json.dumps(meta), message_id))
    history.reference_artifacts(target_id, referenced)
    if metas:
        con.executemany('UPDATE "message_row" SET "meta" = ? WHERE "id" = ?', metas)
