"""What a running turn's coroutines share without threading it through every call.

The turn task sets the scope once; every VP run of that turn (they are child
tasks, so they inherit the context) sees the same session runtime and the
same compaction lock. Automatic compaction needs both: the runtime to show
phase ``compaction``, the lock so parallel VPs compact once, not twice.
"""

from __future__ import annotations

import asyncio
from contextvars import ContextVar
from dataclasses import dataclass, field

from foya_desktop.engine.session.runtime import SessionRuntime


@dataclass
class TurnScope:
    """The running turn's session runtime and its compaction lock."""

    rt: SessionRuntime
    compaction_lock: asyncio.Lock = field(default_factory=asyncio.Lock)


TURN_SCOPE: ContextVar[TurnScope | None] = ContextVar("foya_turn_scope", default=None)


def enter_turn(rt: SessionRuntime) -> None:
    """Called at the top of a turn task (its context is its own copy)."""
    TURN_SCOPE.set(TurnScope(rt))
