"""Anthropic Messages stream events → neutral stream events.

Anthropic frames a reply as typed content blocks (``text``, ``thinking``,
``tool_use``), each opened, filled by deltas and closed, inside a message
that ends with ``message_stop``. Usage is split: input (with cache reads and
writes) in ``message_start``, output in ``message_delta``. We report it once,
combined, at ``message_delta`` — so nothing is yielded before the first
content, and an ``overloaded_error`` that arrives right after
``message_start`` can still be retried by the transport.

``Usage.input_tokens`` counts *all* prompt tokens (uncached + cache read +
cache write), matching what OpenAI's ``prompt_tokens`` means.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from foya_desktop.core.errors import (
    AuthError,
    ContextTooLong,
    IncompleteStream,
    Overloaded,
    ProviderError,
    RateLimited,
    StreamErrorEvent,
    UnreadableReply,
)
from foya_desktop.core.figures import Usage
from foya_desktop.core.llm import (
    Finish,
    ReasoningDelta,
    ReasoningSignature,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallStart,
    UsageReport,
)
from foya_desktop.providers.budget import ReplyBudget
from foya_desktop.providers.common import (
    load_event_json,
    optional_int,
    read_tool_arguments,
    unreadable_reply,
)
from foya_desktop.providers.http_errors import mentions_context_length, vendor_detail
from foya_desktop.providers.sse import SseEvent

_STOP_REASONS = {"end_turn": "stop", "stop_sequence": "stop", "tool_use": "tool_calls",
                 "max_tokens": "length"}
_ERROR_TYPES: dict[str, type[ProviderError]] = {
    "overloaded_error": Overloaded, "api_error": Overloaded, "rate_limit_error": RateLimited,
    "authentication_error": AuthError, "permission_error": AuthError,
    "invalid_request_error": ProviderError, "not_found_error": ProviderError,
    "request_too_large": ProviderError,
}


@dataclass(slots=True)
class _Block:
    """An open content block."""

    kind: str
    call_id: str = ""
    name: str = ""
    fragments: list[str] = field(default_factory=list)
    signature: str = ""
    prefilled: str = ""
    """JSON of a tool_use input given in full at block start (used when no deltas follow)."""


class MessagesDecoder:
    """One reply's decoder; see the module docstring for the rules. Everything it keeps or hands
    on is charged to ``budget`` (:mod:`.budget`)."""

    def __init__(self, host: str, secret: str | None = None, budget: ReplyBudget | None = None) -> None:
        self._host = host
        self._secret = secret
        self._budget = budget or ReplyBudget(host)
        self._blocks: dict[int, _Block] = {}
        self._start_usage: dict[str, Any] = {}
        self._stop_reason = ""
        self._done = False

    @property
    def done(self) -> bool:
        return self._done

    def feed(self, event: SseEvent) -> list[StreamEvent]:
        data = load_event_json(event, self._host)
        kind = str(data.get("type") or event.event)
        if kind == "message_start":
            message = data.get("message") or {}
            self._start_usage = message.get("usage") or {}
            return []
        if kind == "content_block_start":
            return self._block_start(data)
        if kind == "content_block_delta":
            return self._block_delta(data)
        if kind == "content_block_stop":
            return self._block_stop(data)
        if kind == "message_delta":
            return self._message_delta(data)
        if kind == "message_stop":
            self._done = True
            return [Finish(_STOP_REASONS.get(self._stop_reason, "other"))]
        if kind == "error" or event.event == "error":  # llama.cpp: the error object is the data itself
            raise self._stream_error(data)
        return []  # ping, and event types added after this was written

    def end(self) -> list[StreamEvent]:
        if not self._done:
            raise IncompleteStream(f"The reply from {self._host} ended before it was complete.")
        return []

    def _block_start(self, data: dict[str, Any]) -> list[StreamEvent]:
        index = _index(data)
        block = data.get("content_block") or {}
        kind = str(block.get("type", ""))
        self._budget.open_part()
        self._blocks[index] = _Block(kind)
        if kind == "tool_use":
            charge = self._budget.charge
            call = _Block(kind, call_id=charge(str(block.get("id", ""))),
                          name=charge(str(block.get("name", ""))))
            self._blocks[index] = call
            if block.get("input"):  # some compatible servers send the whole input up front
                call.prefilled = charge(json.dumps(block["input"]))
            return [ToolCallStart(index, call.call_id, call.name)]
        if kind == "text" and block.get("text"):
            return [TextDelta(self._budget.charge(str(block["text"])))]
        if kind == "thinking" and block.get("thinking"):
            return [ReasoningDelta(self._budget.charge(str(block["thinking"])))]
        return []

    def _block_delta(self, data: dict[str, Any]) -> list[StreamEvent]:
        index = _index(data)
        delta = data.get("delta") or {}
        kind = delta.get("type")
        if index not in self._blocks:
            self._budget.open_part()
        block = self._blocks.setdefault(index, _Block(""))
        if kind == "text_delta" and delta.get("text"):
            return [TextDelta(self._budget.charge(str(delta["text"])))]
        if kind == "thinking_delta" and delta.get("thinking"):
            return [ReasoningDelta(self._budget.charge(str(delta["thinking"])))]
        if kind == "signature_delta":
            block.signature += self._budget.charge(str(delta.get("signature", "")))
        elif kind == "input_json_delta" and delta.get("partial_json"):
            fragment = self._budget.charge(str(delta["partial_json"]))
            block.fragments.append(fragment)
            return [ToolCallDelta(index, fragment)]
        return []

    def _block_stop(self, data: dict[str, Any]) -> list[StreamEvent]:
        index = _index(data)
        block = self._blocks.pop(index, None)
        if block is None:
            return []
        if block.kind == "tool_use":
            raw = "".join(block.fragments) or block.prefilled
            arguments, unreadable = read_tool_arguments(raw)
            return [ToolCallEnd(index, block.call_id, block.name, arguments, unreadable,
                                raw if unreadable else "")]
        if block.signature:
            return [ReasoningSignature(block.signature)]
        return []

    def _message_delta(self, data: dict[str, Any]) -> list[StreamEvent]:
        delta = data.get("delta") or {}
        if delta.get("stop_reason"):
            self._stop_reason = str(delta["stop_reason"])
        usage = {**self._start_usage, **(data.get("usage") or {})}
        return [UsageReport(_usage(usage))] if usage else []

    def _stream_error(self, data: dict[str, Any]) -> ProviderError:
        error = data.get("error") or data
        kind = str(error.get("type", "")) if isinstance(error, dict) else ""
        message = str(error.get("message", "")) if isinstance(error, dict) else str(error)
        detail = vendor_detail(kind, message, self._secret) or "no details"
        text = f"{self._host} reported an error during the reply ({kind or 'unknown'}): {detail}"
        if mentions_context_length(message):
            return ContextTooLong(text)
        if unreadable_reply(message):
            return UnreadableReply(text)
        return _ERROR_TYPES.get(kind, StreamErrorEvent)(text)


def _index(data: dict[str, Any]) -> int:
    index = data.get("index", 0)
    return index if isinstance(index, int) else 0


def _usage(usage: dict[str, Any]) -> Usage:
    uncached = optional_int(usage.get("input_tokens"))
    cache_read = optional_int(usage.get("cache_read_input_tokens"))
    cache_write = optional_int(usage.get("cache_creation_input_tokens"))
    total_input = None if uncached is None else uncached + (cache_read or 0) + (cache_write or 0)
    return Usage(input_tokens=total_input, output_tokens=optional_int(usage.get("output_tokens")),
                 cache_read_tokens=cache_read, cache_write_tokens=cache_write)
