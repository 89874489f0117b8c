"""Anthropic Messages API (and Anthropic-compatible endpoints).

This module only builds the request; :mod:`.anthropic_decoder` reads the
stream and :mod:`.http` does the sending. Rules the API enforces that shape
the mapping:

* all tool results answering one assistant step go in ONE user message;
* a thinking block may only be sent back with its signature, so unsigned
  reasoning (e.g. from another vendor) is dropped;
* empty text blocks are rejected, so they are skipped;
* with thinking enabled, ``max_tokens`` must exceed the thinking budget.

Agent loops resend a long, stable prefix on every step, so the system prompt,
the tools and the newest message are marked as prompt-cache breakpoints.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Sequence
from typing import Any

import httpx

from foya_desktop.core.llm import (
    InlineImage,
    LlmMessage,
    LlmRequest,
    LlmToolResult,
    StreamEvent,
)
from foya_desktop.core.messages import ReasoningPart, TextPart, ToolCallPart
from foya_desktop.providers.anthropic_decoder import MessagesDecoder
from foya_desktop.providers.base import (
    DEFAULT_RETRY,
    DEFAULT_TIMEOUTS,
    RetryCallback,
    RetryPolicy,
    Timeouts,
)
from foya_desktop.providers.budget import DEFAULT_LIMITS, ReplyLimits
from foya_desktop.providers.common import b64
from foya_desktop.providers.http import HttpStreamer, host_of

Json = dict[str, Any]

ANTHROPIC_VERSION = "2023-06-01"
THINKING_BUDGETS = {"low": 2048, "medium": 8192, "high": 24576}
"""Thinking tokens per reasoning effort (the API's minimum budget is 1024)."""
_CACHE = {"type": "ephemeral"}


def messages_url(base_url: str) -> str:
    """``…/v1/messages`` whether ``base_url`` is ``https://api.anthropic.com`` or ends in ``/v1``."""
    base = base_url.rstrip("/")
    return f"{base}/messages" if base.endswith("/v1") else f"{base}/v1/messages"


class AnthropicProvider:
    """An Anthropic Messages endpoint."""

    def __init__(self, base_url: str, api_key: str | None, timeouts: Timeouts = DEFAULT_TIMEOUTS,
                 retry: RetryPolicy = DEFAULT_RETRY, *, on_retry: RetryCallback | None = None,
                 client: httpx.AsyncClient | None = None, limits: ReplyLimits = DEFAULT_LIMITS) -> None:
        self._url = messages_url(base_url)
        self._host = host_of(self._url)
        self._api_key = api_key or None
        self._http = HttpStreamer(timeouts=timeouts, retry=retry, on_retry=on_retry, client=client,
                                  secret=self._api_key, limits=limits)

    def __repr__(self) -> str:
        return f"AnthropicProvider({self._url!r})"  # never the key

    def stream(self, request: LlmRequest) -> AsyncGenerator[StreamEvent]:
        """Send one request and stream the reply. Stop early with ``aclose()`` (or
        ``contextlib.aclosing``) so the connection is released at once."""
        return self._http.stream(self._url, self._headers(), lambda: build_body(request),
                                 lambda budget: MessagesDecoder(self._host, self._api_key, budget))

    async def aclose(self) -> None:
        """Release the HTTP client."""
        await self._http.aclose()

    def _headers(self) -> dict[str, str]:
        headers = {"accept": "text/event-stream", "anthropic-version": ANTHROPIC_VERSION}
        if self._api_key:
            headers["x-api-key"] = self._api_key
        return headers


def build_body(request: LlmRequest) -> Json:
    """The JSON body for ``request`` (public so tests and the debug view can show it)."""
    body: Json = {"model": request.model, "max_tokens": request.max_tokens,
                  "messages": build_messages(request.messages), "stream": True}
    if request.system:
        body["system"] = [{"type": "text", "text": request.system, "cache_control": _CACHE}]
    if request.tools:
        body["tools"] = [{"name": t.name, "description": t.description, "input_schema": t.parameters}
                         for t in request.tools]
        body["tools"][-1]["cache_control"] = _CACHE
    budget = THINKING_BUDGETS.get(request.reasoning_effort)
    if budget is not None:
        body["thinking"] = {"type": "enabled", "budget_tokens": budget}
        if request.max_tokens <= budget:
            body["max_tokens"] = budget + request.max_tokens
    body.update(request.extra)
    return body


def build_messages(messages: Sequence[LlmMessage]) -> list[Json]:
    """Neutral messages → Messages API messages, tool results grouped per step."""
    out: list[Json] = []
    pending_results: list[Json] = []
    for message in messages:
        if message.role == "tool":
            pending_results.extend(_tool_result(p) for p in message.parts if isinstance(p, LlmToolResult))
            continue
        if pending_results:
            out.append({"role": "user", "content": pending_results})
            pending_results = []
        blocks = _user_blocks(message) if message.role == "user" else _assistant_blocks(message)
        if blocks:
            out.append({"role": message.role, "content": blocks})
    if pending_results:
        out.append({"role": "user", "content": pending_results})
    if out and out[-1]["content"][-1]["type"] != "thinking":  # thinking cannot carry a breakpoint
        out[-1]["content"][-1]["cache_control"] = _CACHE
    return out


def _user_blocks(message: LlmMessage) -> list[Json]:
    blocks: list[Json] = []
    for part in message.parts:
        if isinstance(part, TextPart) and part.text:
            blocks.append({"type": "text", "text": part.text})
        elif isinstance(part, InlineImage):
            blocks.append(_image(part))
    return blocks


def _assistant_blocks(message: LlmMessage) -> list[Json]:
    blocks: list[Json] = []
    for part in message.parts:
        if isinstance(part, ReasoningPart) and part.signature:
            blocks.append({"type": "thinking", "thinking": part.text, "signature": part.signature})
        elif isinstance(part, TextPart) and part.text:
            blocks.append({"type": "text", "text": part.text})
        elif isinstance(part, ToolCallPart):
            blocks.append({"type": "tool_use", "id": part.call_id, "name": part.name,
                           "input": part.arguments})
    return blocks


def _tool_result(result: LlmToolResult) -> Json:
    block: Json = {"type": "tool_result", "tool_use_id": result.call_id}
    if result.images:
        content: list[Json] = [{"type": "text", "text": result.content}] if result.content else []
        block["content"] = content + [_image(image) for image in result.images]
    else:
        block["content"] = result.content
    if result.is_error:
        block["is_error"] = True
    return block


def _image(image: InlineImage) -> Json:
    return {"type": "image", "source": {"type": "base64", "media_type": image.mime, "data": b64(image)}}
