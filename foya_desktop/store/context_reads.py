"""Reads for compiling a model request out of a long history, a bounded slice at a time (sync).

Decoding a message row is Python work that holds the GIL (about 30–50 µs a row). Reading a
50,000-message history in one call kept the reader thread on the GIL for seconds, and the
event loop (the GUI thread in the window) waited for it at every wake-up (issue 14: the first
message into a long session froze the window). The request compiler therefore reads in
chunks (``history.valid_messages`` with a limit) and first asks SQLite — which releases the GIL while it
works — how much text there is at least (``text_chars_between``), to know without decoding
anything when the history certainly needs compacting.
"""



from __future__ import annotations

from foya_desktop.store.history_view import view_of
from foya_desktop.store.schema import database_proxy

_TEXT_CHARS_SQL = (
    'SELECT COALESCE(SUM(LENGTH(json_extract(j.value, \'$.text\'))), 0) '
    'FROM "message_row" AS m, json_each(m.parts) AS j '
    "WHERE {view} AND m.valid = 1 AND m.seq > ? AND m.seq < ? "
    "AND m.role IN ('user', 'assistant') AND json_extract(j.value, '$.kind') = 'text'")


def text_chars_between(session_id: str, after_seq: int, before_seq: int) -> int:
    """Characters of text parts of the valid user and assistant messages with
    ``after_seq < seq < before_seq``: a lower bound of what a compiled request of that
    history carries (every such text reaches it, verbatim or as another VP's note)."""
    view, args = view_of(session_id).sql()
    cursor = database_proxy.execute_sql(_TEXT_CHARS_SQL.format(view=view), (*args, after_seq, before_seq))
    row = cursor.fetchone()
    return int(row[0]) if row else 0
