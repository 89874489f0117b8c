"""Messages: event + projection writes and paged reads (sync; worker threads).

The projection (``MessageRow``) is derived from the event log; ``replay``
rebuilds it from events alone, which tests use to prove the two agree. Reads go
through the session's ``history_view.View``: a branch or fork inherits its
source's messages instead of storing copies (copy-on-write).
"""

from __future__ import annotations

from dataclasses import replace

from foya_desktop.core.errors import NotFound
from foya_desktop.core.messages import Message, artifacts_of, part_to_json
from foya_desktop.store import search
from foya_desktop.store.codec import (
    json_text,
    message_from_payload,
    message_from_row,
)
from foya_desktop.store.events_log import append_event_json, append_events_json, events_of
from foya_desktop.store.history_view import hand_over, lower_base, row_in, view_of
from foya_desktop.store.schema import ArtifactRefRow, ArtifactRow, FileChangeRow, MessageRow, database_proxy

VALID = MessageRow.valid == True  # noqa: E712
"""An explicit comparison: a bare boolean column keeps SQLite off the (session, valid, seq) index."""
_VALID = VALID

_MESSAGE_FIELDS = ("id", "session", "seq", "role", "speaker", "parts", "status", "turn_id", "meta", "valid",
                   "created_at")
"""The columns of ``INSERT_MESSAGE_SQL``, in its order (``tests/store/test_append_sql.py``)."""
INSERT_MESSAGE_SQL = ('INSERT INTO "message_row" ("id", "session_id", "seq", "role", "speaker", "parts", '
                       '"status", "turn_id", "meta", "valid", "created_at") '
                       'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
"""The projection insert as plain SQL (the append hot path; see ``events_log``)."""


def _encoded(message: Message) -> tuple[str, str, str]:
    """(parts JSON, meta JSON, event payload JSON): the parts are encoded once for both rows.

    The payload is exactly ``json.dumps(message_payload(message))`` (``tests/store/test_search.py``),
    made with ``codec.json_text`` (one prebuilt encoder: the append hot path).
    """
    parts = json_text([part_to_json(p) for p in message.parts])
    meta = json_text(message.meta)
    speaker = "null" if message.speaker is None else json_text(message.speaker)
    payload = (f'{{"id": {json_text(message.id)}, "role": {json_text(message.role)}, '
               f'"speaker": {speaker}, "parts": {parts}, '
               f'"status": {json_text(str(message.status))}, "turn_id": {json_text(message.turn_id)}, '
               f'"created_at": {json_text(message.created_at)}, "meta": {meta}}}')
    return parts, meta, payload


def _row(message: Message, session_id: str, seq: int, parts: str, meta: str) -> tuple[object, ...]:
    return (message.id, session_id, seq, message.role, message.speaker, parts, str(message.status),
            message.turn_id, meta, 1, message.created_at)


def with_seq(message: Message, seq: int) -> Message:
    """``dataclasses.replace(message, seq=seq)`` at half the cost (the append hot path, issue 14);
    ``tests/store/test_append_sql.py`` fails if ``Message`` gains a field this does not carry."""
    return Message(message.id, message.session_id, message.role, message.parts, message.speaker,
                   message.status, message.turn_id, message.created_at, seq, message.meta)


def append_message(message: Message) -> Message:
    """Persist one completed (or interrupted) message; returns it with its seq.

    The hot path of every turn: four statements on the bare ``sqlite3`` connection.
    """
    parts, meta, payload = _encoded(message)
    seq = append_event_json(message.session_id, "message_added", payload)
    row = _row(message, message.session_id, seq, parts, meta)
    database_proxy.connection().execute(INSERT_MESSAGE_SQL, row)
    search.note_queued_count(1)
    shas = artifacts_of(message)
    if shas:
        reference_artifacts(message.session_id, shas)
    return with_seq(message, seq)


def append_messages(session_id: str, messages: list[Message]) -> list[Message]:
    """Persist many messages in one batch (imports, branches, forks, merges, benchmarks).

    ``executemany`` on the bare connection: building peewee's multi-row INSERTs cost more
    than SQLite's work for a 50,000-message branch.
    """
    if not messages:
        return []
    encoded = [_encoded(m) for m in messages]
    seqs = append_events_json(session_id, [("message_added", e[2]) for e in encoded])
    database_proxy.connection().executemany(INSERT_MESSAGE_SQL, [
        _row(m, session_id, seq, parts, meta)
        for m, seq, (parts, meta, _) in zip(messages, seqs, encoded, strict=True)])
    search.note_queued(messages)
    stored = [replace(m, session_id=session_id, seq=s) for m, s in zip(messages, seqs, strict=True)]
    shas: set[str] = set()
    for m in stored:
        shas |= artifacts_of(m)
    reference_artifacts(session_id, shas)
    return stored


def update_message(message: Message) -> Message:
    """Replace a stored message's parts/status (e.g. a tool call finished).

    Only a session's own rows change: inherited ones belong to finished turns (``history_view``).
    """
    row = MessageRow.get_or_none(MessageRow.id == message.id)
    if row is None or row.session_id != message.session_id:
        raise NotFound(f"No message {message.id} stored in session {message.session_id}.")
    parts, meta, payload = _encoded(message)  # the parts encoded once for the event and the row
    append_event_json(message.session_id, "message_updated", payload)
    (MessageRow.update(parts=parts, status=str(message.status), meta=meta)
     .where(MessageRow.id == message.id).execute())
    search.note_queued((message,))
    reference_artifacts(message.session_id, artifacts_of(message))
    return replace(message, seq=row.seq)


def reference_artifacts(session_id: str, shas: set[str]) -> None:
    """Record that the session uses these blobs (``NotFound`` for one the store does not know)."""
    for sha in shas:
        if ArtifactRow.get_or_none(ArtifactRow.sha == sha) is None:
            raise NotFound(f"Message references unknown artifact {sha}.")
        ArtifactRefRow.insert(session=session_id, artifact=sha).on_conflict_ignore().execute()


def get_message(message_id: str) -> Message:
    """One stored message (valid or not)."""
    row = MessageRow.get_or_none(MessageRow.id == message_id)
    if row is None:
        raise NotFound(f"No message {message_id}.")
    return message_from_row(row)


def is_valid(session_id: str, message_id: str) -> bool:
    """Whether the message is still in the session's valid history."""
    row = row_in(view_of(session_id), message_id)
    return bool(row and row.valid)


def message_count(session_id: str) -> int:
    """Number of valid messages."""
    return view_of(session_id).count()


def history_page(session_id: str, before_seq: int | None = None, limit: int = 200) -> list[Message]:
    """The ``limit`` valid messages just before ``before_seq`` (or the newest), oldest first."""
    view = view_of(session_id)
    through = before_seq - 1 if before_seq is not None else None
    rows = list(view.rows(newest_first=True, limit=limit, through=through))
    return [view.decode(r) for r in reversed(rows)]


def valid_messages(session_id: str, after_seq: int = 0, limit: int | None = None) -> list[Message]:
    """The valid messages after ``after_seq`` (at most ``limit``), oldest first (context compilation
    reads a long history a chunk at a time: ``context_reads``)."""
    view = view_of(session_id)
    return [view.decode(r) for r in view.rows(limit=limit, after=after_seq)]


def invalidate_from(session_id: str, seq: int) -> int:
    """Take every valid message with ``seq >= seq`` out of the session's history; returns how many
    of its own rows were marked invalid. Sessions inheriting them keep them (``hand_over``)."""
    hand_over(session_id, seq)
    lower_base(session_id, seq)
    return int(MessageRow.update(valid=False)
               .where((MessageRow.session == session_id) & _VALID & (MessageRow.seq >= seq))
               .execute())


def replay(session_id: str) -> list[Message]:
    """Derive the valid history from the event log alone (an inherited history from the base's
    rows: ``history_inherited`` names how far it reaches)."""
    current: dict[str, Message] = {}
    for seq, type_, payload in events_of(session_id):
        if type_ == "history_inherited":
            view = view_of(session_id)
            rows = view.rows(through=payload["through_seq"])
            current = {m.id: m for m in map(view.decode, rows)}
        elif type_ == "message_added":
            current[payload["id"]] = message_from_payload(session_id, seq, payload)
        elif type_ == "message_updated" and payload["id"] in current:
            old = current[payload["id"]]
            current[payload["id"]] = message_from_payload(session_id, old.seq, payload)
        elif type_ == "history_rewound":
            current = {k: m for k, m in current.items() if m.seq < payload["from_seq"]}
    return sorted(current.values(), key=lambda m: m.seq)





def complete_tool_call(call_message: Message, result: Message,
                       changes: list[tuple[str, str | None, str | None, str]] | None = None,
                       ) -> tuple[Message, Message]:
    """Store a tool result, its call's final state and its file changes together.

    One transaction: after a crash either all three exist or none does, so a
    finished tool is never mistaken for one that was still running.
    """
    stored_call = update_message(call_message)
    stored_result = append_message(result)
    for path, before, after, kind in changes or ():
        FileChangeRow.insert(session=result.session_id, seq=stored_result.seq, path=path,
                             before_sha=before, after_sha=after, kind=kind).execute()
    return stored_call, stored_result
