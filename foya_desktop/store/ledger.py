"""Reads for the status line and usage views (sync; the reader thread).

A finished turn's figures are derived from what was stored — the usage
ledger (one row per model request) and the turn's tool results — never from
live counters kept after the turn (Yeaft seed Y46).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import peewee as pw

from foya_desktop.core.figures import Usage
from foya_desktop.core.ids import now_ms
from foya_desktop.core.messages import Message
from foya_desktop.store.history_view import view_of
from foya_desktop.store.schema import MessageRow, PriceRow, UsageRow


@dataclass(frozen=True, slots=True)
class UsageEntry:
    """One model request in the ledger."""

    session_id: str
    turn_id: str
    speaker: str
    model: str
    usage: Usage
    created_at: int
    connection: str = ""


def latest_turn_id(session_id: str) -> str | None:
    """The turn of the session's newest valid user message, if any."""
    row = next(view_of(session_id).rows(MessageRow.role == "user", newest_first=True, limit=1), None)
    return str(row.turn_id) if row is not None and row.turn_id else None


def turn_messages(session_id: str, turn_id: str) -> list[Message]:
    """The valid messages of one turn, in order."""
    view = view_of(session_id)
    return [view.decode(r) for r in view.rows(MessageRow.turn_id == turn_id)]


def usage_entries(session_id: str | None = None, turn_id: str | None = None) -> list[UsageEntry]:
    """Ledger rows, oldest first; all of them, one session's (also deleted), or one turn's."""
    query = UsageRow.select().order_by(UsageRow.created_at)
    if session_id is not None:
        query = query.where(UsageRow.session_id == session_id)
    if turn_id is not None:
        query = query.where(UsageRow.turn_id == turn_id)
    return [UsageEntry(r.session_id, r.turn_id, r.speaker, r.model,
                       Usage(r.input_tokens, r.output_tokens, r.cache_read_tokens, r.cache_write_tokens),
                       r.created_at, r.connection) for r in query]


@dataclass(frozen=True, slots=True)
class Price:
    """USD per million tokens; ``None`` cache prices fall back to the input price."""

    connection: str
    model: str
    input_per_mtok: float
    output_per_mtok: float
    cache_read_per_mtok: float | None = None
    cache_write_per_mtok: float | None = None


def set_price(price: Price) -> None:
    """Insert or replace the price of one connection and model."""
    PriceRow.insert(connection=price.connection, model=price.model, input_per_mtok=price.input_per_mtok,
                    output_per_mtok=price.output_per_mtok, cache_read_per_mtok=price.cache_read_per_mtok,
                    cache_write_per_mtok=price.cache_write_per_mtok).on_conflict_replace().execute()


def prices() -> dict[tuple[str, str], Price]:
    """Every configured price by (connection, model)."""
    return {(r.connection, r.model): Price(r.connection, r.model, r.input_per_mtok, r.output_per_mtok,
                                           r.cache_read_per_mtok, r.cache_write_per_mtok)
            for r in PriceRow.select()}


def record_usage(session_id: str, turn_id: str, speaker: str, model: str, usage: Usage,
                 connection: str = "") -> None:
    """Add one request's usage to the ledger (kept after session deletion; a write)."""
    UsageRow.insert(
        session_id=session_id, turn_id=turn_id, speaker=speaker, model=model, connection=connection,
        input_tokens=usage.input_tokens, output_tokens=usage.output_tokens,
        cache_read_tokens=usage.cache_read_tokens, cache_write_tokens=usage.cache_write_tokens,
        created_at=now_ms()).execute()


def request_started(session_id: str, turn_id: str, speaker: str, model: str, connection: str = "") -> int:
    """Record a model request as it is sent, with no usage yet (:func:`request_ended` adds it); its
    row id.

    Why at the start: the window counts a request while it streams, and ``foya sessions status``
    run from another process reads the same fact from here (Yeaft Y42). The request's reply is
    stored when it ends, so a request of a running turn with no reply of its VP stored after it is
    still on its way (``engine.session.status``)."""
    return int(UsageRow.insert(session_id=session_id, turn_id=turn_id, speaker=speaker, model=model,
                               connection=connection, created_at=now_ms()).execute())


def request_ended(row_id: int, usage: Usage) -> None:
    """The request of :func:`request_started` ended with what the provider reported (maybe nothing)."""
    UsageRow.update(input_tokens=usage.input_tokens, output_tokens=usage.output_tokens,
                    cache_read_tokens=usage.cache_read_tokens,
                    cache_write_tokens=usage.cache_write_tokens).where(
        UsageRow._meta.primary_key == row_id).execute()


def usage_totals(session_id: str) -> Usage:
    """Summed usage for a session id (also after deletion)."""
    cols = (UsageRow.input_tokens, UsageRow.output_tokens, UsageRow.cache_read_tokens,
            UsageRow.cache_write_tokens)
    query = UsageRow.select(*[pw.fn.SUM(c) for c in cols]).where(UsageRow.session_id == session_id)
    row = cast(tuple[int | None, ...], query.tuples().get())
    return Usage(row[0], row[1], row[2], row[3])
