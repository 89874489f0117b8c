"""Engine events: what the UI and CLI listen to.

Value types that travel inside events but are not events themselves (queue
items, task records, checkpoints) live in ``core/records.py`` and usage
figures in ``core/figures.py``; import them from there, never from here.

Events that change durable state are published only after the store has
committed them. ``PartDelta`` is ephemeral: it exists only while a reply
streams and is never stored.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from foya_desktop.core.figures import RunFigures, Usage
from foya_desktop.core.messages import Message, part_to_json
from foya_desktop.core.model import Phase, Session
from foya_desktop.core.records import Checkpoint, QueueItem, TaskRecord

DeltaKind = Literal["text", "reasoning", "tool_args"]
"""What a streaming piece belongs to."""

TurnStatus = Literal["completed", "stopped", "error"]
"""How a turn ended."""

VPState = Literal["running", "waiting", "done", "stopped", "error"]
"""One VP's progress within a turn."""

NoticeLevel = Literal["info", "warning", "error"]
"""How loud a notice is."""

QuestionCloseReason = Literal["expired", "cancelled", "lost"]
"""Why a question can no longer be answered."""

Catalog = Literal["vps", "connections"]
"""A list the person edits outside any session: the VP library or the model services."""

ApprovalDecision = Literal["once", "session", "always", "deny", "cancelled"]
"""How an approval request ended (the person's answer, or ``cancelled`` with the turn)."""


@dataclass(frozen=True, slots=True)
class Event:
    """Base: every event belongs to one session."""

    session_id: str


@dataclass(frozen=True, slots=True)
class SessionChanged(Event):
    """Created or updated metadata (title, settings, phase…)."""

    session: Session


@dataclass(frozen=True, slots=True)
class SessionDeletedEvent(Event):
    """The session is gone; every view drops it."""


@dataclass(frozen=True, slots=True)
class MessageAdded(Event):
    """A completed (or interrupted) message entered the valid history."""

    message: Message


@dataclass(frozen=True, slots=True)
class MessageUpdated(Event):
    """A stored message changed in place (e.g. a tool call state)."""

    message: Message


@dataclass(frozen=True, slots=True)
class StreamStarted(Event):
    """A VP began a model step; deltas with this ``message_id`` follow.

    ``message_id`` is allocated when the stream starts: the message stored at
    its end (complete, or interrupted with what streamed) keeps the same id, so
    a view replaces the streaming row by id instead of guessing.
    """

    message_id: str
    speaker: str
    turn_id: str


@dataclass(frozen=True, slots=True)
class PartDelta(Event):
    """A piece of streaming text of message ``message_id``. Not persisted."""

    message_id: str
    speaker: str
    kind: DeltaKind
    text: str


@dataclass(frozen=True, slots=True)
class StreamEnded(Event):
    """The step's stream is over; message ``message_id`` arrives as ``MessageAdded``
    (unless nothing streamed before a stop or failure: then no message is stored)."""

    message_id: str
    speaker: str


@dataclass(frozen=True, slots=True)
class PhaseChanged(Event):
    """The kernel moved the session to another phase."""

    phase: Phase


@dataclass(frozen=True, slots=True)
class QueueChanged(Event):
    """A full snapshot of the session's queue after any change."""

    items: tuple[QueueItem, ...]


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """A turn began for one user message, targeting these VPs."""

    turn_id: str
    user_message_id: str
    targets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TurnFinished(Event):
    """A turn ended. ``status`` is ``completed``, ``stopped`` or ``error``."""

    turn_id: str
    status: TurnStatus
    error: str = ""
    """The English sentence (the CLI prints it): each failed VP's ``name: error``, joined by ``; ``."""
    usage: Usage = dataclasses.field(default_factory=Usage)
    error_code: str = ""
    """``turn_failed`` (``core/error_codes.py`` TURN_FAILED) when ``status`` is ``error``."""
    error_params: Mapping[str, object] = dataclasses.field(default_factory=dict)
    """``failures``: one mapping per failed VP (``vp``, ``code``, ``params``, ``error``), so a window
    can say each in its language (see :func:`turn_failure`)."""


def turn_failure(vp: str, code: str, params: Mapping[str, object], error: str) -> dict[str, object]:
    """One failed VP of a turn, as ``TurnFinished.error_params["failures"]`` holds it."""
    return {"vp": vp, "code": code, "params": dict(params), "error": error}


def turn_failed(failures: list[dict[str, object]]) -> tuple[str, str, dict[str, object]]:
    """``(error, error_code, error_params)`` of a failed turn: the English sentence and its code."""
    english = "; ".join(f"{f['vp']}: {f['error']}" for f in failures)
    return english, "turn_failed", {"failures": tuple(failures)}


@dataclass(frozen=True, slots=True)
class VPStatus(Event):
    """Per-VP progress within a turn (running, done, error) with counters."""

    turn_id: str
    speaker: str
    state: VPState
    requests: int = 0
    tool_runs: int = 0
    """Executions: calls that really ran (blocked calls are not executions)."""
    tool_failures: int = 0
    """Failed executions plus blocked calls."""
    error: str = ""
    figures: RunFigures = dataclasses.field(default_factory=RunFigures)
    """Tokens, per-tool tallies and run details (see ``core.figures``)."""
    error_code: str = ""
    """The stable code of ``error`` (``core/error_codes.py``), so a window can translate it."""
    error_params: Mapping[str, object] = dataclasses.field(default_factory=dict)
    """The values ``error`` was built from."""


