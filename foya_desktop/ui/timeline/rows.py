"""What one timeline row holds: a stored message, or a reply still streaming.

Tool results are stored as separate ``tool`` messages, but a person reads a
call and its outcome as one thing ("read_file src/app.py → 120 lines"). So a
result whose call is in the window is attached to the assistant row that made
the call instead of getting a row of its own.

Rows are mutable on purpose: the model gives a row a new ``revision`` on
every visible change, and the delegate keys its size cache on it. Revisions
come from one counter for all rows (``new_revision``): a row built again for
the same message (the session reopened) must never reuse a height measured
for an earlier state of another row object — thumbnails then overlapped the
messages below after reopening a session.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from foya_desktop.core.messages import Message, ToolResultPart
from foya_desktop.ui.theme import USER_KEY
from foya_desktop.ui.timeline.incremental import StreamingDocument

_revisions = itertools.count(1)


def new_revision() -> int:
    """A revision number no row has had before (see the module docstring)."""
    return next(_revisions)


@dataclass(eq=False, slots=True)
class MessageRow:
    """A stored message (user, assistant, or an unattached tool result)."""

    message: Message
    results: dict[str, Message] = field(default_factory=dict)
    """Tool messages answering this row's calls, by call id."""
    expanded: set[int] = field(default_factory=set)
    """Indices of parts the person unfolded (reasoning, tool details)."""
    revision: int = field(default_factory=new_revision)

    @property
    def key(self) -> str:
        """Stable identity for caches: the message id."""
        return self.message.id

    @property
    def speaker_key(self) -> str:
        """Who speaks: the VP id, or ``USER_KEY`` for the person."""
        return USER_KEY if self.message.role == "user" else (self.message.speaker or "")

    @property
    def seq(self) -> int:
        """Store sequence number, used to page older history."""
        return self.message.seq

    def result_for(self, call_id: str) -> ToolResultPart | None:
        """The attached result of one call, if it has arrived."""
        found = self.results.get(call_id)
        return found.tool_result if found is not None else None

    def plain_text(self) -> str:
        """What a copy or a screen reader gets."""
        if self.message.role == "tool":
            result = self.message.tool_result
            return result.content if result is not None else ""
        return self.message.text


@dataclass(eq=False, slots=True)
class StreamRow:
    """A model step still streaming; replaced by its stored message when that arrives."""

    message_id: str
    """The id the stored message will have (carried by the stream events)."""
    speaker: str
    turn_id: str
    body: StreamingDocument
    reasoning: str = ""
    tool_args: str = ""
    ended: bool = False
    revision: int = field(default_factory=new_revision)
    tail_top: int = 0
    """Where the open tail document starts, in row coordinates (set when measured)."""
    tail_height: int = 0
    """Height of the open tail document when last measured."""
    text_only: bool = True
    """The latest change only appended body text (only the tail area needs repainting)."""

    @property
    def key(self) -> str:
        """Stable identity for caches, never equal to the finished message's key (its
        measured size must not be reused for the stored message)."""
        return "stream:" + self.message_id

    @property
    def speaker_key(self) -> str:
        """The VP that is streaming."""
        return self.speaker

    def append(self, kind: str, text: str) -> None:
        """Add coalesced streamed text of one kind."""
        self.text_only = kind == "text"
        if kind == "text":
            self.body.append(text)
        elif kind == "reasoning":
            self.reasoning += text
        else:
            self.tool_args += text
        self.revision = new_revision()

    def plain_text(self) -> str:
        """What a copy or a screen reader gets."""
        return self.body.text



@dataclass(eq=False, slots=True)
class CheckpointRow:
    """Where a compaction checkpoint sits: later model requests start from its summary.

    Drawn as a marker line between the last covered message and the next one
    (see ``timeline/checkpoints.py``); the messages above it stay in the timeline.
    """

    checkpoint_id: str
    covers_seq: int
    """The last message seq the summary covers."""
    summary: str = ""
    automatic: bool = False
    revision: int = field(default_factory=new_revision)

    @property
    def key(self) -> str:
        """Stable identity for caches: the checkpoint id."""
        return self.checkpoint_id

    @property
    def speaker_key(self) -> str:
        """Nobody speaks; the row after a marker starts a new block."""
        return ""

    def plain_text(self) -> str:
        """What a copy or a screen reader gets."""
        return checkpoint_text()


CHECKPOINT_TEXT = str(QT_TRANSLATE_NOOP(
    "CheckpointRow", "Earlier messages summarised for the model — the timeline keeps everything"))
"""English; shown as ``checkpoint_text()``."""


def checkpoint_text() -> str:
    """What a compaction marker says, in the window's language."""
    return QCoreApplication.translate("CheckpointRow", CHECKPOINT_TEXT)

Row = MessageRow | StreamRow | CheckpointRow
