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

from foya_desktop.core.errors import BadResponse


@dataclass(frozen=True, slots=True)
class SseEvent:
    """One dispatched event."""

    event: str
    """The ``event:`` field; ``"message"`` when the server sent none."""
    data: str
    """All ``data:`` lines of the event joined with ``\\n``."""
    id: str = ""


MAX_LINE_CHARS = 16 * 1024 * 1024
"""Longest line accepted (a model's single delta is a few kB; a whole tool call rarely 1 MB)."""
MAX_EVENT_CHARS = 32 * 1024 * 1024
"""Largest event (all its ``data:`` lines) accepted before a blank line must end it."""


class SseParser:
    """Turns byte chunks into :class:`SseEvent` objects, keeping partial lines between calls.

    Work is linear in the bytes received: each chunk is scanned once, and a
    partial line is kept as a list of pieces joined only when its end
    arrives. A line or an event beyond the limits raises ``BadResponse``
    instead of growing without bound (a broken or hostile server).
    """

    def __init__(self, *, max_line: int = MAX_LINE_CHARS, max_event: int = MAX_EVENT_CHARS) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._partial: list[str] = []
        self._partial_len = 0
        self._pending_cr = False
        self._event = ""
        self._data: list[str] = []
        self._data_len = 0
        self._id = ""
        self._first_line = True
        self._max_line = max_line
        self._max_event = max_event

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
        events: list[SseEvent] = []
        pos, size = 0, len(text)
        ends = _LineEnds(text)
        while pos < size:
            end = ends.next(pos)
            if end < 0:
                self._keep(text[pos:])
                break
            piece = text[pos:end]
            if self._partial:
                self._keep(piece)
                piece = "".join(self._partial)
                self._partial, self._partial_len = [], 0
            elif len(piece) > self._max_line:
                raise _too_long("line", self._max_line)
            if text[end] == "\r":
                if end + 1 == size:
                    self._pending_cr = True  # an LF may follow in the next chunk
                    pos = end + 1
                else:
                    pos = end + 2 if text[end + 1] == "\n" else end + 1
            else:
                pos = end + 1
            event = self._process_line(piece)
            if event is not None:
                events.append(event)
        return events

    def _keep(self, piece: str) -> None:
        if piece:
            self._partial.append(piece)
            self._partial_len += len(piece)
            if self._partial_len > self._max_line:
                raise _too_long("line", self._max_line)

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
            self._data_len += len(value) + 1
            if self._data_len > self._max_event:
                raise _too_long("event", self._max_event)
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
        self._data_len = 0


def _too_long(what: str, limit: int) -> BadResponse:
    return BadResponse(f"The server sent a stream {what} longer than {limit // (1024 * 1024)} MB "
                       f"without ending it; the reply was stopped so it cannot fill the memory. "
                       "The server or a proxy in between is broken.")


class _LineEnds:
    """The line endings of one decoded chunk, found in one pass over it.

    Why not ``min(text.find("\r", pos), text.find("\n", pos))`` per line: in
    a stream without CR (the usual LF-only one) the CR search runs to the end
    of the chunk for every line, so a chunk of n short lines costs O(n²) — a
    2 MB chunk took 7 s, and 16 kB of gzip on the wire decode to one 8 MB
    chunk (httpx hands a decoded read over whole). Each character's next CR
    and next LF are looked up only once: a position found stays valid until
    the parser passes it, and "none" stays true to the chunk's end.
    """

    __slots__ = ("_cr", "_lf", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._cr = text.find("\r")
        self._lf = text.find("\n")

    def next(self, start: int) -> int:
        """Index of the first CR or LF at or after ``start``, or -1."""
        if 0 <= self._cr < start:
            self._cr = self._text.find("\r", start)
        if 0 <= self._lf < start:
            self._lf = self._text.find("\n", start)
        cr, lf = self._cr, self._lf
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
