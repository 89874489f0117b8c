"""A turn's figures per VP, derived from the store (for ``foya sessions status``).

The live status line gets the same figures from ``VPStatus`` events while a
turn runs; afterwards nothing live is kept (Yeaft seed Y46), so the figures
of the last turn are rebuilt here — labelled as the last turn, and as
"running" only while a live process holds the session (a crash leaves the
phase behind, not a running turn) — from the usage ledger and the turn's tool
results, with the same counter and the same rules (``core.figures``). It
works from any process: everything comes from the database.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from foya_desktop.core.figures import FigureCounter, RunFigures
from foya_desktop.core.messages import Message
from foya_desktop.core.model import Phase
from foya_desktop.store import leases
from foya_desktop.store.ledger import latest_turn_id, turn_messages, usage_entries
from foya_desktop.store.sessions import get_session
from foya_desktop.store.store import Store


@dataclass(frozen=True, slots=True)
class TurnStatus:
    """The running or last turn of a session."""

    session_id: str
    turn_id: str
    running: bool
    """A live process is running this turn now (the session's phase alone could be a crash's leftover)."""
    vps: tuple[tuple[str, RunFigures], ...]
    """(speaker id, figures) in the order the VPs were targeted."""
    interrupted: bool = False
    """The turn was left mid-way: the process running it stopped (crash, kill) and nothing has
    recovered the session yet. Its figures are what was recorded, not live (Yeaft Y46)."""


async def turn_status(store: Store, session_id: str) -> TurnStatus | None:
    """The figures of the running or last turn; ``None`` before the first turn."""
    session = await store.read(get_session, session_id)
    turn_id = await store.read(latest_turn_id, session_id)
    if turn_id is None:
        return None
    mid_turn = session.phase == Phase.TURN
    running = mid_turn and await store.read(leases.held_by_live_process, store.home.run, session_id)
    messages = await store.read(turn_messages, session_id, turn_id)
    entries = await store.read(usage_entries, session_id, turn_id)
    counters = {speaker: FigureCounter() for speaker in _targets(messages)}
    replied = _last_reply(messages)
    for entry in entries:
        # a request is recorded when it is sent, as the runner counts it (one fact for the window
        # and this), and its reply when it ends: until then its usage is not reported yet
        counter = counters.setdefault(entry.speaker, FigureCounter())
        counter.request()
        if not running or replied.get(entry.speaker, -1) >= entry.created_at:
            counter.reported(entry.usage)
    arguments = _call_arguments(messages)
    for m in messages:
        result = m.tool_result
        if result is None or not m.speaker:
            continue
        counters.setdefault(m.speaker, FigureCounter()).tool(
            result.name, arguments.get(result.call_id, ""), blocked=bool(m.meta.get("blocked")),
            failed=result.is_error, output=result.content, at=m.created_at, known=_outcome_known(m))
    return TurnStatus(session_id, turn_id, running,
                      tuple((speaker, c.snapshot()) for speaker, c in counters.items()),
                      interrupted=mid_turn and not running)


def _outcome_known(m: Message) -> bool:
    """Whether the result says if its call ran: ``blocked`` is written on every result since
    the per-tool breakdown exists; an interrupted call (stop, crash recovery, branch) did run."""
    return "blocked" in m.meta or bool(m.meta.get("interrupted"))


def _last_reply(messages: list[Message]) -> dict[str, int]:
    """speaker → when its newest reply of the turn was stored (at the end of its request)."""
    return {m.speaker: m.created_at for m in messages if m.role == "assistant" and m.speaker}


def _targets(messages: list[Message]) -> list[str]:
    for m in messages:
        if m.role == "user":
            return [str(t) for t in m.meta.get("targets", [])]
    return []


def _call_arguments(messages: list[Message]) -> dict[str, str]:
    """call id → canonical JSON of its arguments (as the live counter sees them)."""
    return {call.call_id: json.dumps(call.arguments, sort_keys=True)
            for m in messages for call in m.tool_calls}
