"""The fake's Chat Completions wire format, shaped like OpenAI's own stream.

The first chunk carries the role, content arrives as ``delta`` chunks, tool
calls as an id/name chunk followed by argument fragments keyed by ``index``,
then a ``finish_reason`` chunk, a usage chunk with empty ``choices`` (only
when the request asked for it, as OpenAI does) and ``data: [DONE]``.
"""

from __future__ import annotations

import itertools
from typing import Any

from tests.fakeprovider.frames import Frame, sse
from tests.fakeprovider.script import Fault, Reply, chunks

_ERRORS = {
    400: ("invalid_request_error", "context_length_exceeded",
          "This model's maximum context length is 128000 tokens. However, your messages resulted in "
          "131072 tokens. Please reduce the length of the messages."),
    403: ("permission_error", "forbidden", "You are not allowed to use this model."),
    404: ("invalid_request_error", "model_not_found", "The model does not exist."),
    429: ("rate_limit_error", "rate_limit_exceeded", "Rate limit reached for requests."),
    500: ("server_error", "server_error", "The server had an error while processing your request."),
    503: ("server_error", "overloaded", "The engine is currently overloaded."),
    529: ("server_error", "overloaded", "The engine is currently overloaded."),
}


def error_body(code: int, received_key: str) -> dict[str, Any]:
    """A vendor-style error body. For 401 it echoes the key it got, as a worst case: the adapter
    must never repeat it."""
    if code == 401:
        return {"error": {"message": f"Incorrect API key provided: {received_key}.",
                          "type": "invalid_request_error", "param": None, "code": "invalid_api_key"}}
    kind, short, message = _ERRORS.get(code, ("server_error", "error", f"HTTP {code}"))
    return {"error": {"message": message, "type": kind, "param": None, "code": short}}


def render(reply: Reply, request: dict[str, Any]) -> list[Frame]:
    """The whole stream for ``reply``."""
    model = str(request.get("model", "fake-model"))

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1700000000,
                "model": model, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    frames = [sse(chunk({"role": "assistant", "content": ""}), role="meta")]
    frames += [sse(chunk({reply.reasoning_key: piece}))
               for piece in chunks(reply.reasoning, reply.chunk_size)]
    frames += [sse(chunk({"content": piece})) for piece in chunks(reply.text, reply.chunk_size)]
    frames += [sse(chunk({"tool_calls": [call]})) for call in _tool_call_deltas(reply)]
    finish = reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")
    frames.append(sse(chunk({}, finish), role="tail"))
    if reply.report_usage and (request.get("stream_options") or {}).get("include_usage"):
        frames.append(sse(_usage_chunk(reply, model), role="tail"))
    frames.append(sse("[DONE]", role="tail"))
    return frames


def _tool_call_deltas(reply: Reply) -> list[dict[str, Any]]:
    per_call: list[list[dict[str, Any]]] = []
    for index, call in enumerate(reply.tool_calls):
        first = {"index": index, "id": call.id if call.id is not None else f"call_{index}",
                 "type": "function", "function": {"name": call.name, "arguments": ""}}
        if call.id == "":
            del first["id"]
        rest = [{"index": index, "function": {"arguments": piece}}
                for piece in chunks(call.arguments_json(), reply.chunk_size)]
        per_call.append([first, *rest])
    if not reply.interleave_tool_calls:
        return [delta for deltas in per_call for delta in deltas]
    rounds = itertools.zip_longest(*per_call)
    return [delta for round_ in rounds for delta in round_ if delta is not None]


def _usage_chunk(reply: Reply, model: str) -> dict[str, Any]:
    prompt, completion = reply.usage
    return {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1700000000,
            "model": model, "choices": [],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                      "total_tokens": prompt + completion,
                      "prompt_tokens_details": {"cached_tokens": reply.cached_tokens}}}


def midstream_error(fault: Fault) -> Frame:
    """An error object inside the stream, as OpenAI-compatible servers send it (with ``fault.code``:
    llama.cpp's shape, the HTTP-like code first)."""
    if fault.code:
        return sse({"error": {"code": fault.code, "message": fault.message, "type": fault.error_type}})
    return sse({"error": {"message": fault.message, "type": fault.error_type, "code": None}})


def bad_json() -> Frame:
    return sse('{"choices": [{"delta": {"content": "oops"')
