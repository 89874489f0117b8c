"""An incremental Server-Sent Events parser.

Both vendors stream their replies as SSE. The parser is fed raw bytes as they
arrive (chunks may split a line, a CRLF pair or a UTF-8 sequence anywhere) and
hands back whole events, so the adapters never see transport framing and the
timeouts in :mod:`foya_desktop.providers.http` can measure the gap between
*events* rather than between TCP reads.

It follows the WHATWG event-stream rules that matter for model APIs: ``event:``
and ``data:`` fields, multi-line data joined with ``\\n``, ``:`` comment lines
(keep-alives) ignored, and ``\\r\\n``, ``\\r`` or ``\\n`` line endings.
"""

from __future__ import annotations

import codecs
from collections.abc import AsyncGenerator, AsyncIterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SseEvent:
    """One dispatched event."""

    event: str
    """The ``event:`` field; ``"message"`` when the server sent none."""
    data: str
    """All ``data:`` lines of the event joined with ``\\n``."""
    id: str = ""


class SseParser:
    """Turns byte chunks into :class:`SseEvent` objects, keeping partial lines between calls."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._pending_cr = False
        self._event = ""
        self._data: list[str] = []
        self._id = ""
        self._first_line = True

    def feed(self, chunk: bytes) -> list[SseEvent]:
        """Consume ``chunk`` and return the events it completed (possibly none)."""
        return self._feed_text(self._decoder.decode(chunk))

    def close(self) -> list[SseEvent]:
        """End of stream: dispatch an event whose lines all arrived but whose blank line did not.

        The WHATWG rules drop such an event; some OpenAI-compatible servers end
        with ``data: [DONE]\\n`` and no blank line, so we keep complete lines.
        A final line without its line ending is a cut stream and is dropped.
        """
        events = self._feed_text(self._decoder.decode(b"", final=True))
        if self._data:
            events.append(self._dispatch())
        return events

    def _feed_text(self, text: str) -> list[SseEvent]:
        if self._pending_cr and text.startswith("\n"):
            text = text[1:]  # the LF of a CRLF split across chunks
        self._pending_cr = False
        self._buffer += text
        events: list[SseEvent] = []
        while True:
            end = _line_end(self._buffer)
            if end < 0:
                break
            line = self._buffer[:end]
            sep_len = 2 if self._buffer.startswith("\r\n", end) else 1
            if self._buffer[end] == "\r" and end + 1 == len(self._buffer):
                self._pending_cr = True  # an LF may follow in the next chunk
            self._buffer = self._buffer[end + sep_len:]
            event = self._process_line(line)
            if event is not None:
                events.append(event)
        return events

    def _process_line(self, line: str) -> SseEvent | None:
        if self._first_line:
            self._first_line = False
            line = line.removeprefix("\ufeff")
        if not line:
            if self._data:
                return self._dispatch()
            self._reset()
            return None
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self._id = value
        return None

    def _dispatch(self) -> SseEvent:
        event = SseEvent(event=self._event or "message", data="\n".join(self._data), id=self._id)
        self._reset()
        return event

    def _reset(self) -> None:
        self._event = ""
        self._data = []


def _line_end(buffer: str) -> int:
    """Index of the first CR or LF in ``buffer``, or -1."""
    cr = buffer.find("\r")
    lf = buffer.find("\n")
    if cr < 0:
        return lf
    if lf < 0:
        return cr
    return min(cr, lf)


async def aiter_sse(chunks: AsyncIterable[bytes]) -> AsyncGenerator[SseEvent]:
    """Yield the events of a byte stream as soon as each one is complete."""
    parser = SseParser()
    async for chunk in chunks:
        for event in parser.feed(chunk):
            yield event
    for event in parser.close():
        yield event
