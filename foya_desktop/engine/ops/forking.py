"""Fork (Yeaft "复制会话") and fork from this turn ("从此轮分叉").

A fork is a new top-level session with the source's persistent history, announcement,
roster and default VP, workdir, connection/model/effort, approval mode and project. It
never stops or changes the source. While a turn generates, only the history before the
active input is copied (one turn runs at a time, so that is also the earliest active
input; parallel VPs and hand-offs all belong to it). Not copied: queue, running tasks,
background processes, approvals, debug traces, session memory, compaction checkpoints.

"Fork from this turn" copies the start of the history up to and including every message
of the chosen turn, in persisted order. It refuses — never falls back to copying
everything — when the turn id is missing, the turn is still running, its messages are
interleaved with another turn's (an ambiguous boundary), or the boundary would separate a
tool call from its result.

Copies drop provider-private continuation (``branching.copy_history``'s rules: applied to the
copied last turn inside SQLite by ``store.ops_copy``, and to the inherited turns when they are
read, ``store.history_view``). Attachments are checked byte
for byte against their content hash: a readable one stays available to the fork (the new
session references the blob), one that cannot be read is listed in the copied message's
``unavailable_attachments`` meta and told to the model as unavailable — never dropped.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from foya_desktop.core.errors import InvalidOperation, NotFound
from foya_desktop.core.events import SessionBranched, SessionChanged
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import Message, attachments_in_order
from foya_desktop.core.model import AgentMode, Session
from foya_desktop.engine.ops.place import Place, placed
from foya_desktop.engine.request.context import INTERRUPTED_RESULT
from foya_desktop.engine.services import Services
from foya_desktop.store.artifacts import ArtifactFiles
from foya_desktop.store.ops_copy import (
    calls_answered_after,
    dead_calls,
    last_valid_seq,
    message_id_at,
    share_history,
    tail_after,
    turn_span,
    valid_message,
)
from foya_desktop.store.sessions import create_session, get_session


class ForkInProgress(InvalidOperation):
    """A fork of this session is already being made (the entry is disabled meanwhile)."""


class Forks:
    """Makes forks; remembers which sources are being forked right now."""

    def __init__(self, svc: Services) -> None:
        self._svc = svc
        self._busy: set[str] = set()

    def in_progress(self, session_id: str) -> bool:
        """Whether a fork of ``session_id`` is being made (disable the entry)."""
        return session_id in self._busy

    async def fork(self, session_id: str, from_turn_message_id: str | None = None,
                   place: Place | None = None) -> Session:
        """Create the fork, publish ``SessionChanged`` + ``SessionBranched`` (open it) and return it.
        ``place``: bind it to a new worktree's project instead of the source's (``engine.ops.place``)."""
        if session_id in self._busy:
            raise ForkInProgress("A fork of this session is already being made; wait for it to open.")
        self._busy.add(session_id)
        try:
            return await self._fork(session_id, from_turn_message_id, place)
        finally:
            self._busy.discard(session_id)

    async def _fork(self, session_id: str, message_id: str | None, place: Place | None) -> Session:
        source = await self._svc.store.read(get_session, session_id)
        if source.parent_id is not None:
            raise InvalidOperation("A sub-agent's child session cannot be forked; fork its parent.")
        active = self._svc.routes.active_turn(session_id)
        files = self._svc.store.files

        def job() -> tuple[Session, int, str]:
            # One write transaction: the boundary from narrow queries; the finished turns inherited
            # (copy-on-write, ``store.history_view``), the boundary's turn copied inside SQLite
            # (``store.ops_copy``): nothing grows with the history (issue 14).
            through = before_active(session_id, active) if message_id is None else \
                through_turn(session_id, message_id, active)
            created = create_session(placed(fork_session(source), place))
            after = tail_after(session_id, through)
            dead = dead_calls(session_id, through, after)
            count = share_history(session_id, created.id, through, after, dead, INTERRUPTED_RESULT,
                                  lambda sha: readable(files, sha))
            return created, count, message_id_at(session_id, through)

        created, count, last_id = await self._svc.store.write(job)
        self._svc.bus.publish(SessionChanged(created.id, created))
        self._svc.bus.publish(SessionBranched(created.id, session_id, last_id, count))
        return created


def before_active(session_id: str, active_turn: str) -> int:
    """The last seq to copy: the whole valid history, or everything before the first message of the
    running turn (writer thread)."""
    span = turn_span(session_id, active_turn) if active_turn else None
    return last_valid_seq(session_id, below=span.first if span is not None else None)


def through_turn(session_id: str, message_id: str, active_turn: str) -> int:
    """The last seq of the whole turn of ``message_id``; refuses when unclear (writer thread)."""
    try:
        chosen = valid_message(session_id, message_id)
    except (NotFound, InvalidOperation):
        raise NotFound(f"No message {message_id} in this session's history.") from None
    turn = chosen.turn_id
    if not turn:
        raise InvalidOperation("This message has no reliable turn id (an old record), so the turn it "
                               "belongs to is unknown; fork the whole session or branch instead.")
    if turn == active_turn:
        raise InvalidOperation("This turn is still generating: fork from an earlier, completed turn, "
                               "or fork the whole session (it stops before this turn).")
    span = turn_span(session_id, turn)
    if span is None or span.count != span.between:
        raise InvalidOperation("The turn's messages are interleaved with another turn's, so where it "
                               "ends is ambiguous; nothing was copied.")
    split = calls_answered_after(session_id, span.last)
    if split:
        raise InvalidOperation(f"Forking here would separate a tool call ({split[0]}) from its result, "
                               "which comes after this turn; nothing was copied.")
    return span.last


def fork_session(src: Session) -> Session:
    """The new session's settings: the source's, with a fresh id, title and origin."""
    now = now_ms()
    mode = AgentMode.PLAN if src.agent_mode == AgentMode.AWAITING_CONFIRMATION else src.agent_mode
    return Session(
        id=new_id("ses"), title=f"{src.title} (fork)", project_id=src.project_id,
        origin=f"fork:{src.id}", connection=src.connection, model=src.model,
        reasoning_effort=src.reasoning_effort, approval_mode=src.approval_mode, agent_mode=mode,
        workdir=src.workdir, announcement=src.announcement, roster=src.roster,
        default_vp=src.default_vp, created_at=now, updated_at=now)


def readable(files: ArtifactFiles, sha: str) -> bool:
    """Whether the blob exists and its bytes still hash to its name."""
    try:
        return hashlib.sha256(files.get(sha)).hexdigest() == sha
    except (OSError, ValueError):
        return False


def mark_unavailable(messages: list[Message], files: ArtifactFiles) -> list[Message]:
    """Copies whose unreadable attachments are listed in ``unavailable_attachments`` (blocking)."""
    out: list[Message] = []
    known: dict[str, bool] = {}
    for m in messages:
        missing = [s for s in attachments_in_order(m) if not known.setdefault(s, readable(files, s))]
        out.append(replace(m, meta={**m.meta, "unavailable_attachments": missing}) if missing else m)
    return out
