"""The fake's Anthropic Messages wire format, shaped like Anthropic's own stream.

``message_start`` (input usage), a ``ping``, one content block per kind —
thinking (with a ``signature_delta``), text, then each ``tool_use`` with
``input_json_delta`` fragments — ``message_delta`` (stop reason, output usage)
and ``message_stop``.
"""

from __future__ import annotations

from typing import Any

from tests.fakeprovider.frames import Frame, sse
from tests.fakeprovider.script import Fault, Reply, chunks

_ERRORS = {
    400: ("invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"),
    403: ("permission_error", "Your API key does not have permission to use the specified resource."),
    404: ("not_found_error", "model: fake-missing"),
    413: ("request_too_large", "Request exceeds the maximum allowed number of bytes."),
    429: ("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"),
    500: ("api_error", "Internal server error"),
    529: ("overloaded_error", "Overloaded"),
}


def error_body(code: int, received_key: str) -> dict[str, Any]:
    """A vendor-style error body. For 401 it echoes the key it got, as a worst case: the adapter
    must never repeat it."""
    if code == 401:
        kind, message = "authentication_error", f"invalid x-api-key {received_key}"
    else:
        kind, message = _ERRORS.get(code, ("api_error", f"HTTP {code}"))
    return {"type": "error", "error": {"type": kind, "message": message}}


def render(reply: Reply, request: dict[str, Any]) -> list[Frame]:
    """The whole stream for ``reply``."""
    frames = [_message_start(reply, request), sse({"type": "ping"}, "ping", "meta")]
    index = 0
    if reply.reasoning:
        frames += _block(index, {"type": "thinking", "thinking": ""},
                         [{"type": "thinking_delta", "thinking": piece}
                          for piece in chunks(reply.reasoning, reply.chunk_size)],
                         [{"type": "signature_delta", "signature": reply.signature}])
        index += 1
    if reply.text:
        frames += _block(index, {"type": "text", "text": ""},
                         [{"type": "text_delta", "text": piece}
                          for piece in chunks(reply.text, reply.chunk_size)])
        index += 1
    for number, call in enumerate(reply.tool_calls):
        start = {"type": "tool_use", "id": call.id if call.id is not None else f"toolu_{number}",
                 "name": call.name, "input": {}}
        if call.id == "":
            del start["id"]
        frames += _block(index, start, [{"type": "input_json_delta", "partial_json": piece}
                                        for piece in chunks(call.arguments_json(), reply.chunk_size)])
        index += 1
    stop = reply.finish_reason or ("tool_use" if reply.tool_calls else "end_turn")
    frames.append(sse({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                       "usage": {"output_tokens": reply.usage[1]}}, "message_delta", "tail"))
    frames.append(sse({"type": "message_stop"}, "message_stop", "tail"))
    return frames


def _message_start(reply: Reply, request: dict[str, Any]) -> Frame:
    prompt, _ = reply.usage
    usage = {"input_tokens": prompt - reply.cached_tokens, "output_tokens": 1,
             "cache_read_input_tokens": reply.cached_tokens, "cache_creation_input_tokens": 0}
    message = {"id": "msg_fake", "type": "message", "role": "assistant", "content": [],
               "model": request.get("model", "fake-model"), "stop_reason": None,
               "stop_sequence": None, "usage": usage}
    return sse({"type": "message_start", "message": message}, "message_start", "meta")


def _block(index: int, start: dict[str, Any], deltas: list[dict[str, Any]],
           meta_deltas: tuple[dict[str, Any], ...] | list[dict[str, Any]] = ()) -> list[Frame]:
    frames = [sse({"type": "content_block_start", "index": index, "content_block": start},
                  "content_block_start", "meta")]
    frames += [sse({"type": "content_block_delta", "index": index, "delta": delta}, "content_block_delta")
               for delta in deltas]
    frames += [sse({"type": "content_block_delta", "index": index, "delta": delta},
                   "content_block_delta", "meta") for delta in meta_deltas]
    frames.append(sse({"type": "content_block_stop", "index": index}, "content_block_stop", "meta"))
    return frames


def midstream_error(fault: Fault) -> Frame:
    """Anthropic's in-stream ``error`` event (with ``fault.code``: llama.cpp's, whose data is the bare
    error object)."""
    if fault.code:
        return sse({"code": fault.code, "message": fault.message, "type": fault.error_type}, "error")
    return sse({"type": "error", "error": {"type": fault.error_type, "message": fault.message}}, "error")


def bad_json() -> Frame:
    return sse('{"type": "content_block_delta", "index": 0, "delta": {"type": "text_del',
               "content_block_delta")
