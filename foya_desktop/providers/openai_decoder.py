"""Chat Completions stream chunks → neutral stream events.

The awkward parts of this format, handled here once:

* tool calls arrive as fragments keyed by ``index`` (several calls may be
  interleaved); the id and name come first, the JSON arguments in pieces, and
  nothing marks one call as finished except the ``finish_reason``;
* with ``include_usage`` the usage arrives in a chunk *after* the one with the
  ``finish_reason``, so :class:`Finish` waits for ``[DONE]`` (or a clean end of
  the stream after a ``finish_reason``, for servers that omit ``[DONE]``);
* reasoning text is ``reasoning_content`` (DeepSeek, vLLM) or ``reasoning``
  (OpenRouter, Ollama) depending on the server.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from foya_desktop.core.errors import BadResponse, IncompleteStream, StreamErrorEvent, UnreadableReply
from foya_desktop.core.figures import Usage
from foya_desktop.core.llm import (
    Finish,
    ReasoningDelta,
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
from foya_desktop.providers.http_errors import redact, vendor_error_from_json
from foya_desktop.providers.sse import SseEvent

_FINISH_REASONS = {"stop": "stop", "tool_calls": "tool_calls", "function_call": "tool_calls",
                   "length": "length"}


@dataclass(slots=True)
class _PendingCall:
    """A tool call being assembled from its fragments."""

    index: int
    call_id: str = ""
    name: str = ""
    fragments: list[str] = field(default_factory=list)
    started: bool = False


class ChatCompletionsDecoder:
    """One reply's decoder; see the module docstring for the rules. Everything it keeps or hands
    on is charged to ``budget`` (:mod:`.budget`)."""

    def __init__(self, host: str, secret: str | None = None, budget: ReplyBudget | None = None) -> None:
        self._host = host
        self._secret = secret
        self._budget = budget or ReplyBudget(host)
        self._calls: dict[int, _PendingCall] = {}
        self._finish_reason: str | None = None
        self._ended_calls = 0
        self._last_index: int | None = None
        self._done = False

    @property
    def done(self) -> bool:
        return self._done

    def feed(self, event: SseEvent) -> list[StreamEvent]:
        if event.data.strip() == "[DONE]":
            self._done = True
            return [*self._end_calls(), self._finish()]
        chunk = load_event_json(event, self._host)
        if chunk.get("error"):
            _kind, message = vendor_error_from_json(chunk)
            text = redact(message, self._secret) or "no details"
            kind = UnreadableReply if unreadable_reply(message) else StreamErrorEvent
            raise kind(f"{self._host} reported an error during the reply: {text}")
        out: list[StreamEvent] = []
        for choice in chunk.get("choices") or []:
            if isinstance(choice, dict) and choice.get("index", 0) == 0:
                out.extend(self._choice(choice))
        usage = chunk.get("usage")
        if isinstance(usage, dict):
            out.append(UsageReport(_usage(usage)))
        return out

    def end(self) -> list[StreamEvent]:
        if self._done:
            return []
        if self._finish_reason is None:
            raise IncompleteStream(f"The reply from {self._host} ended before it was complete.")
        self._done = True
        return [*self._end_calls(), self._finish()]

    def _choice(self, choice: dict[str, Any]) -> list[StreamEvent]:
        out: list[StreamEvent] = []
        delta = choice.get("delta") or {}
        reasoning = delta.get("reasoning_content") or delta.get("reasoning")
        if isinstance(reasoning, str) and reasoning:
            out.append(ReasoningDelta(self._budget.charge(reasoning)))
        content = delta.get("content")
        if isinstance(content, str) and content:
            out.append(TextDelta(self._budget.charge(content)))
        for position, fragment in enumerate(delta.get("tool_calls") or []):
            if isinstance(fragment, dict):
                out.extend(self._tool_fragment(position, fragment))
        reason = choice.get("finish_reason")
        if reason:
            self._finish_reason = str(reason)
            out.extend(self._end_calls())
        return out

    def _tool_fragment(self, position: int, fragment: dict[str, Any]) -> list[StreamEvent]:
        index = fragment.get("index")
        if index is None:
            index = self._index_for(fragment.get("id"), position)
        if not isinstance(index, int):
            raise BadResponse(f"{self._host} sent a tool call without a valid index.")
        if index not in self._calls:
            self._budget.open_part()
        call = self._calls.setdefault(index, _PendingCall(index))
        self._last_index = index
        function = fragment.get("function") or {}
        call.call_id = call.call_id or self._budget.charge(str(fragment.get("id") or ""))
        call.name = call.name or self._budget.charge(str(function.get("name") or ""))
        arguments = function.get("arguments")
        if isinstance(arguments, dict):  # a few servers send the finished object
            arguments = json.dumps(arguments)
        if isinstance(arguments, str):
            self._budget.charge(arguments)
        out: list[StreamEvent] = []
        if not call.started and call.name:
            call.started = True
            out.append(ToolCallStart(index, call.call_id, call.name))
            if call.fragments:
                out.append(ToolCallDelta(index, "".join(call.fragments)))
        if isinstance(arguments, str) and arguments:
            call.fragments.append(arguments)
            if call.started:
                out.append(ToolCallDelta(index, arguments))
        return out

    def _index_for(self, call_id: Any, position: int) -> int:
        """An index for a server that leaves it out: the call with this id, a new slot for a new
        id, else the call the previous fragment belonged to."""
        if call_id:
            for index, call in self._calls.items():
                if call.call_id == call_id:
                    return index
            return max([*self._calls, self._ended_calls - 1, position - 1]) + 1
        return self._last_index if self._last_index is not None else position

    def _end_calls(self) -> list[StreamEvent]:
        out: list[StreamEvent] = []
        for index in sorted(self._calls):
            call = self._calls[index]
            raw = "".join(call.fragments)  # a call without a name or id ends too: the engine tells the model
            arguments, unreadable = read_tool_arguments(raw)
            out.append(ToolCallEnd(index, call.call_id, call.name, arguments, unreadable,
                                   raw if unreadable else ""))
        self._ended_calls += len(self._calls)
        self._calls.clear()
        return out

    def _finish(self) -> Finish:
        reason = _FINISH_REASONS.get(self._finish_reason or "", "other")
        if reason == "stop" and self._ended_calls:
            reason = "tool_calls"  # some local servers say "stop" after calling tools
        return Finish(reason)


def _usage(usage: dict[str, Any]) -> Usage:
    details = usage.get("prompt_tokens_details")
    cached = optional_int(details.get("cached_tokens")) if isinstance(details, dict) else None
    if cached is None:
        cached = optional_int(usage.get("prompt_cache_hit_tokens"))  # DeepSeek
    return Usage(input_tokens=optional_int(usage.get("prompt_tokens")),
                 output_tokens=optional_int(usage.get("completion_tokens")),
                 cache_read_tokens=cached)
