"""What the fake provider should answer: replies, tool calls and faults.

These are plain data so a test can queue them in-process and a subprocess
test can write them to a JSON script file (see :func:`reply_from_json`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

FaultKind = Literal["status", "midstream_error", "cut", "bad_json", "hang_before_first_byte", "html_page",
                    "endless_line", "endless_event", "endless_reply", "trickle"]


@dataclass(frozen=True)
class ToolCallSpec:
    """One tool call the fake model makes."""

    name: str
    arguments: dict[str, Any] | str = field(default_factory=dict)
    """A dict (sent as JSON) or a raw string (sent as is, e.g. to test invalid JSON)."""
    id: str | None = None
    """The call id; ``None`` means ``call_<n>`` (OpenAI) or ``toolu_<n>`` (Anthropic); ``""`` sends
    the call without any id (as some local servers do)."""

    def arguments_json(self) -> str:
        if isinstance(self.arguments, str):
            return self.arguments
        return json.dumps(self.arguments, ensure_ascii=False)


@dataclass(frozen=True)
class Fault:
    """Something going wrong. Build with the class methods."""

    kind: FaultKind
    code: int = 0
    retry_after: str | None = None
    body: dict[str, Any] | str | None = None
    after_chunks: int = 1
    """For in-stream faults: how many content chunks are sent first."""
    error_type: str = ""
    message: str = ""
    seconds: float = 0.0
    size: int = 0
    """For the endless faults: how many bytes to send before giving up."""

    @classmethod
    def status(cls, code: int, retry_after: float | str | None = None,
               body: dict[str, Any] | str | None = None) -> Fault:
        """Answer with HTTP ``code`` (and a vendor-style error body unless ``body`` is given).
        ``retry_after`` is sent as the Retry-After header: seconds or an HTTP-date string."""
        value = None if retry_after is None else (
            retry_after if isinstance(retry_after, str) else f"{retry_after:g}")
        return cls("status", code=code, retry_after=value, body=body)

    @classmethod
    def midstream_error(cls, error_type: str = "overloaded_error", message: str = "Overloaded",
                        after_chunks: int = 1) -> Fault:
        """Send some content, then the vendor's in-stream error, then end the stream."""
        return cls("midstream_error", error_type=error_type, message=message, after_chunks=after_chunks)

    @classmethod
    def llama_cpp_error(cls, message: str = "Failed to parse input at pos 0: <tool_call>oops",
                        after_chunks: int = 1) -> Fault:
        """llama.cpp's in-stream error (its ``tools/server``): some content, then ``data: {"error":
        {"code": 500, "message": …, "type": "server_error"}}`` (OpenAI wire) or ``event: error`` with
        that object as its data (Anthropic wire), and the stream ends without a terminal event. The
        default message is the one its chat parser throws when the model's tool call does not parse."""
        return cls("midstream_error", code=500, error_type="server_error", message=message,
                   after_chunks=after_chunks)

    @classmethod
    def cut(cls, after_chunks: int = 1) -> Fault:
        """Send some content, then close the connection without a terminal event."""
        return cls("cut", after_chunks=after_chunks)

    @classmethod
    def bad_json(cls, after_chunks: int = 1) -> Fault:
        """Send some content, then an event whose data is not JSON."""
        return cls("bad_json", after_chunks=after_chunks)

    @classmethod
    def hang_before_first_byte(cls, seconds: float) -> Fault:
        """Wait ``seconds`` before sending the response headers, then answer normally."""
        return cls("hang_before_first_byte", seconds=seconds)


    @classmethod
    def html_page(cls) -> Fault:
        """HTTP 200 with a web page, as a captive portal or a misconfigured proxy answers."""
        return cls("html_page")

    @classmethod
    def endless_line(cls, size: int) -> Fault:
        """HTTP 200 event stream whose first ``data:`` line never ends (``size`` bytes, no newline)."""
        return cls("endless_line", size=size)

    @classmethod
    def endless_event(cls, size: int) -> Fault:
        """HTTP 200 event stream of ``data:`` lines that never reach the blank line ending the event."""
        return cls("endless_event", size=size)

    @classmethod
    def endless_reply(cls, size: int) -> Fault:
        """A valid stream whose content never ends: the reply's content events (its text,
        reasoning or tool-call fragments, in ``chunk_size`` pieces) sent again and again, as fast as
        the client reads, until ``size`` bytes of them went out (then the stream ends normally, so
        a client without a bound gets a whole, huge reply) or the client hangs up."""
        return cls("endless_reply", size=size)

    @classmethod
    def trickle(cls, seconds: float, after_chunks: int = 1) -> Fault:
        """Send ``after_chunks`` content events, then the rest of the stream one byte every
        ``seconds``: bytes keep coming, an event is never completed in time."""
        return cls("trickle", seconds=seconds, after_chunks=after_chunks)


