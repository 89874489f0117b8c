"""A session's outline: its user turns and, under each, the VP blocks that answered (Ctrl+F's sibling).

The outline side list covers the whole session, not the timeline's window, so
it is read from the store. Two light queries on the (session, valid, seq)
index: roles and speakers of every message (no message bodies), then the
first line of text of only the messages that start an entry.
"""

# ruff: noqa: S608
from __future__ import annotations

from dataclasses import dataclass

from foya_desktop.store.history_view import view_of
from foya_desktop.store.schema import database_proxy

PREVIEW_CHARS = 120
_CHUNK = 500


@dataclass(frozen=True, slots=True)
class OutlineEntry:
    """A user turn (``speaker == ""``) or the start of a VP block under it."""

    message_id: str
    seq: int
    speaker: str
    """The VP id of a block; empty for the person's message."""
    created_at: int
    preview: str
    """The first line of the entry's text (empty: the block starts with tool calls)."""

    @property
    def is_turn(self) -> bool:
        """The person's message (a top-level entry)."""
        return not self.speaker


def session_outline(session_id: str) -> list[OutlineEntry]:
    """User messages and VP block starts of one session, oldest first."""
    view, args = view_of(session_id).sql("m")
    rows: list[tuple[str, int, str, str | None, int]] = database_proxy.execute_sql(
        "SELECT m.id, m.seq, m.role, m.speaker, m.created_at FROM message_row AS m WHERE "
        f"{view} AND m.valid AND m.role IN ('user', 'assistant') ORDER BY m.seq", args).fetchall()
    starts: list[tuple[str, int, str, int]] = []
    previous = None
    for mid, seq, role, speaker, created_at in rows:
        who = "" if role == "user" else (speaker or "?")
        if role == "user" or who != previous:
            starts.append((mid, int(seq), who, int(created_at)))
        previous = who if role == "assistant" else None
    previews = _previews([s[0] for s in starts])
    return [OutlineEntry(mid, seq, who, at, previews.get(mid, "")) for mid, seq, who, at in starts]


def _previews(ids: list[str]) -> dict[str, str]:
    """The first non-empty line of each message's text parts."""
    out: dict[str, str] = {}
    text_of = ("(SELECT group_concat(json_extract(value, '$.text'), char(10)) FROM json_each(m.parts) "
               "WHERE json_extract(value, '$.kind') = 'text')")
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start:start + _CHUNK]
        marks = ", ".join("?" for _ in chunk)
        sql = f"SELECT m.id, substr({text_of}, 1, 400) FROM message_row AS m WHERE m.id IN ({marks})"
        for mid, text in database_proxy.execute_sql(sql, chunk).fetchall():
            line = next((ln.strip() for ln in str(text or "").splitlines() if ln.strip()), "")
            out[mid] = line[:PREVIEW_CHARS]
    return out
