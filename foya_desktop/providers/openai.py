"""OpenAI-compatible Chat Completions (OpenAI, Ollama, vLLM, llama.cpp, LM Studio, OpenRouter…).

This module only builds the request; :mod:`.openai_decoder` reads the stream
and :mod:`.http` does the sending. The body sticks to the widely implemented
subset of the API so that local servers accept it: plain-string content when
a message has no images, ``max_tokens`` except on api.openai.com (which wants
``max_completion_tokens`` for its reasoning models).
"""

from __future__ import annotations

import json
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
from foya_desktop.core.messages import TextPart, ToolCallPart
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
from foya_desktop.providers.openai_decoder import ChatCompletionsDecoder

Json = dict[str, Any]


class OpenAIProvider:
    """A Chat Completions endpoint. ``base_url`` ends where the SDKs' does (``…/v1``)."""

    def __init__(self, base_url: str, api_key: str | None, timeouts: Timeouts = DEFAULT_TIMEOUTS,
                 retry: RetryPolicy = DEFAULT_RETRY, *, on_retry: RetryCallback | None = None,
                 client: httpx.AsyncClient | None = None, limits: ReplyLimits = DEFAULT_LIMITS) -> None:
        self._url = base_url.rstrip("/") + "/chat/completions"
        self._host = host_of(self._url)
        self._api_key = api_key or None
        self._http = HttpStreamer(timeouts=timeouts, retry=retry, on_retry=on_retry, client=client,
                                  secret=self._api_key, limits=limits)

    def __repr__(self) -> str:
        return f"OpenAIProvider({self._url!r})"  # never the key

    def stream(self, request: LlmRequest) -> AsyncGenerator[StreamEvent]:
        """Send one request and stream the reply. Stop early with ``aclose()`` (or
        ``contextlib.aclosing``) so the connection is released at once."""
        return self._http.stream(self._url, self._headers(), lambda: self.build_body(request),
                                 lambda budget: ChatCompletionsDecoder(self._host, self._api_key, budget))

    async def aclose(self) -> None:
        """Release the HTTP client."""
        await self._http.aclose()

    def _headers(self) -> dict[str, str]:
        headers = {"accept": "text/event-stream"}
        if self._api_key:
            headers["authorization"] = f"Bearer {self._api_key}"
        return headers

    def build_body(self, request: LlmRequest) -> Json:
        """The JSON body for ``request`` (public so tests and the debug view can show it)."""
        body: Json = {
            "model": request.model,
            "messages": build_messages(request.system, request.messages),
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        limit_key = "max_completion_tokens" if self._host == "api.openai.com" else "max_tokens"
        body[limit_key] = request.max_tokens
        if request.tools:
            body["tools"] = [{"type": "function", "function": {
                "name": t.name, "description": t.description, "parameters": t.parameters}}
                for t in request.tools]
        if request.reasoning_effort:
            body["reasoning_effort"] = request.reasoning_effort
        body.update(request.extra)
        return body


def build_messages(system: str, messages: Sequence[LlmMessage]) -> list[Json]:
    """Neutral messages → Chat Completions messages.

    Tool messages must directly follow the assistant message that called them,
    so images returned by tools are sent in one user message *after* the run of
    tool messages (the ``tool`` role cannot carry images).
    """
    out: list[Json] = [{"role": "system", "content": system}] if system else []
    tool_images: list[Json] = []
    for message in messages:
        if message.role != "tool" and tool_images:
            out.append({"role": "user", "content": tool_images})
            tool_images = []
        if message.role == "user":
            out.append({"role": "user", "content": _user_content(message)})
        elif message.role == "assistant":
            out.append(_assistant(message))
        else:
            for part in message.parts:
                if isinstance(part, LlmToolResult):
                    out.append(_tool_message(part))
                    tool_images.extend(_tool_images(part))
    if tool_images:
        out.append({"role": "user", "content": tool_images})
    return out


def _user_content(message: LlmMessage) -> str | list[Json]:
    texts = [p.text for p in message.parts if isinstance(p, TextPart)]
    images = [p for p in message.parts if isinstance(p, InlineImage)]
    if not images:
        return "\n\n".join(texts)
    content: list[Json] = []
    for part in message.parts:
        if isinstance(part, TextPart):
            content.append({"type": "text", "text": part.text})
        elif isinstance(part, InlineImage):
            content.append(_image(part))
    return content


def _assistant(message: LlmMessage) -> Json:
    text = "".join(p.text for p in message.parts if isinstance(p, TextPart))
    calls = [{"id": p.call_id, "type": "function",
              "function": {"name": p.name, "arguments": json.dumps(p.arguments, ensure_ascii=False)}}
             for p in message.parts if isinstance(p, ToolCallPart)]
    result: Json = {"role": "assistant", "content": text or (None if calls else "")}
    if calls:
        result["tool_calls"] = calls
    return result


def _tool_message(result: LlmToolResult) -> Json:
    content = f"Error: {result.content}" if result.is_error else result.content
    return {"role": "tool", "tool_call_id": result.call_id, "content": content}


def _tool_images(result: LlmToolResult) -> list[Json]:
    if not result.images:
        return []
    label = {"type": "text", "text": f"Image(s) returned by the tool {result.name} "
                                     f"(call {result.call_id}):"}
    return [label, *(_image(image) for image in result.images)]


def _image(image: InlineImage) -> Json:
    return {"type": "image_url", "image_url": {"url": f"data:{image.mime};base64,{b64(image)}"}}