@dataclass(frozen=True)
class Reply:
    """One scripted model reply (one request's worth)."""

    text: str = ""
    reasoning: str = ""
    tool_calls: Sequence[ToolCallSpec] = ()
    usage: tuple[int, int] = (10, 5)
    """(input tokens, output tokens) to report."""
    cached_tokens: int = 0
    report_usage: bool = True
    """OpenAI wire only: ``False`` sends no usage chunk (servers without ``include_usage``)."""
    """Part of the input reported as read from the prompt cache."""
    chunk_size: int = 8
    """Characters per text/reasoning/argument chunk."""
    delay_per_chunk: float = 0.0
    """Seconds to sleep before each content chunk (slow streams)."""
    fault: Fault | None = None
    finish_reason: str | None = None
    """Override the vendor stop reason; by default stop/end_turn or tool_calls/tool_use."""
    reasoning_key: str = "reasoning_content"
    """OpenAI wire only: ``reasoning_content`` (DeepSeek, vLLM) or ``reasoning`` (OpenRouter)."""
    signature: str = "sig-fake"
    """Anthropic wire only: the thinking block's signature."""
    interleave_tool_calls: bool = False
    """OpenAI wire only: send argument fragments of parallel calls round-robin."""


def fault_from_json(data: dict[str, Any]) -> Fault:
    """A fault from its JSON form: ``{"kind": "status", "code": 429, "retry_after": 1}`` etc."""
    kind = data["kind"]
    if kind == "status":
        return Fault.status(int(data["code"]), data.get("retry_after"), data.get("body"))
    if kind == "midstream_error":
        return Fault("midstream_error", code=int(data.get("code", 0)),
                     error_type=data.get("error_type", "overloaded_error"),
                     message=data.get("message", "Overloaded"), after_chunks=int(data.get("after_chunks", 1)))
    if kind in ("cut", "bad_json"):
        return Fault(kind, after_chunks=int(data.get("after_chunks", 1)))
    if kind == "hang_before_first_byte":
        return Fault.hang_before_first_byte(float(data["seconds"]))
    raise ValueError(f"unknown fault kind: {kind!r}")


def reply_from_json(data: dict[str, Any] | str) -> Reply:
    """A reply from its JSON form (a bare string is a text reply)."""
    if isinstance(data, str):
        return Reply(text=data)
    calls = tuple(ToolCallSpec(c["name"], c.get("arguments", {}), c.get("id"))
                  for c in data.get("tool_calls", ()))
    fault = fault_from_json(data["fault"]) if data.get("fault") else None
    simple = {k: data[k] for k in ("text", "reasoning", "cached_tokens", "chunk_size",
                                   "delay_per_chunk", "finish_reason", "reasoning_key", "signature", "report_usage",
                                   "interleave_tool_calls") if k in data}
    usage = tuple(data.get("usage", (10, 5)))
    return Reply(**simple, tool_calls=calls, fault=fault, usage=(int(usage[0]), int(usage[1])))


def chunks(text: str, size: int) -> list[str]:
    """``text`` in pieces of ``size`` characters (at least one piece when non-empty)."""
    size = max(1, size)
    return [text[i:i + size] for i in range(0, len(text), size)]
