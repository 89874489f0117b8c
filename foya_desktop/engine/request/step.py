"""Accumulates one model step's stream into message parts.

Only completed pieces become parts: a tool call counts once its arguments
are complete (``ToolCallEnd``); text is whatever arrived. ``partial()``
gives what may be kept when the stream did not finish.

A call the server sent without an id (or with the id of an earlier call of the
same reply) gets a fresh one here, once: it is stored with the call, its result
and every later request, so it stays the same, and it never collides with a
call of another step (call ids are matched across the whole session: results,
recovery, the timeline). Arguments the model wrote wrongly are kept as
``unreadable`` (call id → why) for the turn to tell the model.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from foya_desktop.core.figures import Usage
from foya_desktop.core.ids import new_id
from foya_desktop.core.llm import (
    Finish,
    ReasoningDelta,
    ReasoningSignature,
    StreamEvent,
    TextDelta,
    ToolCallEnd,
    UsageReport,
)
from foya_desktop.core.messages import Part, ReasoningPart, TextPart, ToolCallPart


class StreamedText:
    """The pieces of one streamed text, joined in runs so that holding them costs about their size.

    NOTE: a reply streams in deltas of a few characters; kept as one ``str`` each, a reply of a
    million 8-character deltas took ~65 bytes per delta beyond its text (8× the text). The provider
    bounds what a reply may hold (``providers.budget``), and this keeps that bound close to the
    memory really used. Iterate (``"".join(pieces)``) for the text.
    """

    __slots__ = ("_runs", "_tail")

    RUN = 256
    """Pieces joined into one string at a time (each character is copied once more)."""

    def __init__(self) -> None:
        self._runs: list[str] = []
        self._tail: list[str] = []

    def append(self, piece: str) -> None:
        """Add the next piece."""
        self._tail.append(piece)
        if len(self._tail) >= self.RUN:
            self._runs.append("".join(self._tail))
            self._tail.clear()

    def __iter__(self) -> Iterator[str]:
        yield from self._runs
        yield from self._tail

    def __bool__(self) -> bool:
        return bool(self._runs or self._tail)


@dataclass
class StepAccumulator:
    """Collects text, reasoning, finished tool calls, usage and the finish reason."""

    text: StreamedText = field(default_factory=StreamedText)
    reasoning: StreamedText = field(default_factory=StreamedText)
    signature: str = ""
    calls: list[ToolCallPart] = field(default_factory=list)
    unreadable: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Calls whose arguments could not be read, by (final) call id: why, and (the start of) what
    was sent."""
    usage: Usage = field(default_factory=Usage)
    finish: str | None = None

    def feed(self, event: StreamEvent) -> None:
        """Fold one stream event in."""
        if isinstance(event, TextDelta):
            self.text.append(event.text)
        elif isinstance(event, ReasoningDelta):
            self.reasoning.append(event.text)
        elif isinstance(event, ReasoningSignature):
            self.signature = event.signature
        elif isinstance(event, ToolCallEnd):
            call_id = event.call_id
            if not call_id or any(c.call_id == call_id for c in self.calls):
                call_id = new_id("call")
            self.calls.append(ToolCallPart(call_id, event.name, event.arguments))
            if event.unreadable:
                self.unreadable[call_id] = (event.unreadable, shown_raw(event.raw))
        elif isinstance(event, UsageReport):
            self.usage = merge_usage(self.usage, event.usage)
        elif isinstance(event, Finish):
            self.finish = event.reason

    def parts(self) -> tuple[Part, ...]:
        """Parts of a finished step: reasoning, text, tool calls."""
        return self.partial() + tuple(self.calls)

    def partial(self) -> tuple[Part, ...]:
        """Parts worth keeping from an unfinished step (never tool calls)."""
        out: list[Part] = []
        if self.reasoning:
            out.append(ReasoningPart("".join(self.reasoning), self.signature))
        if self.text:
            out.append(TextPart("".join(self.text)))
        return tuple(out)


RAW_SHOWN = 300
"""How much of unreadable arguments is quoted back to the model (and kept with the call)."""


def shown_raw(raw: str) -> str:
    """Unreadable arguments as quoted back: at most :data:`RAW_SHOWN` characters."""
    return raw if len(raw) <= RAW_SHOWN else raw[:RAW_SHOWN] + f"… ({len(raw) - RAW_SHOWN} more characters)"


def merge_usage(old: Usage, new: Usage) -> Usage:
    """Later reports win per field; fields not reported stay as they were."""
    return Usage(
        new.input_tokens if new.input_tokens is not None else old.input_tokens,
        new.output_tokens if new.output_tokens is not None else old.output_tokens,
        new.cache_read_tokens if new.cache_read_tokens is not None else old.cache_read_tokens,
        new.cache_write_tokens if new.cache_write_tokens is not None else old.cache_write_tokens,
    )
