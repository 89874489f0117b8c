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


@dataclass
class StepAccumulator:
    """Collects text, reasoning, finished tool calls, usage and the finish reason."""

    text: list[str] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)
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
