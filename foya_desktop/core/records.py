"""Value types the engine hands out that are not events: queue items, task records, checkpoints.

They travel inside events (``QueueChanged.items``, ``TaskChanged.task``,
``CompactionCheckpoint.checkpoint``) and are returned by kernel calls, so
they live beside the events rather than among them (issue 7).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

TaskKind = Literal["shell", "subagent"]
"""What a background task runs."""

TaskState = Literal["running", "completed", "failed", "cancelled", "lost"]
"""Where a background task is; ``lost``: the app restarted while it ran."""


@dataclass(frozen=True, slots=True)
class QueueItem:
    """A message waiting for the session to become idle."""

    id: str
    text: str
    created_at: int


@dataclass(frozen=True, slots=True)
class TaskRecord:
    """A session-scoped background job (shell command or sub-agent)."""

    id: str
    session_id: str
    kind: TaskKind
    title: str
    state: TaskState
    exit_code: int | None = None
    output_tail: str = ""
    consumed: bool = False
    created_at: int = 0
    finished_at: int | None = None


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A compaction checkpoint: ``summary`` stands in for messages with ``seq <= covers_seq``
    in later model requests. The timeline keeps every message; it draws a marker after
    the message whose seq is ``covers_seq``."""

    id: str
    session_id: str
    covers_seq: int
    summary: str
    seq: int = 0
    """Event sequence number of the checkpoint itself."""
    created_at: int = 0
    automatic: bool = False
