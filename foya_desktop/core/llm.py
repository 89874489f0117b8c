"""The vendor-neutral model request and stream vocabulary.

Adapters in ``providers/`` translate these to and from each vendor's wire
format; vendor JSON never leaves an adapter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from foya_desktop.core.figures import Usage
from foya_desktop.core.messages import ReasoningPart, TextPart, ToolCallPart


@dataclass(frozen=True, slots=True)
class InlineImage:
    """Image bytes resolved from an artifact, ready to send."""

    mime: str
    data: bytes


@dataclass(frozen=True, slots=True)
class LlmToolResult:
    """A tool result as the model sees it."""

    call_id: str
    name: str
    content: str
    is_error: bool = False
    images: tuple[InlineImage, ...] = ()


LlmPart = TextPart | ReasoningPart | InlineImage | ToolCallPart | LlmToolResult


@dataclass(frozen=True, slots=True)
class LlmMessage:
    """One message of a request. Roles: ``user``, ``assistant``, ``tool``.

    A ``tool`` message holds exactly one :class:`LlmToolResult`; adapters group
    consecutive tool messages as their vendor requires.
    """

    role: Literal["user", "assistant", "tool"]
    parts: tuple[LlmPart, ...]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool offered to the model: name, description, JSON-schema parameters."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(frozen=True, slots=True)
class LlmRequest:
    """Everything one model step needs."""

    model: str
    system: str
    messages: tuple[LlmMessage, ...]
    tools: tuple[ToolSpec, ...] = ()
    reasoning_effort: str = ""
    """``""`` (provider default), ``low``, ``medium`` or ``high``."""
    max_tokens: int = 8192
    extra: dict[str, Any] = field(default_factory=dict)


# ---- stream events -------------------------------------------------------

@dataclass(frozen=True, slots=True)
class TextDelta:
    """Visible text arrived."""

    text: str


@dataclass(frozen=True, slots=True)
class ReasoningDelta:
    """Reasoning/thinking text arrived."""

    text: str


@dataclass(frozen=True, slots=True)
class ReasoningSignature:
    """Anthropic's signature for the thinking block just finished."""

    signature: str


@dataclass(frozen=True, slots=True)
class ToolCallStart:
    """A tool call began at stream position ``index``."""

    index: int
    call_id: str
    name: str


@dataclass(frozen=True, slots=True)
class ToolCallDelta:
    """A fragment of a tool call's JSON arguments."""

    index: int
    fragment: str


@dataclass(frozen=True, slots=True)
class ToolCallEnd:
    """A tool call is complete with parsed arguments.

    A model may send arguments that are not a JSON object (small local models often do): the
    call still ends here, with ``arguments`` empty and ``unreadable`` saying why, so the engine
    can tell the model instead of running the call or ending the turn.
    An empty ``call_id`` means the server sent none; the engine gives the call one.
    """

    index: int
    call_id: str
    name: str
    arguments: dict[str, Any]
    unreadable: str = ""
    """Why the arguments could not be read (e.g. ``not valid JSON (Expecting value: …)``)."""
    raw: str = ""
    """The argument text as it came, when ``unreadable``."""


@dataclass(frozen=True, slots=True)
class UsageReport:
    """Token usage for this request (may arrive more than once; last wins per field)."""

    usage: Usage


@dataclass(frozen=True, slots=True)
class Finish:
    """The terminal event: the stream is complete.

    ``reason`` is normalised to ``stop``, ``tool_calls``, ``length`` or ``other``.
    """

    reason: str


StreamEvent = (TextDelta | ReasoningDelta | ReasoningSignature | ToolCallStart | ToolCallDelta
               | ToolCallEnd | UsageReport | Finish)
