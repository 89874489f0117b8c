"""Messages made of typed parts, and their JSON form for the store.

A message in the valid-history projection is one of: a user message, an
assistant message (text, reasoning and tool calls of one model step), or a
tool result. Streaming deltas are never messages; only completed parts are.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Literal

Role = Literal["user", "assistant", "tool"]


class MessageStatus(enum.StrEnum):
    """How a message ended. Only ``complete`` messages are whole."""

    COMPLETE = "complete"
    INTERRUPTED = "interrupted"  # stopped or cut mid-stream; kept, never shown as complete
    ERROR = "error"


class ToolState(enum.StrEnum):
    """A tool call's life: pending → running → completed | error."""

    PENDING = "pending"
    RUNNING = "running"
    COMPLETED = "completed"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class TextPart:
    """Visible text (markdown)."""

    text: str
    kind: Literal["text"] = "text"


@dataclass(frozen=True, slots=True)
class ReasoningPart:
    """Model thinking/reasoning text; shown folded, sent back only where the vendor wants it."""

    text: str
    signature: str = ""
    """Anthropic's thinking signature; empty for other vendors."""
    kind: Literal["reasoning"] = "reasoning"


@dataclass(frozen=True, slots=True)
class ImagePart:
    """An image stored as a content-addressed artifact."""

    artifact: str
    """sha256 hex of the bytes."""
    mime: str
    name: str = ""
    kind: Literal["image"] = "image"


@dataclass(frozen=True, slots=True)
class ToolCallPart:
    """A tool call the model made; its result is a separate ``tool`` message."""

    call_id: str
    name: str
    arguments: dict[str, Any]
    state: ToolState = ToolState.PENDING
    kind: Literal["tool_call"] = "tool_call"


@dataclass(frozen=True, slots=True)
class ToolResultPart:
    """The outcome of one tool call, fed back to the model."""

    call_id: str
    name: str
    content: str
    is_error: bool = False
    images: tuple[ImagePart, ...] = ()
    kind: Literal["tool_result"] = "tool_result"


Part = TextPart | ReasoningPart | ImagePart | ToolCallPart | ToolResultPart


@dataclass(frozen=True, slots=True)
class Message:
    """One message of the valid history."""

    id: str
    session_id: str
    role: Role
    parts: tuple[Part, ...]
    speaker: str | None = None
    """VP id for assistant and tool messages; ``None`` for the person."""
    status: MessageStatus = MessageStatus.COMPLETE
    turn_id: str = ""
    created_at: int = 0
    seq: int = 0
    """Event sequence number that created this message (0 until stored)."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Free-form extras: ``imported_from``, ``interrupted_reason``, ``model``…"""

    @property
    def text(self) -> str:
        """All visible text parts joined: what a person reads."""
        return "".join(p.text for p in self.parts if isinstance(p, TextPart))

    @property
    def tool_calls(self) -> tuple[ToolCallPart, ...]:
        """The tool calls of an assistant message, in order."""
        return tuple(p for p in self.parts if isinstance(p, ToolCallPart))

    @property
    def tool_result(self) -> ToolResultPart | None:
        """The result part of a ``tool`` message."""
        for p in self.parts:
            if isinstance(p, ToolResultPart):
                return p
        return None


def part_to_json(part: Part) -> dict[str, Any]:
    """Serialise one part for the store."""
    if isinstance(part, ToolResultPart):
        data: dict[str, Any] = {
            "kind": part.kind, "call_id": part.call_id, "name": part.name,
            "content": part.content, "is_error": part.is_error,
            "images": [part_to_json(i) for i in part.images],
        }
        return data
    data = {k: getattr(part, k) for k in part.__slots__}
    if isinstance(part, ToolCallPart):
        data["state"] = str(part.state)
    return data


def part_from_json(data: dict[str, Any]) -> Part:
    """Inverse of :func:`part_to_json`; unknown kinds raise ``ValueError``."""
    kind = data.get("kind")
    if kind == "text":
        return TextPart(text=data["text"])
    if kind == "reasoning":
        return ReasoningPart(text=data["text"], signature=data.get("signature", ""))
    if kind == "image":
        return ImagePart(artifact=data["artifact"], mime=data["mime"], name=data.get("name", ""))
    if kind == "tool_call":
        return ToolCallPart(call_id=data["call_id"], name=data["name"],
                            arguments=dict(data["arguments"]), state=ToolState(data["state"]))
    if kind == "tool_result":
        images = tuple(ImagePart(artifact=i["artifact"], mime=i["mime"], name=i.get("name", ""))
                       for i in data.get("images", []))
        return ToolResultPart(call_id=data["call_id"], name=data["name"], content=data["content"],
                              is_error=bool(data["is_error"]), images=images)
    raise ValueError(f"unknown message part kind: {kind!r}")


def attachments_in_order(message: Message) -> list[str]:
    """The message's image hashes in order, then its tool result's (the order
    ``unavailable_attachments`` lists them in)."""
    shas = [p.artifact for p in message.parts if isinstance(p, ImagePart)]
    result = message.tool_result
    if result is not None:
        shas += [i.artifact for i in result.images]
    return shas


def artifacts_of(message: Message) -> set[str]:
    """Every artifact hash a message references (images and tool-result images)."""
    found: set[str] = set()
    for p in message.parts:
        if isinstance(p, ImagePart):
            found.add(p.artifact)
        elif isinstance(p, ToolResultPart):
            found.update(i.artifact for i in p.images)
    return found