@dataclass(frozen=True, slots=True)
class Notice(Event):
    """A plain-words message for the person (e.g. a retry, a refused operation)."""

    level: NoticeLevel
    text: str
    code: str = ""
    """The stable code of the notice (``core/error_codes.py`` NOTICE_CODES), so a window can translate it."""
    params: Mapping[str, object] = dataclasses.field(default_factory=dict)
    """The values ``text`` was built from."""


def event_to_json(event: Event) -> dict[str, Any]:
    """A JSON-ready dict with the event's type name; used by ``foya run --json``."""
    data: dict[str, Any] = {"type": type(event).__name__}
    for f in dataclasses.fields(event):
        data[f.name] = _jsonable(getattr(event, f.name))
    return data


def _jsonable(value: Any) -> Any:
    if isinstance(value, Message):
        return {"id": value.id, "role": value.role, "speaker": value.speaker,
                "status": str(value.status), "turn_id": value.turn_id,
                "parts": [part_to_json(p) for p in value.parts]}
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class ApprovalRequested(Event):
    """A tool call waits for the person's decision."""

    request_id: str
    speaker: str
    tool: str
    arguments: dict[str, Any]
    summary: str
    command: str = ""
    diff: str = ""
    paths: tuple[str, ...] = ()
    reason: str = ""
    can_always: bool = True
    """Whether a narrow persistent rule can be made for this call."""
    call_id: str = ""
    """The tool call waiting for this decision (places the card at the call)."""
    reason_code: str = ""
    """``reason``'s stable code (``core/error_codes.py`` APPROVAL_REASONS); ``""`` for a free-form one."""
    reason_params: Mapping[str, object] = dataclasses.field(default_factory=dict)
    """The values ``reason`` was built from, so a window can say it in its language."""
    can_session: bool = True
    """Whether "Allow for this session" would be honoured (``permissions.policy.session_key``)."""


@dataclass(frozen=True, slots=True)
class ApprovalResolved(Event):
    """A pending approval was answered (or dropped because the turn ended)."""

    request_id: str
    decision: ApprovalDecision


@dataclass(frozen=True, slots=True)
class QuestionAsked(Event):
    """A VP asks the person something (AskUser card)."""

    question_id: str
    speaker: str
    call_id: str
    question: str
    choices: tuple[str, ...] = ()
    allow_free_text: bool = True
    turn_id: str = ""
    """The turn the question belongs to."""


@dataclass(frozen=True, slots=True)
class QuestionAnswered(Event):
    """The engine accepted and persisted the answer (the card may show success now)."""

    question_id: str
    answer: str


@dataclass(frozen=True, slots=True)
class QuestionClosed(Event):
    """The question can no longer be answered: ``expired``, ``cancelled`` or ``lost``."""

    question_id: str
    reason: QuestionCloseReason


@dataclass(frozen=True, slots=True)
class TaskChanged(Event):
    """A task record was created or changed."""

    task: TaskRecord


@dataclass(frozen=True, slots=True)
class MemoryChanged(Event):
    """A memory entry was saved, edited or removed (``session_id``: where, "" outside a session).

    A VP's save also shows as its ``memory`` call in the timeline, with an undo; a save that
    reaches other projects (user and VP scopes) is also announced (``foya run`` prints a line,
    the window shows a notice with an undo).
    """

    entry_id: str
    change: str
    """``saved``, ``edited`` or ``removed``."""
    scope: str
    author: str
    """The VP id that did it, or ``person``."""
    text: str = ""
    """The entry's text (a notice shows what was saved)."""
    vp_id: str = ""
    """The VP whose scope it is (``vp``, ``session-vp``), "" otherwise."""


@dataclass(frozen=True, slots=True)
class CatalogChanged(Event):
    """A VP or a connection was saved, copied or removed (``session_id`` is "": no session's).

    Every list of them (the VP editor, Connections) reloads from it, so what was just saved
    shows wherever it is listed, whoever saved it.
    """

    catalog: Catalog


# ---- session lifecycle: branch, rewind, compaction --------------------------

@dataclass(frozen=True, slots=True)
class SessionBranched(Event):
    """A new top-level session (``session_id``) was branched from ``source_id``.

    A ``SessionChanged`` for the new session is published first; this event
    says where it came from so a view may open it.
    """

    source_id: str
    after_message_id: str
    copied: int
    """How many messages were written for the branch (the finished turns it inherits are shared with
    the source, not copied: ``store.history_view``)."""


@dataclass(frozen=True, slots=True)
class HistoryRewound(Event):
    """A user message and everything after it left the valid history.

    Views reload the session's history; the composer receives ``text``.
    The original events stay in the log.
    """

    message_id: str
    from_seq: int
    text: str
    restored: tuple[str, ...] = ()
    """Files written back to their content before the message (paths relative to the workdir)."""
    removed: tuple[str, ...] = ()
    """Files the removed turns had created, now deleted again."""
    skipped: tuple[str, ...] = ()
    """Files that could not be restored safely and were left untouched."""
    invalidated_checkpoints: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CompactionCheckpoint(Event):
    """A checkpoint was written (manually or automatically)."""

    checkpoint: Checkpoint
